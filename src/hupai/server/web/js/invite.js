// Inviting friends, as 房卡 apps do: the room's link (#/join/NNNNNN/<token> on this server) in a
// read-only field, buttons that copy the link and the number, and the link's QR code drawn by the
// server (GET /api/rooms/{number}/qr.svg). The link is the server's (GET /api/rooms/{number}/invite,
// for the room's players only): its public address when it was given one, else the address this
// page came from; and when the server listens on this machine only, the block says that friends on
// other devices cannot open it. The token in the link is what lets a friend in: the number alone
// does not. The host may lock the room (nobody new comes in) and make a new link (the old one stops
// working).
//
// Interface (for the waiting room):
//   loadInvite(number, {renew})  asks the server for the room's invitation (renew: a new one, the host's)
//   inviteHtml(number, {host, locked, player})  the invitation block (data-role="invite")
//   wireInvite(element, number, {onLock, onNewLink})  its buttons inside `element`
//   inviteLink(number)           the link itself (null: this page has none to give)

import { api, inviteFor, rememberInvite } from "./api.js";
import { t } from "./i18n.js";
import { copyToClipboard, escapeHtml, toast } from "./util.js";

const known = new Map(); // room number → the server's invitation: { link, reachable }


function checked(number) {
  const text = String(number);
  if (!/^\d{6}$/.test(text)) throw new Error(`not a room number: ${text}`);
  return text;
}

export async function loadInvite(number, { renew = false } = {}) {
  const room = checked(number);
  try {
    const invitation = renew ? await api.newInvite(room) : await api.invite(room);
    known.set(room, invitation);
    rememberInvite(room, invitation.link.split("/").pop());
  } catch (error) {
    if (renew) toast(error.message, "error");
  }
}

export function inviteLink(number) {
  const room = checked(number);
  if (known.has(room)) return known.get(room).link;
  const token = inviteFor(room); // the link this page was opened with
  return token ? `${location.origin}/#/join/${room}/${token}` : null;
}

export function inviteHtml(number, { host = false, locked = false, player = true } = {}) {
  const room = checked(number);
  const link = inviteLink(room);
  if (!player || link === null) return "";
  const hostButtons = host
    ? `<div class="invite-host">
        <button type="button" data-role="lock" aria-pressed="${locked}">${t(locked ? "invite.unlock" : "invite.lock")}</button>
        <button type="button" class="link" data-role="new-link">${t("invite.newLink")}</button>
      </div>`
    : "";
  return `<section class="invite" data-role="invite">
    <h3>${t("invite.title")}</h3>
    <p class="muted invite-private">${t(locked ? "invite.lockedLead" : "invite.privateLead")}</p>
    ${known.get(room)?.reachable === false ? `<p class="invite-warning" data-role="invite-warning">${t("invite.localOnly")}</p>` : ""}
    <div class="invite-fields">
      <label>${t("invite.link")}<input type="text" readonly value="${escapeHtml(link)}" data-role="invite-link"></label>
      <div class="invite-buttons">
        <button type="button" data-role="copy-link">${t("invite.copyLink")}</button>
        <button type="button" data-role="copy-number">${t("invite.copyNumber")} ${room}</button>
      </div>
    </div>
    <figure class="invite-qr"><img src="/api/rooms/${room}/qr.svg?v=${encodeURIComponent(link.slice(-8))}" alt="${t("invite.qr")}" width="132" height="132" data-role="invite-qr">
      <figcaption>${t("invite.qr")}</figcaption></figure>
    ${hostButtons}
  </section>`;
}

export function wireInvite(element, number, { onLock = null, onNewLink = null } = {}) {
  const room = checked(number);
  const field = element.querySelector('[data-role="invite-link"]');
  if (field) field.addEventListener("focus", () => field.select());
  const on = (role, work) => {
    const button = element.querySelector(`[data-role="${role}"]`);
    if (button && work) button.addEventListener("click", work);
  };
  on("copy-link", () => copy(inviteLink(room), field));
  on("copy-number", () => copy(room, field));
  on("lock", onLock);
  on("new-link", onNewLink);
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
