// The tile flow of a recorded hand (docs/fairness.md, "Checking the actions"): where every tile goes —
// the deal, draws from the wall's front, replacements from its back (after a kong, a flower, a 痞子 or
// 赖子 laid), claims and kongs — so that a record whose actions use a tile a seat does not hold, or that
// the wall cannot give, is refused, naming the action. It follows the engine (src/hupai/game/engine.py
// and record.py's "passes may be left out") but judges no win: whether a 胡 is a winning hand, and what
// it scores, is the replay's business (`hupai replay --check`). Where a record leaves passes out and
// the tiles alone cannot tell whether a seat could claim, it takes the reading that accepts, so it
// never refuses a record the engine replays.
//
// No DOM here: it runs in the page (fairness.js) and in node (tests/test_tileflow.py).

const SEATS = 4;
const KINDS = 34; // playable kinds: m 0-8, p 9-17, s 18-26, z 27-33; flowers 34-41 (1f-8f)
const FIRST = { m: 0, p: 9, s: 18, z: 27, f: 34 };
const RANKS = { m: 9, p: 9, s: 9, z: 7, f: 8 };
const LETTERS = "mpszf";

// --- tiles -------------------------------------------------------------------------------------------

function letterOf(tile) {
  return tile < 27 ? LETTERS[Math.floor(tile / 9)] : tile < 34 ? "z" : "f";
}

// One tile in notation: 0 → "1m", 33 → "7z", 34 → "1f".
export function tileCode(tile) {
  return `${tile - FIRST[letterOf(tile)] + 1}${letterOf(tile)}`;
}

// Tile ids in notation, consecutive tiles of one suit sharing their letter (hupai's format_tiles).
export function formatTiles(tiles) {
  let text = "";
  tiles.forEach((tile, index) => {
    text += String(tile - FIRST[letterOf(tile)] + 1);
    if (index === tiles.length - 1 || letterOf(tiles[index + 1]) !== letterOf(tile)) text += letterOf(tile);
  });
  return text;
}

// Notation to tile ids, as hupai's parse_tiles reads it: digits, then the suit letter they share
// ("123m" is 1m 2m 3m), order kept, spaces allowed between groups. Throws an Error naming the problem.
export function readTiles(text) {
  if (typeof text !== "string") throw new Error("tiles are a string in notation");
  const tiles = [];
  let pending = [];
  for (const [index, char] of [...text].entries()) {
    if (/\s/.test(char)) {
      if (pending.length) throw new Error(`position ${index + 1}: a space inside a group`);
    } else if (char >= "0" && char <= "9") {
      pending.push(Number(char));
    } else if (Object.hasOwn(RANKS, char)) {
      if (!pending.length) throw new Error(`position ${index + 1}: suit letter '${char}' has no digits before it`);
      for (const rank of pending) {
        if (rank < 1 || rank > RANKS[char]) throw new Error(`position ${index + 1}: '${char}' has ranks 1-${RANKS[char]}, not ${rank}`);
        tiles.push(FIRST[char] + rank - 1);
      }
      pending = [];
    } else {
      throw new Error(`position ${index + 1}: '${char}' is not a suit letter`);
    }
  }
  if (pending.length) throw new Error("digits at the end have no suit letter");
  return tiles;
}

// --- the rule sets: what moves tiles ------------------------------------------------------------------

// The options that move tiles, with each rule set's defaults (src/hupai/rules/*/options.py).
export const DEFAULTS = {
  nanjing: { reserved_tiles: 16, dihu_allow_kong_same_waits: false },
  nanning: { reserved_tiles: 0, fishing: "off" },
  enshi: {
    reserved_tiles: 0,
    honours: false,
    honour_successor: "winds_dragons",
    pizi_flip: "back",
    chow: true,
    laizi_in_melds: false,
    forbid_keeping_pizi: false,
  },
};

// The 赖子 after an honour 痞子 (Enshi with honours), by honour_successor (rules/enshi/__init__.py).
const WINDS = { 27: 28, 28: 29, 29: 30, 30: 27 };
const HONOUR_SUCCESSORS = {
  winds_dragons: { ...WINDS, 33: 32, 32: 31, 31: 33 },
  riichi: { ...WINDS, 31: 32, 32: 33, 33: 31 },
  single_cycle: { 27: 28, 28: 29, 29: 30, 30: 33, 33: 32, 32: 31, 31: 27 },
};

