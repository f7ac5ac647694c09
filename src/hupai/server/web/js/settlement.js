// Score sheets: the end of a hand (all hands open, itemised scores, payments with reasons) and the
// session summary (大结算). Also used by replays and the score calculator.

import { pick, t } from "./i18n.js";
import { meldFacesHtml } from "./board.js";
import { parseTiles, tileSvg, tilesHtml } from "./tiles.js";
import { copyToClipboard, escapeHtml, html, signed, toast } from "./util.js";

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

// The reading a win was scored on ("66p 234m 13s(2s)"), drawn: each set its tiles, and what a 赖子
// stands for (in brackets) marked as such. Anything unreadable stays as written.
export function readingHtml(reading) {
  return (reading || "")
    .split(" ")
    .filter(Boolean)
    .map((group) => {
      const found = /^([^()]*)(?:\(([^()]*)\))?$/.exec(group);
      try {
        if (!found) throw new Error(group);
        const real = found[1] ? tilesHtml(parseTiles(found[1]), { extra: "small" }) : "";
        const wild = found[2] ? tilesHtml(parseTiles(found[2]), { extra: "small stand-in" }) : "";
        return `<span class="group">${real}${wild}</span>`;
      } catch {
        return `<span class="group">${escapeHtml(group)}</span>`;
      }
    })
    .join("");
}

export function scoresHtml(result, names) {
  if (!result.scores.length && result.outcome === "abandoned") return `<p class="abandoned">${t("end.abandoned")}</p>`;
  if (!result.scores.length) return `<p class="draw">${t("end.draw")}</p>`;
  return result.scores
    .map((score) => `<div class="score-sheet" data-role="score-sheet">
      <h3>${t("end.winner")}: ${escapeHtml(names[score.seat])} · ${tileSvg(score.tile.replace(/^(\d)(\w)$/, "$1$2"), { extra: "small" })} · ${escapeHtml(howText(score, names))}</h3>
      <p class="reading" data-role="reading" aria-label="${escapeHtml(score.reading)}">${readingHtml(score.reading)}</p>
      <table class="items"><tbody>${itemsHtml(score.items)}</tbody>
        <tfoot>${paidRow(score, result.transfers || [], names)}</tfoot></table>
      ${payersHtml(score.payers, names)}
    </div>`)
    .join("");
}

// What a win's amount means, by how it is paid: each of the three pays the share on a self-drawn
// win; on a discard (a robbed kong, a claim) only the discarder pays, and on a liable self-draw only
// the liable player: their whole payment is shown. Never "each" for a discard.
function paidRow(score, transfers, names) {
  const fed = score.from !== null && score.from !== undefined;
  const big = transfers.filter((transfer) => transfer.to === score.seat && transfer.amount >= score.share);
  const payers = [...new Set(big.map((transfer) => transfer.from))];
  const payer = fed ? score.from : payers.length === 1 ? payers[0] : null;
  if (score.payers && score.payers.length) {  // Enshi: each loser's own amount is listed below
    return `<tr data-paid="value"><th>${t("end.handValue")}</th><td><b data-role="share">${score.share}</b></td></tr>`;
  }
  if (payer === null) {
    return `<tr data-paid="each"><th>${t("end.eachPays")}</th><td><b data-role="share">${score.share}</b></td></tr>`;
  }
  const paid = big.filter((transfer) => transfer.from === payer).reduce((sum, transfer) => sum + transfer.amount, 0);
  const label = fed ? t("end.discarderPays", { name: names[payer] }) : t("end.onePays", { name: names[payer] });
  return `<tr data-paid="one"><th>${escapeHtml(label)}</th><td><b data-role="share">${paid || score.share}</b></td></tr>`;
}

// What one seat paid for leaving (逃跑): the payments with reason "escape" in the hand's transfers.
function escapeAmount(transfers, seat) {
  return (transfers || [])
    .filter((transfer) => transfer.reason === "escape" && transfer.from === seat)
    .reduce((sum, transfer) => sum + transfer.amount, 0);
}

// Who left in this hand and what it cost them; the payments themselves are in the payment list.
export function escapesHtml(result, names) {
  return (result.escaped || [])
    .map((seat) => {
      const amount = escapeAmount(result.transfers, seat);
      const words = amount
        ? t("end.escapePaid", { name: names[seat], amount })
        : t("end.escapeFree", { name: names[seat] });
      return `<p class="banner escaped" data-role="escaped" data-seat="${seat}">${escapeHtml(words)}</p>`;
    })
    .join("");
}

