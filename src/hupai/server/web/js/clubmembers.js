// A club's members (成员, club.js's third tab): who is in it with their role; for the owner and admins
// the invitation link (copy, QR code, a new link, joining closed or open again) and taking members
// out; for the owner making and unmaking admins, handing the club over and closing it; for everyone
// else leaving it. Whatever changes the club is answered with the club, which the page redraws from.

import { api } from "./api.js";
import { avatarHtml } from "./avatar.js";
import { confirmDialog } from "./dialog.js";
import { t } from "./i18n.js";
import { copyToClipboard, escapeHtml, toast } from "./util.js";
import { roleHtml } from "./clubs.js";

export class MembersPanel {
  constructor(page) {
    this.page = page; // club.js's ClubPage
    this.invite = null; // {link, open, reachable}, once read
    this.wired = false;
  }

  get element() {
    return this.page.page.querySelector('[data-role="members-panel"]');
  }

  draw() {
    const { club, user } = this.page;
    const owner = club.role === "owner";
    const members = club.members.map((member) => {
      const me = member.user_id === user.id;
      const buttons = [];
      if (!me && owner && member.role !== "owner") {
        buttons.push(member.role === "admin"
          ? `<button type="button" data-member-role="member" data-member="${member.user_id}">${t("club.unmakeAdmin")}</button>`
          : `<button type="button" data-member-role="admin" data-member="${member.user_id}">${t("club.makeAdmin")}</button>`);
        if (!member.guest) buttons.push(`<button type="button" data-hand-over="${member.user_id}">${t("club.handOver")}</button>`);
      }
      if (!me && (owner || (club.role === "admin" && member.role === "member"))) {
        buttons.push(`<button type="button" class="danger" data-remove-member="${member.user_id}">${t("club.remove")}</button>`);
      }
      return `<li class="club-member" data-member-id="${member.user_id}">
        ${avatarHtml({ name: member.name, avatar: member.avatar })}
        <span class="member-words"><b>${escapeHtml(member.name)}</b>
          <span class="member-tags">${roleHtml(member.role)}${member.guest ? `<span class="tag">${t("club.guest")}</span>` : ""}${me ? `<span class="tag you">${t("room.you")}</span>` : ""}</span></span>
        ${buttons.length ? `<span class="member-buttons">${buttons.join("")}</span>` : ""}
      </li>`;
    }).join("");
    const leave = owner
      ? `<button type="button" class="danger" data-role="close-club">${t("club.close")}</button>`
      : `<button type="button" class="danger" data-role="leave-club">${t("club.leave")}</button>`;
    this.element.innerHTML = `${this.page.leader ? `<div data-role="club-invite-holder">${this.inviteHtml()}</div>` : ""}
      <section class="card"><h2>${t("club.tab.members")} <small class="muted">${club.members.length}</small></h2>
        <ul class="club-members" data-role="club-members">${members}</ul>
        <p class="club-leave">${leave}</p></section>`;
    if (!this.wired) {
      this.element.addEventListener("click", (event) => this.clicked(event));
      this.wired = true;
    }
  }

  async loadInvite() {
    if (!this.page.leader || this.page.closed) return;
    await this.page.act(async () => {
      this.invite = await api.clubInvite(this.page.number);
      this.drawInvite();
    });
  }

  drawInvite() {
    const holder = this.element.querySelector('[data-role="club-invite-holder"]');
    if (holder) holder.innerHTML = this.inviteHtml();
  }

  // The invitation as the room's invitation looks (invite.js): the link, copy, the QR code.
  inviteHtml() {
    const invite = this.invite;
    if (!invite) return `<section class="invite" data-role="club-invite"><h3>${t("club.inviteTitle")}</h3><p class="muted">${t("common.loading")}</p></section>`;
    if (!invite.open) {
      return `<section class="invite" data-role="club-invite"><h3>${t("club.inviteTitle")}</h3>
        <p class="muted invite-private" data-role="joining-closed">${t("club.joiningClosed")}</p>
        <div class="invite-host"><button type="button" class="primary" data-role="open-joining">${t("club.openJoining")}</button></div></section>`;
    }
    const link = invite.link;
    return `<section class="invite" data-role="club-invite">
      <h3>${t("club.inviteTitle")}</h3>
      <p class="muted invite-private">${t("club.inviteLead")}</p>
      ${invite.reachable === false ? `<p class="invite-warning">${t("invite.localOnly")}</p>` : ""}
      <div class="invite-fields">
        <label>${t("club.inviteLink")}<input type="text" readonly value="${escapeHtml(link)}" data-role="club-link"></label>
        <div class="invite-buttons"><button type="button" data-role="copy-club-link">${t("invite.copyLink")}</button></div>
      </div>
      <figure class="invite-qr"><img src="/api/clubs/${this.page.number}/qr.svg?v=${encodeURIComponent(link.slice(-8))}" alt="${t("club.qr")}" width="132" height="132" data-role="club-qr">
        <figcaption>${t("club.qr")}</figcaption></figure>
      <div class="invite-host">
        <button type="button" data-role="new-club-link">${t("invite.newLink")}</button>
        <button type="button" class="link" data-role="close-joining">${t("club.closeJoining")}</button>
      </div>
    </section>`;
  }

  async clicked(event) {
    const button = event.target.closest("button");
    if (!button) return;
    const { club, number } = this.page;
    const nameOf = (id) => (club.members.find((member) => member.user_id === Number(id)) || { name: "?" }).name;
    const data = button.dataset;
    if (data.role === "copy-club-link") {
      const field = this.element.querySelector('[data-role="club-link"]');
      if (await copyToClipboard(this.invite.link)) toast(`${t("invite.copied")}: ${this.invite.link}`);
      else {
        field.select();
        toast(t("invite.copyFailed"), "error");
      }
    } else if (["new-club-link", "open-joining", "close-joining"].includes(data.role)) {
      const open = data.role !== "close-joining";
      if (data.role === "new-club-link" && !(await confirmDialog(t("club.newLinkConfirm")))) return;
      await this.page.act(async () => {
        this.invite = await api.clubJoining(number, open);
        this.drawInvite();
      });
    } else if (data.memberRole) {
      await this.page.act(async () => this.page.changed(await api.memberRole(number, Number(data.member), data.memberRole)));
    } else if (data.handOver) {
      if (!(await confirmDialog(t("club.handOverConfirm", { name: nameOf(data.handOver) })))) return;
      await this.page.act(async () => this.page.changed(await api.handOver(number, Number(data.handOver))));
    } else if (data.removeMember) {
      if (!(await confirmDialog(t("club.removeConfirm", { name: nameOf(data.removeMember) })))) return;
      await this.page.act(async () => this.page.changed(await api.removeMember(number, Number(data.removeMember))));
    } else if (data.role === "leave-club") {
      if (!(await confirmDialog(t("club.leaveConfirm", { name: club.name })))) return;
      await this.page.act(async () => {
        await api.leaveClub(number);
        this.page.close();
        location.hash = "#/clubs";
      });
    } else if (data.role === "close-club") {
      if (!(await confirmDialog(t("club.closeConfirm", { name: club.name })))) return;
      await this.page.act(async () => {
        await api.closeClub(number);
        this.page.close();
        location.hash = "#/clubs";
      });
    }
  }
}
