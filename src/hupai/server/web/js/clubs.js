// 亲友圈 (#/clubs): my clubs, opening one (a guest registers first, right here: a club's owner must be
// able to log in again), and joining one by pasting its link. Every word is a [data-i18n] element, so
// a language switch re-translates the page in place and what was typed stays.

import { api, currentUser } from "./api.js";
import { accountForm } from "./account.js";
import { t, word } from "./i18n.js";
import { showNickname } from "./lobby.js";
import { escapeHtml, html, toast } from "./util.js";

// A club's invitation link, pasted whole (…/#/club/<number>/<token>): its number and token.
export function clubLink(text) {
  const found = String(text).match(/#\/club\/(\d{8})\/([A-Za-z0-9_-]{1,64})/);
  return found ? { number: found[1], token: found[2] } : null;
}

// The player's role in a club as a badge (圈主, 管理员, 成员).
export function roleHtml(role) {
  return `<span class="tag role role-${escapeHtml(role)}" data-role="club-role">${word(`club.role.${role}`)}</span>`;
}

export async function show(root) {
  const user = await currentUser();
  if (!user) {
    showNickname(root, () => show(root));
    return null;
  }
  const clubs = await api.clubs();
  root.innerHTML = "";
  const page = html(`<section class="clubs-page" data-role="clubs">
    <header class="club-head"><span class="club-icon" aria-hidden="true">圈</span>
      <div><h1>${word("club.title")}</h1><p>${word("club.lead")}</p></div></header>
    <section class="card club-mine">
      <h2>${word("club.mine")}</h2>
      ${clubs.length ? `<ul class="club-list" data-role="club-list">${clubs.map(clubRowHtml).join("")}</ul>` : `<p class="muted" data-role="no-clubs">${word("club.none")}</p>`}
    </section>
    <section class="card club-create" data-role="create-club"><h2>${word("club.create")}</h2></section>
    <form class="card club-join" data-role="join-club">
      <h2>${word("club.join")}</h2>
      <p class="muted card-lead">${word("club.joinLead")}</p>
      <div class="join-line">
        <input name="link" maxlength="300" required autocomplete="off" data-i18n-placeholder="club.linkPlaceholder" placeholder="${t("club.linkPlaceholder")}" data-i18n-label="club.linkPlaceholder" aria-label="${t("club.linkPlaceholder")}">
        <button type="submit" class="primary">${word("club.joinButton")}</button>
      </div>
    </form>
  </section>`);
  root.append(page);
  const create = page.querySelector('[data-role="create-club"]');
  if (user.guest) {
    // Registering keeps the guest's identity (and any club they joined); then the page opens again.
    create.append(accountForm({ mode: "register", name: user.name, lead: "club.registerFirst", then: () => show(root) }));
  } else {
    const form = html(`<form class="club-create-form" data-role="club-name-form">
      <label class="setting"><span class="setting-name">${word("club.name")}</span>
        <input name="club_name" maxlength="64" required autocomplete="off"></label>
      <button type="submit" class="primary">${word("club.createButton")}</button>
    </form>`);
    create.append(form);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const club = await api.createClub(form.club_name.value.trim());
        location.hash = `#/club/${club.number}`;
      } catch (error) {
        toast(error.message, "error");
      }
    });
  }
  page.querySelector('[data-role="join-club"]').addEventListener("submit", (event) => {
    event.preventDefault();
    const link = clubLink(event.target.link.value);
    if (!link) {
      toast(t("club.linkWhat"), "error");
      return;
    }
    location.hash = `#/club/${link.number}/${link.token}`;
  });
  return null;
}

function clubRowHtml(club) {
  return `<li><a class="club-row" href="#/club/${escapeHtml(club.number)}" data-club="${escapeHtml(club.number)}">
    <span class="club-badge" aria-hidden="true">${escapeHtml(Array.from(club.name)[0] || "圈")}</span>
    <span class="club-words"><b data-role="club-name">${escapeHtml(club.name)}</b>
      <span class="muted">${word("club.number")} <span class="club-number">${escapeHtml(club.number)}</span> · ${word("club.members")} ${club.members.length}</span></span>
    ${roleHtml(club.role)}
  </a></li>`;
}
