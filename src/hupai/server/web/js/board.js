// The square table seen from one seat, drawn the same way for play and for replays: each player's
// hand along its edge (backs, or open tiles when shown), its melds and flowers beside the hand, its
// discards as a river in front of it (rows of six, in order, turned to face it), a name plate in its
// corner, and the centre with the winds, the hand number, the tiles left and the clock.

import { t } from "./i18n.js";
import { nextTile, parseTiles, tileSvg } from "./tiles.js";
import { escapeHtml, signed } from "./util.js";

export const PLACES = ["bottom", "right", "top", "left"]; // by seat offset from the viewer
const TURN = { bottom: 0, right: 270, top: 180, left: 90 }; // each side's tiles face their owner
export const ROW = 6; // tiles in a row of a river

// A meld's tiles as codes, as they lie on the table: a chow's run from its lowest tile — a 赖子 in
// place of the tile it stands for, where one does (Enshi's laizi_in_melds: the meld's `laizi_for` and
// `laizi`) — three or four of a pung or kong.
export function meldTiles(meld) {
  if (meld.kind === "chow") {
    const run = [meld.tile, nextTile(meld.tile), nextTile(nextTile(meld.tile))];
    return meld.laizi_for && meld.laizi ? run.map((code) => (code === meld.laizi_for ? meld.laizi : code)) : run;
  }
  return Array(meld.kind === "pung" ? 3 : 4).fill(meld.tile);
}

// A face-up meld's tiles drawn (`options` as tileSvg's), a 赖子 standing in a chow marked as the
// wildcard it is (as in the hand).
export function meldFacesHtml(meld, options = {}) {
  const run = meld.kind === "chow" ? [meld.tile, nextTile(meld.tile), nextTile(nextTile(meld.tile))] : [];
  const wild = meld.laizi_for && meld.laizi ? run.indexOf(meld.laizi_for) : -1;
  const marked = { ...options, extra: `${options.extra || ""} wildcard`.trim() };
  return meldTiles(meld)
    .map((code, index) => tileSvg(code, index === wild ? marked : options))
    .join("");
}

// The wind of a seat this hand: the dealer is 东 (`seat.n` names it, `wind.n` is its one letter).
export function windOf(seat, dealer, { short = false } = {}) {
  return `${short ? "wind" : "seat"}.${(seat - dealer + 4) % 4}`;
}

// The side a seat sits on, seen from `bottom`.
export function placeOf(seat, bottom) {
  return PLACES[(seat - bottom + 4) % 4];
}

function tiles(codes, place, extra = "") {
  return codes.map((code) => tileSvg(code, { rotate: TURN[place], extra })).join("");
}

function backs(count, place) {
  return Array.from({ length: count }, () => tileSvg(null, { back: true, rotate: TURN[place] })).join("");
}

// A seat's melds: a concealed kong shows two backs (or four when its tile is hidden).
export function meldsHtml(info, place, { small = false } = {}) {
  const extra = small ? "small" : "";
  return info.melds
    .map((meld) => {
      const count = meld.kind === "pung" || meld.kind === "chow" ? 3 : 4;
      if (meld.tile === null) return `<span class="meld concealed">${backs(count, place)}</span>`;
      if (meld.kind === "concealed_kong") {
        const back = tileSvg(null, { back: true, rotate: TURN[place], extra });
        const face = tileSvg(meld.tile, { rotate: TURN[place], extra });
        return `<span class="meld concealed_kong">${back}${face}${face}${back}</span>`;
      }
      return `<span class="meld ${meld.kind}">${meldFacesHtml(meld, { rotate: TURN[place], extra })}</span>`;
    })
    .join("");
}

// Flowers (Nanjing's 中发白 and 春夏秋冬梅兰竹菊) and Enshi's laid 痞子/赖子 sit in their own framed
// tray beside the hand, with a label, so they never look like discards.
function traysHtml(info, place) {
  const trays = [];
  if (info.flowers) {
    trays.push(`<span class="tray flowers" data-role="flowers" title="${t("table.flowers")}"><i>${t("table.flowers")}</i>${tiles(parseTiles(info.flowers), place)}</span>`);
  }
  if (info.laid) {
    trays.push(`<span class="tray laid" data-role="laid" title="${t("table.laid")}"><i>${t("table.laid")}</i>${tiles(parseTiles(info.laid), place)}</span>`);
  }
  if (info.multiplier > 1) trays.push(`<span class="tag multiplier" data-role="multiplier">×${info.multiplier}</span>`);
  return trays.join("");
}

