// An invitation link, #/join/NNNNNN/<token>: straight into the room. The token is what lets a friend in
// (kept for this tab, api.js); a visitor without a session picks a nickname first; in a waiting room
// they take the first free seat; then the room opens. A full, started or finished room opens for
// watching, with a message saying so; a bad number, a link without its token (or an old one) and a
// locked room each say so.

import { api, ApiError, currentUser, rememberInvite } from "./api.js";
import { t } from "./i18n.js";
import { showNickname } from "./lobby.js";
import { escapeHtml, toast } from "./util.js";

export async function show(root, [number, token]) {
  if (!/^\d{6}$/.test(number || "")) return notFound(root, number);
  if (token && /^[A-Za-z0-9_-]{1,64}$/.test(token)) rememberInvite(number, token);
  const user = await currentUser();
  if (!user) {
    showNickname(root, () => show(root, [number, token]));
    root.insertAdjacentHTML("afterbegin", `<p class="invited" data-role="invited">${t("join.invited", { number })}</p>`);
    return null;
  }
  root.innerHTML = `<p class="muted" data-role="joining">${t("join.title", { number })}</p>`;
  let room;
  try {
    room = await api.room(number);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return notFound(root, number);
    if (error instanceof ApiError && error.code === "invite_needed") return refused(root, "join.private", number);
    if (error instanceof ApiError && error.code === "room_locked") return refused(root, "join.locked", number);
    throw error;
  }
  const notice = await takeSeat(room, user, number);
  location.replace(`#/room/${number}`); // replace: Back from the room does not join again
  if (notice) toast(t(notice));
  return null;
}

// Sit in the first free seat of a waiting room; otherwise the reason the visitor only watches.
async function takeSeat(room, user, number) {
  if (room.seats.some((seat) => seat.user_id === user.id && !seat.left)) return null;
  if (room.status !== "waiting") return room.status === "playing" ? "join.started" : "join.over";
  // Asking for a seat in a full room would only be refused (and the refusal logged by the browser).
  if (!room.seats.some((seat) => seat.user_id === null && !seat.bot)) return "join.full";
  try {
    await api.sit(number);
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return "join.full";
    if (error instanceof ApiError && error.code === "invite_needed") return "join.watchOnly"; // an open room
    throw error;
  }
}

function refused(root, key, number) {
  root.innerHTML = `<section class="card" data-role="join-refused"><p class="error">${t(key, { number })}</p>
    <a href="#/">${t("summary.back")}</a></section>`;
  return null;
}

function notFound(root, number) {
  root.innerHTML = `<section class="card" data-role="join-missing"><p class="error">${t("join.notFound", { number: escapeHtml(number || "") })}</p>
    <a href="#/">${t("summary.back")}</a></section>`;
  return null;
}