// A rule set's tile facts, by its name ("nanjing", "nanning", "enshi") and the record's options; null
// for a rule set unknown here.
export function rulesFor(family, options = {}) {
  if (!Object.hasOwn(DEFAULTS, family)) return null;
  const given = options && typeof options === "object" ? options : {};
  const option = { ...DEFAULTS[family] };
  for (const name of Object.keys(option)) if (Object.hasOwn(given, name)) option[name] = given[name];
  const kinds = family === "enshi" && !option.honours ? 27 : 34;
  const tiles = [];
  for (let kind = 0; kind < kinds; kind += 1) tiles.push(kind, kind, kind, kind);
  if (family === "nanjing") for (let flower = 34; flower < 42; flower += 1) tiles.push(flower);
  const enshi = family === "enshi";
  return {
    family,
    tiles, // the whole set, sorted
    // Nanjing: the dragons (5z 6z 7z) and the eight seasons and plants are flowers, replaced from the back.
    isFlower: family === "nanjing" ? (tile) => tile >= 31 : () => false,
    reserved: Number(option.reserved_tiles) || 0, // never drawn: the hand is a draw when only these remain
    setAside: family === "nanning" && option.fishing === "s000_predraw" ? 4 : 0, // 钓鱼: off the back
    indicator: enshi ? option.pizi_flip : null, // where the 痞子 is turned up: "back" or "front"
    wildOf: (pizi) => (pizi < 27 ? pizi - (pizi % 9) + ((pizi % 9) + 1) % 9 : (HONOUR_SUCCESSORS[option.honour_successor] || {})[pizi]),
    chow: enshi && option.chow !== false,
    laiziInMelds: enshi && option.laizi_in_melds === true,
    forbidKeepingPizi: enshi && option.forbid_keeping_pizi === true,
    readyDeclaration: family === "nanjing", // 报听 before play
    readyKong: family === "nanjing" && option.dihu_allow_kong_same_waits === true,
  };
}

// --- one hand ------------------------------------------------------------------------------------------

const DEALT = 14; // the dealer's tiles; every other seat is dealt 13
const ACTS = ["discard", "pong", "kong", "hu", "pass", "ready", "chow", "lay", "escape", "dissolve"];
const CLAIM_ONLY = ["pong", "chow", "pass"]; // (and a kong without a tile)

class Problem extends Error {
  constructor(code, params = {}) {
    super(code);
    this.code = code;
    this.params = params;
  }
}

function fail(code, params) {
  throw new Problem(code, params);
}

class Table {
  constructor(rules, dealer, deal, wall) {
    this.rules = rules;
    this.dealer = dealer;
    this.wall = wall;
    this.front = 0;
    this.back = wall.length - 1 - rules.setAside;
    this.counts = deal.map(() => new Array(KINDS).fill(0));
    this.pungs = deal.map(() => new Set()); // kinds of each seat's pungs, which a fourth tile may join
    this.ready = [false, false, false, false];
    this.drawn = [null, null, null, null]; // the tile each seat drew last, while it holds it (报听)
    this.phase = "turn"; // turn | declare | claim | rob | ended
    this.turn = dealer;
    this.window = null; // {discarder, tile, decisions: Map seat → act}
    this.ended = null; // "win" | "draw" | "abandoned"
    this.pizi = null;
    this.laizi = null;
    const flowers = deal.map(() => []);
    deal.forEach((tiles, seat) => {
      for (const tile of tiles) {
        if (rules.isFlower(tile)) flowers[seat].push(tile);
        else this.counts[seat][tile] += 1;
      }
    });
    if (rules.indicator) {
      // Enshi: the 痞子 is turned up and set aside for the hand; the next tile of its suit is the 赖子.
      this.pizi = this.take(rules.indicator === "back");
      this.laizi = this.pizi === undefined ? undefined : rules.wildOf(this.pizi);
    }
    // Flowers in the deal: replaced from the back, round by round, the dealer first, then in turn order.
    while (flowers.some((held) => held.length)) {
      for (let offset = 0; offset < SEATS; offset += 1) {
        const seat = (dealer + offset) % SEATS;
        const pending = flowers[seat];
        flowers[seat] = [];
        for (let count = 0; count < pending.length; count += 1) {
          if (this.live() <= 0) {
            this.end("draw");
            return;
          }
          const tile = this.take(true);
          if (rules.isFlower(tile)) flowers[seat].push(tile);
          else this.counts[seat][tile] += 1;
        }
      }
    }
    if (rules.readyDeclaration) this.open("declare", dealer, null);
  }

