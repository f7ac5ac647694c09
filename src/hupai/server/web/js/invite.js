// Inviting friends, as 房卡 apps do: the room's link (#/join/NNNNNN on this server) in a read-only
// field, buttons that copy the link and the number, and the link's QR code drawn by the server
// (GET /api/rooms/{number}/qr.svg, made from the address this page came from).
//
// Interface (for the waiting room):
//   inviteHtml(number)           the invitation block (data-role="invite")
//   wireInvite(element, number)  its copy buttons inside `element` (a toast says whether it worked)
//   inviteLink(number)           the link itself

import { t } from "./i18n.js";
import { ensureStyle } from "./styles.js";
import { toast } from "./util.js";

const CSS = `
.invite { display: flex; flex-wrap: wrap; gap: 0.6rem 1rem; align-items: center; margin: 0.6rem 0; padding: 0.6rem 0.8rem; background: #fff; border-radius: 10px; }
.invite h3 { flex-basis: 100%; margin: 0; font-size: 1em; }
.invite-fields { display: flex; flex-direction: column; gap: 0.4rem; flex: 1 1 14rem; min-width: 0; }
.invite-fields label { display: flex; flex-direction: column; gap: 0.2rem; font-size: 0.85em; }
.invite-fields input { width: 100%; box-sizing: border-box; font-family: monospace; }
.invite-buttons { display: flex; flex-wrap: wrap; gap: 0.4rem; }
.invite-qr { margin: 0; text-align: center; font-size: 0.8em; }
.invite-qr img { display: block; width: 132px; height: 132px; background: #fff; border-radius: 4px; }
`;

function checked(number) {
  const text = String(number);
  if (!/^\d{6}$/.test(text)) throw new Error(`not a room number: ${text}`);
  return text;
}

export function inviteLink(number) {
  return `${location.origin}/#/join/${checked(number)}`;
}

export function inviteHtml(number) {
  const room = checked(number);
  ensureStyle("invite", CSS);
  return `<section class="invite" data-role="invite">
    <h3>${t("invite.title")}</h3>
    <div class="invite-fields">
      <label>${t("invite.link")}<input type="text" readonly value="${inviteLink(room)}" data-role="invite-link"></label>
      <div class="invite-buttons">
        <button type="button" data-role="copy-link">${t("invite.copyLink")}</button>
        <button type="button" data-role="copy-number">${t("invite.copyNumber")} ${room}</button>
      </div>
    </div>
    <figure class="invite-qr"><img src="/api/rooms/${room}/qr.svg" alt="${t("invite.qr")}" width="132" height="132" data-role="invite-qr">
      <figcaption>${t("invite.qr")}</figcaption></figure>
  </section>`;
}

export function wireInvite(element, number) {
  const room = checked(number);
  const field = element.querySelector('[data-role="invite-link"]');
  if (field) field.addEventListener("focus", () => field.select());
  const on = (role, text) => {
    const button = element.querySelector(`[data-role="${role}"]`);
    if (button) button.addEventListener("click", () => copy(text(), field));
  };
  on("copy-link", () => inviteLink(room));
  on("copy-number", () => room);
}

// The clipboard API needs a secure context (https or localhost); elsewhere (a LAN address over http)
// the old copy command still works from a click; failing both, the link is selected for the player.
async function copy(text, field) {
  try {
    if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
    else if (!copyBySelection(text)) throw new Error("copy refused");
    toast(`${t("invite.copied")}: ${text}`);
  } catch {
    if (copyBySelection(text)) {
      toast(`${t("invite.copied")}: ${text}`);
      return;
    }
    if (field) field.select();
    toast(t("invite.copyFailed"), "error");
  }
}

function copyBySelection(text) {
  const scratch = document.createElement("textarea");
  scratch.value = text;
  scratch.setAttribute("readonly", "");
  scratch.style.position = "fixed";
  scratch.style.opacity = "0";
  document.body.append(scratch);
  scratch.select();
  let done = false;
  try {
    done = document.execCommand("copy");
  } catch {
    done = false;
  }
  scratch.remove();
  return done;
}
