// The table in play, as the player at the bottom sees it: the board (board.js), the player's own hand
// with its melds below it, the calls it may make, the tools, hints and the tile counter. `TableView`
// draws from the client's last update and keeps what belongs to the screen (the picked tile, the
// counted tile); the room (room.js) owns the connection and the messages.

import { avatarHtml } from "./avatar.js";
import { boardHtml, fitTable, meldFacesHtml, meldTiles, placeOf, wildHtml, windOf } from "./board.js";
import { fairBadge } from "./fairness.js";
import { knows, language, t } from "./i18n.js";
import { hintsHtml } from "./hints.js";
import { notificationsOn } from "./attention.js";
import { icon } from "./icons.js";
import { orientationHintHtml, untilLeaving, wireOrientationHint } from "./orientation.js";
import { tingHtml, wireTing } from "./ting.js";
import { playSound, setSound, soundOn, speak, unlockSound } from "./sound.js";
import { parseTiles, tileName, tileOrder, tileSvg, tilesHtml } from "./tiles.js";
import { escapeHtml, html } from "./util.js";

const CALL_MS = 900; // how long a call's word stays on the board
const LAND_MS = 220; // how long a discard takes to land in its river

// Keys for the calls, shown on their buttons.
const KEYS = { hu: "H", pong: "P", kong: "K", chow: "C", pass: "Esc", ready: "R", lay: "L" };
const CALLS = {
  ponged: ["碰", "Pong"],
  chowed: ["吃", "Chow"],
  kong_claimed: ["杠", "Kong"],
  kong_added: ["杠", "Kong"],
  concealed_kong_declared: ["暗杠", "Kong"],
  ready_declared: ["报听", "Ready"],
};

export class TableView {
  constructor(client) {
    this.client = client;
    this.selected = null; // the position in the hand of the tile picked for a discard
    this.counted = null; // the tile whose copies the counter shows
    this.fresh = new Map(); // seat → when its newest discard was made (it lands with a motion)
    this.calls = []; // calls shown on the board, each with when it was made
    this.onKey = (event) => this.key(event);
    this.onResize = () => this.client.render(); // a turned phone may change the rivers' rows
    window.addEventListener("keydown", this.onKey);
    window.addEventListener("resize", this.onResize);
  }

  close() {
    window.removeEventListener("keydown", this.onKey);
    window.removeEventListener("resize", this.onResize);
    untilLeaving();
  }

  // --- what happened: motion and sound for the events of one update -------------------------------

  heard(update, previous) {
    const events = update.events || [];
    // A reconnect replays a whole hand's events: show and sound only what is new and few.
    if (events.length > 6) return;
    const me = update.view.seat;
    for (const event of events) {
      if (event.event === "tile_discarded") {
        this.fresh.set(event.seat, performance.now());
        playSound("discard");
      } else if (event.event === "won") {
        const word = event.how === "self_drawn" ? ["自摸", "Self-drawn"] : event.how === "robbed_kong" ? ["抢杠胡", "Robbed"] : ["胡", "Win"];
        this.call(event.seat, word, "win");
        playSound("win");
      } else if (event.event === "tile_laid") {
        this.call(event.seat, event.kind === "pizi" ? ["下痞子", "Pizi"] : ["下赖子", "Laizi"]);
        playSound("claim");
      } else if (CALLS[event.event] && !(event.event === "kong_added" && !event.completed)) {
        this.call(event.seat, CALLS[event.event]);
        playSound("claim");
      } else if (event.event === "tile_drawn" && event.seat === me) {
        playSound("draw");
      }
    }
    const prompt = update.prompt && !update.prompt.automatic ? update.prompt : null;
    const before = previous && previous.prompt && !previous.prompt.automatic ? previous.prompt.seq : null;
    if (prompt && prompt.seq !== before && prompt.legal.some((action) => action.act !== "discard" && action.act !== "pass")) {
      playSound("turn");
    }
  }

