// Fair deals (docs/fairness.md, algorithm hupai-fair/1): this player's random contribution to each
// hand's wall, the fingerprint at the table with its details, and the verifier — an exact port of
// hupai.game.fairness.verify_deal on Web Crypto — for the table, the hand's sheet and replays. What
// it finds is what `hupai verify` finds, in the same words (translated).

import { infoDialog } from "./dialog.js";
import { t } from "./i18n.js";
import { escapeHtml } from "./util.js";

export const ALGORITHM = "hupai-fair/1";
const HEX64 = /^[0-9a-f]{64}$/;
const CONTRIBUTION = /^[0-9a-f]{0,64}$/;
const SEATS = 4;

// --- contributing -------------------------------------------------------------------------------

const STORE_KEY = "hupai.contributions";
const KEEP_ROOMS = 5; // the contributions of this many rooms are remembered, the newest

function randomHex(bytes) {
  const values = new Uint8Array(bytes);
  crypto.getRandomValues(values); // no secure context needed, unlike crypto.subtle
  return toHex(values);
}

function loadRemembered() {
  try {
    const stored = JSON.parse(localStorage.getItem(STORE_KEY) || "{}");
    return stored && typeof stored === "object" ? stored : {};
  } catch {
    return {};
  }
}

function remember(room, hand, commitment, value) {
  const rooms = loadRemembered();
  const entry = rooms[room] && typeof rooms[room].hands === "object" ? rooms[room] : { hands: {} };
  entry.at = Date.now();
  entry.hands[hand] = { commitment, value };
  rooms[room] = entry;
  const newest = Object.entries(rooms).sort(([, a], [, b]) => (b.at || 0) - (a.at || 0)).slice(0, KEEP_ROOMS);
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(Object.fromEntries(newest)));
  } catch {
    // private mode or a full store: the contribution is still sent, only not remembered
  }
}

// The contribution this browser sent for hand `hand` of room `room`, or null. Only for the same
// commitment: a room number is used again once its room is over.
export function rememberedContribution(room, hand, commitment) {
  const entry = loadRemembered()[room];
  const kept = entry && entry.hands ? entry.hands[hand] : null;
  return kept && kept.commitment === commitment ? kept.value : null;
}

// What to send for a `deal_commitment`: nothing for a spectator or a seat whose contribution is in,
// else the value remembered for this hand (a reconnect whose first send was lost) or 32 new bytes.
export function contributionFor(room, message, seat) {
  if (seat === null || seat === undefined || (message.contributed || [])[seat]) return null;
  let value = rememberedContribution(room, message.hand, message.commitment);
  if (!value) {
    value = randomHex(32);
    remember(room, message.hand, message.commitment, value);
  }
  return value;
}

// --- bytes and hashes ------------------------------------------------------------------------------

const encoder = new TextEncoder();