// --- the hand-end sheet ------------------------------------------------------------------------------

// Every hand open: concealed tiles, melds, flowers (and Enshi's laid tiles); a winner's row is
// highlighted and the winning tile marked.
function openHands(message, names) {
  const view = message.view;
  if (!view || !view.hands) return "";
  const wins = new Map(message.result.scores.map((score) => [score.seat, score]));
  const rows = view.hands.map((hand, seat) => {
    const info = view.seats[seat];
    const win = wins.get(seat);
    const codes = parseTiles(hand);
    const marked = win ? codes.lastIndexOf(win.tile) : -1;
    const tile = (code, index) => {
      const classes = ["small"];
      if (code === view.laizi) classes.push("wildcard");
      if (index === marked) classes.push("win-tile");
      return tileSvg(code, { extra: classes.join(" ") });
    };
    let tiles = codes.map(tile).join("");
    if (win && marked < 0) tiles += `<span class="gap"></span>${tileSvg(win.tile, { extra: "small win-tile" })}`;
    const melds = info.melds
      .map((meld) => `<span class="meld">${meldFacesHtml(meld, { extra: "small" })}</span>`)
      .join("");
    const flowers = info.flowers ? `<span class="flowers" title="${t("end.flowers")}">${tilesHtml(parseTiles(info.flowers), { extra: "small" })}</span>` : "";
    const laid = info.laid ? `<span class="laid">${tilesHtml(parseTiles(info.laid), { extra: "small" })}</span>` : "";
    const tags = [
      seat === view.dealer ? `<span class="tag dealer">${t("table.dealer")}</span>` : "",
      win ? `<span class="tag win" data-role="win-tag">${t("end.won")}</span>` : "",
    ].join(" ");
    return `<div class="open-hand${win ? " winner" : ""}" data-seat="${seat}">
      <div class="who"><b>${escapeHtml(names[seat])}</b> ${tags}</div>
      <div class="tiles"><span class="concealed">${tiles}</span>${melds}${flowers}${laid}</div>
    </div>`;
  });
  return `<div class="open-hands">${rows.join("")}</div>`;
}

function deltasTable(message, names) {
  const rows = message.result.deltas
    .map((delta, seat) => `<tr data-seat="${seat}"><th>${escapeHtml(names[seat])}</th>` +
      `<td class="${delta > 0 ? "plus" : delta < 0 ? "minus" : ""}">${signed(delta)}</td>` +
      `<td class="total">${signed(message.totals[seat])}</td></tr>`)
    .join("");
  return `<table class="deltas"><thead><tr><th>${t("summary.player")}</th><th>${t("end.change")}</th><th>${t("end.totals")}</th></tr></thead><tbody>${rows}</tbody></table>`;
}

// 继续 (or, after the last hand, 查看大结算), who has pressed it and the countdown.
function continueBar(message, names, options) {
  const pressed = message.pressed || [];
  const waiting = message.waiting || [];
  const mine = options.mySeat;
  if (message.last) {
    return `<div class="continue-bar"><button type="button" class="primary big" data-role="to-summary">${t("end.toSummary")}</button></div>`;
  }
  const done = mine !== null && mine !== undefined && pressed.includes(mine);
  const button = mine === null || mine === undefined
    ? ""
    : `<button type="button" class="primary big" data-role="continue" ${done ? "disabled" : ""}>${t(done ? "end.continued" : "end.continue")}</button>`;
  const readers = pressed.length + waiting.length;
  const count = readers ? `<span data-role="continued">${t("end.continuedCount", { n: pressed.length, total: readers })}</span>` : "";
  const still = done && waiting.length
    ? ` · <span data-role="still-reading">${t("end.stillReading", { names: waiting.map((seat) => names[seat]).map(escapeHtml).join("、") })}</span>`
    : "";
  return `<div class="continue-bar">${button}
    <p class="muted"><span data-role="next-in">${t("end.next", { n: options.secondsToNext })}</span>${count ? ` · ${count}` : ""}${still}</p>
  </div>`;
}

