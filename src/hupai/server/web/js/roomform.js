// The form a table's rules are chosen with: the three rule sets as cards, preset, hands, the clocks,
// bots and watchers, and the editable rule card, with a one-line summary of what the table will play.
// The lobby's 创建房间 and a club's 玩法 (saved rule cards) are this one form; what it builds,
// spec(), is the body of POST /api/rooms (RoomIn), which a club's 玩法 stores as its card.
// Every word is a [data-i18n] or [data-zh] element: a language switch re-translates the form in place.

import { onLanguageChange, pick, t, word } from "./i18n.js";
import { optionHtml, ruleCardEditor, ruleSummary } from "./rulecard.js";
import { tileSvg } from "./tiles.js";
import { escapeHtml, html } from "./util.js";

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

// The form (`<form class="card create" data-role=role>`): `title` and `submit` are i18n keys, `top`
// HTML put above the rule sets (a 玩法's name). Returns {element, spec(), forget}: forget() stops the
// summary following the language (the router forgets it anyway on the next page).
export function roomForm(cards, { role = "create", title = "lobby.create", submit = "lobby.create", top = "" } = {}) {
  const form = html(`<form class="card create" data-role="${role}">
      <h2>${word(title)}</h2>
      ${top}
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
      <div class="create-bar"><button type="submit" class="primary">${word(submit)}</button></div>
    </form>`);
  const chosen = () => cards.find((item) => item.preset === form.preset.value);
  let editor = null;

  // 南京麻将（默认） · 8局 · 跑20 · 砸2 · 比下胡 (· 已改2项): what the table will play, at a glance.
  function showSummary() {
    const card = chosen();
    const changed = Object.keys(editor.changes()).length;
    const parts = [
      `<b>${escapeHtml(pick(card.zh, card.en))}</b>`,
      t("card.hands", { n: form.hands.value }),
      ...ruleSummary(card, editor.options()).map(escapeHtml),
      ...(changed ? [`<span class="changed">${t("card.changed", { n: changed })}</span>`] : []),
    ];
    form.querySelector('[data-role="rule-summary"]').innerHTML = parts.join(" · ");
  }
  function showCard() {
    showGame();
    editor = ruleCardEditor(chosen(), { onChange: showSummary });
    const holder = form.querySelector('[data-role="card"]');
    holder.innerHTML = "";
    holder.append(editor.element);
    showSummary();
  }
  // The game card lit is the chosen preset's rule set; a card chooses its rule set's first preset.
  function showGame() {
    for (const button of form.querySelectorAll(".game-card")) button.setAttribute("aria-pressed", String(button.dataset.ruleset === chosen().ruleset));
  }
  form.querySelector('[data-role="games"]').addEventListener("click", (event) => {
    const button = event.target.closest(".game-card");
    if (!button || button.dataset.ruleset === chosen().ruleset) return;
    form.preset.value = cards.find((card) => card.ruleset === button.dataset.ruleset).preset;
    showCard();
  });
  form.preset.addEventListener("change", showCard);
  form.addEventListener("change", (event) => {
    if (event.target.name === "hands") showSummary();
    if (event.target.name === "bot") showBotAbout();
  });
  // What the chosen bot level does, in one line (re-translated with the page: data-i18n).
  function showBotAbout() {
    const about = form.querySelector('[data-role="bot-about"]');
    about.dataset.i18n = `bot.${form.bot.value}.about`;
    about.textContent = t(about.dataset.i18n);
  }
  showCard();
  const forget = onLanguageChange(showSummary);

  // The table the form describes, as POST /api/rooms takes it.
  const spec = () => ({
    preset: form.preset.value,
    hands: Number(form.hands.value),
    decision_seconds: Number(form.seconds.value),
    next_hand_seconds: Number(form.next_hand.value),
    claim_seconds: Number(form.claim.value),
    dissolve_seconds: Number(form.dissolve.value),
    bot_level: form.bot.value,
    bot_pace: form.pace.value,
    watchers: form.watchers.value,
    options: editor.changes(),
  });
  return { element: form, spec, forget };
}