  call(seat, [zh, en], kind = "") {
    this.calls.push({ seat, zh, en, kind, at: performance.now() });
    speak(zh, en);
  }

  // --- drawing --------------------------------------------------------------------------------------

  // `update` is the client's last one, or the same with every hand open once the hand is over.
  render(root, update = this.client.update) {
    const client = this.client;
    const view = update.view;
    const facts = update.table;
    const me = view.seat;
    const bottom = me === null ? 0 : me;
    const prompt = update.prompt && !update.prompt.automatic ? update.prompt : null;
    if (prompt && prompt.seq !== this.promptSeq) {
      this.promptSeq = prompt.seq;
      this.selected = null;
    }
    const seats = [0, 1, 2, 3].map((seat) => ({
      plate: {
        wind: t(windOf(seat, view.dealer, { short: true })),
        windName: t(windOf(seat, view.dealer)),
        name: client.seatName(seat),
        avatar: avatarHtml({ name: (facts.names || [])[seat], avatar: (facts.avatars || [])[seat], bot: Boolean((facts.bot_levels || [])[seat]) }),
        total: facts.totals[seat],
        marks: this.marks(seat, view, facts),
        active: view.turn === seat && view.phase !== "ended",
        dealer: seat === view.dealer,
      },
      shown: view.hands ? parseTiles(view.hands[seat]) : null,
      open: view.open_from === seat,
      fresh: performance.now() - (this.fresh.get(seat) ?? -1e9) < LAND_MS,
    }));
    const below = me !== null && !view.hands; // at the end every hand, the player's too, lies open on the board
    const board = boardHtml({ view, bottom, seats, middle: this.middle(update), ownBelow: below });
    const hints = client.hints && update.hints ? hintsHtml(update.hints) : "";
    const page = html(`<section class="table phase-${view.phase}" data-phase="${view.phase}" data-role="table">
      ${this.tools(update)}
      ${orientationHintHtml()}
      ${board}
      ${below ? this.mine(update, prompt) : ""}
      <div class="table-info" data-role="table-info">${this.counter(view)}${hints}</div>
    </section>`);
    root.innerHTML = "";
    root.append(page);
    this.showCalls(page, bottom);
    this.wire(page, prompt);
    this.fit();
    this.tick();
  }

  fit() {
    const page = this.client.root.querySelector('[data-role="table"]');
    if (!page) return;
    const view = this.client.update.view;
    const mine = view.seat === null ? null : view.seats[view.seat];
    fitTable(page, {
      handTiles: mine ? parseTiles(view.hand).length : 0,
      meldTiles: mine ? mine.melds.reduce((sum, meld) => sum + meldTiles(meld).length, 0) : 0,
    });
  }

  marks(seat, view, facts) {
    const marks = [];
    if (seat === view.dealer) marks.push(`<span class="tag dealer">${t("table.dealer")}</span>`);
    if (facts.bots[seat]) marks.push(`<span class="tag">${t("room.bot")}</span>`);
    if (facts.trustee[seat]) marks.push(`<span class="tag">${t("table.trustee")}</span>`);
    if (!facts.bots[seat] && !facts.connected[seat]) marks.push(`<span class="tag warn">${t("table.offline")}</span>`);
    if (view.seats[seat].ready) marks.push(`<span class="tag ready" data-role="declared-ready">${t("act.ready")}</span>`);
    marks.push(this.client.voice.markHtml(seat));
    return marks.join("");
  }

