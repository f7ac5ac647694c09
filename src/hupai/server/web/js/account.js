// 注册 / 登录: a name and a password. A guest who registers keeps who they are (their games, their
// clubs): the server upgrades the guest in place. Logging in is how a returning player gets back their
// name on another device. Words are [data-i18n]: a language switch re-translates the form in place and
// keeps what was typed.

import { api, ApiError } from "./api.js";
import { t, word } from "./i18n.js";
import { escapeHtml, html, toast } from "./util.js";

const MIN_PASSWORD = 8; // the server's (schemas.RegisterIn)

// The form (`data-role="account"`), in `mode` "register" or "login" (a switch at its top changes
// it); `name` fills the name in (a guest's own); `lead` an i18n key said above it; `then(user)` runs
// once the server has answered with the player's session.
export function accountForm({ mode = "register", name = "", lead = null, then = () => {} } = {}) {
  const form = html(`<form class="card account" data-role="account" data-mode="${mode}">
    <div class="account-modes segmented" role="group">
      <label class="segment" data-mode="register"><input type="radio" name="mode" value="register" ${mode === "register" ? "checked" : ""}><span>${word("account.register")}</span></label>
      <label class="segment" data-mode="login"><input type="radio" name="mode" value="login" ${mode === "login" ? "checked" : ""}><span>${word("account.login")}</span></label>
    </div>
    ${lead ? `<p class="muted card-lead" data-role="account-lead">${word(lead)}</p>` : ""}
    <p class="muted card-lead" data-role="account-about"></p>
    <label class="setting"><span class="setting-name">${word("account.name")}</span>
      <input name="name" maxlength="32" required autocomplete="username" value="${escapeHtml(name)}"></label>
    <label class="setting"><span class="setting-name">${word("account.password")}</span>
      <input name="password" type="password" maxlength="200" required></label>
    <button type="submit" class="primary" data-role="account-submit"></button>
  </form>`);
  const show = () => {
    const registering = form.mode.value === "register";
    form.dataset.mode = form.mode.value;
    form.password.minLength = registering ? MIN_PASSWORD : 0;
    form.password.autocomplete = registering ? "new-password" : "current-password";
    form.querySelector('[data-role="account-about"]').innerHTML = word(registering ? "account.registerAbout" : "account.loginAbout");
    form.querySelector('[data-role="account-submit"]').innerHTML = word(registering ? "account.register" : "account.login");
  };
  form.addEventListener("change", (event) => {
    if (event.target.name === "mode") show();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const registering = form.mode.value === "register";
    try {
      const answer = registering
        ? await api.register(form.name.value.trim(), form.password.value)
        : await api.login(form.name.value.trim(), form.password.value);
      then(answer.user);
    } catch (error) {
      toast(refusal(error, registering), "error");
    }
  });
  show();
  return form;
}

// The server's refusals of a name or password, in the reader's words.
function refusal(error, registering) {
  if (!(error instanceof ApiError)) return error.message;
  if (error.status === 429) return t("account.tooMany");
  if (registering && error.status === 409) return t("account.taken");
  if (!registering && error.status === 401) return t("account.wrong");
  if (error.status === 422 && error.field === "password") return t("account.short", { n: MIN_PASSWORD });
  return error.message;
}
