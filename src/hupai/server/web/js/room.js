// A room: the waiting room (seats, bots, ready, start) and then the table, over one websocket
// (docs/protocol.md). Everything shown comes from the last `room`, `update`, `hand_end` and
// `match_end` messages; the page redraws from them.

import { api, currentUser, inviteFor, recordLink } from "./api.js";
import { avatarHtml } from "./avatar.js";
import { knows, pick, t } from "./i18n.js";
import { BOT_LEVELS, showNickname } from "./lobby.js";
import { ruleCardHtml } from "./rulecard.js";
import { renderHandEnd, renderSummary } from "./settlement.js";
import { escapeWarning } from "./escape.js";
import { inviteHtml, loadInvite, wireInvite } from "./invite.js";
import { TableView } from "./table.js";
import { seatName, seatNames } from "./names.js";
import { confirmDialog } from "./dialog.js";
import { DissolveVote } from "./dissolve.js";
import { Social } from "./social.js";
import { Voice } from "./voice.js";
import { stayAwake } from "./awake.js";
import { decisionWaiting, setNotifications } from "./attention.js";
import { checkRecord, contributionFor, rememberedContribution, showFairDetails, verdictHtml } from "./fairness.js";
import { escapeHtml, html, patchedView, toast } from "./util.js";

const RECONNECT_MS = 1000;
// The heartbeat: a socket quiet this long sends a ping; one that then hears nothing this long is
// given up (its server is paused or cut off) and a new one opened at once. bench/failover.py plays so.
const PING_AFTER_MS = 2500;
const PONG_WITHIN_MS = 2000;
const REVEAL_MS = 1500; // the open hands and the winner's call are seen before the hand's sheet
// A contribution resent after a reconnect; a voice signal to someone who just left the voice.
const QUIET_ERRORS = ["already_contributed", "deal_closed", "not_in_voice"];

export async function show(root, [number]) {
  const user = await currentUser();
  if (!user) {
    showNickname(root, () => show(root, [number]));
    return null;
  }
  const [room, cards] = await Promise.all([api.room(number), api.rulesets()]);
  // The invitation is for its players to share; a club's table has none to share (its members come
  // in without a link, and nobody else does).
  if (isPlayer(room, user) && !room.club) await loadInvite(number);
  const labels = Object.fromEntries(cards.map((card) => [card.ruleset, card.labels]));
  const table = new TableClient(root, number, user, room, labels);
  table.connect();
  return () => table.close();
}

// A club's table in place of the invitation: its members sit without a link; the way back to the
// club; and the host may still lock it (nobody new, members or not).
function clubLineHtml(room, host) {
  const lock = host
    ? `<button type="button" data-role="lock" aria-pressed="${room.locked}">${t(room.locked ? "invite.unlock" : "invite.lock")}</button>`
    : "";
  return `<section class="club-table-line" data-role="club-table-line">
    <p>${t(room.locked ? "invite.lockedLead" : "room.clubTable")}</p>
    <a class="button" href="#/club/${escapeHtml(room.club)}" data-role="to-club">${t("room.toClub")}</a>${lock}
  </section>`;
}

function isPlayer(room, user) {
  return room.host_id === user.id || room.seats.some((place) => place.user_id === user.id);
}

