"""The browser's tile-flow checker (src/hupai/server/web/js/tileflow.js, run here in node) against the
engine: it finds nothing wrong in genuine records of every rule set — played by bots and at random,
with Enshi's tile options and Nanjing's flowers, with their passes left out, and the scenario records
of tests/data/records/ — and refuses tampered copies at the action the engine refuses, for the reason
the tampering gives.

CI installs node (.ci/run); elsewhere the test is skipped without it."""

from __future__ import annotations

import copy
import json
import os
import random
import re
import shutil
import subprocess
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest

from hupai.bots import make_bot
from hupai.bots.selfplay import play
from hupai.game import Match, legal_actions, step
from hupai.game.actions import (
    Action,
    Chow,
    DeclareReady,
    Discard,
    Kong,
    Lay,
    Pass,
    Pong,
    Win,
    action_from_dict,
)
from hupai.game.contract import RuleSet
from hupai.game.engine import IllegalAction, new_hand
from hupai.game.events import TileDrawn
from hupai.game.model import HandState, MeldKind, Phase
from hupai.game.record import (
    RecordError,
    action_as_dict,
    apply_action,
    close_open_window,
    read_record,
    record_from_match,
    write_record,
)
from hupai.game.scripting import MoveError, run_moves
from hupai.game.stacking import stack_wall
from hupai.replay import replay
from hupai.rules import load_ruleset
from hupai.tiles import format_tiles, parse_tiles

ROOT = Path(__file__).resolve().parents[1]
TILEFLOW = ROOT / "src" / "hupai" / "server" / "web" / "js" / "tileflow.js"
SCENARIOS = ROOT / "tests" / "data" / "records"
NODE = shutil.which("node")
if NODE is None and os.environ.get("CI"):
    raise RuntimeError("CI needs node for the tile-flow checker's test (.ci/run installs it)")
pytestmark = pytest.mark.skipif(
    NODE is None, reason="no node: the page's tile-flow checker runs in Node.js (apt install nodejs)"
)

# The rule cards played: every option that moves tiles, off and on.
CARDS: list[tuple[str, dict[str, Any]]] = [
    ("nanjing", {}),
    ("nanjing", {"reserved_tiles": 0, "multi_ron": False, "dihu_allow_kong_same_waits": True}),
    ("nanning", {}),
    ("nanning", {"fishing": "s000_predraw", "reserved_tiles": 6}),
    ("enshi", {}),
    ("enshi", {"honours": True, "pizi_flip": "front", "laizi_in_melds": True, "multi_ron": True}),
    ("enshi", {"honours": True, "honour_successor": "single_cycle", "forbid_keeping_pizi": True}),
    (
        "enshi",
        {
            "chow": False,
            "rob_kong": False,
            "reserved_tiles": 8,
            "honours": True,
            "honour_successor": "riichi",
        },
    ),
]

RUNNER = """import { checkRecord, DEFAULTS } from "./tileflow.mjs";
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const cases = JSON.parse(input);
  const checked = cases.map(([family, record]) => checkRecord(record, family));
  process.stdout.write(JSON.stringify({ checked, defaults: DEFAULTS }));
});
"""


def run_checker(cases: list[tuple[str, dict[str, Any]]], folder: Path) -> dict[str, Any]:
    """tileflow.js's checkRecord over each (family, record), in one node process."""
    (folder / "tileflow.mjs").write_text(TILEFLOW.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "run.mjs").write_text(RUNNER, encoding="utf-8")
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(folder / "run.mjs")],
        input=json.dumps(cases, ensure_ascii=False),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# --- genuine records ---------------------------------------------------------------------------------


def lively(rng: random.Random, actions: list[Action]) -> Action:
    """Random legal play that reaches everything that moves tiles: kongs and lays nearly always,
    pongs and chows often, wins sometimes (so that walls run out too), 报听 when offered."""
    for kind, chance in ((Kong, 0.9), (Lay, 0.9), (DeclareReady, 0.5), (Win, 0.3), (Pong, 0.5), (Chow, 0.5)):
        found = [action for action in actions if isinstance(action, kind)]
        if found and rng.random() < chance:
            return rng.choice(found)
    plain = [action for action in actions if isinstance(action, Pass | Discard)]
    return rng.choice(plain or actions)


def acting_seat(state: HandState) -> int:
    if state.phase is Phase.TURN:
        return state.turn
    assert state.window is not None
    return next(seat for seat in sorted(state.window.options) if seat not in state.window.decisions)


