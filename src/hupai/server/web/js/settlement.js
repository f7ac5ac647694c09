// Score sheets: the end of a hand (all hands open, itemised scores, payments with reasons) and the
// session summary (大结算). Also used by replays and the score calculator.

import { pick, t } from "./i18n.js";
import { meldTiles } from "./board.js";
import { parseTiles, tileSvg, tilesHtml } from "./tiles.js";
import { escapeHtml, html, signed } from "./util.js";

export function itemsHtml(items) {
  return items
    .map((item) => {
      let value = item.multiply ? `×${item.value}${item.divisor ? `/${item.divisor}` : ""}` : `+${item.value}`;
      if (!item.multiply && item.count > 1) value = `${item.count} → +${item.value}`;
      return `<tr class="item" data-item="${escapeHtml(item.key)}" title="${escapeHtml(item.source || "")}">` +
        `<th>${escapeHtml(pick(item.zh, item.en))}</th><td>${escapeHtml(value)}</td></tr>`;
    })
    .join("");
}

export function transfersHtml(transfers, names) {
  return transfers
    .map((transfer) => `<li class="transfer" data-reason="${escapeHtml(transfer.reason)}">` +
      `${escapeHtml(names[transfer.from])} → ${escapeHtml(names[transfer.to])} <b>${transfer.amount}</b> ` +
      `<span class="muted">${escapeHtml(pick(transfer.zh, transfer.en))}</span></li>`)
    .join("");
}

function howText(score, names) {
  if (score.how === "discard") return t("end.fromDiscard", { name: names[score.from] });
  if (score.how === "robbed_kong") return t("end.robbed", { name: names[score.from] });
  return t("end.selfDrawn");
}

// Where each loser pays a different amount (Enshi): their own factors, the raw amount and the cap.
export function payersHtml(payers, names) {
  if (!payers || !payers.length) return "";
  const caps = { cap: t("end.cap"), gold_cap: t("end.goldCap"), diamond_cap: t("end.diamondCap") };
  return `<table class="payers" data-role="payers"><tbody>${payers
    .map((line) => `<tr><th>${escapeHtml(names[line.seat])}</th>` +
      `<td>${line.items.map((item) => escapeHtml(`${pick(item.zh, item.en)} ${item.multiply ? "×" : "+"}${item.value}`)).join(" · ")}</td>` +
      `<td>${line.raw !== line.paid ? `${line.raw} → ` : ""}<b>${line.paid}</b> ${line.cap ? escapeHtml(caps[line.cap] || line.cap) : ""}</td></tr>`)
    .join("")}</tbody></table>`;
}

export function scoresHtml(result, names) {
  if (!result.scores.length) return `<p class="draw">${t("end.draw")}</p>`;
  return result.scores
    .map((score) => `<div class="score-sheet" data-role="score-sheet">
      <h3>${t("end.winner")}: ${escapeHtml(names[score.seat])} · ${tileSvg(score.tile.replace(/^(\d)(\w)$/, "$1$2"), { extra: "small" })} · ${escapeHtml(howText(score, names))}</h3>
      <p class="reading">${escapeHtml(score.reading)}</p>
      <table class="items"><tbody>${itemsHtml(score.items)}</tbody>
        <tfoot><tr><th>${t("end.share")}</th><td><b data-role="share">${score.share}</b></td></tr></tfoot></table>
      ${payersHtml(score.payers, names)}
    </div>`)
    .join("");
}

function openHands(view, names) {
  if (!view || !view.hands) return "";
  return `<div class="open-hands">${view.hands
    .map((hand, seat) => {
      const melds = view.seats[seat].melds
        .map((meld) => `<span class="meld">${tilesHtml(meldTiles(meld), { extra: "small" })}</span>`)
        .join("");
      const flowers = view.seats[seat].flowers ? `<span class="flowers">${tilesHtml(parseTiles(view.seats[seat].flowers), { extra: "small" })}</span>` : "";
      const tiles = parseTiles(hand).map((code) => tileSvg(code, { extra: code === view.laizi ? "small wildcard" : "small" })).join("");
      const laid = view.seats[seat].laid ? `<span class="laid">${tilesHtml(parseTiles(view.seats[seat].laid), { extra: "small" })}</span>` : "";
      return `<div class="open-hand" data-seat="${seat}"><b>${escapeHtml(names[seat])}</b> ${tiles} ${melds} ${flowers} ${laid}</div>`;
    })
    .join("")}</div>`;
}

