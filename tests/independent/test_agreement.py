"""The independent verifier (verifier.py, written from the documentation alone) and ``hupai verify``
(``hupai.replay.verify_record``) agree, hand by hand, on genuine fair-deal records of all three rule
sets and on tampered copies of them."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hupai.bots import make_bot
from hupai.game.fairness import hand_secret
from hupai.game.match import Match
from hupai.game.record import read_record, record_from_match, write_record
from hupai.replay import verify_record
from hupai.rules import load_ruleset
from hupai.sim import play_hand

from . import verifier

Record = dict[str, Any]
EXAMPLES = json.loads(
    (Path(__file__).parent.parent / "data" / "fairness" / "examples.json").read_text("utf-8")
)
ROOM_SECRET = "c3" * 32


def _match_record(
    ruleset: str,
    options: dict[str, Any],
    *,
    v2: bool,
    hands: int,
    seed: int,
    bot: str,
    room: str,
    secret_of: Callable[[int], int] = lambda index: index,
) -> Record:
    """A match dealt as a server room deals it: every hand from a secret and four contributions,
    played by bots; for hupai-fair/2 with the room and each hand's index, written with the record's
    ``room`` and ``hand_index`` as ``GET /api/rooms/<n>/record`` gives it."""
    match = Match(load_ruleset(ruleset, options), seed=seed)
    states = []
    for index in range(hands):
        place: dict[str, Any] = {"fair_room": room, "fair_hand": index} if v2 else {}
        state = match.start_hand(
            fair_secret=hand_secret(ROOM_SECRET, seed * 100 + secret_of(index)),
            contributions=[f"{index:02x}" * 16, "", "c0ffee", "7" if seed % 2 else ""],
            **place,
        )
        bots = [make_bot(bot, seed * 1000 + index * 4 + seat) for seat in range(4)]
        play_hand(state, bots)  # hupai.sim's invariants checked after every step
        match.finish_hand(state)
        states.append(state)
    data: Record = write_record(record_from_match(match, states))
    if v2:
        data["room"], data["hand_index"] = room, 0
    return data


# (rule set, options, hupai-fair/2?, hands, seed, bot level)
GENUINE_CASES: list[tuple[str, dict[str, Any], bool, int, int, str]] = [
    ("nanjing", {}, True, 4, 1, "efficiency"),
    ("nanjing", {}, False, 3, 2, "random"),
    ("nanjing", {"dihu_allow_kong_same_waits": True}, True, 4, 3, "random"),
    ("nanning", {}, True, 4, 4, "efficiency"),
    ("nanning", {}, False, 3, 5, "random"),
    ("nanning", {"fishing": "s000_predraw"}, True, 4, 6, "random"),
    ("enshi", {}, True, 4, 7, "efficiency"),
    ("enshi", {}, False, 3, 8, "random"),
    ("enshi", {"honours": True, "laizi_in_melds": True}, True, 4, 3, "random"),
    ("enshi", {"pizi_flip": "front", "forbid_keeping_pizi": True, "honours": True}, True, 3, 10, "random"),
]
GENUINE: list[Record] = [
    _match_record(ruleset, options, v2=v2, hands=hands, seed=seed, bot=bot, room=f"{seed:06d}")
    for ruleset, options, v2, hands, seed, bot in GENUINE_CASES
]


def _verdicts(data: Record) -> tuple[list[bool | None], list[bool | None]]:
    """Per hand: (the independent verifier's verdicts, hupai verify's)."""
    mine = [hand["verified"] for hand in verifier.verify(copy.deepcopy(data))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = [verdict.verified for verdict in verify_record(read_record(copy.deepcopy(data)))]
    return mine, theirs


# --- the documented figures ----------------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES["examples_v2"] + EXAMPLES["examples"])
def test_the_verifier_reproduces_the_project_s_worked_examples(example: dict[str, Any]) -> None:
    options = example.get("options", {})
    secret, contributions = example["secret"], example["contributions"]
    if "room" in example:
        room, hand = example["room"], example["hand"]
        assert verifier.commitment_v2(room, hand, secret) == example["commitment"]
        key = verifier.key_v2(room, hand, secret, contributions)
    else:
        assert verifier.commitment_v1(secret) == example["commitment"]
        key = verifier.key_v1(secret, contributions)
    assert key.hex() == example["key"]
    order = verifier.dealing_order(verifier.tile_list(example["ruleset"], options), key)
    assert verifier.write_notation(order) == example["order"]
    dealer = example["dealer"]
    assert [verifier.write_notation(order[:14])] == [example["deal"][dealer]]
    assert verifier.wall_hash(secret, order) == example["wall_hash"]


# --- genuine records ---------------------------------------------------------------------------------


def test_genuine_records_cover_every_rule_set_and_both_algorithms() -> None:
    per_ruleset: dict[str, int] = {}
    for data in GENUINE:
        per_ruleset[data["ruleset"]] = per_ruleset.get(data["ruleset"], 0) + len(data["hands"])
    assert sorted(per_ruleset) == ["enshi", "nanjing", "nanning"]
    assert all(count >= 10 for count in per_ruleset.values())
    assert sum(per_ruleset.values()) >= 30
    algorithms = {hand["fair"]["algorithm"] for data in GENUINE for hand in data["hands"]}
    assert algorithms == {"hupai-fair/1", "hupai-fair/2"}
    acts = {action["act"] for data in GENUINE for hand in data["hands"] for action in hand["actions"]}
    assert {"discard", "pass", "pong", "kong", "chow", "lay", "hu"} <= acts


@pytest.mark.parametrize(
    "data", GENUINE, ids=[f"{c[0]}-{'v2' if c[2] else 'v1'}-{c[4]}" for c in GENUINE_CASES]
)
def test_genuine_records_verify_in_both(data: Record) -> None:
    mine, theirs = _verdicts(data)
    assert mine == theirs == [True] * len(data["hands"])


# --- tampered records --------------------------------------------------------------------------------


def _flip_hex(text: str) -> str:
    return ("1" if text[0] != "1" else "2") + text[1:]


def _tiles(text: str) -> list[str]:
    return verifier.read_notation(text)


def _set_fair(field: str, change: Callable[[Any], Any], hand: int = 1) -> Callable[[Record], None]:
    def tamper(data: Record) -> None:
        fair = data["hands"][hand]["fair"]
        fair[field] = change(fair[field])

    return tamper


def _change_contribution(data: Record) -> None:
    data["hands"][1]["fair"]["contributions"][1] = "ab"


def _swap_wall_tile(data: Record) -> None:
    hand = data["hands"][1]
    wall = _tiles(hand["wall"])
    other = next(i for i, tile in enumerate(wall) if tile != wall[0])
    wall[0], wall[other] = wall[other], wall[0]
    hand["wall"] = verifier.write_notation(wall)


def _swap_between_deals(data: Record) -> None:
    """One tile of seat 1's deal and a different one of seat 2's change places."""
    hand = data["hands"][1]
    one, two = _tiles(hand["deal"][1]), _tiles(hand["deal"][2])
    i, j = next((i, j) for i in range(len(one)) for j in range(len(two)) if one[i] != two[j])
    one[i], two[j] = two[j], one[i]
    hand["deal"][1], hand["deal"][2] = verifier.write_notation(one), verifier.write_notation(two)


def _set_top(field: str, value: Any) -> Callable[[Record], None]:
    def tamper(data: Record) -> None:
        data[field] = value

    return tamper


def _drop_room(data: Record) -> None:
    del data["room"]


def _swap_hands(data: Record) -> None:
    data["hands"][0], data["hands"][1] = data["hands"][1], data["hands"][0]


def _repeat_last_hand(data: Record) -> None:
    data["hands"].append(copy.deepcopy(data["hands"][-1]))


def _repeat_first_hand_in_place(data: Record) -> None:
    data["hands"].insert(1, copy.deepcopy(data["hands"][0]))


def _first_discard(hand: dict[str, Any]) -> dict[str, Any]:
    action: dict[str, Any] = next(a for a in hand["actions"] if a["act"] == "discard")
    return action


def _never_held(data: Record) -> None:
    """The first discard is of a kind the seat was not dealt and that is nowhere near the wall's back
    (where replacements come from), nor a flower."""
    hand = data["hands"][1]
    action = _first_discard(hand)
    near_back = set(_tiles(hand["wall"])[-24:])
    held = set(_tiles(hand["deal"][action["seat"]]))
    candidates = [t for t in verifier.SUITED if t not in held and t not in near_back]
    index = hand["actions"].index(action)
    drawn_before = index > 0  # drawn tiles come from the front: avoid those too
    if drawn_before:
        front = set(_tiles(hand["wall"])[: index + 1])
        candidates = [t for t in candidates if t not in front]
    action["tile"] = candidates[0]


def _other_seat(data: Record) -> None:
    action = _first_discard(data["hands"][1])
    action["seat"] = (action["seat"] + 1) % 4


def _impossible_pong(data: Record) -> None:
    """A pong of the first discard by a seat that was dealt none of it (before anybody drew)."""
    hand = data["hands"][1]
    action = _first_discard(hand)
    assert hand["actions"].index(action) == next(
        i for i, a in enumerate(hand["actions"]) if a["act"] not in ("pass", "ready", "lay")
    )
    back = _tiles(hand["wall"])[-24:]
    seat = next(
        seat
        for seat in range(4)
        if seat != action["seat"]
        and _tiles(hand["deal"][seat]).count(action["tile"]) + back.count(action["tile"]) < 2
    )
    hand["actions"].insert(hand["actions"].index(action) + 1, {"seat": seat, "act": "pong"})


def _fair_data_removed(data: Record) -> None:
    """One hand's fair object removed, as if it had been dealt from a seed."""
    del data["hands"][1]["fair"]


