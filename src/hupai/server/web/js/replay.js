// Replays of finished hands: step, play, seek, and choose whose seat is at the bottom; every hand is
// open. The frames come from the server (GET /api/rooms/{number}/hands/{index}/replay), with the
// hand's record, whose fair deal the page verifies (fairness.js) as `hupai verify` does.

import { api, recordLink } from "./api.js";
import { avatarHtml } from "./avatar.js";
import { boardHtml, fitTable, SHORT_LANDSCAPE, wildHtml, windOf } from "./board.js";
import { checkRecord, fairBadge, rememberedContribution, showFairDetails, verdictHtml } from "./fairness.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { seatNames } from "./names.js";
import { scoresHtml, transfersHtml } from "./settlement.js";
import { reviewer } from "./review.js";
import { parseTiles, tileName } from "./tiles.js";
import { escapeHtml, html } from "./util.js";

const STEP_MS = 700; // a step at 1×
const SPEEDS = [0.5, 1, 2, 4];

function word(key, values = {}) {
  return t(`replay.${key}`, values);
}

function describe(frame, names) {
  if (frame.escape !== undefined) return `${names[frame.escape]} ${t("table.escape")}`;
  if (frame.dissolve) return word("dissolved");
  const action = frame.action;
  if (!action) return frame.events.some((event) => event.event === "hand_started") ? word("deal") : "";
  const who = names[action.seat];
  const tile = action.tile ? ` ${tileName(action.tile)}` : "";
  return `${who}: ${t(`act.${action.act}`)}${tile}`;
}

