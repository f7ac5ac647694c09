// Tiles: hupai notation ("123m45p1z") to codes ("1m", "2m", …) and each code to an SVG drawing.

import { language } from "./i18n.js";

export function parseTiles(text) {
  const tiles = [];
  let digits = [];
  for (const char of text || "") {
    if (char >= "0" && char <= "9") digits.push(char);
    else if ("mpszf".includes(char)) {
      for (const digit of digits) tiles.push(digit + char);
      digits = [];
    }
  }
  return tiles;
}

const ORDER = { m: 0, p: 1, s: 2, z: 3, f: 4 };
export function tileOrder(code) {
  return ORDER[code[1]] * 10 + Number(code[0]);
}

const NUMERALS = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONOURS = ["", "东", "南", "西", "北", "白", "发", "中"];
const HONOURS_EN = ["", "East", "South", "West", "North", "White", "Green", "Red"];
const FLOWERS = ["", "春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const FLOWERS_EN = ["", "Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo", "Chrysanthemum"];

export function tileName(code) {
  const rank = Number(code[0]);
  const suit = code[1];
  const zh = language() === "zh";
  if (suit === "m") return zh ? `${NUMERALS[rank]}万` : `${rank} Character`;
  if (suit === "p") return zh ? `${NUMERALS[rank]}筒` : `${rank} Dot`;
  if (suit === "s") return zh ? `${NUMERALS[rank]}条` : `${rank} Bamboo`;
  if (suit === "z") return zh ? HONOURS[rank] : HONOURS_EN[rank];
  return zh ? FLOWERS[rank] : FLOWERS_EN[rank];
}

// Where the pips of 1-9 sit on a 30×40 face.
const PIPS = {
  1: [[15, 20]],
  2: [[15, 11], [15, 29]],
  3: [[8, 9], [15, 20], [22, 31]],
  4: [[9, 11], [21, 11], [9, 29], [21, 29]],
  5: [[9, 10], [21, 10], [15, 20], [9, 30], [21, 30]],
  6: [[9, 9], [21, 9], [9, 20], [21, 20], [9, 31], [21, 31]],
  7: [[7, 7], [15, 11], [23, 15], [9, 24], [21, 24], [9, 33], [21, 33]],
  8: [[9, 7], [21, 7], [9, 15.5], [21, 15.5], [9, 24.5], [21, 24.5], [9, 33], [21, 33]],
  9: [[7, 9], [15, 9], [23, 9], [7, 20], [15, 20], [23, 20], [7, 31], [15, 31], [23, 31]],
};

function dots(rank) {
  const radius = rank === 1 ? 8 : rank <= 4 ? 5 : rank <= 6 ? 4 : 3.4;
  return PIPS[rank]
    .map(([x, y], index) => {
      const colour = rank === 1 ? "#c62828" : index % 3 === 1 ? "#c62828" : index % 3 === 2 ? "#1b5e20" : "#0d47a1";
      return `<circle cx="${x}" cy="${y}" r="${radius}" fill="none" stroke="${colour}" stroke-width="1.6"/>` +
        `<circle cx="${x}" cy="${y}" r="${radius / 2.6}" fill="${colour}"/>`;
    })
    .join("");
}

function sticks(rank) {
  if (rank === 1) {
    return `<text x="15" y="27" text-anchor="middle" font-size="20" fill="#1b5e20">幺</text>` +
      `<text x="15" y="37" text-anchor="middle" font-size="7" fill="#c62828">鸡</text>`;
  }
  return PIPS[rank]
    .map(([x, y], index) => {
      const colour = rank >= 5 && index === Math.floor(PIPS[rank].length / 2) ? "#c62828" : "#1b5e20";
      return `<rect x="${x - 1.6}" y="${y - 4.2}" width="3.2" height="8.4" rx="1.4" fill="${colour}"/>`;
    })
    .join("");
}

function face(code) {
  const rank = Number(code[0]);
  const suit = code[1];
  if (suit === "m") {
    return `<text x="15" y="18" text-anchor="middle" font-size="14" fill="#0d2a6b">${NUMERALS[rank]}</text>` +
      `<text x="15" y="35" text-anchor="middle" font-size="14" fill="#c62828">萬</text>`;
  }
  if (suit === "p") return dots(rank);
  if (suit === "s") return sticks(rank);
  if (suit === "z") {
    if (rank === 5) return `<rect x="6" y="7" width="18" height="26" fill="none" stroke="#1565c0" stroke-width="2"/>`;
    const colour = rank === 6 ? "#1b5e20" : rank === 7 ? "#c62828" : "#222";
    return `<text x="15" y="27" text-anchor="middle" font-size="19" fill="${colour}">${HONOURS[rank]}</text>`;
  }
  const colour = rank <= 4 ? "#ad1457" : "#00695c";
  return `<text x="15" y="25" text-anchor="middle" font-size="16" fill="${colour}">${FLOWERS[rank]}</text>` +
    `<text x="25" y="37" text-anchor="middle" font-size="7" fill="${colour}">${((rank - 1) % 4) + 1}</text>`;
}

// How a tile lies on the table, by whose it is: upright for the viewer, turned for the others.
const TURNS = {
  0: { box: "0 0 30 40", face: "" },
  90: { box: "0 0 40 30", face: "translate(40 0) rotate(90)" },
  180: { box: "0 0 30 40", face: "rotate(180 15 20)" },
  270: { box: "0 0 40 30", face: "translate(0 30) rotate(-90)" },
};

// One tile as an SVG element string; `back` draws the back of a hidden tile; `rotate` (0, 90, 180,
// 270 degrees clockwise) turns it to face a player on another side.
export function tileSvg(code, { back = false, extra = "", rotate = 0 } = {}) {
  const turn = TURNS[rotate] || TURNS[0];
  const sideways = rotate === 90 || rotate === 270 ? " sideways" : "";
  if (back || !code) {
    return `<svg class="tile back${sideways} ${extra}" viewBox="${turn.box}" role="img" aria-hidden="true">` +
      `<g transform="${turn.face}"><rect x="0.5" y="0.5" width="29" height="39" rx="4" fill="#2e7d32" stroke="#1b5e20"/>` +
      `<rect x="3" y="3" width="24" height="34" rx="3" fill="none" stroke="#4caf50" stroke-width="0.8"/></g></svg>`;
  }
  return `<svg class="tile${sideways} ${extra}" viewBox="${turn.box}" role="img" data-tile="${code}" aria-label="${tileName(code)}">` +
    `<title>${tileName(code)}</title><g transform="${turn.face}">` +
    `<rect x="0.5" y="0.5" width="29" height="39" rx="4" fill="#fffdf5" stroke="#9e9e9e"/>` +
    `<g font-family="'Noto Serif CJK SC','Songti SC','SimSun',serif" font-weight="700">${face(code)}</g></g></svg>`;
}

// The tile after ``code`` in its suit (for runs); null past 9.
export function nextTile(code) {
  const rank = Number(code[0]);
  return rank < 9 && "mps".includes(code[1]) ? `${rank + 1}${code[1]}` : null;
}

export function tilesHtml(codes, options = {}) {
  return codes.map((code) => tileSvg(code, options)).join("");
}
