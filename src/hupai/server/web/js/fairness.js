// Fair deals (docs/fairness.md, algorithms hupai-fair/2 and hupai-fair/1 before it): this player's
// random contribution to each hand's wall, the fingerprint at the table with its details, and the
// verifier — a port of hupai.replay.verify_record on Web Crypto — for the table, the hand's sheet and
// replays: each hand's deal, what ties a hupai-fair/2 hand to its room and place in the match, and
// the tiles of every action (tileflow.js). What it finds of the deals is what `hupai verify` finds,
// in the same words (translated); of the actions, the action and what its tiles do not allow.

import { infoDialog } from "./dialog.js";
import { t } from "./i18n.js";
import { checkRecord as checkTileFlow, formatTiles, readTiles, rulesFor, tileCode } from "./tileflow.js";
import { escapeHtml } from "./util.js";

export { formatTiles, readTiles, tileCode };

export const ALGORITHM_V1 = "hupai-fair/1";
export const ALGORITHM_V2 = "hupai-fair/2";
export const ALGORITHM = ALGORITHM_V2; // what new rooms deal with
const ALGORITHMS = [ALGORITHM_V1, ALGORITHM_V2];
const HEX64 = /^[0-9a-f]{64}$/;
const CONTRIBUTION = /^[0-9a-f]{0,64}$/;
const ROOM = /^[0-9]{1,32}$/;
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

// hupai-fair/2 (a room and a hand's index given): SHA-256 of "hupai-fair/2|room|hand|secret" as text;
// hupai-fair/1 (neither): SHA-256 of the secret's 32 bytes.
export async function commitmentOf(secret, room = null, hand = null) {
  if (room === null && hand === null) return toHex(await sha256(fromHex(secret)));
  return toHex(await sha256(encoder.encode([ALGORITHM_V2, room, String(hand), secret].join("|"))));
}

// A rule set's whole tile set (RuleSet.tile_set), by its name and options; null for one unknown here.
export function ruleTiles(family, options = {}) {
  const rules = rulesFor(family, options);
  return rules ? rules.tiles : null;
}

// --- the algorithm (steps 1-5 of docs/fairness.md) -----------------------------------------------------

