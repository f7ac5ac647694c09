// The lobby: a nickname (guest in one step), create a room with its rule card, join by number.
// Every word on these screens is a [data-i18n] or [data-zh] element, so a language switch
// re-translates them in place (main.js) and whatever the player typed or chose stays.

import { api, currentUser } from "./api.js";
import { avatarHtml, avatarPickerHtml, pickedAvatar } from "./avatar.js";
import { infoDialog } from "./dialog.js";
import { onLanguageChange, pick, t, word } from "./i18n.js";
import { optionHtml, ruleCardEditor, ruleSummary } from "./rulecard.js";
import { tileSvg } from "./tiles.js";
import { byRuleSet, escapeHtml, html, toast } from "./util.js";

const HANDS = [4, 8, 16];
export const BOT_LEVELS = ["expert", "strong", "efficiency", "random"]; // strongest first; strong is the default
const PACES = ["quick", "natural", "relaxed"]; // how long bots seem to think (server/table/think.py)
const WATCHERS = ["invited", "anyone"]; // who may watch: with the invitation link, or anyone with the number

// The three rule sets as cards: a tile that stands for each, and what sets it apart in one line.
const GAMES = { nanjing: "5f", nanning: "1z", enshi: "7z" };

function gameCardsHtml(cards) {
  const rulesets = [...new Set(cards.map((card) => card.ruleset))];
  return rulesets
    .map((ruleset) => `<button type="button" class="game-card" data-ruleset="${ruleset}" aria-pressed="false">
      <span class="game-tile">${tileSvg(GAMES[ruleset] || "5z")}</span>
      <span class="game-words"><b>${word(`game.${ruleset}`)}</b><small>${word(`game.${ruleset}.about`)}</small></span>
    </button>`)
    .join("");
}

function handsHtml() {
  return HANDS.map((hands) => `<label class="segment" data-hands="${hands}"><input type="radio" name="hands" value="${hands}" ${hands === 8 ? "checked" : ""}><span>${hands}${word("lobby.handsUnit")}</span></label>`).join("");
}

function settingHtml(key, control) {
  return `<label class="setting"><span class="setting-name">${word(key)}</span>${control}</label>`;
}