  live() {
    return this.back - this.front + 1 - this.rules.reserved;
  }

  take(replacement) {
    return replacement ? this.wall[this.back--] : this.wall[this.front++];
  }

  end(how) {
    this.phase = "ended";
    this.ended = how;
    this.window = null;
  }

  open(phase, discarder, tile) {
    this.phase = phase;
    this.window = { discarder, tile, decisions: new Map() };
  }

  special(tile) {
    return this.pizi !== null && (tile === this.pizi || tile === this.laizi);
  }

  // A draw for `seat` from the front (or a replacement from the back); flowers drawn are replaced from
  // the back. Ends the hand as a draw when no live tile is left.
  draw(seat, replacement) {
    for (;;) {
      if (this.live() <= 0) {
        this.end("draw");
        return;
      }
      const tile = this.take(replacement);
      if (!this.rules.isFlower(tile)) {
        this.counts[seat][tile] += 1;
        this.drawn[seat] = tile;
        this.turn = seat;
        this.phase = "turn";
        this.window = null;
        return;
      }
      replacement = true;
    }
  }

  // --- the open windows: 报听 at the start, a discard, an added kong --------------------------------------

  // Whether `action` is a decision on the open window: the engine's options are not known here, so any
  // decision of the right kind by a seat still undecided is taken as one, if its tiles allow it.
  decision(action) {
    const window = this.window;
    const seat = action.seat;
    if (seat === window.discarder || window.decisions.has(seat)) return false;
    if (this.phase === "declare") return action.act === "ready" || action.act === "pass";
    if (this.phase === "rob") return action.act === "hu" || action.act === "pass";
    if (action.act === "hu" || action.act === "pass") return true;
    if (action.act === "pong") return this.canPong(seat, window.tile);
    if (action.act === "kong" && action.tile === null) return this.canClaimKong(seat, window.tile);
    if (action.act === "chow") return this.chowRun(seat, window, action.tile) !== null;
    return false;
  }

  canPong(seat, tile) {
    return this.counts[seat][tile] >= 2 && !this.ready[seat] && !this.special(tile);
  }

  canClaimKong(seat, tile) {
    return this.counts[seat][tile] === 3 && !this.ready[seat] && !this.special(tile) && this.live() > 0;
  }

  // The tiles a chow of `tile` into the run from `low` takes out of the hand, or null when the seat
  // cannot make it: only the discarder's next seat, a suited run holding the tile, its other two tiles
  // held (a 痞子 or 赖子 kind counts as missing); with laizi_in_melds one missing tile may be a 赖子.
  chowRun(seat, window, low) {
    if (!this.rules.chow || seat !== (window.discarder + 1) % SEATS || this.ready[seat]) return null;
    const tile = window.tile;
    if (tile >= 27 || this.special(tile) || low > tile || low + 2 < tile) return null;
    const start = tile - (tile % 9);
    if (low < start || low + 2 >= start + 9) return null;
    const counts = this.counts[seat];
    const needed = [low, low + 1, low + 2].filter((kind) => kind !== tile);
    const missing = needed.filter((kind) => this.special(kind) || !counts[kind]).length;
    const spare = this.rules.laiziInMelds && this.laizi !== null && counts[this.laizi] > 0;
    if (!(missing === 0 || (missing === 1 && spare))) return null;
    // As the engine takes them: each needed kind if held and not special, else a 赖子 (it stands in for
    // that kind in the meld; a 痞子 never lies in one).
    return needed.map((kind) => (this.laizi === null || (counts[kind] && !this.special(kind)) ? kind : this.laizi));
  }