// One river: discard i is in row floor(i / 6), place i % 6; rows grow away from the centre and each
// row runs from its owner's left to right. Rows and places are mapped to grid cells per side.
export function riverHtml(info, place, { rows, open = false, fresh = false } = {}) {
  const codes = parseTiles(info.discards);
  const cells = codes.map((code, index) => {
    const row = Math.floor(index / ROW);
    const col = index % ROW;
    const [gridRow, gridCol] = {
      bottom: [row + 1, col + 1],
      top: [rows - row, ROW - col],
      left: [col + 1, rows - row],
      right: [ROW - col, row + 1],
    }[place];
    const last = index === codes.length - 1;
    const classes = [
      info.claimed[index] ? "claimed" : "",
      last ? "last" : "",
      last && open ? "open" : "",
      last && fresh ? "fresh" : "",
    ].filter(Boolean);
    return `<span class="cell ${classes.join(" ")}" style="grid-area:${gridRow}/${gridCol}">${tileSvg(code, { rotate: TURN[place] })}</span>`;
  });
  return `<div class="river river-${place}" data-role="discards" style="--rows:${rows}">${cells.join("")}</div>`;
}

// The edge of the table in front of a player: its concealed tiles (backs, or the tiles when they are
// shown), its melds and its trays.
export function edgeHtml(info, place, { shown = null } = {}) {
  const hand = shown === null
    ? `<span class="concealed" aria-label="${t("table.concealed", { n: info.concealed_count })}">${backs(info.concealed_count, place)}</span>`
    : `<span class="concealed open-concealed">${tiles(shown, place)}</span>`;
  return `<div class="edge edge-${place}">${hand}<span class="melds">${meldsHtml(info, place)}</span></div>`;
}

// A player's name plate: 头像 with the wind on its corner, name, score and marks (dealer, bot, 托管,
// offline, 报听). It sits in the corner at the player's left, with the player's flowers and laid tiles.
export function plateHtml({ seat, place, wind, windName = "", name, total, marks = "", active = false, dealer = false, avatar = "", info }) {
  return `<div class="corner corner-${place}" data-seat="${seat}">
    <div class="plate${active ? " active" : ""}${dealer ? " dealer" : ""}" data-role="plate">
      <span class="face">${avatar}<span class="wind" title="${escapeHtml(windName)}">${escapeHtml(wind)}</span></span>
      <span class="name" title="${escapeHtml(name)}">${escapeHtml(name)}</span>
      <span class="score">${signed(total)}</span>
      <span class="marks">${marks}</span>
    </div>
    ${traysHtml(info, "bottom")}
  </div>`;
}

// The centre: the four winds on their sides (the one to play lit), and what `middle` holds.
export function centreHtml({ view, bottom, middle = "" }) {
  const winds = [0, 1, 2, 3]
    .map((seat) => {
      const place = placeOf(seat, bottom);
      const lit = view.turn === seat && view.phase !== "ended";
      return `<span class="wind-mark wind-${place}${lit ? " lit" : ""}${seat === view.dealer ? " dealer" : ""}" title="${t(windOf(seat, view.dealer))}">${t(windOf(seat, view.dealer, { short: true }))}</span>`;
    })
    .join("");
  return `<div class="centre" data-role="centre">${winds}<div class="middle">${middle}</div></div>`;
}

// Enshi's 痞子 (turned up) and 赖子 (wild) for the centre; "" where the rules have none.
export function wildHtml(view) {
  if (!view.pizi) return "";
  return `<div class="wild" data-role="wild">${t("table.piziShort")} ${tileSvg(view.pizi)} ${t("table.laiziShort")} ${tileSvg(view.laizi, { extra: "wildcard" })}</div>`;
}

// How many rows the rivers need: at least four (three on a short screen), so that the table keeps its
// shape for most of a hand.
export function riverRows(view) {
  const longest = Math.max(...view.seats.map((info) => parseTiles(info.discards).length));
  return Math.max(window.innerHeight < 500 ? 3 : 4, Math.ceil(longest / ROW));
}

// The whole board. `seats` gives, per seat: plate (its options), shown (open tiles or null), open and
// fresh (its last discard is open for claims / has just been made). With `ownBelow` the viewer's hand
// is drawn below the board by the caller (at play); otherwise its edge is the board's last row.
export function boardHtml({ view, bottom, seats, middle, ownBelow = false }) {
  const rows = riverRows(view);
  const parts = [0, 1, 2, 3].map((seat) => {
    const place = placeOf(seat, bottom);
    const extra = seats[seat];
    const plate = plateHtml({ ...extra.plate, seat, place, info: view.seats[seat] });
    const river = riverHtml(view.seats[seat], place, { rows, open: extra.open, fresh: extra.fresh });
    const edge = place === "bottom" && ownBelow ? "" : `<div class="side side-${place}" data-seat="${seat}">${edgeHtml(view.seats[seat], place, { shown: extra.shown })}</div>`;
    return `${edge}${river}${plate}`;
  });
  return `<div class="board${ownBelow ? "" : " with-bottom"}" data-role="board" style="--rows:${rows}">
    ${parts.join("")}
    ${centreHtml({ view, bottom, middle })}
    <div class="callouts" data-role="callouts" aria-live="assertive"></div>
  </div>`;
}