// The whole banner is its title too: on a phone held sideways it is cut to one line.
function bixiahuBanner(text) {
  const safe = escapeHtml(text);
  return `<p class="banner bixiahu" title="${safe}">${safe}</p>`;
}

const sheetScroll = { hand: -1, top: 0 }; // the sheet is redrawn on every message: keep the reader's place

// options: secondsToNext, causeName (a 比下胡 cause key into words), mySeat, fairLine (the wall's
// verdict, fairness.js) and onFairDetails, onContinue, onSummary.
export function renderHandEnd(message, names, options = {}) {
  const result = message.result;
  const causeName = options.causeName || ((cause) => cause);
  const doubled = result.bixiahu.next_doubled
    ? bixiahuBanner(`${t("end.nextDoubled")}: ${result.bixiahu.causes.map(causeName).join("、")}`)
    : "";
  const payments = result.transfers.length
    ? `<section><h3>${t("end.payments")}</h3><ul class="transfers">${transfersHtml(result.transfers, names)}</ul></section>`
    : "";
  const overlay = html(`<div class="overlay hand-end" data-role="hand-end" role="dialog" aria-label="${t("end.title")}">
    <div class="sheet">
      <h2>${t("end.title")} · ${t("summary.hand", { n: message.hand + 1 })}</h2>
      ${escapesHtml(result, names)}
      ${openHands(message, names)}
      <div class="sheet-columns">
        <section class="wins">${scoresHtml(result, names)}</section>
        <section class="money">${deltasTable(message, names)}${payments}</section>
      </div>
      ${doubled}
      ${options.fairLine ? `<p class="fair-line" data-role="fair-line">${options.fairLine}</p>` : ""}
      ${continueBar(message, names, options)}
    </div>
  </div>`);
  const press = overlay.querySelector('[data-role="continue"]');
  if (press && options.onContinue) press.addEventListener("click", () => options.onContinue());
  const toSummary = overlay.querySelector('[data-role="to-summary"]');
  if (toSummary && options.onSummary) toSummary.addEventListener("click", () => options.onSummary());
  const fairDetails = overlay.querySelector('[data-role="fair-details"]');
  if (fairDetails && options.onFairDetails) fairDetails.addEventListener("click", () => options.onFairDetails());
  if (sheetScroll.hand !== message.hand) Object.assign(sheetScroll, { hand: message.hand, top: 0 });
  overlay.addEventListener("scroll", () => (sheetScroll.top = overlay.scrollTop));
  queueMicrotask(() => (overlay.scrollTop = sheetScroll.top)); // once the caller has put it in the page
  return overlay;
}

// --- 大结算 -------------------------------------------------------------------------------------------

function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function rankText(rank) {
  return rank === null || rank === undefined ? "—" : String(rank);
}

// "小明 自摸", "小明 点炮 ← 电脑2", "荒庄", "中止；小明 逃跑": how one hand ended.
function handOutcome(hand, names) {
  const wins = hand.wins || [];
  const left = (hand.escaped || []).map((seat) => t("summary.escaped", { name: names[seat] }));
  if (!wins.length) return [t(hand.outcome === "abandoned" ? "summary.abandoned" : "end.draw"), ...left].join("；");
  return [
    ...wins.map((win) => win.how === "self_drawn"
      ? t("summary.wonSelfDrawn", { name: names[win.seat] })
      : t("summary.wonOnDiscard", { name: names[win.seat], from: names[win.from] })),
    ...left,
  ].join("；");
}

// 逃跑 in 大结算: who left in which hand and what they paid (already in that hand's 得失).
function escapeLine(escape, names) {
  const amount = escape.transfers.reduce((sum, transfer) => sum + transfer.amount, 0);
  const values = { name: names[escape.seat], n: escape.hand + 1, amount };
  return t(amount ? "summary.escapePaid" : "summary.escapeFree", values);
}

function summaryEscapes(summary, names) {
  const escapes = summary.escapes || [];
  if (!escapes.length) return "";
  return `<section class="escapes" data-role="escapes"><h2>${t("summary.escapes")}</h2>${escapes
    .map((escape) => `<p data-seat="${escape.seat}">${escapeHtml(escapeLine(escape, names))}</p>` +
      (escape.transfers.length ? `<ul class="transfers">${transfersHtml(escape.transfers, names)}</ul>` : ""))
    .join("")}</section>`;
}