export async function show(root) {
  const user = await currentUser();
  if (!user) {
    showNickname(root);
    return null;
  }
  const cards = (await api.rulesets()).sort(byRuleSet);
  root.innerHTML = "";
  const page = html(`<section class="lobby">
    <div class="player-card" data-role="player">
      <button type="button" class="avatar-button" data-role="change-avatar" title="${t("avatar.choose")}">${avatarHtml({ name: user.name, avatar: user.avatar, size: "large" })}</button>
      <div class="player-words">
        <p class="hello">${word("lobby.hello")}<b>${escapeHtml(user.name)}</b></p>
        <p class="player-links"><button type="button" class="link" data-role="change-avatar">${word("avatar.change")}</button>
        <button type="button" class="link" data-role="logout">${word("lobby.logout")}</button>
        <button type="button" class="link" data-role="logout-everywhere">${word("lobby.logoutEverywhere")}</button></p>
      </div>
    </div>
    <form class="card join" data-role="join">
      <h2>${word("lobby.join")}</h2>
      <p class="muted card-lead">${word("lobby.joinLead")}</p>
      <div class="join-line">
        <label><span class="sr-only">${word("lobby.number")}</span><input name="number" class="room-code" maxlength="300" required autocomplete="off" placeholder="${t("lobby.joinPlaceholder")}" aria-label="${t("lobby.number")}"></label>
        <button type="submit" class="primary">${word("lobby.join")}</button>
      </div>
    </form>
    <form class="card create" data-role="create">
      <h2>${word("lobby.create")}</h2>
      <div class="game-cards" data-role="games">${gameCardsHtml(cards)}</div>
      <div class="create-main">
        <label class="setting"><span class="setting-name">${word("lobby.preset")}</span><select name="preset">${cards.map((card) => optionHtml(card.preset, card)).join("")}</select></label>
        <fieldset class="setting segmented"><legend class="setting-name">${word("lobby.hands")}</legend>${handsHtml()}</fieldset>
      </div>
      <p class="rule-summary" data-role="rule-summary"></p>
      <div class="settings">
        ${settingHtml("lobby.seconds", '<input name="seconds" type="number" min="5" max="120" value="15">')}
        ${settingHtml("lobby.nextHand", '<input name="next_hand" type="number" min="3" max="120" value="15">')}
        ${settingHtml("lobby.claimPause", '<input name="claim" type="number" min="0.2" max="3" step="0.1" value="0.6">')}
        ${settingHtml("lobby.dissolveSeconds", '<input name="dissolve" type="number" min="10" max="300" value="60">')}
        ${settingHtml("lobby.watchers", `<select name="watchers">${WATCHERS.map((who) => `<option value="${who}" data-i18n="watchers.${who}">${t(`watchers.${who}`)}</option>`).join("")}</select>`)}
        ${settingHtml("lobby.botPace", `<select name="pace">${PACES.map((pace) => `<option value="${pace}" ${pace === "natural" ? "selected" : ""} data-i18n="pace.${pace}">${t(`pace.${pace}`)}</option>`).join("")}</select>`)}
        ${settingHtml("lobby.botLevel", `<select name="bot">${BOT_LEVELS.map((level) => `<option value="${level}" ${level === "strong" ? "selected" : ""} data-i18n="bot.${level}">${t(`bot.${level}`)}</option>`).join("")}</select>`)}
        <p class="setting-about" data-role="bot-about" data-i18n="bot.strong.about">${t("bot.strong.about")}</p>
      </div>
      <details class="rules" open><summary>${word("lobby.ruleCard")}</summary><div data-role="card"></div></details>
      <div class="create-bar"><button type="submit" class="primary">${word("lobby.create")}</button></div>
    </form>
  </section>`);
  root.append(page);
  const create = page.querySelector('[data-role="create"]');
  const chosen = () => cards.find((item) => item.preset === create.preset.value);
  let editor = null;

  // 南京麻将（默认） · 8局 · 跑20 · 砸2 · 比下胡 (· 已改2项): what the table will play, at a glance.
  function showSummary() {
    const card = chosen();
    const changed = Object.keys(editor.changes()).length;
    const parts = [
      `<b>${escapeHtml(pick(card.zh, card.en))}</b>`,
      t("card.hands", { n: create.hands.value }),
      ...ruleSummary(card, editor.options()).map(escapeHtml),
      ...(changed ? [`<span class="changed">${t("card.changed", { n: changed })}</span>`] : []),
    ];
    page.querySelector('[data-role="rule-summary"]').innerHTML = parts.join(" · ");
  }
  function showCard() {
    showGame();
    editor = ruleCardEditor(chosen(), { onChange: showSummary });
    const holder = page.querySelector('[data-role="card"]');
    holder.innerHTML = "";
    holder.append(editor.element);
    showSummary();
  }
  // The game card lit is the chosen preset's rule set; a card chooses its rule set's first preset.
  function showGame() {
    for (const button of page.querySelectorAll(".game-card")) button.setAttribute("aria-pressed", String(button.dataset.ruleset === chosen().ruleset));
  }
  page.querySelector('[data-role="games"]').addEventListener("click", (event) => {
    const button = event.target.closest(".game-card");
    if (!button || button.dataset.ruleset === chosen().ruleset) return;
    create.preset.value = cards.find((card) => card.ruleset === button.dataset.ruleset).preset;
    showCard();
  });
  create.preset.addEventListener("change", showCard);
  create.addEventListener("change", (event) => {
    if (event.target.name === "hands") showSummary();
    if (event.target.name === "bot") showBotAbout();
  });
  // What the chosen bot level does, in one line (re-translated with the page: data-i18n).
  function showBotAbout() {
    const about = page.querySelector('[data-role="bot-about"]');
    about.dataset.i18n = `bot.${create.bot.value}.about`;
    about.textContent = t(about.dataset.i18n);
  }
  showCard();
  const forget = onLanguageChange(showSummary);

  create.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const room = await api.createRoom({
        preset: create.preset.value,
        hands: Number(create.hands.value),
        decision_seconds: Number(create.seconds.value),
        next_hand_seconds: Number(create.next_hand.value),
        claim_seconds: Number(create.claim.value),
        dissolve_seconds: Number(create.dissolve.value),
        bot_level: create.bot.value,
        bot_pace: create.pace.value,
        watchers: create.watchers.value,
        options: editor.changes(),
      });
      location.hash = `#/room/${room.number}`;
    } catch (error) {
      toast(error.message, "error");
    }
  });
  page.querySelector('[data-role="join"]').addEventListener("submit", async (event) => {
    event.preventDefault();
    const typed = event.target.number.value.trim();
    // A friend's invitation link, pasted whole, opens as the link would; a number is a room of one's own.
    const invitation = typed.match(/#\/join\/(\d{6})\/([A-Za-z0-9_-]+)/);
    if (invitation) {
      location.hash = `#/join/${invitation[1]}/${invitation[2]}`;
      return;
    }
    const number = typed.replace(/\s/g, "");
    if (!/^\d{6}$/.test(number)) {
      toast(t("lobby.joinWhat"), "error");
      return;
    }
    try {
      await api.room(number);
      location.hash = `#/room/${number}`;
    } catch (error) {
      toast(error.message, "error"); // a stranger's number: the server's words say to ask for the link
    }
  });
  for (const button of page.querySelectorAll('[data-role="change-avatar"]')) {
    button.addEventListener("click", () => chooseAvatar(user, () => show(root)));
  }
  for (const [role, everywhere] of [["logout", false], ["logout-everywhere", true]]) {
    page.querySelector(`[data-role="${role}"]`).addEventListener("click", async () => {
      await api.logout(everywhere);
      forget();
      show(root);
    });
  }
  return forget;
}