  middle(update) {
    const view = update.view;
    const facts = update.table;
    const client = this.client;
    const doubled = view.multiplier > 1
      ? `<div class="banner bixiahu" data-role="bixiahu">${t("table.bixiahu", { n: view.multiplier })}${client.lastCauses.length ? ` · ${escapeHtml(client.lastCauses.map((cause) => client.causeName(cause)).join("、"))}` : ""}</div>`
      : "";
    const wild = wildHtml(view);
    const fair = client.fair && client.fair.hand === update.hand ? client.fair : null;
    return `<div class="hand-no" data-role="hand-no">${t("table.hand", { n: update.hand + 1, total: facts.hands_total })}</div>
      <div class="wall" data-role="wall">${t("table.wall", { n: view.live_tiles })}</div>
      ${fairBadge(fair)}
      ${wild}${doubled}
      <div class="clock" data-role="clock" aria-live="off"></div>
      ${client.connected ? "" : `<div class="banner offline" data-role="reconnecting">${t(client.relayAway ? "table.relayAway" : "table.reconnecting")}</div>`}
      ${client.connected && client.storageAway ? `<div class="banner offline" data-role="storage-away">${t("table.storageAway")}</div>` : ""}`;
  }

  tools(update) {
    const client = this.client;
    const trusteeOn = update.view.seat !== null && update.table.trustee[update.view.seat];
    const seated = update.view.seat !== null;
    return `<div class="table-tools" data-role="tools">
      <button type="button" data-role="sound" aria-pressed="${soundOn()}">${icon(soundOn() ? "soundOn" : "soundOff")} ${t("table.sound")}</button>
      ${seated ? `<label class="toggle"><input type="checkbox" data-role="hints" ${client.hints ? "checked" : ""}> ${t("table.hints")}</label>
      ${"Notification" in window ? `<label class="toggle" title="${t("attention.notifyHelp")}"><input type="checkbox" data-role="notify" ${notificationsOn() ? "checked" : ""}> ${t("attention.notify")}</label>` : ""}
      <button type="button" data-role="trustee" aria-pressed="${trusteeOn}">${t(trusteeOn ? "table.trusteeOff" : "table.trustee")}</button>
      ${client.social.buttonHtml()}
      ${client.voice.buttonHtml()}
      ${client.vote.buttonHtml(client.room, update.view.seat)}
      <button type="button" data-role="escape">${t("table.escape")}</button>` : `<span class="tag">${t("table.watching")}</span>`}
    </div>`;
  }

  mine(update, prompt) {
    const view = update.view;
    const info = view.seats[view.seat];
    const codes = parseTiles(view.hand).sort((a, b) => tileOrder(a) - tileOrder(b));
    let drawn = null;
    if (view.drawn && codes.includes(view.drawn)) {
      codes.splice(codes.lastIndexOf(view.drawn), 1);
      drawn = view.drawn;
    }
    const playable = new Set((prompt ? prompt.legal : []).filter((action) => action.act === "discard").map((action) => action.tile));
    const shown = drawn ? [...codes, drawn] : codes;
    if (this.selected !== null && !playable.has(shown[this.selected])) this.selected = null;
    const tiles = shown.map((code, index) => {
      const classes = ["hand-tile"];
      if (drawn && index === codes.length) classes.push("drawn");
      if (code === view.laizi) classes.push("wildcard");
      if (playable.has(code)) classes.push("playable");
      if (index === this.selected) classes.push("selected");
      const label = `${tileName(code)}${playable.has(code) ? ` · ${t("act.discard")}` : ""}`;
      return `<button type="button" class="${classes.join(" ")}" data-discard="${code}" data-index="${index}" ${playable.has(code) ? "" : "aria-disabled=\"true\""} aria-label="${escapeHtml(label)}">${tileSvg(code)}</button>`;
    });
    const melds = info.melds
      .map((meld) => meld.kind === "concealed_kong"
        ? `<span class="meld">${tileSvg(null, { back: true })}${tileSvg(meld.tile)}${tileSvg(meld.tile)}${tileSvg(null, { back: true })}</span>`
        : `<span class="meld">${meldFacesHtml(meld)}</span>`)
      .join("");
    const trays = [
      info.flowers ? `<span class="tray flowers" data-role="my-flowers"><i>${t("table.flowers")}</i>${tilesHtml(parseTiles(info.flowers))}</span>` : "",
      info.laid ? `<span class="tray laid" data-role="laid"><i>${t("table.laid")}</i>${tilesHtml(parseTiles(info.laid))}</span>` : "",
      info.multiplier > 1 ? `<span class="tag multiplier" data-role="multiplier">×${info.multiplier}</span>` : "",
    ].join("");
    return `<div class="mine" data-role="mine">
      ${this.actions(update, prompt)}
      <div class="status" data-role="status">${tingHtml(update)}${this.status(update, prompt)}</div>
      <div class="mine-row"><div class="hand" data-role="hand" role="group" aria-label="${t("table.myHand")}">${tiles.join("")}</div>
        ${melds || trays ? `<div class="melds" data-role="my-melds">${melds}${trays}</div>` : ""}</div>
    </div>`;
  }