function toHex(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex) {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = parseInt(hex.slice(2 * index, 2 * index + 2), 16);
  return bytes;
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

// Web Crypto needs a secure context: https, or localhost. A LAN address over plain http has none.
export function canVerify() {
  return Boolean(globalThis.isSecureContext && globalThis.crypto && crypto.subtle);
}

// A short form of a hash for people to compare at a glance: "66687aad f862bd77".
export function fingerprint(digest) {
  return `${digest.slice(0, 8)} ${digest.slice(8, 16)}`;
}

export async function commitmentOf(secret) {
  return toHex(await sha256(fromHex(secret)));
}

// --- tiles: ids as in src/hupai/tiles.py (m 0-8, p 9-17, s 18-26, z 27-33, flowers 34-41) --------------

const FIRST = { m: 0, p: 9, s: 18, z: 27, f: 34 };
const RANKS = { m: 9, p: 9, s: 9, z: 7, f: 8 };
const LETTERS = "mpszf";

function letterOf(tile) {
  return tile < 27 ? LETTERS[Math.floor(tile / 9)] : tile < 34 ? "z" : "f";
}

export function tileCode(tile) {
  return `${tile - FIRST[letterOf(tile)] + 1}${letterOf(tile)}`;
}

// Notation to tile ids, strictly (a record with anything else is not read).
export function readTiles(text) {
  if (typeof text !== "string" || !/^(\d+[mpszf])*$/.test(text)) throw new Error(`not tile notation: ${String(text).slice(0, 40)}`);
  const tiles = [];
  for (const [, digits, letter] of text.matchAll(/(\d+)([mpszf])/g)) {
    for (const digit of digits) {
      const rank = Number(digit);
      if (rank < 1 || rank > RANKS[letter]) throw new Error(`no tile ${digit}${letter}`);
      tiles.push(FIRST[letter] + rank - 1);
    }
  }
  return tiles;
}

// Tile ids in notation, consecutive tiles of one suit sharing their letter (format_tiles).
export function formatTiles(tiles) {
  let text = "";
  tiles.forEach((tile, index) => {
    text += String(tile - FIRST[letterOf(tile)] + 1);
    if (index === tiles.length - 1 || letterOf(tiles[index + 1]) !== letterOf(tile)) text += letterOf(tile);
  });
  return text;
}

// A rule set's whole tile set (RuleSet.tile_set), by its name and options; null for one unknown here.
export function ruleTiles(family, options = {}) {
  const kinds = { nanjing: 34, nanning: 34, enshi: options.honours ? 34 : 27 }[family];
  if (kinds === undefined) return null;
  const tiles = [];
  for (let kind = 0; kind < kinds; kind += 1) tiles.push(kind, kind, kind, kind);
  if (family === "nanjing") for (let flower = 34; flower < 42; flower += 1) tiles.push(flower);
  return tiles;
}

// --- the algorithm (steps 1-5 of docs/fairness.md) -----------------------------------------------------

async function shuffleKey(secret, contributions) {
  return sha256(encoder.encode([ALGORITHM, secret, ...contributions].join("|")));
}

// 32-bit numbers from SHA-256(key || counter) for counter 0, 1, 2, … (8 bytes, big-endian).
class Numbers {
  constructor(key) {
    this.key = key;
    this.counter = 0;
    this.block = null;
    this.at = 8;
  }

  async next() {
    if (this.at === 8) {
      const input = new Uint8Array(this.key.length + 8);
      input.set(this.key);
      const tail = new DataView(input.buffer, this.key.length);
      tail.setUint32(0, Math.floor(this.counter / 2 ** 32));
      tail.setUint32(4, this.counter % 2 ** 32);
      this.block = new DataView((await sha256(input)).buffer);
      this.counter += 1;
      this.at = 0;
    }
    const value = this.block.getUint32(4 * this.at);
    this.at += 1;
    return value;
  }

  // A number below n, each equally likely: draws past the last whole multiple of n are thrown away.
  async below(n) {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const value = await this.next();
      if (value < limit) return value % n;
    }
  }
}

export async function fairOrder(tiles, secret, contributions) {
  const order = [...tiles].sort((a, b) => a - b);
  const numbers = new Numbers(await shuffleKey(secret, contributions));
  for (let position = order.length - 1; position > 0; position -= 1) {
    const other = await numbers.below(position + 1);
    [order[position], order[other]] = [order[other], order[position]];
  }
  return order;
}

export async function wallHash(secret, order) {
  return toHex(await sha256(encoder.encode(`${secret}:${formatTiles(order)}`)));
}

// The tiles in the order they were dealt (the dealer first, then in turn order), then the wall.
export function dealingOrder(dealer, deal, wall) {
  const order = [];
  for (let offset = 0; offset < SEATS; offset += 1) order.push(...deal[(dealer + offset) % SEATS]);
  return order.concat(wall);
}

// What does not match (empty when the hand verifies), as verify_deal: each problem a `code` and its
// `params`, for describeProblem().
export async function verifyDeal(tiles, dealer, deal, wall, fair) {
  const problems = [];
  const digest = await commitmentOf(fair.secret);
  if (digest !== fair.commitment) {
    problems.push({ code: "commitment", params: { hash: fingerprint(digest), commitment: fingerprint(fair.commitment) } });
  }
  const played = dealingOrder(dealer, deal, wall);
  const expected = await fairOrder(tiles, fair.secret, fair.contributions);
  if (played.length !== expected.length) {
    problems.push({ code: "count", params: { played: played.length, expected: expected.length } });
  } else {
    const differ = played.map((tile, index) => (tile === expected[index] ? -1 : index)).filter((index) => index >= 0);
    if (differ.length) {
      const at = differ[0];
      problems.push({
        code: "order",
        params: { n: differ.length, total: played.length, at: at + 1, played: tileCode(played[at]), expected: tileCode(expected[at]) },
      });
    }
  }
  if ((await wallHash(fair.secret, played)) !== fair.wall_hash) problems.push({ code: "wallHash", params: {} });
  return problems;
}