function summaryFacts(summary, number) {
  const rules = summary.rules ? pick(summary.rules.zh, summary.rules.en) : "";
  return [`${t("lobby.number")} ${summary.room || number}`, rules, when(summary.ended_at)].filter(Boolean);
}

function statCells(stats) {
  const s = stats || {};
  return [s.wins ?? 0, s.self_draws ?? 0, s.deal_ins ?? 0, s.kongs ?? 0, s.biggest === null || s.biggest === undefined ? "—" : signed(s.biggest)];
}

const STAT_HEADS = ["summary.wins", "summary.selfDraws", "summary.dealIns", "summary.kongs", "summary.biggestHand"];

function handLine(hand, names) {
  const changes = hand.deltas
    .map((delta, seat) => (delta ? `${names[seat]} ${signed(delta)}` : ""))
    .filter(Boolean)
    .join("，");
  return `${t("summary.hand", { n: hand.index + 1 })}: ${handOutcome(hand, names)}${changes ? `（${changes}）` : ""}`;
}

function titleText(summary) {
  return `${t("summary.title")}${summary.status === "dissolved" ? ` ${t("summary.dissolved")}` : ""}`;
}

// The summary as text, for copying.
function summaryText(summary, number, names) {
  const lines = [titleText(summary), summaryFacts(summary, number).join(" · "), ""];
  for (const seat of playerOrder(summary)) {
    const [wins, selfDraws, dealIns, kongs, biggest] = statCells(summary.stats?.[seat]);
    lines.push(`${rankText(summary.ranks[seat])}. ${names[seat]} ${signed(summary.totals[seat])}｜` +
      `${t("summary.wins")} ${wins} · ${t("summary.selfDraws")} ${selfDraws} · ${t("summary.dealIns")} ${dealIns} · ` +
      `${t("summary.kongs")} ${kongs} · ${t("summary.biggestHand")} ${biggest}`);
  }
  lines.push("");
  for (const hand of summary.hands || []) lines.push(handLine(hand, names));
  for (const escape of summary.escapes || []) lines.push(escapeLine(escape, names));
  return lines.join("\n");
}

function playerOrder(summary) {
  const seats = (summary.names || []).map((_, seat) => seat);
  const rank = (seat) => summary.ranks[seat] ?? 0;
  return seats.sort((a, b) => rank(a) - rank(b) || summary.totals[b] - summary.totals[a] || a - b);
}

const PICTURE = { width: 760, row: 34, font: `"PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif` };
const COLUMNS = [24, 84, 330, 420, 480, 550, 620, 680]; // rank, player, total, then the statistics

// The picture: the summary drawn on a canvas and downloaded as a PNG (no outside library).
function savePicture(summary, number, names) {
  const hands = summary.hands || [];
  const height = 120 + (names.length + 1) * PICTURE.row + 50 + hands.length * 28 + 30;
  const scale = 2;
  const canvas = document.createElement("canvas");
  canvas.width = PICTURE.width * scale;
  canvas.height = height * scale;
  const pen = canvas.getContext("2d");
  pen.scale(scale, scale);
  pen.fillStyle = "#fffdf5";
  pen.fillRect(0, 0, PICTURE.width, height);
  pen.fillStyle = "#0b3d26";
  pen.fillRect(0, 0, PICTURE.width, 8);
  const write = (text, x, y, { size = 17, bold = false, color = "#1d1d1f", width = 0 } = {}) => {
    pen.font = `${bold ? "bold " : ""}${size}px ${PICTURE.font}`;
    pen.fillStyle = color;
    if (width) pen.fillText(String(text), x, y, width);
    else pen.fillText(String(text), x, y);
  };
  write(titleText(summary), 24, 48, { size: 28, bold: true });
  write(summaryFacts(summary, number).join(" · "), 24, 80, { color: "#6b7280" });
  let y = 125;
  const heads = ["summary.rank", "summary.player", "summary.total", ...STAT_HEADS].map((key) => t(key));
  heads.forEach((head, index) => write(head, COLUMNS[index], y, { size: 15, bold: true, color: "#6b7280" }));
  for (const seat of playerOrder(summary)) {
    y += PICTURE.row;
    const total = summary.totals[seat];
    const tone = total > 0 ? "#1b5e20" : total < 0 ? "#c62828" : "#1d1d1f";
    write(rankText(summary.ranks[seat]), COLUMNS[0] + 8, y, { size: 20, bold: true });
    write(names[seat], COLUMNS[1], y, { bold: true, width: COLUMNS[2] - COLUMNS[1] - 12 });
    write(signed(total), COLUMNS[2], y, { bold: true, color: tone });
    statCells(summary.stats?.[seat]).forEach((value, index) => write(value, COLUMNS[index + 3], y));
  }
  y += 50;
  write(t("summary.hands"), 24, y, { size: 17, bold: true });
  for (const hand of hands) {
    y += 28;
    write(handLine(hand, names), 24, y, { size: 15, width: PICTURE.width - 48 });
  }
  canvas.toBlob((blob) => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `hupai-${number}.png`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  }, "image/png");
}