  status(update, prompt) {
    if (update.win_blocked) return `<span class="banner blocked" data-role="win-blocked">${escapeHtml(this.winBlocked(update))}</span>`;
    if (this.selected !== null) return `<span class="tip">${t("table.tapAgain")}</span>`;
    if (prompt && prompt.legal.some((action) => action.act === "discard")) return t("table.yourTurn");
    return "";
  }

  // Why a complete hand may not win, in the reader's language where its code has words (the
  // engine's English sentence otherwise).
  winBlocked(update) {
    return this.refusalWords(update.win_blocked_why) || update.win_blocked;
  }

  // A refusal's `{code, params}` in the reader's words (a seat by its name, a tile by its name); null
  // where the code has none.
  refusalWords(why) {
    if (!why || !knows(`refusal.${why.code}`)) return null;
    const params = { ...why.params };
    if (params.seat !== undefined) params.name = this.client.seatName(params.seat);
    if (params.tile) params.tile = tileName(params.tile);
    return t(`refusal.${why.code}`, params);
  }

  actions(update, prompt) {
    const buttons = (prompt ? prompt.legal : []).filter((action) => action.act !== "discard").map((action) => this.actionButton(action, update.view));
    return `<div class="actions" data-role="actions">${buttons.join("")}</div>`;
  }

  actionButton(action, view) {
    const attributes = `class="act act-${action.act}" data-action="${action.act}" data-tile="${action.tile || ""}"`;
    const key = KEYS[action.act] ? `<kbd>${KEYS[action.act]}</kbd>` : "";
    if (action.act === "chow") {
      const meld = { kind: "chow", tile: action.tile, ...chowStandIn(action.tile, view) };
      const run = meldTiles(meld);
      return `<button type="button" ${attributes} aria-label="${t("act.chow")} ${run.map(tileName).join(" ")}">${t("act.chow")} ${meldFacesHtml(meld)}${key}</button>`;
    }
    if (action.act === "lay") {
      const label = t(action.tile === view.pizi ? "act.layPizi" : "act.layLaizi");
      return `<button type="button" ${attributes}>${label} ${tileSvg(action.tile)}${key}</button>`;
    }
    const label = t(`act.${action.act}`) + (action.tile ? ` ${tileName(action.tile)}` : "");
    return `<button type="button" ${attributes}>${escapeHtml(label)}${key}</button>`;
  }

  // The tile counter: how many copies of a tile this player can see on the table (its own hand, every
  // river, every face-up meld, flowers and laid tiles, the turned-up 痞子).
  counter(view) {
    const code = this.counted;
    if (!code) return `<div class="counter muted" data-role="counter">${t("table.counterHelp")}</div>`;
    return `<div class="counter" data-role="counter">${tileSvg(code, { extra: "small" })} ${escapeHtml(tileName(code))} · ${t("table.seen", { n: seenCopies(view, code), total: 4 })}</div>`;
  }