  // Every seat still undecided passes: the window closes as the engine resolves it.
  resolve() {
    const window = this.window;
    const order = [1, 2, 3].map((offset) => (window.discarder + offset) % SEATS);
    const decided = (seat) => window.decisions.get(seat);
    if (this.phase === "declare") {
      for (const seat of order) if (decided(seat) && decided(seat).act === "ready") this.ready[seat] = true;
      this.phase = "turn";
      this.window = null;
      this.turn = this.dealer;
      return;
    }
    if (order.some((seat) => decided(seat) && decided(seat).act === "hu")) {
      this.end("win"); // on the discard, or robbing the kong (抢杠)
      return;
    }
    const { discarder, tile } = window;
    if (this.phase === "rob") {
      // Nobody robbed: the kong is completed and a replacement drawn from the back.
      this.counts[discarder][tile] -= 1;
      this.pungs[discarder].delete(tile);
      this.draw(discarder, true);
      return;
    }
    const claims = (acts) => order.find((seat) => decided(seat) && acts.includes(decided(seat).act));
    const claimer = claims(["pong", "kong"]) ?? claims(["chow"]);
    if (claimer === undefined) {
      this.draw((discarder + 1) % SEATS, false);
      return;
    }
    const claim = decided(claimer);
    const counts = this.counts[claimer];
    this.drawn[claimer] = null;
    if (claim.act === "kong") {
      counts[tile] -= 3;
      this.draw(claimer, true);
      return;
    }
    if (claim.act === "pong") {
      counts[tile] -= 2;
      this.pungs[claimer].add(tile);
    } else {
      for (const kind of this.chowRun(claimer, window, claim.tile)) counts[kind] -= 1;
    }
    this.turn = claimer;
    this.phase = "turn";
    this.window = null;
  }

  // --- an action ---------------------------------------------------------------------------------------

  apply(action) {
    if (this.phase === "declare" || this.phase === "claim" || this.phase === "rob") {
      if (this.decision(action)) {
        this.window.decisions.set(action.seat, action);
        return;
      }
      this.resolve();
    }
    if (this.phase === "ended") fail(this.ended === "win" ? "overWin" : "overDraw");
    const { seat, act, tile } = action;
    if (CLAIM_ONLY.includes(act) || (act === "kong" && tile === null)) fail("noDiscard", { seat });
    if (act === "ready") fail("readyLate", { seat });
    if (seat !== this.turn) fail("notTurn", { seat, turn: this.turn });
    const counts = this.counts[seat];
    const live = this.live();
    if (this.rules.forbidKeepingPizi && this.pizi !== null && counts[this.pizi] > 0 && live > 0 && act !== "lay") {
      fail("mustLay", { seat, tile: tileCode(this.pizi) });
    }
    if (act === "hu") {
      this.end("win"); // self-drawn: whether the hand wins is the replay's to judge
      return;
    }
    if (act === "discard") this.discard(seat, tile);
    else if (act === "kong") this.ownKong(seat, tile);
    else if (act === "lay") this.lay(seat, tile);
  }

  discard(seat, tile) {
    const counts = this.counts[seat];
    if (!counts[tile]) fail("notHeld", { seat, tile: tileCode(tile) });
    if (this.ready[seat] && tile !== this.drawn[seat]) {
      fail("readyDiscard", { seat, tile: tileCode(tile), drawn: this.drawn[seat] === null ? "-" : tileCode(this.drawn[seat]) });
    }
    const wild = this.special(tile);
    if (wild && (this.live() > 0 || counts.some((count, kind) => count && !this.special(kind)))) {
      fail(this.live() > 0 ? "specialKept" : "specialLast", { seat, tile: tileCode(tile) });
    }
    counts[tile] -= 1;
    this.drawn[seat] = null;
    if (wild) {
      this.draw((seat + 1) % SEATS, false); // a 痞子 or 赖子 let go is no discard anyone may take
      return;
    }
    this.open("claim", seat, tile);
  }

  ownKong(seat, tile) {
    const counts = this.counts[seat];
    const concealed = counts[tile] === 4;
    if (!concealed && !(this.pungs[seat].has(tile) && counts[tile] >= 1)) {
      fail("ownKong", { seat, tile: tileCode(tile), held: counts[tile] });
    }
    if (this.special(tile)) fail("specialKong", { seat, tile: tileCode(tile) });
    if (this.ready[seat] && !this.rules.readyKong) fail("readyKong", { seat });
    if (this.live() <= 0) fail("noReplacement", { seat });
    this.drawn[seat] = null;
    if (concealed) {
      counts[tile] = 0;
      this.draw(seat, true);
      return;
    }
    this.open("rob", seat, tile); // an added kong may be robbed (抢杠) before it is completed
  }