def random_match(ruleset: RuleSet, seed: int, hands: int) -> dict[str, Any]:
    """A match of random lively play; some end with a player leaving or a dissolve, mid-hand or
    between hands."""
    rng = random.Random(seed)
    match = Match(ruleset, seed=seed)
    states: list[HandState] = []
    ending = rng.choice([None, None, None, "escape", "dissolve"])
    at_hand, at_step = rng.randrange(hands), rng.randrange(150)
    for index in range(hands):
        state = match.start_hand()
        states.append(state)
        steps = 0
        while state.phase is not Phase.ENDED:
            if ending and index == at_hand and steps == at_step:
                match.escape(rng.randrange(4)) if ending == "escape" else match.dissolve()
                return write_record(record_from_match(match, states))
            step(state, lively(rng, legal_actions(state, acting_seat(state))))
            steps += 1
        match.finish_hand(state)
        if ending and index == at_hand:
            match.escape(rng.randrange(4)) if ending == "escape" else match.dissolve()
            break
    return write_record(record_from_match(match, states))


def bot_match(ruleset: RuleSet, seed: int, hands: int) -> dict[str, Any]:
    """A match of the efficiency bots, as `hupai simulate` plays it."""
    match = Match(ruleset, seed=seed)
    players = [make_bot("efficiency", seed * 4 + seat) for seat in range(4)]
    states = []
    for _ in range(hands):
        state = match.start_hand()
        play(state, players)
        match.finish_hand(state)
        states.append(state)
    return write_record(record_from_match(match, states))


# Hands set up for what random play seldom reaches — several wins on one discard, a kong robbed (抢杠),
# 报听 — then played on at random: (rule set, hands, draws from the front, 痞子, moves in short notation).
NJ_DEALER = "11599p1199s12344z"
ES_DEALER = "11599p1199s13579m"
BOTH_WIN = {1: "123m456m789m11s46p", 2: "1235789p234567s"}  # each wins on 5p
ROB = ["0 d 5p", "1 pong", "1 d 1m", "2 t", "3 t", "0 t", "1 kong 5p", "2 hu"]
READY = {1: "123m456p789s11s46m", 2: "234m567p234s55s79m"}
STAGED: list[tuple[str, dict[int, str], str, str, list[str]]] = [
    ("nanjing", {0: NJ_DEALER, **BOTH_WIN}, "", "", ["0 d 5p", "1 hu", "2 hu"]),
    ("nanning", {0: NJ_DEALER, **BOTH_WIN}, "", "", ["0 d 5p", "1 hu", "2 hu"]),
    ("enshi", {0: ES_DEALER, **BOTH_WIN}, "", "8s", ["0 d 5p", "1 hu", "2 hu"]),
    ("nanjing", {0: NJ_DEALER, 1: "3556p1479m258s23z", 2: BOTH_WIN[1]}, "1z2z3z5p", "", ROB),
    ("nanning", {0: NJ_DEALER, 1: "3556p1479m258s23z", 2: BOTH_WIN[1]}, "1z2z3z5p", "", ROB),
    ("enshi", {0: ES_DEALER, 1: "3556p1479m258s18p", 2: BOTH_WIN[1]}, "8m8m8m5p", "8s", ROB),
    # laizi_in_melds: seat 1 chows 234m holding 2m, the 痞子 4m and a 赖子 5m — the 赖子 stands for the
    # 4m and the 痞子 stays in the hand (to be laid later).
    ("enshi", {0: ES_DEALER, 1: "2m4m5m1379p1379s28s"}, "", "4m", ["0 d 3m", "1 chow 2m"]),
    ("nanjing", {0: NJ_DEALER, **READY}, "1z5m", "", ["1 ready", "2 ready", "0 d 1p"]),
    ("nanjing", {0: NJ_DEALER, 1: READY[1]}, "1z5m", "", ["1 ready", "0 d 1p"]),
]


