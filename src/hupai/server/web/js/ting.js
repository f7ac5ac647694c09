// 听 (docs/protocol.md, "听"): once the seat's hand is ready the player may let the table play it on —
// win whenever it may, otherwise let the drawn tile go — with no change to the score. From the seat's
// own update (`ting`, `waits`) this module draws the 听 mark with the waits (each tile and the copies
// this seat cannot see) and the 听 / 取消听 button; `wireTing` makes the button send the message.
//
// Interface (for the table view):
//   tingHtml(update)            the mark, the waits and the button together ("" when there is nothing)
//   tingMarkHtml(update)        the mark and the waits only ("" unless the hand is ready)
//   tingButtonHtml(update)      the button only, data-role="ting" ("" unless 听 may be pressed or is on)
//   wireTing(element, update, send)   the button inside `element` calls send({type: "ting", on})

import { t } from "./i18n.js";
import { tileSvg } from "./tiles.js";
import { escapeHtml } from "./util.js";


// True when the update is a seated player's own, with a hand in play.
function own(update) {
  return Boolean(update) && typeof update.ting === "boolean";
}

export function tingMarkHtml(update) {
  if (!own(update) || !(update.waits || []).length) return "";
  const waits = update.waits
    .map((wait) => {
      const tile = escapeHtml(wait.tile);
      return `<li class="ting-wait${wait.left ? "" : " none"}" data-tile="${tile}">${tileSvg(wait.tile, { extra: "small" })}` +
        `<span class="ting-left">${t("ting.left", { n: Number(wait.left) })}</span></li>`;
    })
    .join("");
  return `<span class="ting-mark" data-role="ting-mark"><span class="tag ting-tag">${t("ting.mark")}</span>` +
    `<ul class="ting-waits" aria-label="${t("ting.waits")}">${waits}</ul></span>`;
}

export function tingButtonHtml(update) {
  if (!own(update)) return "";
  const on = update.ting;
  if (!on && !(update.waits || []).length) return "";
  return `<button type="button" class="ting-button${on ? " on" : ""}" data-role="ting" data-on="${on}" ` +
    `aria-pressed="${on}" title="${t("ting.help")}">${t(on ? "ting.off" : "ting.on")}</button>`;
}

export function tingHtml(update) {
  const mark = tingMarkHtml(update);
  const button = tingButtonHtml(update);
  return mark || button ? `<div class="ting" data-role="ting-panel">${mark}${button}</div>` : "";
}

export function wireTing(element, update, send) {
  const button = element.querySelector('[data-role="ting"]');
  if (!button) return;
  button.addEventListener("click", () => {
    button.disabled = true; // one message per press: the next update redraws the button
    send({ type: "ting", on: !update.ting });
  });
}