// The shape of a record's `fair` object (FairDeal.from_dict): the reason it cannot be read, or null.
function shapeProblem(fair) {
  if (!fair || typeof fair !== "object" || Array.isArray(fair)) return "'fair' is an object";
  const known = ["algorithm", "commitment", "wall_hash", "secret", "contributions"];
  const unknown = Object.keys(fair).filter((key) => !known.includes(key)).sort();
  if (unknown.length) return `'fair' has unknown fields: ${unknown.join(", ")}`;
  if (fair.algorithm !== ALGORITHM) return `'fair.algorithm' is '${ALGORITHM}', not '${fair.algorithm}'`;
  const given = fair.contributions;
  if (!Array.isArray(given) || given.length !== SEATS || !given.every((value) => typeof value === "string" && CONTRIBUTION.test(value))) {
    return `'fair.contributions' lists ${SEATS} strings of 0 to 64 lowercase hex digits`;
  }
  for (const name of ["secret", "commitment", "wall_hash"]) {
    if (typeof fair[name] !== "string" || !HEX64.test(fair[name])) return `'fair.${name}' is 64 lowercase hex digits`;
  }
  return null;
}

// Every hand of a hupai-record/1 checked: per hand `verified` (true, false, or null when the hand
// carries no fair deal — dealt from a seed, as in rooms made before fair deals), its `problems`, its
// `commitment`, and `mine`: whether the contribution this browser remembers sending for it (in room
// `room`) is in the record (null when it remembers none). `family` names the rule set (its tiles).
export async function verifyRecord(record, family, { room = null } = {}) {
  const hands = Array.isArray(record && record.hands) ? record.hands : [];
  const single = hands.length === 1 && Number.isInteger(record.hand_index);
  const tiles = ruleTiles(family, record.options || {});
  const verdicts = [];
  for (const [position, hand] of hands.entries()) {
    const index = single ? record.hand_index : position;
    verdicts.push(await verifyHand(hand, tiles, room, index));
  }
  return verdicts;
}

async function verifyHand(hand, tiles, room, index) {
  const fair = hand && hand.fair;
  if (!fair || !hand.deal || !hand.wall) return { verified: null, problems: [], commitment: null, mine: null };
  const shape = shapeProblem(fair);
  if (shape) return { verified: false, problems: [{ code: "shape", params: { what: shape } }], commitment: null, mine: null };
  const remembered = room === null ? null : rememberedContribution(room, index, fair.commitment);
  const mine = remembered === null ? null : fair.contributions.includes(remembered);
  if (!tiles) return { verified: false, problems: [{ code: "rules", params: {} }], commitment: fair.commitment, mine };
  let deal;
  let wall;
  try {
    deal = hand.deal.map(readTiles);
    wall = readTiles(hand.wall);
  } catch (error) {
    return { verified: false, problems: [{ code: "shape", params: { what: error.message } }], commitment: fair.commitment, mine };
  }
  const problems = await verifyDeal(tiles, hand.dealer, deal, wall, fair);
  if (mine === false) problems.push({ code: "mine", params: {} });
  return { verified: problems.length === 0, problems, commitment: fair.commitment, mine };
}

// One problem in the player's words (in English exactly as `hupai verify` says it).
export function describeProblem(problem) {
  return t(`fair.problem.${problem.code}`, problem.params);
}

// --- what the page shows ----------------------------------------------------------------------------

const LOCK = '<svg class="icon" viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true"><rect x="5" y="11" width="14" height="10" rx="2" fill="currentColor"/><path d="M8 11V8a4 4 0 0 1 8 0v3" fill="none" stroke="currentColor" stroke-width="2"/></svg>';

// The fingerprint at the table: a lock and the commitment's first 8 hex digits; a click opens the details.
export function fairBadge(facts) {
  if (!facts) return "";
  return `<button type="button" class="fair-badge" data-role="fair-badge" title="${t("fair.badgeTitle")}" aria-label="${t("fair.badgeTitle")} ${facts.commitment.slice(0, 8)}">${LOCK}<span>${facts.commitment.slice(0, 8)}</span></button>`;
}