// Ask for a nickname; then go on to where the player was heading. Its words are [data-i18n]
// elements: a language switch re-translates them and the name typed so far stays.
export function showNickname(root, then = () => show(root)) {
  root.innerHTML = "";
  const form = html(`<form class="card nickname" data-role="nickname">
    <h2>胡牌 hupai</h2>
    <label>${word("lobby.nickname")} <input name="name" maxlength="16" required autocomplete="nickname" autofocus></label>
    <div data-role="picker-holder">${avatarPickerHtml("")}</div>
    <button type="submit" class="primary">${word("lobby.enter")}</button>
  </form>`);
  root.append(form);
  // The badge drawn from the name follows what is typed.
  form.name.addEventListener("input", () => {
    const drawn = form.querySelector('input[name="avatar"][value=""]').nextElementSibling;
    drawn.outerHTML = avatarHtml({ name: form.name.value.trim(), size: "pick" });
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api.guest(form.name.value.trim(), pickedAvatar(form));
      then();
    } catch (error) {
      toast(error.message, "error");
    }
  });
}

// The 头像 dialog: pick one and it is kept at once (the dialog closes itself, the lobby redraws).
function chooseAvatar(user, then) {
  const modal = infoDialog(`<h2>${t("avatar.choose")}</h2>${avatarPickerHtml(user.name, user.avatar)}`, { role: "avatar-dialog", label: t("avatar.choose") });
  modal.addEventListener("change", async () => {
    try {
      await api.avatar(pickedAvatar(modal));
      modal.querySelector('[data-role="close"]').click();
      then();
    } catch (error) {
      toast(error.message, "error");
    }
  });
}