// `causeName` turns a 比下胡 cause key (e.g. "draw") into words.
export function renderHandEnd(message, names, secondsToNext, causeName = (cause) => cause) {
  const result = message.result;
  const deltas = result.deltas
    .map((delta, seat) => `<tr><th>${escapeHtml(names[seat])}</th><td class="${delta > 0 ? "plus" : delta < 0 ? "minus" : ""}">${signed(delta)}</td><td>${signed(message.totals[seat])}</td></tr>`)
    .join("");
  const doubled = result.bixiahu.next_doubled
    ? `<p class="banner bixiahu">${t("end.nextDoubled")}: ${escapeHtml(result.bixiahu.causes.map(causeName).join("、"))}</p>`
    : "";
  return html(`<div class="overlay hand-end" data-role="hand-end" role="dialog" aria-label="${t("end.title")}">
    <div class="sheet">
      <h2>${t("end.title")} · ${t("summary.hand", { n: message.hand + 1 })}</h2>
      ${openHands(message.view, names)}
      ${scoresHtml(result, names)}
      ${result.transfers.length ? `<h3>${t("end.payments")}</h3><ul class="transfers">${transfersHtml(result.transfers, names)}</ul>` : ""}
      <table class="deltas"><thead><tr><th></th><th>${t("end.change")}</th><th>${t("end.totals")}</th></tr></thead><tbody>${deltas}</tbody></table>
      ${doubled}
      <p class="muted" data-role="next-in">${t("end.next", { n: secondsToNext })}</p>
    </div>
  </div>`);
}

export function renderSummary(summary, number) {
  const names = summary.names || [];
  const order = names.map((_, seat) => seat).sort((a, b) => summary.ranks[a] - summary.ranks[b]);
  const rows = order
    .map((seat) => `<tr><td>${summary.ranks[seat]}</td><th>${escapeHtml(names[seat])}</th><td class="${summary.totals[seat] >= 0 ? "plus" : "minus"}">${signed(summary.totals[seat])}</td></tr>`)
    .join("");
  const hands = (summary.hands || [])
    .map((hand) => `<tr><th>${t("summary.hand", { n: hand.index + 1 })}</th>${hand.deltas.map((d) => `<td>${signed(d)}</td>`).join("")}` +
      `<td><a href="#/replay/${number}/${hand.index}" data-role="replay">${t("summary.replay")}</a></td></tr>`)
    .join("");
  const biggest = summary.biggest_win
    ? `<p class="biggest">${t("summary.biggest")}: ${escapeHtml(names[summary.biggest_win.seat])} ${signed(summary.biggest_win.amount)} (${t("summary.hand", { n: summary.biggest_win.hand + 1 })}) — ${summary.biggest_win.items.map((item) => escapeHtml(pick(item.zh, item.en))).join("、")}</p>`
    : "";
  return html(`<section class="summary" data-role="summary">
    <h1>${t("summary.title")} ${summary.status === "dissolved" ? t("summary.dissolved") : ""}</h1>
    <table class="ranks"><thead><tr><th>${t("summary.rank")}</th><th>${t("summary.player")}</th><th>${t("summary.total")}</th></tr></thead><tbody>${rows}</tbody></table>
    ${biggest}
    <table class="per-hand"><thead><tr><th></th>${names.map((name) => `<th>${escapeHtml(name)}</th>`).join("")}<th></th></tr></thead><tbody>${hands}</tbody></table>
    <p><a href="#/" class="button">${t("summary.back")}</a></p>
  </section>`);
}
