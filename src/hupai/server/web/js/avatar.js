// 头像: a round badge by every name. A player chooses one of the flower tiles' 梅兰竹菊 and 春夏秋冬 or a
// wind (the keys are schemas.Avatar on the server), or keeps the one drawn from the name: its first
// letter on a colour of its own, the same on every screen. Bots get a small robot. All are drawn with
// CSS and SVG, never an emoji the device may lack.

import { t } from "./i18n.js";
import { escapeHtml } from "./util.js";

// key → [character, colour]: the flower tiles in their traditional colours, the winds in ink blue.
export const AVATARS = {
  plum: ["梅", "#c0392b"],
  orchid: ["兰", "#8e44ad"],
  bamboo: ["竹", "#1e824c"],
  chrysanthemum: ["菊", "#c77c02"],
  spring: ["春", "#27ae60"],
  summer: ["夏", "#d35400"],
  autumn: ["秋", "#a04000"],
  winter: ["冬", "#2471a3"],
  east: ["东", "#1f3a93"],
  south: ["南", "#1f3a93"],
  west: ["西", "#1f3a93"],
  north: ["北", "#1f3a93"],
};

const ROBOT = `<svg viewBox="0 0 24 24" width="70%" height="70%" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round">
  <rect x="4.5" y="7.5" width="15" height="11" rx="3"/><path d="M12 7.5V4.5"/><circle cx="12" cy="3.6" r="1" fill="currentColor"/>
  <circle cx="9" cy="12.5" r="1.4" fill="currentColor"/><circle cx="15" cy="12.5" r="1.4" fill="currentColor"/><path d="M9.5 15.8h5"/></svg>`;

// The name's first letter (a whole grapheme: 小 of 小明, not half of an emoji), capitalised.
function initial(name) {
  const text = (name || "?").trim() || "?";
  const first = typeof Intl.Segmenter === "function"
    ? new Intl.Segmenter().segment(text)[Symbol.iterator]().next().value.segment
    : Array.from(text)[0];
  return first.toUpperCase();
}

// A colour of the name's own (a string hash onto the hue circle), dark enough for white letters.
function hueOf(name) {
  let hash = 0;
  for (const char of name || "") hash = (hash * 31 + char.codePointAt(0)) >>> 0;
  return hash % 360;
}

// The badge for a seat or a player: `avatar` is the chosen key (or null), `bot` true for a bot.
export function avatarHtml({ name = "", avatar = null, bot = false, size = "" } = {}) {
  const sized = size ? ` avatar-${size}` : "";
  if (bot) return `<span class="avatar robot${sized}" data-role="avatar" data-avatar="bot" aria-hidden="true">${ROBOT}</span>`;
  const chosen = AVATARS[avatar];
  if (chosen) {
    return `<span class="avatar chosen${sized}" data-role="avatar" data-avatar="${avatar}" style="--avatar-ink:${chosen[1]}" aria-hidden="true">${chosen[0]}</span>`;
  }
  return `<span class="avatar drawn${sized}" data-role="avatar" data-avatar="" style="--avatar-hue:${hueOf(name)}" aria-hidden="true">${escapeHtml(initial(name))}</span>`;
}

// A row of choices (radio buttons): the one drawn from `name` first, then the twelve to choose from.
export function avatarPickerHtml(name, current = null) {
  const choice = (key, badge, label) =>
    `<label class="avatar-choice" title="${escapeHtml(label)}"><input type="radio" name="avatar" value="${key}" ${key === (current || "") ? "checked" : ""}>${badge}<span class="sr-only">${escapeHtml(label)}</span></label>`;
  const choices = [
    choice("", avatarHtml({ name, size: "pick" }), t("avatar.fromName")),
    ...Object.entries(AVATARS).map(([key, [character]]) => choice(key, avatarHtml({ avatar: key, size: "pick" }), character)),
  ];
  return `<fieldset class="avatar-picker" data-role="avatar-picker"><legend>${t("avatar.choose")}</legend>${choices.join("")}</fieldset>`;
}

// The chosen key from a picker (null: drawn from the name).
export function pickedAvatar(picker) {
  const checked = picker.querySelector('input[name="avatar"]:checked');
  return checked && checked.value ? checked.value : null;
}