def staged_records() -> Iterator[dict[str, Any]]:
    """Each staged hand under every card of its rule set, with ten fillings of the rest of the tiles,
    played on at random after its moves; the ones the engine plays as written."""
    for name, hands, draws, pizi, moves in STAGED:
        for options in [options for card, options in CARDS if card == name]:
            ruleset = load_ruleset(name, options)
            for filler in range(10):
                rng = random.Random(filler)
                deal, wall = stack_wall(
                    ruleset, dealer=0, hands=hands, draws=draws, pizi=pizi, filler_seed=filler
                )
                state = new_hand(ruleset, dealer=0, deal=deal, wall=wall)
                try:
                    run_moves(state, moves)
                except (IllegalAction, MoveError):
                    continue
                while state.phase is not Phase.ENDED:
                    step(state, lively(rng, legal_actions(state, acting_seat(state))))
                hand = {
                    "dealer": 0,
                    "deal": [format_tiles(tiles) for tiles in deal],
                    "wall": format_tiles(wall),
                    "actions": [action_as_dict(action) for action in state.actions],
                }
                options_written = dict(ruleset.options_dict())
                yield {
                    "format": "hupai-record/1",
                    "ruleset": name,
                    "options": options_written,
                    "hands": [hand],
                }


def without_passes(record: dict[str, Any]) -> dict[str, Any] | None:
    """The record with every pass left out, when the engine still replays it (a pass is needed where the
    next action would otherwise be read as the claim it declined)."""
    twin = copy.deepcopy(record)
    for hand in twin["hands"]:
        hand["actions"] = [action for action in hand["actions"] if action.get("act") != "pass"]
    if twin == record:
        return None
    try:
        replay(read_record(twin))
    except RecordError:
        return None
    return twin


def family_of(record: dict[str, Any]) -> str:
    return load_ruleset(record["ruleset"], record.get("options")).name


def scenario_records() -> Iterator[dict[str, Any]]:
    for path in sorted(SCENARIOS.glob("*/*.json")):
        yield json.loads(path.read_text(encoding="utf-8"))


@dataclass
class Genuine:
    records: list[dict[str, Any]]
    seen: Counter[str]  # how often what moves tiles happened in them


def what_happened(record: dict[str, Any]) -> Counter[str]:
    """What moves tiles, counted over a record as the engine replays it (every record here is genuine:
    the engine replays it, or this raises)."""
    seen: Counter[str] = Counter()
    for hand, state in zip(record["hands"], replay(read_record(record)).states, strict=False):
        seen.update(type(event).__name__ for event in state.events)
        seen["several winners"] += len(state.wins) > 1
        seen["wall ran out"] += state.outcome == "draw"
        seen.update(action["act"] for action in hand["actions"] if action["act"] in ("escape", "dissolve"))
    return seen


@pytest.fixture(scope="module")
def genuine() -> Genuine:
    records: list[dict[str, Any]] = []
    seen: Counter[str] = Counter()
    for number, (name, options) in enumerate(CARDS):
        ruleset = load_ruleset(name, options)
        played = [random_match(ruleset, 1000 * number + seed, 4) for seed in range(30)]
        played += [bot_match(ruleset, 1000 * number + seed, 2) for seed in range(4)]
        records += played
        records += [twin for record in played if (twin := without_passes(record)) is not None]
    staged = list(staged_records())
    records += staged + [twin for record in staged if (twin := without_passes(record)) is not None]
    records += list(scenario_records())
    for record in records:
        seen += what_happened(record)
        seen["without passes"] += bool(record["hands"]) and not any(
            action["act"] == "pass" for hand in record["hands"] for action in hand["actions"]
        )
    return Genuine(records, seen)


# Each at least this often among the genuine records.
COVERED = {
    "FlowerRevealed": 1000,  # Nanjing: in the deal and drawn
    "PiziRevealed": 500,
    "TileLaid": 500,
    "Chowed": 500,
    "Ponged": 500,
    "KongClaimed": 200,
    "KongAdded": 200,
    "ConcealedKongDeclared": 200,
    "KongRobbed": 50,
    "ReadyDeclared": 50,
    "several winners": 30,
    "wall ran out": 500,
    "escape": 50,
    "dissolve": 50,
    "without passes": 100,
}


def test_every_genuine_record_flows(genuine: Genuine, tmp_path: Path) -> None:
    cases = [(family_of(record), record) for record in genuine.records]
    result = run_checker(cases, tmp_path)
    refused = [
        (index, hand, problems)
        for index, checked in enumerate(result["checked"])
        for hand, problems in enumerate(checked)
        if problems
    ]
    assert refused == [], refused[:3]
    hands: dict[str, int] = {}
    for family, record in cases:
        hands[family] = hands.get(family, 0) + len(record["hands"])
    assert min(hands.values()) >= 200, hands
    rare = {what: genuine.seen[what] for what, least in COVERED.items() if genuine.seen[what] < least}
    assert not rare, rare


