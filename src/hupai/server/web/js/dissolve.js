// The dissolve vote (解散) as players know it: when someone asks, every other person at the table gets
// a panel naming who asked, with 同意 and 拒绝, the answers so far and the countdown (silence counts as
// agreement when it ends); whoever has answered sees how many are still awaited. One refusal ends the
// vote for everyone. The panel leaves the hand free: play goes on while the vote runs. It lives outside
// the view (which redraws on every message) and is drawn from the room's `dissolve_vote`.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { seatNames } from "./names.js";
import { escapeHtml, html, toast } from "./util.js";

const TICK_MS = 250;

export class DissolveVote {
  constructor(number) {
    this.number = number;
    this.panel = null;
    this.timer = null;
    this.openNumber = null; // the vote this page saw open: its end is announced once
    this.deadline = 0;
    this.sending = false;
    this.quietUntil = 0; // after a refusal nobody asks again before this (performance.now() time)
  }

  // Draw the room's vote as it stands (called on every `room` message and whenever the view redraws).
  show(room, mySeat) {
    const vote = room.dissolve_vote;
    this.quietUntil = performance.now() + (vote ? vote.quiet_ms : 0);
    if (!vote || room.status !== "playing" || vote.result !== null) {
      if (vote && this.openNumber === vote.number) this.announce(room, vote);
      this.close();
      return;
    }
    if (this.openNumber !== vote.number || !this.panel) this.deadline = performance.now() + vote.ms_left;
    this.openNumber = vote.number;
    this.room = room;
    this.mySeat = mySeat;
    this.draw();
  }

  // Whether a vote is open in the room (nobody asks for another meanwhile).
  static isOpen(room) {
    const vote = room.dissolve_vote;
    return Boolean(vote && vote.result === null && room.status === "playing");
  }

  // The table's 申请解散 button: off while a vote runs, for a while after a refusal, and once this
  // seat has asked as often as a match allows.
  buttonHtml(room, mySeat) {
    const [label, off] = this.buttonState(room, mySeat);
    return `<button type="button" data-role="dissolve" ${off ? "disabled" : ""}>${label}</button>`;
  }

  buttonState(room, mySeat) {
    const vote = room.dissolve_vote;
    if (DissolveVote.isOpen(room)) return [t("table.dissolveOpen"), true];
    if (vote && mySeat !== null && vote.asks_left[mySeat] === 0) return [t("table.dissolveNoMore"), true];
    const quiet = Math.ceil((this.quietUntil - performance.now()) / 1000);
    if (quiet > 0) return [t("table.dissolveQuiet", { s: quiet }), true];
    return [t("table.dissolve"), false];
  }

  // Kept current between redraws (the quiet time counts down while nobody moves).
  tickButton(root, room, mySeat) {
    const button = root.querySelector('[data-role="dissolve"]');
    if (!button) return;
    const [label, off] = this.buttonState(room, mySeat);
    if (button.textContent !== label) button.textContent = label;
    button.disabled = off;
  }

  names() {
    const seats = this.room.seats;
    return seatNames(seats.map((seat) => seat.name), seats.map((seat) => seat.bot));
  }

  draw() {
    const vote = this.room.dissolve_vote;
    const names = this.names();
    const mine = this.mySeat !== null && vote.voters.includes(this.mySeat) && vote.answers[this.mySeat] === null;
    const waiting = vote.voters.filter((seat) => vote.answers[seat] === null).length;
    const rows = this.room.seats.map((seat) => {
      const answer = vote.answers[seat.seat];
      let state;
      if (!vote.voters.includes(seat.seat)) state = seat.bot ? t("vote.stateAgreed") : ""; // bots agree
      else if (seat.seat === vote.asked_by) state = t("vote.stateAsked");
      else if (answer === true) state = t("vote.stateAgreed");
      else if (answer === false) state = t("vote.stateRefused");
      else state = t("vote.statePending");
      const kind = answer === true || seat.bot ? "yes" : answer === false ? "no" : "pending";
      return state ? `<li class="${kind}"><span class="who">${escapeHtml(names[seat.seat] || "")}</span><span class="state">${state}</span></li>` : "";
    });
    const actions = mine
      ? `<p class="vote-buttons">
          <button type="button" class="danger" data-role="dissolve-refuse">${t("vote.refuse")}</button>
          <button type="button" class="primary" data-role="dissolve-agree">${t("vote.agree")}</button>
        </p>`
      : `<p class="vote-waiting" data-role="dissolve-waiting">${t("vote.waiting", { n: waiting })}</p>`;
    // Whoever has answered keeps playing under a smaller panel: who asked, how many are awaited, the time.
    const markup = `<section class="vote-panel${mine ? "" : " compact"}" data-role="dissolve-vote" role="dialog" aria-live="polite" aria-label="${escapeHtml(t("table.dissolve"))}">
      <h2>${t("vote.asked", { name: escapeHtml(names[vote.asked_by] || "") })}</h2>
      <ul class="vote-answers">${rows.join("")}</ul>
      <p class="vote-countdown" data-role="dissolve-countdown"></p>
      ${actions}
    </section>`;
    const panel = html(markup);
    if (this.panel) this.panel.replaceWith(panel);
    else document.body.append(panel);
    this.panel = panel;
    for (const [role, agree] of [["dissolve-agree", true], ["dissolve-refuse", false]]) {
      const button = panel.querySelector(`[data-role="${role}"]`);
      if (button) button.addEventListener("click", () => this.answer(agree));
    }
    this.tick();
    if (!this.timer) this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  tick() {
    if (!this.panel) return;
    const seconds = Math.max(0, Math.ceil((this.deadline - performance.now()) / 1000));
    this.panel.querySelector('[data-role="dissolve-countdown"]').textContent = t("vote.countdown", { s: seconds });
  }

  async answer(agree) {
    if (this.sending) return;
    this.sending = true;
    try {
      const room = await api.dissolve(this.number, agree);
      this.show(room, this.mySeat);
    } catch (error) {
      toast(error.message, "error");
    } finally {
      this.sending = false;
    }
  }

  // How the vote this page saw open ended, said once.
  announce(room, vote) {
    this.openNumber = null;
    const names = seatNames(room.seats.map((seat) => seat.name), room.seats.map((seat) => seat.bot));
    if (vote.result === "refused") {
      const refuser = vote.answers.findIndex((answer) => answer === false);
      toast(t("vote.refused", { name: names[refuser] || "" }));
    } else {
      toast(t(vote.result === "timeout" ? "vote.timeout" : "vote.agreed"));
    }
  }

  close() {
    if (this.panel) this.panel.remove();
    this.panel = null;
    clearInterval(this.timer);
    this.timer = null;
  }
}
