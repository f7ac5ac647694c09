// The lobby: a nickname (guest in one step), create a room with its rule card, join by number.
// Every word on these screens is a [data-i18n] or [data-zh] element, so a language switch
// re-translates them in place (main.js) and whatever the player typed or chose stays.

import { api, currentUser } from "./api.js";
import { avatarHtml, avatarPickerHtml, pickedAvatar } from "./avatar.js";
import { infoDialog } from "./dialog.js";
import { t, word } from "./i18n.js";
import { accountForm } from "./account.js";
import { roomForm } from "./roomform.js";
import { byRuleSet, escapeHtml, html, toast } from "./util.js";

export { BOT_LEVELS } from "./roomform.js"; // room.js offers the same levels for a seat

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
        <p class="player-links"><a class="link" href="#/clubs" data-role="to-clubs">${word("nav.clubs")}</a>
        <button type="button" class="link" data-role="change-avatar">${word("avatar.change")}</button>
        ${user.guest ? `<button type="button" class="link" data-role="register">${word("account.register")}</button>` : ""}
        <button type="button" class="link" data-role="logout">${word("lobby.logout")}</button>
        <button type="button" class="link" data-role="logout-everywhere">${word("lobby.logoutEverywhere")}</button></p>
      </div>
    </div>
    <form class="card join" data-role="join">
      <h2>${word("lobby.join")}</h2>
      <p class="muted card-lead">${word("lobby.joinLead")}</p>
      <div class="join-line">
        <label><span class="sr-only">${word("lobby.number")}</span><input name="number" class="room-code" maxlength="300" required autocomplete="off" data-i18n-placeholder="lobby.joinPlaceholder" placeholder="${t("lobby.joinPlaceholder")}" data-i18n-label="lobby.number" aria-label="${t("lobby.number")}"></label>
        <button type="submit" class="primary">${word("lobby.join")}</button>
      </div>
    </form>
  </section>`);
  const { element: create, spec, forget } = roomForm(cards);
  page.append(create);
  root.append(page);

  create.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const room = await api.createRoom(spec());
      location.hash = `#/room/${room.number}`;
    } catch (error) {
      toast(error.message, "error");
    }
  });
  page.querySelector('[data-role="join"]').addEventListener("submit", async (event) => {
    event.preventDefault();
    const typed = event.target.number.value.trim();
    // A friend's invitation link, pasted whole, opens as the link would; a number is a room of one's own.
    const club = typed.match(/#\/club\/(\d{8})\/([A-Za-z0-9_-]+)/); // a club's link opens as a club's
    if (club) {
      location.hash = `#/club/${club[1]}/${club[2]}`;
      return;
    }
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
  const register = page.querySelector('[data-role="register"]');
  if (register) register.addEventListener("click", () => registerDialog(user, () => show(root)));
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
  const returning = html(`<p class="nickname-login">${word("account.returning")} <button type="button" class="link" data-role="to-login">${word("account.login")}</button></p>`);
  root.append(form, returning);
  // A returning player logs in instead (their name and password), then goes on as a guest would.
  returning.querySelector('[data-role="to-login"]').addEventListener("click", () => {
    const login = accountForm({ mode: "login", then: () => then() });
    const asGuest = html(`<p class="nickname-login"><button type="button" class="link" data-role="to-guest">${word("account.asGuest")}</button></p>`);
    asGuest.querySelector("button").addEventListener("click", () => {
      login.replaceWith(form);
      asGuest.replaceWith(returning);
    });
    form.replaceWith(login);
    returning.replaceWith(asGuest);
    login.name.focus();
  });
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

// 注册 for a guest, in a dialog: the guest keeps their games under the name registered.
function registerDialog(user, then) {
  const modal = infoDialog("", { role: "register-dialog", label: t("account.register") });
  const form = accountForm({ mode: "register", name: user.name, lead: "account.keepLead", then: () => {
    modal.querySelector('[data-role="close"]').click();
    then();
  } });
  modal.querySelector(".modal-box").prepend(form);
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