// The key: hupai-fair/2 with the room and the hand's index, hupai-fair/1 without.
async function shuffleKey(secret, contributions, room = null, hand = null) {
  const head = room === null && hand === null ? [ALGORITHM_V1, secret] : [ALGORITHM_V2, room, String(hand), secret];
  return sha256(encoder.encode([...head, ...contributions].join("|")));
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

export async function fairOrder(tiles, secret, contributions, room = null, hand = null) {
  const order = [...tiles].sort((a, b) => a - b);
  const numbers = new Numbers(await shuffleKey(secret, contributions, room, hand));
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
// `params`, for describeProblem(). A hupai-fair/2 deal is checked with the room and index it names
// (whether they are the record's is verifyRecord's to say).
export async function verifyDeal(tiles, dealer, deal, wall, fair) {
  const problems = [];
  const placed = fair.algorithm === ALGORITHM_V2;
  const room = placed ? fair.room : null;
  const hand = placed ? fair.hand : null;
  const digest = await commitmentOf(fair.secret, room, hand);
  if (digest !== fair.commitment) {
    const params = { hash: fingerprint(digest), commitment: fingerprint(fair.commitment) };
    problems.push(placed ? { code: "commitment2", params: { ...params, room, hand } } : { code: "commitment", params });
  }
  const played = dealingOrder(dealer, deal, wall);
  const expected = await fairOrder(tiles, fair.secret, fair.contributions, room, hand);
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
  if (!ALGORITHMS.includes(fair.algorithm)) {
    return `'fair.algorithm' is ${ALGORITHMS.map((name) => `'${name}'`).join(" or ")}, not ${typeof fair.algorithm === "string" ? `'${fair.algorithm}'` : JSON.stringify(fair.algorithm)}: an algorithm hupai knows`;
  }
  const known = fair.algorithm === ALGORITHM_V1
    ? ["algorithm", "commitment", "wall_hash", "secret", "contributions"]
    : ["algorithm", "room", "hand", "commitment", "wall_hash", "secret", "contributions"];
  const unknown = Object.keys(fair).filter((key) => !known.includes(key)).sort();
  if (unknown.length) return `'fair' has unknown fields for ${fair.algorithm}: ${unknown.join(", ")} (it has ${known.join(", ")})`;
  if (fair.algorithm === ALGORITHM_V2) {
    if (typeof fair.room !== "string" || !ROOM.test(fair.room)) return "'fair.room' is a room number: 1 to 32 digits 0-9, as a string";
    if (!Number.isInteger(fair.hand) || fair.hand < 0) return "'fair.hand' is the hand's index in its match: a whole number from 0";
  }
  const given = fair.contributions;
  if (!Array.isArray(given) || given.length !== SEATS || !given.every((value) => typeof value === "string" && CONTRIBUTION.test(value))) {
    return `'fair.contributions' lists ${SEATS} strings of 0 to 64 lowercase hex digits`;
  }
  for (const name of ["secret", "commitment", "wall_hash"]) {
    if (typeof fair[name] !== "string" || !HEX64.test(fair[name])) return `'fair.${name}' is 64 lowercase hex digits`;
  }
  return null;
}

// A value as Python's json.dumps writes it, for the words that quote a record's field.
function quoted(value) {
  return value === undefined ? "null" : JSON.stringify(value);
}

// Every hand of a hupai-record/1 checked, as verify_record does: per hand `verified` (true; false; or
// null when the hand carries no fair deal — dealt from a seed, as in rooms made before fair deals —
// and its actions show nothing wrong), its `problems`, its `caveats` (true statements that do not fail
// it: what hupai-fair/1 cannot show), its `algorithm` and `commitment`, and `mine`: whether the
// contribution this browser remembers sending for it (in room `room`) is in the record (null when it
// remembers none). `family` names the rule set (its tiles and how they move).
//
// A hand's index in its match is the record's `hand_index` (0 if absent: a match record) plus its
// position. A hupai-fair/2 hand must name the record's `room` and its own index, stand after the hand
// before it, and share its commitment and secret with no other hand.
export async function verifyRecord(record, family, { room = null } = {}) {
  const hands = Array.isArray(record && record.hands) ? record.hands : [];
  const written = record && record.hand_index !== undefined ? record.hand_index : 0;
  const indexed = Number.isInteger(written) && written >= 0;
  const first = indexed ? written : 0;
  const context = {
    room,
    recordRoom: record ? record.room : undefined,
    placing: indexed ? null : { code: "handIndex", params: { value: quoted(written) } },
    tiles: ruleTiles(family, (record && record.options) || {}),
    flows: checkTileFlow(record, family),
    commitments: new Map(),
    secrets: new Map(),
    lastPlaced: null, // the last hupai-fair/2 hand's own index
    // A hupai-fair/2 room deals every hand fairly: a hand of its record without the facts was stripped.
    allFair: hands.some((hand) => hand && hand.fair && hand.fair.algorithm === ALGORITHM_V2),
  };
  const verdicts = [];
  for (const [position, hand] of hands.entries()) {
    const flow = context.flows ? context.flows[position] : null;
    verdicts.push(await verifyHand(hand, first + position, flow, context));
  }
  return verdicts;
}

// The problems of a hand's play (tileflow.js), each for describeProblem().
function flowProblems(flow) {
  return (flow || []).map((problem) => ({ code: "flow", params: {}, flow: problem }));
}

async function verifyHand(hand, index, flow, context) {
  const played = flowProblems(flow);
  const fair = hand && hand.fair;
  const none = { verified: played.length ? false : null, problems: played, caveats: [], algorithm: null, commitment: null, mine: null };
  if (!fair || !hand.deal || !hand.wall) {
    if (!context.allFair) return none;
    const missing = ["fair", "deal", "wall"].filter((name) => !(hand && hand[name])).map((name) => `'${name}'`);
    return { ...none, verified: false, problems: [{ code: "stripped", params: { what: missing.join(" / ") } }, ...played] };
  }
  const shape = shapeProblem(fair);
  if (shape) return { ...none, verified: false, problems: [{ code: "shape", params: { what: shape } }] };
  const remembered = context.room === null ? null : rememberedContribution(context.room, index, fair.commitment);
  const mine = remembered === null ? null : fair.contributions.includes(remembered);
  const facts = { algorithm: fair.algorithm, commitment: fair.commitment, mine };
  if (!context.tiles) return { ...facts, verified: false, problems: [{ code: "rules", params: {} }], caveats: [] };
  let deal;
  let wall;
  try {
    deal = hand.deal.map(readTiles);
    wall = readTiles(hand.wall);
  } catch (error) {
    return { ...facts, verified: false, problems: [{ code: "shape", params: { what: error.message } }], caveats: [] };
  }
  const problems = await verifyDeal(context.tiles, hand.dealer === undefined ? 0 : hand.dealer, deal, wall, fair);
  const caveats = [];
  if (fair.algorithm === ALGORITHM_V1) {
    caveats.push({ code: "v1", params: {} });
  } else {
    problems.push(...placingProblems(fair, index, context));
    problems.push(...repeated(fair.commitment, "commitment", context.commitments, index));
    problems.push(...repeated(fair.secret, "secret", context.secrets, index));
    context.lastPlaced = fair.hand;
  }
  problems.push(...played);
  if (mine === false) problems.push({ code: "mine", params: {} });
  return { ...facts, verified: problems.length === 0, problems, caveats };
}

// A hupai-fair/2 hand is the record's own: dealt for its room, at the place in the match where the
// record has it, after the hand before it.
function placingProblems(fair, index, context) {
  const problems = context.placing ? [context.placing] : [];
  const room = context.recordRoom;
  if (typeof room !== "string") problems.push({ code: "noRoom", params: { value: quoted(room), room: fair.room } });
  else if (fair.room !== room) problems.push({ code: "room", params: { room: fair.room, record: room } });
  if (fair.hand !== index) problems.push({ code: "index", params: { hand: fair.hand, n: fair.hand + 1, index, at: index + 1 } });
  if (context.lastPlaced !== null && fair.hand <= context.lastPlaced) {
    problems.push({ code: "outOfOrder", params: { hand: fair.hand, before: context.lastPlaced } });
  }
  return problems;
}

// A commitment or a secret is one hand's: a second hand with it was copied.
function repeated(value, name, seen, index) {
  if (seen.has(value)) {
    const earlier = seen.get(value);
    return [{ code: name === "secret" ? "repeatedSecret" : "repeatedCommitment", params: { hand: earlier, n: earlier + 1 } }];
  }
  seen.set(value, index);
  return [];
}

// One problem in the player's words (in English as `hupai verify` says it, for the deal and what ties
// a hand to its room and place; a refused action is named as `hupai verify` names it: by its index in
// the hand's `actions`, counting from 0, and as the record writes it).
export function describeProblem(problem) {
  if (problem.code === "flow") {
    const found = problem.flow;
    const what = t(`fair.flow.${found.code}`, found.params);
    return found.action === null ? what : t("fair.problem.action", { n: found.action, act: found.shown, what });
  }
  return t(`fair.problem.${problem.code}`, problem.params);
}

// A caveat in the player's words (in English exactly as `hupai verify` says it).
export function describeCaveat(caveat) {
  return t(`fair.caveat.${caveat.code}`, caveat.params);
}

// --- what the page shows ----------------------------------------------------------------------------

const LOCK = '<svg class="icon" viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true"><rect x="5" y="11" width="14" height="10" rx="2" fill="currentColor"/><path d="M8 11V8a4 4 0 0 1 8 0v3" fill="none" stroke="currentColor" stroke-width="2"/></svg>';

// The fingerprint at the table: a lock and the commitment's first 8 hex digits; a click opens the details.
export function fairBadge(facts) {
  if (!facts) return "";
  return `<button type="button" class="fair-badge" data-role="fair-badge" title="${t("fair.badgeTitle")}" aria-label="${t("fair.badgeTitle")} ${facts.commitment.slice(0, 8)}">${LOCK}<span>${facts.commitment.slice(0, 8)}</span></button>`;
}

// What a verdict cannot show (hupai-fair/1), as the line's tooltip, or in full with `caveats`.
function caveatsHtml(verdict, full) {
  const caveats = (verdict.caveats || []).map(describeCaveat);
  if (!caveats.length) return { title: "", list: "" };
  const title = ` title="${escapeHtml(caveats.join(" "))}"`;
  const list = full ? `<ul class="fair-caveats muted" data-role="fair-caveats">${caveats.map((words) => `<li>${escapeHtml(words)}</li>`).join("")}</ul>` : "";
  return { title, list };
}

// A verdict in one line: ✓ verified, ✗ not, or not verifiable (no fair deal, or no Web Crypto here).
// With `caveats` what the verdict cannot show follows in full (else it is the line's tooltip).
export function verdictHtml(verdict, { details = false, caveats = false } = {}) {
  const button = details ? ` <button type="button" class="link" data-role="fair-details">${t("fair.details")}</button>` : "";
  if (!verdict) return `<span class="fair-verdict" data-role="fair-verdict" data-verdict="checking">${t("fair.checking")}</span>`;
  if (verdict.insecure) {
    return `<span class="fair-verdict unknown" data-role="fair-verdict" data-verdict="insecure">${t("fair.insecure")}</span>${button}`;
  }
  if (verdict.verified === null) {
    return `<span class="fair-verdict unknown" data-role="fair-verdict" data-verdict="none">${t("fair.notVerifiable")}</span>`;
  }
  const noted = caveatsHtml(verdict, caveats);
  if (verdict.verified) {
    const mine = verdict.mine ? ` · ${t("fair.mineIn")}` : "";
    return `<span class="fair-verdict ok" data-role="fair-verdict" data-verdict="verified"${noted.title}>${LOCK} ${t("fair.verified")} ✓${mine}</span>${button}${noted.list}`;
  }
  const problems = verdict.problems.map((problem) => `<li>${escapeHtml(describeProblem(problem))}</li>`).join("");
  return `<span class="fair-verdict bad" data-role="fair-verdict" data-verdict="failed"${noted.title}>✗ ${t("fair.failed")}</span>${button}<ul class="fair-problems" data-role="fair-problems">${problems}</ul>${noted.list}`;
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
      if (box) box.innerHTML = verdictHtml(found, { caveats: true });
    });
  }
  return modal;
}