class TableClient {
  constructor(root, number, user, room, labels) {
    this.root = root;
    this.number = number;
    this.user = user;
    this.room = room;
    this.labels = labels;
    this.update = null; // the last update
    this.handEnd = null; // the last hand_end, shown until the next hand's first update
    this.summary = null;
    this.table = new TableView(this);
    this.vote = new DissolveVote(number); // the 解散 vote's panel, over the page
    this.social = new Social(this); // 快捷语 and emotes
    this.voice = new Voice(this); // 语音 between the people at the table
    this.lastCauses = []; // why the current hand is doubled (比下胡)
    this.hand = -1;
    this.events = 0;
    this.socket = null;
    this.closed = false;
    this.connected = false;
    this.promptReceived = 0;
    this.fair = null; // the fair-deal facts of the hand in play, as its deal told this seat
    this.reveals = {}; // hand → its fair deal revealed at its end (secret and contributions)
    this.checks = {}; // hand → the promise of its verdict
    this.verdicts = {}; // hand → its verdict, once known
    this.hints = localStorage.getItem("hupai.hints") === "1";
    this.timer = setInterval(() => this.tick(), 250);
    this.relabel = () => this.render();
    window.addEventListener("languagechange-hupai", this.relabel);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const invite = inviteFor(this.number);
    // delta=1: after a hand's first whole view, updates carry only what changed (patchedView).
    const query = `hand=${this.hand}&since=${this.events}&delta=1${invite ? `&invite=${encodeURIComponent(invite)}` : ""}`;
    const socket = new WebSocket(`${scheme}://${location.host}/api/rooms/${this.number}/ws?${query}`);
    this.socket = socket;
    this.contributed = new Set(); // the hands this connection sent a contribution for
    this.heardAt = performance.now();
    this.pingedAt = null;
    socket.addEventListener("open", () => {
      this.connected = true;
      this.heardAt = performance.now();
      // Hints are asked for per connection: a reload or a reconnect asks again while 提示 is ticked.
      if (this.hints) this.send({ type: "hints", on: true });
      this.render();
    });
    socket.addEventListener("message", (event) => {
      if (socket !== this.socket) return; // a socket given up on
      this.heardAt = performance.now();
      this.pingedAt = null;
      this.receive(JSON.parse(event.data));
    });
    socket.addEventListener("close", () => {
      if (socket !== this.socket) return;
      this.connected = false;
      if (this.closed) return;
      this.render();
      setTimeout(() => !this.closed && this.connect(), RECONNECT_MS);
    });
  }

  heartbeat() {
    if (!this.connected || this.closed) return;
    const now = performance.now();
    if (this.pingedAt === null && now - this.heardAt > PING_AFTER_MS) {
      this.pingedAt = now;
      this.send({ type: "ping" });
    } else if (this.pingedAt !== null && now - this.pingedAt > PONG_WITHIN_MS) {
      // No answer: a paused server would hold a closing handshake for long, so do not wait for it.
      const dead = this.socket;
      this.socket = null;
      this.connected = false;
      dead.close();
      this.render();
      this.connect();
    }
  }

