// A club's invitation link, #/club/NNNNNNNN/<token>: join the club, then its page. A visitor without a
// session picks a nickname first (as a room's link asks); a wrong or old link, a link older than
// one's removal from the club, a full club and too many tries each say so, with the way back to 亲友圈.

import { api, ApiError, currentUser } from "./api.js";
import { t } from "./i18n.js";
import { showNickname } from "./lobby.js";
import { escapeHtml } from "./util.js";

export async function show(root, [number, token]) {
  if (!/^\d{8}$/.test(number) || !/^[A-Za-z0-9_-]{1,64}$/.test(token)) return refused(root, "club.badLink", number);
  const user = await currentUser();
  if (!user) {
    showNickname(root, () => show(root, [number, token]));
    root.insertAdjacentHTML("afterbegin", `<p class="invited" data-role="invited">${t("club.invited")}</p>`);
    return null;
  }
  root.innerHTML = `<p class="muted" data-role="joining">${t("club.joining")}</p>`;
  try {
    await api.joinClub(number, token);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return refused(root, "club.badLink", number);
    // Taken out since the link was made: only a newer link lets them back.
    if (error instanceof ApiError && error.code === "club_removed") return refused(root, "refusal.club_removed", number);
    if (error instanceof ApiError && error.code === "club_full") return refused(root, "club.full", number);
    if (error instanceof ApiError && error.status === 429) return refused(root, "club.tooManyJoins", number);
    throw error;
  }
  location.replace(`#/club/${number}`); // replace: Back from the club does not join again
  return null;
}

function refused(root, key, number) {
  root.innerHTML = `<section class="card" data-role="club-join-refused"><p class="error">${t(key, { number: escapeHtml(number || "") })}</p>
    <a href="#/clubs" class="button">${t("club.backToClubs")}</a></section>`;
  return null;
}
