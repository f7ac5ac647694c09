// 复盘 beside a replay (docs/review.md): a player of the match asks for the review of their own seat
// (POST /api/rooms/{number}/review), watches its progress (GET, polled) and then reads, for the hand
// shown, each of their decisions with its verdict (最佳 / 接近 / 失误), the best choice's figure and
// the hand's and the match's summary; a decision opens its frame of the replay.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { tileName } from "./tiles.js";
import { escapeHtml } from "./util.js";

const POLL_MS = 1000;

function word(key, values = {}) {
  return t(`review.${key}`, values);
}

function choiceText(action) {
  const tile = action.tile ? ` ${tileName(action.tile)}` : "";
  return `${t(`act.${action.act}`)}${tile}`;
}

function points(value) {
  return `${value > 0 ? "+" : ""}${value.toFixed(1)}`;
}

// The review of one hand's seat, kept across the replay's redraws: `html(at)` draws the panel for the
// frame shown, `bind(page, seek)` wires it after each draw; `changed` redraws when the review moves on.
export function reviewer(number, hand, changed) {
  const state = { seat: null, status: "none", done: 0, hands: 0, review: null, error: null };
  let timer = null;
  let gone = false;

  async function mySeat() {
    try {
      const [me, room] = await Promise.all([api.me(), api.room(number)]);
      const place = room.seats.find((seat) => seat.user_id === me.id);
      return place ? place.seat : null;
    } catch {
      return null;
    }
  }

  function take(answer) {
    state.status = answer.status;
    state.done = answer.hands_done;
    state.hands = answer.hands;
    state.review = answer.review || null;
    if (state.status === "running") timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    if (gone) return;
    try {
      take(await api.review(number));
    } catch (error) {
      state.error = error.message;
    }
    if (!gone) changed();
  }

  async function ask() {
    state.error = null;
    state.status = "running";
    changed();
    try {
      take(await api.askReview(number));
    } catch (error) {
      state.status = "none";
      state.error = error.message;
    }
    changed();
  }

  (async () => {
    state.seat = await mySeat();
    if (state.seat === null || gone) return;
    try {
      take(await api.review(number)); // "none" until asked for: the button
    } catch (error) {
      state.error = error.message;
    }
    if (!gone) changed();
  })();

  function summaryHtml(summary) {
    if (!summary.decisions) return `<p class="muted">${word("noDecisions")}</p>`;
    return `<p class="review-summary">${word("summary", {
      n: summary.decisions,
      agree: Math.round(summary.agreement * 100),
      close: summary.close,
      mistakes: summary.mistakes,
      cost: summary.cost.toFixed(1),
    })}</p>`;
  }

  function decisionHtml(decision, at) {
    const played = decision.choices[decision.played];
    const best = decision.choices[0];
    const better = decision.verdict === "best" ? "" :
      `<span class="review-best">${word("bestWas", { choice: escapeHtml(choiceText(best.action)), value: points(best.mean) })}</span>`;
    const current = decision.index === at ? " current" : "";
    return `<li class="review-decision ${decision.verdict}${current}" data-role="review-decision" data-verdict="${decision.verdict}">
      <button type="button" data-frame="${decision.index}">
        <span class="review-step">${word("step", { n: decision.index })}</span>
        <span class="review-played">${escapeHtml(choiceText(played.action))} ${points(played.mean)}</span>
        <span class="review-verdict">${word(decision.verdict)}${decision.verdict === "mistake" ? ` −${decision.cost.toFixed(1)}` : ""}</span>
        ${better}
      </button></li>`;
  }

  function html(at) {
    if (state.seat === null) return "";
    let body;
    if (state.status === "done" && state.review) {
      const mine = state.review.hands.find((item) => item.hand === hand);
      const turning = state.review.summary.turning_point;
      body = `<h2>${word("title")}</h2>
        <p class="muted">${word("about", { worlds: state.review.worlds })}</p>
        <h3>${word("thisHand")}</h3>${mine ? summaryHtml(mine.summary) : ""}
        <ol class="review-decisions">${mine ? mine.decisions.map((decision) => decisionHtml(decision, at)).join("") : ""}</ol>
        <h3>${word("match")}</h3>${summaryHtml(state.review.summary)}
        ${turning ? `<p class="muted">${word("turning", { hand: turning.hand + 1, n: turning.index })}</p>` : ""}`;
    } else if (state.status === "running") {
      body = `<p data-role="review-progress">${word("running", { n: state.done, total: state.hands || "…" })}</p>`;
    } else {
      const failed = state.status === "failed" ? `<p class="error">${word("failed")}</p>` : "";
      body = `${failed}<button type="button" class="primary" data-role="review">${word("ask")}</button>
        <span class="muted">${word("askAbout")}</span>`;
    }
    const error = state.error ? `<p class="error">${escapeHtml(state.error)}</p>` : "";
    return `<section class="sheet review" data-role="review-panel">${body}${error}</section>`;
  }

  function bind(page, seek) {
    const button = page.querySelector('[data-role="review"]');
    if (button) button.addEventListener("click", ask);
    for (const item of page.querySelectorAll("[data-frame]")) {
      item.addEventListener("click", () => seek(Number(item.dataset.frame), state.seat));
    }
  }

  return {
    html,
    bind,
    // A review made: on a wide screen it stands beside the table rather than below it.
    beside: () => state.status === "done" && state.review !== null,
    stop() {
      gone = true;
      clearTimeout(timer);
    },
  };
}