  lay(seat, tile) {
    if (this.pizi === null) fail("noLay", { seat });
    if (!this.special(tile)) fail("notLayable", { tile: tileCode(tile), pizi: tileCode(this.pizi), laizi: tileCode(this.laizi) });
    if (!this.counts[seat][tile]) fail("notHeld", { seat, tile: tileCode(tile) });
    if (this.live() <= 0) fail("noReplacement", { seat });
    this.counts[seat][tile] -= 1;
    this.drawn[seat] = null;
    this.draw(seat, true);
  }

  // Why an action on a window was no decision there and nothing after it either, in better words than
  // the turn's: a claim the seat's tiles cannot make.
  claimProblem(action) {
    const window = this.window;
    if (!window || this.phase !== "claim" || action.seat === window.discarder || window.decisions.has(action.seat)) return null;
    const { seat, act, tile } = action;
    const held = this.counts[seat][window.tile];
    const shown = tileCode(window.tile);
    if (act === "pong" || (act === "kong" && tile === null)) {
      if (this.ready[seat]) return new Problem("readyClaim", { seat });
      if (this.special(window.tile)) return new Problem("specialKong", { seat, tile: shown });
      if (act === "pong") return new Problem("pong", { seat, tile: shown, held });
      if (held === 3) return new Problem("noReplacement", { seat });
      return new Problem("claimKong", { seat, tile: shown, held });
    }
    if (act === "chow") {
      if (!this.rules.chow) return new Problem("noChow", { seat });
      if (seat !== (window.discarder + 1) % SEATS) return new Problem("chowSeat", { seat, next: (window.discarder + 1) % SEATS });
      return new Problem("chow", { seat, tile: shown, run: formatTiles([tile, tile + 1, tile + 2].filter((kind) => kind < KINDS)) });
    }
    return null;
  }
}

// An action of a record read as hupai reads it: {seat, act, tile}; a problem for one it cannot read.
function readAction(entry) {
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) fail("malformed", { what: "an action is an object" });
  const act = entry.act;
  if (!ACTS.includes(act)) fail("malformed", { what: `unknown act ${JSON.stringify(act)}` });
  if (act === "dissolve") return { seat: null, act, tile: null };
  const seat = entry.seat;
  if (!Number.isInteger(seat) || seat < 0 || seat >= SEATS) fail("malformed", { what: "'seat' is 0-3" });
  let tile = null;
  if (entry.tile !== undefined) {
    let tiles;
    try {
      tiles = readTiles(entry.tile);
    } catch (error) {
      fail("malformed", { what: `'tile': ${error.message}` });
    }
    if (tiles.length !== 1 || tiles[0] >= KINDS) fail("malformed", { what: `'tile' is one playable tile, not ${JSON.stringify(entry.tile)}` });
    tile = tiles[0];
  }
  if (["discard", "chow", "lay"].includes(act) && tile === null) fail("malformed", { what: `'${act}' needs a 'tile'` });
  if (!["discard", "chow", "lay", "kong"].includes(act) && tile !== null) fail("malformed", { what: `'${act}' takes no 'tile'` });
  return { seat, act, tile };
}

// The deal and wall of a hand as tile ids, with what is wrong with them: each seat's count (14 for the
// dealer, 13 for the others) and the whole, which must be exactly the rule set's tiles.
function readDeal(hand, rules) {
  const dealer = hand.dealer === undefined ? 0 : hand.dealer;
  if (!Number.isInteger(dealer) || dealer < 0 || dealer >= SEATS) return { problem: new Problem("deal", { what: "'dealer' is a seat 0-3" }) };
  if (!Array.isArray(hand.deal) || hand.deal.length !== SEATS) return { problem: new Problem("deal", { what: "'deal' lists four hands" }) };
  let deal;
  let wall;
  try {
    deal = hand.deal.map(readTiles);
    wall = readTiles(hand.wall);
  } catch (error) {
    return { problem: new Problem("deal", { what: error.message }) };
  }
  for (const [seat, tiles] of deal.entries()) {
    const expected = seat === dealer ? DEALT : DEALT - 1;
    if (tiles.length !== expected) return { problem: new Problem("dealSize", { seat, n: tiles.length, expected }) };
  }
  const problems = [];
  const given = new Array(42).fill(0);
  for (const tile of deal.flat().concat(wall)) given[tile] += 1;
  const wanted = new Array(42).fill(0);
  for (const tile of rules.tiles) wanted[tile] += 1;
  const missing = [];
  const extra = [];
  for (let tile = 0; tile < 42; tile += 1) {
    for (let count = given[tile]; count < wanted[tile]; count += 1) missing.push(tile);
    for (let count = wanted[tile]; count < given[tile]; count += 1) extra.push(tile);
  }
  if (missing.length || extra.length) {
    const code = missing.length && extra.length ? "tileSet" : missing.length ? "tileSetMissing" : "tileSetExtra";
    problems.push(new Problem(code, { family: rules.family, missing: formatTiles(missing), extra: formatTiles(extra) }));
  }
  return { dealer, deal, wall, problems };
}

