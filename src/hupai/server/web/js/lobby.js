// The lobby: a nickname (guest in one step), create a room with its rule card, join by number.

import { api, currentUser } from "./api.js";
import { pick, t } from "./i18n.js";
import { ruleCardEditor } from "./rulecard.js";
import { byRuleSet, escapeHtml, html, toast } from "./util.js";

export async function show(root) {
  const user = await currentUser();
  if (!user) {
    showNickname(root);
    return null;
  }
  const cards = (await api.rulesets()).sort(byRuleSet);
  let page = drawLobby(root, user, cards);
  // Redraw at once in the new language while this page is shown (a redraw that waited for the
  // server would replace a form the player has begun to fill). A lobby reached through the nickname
  // form has no cleanup, so a listener left behind by a page no longer shown removes itself.
  const relabel = () => {
    if (root.contains(page)) page = drawLobby(root, user, cards);
    else window.removeEventListener("languagechange-hupai", relabel);
  };
  window.addEventListener("languagechange-hupai", relabel);
  return () => window.removeEventListener("languagechange-hupai", relabel);
}

function drawLobby(root, user, cards) {
  root.innerHTML = "";
  const page = html(`<section class="lobby">
    <p class="hello">${t("lobby.hello")}<b>${escapeHtml(user.name)}</b>
      <button type="button" class="link" data-role="logout">${t("lobby.logout")}</button></p>
    <form class="card join" data-role="join">
      <h2>${t("lobby.join")}</h2>
      <label>${t("lobby.number")} <input name="number" inputmode="numeric" pattern="\\d{6}" maxlength="6" required autocomplete="off"></label>
      <button type="submit">${t("lobby.join")}</button>
    </form>
    <form class="card create" data-role="create">
      <h2>${t("lobby.create")}</h2>
      <div class="row">
        <label>${t("lobby.preset")} <select name="preset">${cards
          .map((card) => `<option value="${escapeHtml(card.preset)}">${escapeHtml(pick(card.zh, card.en))}</option>`)
          .join("")}</select></label>
        <label>${t("lobby.hands")} <select name="hands"><option>4</option><option selected>8</option><option>16</option></select></label>
        <label>${t("lobby.seconds")} <input name="seconds" type="number" min="5" max="120" value="15"></label>
        <label>${t("lobby.nextHand")} <input name="next_hand" type="number" min="3" max="120" value="15"></label>
        <label>${t("lobby.botLevel")} <select name="bot">
          <option value="strong">${t("bot.strong")}</option><option value="efficiency">${t("bot.efficiency")}</option><option value="random">${t("bot.random")}</option>
        </select></label>
      </div>
      <details class="rules" open><summary>${t("lobby.ruleCard")}</summary><div data-role="card"></div></details>
      <button type="submit" class="primary">${t("lobby.create")}</button>
    </form>
  </section>`);
  root.append(page);
  const create = page.querySelector('[data-role="create"]');
  let editor = null;
  function showCard() {
    const card = cards.find((item) => item.preset === create.preset.value);
    editor = ruleCardEditor(card);
    const holder = page.querySelector('[data-role="card"]');
    holder.innerHTML = "";
    holder.append(editor.element);
  }
  create.preset.addEventListener("change", showCard);
  showCard();
  create.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const room = await api.createRoom({
        preset: create.preset.value,
        hands: Number(create.hands.value),
        decision_seconds: Number(create.seconds.value),
        next_hand_seconds: Number(create.next_hand.value),
        bot_level: create.bot.value,
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
  page.querySelector('[data-role="logout"]').addEventListener("click", async () => {
    await api.logout();
    show(root);
  });
  return page;
}

// Ask for a nickname; then go on to where the player was heading.
export function showNickname(root, then = () => show(root)) {
  root.innerHTML = "";
  const form = html(`<form class="card nickname" data-role="nickname">
    <h2>胡牌 hupai</h2>
    <label>${t("lobby.nickname")} <input name="name" maxlength="16" required autocomplete="nickname" autofocus></label>
    <button type="submit" class="primary">${t("lobby.enter")}</button>
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