  // The table is redrawn on every update: a call still on screen is drawn again where its motion
  // has got to, so that the next update does not cut it short.
  showCalls(page, bottom) {
    const layer = page.querySelector('[data-role="callouts"]');
    const now = performance.now();
    this.calls = this.calls.filter((call) => now - call.at < CALL_MS);
    if (!layer) return;
    for (const call of this.calls) {
      const word = document.createElement("div");
      word.className = `callout at-${placeOf(call.seat, bottom)} ${call.kind}`;
      word.dataset.role = "callout";
      word.textContent = language() === "en" ? call.en : call.zh;
      word.style.animationDelay = `${-(now - call.at)}ms`;
      layer.append(word);
    }
    for (const [seat, at] of this.fresh) {
      const cell = page.querySelector(`.river-${placeOf(seat, bottom)} .cell.fresh`);
      if (cell) cell.style.animationDelay = `${-(now - at)}ms`;
    }
  }

  // --- input ---------------------------------------------------------------------------------------

  wire(page, prompt) {
    const client = this.client;
    page.addEventListener("pointerdown", unlockSound, { once: true });
    for (const button of page.querySelectorAll("[data-discard]")) {
      const code = button.dataset.discard;
      const index = Number(button.dataset.index);
      const playable = button.classList.contains("playable");
      button.addEventListener("click", () => {
        this.counted = code;
        if (!playable) return client.render();
        if (this.selected === index) return this.discard(prompt, code);
        this.selected = index;
        client.render();
      });
      if (playable) button.addEventListener("dblclick", () => this.discard(prompt, code));
      button.addEventListener("mouseenter", () => this.count(page, code));
    }
    for (const tile of page.querySelectorAll('[data-role="board"] svg.tile[data-tile]')) {
      tile.addEventListener("mouseenter", () => this.count(page, tile.dataset.tile));
      tile.addEventListener("click", () => this.count(page, tile.dataset.tile));
    }
    for (const button of page.querySelectorAll("[data-action]")) {
      button.addEventListener("click", () => {
        const action = { act: button.dataset.action };
        if (button.dataset.tile) action.tile = button.dataset.tile;
        client.act(prompt, action);
      });
    }
    const sound = page.querySelector('[data-role="sound"]');
    sound.addEventListener("click", () => {
      setSound(!soundOn());
      unlockSound();
      client.render();
    });
    const badge = page.querySelector('[data-role="fair-badge"]');
    if (badge) badge.addEventListener("click", () => client.showFair(client.update.hand));
    wireTing(page, client.update, (message) => client.send(message));
    client.wireTools(page);
    wireOrientationHint(page);
    markCounted(page, this.counted);
  }

  // Point at a tile: the counter shows its copies and those copies are lit, in the hand and on the
  // board alike, without redrawing the table (the counter and the light always name the same tile).
  count(page, code) {
    this.counted = code;
    const box = page.querySelector('[data-role="counter"]');
    if (box) box.outerHTML = this.counter(this.client.update.view);
    markCounted(page, code);
  }

  discard(prompt, code) {
    this.selected = null;
    this.client.act(prompt, { act: "discard", tile: code });
  }

