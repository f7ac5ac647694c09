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

// The bamboo suit as printed on real tiles: [x, y, tilt in degrees, colour] per stick on a 30×40 face.
// 6条 is two rows of three and 8条 two rows of four leaning into a W over an M, so the two never
// look alike, even small; 7条 has its red stick on top; 5条 and 9条 a red centre.
const GREEN = "#1b5e20";
const BLUE = "#0d47a1";
const RED = "#c62828";
const STICKS = {
  2: [[15, 12, 0, GREEN], [15, 28, 0, BLUE]],
  3: [[15, 11, 0, BLUE], [9, 29, 0, GREEN], [21, 29, 0, GREEN]],
  4: [[9, 11, 0, GREEN], [21, 11, 0, BLUE], [9, 29, 0, BLUE], [21, 29, 0, GREEN]],
  5: [[8, 10, 0, GREEN], [22, 10, 0, BLUE], [15, 20, 0, RED], [8, 30, 0, BLUE], [22, 30, 0, GREEN]],
  6: [[7, 11, 0, GREEN], [15, 11, 0, GREEN], [23, 11, 0, GREEN], [7, 29, 0, BLUE], [15, 29, 0, BLUE], [23, 29, 0, BLUE]],
  7: [[15, 7, 0, RED], [7, 20, 0, GREEN], [15, 20, 0, GREEN], [23, 20, 0, GREEN], [7, 32, 0, BLUE], [15, 32, 0, BLUE], [23, 32, 0, BLUE]],
  8: [
    [6.5, 11, -22, GREEN], [12, 11, 22, GREEN], [18, 11, -22, GREEN], [23.5, 11, 22, GREEN],
    [6.5, 29, 22, BLUE], [12, 29, -22, BLUE], [18, 29, 22, BLUE], [23.5, 29, -22, BLUE],
  ],
  9: [
    [7, 9, 0, GREEN], [15, 9, 0, RED], [23, 9, 0, BLUE], [7, 20, 0, GREEN], [15, 20, 0, RED],
    [23, 20, 0, BLUE], [7, 31, 0, GREEN], [15, 31, 0, RED], [23, 31, 0, BLUE],
  ],
};

function sticks(rank) {
  if (rank === 1) {
    return `<text x="15" y="27" text-anchor="middle" font-size="20" fill="${GREEN}">幺</text>` +
      `<text x="15" y="37" text-anchor="middle" font-size="7" fill="${RED}">鸡</text>`;
  }
  const long = rank <= 4 ? 5.6 : 4.6; // half a stick's length: fewer sticks, longer ones
  return STICKS[rank]
    .map(([x, y, tilt, colour]) => {
      const turn = tilt ? ` transform="rotate(${tilt} ${x} ${y})"` : "";
      // A stick with its joint across the middle, as bamboo is drawn.
      return `<g${turn}><rect x="${x - 1.7}" y="${y - long}" width="3.4" height="${2 * long}" rx="1.5" fill="${colour}"/>` +
        `<path d="M${x - 1.7} ${y}h3.4" stroke="#fffdf5" stroke-width="0.7"/></g>`;
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