async function copyText(text) {
  if (await copyToClipboard(text)) toast(t("summary.copied"));
  else toast(t("summary.copyFailed"), "error");
}

// `names` are the seats' names as shown (bots in the reader's language).
export function renderSummary(summary, number, names = summary.names || []) {
  const order = playerOrder(summary);
  const rows = order
    .map((seat) => `<tr data-seat="${seat}"><td class="rank" data-role="rank">${rankText(summary.ranks[seat])}</td><th>${escapeHtml(names[seat])}</th>` +
      `<td class="total ${summary.totals[seat] > 0 ? "plus" : summary.totals[seat] < 0 ? "minus" : ""}">${signed(summary.totals[seat])}</td>` +
      `${statCells(summary.stats?.[seat]).map((value, index) => `<td class="stat" data-label="${t(STAT_HEADS[index])}">${escapeHtml(value)}</td>`).join("")}</tr>`)
    .join("");
  const hands = (summary.hands || [])
    .map((hand) => `<tr data-hand="${hand.index}"><th>${t("summary.hand", { n: hand.index + 1 })} <a href="#/replay/${number}/${hand.index}" data-role="replay">${t("summary.replay")}</a>` +
      `<span class="outcome">${escapeHtml(handOutcome(hand, names))}</span></th>` +
      `${hand.deltas.map((d) => `<td class="${d > 0 ? "plus" : d < 0 ? "minus" : ""}">${signed(d)}</td>`).join("")}</tr>`)
    .join("");
  const biggest = summary.biggest_win
    ? `<p class="biggest">${t("summary.biggest")}: ${escapeHtml(names[summary.biggest_win.seat])} ${signed(summary.biggest_win.amount)} (${t("summary.hand", { n: summary.biggest_win.hand + 1 })}) — ${summary.biggest_win.items.map((item) => escapeHtml(pick(item.zh, item.en))).join("、")}</p>`
    : "";
  const section = html(`<section class="summary" data-role="summary">
    <h1>${t("summary.title")} ${summary.status === "dissolved" ? t("summary.dissolved") : ""}</h1>
    <p class="muted facts" data-role="summary-facts">${summaryFacts(summary, number).map(escapeHtml).join(" · ")}</p>
    <div class="scroll"><table class="ranks"><thead><tr><th>${t("summary.rank")}</th><th>${t("summary.player")}</th><th>${t("summary.total")}</th>${STAT_HEADS.map((key) => `<th>${t(key)}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table></div>
    ${biggest}
    ${summaryEscapes(summary, names)}
    <h2>${t("summary.hands")}</h2>
    <div class="scroll"><table class="per-hand"><thead><tr><th></th>${names.map((name) => `<th class="name" title="${escapeHtml(name)}">${escapeHtml(name)}</th>`).join("")}</tr></thead><tbody>${hands}</tbody></table></div>
    <p class="summary-actions">
      <button type="button" data-role="save-image">${t("summary.saveImage")}</button>
      <button type="button" data-role="copy-text">${t("summary.copyText")}</button>
      <a href="#/" class="button primary">${t("summary.back")}</a>
    </p>
  </section>`);
  section.querySelector('[data-role="save-image"]').addEventListener("click", () => savePicture(summary, number, names));
  section.querySelector('[data-role="copy-text"]').addEventListener("click", () => copyText(summaryText(summary, number, names)));
  return section;
}