export async function show(root, [number, index]) {
  const replay = await api.replay(number, Number(index));
  // Bots named in the reader's language (the record keeps the names the table showed).
  let names = seatNames(replay.seats, replay.bot_levels);
  const frames = replay.frames;
  let at = 0;
  let bottom = 0;
  let timer = null;
  let delay = STEP_MS;
  let verdict = null; // the wall's verdict, once computed
  const hand = Number(index);
  const record = replay.record || { hands: [] };
  const fair = record.hands.length ? record.hands[0].fair || null : null;
  let gone = false;
  const review = reviewer(number, hand, () => {
    if (!gone) draw();
  });
  const checking = checkRecord(record, replay.family, number).then((found) => {
    verdict = found;
    if (!gone) draw();
    return found;
  });

  function showDetails() {
    showFairDetails({
      title: t("fair.handTitle", { n: hand + 1 }),
      hand: { ...fair, mine: rememberedContribution(number, hand, fair.commitment) },
      names,
      reveal: fair,
      verdict: checking,
      recordLink: recordLink(number, hand),
    });
  }

  function draw() {
    names = seatNames(replay.seats, replay.bot_levels);
    const frame = frames[at];
    const view = frame.view;
    const seats = [0, 1, 2, 3].map((seat) => ({
      plate: {
        wind: t(windOf(seat, view.dealer, { short: true })),
        windName: t(windOf(seat, view.dealer)),
        name: names[seat],
        avatar: avatarHtml({ name: replay.seats[seat], avatar: (replay.avatars || [])[seat], bot: Boolean((replay.bot_levels || [])[seat]) }),
        total: view.deltas[seat],
        marks: [
          seat === view.dealer ? `<span class="tag dealer">${t("table.dealer")}</span>` : "",
          view.seats[seat].ready ? `<span class="tag ready">${t("act.ready")}</span>` : "",
        ].join(""),
        active: view.turn === seat && view.phase !== "ended",
        dealer: seat === view.dealer,
      },
      shown: parseTiles(view.hands[seat]),
      open: view.open_from === seat,
      fresh: false,
    }));
    const wild = wildHtml(view);
    const middle = `<div class="wall">${t("table.wall", { n: view.live_tiles })}</div>${fairBadge(fair)}${wild}` +
      (view.multiplier > 1 ? `<div class="banner bixiahu">${t("table.bixiahu", { n: view.multiplier })}</div>` : "");
    const board = boardHtml({ view, bottom, seats, middle });
    const last = at === frames.length - 1;
    const settlement = last
      ? `<div class="sheet replay-result" data-role="replay-result">${scoresHtml(replay.result, names)}<ul class="transfers">${transfersHtml(replay.result.transfers, names)}</ul></div>`
      : "";
    root.innerHTML = "";
    const page = html(`<section class="replay" data-role="replay">
      <h1>${t("summary.replay")} · ${t("room.title")} ${escapeHtml(number)} · ${t("summary.hand", { n: Number(index) + 1 })}</h1>
      <div class="controls">
        <button type="button" data-go="first" aria-label="${word("first")}" title="${word("first")}">${icon("first")}</button>
        <button type="button" data-go="back" aria-label="${word("back")}" title="${word("back")}">${icon("back")}</button>
        <button type="button" data-go="play" data-role="play">${icon(timer ? "pause" : "play")} ${timer ? word("pause") : word("play")}</button>
        <button type="button" data-go="next" aria-label="${word("next")}" title="${word("next")}">${icon("next")}</button>
        <button type="button" data-go="last" aria-label="${word("last")}" title="${word("last")}">${icon("last")}</button>
        <input type="range" min="0" max="${frames.length - 1}" value="${at}" data-role="seek" aria-label="seek">
        <span data-role="step">${word("step", { n: at, total: frames.length - 1 })}</span>
        <label>${word("view")} <select data-role="viewpoint">${names.map((name, seat) => `<option value="${seat}" ${seat === bottom ? "selected" : ""}>${escapeHtml(name)}</option>`).join("")}</select></label>
        <label>${word("speed")} <select data-role="speed">${SPEEDS.map((times) => `<option value="${STEP_MS / times}" ${STEP_MS / times === delay ? "selected" : ""}>${times}×</option>`).join("")}</select></label>
      </div>
      <p class="fair-line" data-role="fair-line">${verdictHtml(verdict, { details: Boolean(fair) })}</p>
      <p class="frame-action" data-role="frame-action">${escapeHtml(describe(frame, names))}</p>
      <div class="replay-stage ${review.beside() ? "with-review" : ""}">
        <div class="table replay-table" data-role="table">${board}</div>
        ${review.html(at)}
      </div>
      ${settlement}
    </section>`);
    root.append(page);
    fitTable(page.querySelector('[data-role="table"]'), { tools: false });
    const bar = document.querySelector("header.top");
    if (bar && SHORT_LANDSCAPE.matches && window.scrollY < bar.offsetHeight) {
      window.scrollTo(0, bar.offsetHeight); // the board was fitted to the whole screen: show it whole
    }
    for (const button of page.querySelectorAll("[data-go]")) button.addEventListener("click", () => go(button.dataset.go));
    review.bind(page, (frame, seat) => {
      stop();
      at = Math.min(frame, frames.length - 1);
      bottom = seat;
      draw();
    });
    for (const opener of page.querySelectorAll('[data-role="fair-details"], [data-role="fair-badge"]')) {
      opener.addEventListener("click", showDetails);
    }
    page.querySelector('[data-role="seek"]').addEventListener("input", (event) => {
      stop();
      at = Number(event.target.value);
      draw();
    });
    page.querySelector('[data-role="viewpoint"]').addEventListener("change", (event) => {
      bottom = Number(event.target.value);
      draw();
    });
    page.querySelector('[data-role="speed"]').addEventListener("change", (event) => {
      delay = Number(event.target.value);
      if (timer) {
        stop();
        go("play");
      }
    });
  }

  function stop() {
    clearInterval(timer);
    timer = null;
  }

  function go(where) {
    if (where === "play") {
      if (timer) stop();
      else {
        if (at === frames.length - 1) at = 0;
        timer = setInterval(() => {
          if (at >= frames.length - 1) stop();
          else at += 1;
          draw();
        }, delay);
      }
    } else {
      stop();
      if (where === "first") at = 0;
      if (where === "back") at = Math.max(0, at - 1);
      if (where === "next") at = Math.min(frames.length - 1, at + 1);
      if (where === "last") at = frames.length - 1;
    }
    draw();
  }

  const keys = (event) => {
    if (event.key === "ArrowRight") go("next");
    if (event.key === "ArrowLeft") go("back");
    if (event.key === " ") {
      event.preventDefault();
      go("play");
    }
  };
  window.addEventListener("keydown", keys);
  const relabel = () => draw();
  window.addEventListener("languagechange-hupai", relabel);
  window.addEventListener("resize", relabel);
  draw();
  return () => {
    gone = true;
    review.stop();
    stop();
    window.removeEventListener("keydown", keys);
    window.removeEventListener("languagechange-hupai", relabel);
    window.removeEventListener("resize", relabel);
  };
}
