// Inviting friends, as 房卡 apps do: the room's link (#/join/NNNNNN on this server) in a read-only
// field, buttons that copy the link and the number, and the link's QR code drawn by the server
// (GET /api/rooms/{number}/qr.svg). The link is the server's (GET /api/rooms/{number}/invite): its
// public address when it was given one, else the address this page came from; and when the server
// listens on this machine only, the block says that friends on other devices cannot open it.
//
// Interface (for the waiting room):
//   loadInvite(number)           asks the server for the room's invitation (before the first drawing)
//   inviteHtml(number)           the invitation block (data-role="invite")
//   wireInvite(element, number)  its copy buttons inside `element` (a toast says whether it worked)
//   inviteLink(number)           the link itself

import { api } from "./api.js";
import { t } from "./i18n.js";
import { copyToClipboard, toast } from "./util.js";

const known = new Map(); // room number → the server's invitation: { link, reachable }


function checked(number) {
  const text = String(number);
  if (!/^\d{6}$/.test(text)) throw new Error(`not a room number: ${text}`);
  return text;
}

export async function loadInvite(number) {
  const room = checked(number);
  try {
    known.set(room, await api.invite(room));
  } catch {
    // Drawn from this page's own address, as the server would.
  }
}

export function inviteLink(number) {
  const room = checked(number);
  return known.get(room)?.link ?? `${location.origin}/#/join/${room}`;
}

export function inviteHtml(number) {
  const room = checked(number);
  return `<section class="invite" data-role="invite">
    <h3>${t("invite.title")}</h3>
    ${known.get(room)?.reachable === false ? `<p class="invite-warning" data-role="invite-warning">${t("invite.localOnly")}</p>` : ""}
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

// Copy, or (when the browser lets nothing be copied) select the link for the player to copy.
async function copy(text, field) {
  if (await copyToClipboard(text)) {
    toast(`${t("invite.copied")}: ${text}`);
    return;
  }
  if (field) field.select();
  toast(t("invite.copyFailed"), "error");
}