  // Keyboard play: ← → pick a tile, Enter or Space discards it; H 胡, P 碰, K 杠, C 吃, R 报听,
  // L 下, Esc 过.
  key(event) {
    const client = this.client;
    if (!client.update || event.target.closest("input, select, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    const prompt = client.update.prompt && !client.update.prompt.automatic ? client.update.prompt : null;
    if (!prompt) return;
    const page = client.root.querySelector('[data-role="table"]');
    if (!page) return;
    const playable = [...page.querySelectorAll(".hand-tile.playable")];
    const wanted = Object.entries(KEYS).find(([, key]) => key.toLowerCase() === event.key.toLowerCase() || (key === "Esc" && event.key === "Escape"));
    if (wanted) {
      const button = page.querySelector(`[data-action="${wanted[0]}"]`);
      if (button) {
        event.preventDefault();
        button.click();
      }
      return;
    }
    if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && playable.length) {
      event.preventDefault();
      const indexes = playable.map((button) => Number(button.dataset.index));
      const at = indexes.indexOf(this.selected);
      const next = at < 0 ? (event.key === "ArrowLeft" ? indexes.length - 1 : 0) : (at + (event.key === "ArrowLeft" ? -1 : 1) + indexes.length) % indexes.length;
      this.selected = indexes[next];
      this.counted = playable[next].dataset.discard;
      client.render();
      const chosen = client.root.querySelector(".hand-tile.selected");
      if (chosen) chosen.focus();
      return;
    }
    if ((event.key === "Enter" || event.key === " ") && this.selected !== null && !event.target.closest("button:not(.hand-tile)")) {
      const chosen = page.querySelector(`.hand-tile.playable[data-index="${this.selected}"]`);
      if (chosen) {
        event.preventDefault();
        this.discard(prompt, chosen.dataset.discard);
      }
    }
  }

  // The decision clock: the seconds of this decision, and the time bank (备用时间) once it is used.
  tick() {
    const client = this.client;
    const clock = client.root.querySelector('[data-role="clock"]');
    if (!clock) return;
    const update = client.update;
    const prompt = update && update.prompt;
    if (!prompt || prompt.automatic) {
      clock.textContent = "";
      return;
    }
    const left = Math.max(0, prompt.deadline_ms - (performance.now() - client.promptReceived));
    const bank = Math.min(update.table.bank_ms[update.view.seat] || 0, left);
    const decision = Math.max(0, left - bank);
    const seconds = Math.ceil((decision > 0 ? decision : left) / 1000);
    clock.innerHTML = decision > 0
      ? `${Math.ceil(decision / 1000)}″${bank > 0 ? `<span class="bank" title="${t("table.bank")}">+${Math.ceil(bank / 1000)}″</span>` : ""}`
      : `<span class="bank-only">${t("table.bank")} ${seconds}″</span>`;
    clock.classList.toggle("urgent", left < 5000);
    clock.setAttribute("aria-label", `${seconds}`);
  }
}

// Light every copy of `code` the reader can see (the tiles the counter counts): the hand's buttons and
// the board's face-up tiles.
function markCounted(page, code) {
  for (const lit of page.querySelectorAll(".counted")) lit.classList.remove("counted");
  if (!code) return;
  for (const button of page.querySelectorAll(`.hand-tile[data-discard="${code}"]`)) button.classList.add("counted");
  for (const tile of page.querySelectorAll(`[data-role="board"] svg.tile[data-tile="${code}"]`)) tile.classList.add("counted");
}

// Where a 赖子 would stand in the chow from `low` of the open discard, as the engine fills it
// (Enshi's laizi_in_melds): the run's kind the hand lacks, or holds only as its 痞子 or 赖子 —
// `{laizi_for, laizi}` for the meld drawn on the button, or nothing.
export function chowStandIn(low, view) {
  if (!view.laizi || !view.open_tile) return {};
  const hand = parseTiles(view.hand || "");
  const lacking = meldTiles({ kind: "chow", tile: low }).find(
    (code) => code !== view.open_tile && (code === view.pizi || code === view.laizi || !hand.includes(code)),
  );
  return lacking ? { laizi_for: lacking, laizi: view.laizi } : {};
}

// The copies of `code` a seat can see: its hand, every river tile not claimed (a claimed one is in a
// meld), every face-up meld tile, flowers and laid tiles, and the 痞子 turned up in the middle.
export function seenCopies(view, code) {
  let seen = parseTiles(view.hand).filter((tile) => tile === code).length;
  for (const info of view.seats) {
    parseTiles(info.discards).forEach((tile, index) => {
      if (tile === code && !info.claimed[index]) seen += 1;
    });
    for (const meld of info.melds) {
      if (meld.tile === null) continue;
      const faces = meld.kind === "concealed_kong" ? [meld.tile, meld.tile, meld.tile, meld.tile] : meldTiles(meld);
      seen += faces.filter((tile) => tile === code).length;
    }
    seen += parseTiles(info.flowers).filter((tile) => tile === code).length;
    seen += parseTiles(info.laid).filter((tile) => tile === code).length;
  }
  if (view.pizi === code) seen += 1;
  return Math.min(seen, 4);
}
