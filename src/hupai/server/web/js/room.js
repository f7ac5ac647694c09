// A room: the waiting room (seats, bots, ready, start) and then the table, over one websocket
// (docs/protocol.md). Everything shown comes from the last `room`, `update`, `hand_end` and
// `match_end` messages; the page redraws from them.

import { api, currentUser } from "./api.js";
import { pick, t } from "./i18n.js";
import { showNickname } from "./lobby.js";
import { ruleCardHtml } from "./rulecard.js";
import { renderHandEnd, renderSummary } from "./settlement.js";
import { meldTiles, seatBoxHtml, windOf } from "./board.js";
import { parseTiles, tileName, tileOrder, tileSvg, tilesHtml } from "./tiles.js";
import { escapeHtml, html, signed, toast } from "./util.js";
import { hintsHtml } from "./hints.js";
import { seatNames } from "./names.js";
import { confirmDialog } from "./dialog.js";

const RECONNECT_MS = 1000;

export async function show(root, [number]) {
  const user = await currentUser();
  if (!user) {
    showNickname(root, () => show(root, [number]));
    return null;
  }
  const [room, cards] = await Promise.all([api.room(number), api.rulesets()]);
  const labels = Object.fromEntries(cards.map((card) => [card.ruleset, card.labels]));
  const table = new TableClient(root, number, user, room, labels);
  table.connect();
  return () => table.close();
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
    this.selected = null; // the position in the hand of the tile chosen for a discard (second tap sends)
    this.lastCauses = []; // why the current hand is doubled (比下胡)
    this.hand = -1;
    this.events = 0;
    this.socket = null;
    this.closed = false;
    this.connected = false;
    this.promptReceived = 0;
    this.hints = localStorage.getItem("hupai.hints") === "1";
    this.timer = setInterval(() => this.tick(), 250);
    this.relabel = () => this.render();
    window.addEventListener("languagechange-hupai", this.relabel);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = `hand=${this.hand}&since=${this.events}`;
    const socket = new WebSocket(`${scheme}://${location.host}/api/rooms/${this.number}/ws?${query}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.connected = true;
      this.render();
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      this.connected = false;
      if (this.closed) return;
      this.render();
      setTimeout(() => !this.closed && this.connect(), RECONNECT_MS);
    });
  }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    window.removeEventListener("languagechange-hupai", this.relabel);
    if (this.socket) this.socket.close();
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  receive(message) {
    switch (message.type) {
      case "welcome":
        this.seat = message.seat;
        break;
      case "room":
        this.room = message.room;
        break;
      case "update":
        // A pick belongs to one prompt: a new hand or a new decision clears it.
        if (message.hand !== this.hand || (message.prompt || {}).seq !== ((this.update || {}).prompt || {}).seq) {
          this.selected = null;
        }
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
        this.lastCauses = message.result.bixiahu.next_doubled ? message.result.bixiahu.causes : [];
        break;
      case "match_end":
        this.summary = message; // shown once the last hand's sheet is closed (查看大结算)
        break;
      case "continue": // between hands: who has pressed 继续, and the countdown
        if (this.handEnd) {
          const { pressed, waiting, next_in_ms } = message;
          this.handEnd = { ...this.handEnd, pressed, waiting, next_in_ms };
          this.handEndAt = performance.now();
        }
        break;
      case "error":
        toast(message.message, "error");
        break;
      default:
        return;
    }
    this.render();
  }

  // --- drawing ---------------------------------------------------------------------------------

  render() {
    if (this.closed) return;
    if (this.summary && !this.handEnd) {
      this.root.innerHTML = "";
      this.root.append(renderSummary(this.summary, this.number, seatNames(this.summary.names, this.summary.bot_levels)));
      return;
    }
    if (this.room.status === "dissolved" && !this.handEnd) {
      this.root.innerHTML = `<section class="card"><p>${t("room.closed")}</p><a href="#/">${t("summary.back")}</a></section>`;
      return;
    }
    if (this.room.status === "waiting" || !this.update) {
      this.renderWaiting();
      return;
    }
    this.renderTable();
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
        let who = `<span class="muted">${t("room.empty")}</span>`;
        if (place.bot) who = `${escapeHtml(place.name)} <span class="tag">${t("room.bot")}</span>`;
        else if (place.user_id !== null) {
          who = escapeHtml(place.name) +
            (place.user_id === room.host_id ? ` <span class="tag">${t("room.host")}</span>` : "") +
            (place.user_id === this.user.id ? ` <span class="tag you">${t("room.you")}</span>` : "");
        }
        const taken = place.bot || place.user_id !== null;
        const state = taken ? `<span class="${place.ready ? "ok" : "muted"}">${t(place.ready ? "room.isReady" : "room.notReady")}</span>` : "";
        const buttons = [];
        if (!taken && mine === null) buttons.push(`<button type="button" data-sit="${place.seat}">${t("room.sit")}</button>`);
        if (!taken && host) {
          buttons.push(`<select data-level="${place.seat}" aria-label="${t("lobby.botLevel")}">
            <option value="strong">${t("bot.strong")}</option><option value="efficiency">${t("bot.efficiency")}</option><option value="random">${t("bot.random")}</option></select>`);
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
      <h1>${t("room.title")} <span class="room-number" data-role="number">${this.number}</span></h1>
      <p class="muted">${t("room.share")} · ${escapeHtml(pick(room.rules.zh, room.rules.en))} · ${t("lobby.hands")} ${room.hands}</p>
      <ul class="seats">${seats}</ul>
      <p class="actions">${actions.join(" ")}</p>
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
    const update = this.update;
    const view = update.view;
    const facts = update.table;
    const me = view.seat;
    const bottom = me === null ? 0 : me;
    const order = [bottom, (bottom + 1) % 4, (bottom + 2) % 4, (bottom + 3) % 4];
    const places = ["bottom", "right", "top", "left"];
    const prompt = update.prompt && !update.prompt.automatic ? update.prompt : null;
    const panels = order.map((seat, index) => this.seatPanel(seat, places[index], view, facts)).join("");
    const doubled = view.multiplier > 1
      ? `<div class="banner bixiahu" data-role="bixiahu">${t("table.bixiahu", { n: view.multiplier })}${this.lastCauses.length ? ` · ${escapeHtml(this.lastCauses.map((cause) => this.causeName(cause)).join("、"))}` : ""}</div>`
      : "";
    const turnName = facts.names[view.turn] || "";
    const waiting = facts.waiting_on.map((seat) => escapeHtml(facts.names[seat])).join("、");
    const wild = view.pizi
      ? `<div class="wild" data-role="wild">${t("table.pizi")} ${tileSvg(view.pizi, { extra: "small" })} ${t("table.laizi")} ${tileSvg(view.laizi, { extra: "small wildcard" })}</div>`
      : "";
    const centre = `<div class="centre">
      <div class="hand-no" data-role="hand-no">${t("table.hand", { n: update.hand + 1, total: facts.hands_total })}</div>
      ${wild}
      <div class="wall" data-role="wall">${t("table.wall", { n: view.live_tiles })}</div>
      ${doubled}
      <div class="turn">${escapeHtml(turnName)} ${view.phase === "turn" ? t("table.turn") : ""}</div>
      <div class="waiting-on muted">${waiting ? `${t("table.waiting")}: ${waiting}` : ""}</div>
      <div class="clock" data-role="clock"></div>
      ${this.connected ? "" : `<div class="banner offline">${t("table.reconnecting")}</div>`}
    </div>`;
    this.root.innerHTML = "";
    const page = html(`<section class="table phase-${view.phase}" data-phase="${view.phase}">
      ${panels}${centre}
      <div class="mine">${me === null ? "" : this.myHand(view, prompt)}${me === null ? "" : this.actionBar(update, prompt)}</div>
      ${this.hints && update.hints ? hintsHtml(update.hints) : ""}
    </section>`);
    this.root.append(page);
    if (this.handEnd) page.append(this.handEndSheet(facts));
    this.wire(page, prompt);
    this.tick();
  }

  // --- between hands: the hand-end sheet, 继续 and 查看大结算 ---------------------------------------
  handEndSheet(facts) {
    return renderHandEnd(this.handEnd, seatNames(facts.names, facts.bot_levels), {
      secondsToNext: this.secondsToNext(),
      causeName: (cause) => this.causeName(cause),
      mySeat: this.update.view.seat,
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

  seatPanel(seat, place, view, facts) {
    const info = view.seats[seat];
    const marks = [];
    if (seat === view.dealer) marks.push(`<span class="tag dealer">${t("table.dealer")}</span>`);
    if (facts.bots[seat]) marks.push(`<span class="tag">${t("room.bot")}</span>`);
    if (facts.trustee[seat]) marks.push(`<span class="tag">${t("table.trustee")}</span>`);
    if (!facts.bots[seat] && !facts.connected[seat]) marks.push(`<span class="tag warn">${t("table.offline")}</span>`);
    if (info.ready) marks.push(`<span class="tag ready">${t("act.ready")}</span>`);
    return seatBoxHtml({
      seat,
      place,
      info,
      label: t(windOf(seat, view.dealer)),
      name: facts.names[seat],
      total: facts.totals[seat],
      marks: marks.join(" "),
      concealed: seat === view.seat ? [] : null,
      active: view.turn === seat && view.phase !== "ended",
      openTile: view.open_from === seat ? view.open_tile : null,
    });
  }

  myHand(view, prompt) {
    const codes = parseTiles(view.hand).sort((a, b) => tileOrder(a) - tileOrder(b));
    let drawn = null;
    if (view.drawn && codes.includes(view.drawn)) {
      codes.splice(codes.lastIndexOf(view.drawn), 1);
      drawn = view.drawn;
    }
    const playable = new Set(
      (prompt ? prompt.legal : []).filter((action) => action.act === "discard").map((action) => action.tile),
    );
    const shown = drawn ? [...codes, drawn] : codes;
    const picked = this.selected !== null && playable.has(shown[this.selected]);
    const tile = (code, index) => {
      const classes = [index === codes.length ? "drawn" : "", code === view.laizi ? "wildcard" : ""];
      if (playable.has(code)) classes.push("playable");
      if (picked && index === this.selected) classes.push("selected");
      return `<button type="button" class="hand-tile ${classes.join(" ")}" data-discard="${code}" data-index="${index}" ${playable.has(code) ? "" : "disabled"} aria-label="${tileName(code)}">${tileSvg(code)}</button>`;
    };
    const tiles = shown.map((code, index) => (index === codes.length ? `<span class="gap"></span>` : "") + tile(code, index));
    const tip = picked ? `<div class="tip">${t("table.tapAgain")}</div>` : "";
    return `<div class="hand" data-role="hand">${tiles.join("")}</div>${tip}`;
  }

  actionBar(update, prompt) {
    const buttons = [];
    if (prompt) {
      for (const action of prompt.legal) {
        if (action.act === "discard") continue;
        buttons.push(this.actionButton(action, update.view));
      }
    }
    const blocked = update.win_blocked ? `<div class="banner blocked" data-role="win-blocked">${escapeHtml(update.win_blocked)}</div>` : "";
    const trusteeOn = update.table.trustee[update.view.seat];
    const tools = `<span class="tools">
      <label class="toggle"><input type="checkbox" data-role="hints" ${this.hints ? "checked" : ""}> ${t("table.hints")}</label>
      <button type="button" data-role="trustee">${t(trusteeOn ? "table.trusteeOff" : "table.trustee")}</button>
      <button type="button" data-role="dissolve">${t(this.room.seats.some((s) => s.wants_dissolve) ? "table.dissolveVote" : "table.dissolve")}</button>
      <button type="button" class="link" data-role="escape">${t("table.escape")}</button>
    </span>`;
    const asked = this.room.seats.some((s) => s.wants_dissolve) ? `<div class="banner">${t("table.dissolveAsked")}</div>` : "";
    return `${blocked}${asked}<div class="actions" data-role="actions">${buttons.join("")}</div>${tools}`;
  }

  actionButton(action, view) {
    const attributes = `class="act act-${action.act}" data-action="${action.act}" data-tile="${action.tile || ""}"`;
    if (action.act === "chow") {
      const run = meldTiles({ kind: "chow", tile: action.tile });
      return `<button type="button" ${attributes}>${t("act.chow")} ${tilesHtml(run, { extra: "small" })}</button>`;
    }
    if (action.act === "lay") {
      const label = t(action.tile === view.pizi ? "act.layPizi" : "act.layLaizi");
      return `<button type="button" ${attributes}>${label} ${tileSvg(action.tile, { extra: "small" })}</button>`;
    }
    const label = t(`act.${action.act}`) + (action.tile ? ` ${tileName(action.tile)}` : "");
    return `<button type="button" ${attributes}>${escapeHtml(label)}</button>`;
  }

  wire(page, prompt) {
    for (const button of page.querySelectorAll("[data-discard]:not([disabled])")) {
      const code = button.dataset.discard;
      const index = Number(button.dataset.index);
      button.addEventListener("click", () => {
        if (this.selected === index) this.act(prompt, { act: "discard", tile: code });
        else {
          this.selected = index;
          this.render();
        }
      });
      button.addEventListener("dblclick", () => this.act(prompt, { act: "discard", tile: code }));
    }
    for (const button of page.querySelectorAll("[data-action]")) {
      button.addEventListener("click", () => {
        const action = { act: button.dataset.action };
        if (button.dataset.tile) action.tile = button.dataset.tile;
        this.act(prompt, action);
      });
    }
    const hints = page.querySelector('[data-role="hints"]');
    if (hints) {
      hints.addEventListener("change", () => {
        this.hints = hints.checked;
        localStorage.setItem("hupai.hints", this.hints ? "1" : "0");
        this.send({ type: "hints", on: this.hints });
        this.render();
      });
    }
    const trustee = page.querySelector('[data-role="trustee"]');
    if (trustee) trustee.addEventListener("click", () => this.send({ type: "trustee", on: !this.update.table.trustee[this.update.view.seat] }));
    const dissolve = page.querySelector('[data-role="dissolve"]');
    if (dissolve) {
      dissolve.addEventListener("click", async () => {
        const agreeing = this.room.seats.some((place) => place.wants_dissolve);
        if (!(await confirmDialog(t(agreeing ? "table.dissolveAgreeConfirm" : "table.dissolveConfirm")))) return;
        try {
          this.room = await api.dissolve(this.number, true);
          this.render();
        } catch (error) {
          toast(error.message, "error");
        }
      });
    }
    const escape = page.querySelector('[data-role="escape"]');
    if (escape) {
      escape.addEventListener("click", async () => {
        if (!confirm(t("table.escapeConfirm"))) return;
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
    this.selected = null;
    this.send({ type: "act", seq: prompt.seq, action });
  }

  secondsToNext() {
    if (!this.handEnd) return 0;
    return Math.max(0, Math.ceil((this.handEnd.next_in_ms - (performance.now() - this.handEndAt)) / 1000));
  }

  // The countdowns: the decision clock and the next-hand timer.
  tick() {
    const clock = this.root.querySelector('[data-role="clock"]');
    const prompt = this.update && this.update.prompt;
    if (clock) {
      if (prompt && !prompt.automatic) {
        const left = Math.max(0, prompt.deadline_ms - (performance.now() - this.promptReceived));
        clock.textContent = `${Math.ceil(left / 1000)}″`;
        clock.classList.toggle("urgent", left < 5000);
      } else clock.textContent = "";
    }
    const next = this.root.querySelector('[data-role="next-in"]');
    if (next) next.textContent = t("end.next", { n: this.secondsToNext() });
  }
}