// A verdict in one line: ✓ verified, ✗ not, or not verifiable (no fair deal, or no Web Crypto here).
export function verdictHtml(verdict, { details = false } = {}) {
  const button = details ? ` <button type="button" class="link" data-role="fair-details">${t("fair.details")}</button>` : "";
  if (!verdict) return `<span class="fair-verdict" data-role="fair-verdict" data-verdict="checking">${t("fair.checking")}</span>`;
  if (verdict.insecure) {
    return `<span class="fair-verdict unknown" data-role="fair-verdict" data-verdict="insecure">${t("fair.insecure")}</span>${button}`;
  }
  if (verdict.verified === null) {
    return `<span class="fair-verdict unknown" data-role="fair-verdict" data-verdict="none">${t("fair.notVerifiable")}</span>`;
  }
  if (verdict.verified) {
    const mine = verdict.mine ? ` · ${t("fair.mineIn")}` : "";
    return `<span class="fair-verdict ok" data-role="fair-verdict" data-verdict="verified">${LOCK} ${t("fair.verified")} ✓${mine}</span>${button}`;
  }
  const problems = verdict.problems.map((problem) => `<li>${escapeHtml(describeProblem(problem))}</li>`).join("");
  return `<span class="fair-verdict bad" data-role="fair-verdict" data-verdict="failed">✗ ${t("fair.failed")}</span>${button}<ul class="fair-problems" data-role="fair-problems">${problems}</ul>`;
}

// The verdict of one stored hand's record, or why there is none: {insecure} without Web Crypto.
export async function checkRecord(record, family, room) {
  if (!canVerify()) return { insecure: true, verified: null, problems: [], mine: null };
  const [verdict] = await verifyRecord(record, family, { room });
  return verdict || { verified: null, problems: [], mine: null };
}

function row(label, value, role = "") {
  return `<dt>${label}</dt><dd${role ? ` data-role="${role}"` : ""}>${value}</dd>`;
}

function code(text) {
  return text ? `<code>${escapeHtml(text)}</code>` : `<span class="muted">${t("fair.none")}</span>`;
}

// The details: the algorithm, the commitment and wall hash in full, this player's contribution and
// who contributed; after the hand the revealed secret and contributions, and the local verdict.
// `hand` is {commitment, wall_hash, contributed, mine} as the deal told this seat; `reveal` the
// record's or hand_end's `fair` (or null while the hand is played); `verdict` a promise or null.
export function showFairDetails({ title, hand, names, reveal = null, verdict = null, recordLink = "" }) {
  const contributed = reveal ? reveal.contributions.map((value) => value !== "") : hand.contributed || [];
  const who = names
    .map((name, seat) => `<li class="${contributed[seat] ? "ok" : "muted"}">${contributed[seat] ? "✓" : "—"} ${escapeHtml(name)}</li>`)
    .join("");
  const revealed = reveal
    ? row(t("fair.secret"), code(reveal.secret), "fair-secret") +
      row(t("fair.contributions"), `<ol class="fair-list">${reveal.contributions.map((value, seat) => `<li><b>${escapeHtml(names[seat] || "")}</b> ${code(value)}</li>`).join("")}</ol>`)
    : row(t("fair.secret"), `<span class="muted">${t("fair.secretLater")}</span>`);
  const modal = infoDialog(`<div class="fair" data-role="fair-details-box">
      <h2>${LOCK} ${escapeHtml(title)}</h2>
      <p class="muted">${t("fair.explain")}</p>
      <dl>
        ${row(t("fair.algorithm"), `<code>${escapeHtml(hand.algorithm || ALGORITHM)}</code>`)}
        ${row(t("fair.commitment"), code(hand.commitment), "fair-commitment")}
        ${row(t("fair.wallHash"), code(hand.wall_hash), "fair-wall-hash")}
        ${row(t("fair.mine"), code(hand.mine), "fair-mine")}
        ${row(t("fair.who"), `<ul class="fair-who">${who}</ul>`)}
        ${revealed}
      </dl>
      ${reveal ? `<p class="fair-check" data-role="fair-check">${verdictHtml(null)}</p>` : ""}
      <p class="muted fair-cli">${t("fair.cli")}${recordLink ? ` <a href="${recordLink}" data-role="fair-record">${t("fair.record")}</a>` : ""}</p>
    </div>`, { role: "fair-dialog", label: t("fair.title") });
  if (reveal && verdict) {
    Promise.resolve(verdict).then((found) => {
      const box = modal.querySelector('[data-role="fair-check"]');
      if (box) box.innerHTML = verdictHtml(found);
    });
  }
  return modal;
}