// A value in JSON as Python's json.dumps(..., ensure_ascii=False) writes it ("{"seat": 2, "act": …}"),
// so that an action is quoted as `hupai verify` quotes it.
function pythonJson(value) {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`).join(", ")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

// What is wrong with a hand's tile flow: {problems, over}. `problems` lists each problem as {code,
// params, action, shown}: `action` the index of the action refused in the hand's `actions`, counting
// from 0 as `hupai verify` does (null for the deal, or for a hand that stops before it is over),
// `shown` that action as the record writes it; an empty list: the tiles flow as written. `over` is
// {how: "escape" | "dissolve", seat, action} when the hand ended the match. `ended` is that of an
// earlier hand ({how, seat, hand, n, action}: `hand` its index in the match, counting from 0, `n` that
// index + 1, as in 第n局): nothing may follow it. A hand dealt from a seed has no tiles to follow: its
// problems are null.
export function checkHand(hand, rules, ended = null) {
  const actions = hand && Array.isArray(hand.actions) ? hand.actions : [];
  const problems = [];
  const note = (code, params, index = null) =>
    problems.push({ code, params, action: index, shown: index === null ? "" : pythonJson(actions[index]) });
  if (ended) {
    note(ended.how === "escape" ? "afterEscapeHand" : "afterDissolveHand", ended);
    return { problems, over: null };
  }
  if (!hand || typeof hand !== "object" || hand.deal === undefined || hand.wall === undefined) {
    const index = actions.findIndex((entry) => entry && (entry.act === "escape" || entry.act === "dissolve"));
    const over = index < 0 ? null : { how: actions[index].act, seat: actions[index].seat ?? null, action: index };
    return { problems: null, over };
  }
  const dealt = readDeal(hand, rules);
  if (dealt.problem) {
    note(dealt.problem.code, dealt.problem.params);
    return { problems, over: null };
  }
  for (const problem of dealt.problems) note(problem.code, problem.params);
  const table = new Table(rules, dealt.dealer, dealt.deal, dealt.wall);
  let over = null;
  for (const [index, entry] of actions.entries()) {
    try {
      if (over) fail(over.how === "escape" ? "afterEscape" : "afterDissolve", over);
      const action = readAction(entry);
      if (action.act === "escape" || action.act === "dissolve") {
        // The hand stops where it is (an open window undecided), and so does the match.
        if (table.phase !== "ended") table.end("abandoned");
        over = { how: action.act, seat: action.seat, action: index };
        continue;
      }
      const claim = table.claimProblem(action);
      try {
        table.apply(action);
      } catch (error) {
        if (claim && error instanceof Problem && !["overWin", "overDraw"].includes(error.code)) throw claim;
        throw error;
      }
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      note(error.code, error.params, index);
      return { problems, over };
    }
  }
  if (!over && table.phase !== "ended") {
    if (table.window) table.resolve(); // every seat still undecided passes
    if (table.phase !== "ended") note("unfinished", { turn: table.turn });
  }
  return { problems, over };
}

// Every hand of a record: per hand its problems (an empty list: the tiles flow as written), or null for
// a hand dealt from a seed. `family` names the rule set ("nanjing", "nanning", "enshi"); the answer is
// null for a rule set unknown here. A hand's index in its match is the record's `hand_index` (0 if
// absent or not an index) plus its position in `hands`.
export function checkRecord(record, family) {
  const rules = rulesFor(family, (record && record.options) || {});
  if (!rules) return null;
  const hands = Array.isArray(record && record.hands) ? record.hands : [];
  const first = record && Number.isInteger(record.hand_index) && record.hand_index >= 0 ? record.hand_index : 0;
  let ended = null;
  return hands.map((hand, position) => {
    const checked = checkHand(hand, rules, ended);
    if (checked.over && !ended) ended = { ...checked.over, hand: first + position, n: first + position + 1 };
    return checked.problems;
  });
}