def _escape_then_play_on(data: Record) -> None:
    """Seat 2 leaves in hand 0; hand 0's next actions and every later hand must not follow."""
    data["hands"][0]["actions"].insert(3, {"seat": 2, "act": "escape"})


def _dissolve_then_play_on(data: Record) -> None:
    data["hands"][0]["actions"].insert(2, {"act": "dissolve"})


def _cut_short(data: Record) -> None:
    """The last hand stops halfway, before it is over."""
    actions = data["hands"][-1]["actions"]
    del actions[len(actions) // 2 :]


TAMPERS: dict[str, Callable[[Record], None]] = {
    "secret": _set_fair("secret", _flip_hex),
    "commitment": _set_fair("commitment", _flip_hex),
    "contribution": _change_contribution,
    "wall hash": _set_fair("wall_hash", _flip_hex),
    "swapped wall tile": _swap_wall_tile,
    "tiles swapped between deals": _swap_between_deals,
    "wrong room": _set_top("room", "999999"),
    "fair room": _set_fair("room", lambda _: "999999"),
    "no room": _drop_room,
    "wrong hand index": _set_top("hand_index", 1),
    "fair hand index": _set_fair("hand", lambda value: value + 1),
    "two hands swapped": _swap_hands,
    "last hand repeated": _repeat_last_hand,
    "first hand repeated in place": _repeat_first_hand_in_place,
    "discard never held": _never_held,
    "fair data removed": _fair_data_removed,
    "discard by another seat": _other_seat,
    "impossible pong": _impossible_pong,
    "escape then play": _escape_then_play_on,
    "dissolve then play": _dissolve_then_play_on,
    "cut short": _cut_short,
}
# The hupai-fair/2 records tampered with: one of each rule set (GENUINE_CASES' order).
TAMPER_BASES = {"nanjing": GENUINE[0], "nanning": GENUINE[3], "enshi": GENUINE[6]}
# hupai-fair/1 records take the deal tampers (they have no room or index to change).
V1_TAMPERS = ["secret", "commitment", "contribution", "wall hash", "swapped wall tile", "discard never held"]
V1_BASES = {"nanjing": GENUINE[1], "nanning": GENUINE[4], "enshi": GENUINE[7]}

TAMPERED_CASES = [(ruleset, name) for ruleset in TAMPER_BASES for name in TAMPERS] + [
    (f"{ruleset}-v1", name) for ruleset in V1_BASES for name in V1_TAMPERS
]


def _tampered(ruleset: str, name: str) -> Record:
    bases = V1_BASES if ruleset.endswith("-v1") else TAMPER_BASES
    data = copy.deepcopy(bases[ruleset.removesuffix("-v1")])
    TAMPERS[name](data)
    return data


def test_there_are_enough_tampered_records() -> None:
    assert len(TAMPERED_CASES) >= 24


@pytest.mark.parametrize(("ruleset", "name"), TAMPERED_CASES, ids=[f"{r}: {n}" for r, n in TAMPERED_CASES])
def test_tampered_records_are_refused_alike(ruleset: str, name: str) -> None:
    mine, theirs = _verdicts(_tampered(ruleset, name))
    assert mine == theirs
    assert False in theirs  # the tamper took


def test_a_secret_used_twice_fails_the_later_hand_only() -> None:
    """A server that deals hand 1 from hand 0's secret: each commitment is right (it names the hand's
    index), so only the uniqueness of secrets catches it."""
    data = _match_record(
        "nanning",
        {},
        v2=True,
        hands=3,
        seed=11,
        bot="random",
        room="000011",
        secret_of=lambda i: 0 if i < 2 else i,
    )
    assert data["hands"][0]["fair"]["secret"] == data["hands"][1]["fair"]["secret"]
    mine, theirs = _verdicts(data)
    assert mine == theirs == [True, False, True]


def test_a_one_hand_record_stands_at_its_hand_index() -> None:
    alone = copy.deepcopy(GENUINE[3])
    alone["hands"], alone["hand_index"] = [alone["hands"][2]], 2
    assert _verdicts(alone) == ([True], [True])
    alone["hand_index"] = 1
    assert _verdicts(alone) == ([False], [False])


def _without_fair(data: Record) -> Record:
    bare = copy.deepcopy(data)
    for hand in bare["hands"]:
        del hand["fair"]
    return bare


def test_hands_without_fair_data_are_not_verifiable_in_both() -> None:
    for data in (GENUINE[0], GENUINE[4], GENUINE[7]):
        bare = _without_fair(data)
        assert _verdicts(bare) == ([None] * len(bare["hands"]), [None] * len(bare["hands"]))


def test_a_hand_without_fair_data_whose_actions_fail() -> None:
    bare = _without_fair(GENUINE[3])
    _other_seat(bare)
    mine, theirs = _verdicts(bare)
    assert mine == theirs and False in mine


# --- the command line ----------------------------------------------------------------------------------


def test_the_command_line(tmp_path: Path) -> None:
    script = Path(verifier.__file__)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(GENUINE[0], ensure_ascii=False), "utf-8")
    bad.write_text(json.dumps(_tampered("nanjing", "swapped wall tile"), ensure_ascii=False), "utf-8")
    ran = subprocess.run(
        [sys.executable, str(script), str(good)], capture_output=True, text=True, check=False
    )
    assert ran.returncode == 0 and ran.stdout.count(": verified") == len(GENUINE[0]["hands"])
    ran = subprocess.run([sys.executable, str(script), str(bad)], capture_output=True, text=True, check=False)
    assert ran.returncode == 1 and "NOT verified" in ran.stdout


def test_the_verifier_stands_on_the_documentation_alone() -> None:
    """It imports the standard library only: nothing of hupai reaches it but the records."""
    source = Path(verifier.__file__).read_text("utf-8")
    imported = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert imported and not [line for line in imported if "hupai" in line], imported