def test_the_checker_knows_the_option_defaults(tmp_path: Path) -> None:
    """tileflow.js's defaults of the options that move tiles are the rule sets' own."""
    defaults = run_checker([], tmp_path)["defaults"]
    for name, given in defaults.items():
        options = load_ruleset(name).options
        own = {field.name: getattr(options, field.name) for field in fields(options)}
        assert {key: own[key] for key in given} == given, name


# --- tampered copies -----------------------------------------------------------------------------------


@dataclass
class Tampered:
    what: str
    family: str
    record: dict[str, Any]
    action: int  # the index of the action that must be refused, counting from 0 (as hupai verify)
    codes: tuple[str, ...]  # the reasons that fit the tampering
    deal: bool = False  # the deal itself is refused too (a tile short)


def one_hand(
    record: dict[str, Any], index: int, actions: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Hand ``index`` of a record as a record of its own (dealt by its dealer), its actions replaced."""
    hand = record["hands"][index]
    hand = {**hand, "actions": [dict(action) for action in hand["actions"]] if actions is None else actions}
    return {key: value for key, value in record.items() if key not in ("hands", "seed")} | {"hands": [hand]}


def start(ruleset: RuleSet, hand: dict[str, Any]) -> HandState:
    deal = [parse_tiles(tiles) for tiles in hand["deal"]]
    return new_hand(ruleset, dealer=hand["dealer"], deal=deal, wall=parse_tiles(hand["wall"]))


@dataclass
class Step:
    index: int  # 0-based, in the hand's actions
    action: Action
    live: int  # live tiles when it is played
    state: HandState | None  # the state it is played in (kept for the actions asked for)


def trace(
    ruleset: RuleSet, hand: dict[str, Any], keep: frozenset[int] = frozenset()
) -> tuple[list[Step], HandState]:
    """Each playing action of a hand (escapes and dissolves end it) with the live tiles when it is
    played — after, as apply_action does, a window where it is no decision has closed (everyone still
    undecided passed) — and for the actions numbered in ``keep`` the state it is played in; and the
    state at the end."""
    state = start(ruleset, hand)
    steps = []
    for index, written in enumerate(hand["actions"]):
        if written.get("act") in ("escape", "dissolve"):
            break
        action = action_from_dict(written)
        window = state.phase in (Phase.CLAIM, Phase.ROB, Phase.DECLARE)
        if window and action not in legal_actions(state, action.seat):
            close_open_window(state)
        steps.append(Step(index, action, state.live_tiles, state.copy() if index in keep else None))
        apply_action(state, action)
    else:
        close_open_window(state)
    return steps, state


def tamperings(record: dict[str, Any], index: int, rng: random.Random) -> Iterator[Tampered]:
    """Copies of hand ``index`` of a genuine record (as a record of its own) with one thing changed,
    and what must be refused."""
    ruleset = load_ruleset(record["ruleset"], record.get("options"))
    family = ruleset.name
    kinds = sorted(set(ruleset.tile_set()) - {tile for tile in range(42) if ruleset.is_flower(tile)})
    hand = record["hands"][index]
    actions = hand["actions"]
    steps, final = trace(ruleset, hand)
    discards = [played.index for played in steps if isinstance(played.action, Discard)]
    # Claims go after a discard that leaves the hand going (no draw it causes can end it).
    claimed = [played.index for played in steps if isinstance(played.action, Discard) and played.live > 2]
    chosen = rng.choice(discards) if discards else None
    claim_at = rng.choice(claimed) if claimed else None
    if discards:
        steps, final = trace(ruleset, hand, frozenset(at for at in (chosen, claim_at) if at is not None))

    def copied(change: Any) -> dict[str, Any]:
        changed = [dict(action) for action in actions]
        change(changed)
        return one_hand(record, index, changed)

    if chosen is not None:
        played = steps[chosen]
        assert played.state is not None and isinstance(played.action, Discard)
        at, seat, state = played.index, played.action.seat, played.state
        never = format_tiles([rng.choice([kind for kind in kinds if state.seats[seat].counts[kind] == 0])])
        yield Tampered(
            "a discard of a tile the seat does not hold",
            family,
            copied(lambda changed: changed[at].update(tile=never)),
            at,
            ("notHeld",),
        )
        other = (seat + rng.randrange(1, 4)) % 4
        yield Tampered(
            "a discard moved to another seat",
            family,
            copied(lambda changed: changed[at].update(seat=other)),
            at,
            ("notTurn",),
        )
        # A kong, instead of that discard, of a tile the seat holds one to three of, with no pung of it.
        player = state.seats[seat]
        pungs = {meld.tile for meld in player.melds if meld.kind is MeldKind.PUNG}
        some = [kind for kind in kinds if 0 < player.counts[kind] < 4 and kind not in pungs]
        if some:
            kong = {"seat": seat, "act": "kong", "tile": format_tiles([rng.choice(some)])}
            yield Tampered(
                "a kong the seat cannot make",
                family,
                copied(lambda changed: changed.__setitem__(at, kong)),
                at,
                ("ownKong",),
            )
    if claim_at is not None:
        yield from impossible_claims(ruleset, record, index, steps[claim_at], rng)
    if not {action.get("act") for action in actions} & {"escape", "dissolve"}:
        if final.outcome in ("win", "draw"):
            more = {"seat": rng.randrange(4), "act": "discard", "tile": format_tiles([kinds[0]])}
            yield Tampered(
                "an action after the hand ended",
                family,
                copied(lambda changed: changed.append(more)),
                len(actions),
                ("overWin",) if final.outcome == "win" else ("overDraw",),
            )
        shortened = shorten(ruleset, hand, steps, final)
        if shortened is not None:
            wall, at_action = shortened
            short = one_hand(record, index)
            short["hands"][0]["wall"] = wall
            yield Tampered("the wall shortened", family, short, at_action, (), deal=True)


def impossible_claims(
    ruleset: RuleSet, record: dict[str, Any], index: int, played: Step, rng: random.Random
) -> Iterator[Tampered]:
    """A pong, a kong and a chow that the seat's tiles cannot make, right after a discard."""
    actions = record["hands"][index]["actions"]
    assert played.state is not None and isinstance(played.action, Discard)
    after = played.state.copy()
    step(after, played.action)
    assert after.phase is not Phase.ENDED
    at, discarder, tile = played.index, played.action.seat, played.action.tile

    def inserted(claim: dict[str, Any]) -> dict[str, Any]:
        changed = [dict(action) for action in actions]
        changed.insert(at + 1, claim)
        return one_hand(record, index, changed)

    others = [seat for seat in range(4) if seat != discarder and not after.seats[seat].ready]
    for act, enough, code in (("pong", 2, "pong"), ("kong", 3, "claimKong")):
        lacking = [seat for seat in others if after.seats[seat].counts[tile] < enough]
        if lacking:
            claim = {"seat": rng.choice(lacking), "act": act}
            yield Tampered(f"a {act} the seat cannot make", ruleset.name, inserted(claim), at + 1, (code,))
    after_seat = (discarder + 1) % 4
    wildcards = ruleset.chow and getattr(ruleset.options, "laizi_in_melds", False)
    if tile < 27 and after_seat in others and not wildcards:
        counts = after.seats[after_seat].counts
        first = tile - tile % 9
        runs = [low for low in (tile - 2, tile - 1, tile) if low >= first and low + 2 < first + 9]
        short = [
            low for low in runs if any(counts[kind] == 0 for kind in (low, low + 1, low + 2) if kind != tile)
        ]
        if short:
            claim = {"seat": after_seat, "act": "chow", "tile": format_tiles([rng.choice(short)])}
            code = "chow" if ruleset.chow else "noChow"
            yield Tampered("a chow the seat cannot make", ruleset.name, inserted(claim), at + 1, (code,))


def shorten(
    ruleset: RuleSet, hand: dict[str, Any], steps: list[Step], final: HandState
) -> tuple[str, int] | None:
    """For a hand whose wall ran out: its wall without the tile drawn last (every other draw gets its
    tile as before, from the same end), and the index of the first action that tile's absence stops —
    the first played with no live tile left, or a kong or a lay that needs the last one. None where
    that action is a 胡, which the checker takes for a win on the discard before it (it judges no hand)."""
    if final.live_tiles != 0:
        return None
    last = next(event for event in reversed(final.events) if isinstance(event, TileDrawn))
    if last.tile is None or ruleset.is_flower(last.tile):
        return None
    where = final.back + 1 if last.replacement else final.front - 1
    wall = parse_tiles(hand["wall"])
    assert wall[where] == last.tile
    for played in steps:
        if played.live == 0 or (played.live == 1 and isinstance(played.action, Lay | Kong)):
            if isinstance(played.action, Win):
                return None
            return format_tiles(wall[:where] + wall[where + 1 :]), played.index
    return None


def engine_refusal(record: dict[str, Any]) -> str:
    """The engine's words refusing a record (it must refuse it)."""
    try:
        replay(read_record(record))
    except RecordError as refused:
        return str(refused)
    raise AssertionError("the engine replays it")


def test_tampered_records_are_refused_where_the_engine_refuses_them(genuine: Genuine, tmp_path: Path) -> None:
    rng = random.Random(33)
    tampered = [
        case
        for record in genuine.records
        for case in tamperings(record, rng.randrange(len(record["hands"])), rng)
    ]
    result = run_checker([(case.family, case.record) for case in tampered], tmp_path)
    counted: dict[str, int] = {}
    for case, checked in zip(tampered, result["checked"], strict=True):
        counted[case.what] = counted.get(case.what, 0) + 1
        [problems] = checked
        refused = [problem for problem in problems if problem["action"] is not None]
        assert len(refused) == 1, (case.what, problems)
        [problem] = refused
        assert problem["action"] == case.action, (case.what, case.action, problems)
        if case.codes:
            assert problem["code"] in case.codes, (case.what, problem)
        short = any(problem["code"].startswith("tileSet") for problem in problems)
        assert short is case.deal, (case.what, problems)
        # The engine refuses the same record: at the same action, or (a tile short) at the deal.
        words = engine_refusal(case.record)
        if case.deal:
            assert "deal + wall must be exactly" in words, words
        else:
            found = re.match(r"hand 0, action (\d+) ", words)
            assert found and int(found.group(1)) == case.action, (case.what, case.action, words)
            # ... and names it in the same words: its index, and the action as the record writes it.
            named = f"hand 0, action {problem['action']} ({problem['shown']}): "
            assert words.startswith(named), (words, problem)
    assert all(counted.get(what, 0) >= 20 for what in WHAT), counted


WHAT = (
    "a discard of a tile the seat does not hold",
    "a discard moved to another seat",
    "a pong the seat cannot make",
    "a kong the seat cannot make",
    "a chow the seat cannot make",
    "an action after the hand ended",
    "the wall shortened",
)


# --- a 赖子 standing in a chow (Enshi's laizi_in_melds) ---------------------------------------------------


def test_a_chow_with_a_laizi_flows_only_where_the_card_allows_it(tmp_path: Path) -> None:
    """ES-P3 (a chow of 234p with a 赖子 for the 4p the seat lacks) flows in the page's checker, its
    赖子 taken from the hand; the same play on a card without laizi_in_melds is refused at the chow, as
    the engine refuses it. A chow whose run needs the 痞子's kind takes the 赖子 and leaves the 痞子 in
    the hand, to be laid afterwards."""
    record = json.loads((SCENARIOS / "enshi" / "es-p3-laizi-in-a-chow-not-hard.json").read_text("utf-8"))
    strict = copy.deepcopy(record)
    strict["options"]["laizi_in_melds"] = False
    chow_at = next(
        index for index, action in enumerate(record["hands"][0]["actions"]) if action["act"] == "chow"
    )
    # 痞子 4m → 赖子 5m: seat 1 chows 234m holding 2m, the 痞子 and a 赖子, then lays the 痞子.
    ruleset = load_ruleset("enshi", {"laizi_in_melds": True})
    deal, wall = stack_wall(ruleset, dealer=0, hands={0: ES_DEALER, 1: "2m4m5m1379p1379s28s"}, pizi="4m")
    state = new_hand(ruleset, dealer=0, deal=deal, wall=wall)
    run_moves(state, ["0 d 3m", "1 chow 2m", "1 lay 4m", "1 d 8s"])
    [meld] = state.seats[1].melds
    assert (meld.laizi_for, meld.laizi) == (parse_tiles("4m")[0], parse_tiles("5m")[0])
    close_open_window(state)
    while state.phase is not Phase.ENDED:
        step(state, lively(random.Random(len(state.events)), legal_actions(state, acting_seat(state))))
    laid = {
        "format": "hupai-record/1",
        "ruleset": "enshi",
        "options": dict(ruleset.options_dict()),
        "hands": [
            {
                "dealer": 0,
                "deal": [format_tiles(tiles) for tiles in deal],
                "wall": format_tiles(wall),
                "actions": [action_as_dict(action) for action in state.actions],
            }
        ],
    }
    replay(read_record(laid))  # genuine
    checked = run_checker([("enshi", record), ("enshi", strict), ("enshi", laid)], tmp_path)["checked"]
    assert checked[0] == [[]] and checked[2] == [[]], checked
    [[problem]] = checked[1]
    assert (problem["action"], problem["code"]) == (chow_at, "chow"), problem
    assert re.match(rf"hand 0, action {chow_at} ", engine_refusal(strict))