  close() {
    this.closed = true;
    stayAwake(false);
    decisionWaiting(null, null);
    clearInterval(this.timer);
    this.table.close();
    this.vote.close();
    this.social.close();
    this.voice.close();
    window.removeEventListener("languagechange-hupai", this.relabel);
    if (this.socket) this.socket.close();
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  receive(message) {
    switch (message.type) {
      case "welcome": // the table handled our join: it is not waiting for storage now
        this.seat = message.seat;
        this.storageAway = false;
        this.relayAway = false;
        this.voice.iceServers = message.ice_servers || [];
        this.voice.rejoin();
        break;
      case "room":
        this.room = message.room;
        this.vote.show(this.room, this.seat ?? null);
        break;
      case "deal_commitment": // the next hand's commitment: contribute to its wall (fairness.js)
        this.contribute(message);
        return;
      case "update":
        if (message.patch) {
          // The server sends a patch only after a whole view of the same hand on this socket.
          if (!this.update || this.update.hand !== message.hand) {
            this.send({ type: "sync", hand: this.hand, since: this.events }); // answered with a whole view
            return;
          }
          message.view = patchedView(this.update.view, message.patch);
        }
        if (!message.table) message.table = this.update.table;
        if (message.fair) this.fair = { hand: message.hand, ...message.fair };
        this.table.heard(message, this.update);
        if (this.handEnd && message.hand > this.handEnd.hand) this.handEnd = null;
        this.hand = message.hand;
        this.events = message.from + message.events.length;
        this.update = message;
        this.promptReceived = performance.now();
        if (message.view.multiplier > 1 && !this.lastCauses.length) this.fetchCauses();
        break;
      case "hand_end":
        this.handEnd = message;
        this.handEndAt = performance.now();
        this.revealAt = this.handEndAt + REVEAL_MS;
        this.lastCauses = message.result.bixiahu.next_doubled ? message.result.bixiahu.causes : [];
        if (message.fair) {
          this.reveals[message.hand] = message.fair;
          this.check(message.hand);
        }
        break;
      case "presence": // who is at the table now: a player gone away (离线) shows at once
        if (!this.update) return;
        this.update = { ...this.update, table: { ...this.update.table, connected: message.connected } };
        break;
      case "relay": // this socket's way to the table's server broke: the page reconnects at once
        this.relayAway = message.state === "away";
        break;
      case "storage": // the table waits for its database; what we send meanwhile is kept in order
        this.storageAway = message.state === "away";
        break;
      case "match_end":
        this.summary = message; // shown once the last hand's sheet is closed (查看大结算)
        break;
      case "continue": // between hands: who has pressed 继续, and the countdown
        if (this.handEnd) {
          const { pressed, waiting, next_in_ms } = message;
          this.handEnd = { ...this.handEnd, pressed, waiting, next_in_ms };
          this.handEndAt = performance.now(); // the countdown starts again from the server's figure
        }
        break;
      case "said": // 快捷语 or an emote: a bubble over the page, nothing to redraw
        this.social.heard(message);
        return;
      case "voice": // who is in the voice, and the signals between us and them (voice.js redraws)
        this.voice.heard(message);
        return;
      case "error":
        if (QUIET_ERRORS.includes(message.code)) return;
        // The table's words for a refused move (过胡不胡 and the like), else the code's, else the server's.
        toast(this.table.refusalWords(message.why) || (knows(`refusal.${message.code}`) ? t(`refusal.${message.code}`) : message.message), "error");
        break;
      default:
        return;
    }
    this.render();
  }

  // --- drawing ---------------------------------------------------------------------------------

  render() {
    if (this.closed) return;
    this.remind();
    if (this.summary && !this.handEnd) {
      this.root.innerHTML = "";
      this.root.append(renderSummary(this.summary, this.number, seatNames(this.summary.names, this.summary.bot_levels)));
      return;
    }
    if ((this.room.status === "dissolved" || this.room.status === "closed") && !this.handEnd) {
      // A room the server had to close says why (closed_reason, in English from the server).
      const reason = this.room.closed_reason ? `<p class="muted">${escapeHtml(this.room.closed_reason)}</p>` : "";
      this.root.innerHTML = `<section class="card"><p>${t("room.closed")}</p>${reason}<a href="#/">${t("summary.back")}</a></section>`;
      return;
    }
    if ((this.room.status === "finished" || this.room.status === "dissolved") && !this.handEnd) {
      // Its 大结算 comes from the table (match_end); a match ended before results were kept has none.
      this.root.innerHTML = `<section class="card" data-role="ended"><p>${t("room.ended")}</p><p><a href="#/history">${t("room.endedHistory")}</a> · <a href="#/">${t("summary.back")}</a></p></section>`;
      return;
    }
    if (this.room.status === "waiting" || !this.update) {
      this.renderWaiting();
      return;
    }
    this.renderTable();
  }

  // A player at a match in play keeps the screen awake (awake.js); a decision waiting for them reaches
  // them while the page is hidden (attention.js).
  remind() {
    const seated = this.mySeat() !== null;
    stayAwake(seated && this.room.status === "playing" && !this.summary);
    decisionWaiting(...(seated ? this.waitingOnMe() : [null, null]));
  }

  // What waits for this player: ["turn" | "claim" | "vote", a key new with each decision] or nulls.
  waitingOnMe() {
    const vote = this.room.dissolve_vote;
    const seat = this.seat ?? this.mySeat();
    if (DissolveVote.isOpen(this.room) && vote.voters.includes(seat) && vote.answers[seat] === null) return ["vote", vote.number];
    const prompt = this.update && !this.handEnd && this.update.prompt && !this.update.prompt.automatic ? this.update.prompt : null;
    if (!prompt) return [null, null];
    return [prompt.legal.some((action) => action.act === "discard") ? "turn" : "claim", prompt.seq];
  }

  // --- fair deals (fairness.js) --------------------------------------------------------------------

  contribute(message) {
    const value = contributionFor(this.number, message, this.seat);
    if (value === null || this.contributed.has(message.hand)) return;
    this.contributed.add(message.hand);
    this.send({ type: "entropy", hand: message.hand, value });
  }

  // Verify an ended hand from its stored record, as `hupai verify` would.
  check(hand) {
    if (this.checks[hand]) return this.checks[hand];
    this.checks[hand] = api.record(this.number, hand)
      .then((record) => checkRecord(record, this.room.rules.ruleset, this.number))
      .catch((error) => ({ verified: false, problems: [{ code: "shape", params: { what: error.message } }], mine: null }))
      .then((verdict) => {
        this.verdicts[hand] = verdict;
        this.render();
        return verdict;
      });
    return this.checks[hand];
  }

  // The details of a hand's fair deal: its commitment and wall hash, and once it ended the secret,
  // the contributions and the verdict.
  showFair(hand) {
    const facts = this.fair && this.fair.hand === hand ? this.fair : null;
    const reveal = this.reveals[hand] || null;
    if (!facts && !reveal) return;
    const told = facts || { ...reveal, mine: rememberedContribution(this.number, hand, reveal.commitment) };
    const table = this.update.table;
    showFairDetails({
      title: t("fair.handTitle", { n: hand + 1 }),
      hand: told,
      names: seatNames(table.names, table.bot_levels),
      reveal,
      verdict: reveal ? this.check(hand) : null,
      recordLink: reveal ? recordLink(this.number, hand) : "",
    });
  }

  // The hand's sheet says whether its wall verified (nothing for a hand without a fair deal).
  fairLine(hand) {
    if (!this.reveals[hand]) return "";
    return verdictHtml(this.verdicts[hand] || null, { details: true });
  }

  // After a reconnect the doubled hand's causes come from the last settlement.
  async fetchCauses() {
    if (this.fetchingCauses) return;
    this.fetchingCauses = true;
    try {
      const hands = await api.hands(this.number);
      const last = hands[hands.length - 1];
      if (last && last.bixiahu.next_doubled) {
        this.lastCauses = last.bixiahu.causes;
        this.render();
      }
    } catch {
      // the banner still shows the multiplier
    }
  }

  causeName(cause) {
    const labels = this.labels[this.room.rules.ruleset] || {};
    const names = ((labels.bixiahu_triggers || {}).values || {})[cause];
    return names ? pick(names.zh, names.en) : cause;
  }

  mySeat() {
    const seat = this.room.seats.find((place) => place.user_id === this.user.id && !place.left);
    return seat ? seat.seat : null;
  }

  renderWaiting() {
    const room = this.room;
    const mine = this.mySeat();
    const host = room.host_id === this.user.id;
    const card = { ...room.rules, labels: this.labels[room.rules.ruleset] };
    const seats = room.seats
      .map((place) => {
        let who = `<span class="avatar empty-seat" aria-hidden="true"></span> <span class="muted">${t("room.empty")}</span>`;
        if (place.bot) who = `${avatarHtml({ bot: true })} ${escapeHtml(seatName(place.name, place.bot, place.seat))} <span class="tag">${t("room.bot")}</span>`;
        else if (place.user_id !== null) {
          who = `${avatarHtml({ name: place.name, avatar: place.avatar })} ${escapeHtml(place.name)}` +
            (place.user_id === room.host_id ? ` <span class="tag">${t("room.host")}</span>` : "") +
            (place.user_id === this.user.id ? ` <span class="tag you">${t("room.you")}</span>` : "");
        }
        const taken = place.bot || place.user_id !== null;
        // The host starts the game rather than getting ready: no ready state is shown for them.
        const waits = taken && place.user_id !== room.host_id;
        const state = waits ? `<span class="${place.ready ? "ok" : "muted"}">${t(place.ready ? "room.isReady" : "room.notReady")}</span>` : "";
        const buttons = [];
        if (!taken && mine === null) buttons.push(`<button type="button" data-sit="${place.seat}">${t("room.sit")}</button>`);
        if (!taken && host) {
          buttons.push(`<select data-level="${place.seat}" aria-label="${t("lobby.botLevel")}">
            ${BOT_LEVELS.map((level) => `<option value="${level}" title="${t(`bot.${level}.about`)}" ${level === "strong" ? "selected" : ""}>${t(`bot.${level}`)}</option>`).join("")}</select>`);
          buttons.push(`<button type="button" data-bot="${place.seat}">${t("room.addBot")}</button>`);
        }
        if (taken && host && place.user_id !== this.user.id) buttons.push(`<button type="button" class="link" data-remove="${place.seat}">${t("room.remove")}</button>`);
        return `<li class="seat-row${place.bot ? " bot" : ""}" data-seat="${place.seat}"><b>${t(`seat.${place.seat}`)}</b> ${who} ${state} <span class="buttons">${buttons.join(" ")}</span></li>`;
      })
      .join("");
    const me = mine === null ? null : room.seats[mine];
    const actions = [];
    if (me && !host) actions.push(`<button type="button" class="primary" data-role="ready">${t(me.ready ? "room.unready" : "room.ready")}</button>`);
    if (host) {
      actions.push(`<button type="button" data-role="fill">${t("room.fillBots")}</button>`);
      actions.push(`<button type="button" class="primary" data-role="start">${t("room.start")}</button>`);
    }
    actions.push(`<button type="button" class="link" data-role="leave">${t("room.leave")}</button>`);
    this.root.innerHTML = "";
    const page = html(`<section class="waiting">
      <h1>${t("room.title")} <span class="room-number" data-role="number">${this.number}</span>${room.locked ? ` <span class="room-locked" data-role="locked">🔒 ${t("room.locked")}</span>` : ""}</h1>
      <p class="muted">${room.club ? `<b data-role="club-rules">${escapeHtml(room.club_rules || t("room.clubTableShort"))}</b>` : t("room.share")} · ${escapeHtml(pick(room.rules.zh, room.rules.en))} · ${t("lobby.hands")} ${room.hands}</p>
      <ul class="seats">${seats}</ul>
      <p class="actions">${actions.join(" ")}</p>
      ${room.club ? clubLineHtml(room, host) : inviteHtml(this.number, { host, locked: room.locked, player: mine !== null || host })}
      <details class="rules"><summary>${t("lobby.ruleCard")}</summary>${ruleCardHtml(card)}</details>
    </section>`);
    this.root.append(page);
    const guard = (work) => async () => {
      try {
        this.room = await work();
        this.render();
      } catch (error) {
        toast(error.message, "error");
      }
    };
    wireInvite(page, this.number, {
      onLock: guard(() => api.lock(this.number, !room.locked)),
      onNewLink: async () => {
        await loadInvite(this.number, { renew: true });
        this.render();
      },
    });
    for (const button of page.querySelectorAll("[data-sit]")) button.addEventListener("click", guard(() => api.sit(this.number, Number(button.dataset.sit))));
    for (const button of page.querySelectorAll("[data-bot]")) {
      const level = page.querySelector(`[data-level="${button.dataset.bot}"]`);
      button.addEventListener("click", guard(() => api.bots(this.number, Number(button.dataset.bot), level.value)));
    }
    for (const button of page.querySelectorAll("[data-remove]")) button.addEventListener("click", guard(() => api.remove(this.number, Number(button.dataset.remove))));
    const on = (role, work) => {
      const button = page.querySelector(`[data-role="${role}"]`);
      if (button) button.addEventListener("click", guard(work));
    };
    on("ready", () => api.ready(this.number, !me.ready));
    on("fill", () => api.bots(this.number, undefined, room.bot_level));
    on("start", () => api.start(this.number));
    on("leave", async () => {
      const out = await api.leave(this.number);
      location.hash = "#/";
      return out;
    });
  }

  renderTable() {
    const ended = this.handEnd && this.update.hand === this.handEnd.hand;
    // The hand is over: the board shows every hand open, and the sheet follows once the win was seen.
    const shown = ended ? { ...this.update, view: { ...this.handEnd.view, seat: this.update.view.seat, hand: this.update.view.hand } } : this.update;
    this.table.render(this.root, shown);
    const page = this.root.querySelector('[data-role="table"]');
    if (this.handEnd && performance.now() >= this.revealAt) page.append(this.handEndSheet(this.update.table));
  }

  // A seat's name as the player reads it (bots in the player's language).
  seatName(seat) {
    const facts = this.update.table;
    return seatNames(facts.names, facts.bot_levels)[seat] || "";
  }

  // --- between hands: the hand-end sheet, 继续 and 查看大结算 ---------------------------------------
  handEndSheet(facts) {
    return renderHandEnd(this.handEnd, seatNames(facts.names, facts.bot_levels), {
      secondsToNext: this.secondsToNext(),
      causeName: (cause) => this.causeName(cause),
      mySeat: this.update.view.seat,
      fairLine: this.fairLine(this.handEnd.hand),
      onFairDetails: () => this.showFair(this.handEnd.hand),
      onContinue: () => this.pressContinue(),
      onSummary: () => {
        this.handEnd = null;
        this.render();
      },
    });
  }

  pressContinue() {
    this.send({ type: "continue" });
    const seat = this.update.view.seat;
    const pressed = this.handEnd.pressed || [];
    if (seat === null || pressed.includes(seat)) return;
    const waiting = (this.handEnd.waiting || []).filter((other) => other !== seat);
    this.handEnd = { ...this.handEnd, pressed: [...pressed, seat], waiting };
    this.render();
  }
  // --- end of between hands ------------------------------------------------------------------------

  // The table's tools: hints, 托管, 解散 and 逃跑.
  wireTools(page) {
    const hints = page.querySelector('[data-role="hints"]');
    if (hints) {
      hints.addEventListener("change", () => {
        this.hints = hints.checked;
        localStorage.setItem("hupai.hints", this.hints ? "1" : "0");
        this.send({ type: "hints", on: this.hints });
        this.render();
      });
    }
    const notify = page.querySelector('[data-role="notify"]');
    if (notify) {
      notify.addEventListener("change", async () => {
        const on = await setNotifications(notify.checked);
        if (notify.checked && !on) toast(t("attention.denied"), "error");
        this.render();
      });
    }
    const trustee = page.querySelector('[data-role="trustee"]');
    if (trustee) trustee.addEventListener("click", () => this.send({ type: "trustee", on: !this.update.table.trustee[this.update.view.seat] }));
    const chat = page.querySelector('[data-role="chat"]');
    if (chat) chat.addEventListener("click", () => this.social.toggle());
    const voice = page.querySelector('[data-role="voice"]');
    if (voice) voice.addEventListener("click", () => this.voice.toggle());
    const dissolve = page.querySelector('[data-role="dissolve"]');
    if (dissolve) {
      dissolve.addEventListener("click", async () => {
        if (!(await confirmDialog(t("table.dissolveConfirm", { s: this.room.dissolve_seconds })))) return;
        try {
          this.room = await api.dissolve(this.number, true);
          this.vote.show(this.room, this.seat ?? null);
          this.render();
        } catch (error) {
          toast(error.message, "error");
        }
      });
    }
    const escape = page.querySelector('[data-role="escape"]');
    if (escape) {
      escape.addEventListener("click", async () => {
        if (!(await confirmDialog(escapeWarning(this.room)))) return;
        try {
          await api.leave(this.number);
        } catch (error) {
          toast(error.message, "error");
        }
      });
    }
  }

  act(prompt, action) {
    if (!prompt) return;
    this.send({ type: "act", seq: prompt.seq, action });
  }

  secondsToNext() {
    if (!this.handEnd) return 0;
    return Math.max(0, Math.ceil((this.handEnd.next_in_ms - (performance.now() - this.handEndAt)) / 1000));
  }

  // The countdowns: the decision clock and the next-hand timer; the sheet once the win was seen.
  tick() {
    this.heartbeat();
    if (this.table && this.update) this.table.tick();
    this.vote.tickButton(this.root, this.room, this.seat ?? null);
    if (this.handEnd && !this.root.querySelector('[data-role="hand-end"]') && performance.now() >= this.revealAt) this.render();
    const next = this.root.querySelector('[data-role="next-in"]');
    if (next) next.textContent = t("end.next", { n: this.secondsToNext() });
  }
}
