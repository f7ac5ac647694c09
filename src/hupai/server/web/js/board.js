// The parts of a table both play and replays draw: a seat's melds, flowers and discards.

import { nextTile, parseTiles, tileSvg, tilesHtml } from "./tiles.js";
import { escapeHtml, signed } from "./util.js";

// A meld's tiles as codes: a chow's run from its lowest tile, three or four of a pung or kong.
export function meldTiles(meld) {
  if (meld.kind === "chow") return [meld.tile, nextTile(meld.tile), nextTile(nextTile(meld.tile))];
  return Array(meld.kind === "pung" ? 3 : 4).fill(meld.tile);
}

export function meldsHtml(info) {
  const melds = info.melds
    .map((meld) => {
      const count = meld.kind === "pung" || meld.kind === "chow" ? 3 : 4;
      if (meld.tile === null) return `<span class="meld concealed">${tilesHtml(Array(count).fill(null), { back: true })}</span>`;
      if (meld.kind === "concealed_kong") {
        const back = tileSvg(null, { back: true });
        return `<span class="meld concealed">${back}${tileSvg(meld.tile)}${tileSvg(meld.tile)}${back}</span>`;
      }
      return `<span class="meld ${meld.kind}">${tilesHtml(meldTiles(meld))}</span>`;
    })
    .join("");
  const flowers = info.flowers ? `<span class="flowers" title="花">${tilesHtml(parseTiles(info.flowers), { extra: "small" })}</span>` : "";
  const laid = info.laid ? `<span class="laid" data-role="laid" title="痞子/赖子">${tilesHtml(parseTiles(info.laid), { extra: "small" })}</span>` : "";
  const times = info.multiplier > 1 ? ` <span class="tag multiplier" data-role="multiplier">×${info.multiplier}</span>` : "";
  return melds + flowers + laid + times;
}

export function discardsHtml(info, openTile = null) {
  const codes = parseTiles(info.discards);
  return codes
    .map((code, index) => {
      const classes = [info.claimed[index] ? "claimed" : "", openTile && index === codes.length - 1 ? "open" : ""];
      return tileSvg(code, { extra: classes.join(" ") });
    })
    .join("");
}

// One seat's box. `concealed` is the seat's own tiles (codes) when they are shown, else only a count.
export function seatBoxHtml({ seat, place, info, label, name, total, marks = "", concealed = null, active = false, openTile = null }) {
  const hidden = concealed === null
    ? `<div class="concealed-count" aria-label="${info.concealed_count}">${tilesHtml(Array(info.concealed_count).fill(null), { back: true, extra: "small" })}</div>`
    : `<div class="open-concealed">${tilesHtml(concealed, { extra: "small" })}</div>`;
  return `<div class="seat ${place}${active ? " active" : ""}" data-seat="${seat}">
    <div class="who"><b>${escapeHtml(label)}</b> ${escapeHtml(name)} <span class="score">${signed(total)}</span> ${marks}</div>
    ${hidden}
    <div class="melds">${meldsHtml(info)}</div>
    <div class="discards" data-role="discards">${discardsHtml(info, openTile)}</div>
  </div>`;
}

// The wind of a seat this hand: the dealer is 东.
export function windOf(seat, dealer) {
  return `seat.${(seat - dealer + 4) % 4}`;
}
