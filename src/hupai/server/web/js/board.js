// The parts of a table both play and replays draw: a seat's melds, flowers and discards.

import { parseTiles, tileSvg, tilesHtml } from "./tiles.js";
import { escapeHtml, signed } from "./util.js";

export function meldsHtml(info) {
  const melds = info.melds
    .map((meld) => {
      const count = meld.kind === "pung" ? 3 : 4;
      if (meld.tile === null) return `<span class="meld concealed">${tilesHtml(Array(count).fill(null), { back: true })}</span>`;
      if (meld.kind === "concealed_kong") {
        const back = tileSvg(null, { back: true });
        return `<span class="meld concealed">${back}${tileSvg(meld.tile)}${tileSvg(meld.tile)}${back}</span>`;
      }
      return `<span class="meld ${meld.kind}">${tilesHtml(Array(count).fill(meld.tile))}</span>`;
    })
    .join("");
  const flowers = info.flowers ? `<span class="flowers" title="花">${tilesHtml(parseTiles(info.flowers), { extra: "small" })}</span>` : "";
  return melds + flowers;
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
