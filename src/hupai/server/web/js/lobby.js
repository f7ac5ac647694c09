// The lobby: a nickname (guest in one step), create a room with its rule card, join by number.
// Every word on these screens is a [data-i18n] or [data-zh] element, so a language switch
// re-translates them in place (main.js) and whatever the player typed or chose stays.

import { api, currentUser } from "./api.js";
import { onLanguageChange, pick, t, word } from "./i18n.js";
import { optionHtml, ruleCardEditor, ruleSummary } from "./rulecard.js";
import { byRuleSet, escapeHtml, html, toast } from "./util.js";

const HANDS = [4, 8, 16];
const BOTS = ["strong", "efficiency", "random"];
const PACES = ["quick", "natural", "relaxed"]; // how long bots seem to think (server/table/think.py)

export async function show(root) {
  const user = await currentUser();
  if (!user) {
    showNickname(root);
    return null;
  }
  const cards = (await api.rulesets()).sort(byRuleSet);
  root.innerHTML = "";
  const page = html(`<section class="lobby">
    <p class="hello">${word("lobby.hello")}<b>${escapeHtml(user.name)}</b>
      <button type="button" class="link" data-role="logout">${word("lobby.logout")}</button>
      <button type="button" class="link" data-role="logout-everywhere">${word("lobby.logoutEverywhere")}</button></p>
    <form class="card join" data-role="join">
      <h2>${word("lobby.join")}</h2>
      <label>${word("lobby.number")} <input name="number" inputmode="numeric" pattern="\\d{6}" maxlength="6" required autocomplete="off"></label>
      <button type="submit">${word("lobby.join")}</button>
    </form>
    <form class="card create" data-role="create">
      <h2>${word("lobby.create")}</h2>
      <p class="rule-summary" data-role="rule-summary"></p>
      <div class="row">
        <label>${word("lobby.preset")} <select name="preset">${cards.map((card) => optionHtml(card.preset, card)).join("")}</select></label>
        <label>${word("lobby.hands")} <select name="hands">${HANDS.map((hands) => `<option value="${hands}" ${hands === 8 ? "selected" : ""}>${hands}</option>`).join("")}</select></label>
        <label>${word("lobby.seconds")} <input name="seconds" type="number" min="5" max="120" value="15"></label>
        <label>${word("lobby.nextHand")} <input name="next_hand" type="number" min="3" max="120" value="15"></label>
        <label>${word("lobby.claimPause")} <input name="claim" type="number" min="0.2" max="3" step="0.1" value="0.6"></label>
        <label>${word("lobby.dissolveSeconds")} <input name="dissolve" type="number" min="10" max="300" value="60"></label>
        <label>${word("lobby.botLevel")} <select name="bot">${BOTS.map((level) => `<option value="${level}" data-i18n="bot.${level}">${t(`bot.${level}`)}</option>`).join("")}</select></label>
        <label>${word("lobby.botPace")} <select name="pace">${PACES.map((pace) => `<option value="${pace}" ${pace === "natural" ? "selected" : ""} data-i18n="pace.${pace}">${t(`pace.${pace}`)}</option>`).join("")}</select></label>
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
    editor = ruleCardEditor(chosen(), { onChange: showSummary });
    const holder = page.querySelector('[data-role="card"]');
    holder.innerHTML = "";
    holder.append(editor.element);
    showSummary();
  }
  create.preset.addEventListener("change", showCard);
  create.hands.addEventListener("change", showSummary);
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
        options: editor.changes(),
      });
      location.hash = `#/room/${room.number}`;
    } catch (error) {
      toast(error.message, "error");
    }
  });
  page.querySelector('[data-role="join"]').addEventListener("submit", async (event) => {
    event.preventDefault();
    const number = event.target.number.value.trim();
    try {
      await api.room(number);
      location.hash = `#/room/${number}`;
    } catch (error) {
      toast(error.message, "error");
    }
  });
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
    <button type="submit" class="primary">${word("lobby.enter")}</button>
  </form>`);
  root.append(form);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api.guest(form.name.value.trim());
      then();
    } catch (error) {
      toast(error.message, "error");
    }
  });
}