export const SHORT_LANDSCAPE = window.matchMedia("(max-height: 500px) and (orientation: landscape)");

// Fit the table to the screen: the river tile width (--w) and the player's own tile width (--hw) that
// let the board and the hand below it fit the space below the table's top, in either orientation.
// `tools`: the table keeps room beside the board for its tools and info (a replay has none).
export function fitTable(table, { handTiles = 0, meldTiles = 0, tools = true } = {}) {
  const board = table.querySelector('[data-role="board"]');
  if (!board) return;
  const rows = Number(board.style.getPropertyValue("--rows")) || 4;
  const edges = board.classList.contains("with-bottom") ? 2 : 1;
  // The width the table may take: its container's, never more than the screen's.
  const screenWidth = Math.min(document.documentElement.clientWidth, table.parentElement.getBoundingClientRect().width) - 12;
  // On a phone held sideways a replay's page bar scrolls away (replay.js scrolls it out of sight), so
  // the board takes its height too.
  const bar = document.querySelector("header.top");
  const away = !tools && bar && SHORT_LANDSCAPE.matches ? bar.offsetHeight : 0;
  const top = Math.max(table.getBoundingClientRect().top + window.scrollY - away, 0);
  // Below the table: the page's own padding (a replay sits in a padded card).
  const below = tools ? 8 : 8 + bottomPadding(table);
  const height = window.innerHeight - top - below;
  const portrait = window.innerHeight > document.documentElement.clientWidth;
  let width = portrait ? screenWidth - 8 : screenWidth - 2 * Math.min(300, Math.max(150, screenWidth * 0.2));
  if (!tools) width = Math.min(screenWidth, table.clientWidth) - 16;
  // The own hand: every concealed tile, a gap, and the melds at three quarters of a tile; below the
  // hand its status line, above it nothing (the calls float over the board).
  // On a phone held upright the melds and trays wrap onto a line of their own above the hand.
  const slots = handTiles ? handTiles + (portrait ? 0 : 0.75 * meldTiles) + 1 : 0;
  const handWidth = portrait ? screenWidth - 12 : screenWidth * 0.92;
  const hand = slots ? Math.floor(Math.min(handWidth / slots, 56, height * (portrait ? 0.09 : 0.1))) : 0;
  const handHeight = hand ? hand * (4 / 3) + 34 : 0;
  const reserve = portrait ? 44 + 48 + 48 : 0; // the tool row above the board, the calls' row, the counter
  const edge = edges === 2 ? 1.4 : 1.2; // the edges' depth in tiles: every hand open, they are as big as the rivers'
  const down = edges * edge + 2 * rows * (4 / 3) + ROW;
  const across = 2 * edge + 2 * rows * (4 / 3) + ROW;
  const size = Math.floor(Math.max(9, Math.min(width / across, (height - handHeight - reserve) / down, 42)));
  table.style.setProperty("--w", `${size}px`);
  if (hand) table.style.setProperty("--hw", `${Math.max(hand, size)}px`);
  if (hand) shrinkOwnRow(table);
}

function bottomPadding(element) {
  let total = 0;
  for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
    const style = getComputedStyle(node);
    total += parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth);
  }
  return total;
}

// The estimate above cannot know everything beside the hand (flowers, laid 痞子/赖子 and their ×N,
// labels in either language): measure each line of the own row and shrink the tiles until the widest
// fits the screen.
function shrinkOwnRow(table) {
  const row = table.querySelector(".mine-row");
  if (!row) return;
  for (let tries = 0; tries < 4; tries++) {
    const room = row.parentElement.clientWidth - 4;
    const gap = parseFloat(getComputedStyle(row).columnGap) || 0;
    const lines = new Map(); // a wrapped line's top → [width, items]
    for (const child of row.children) {
      const [width, items] = lines.get(child.offsetTop) || [0, 0];
      lines.set(child.offsetTop, [width + child.scrollWidth, items + 1]);
    }
    const widest = Math.max(0, ...[...lines.values()].map(([width, items]) => width + gap * (items - 1)));
    if (widest <= room) return;
    const hw = parseFloat(table.style.getPropertyValue("--hw"));
    table.style.setProperty("--hw", `${Math.max(10, Math.floor((hw * room) / widest))}px`);
  }
}
