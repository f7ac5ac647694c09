"""Fair deals (hupai-fair/2, and hupai-fair/1 before it): the worked examples, an independent verifier,
tampered records, the whole game checked (every action against the tiles), the CLI, docs/fairness.md."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hupai.bots import make_bot
from hupai.cli import app
from hupai.game.engine import deal_in_order
from hupai.game.fairness import (
    ALGORITHM_V1,
    ALGORITHM_V2,
    V1_CAVEAT,
    FairDeal,
    FairDealError,
    commitment,
    contribution_or_error,
    fair_order,
    hand_secret,
    new_room_secret,
    room_algorithm,
    shuffle_key,
    wall_hash,
)
from hupai.game.match import Match
from hupai.game.record import RecordError, read_record, record_from_match, write_record
from hupai.replay import HandVerdict, replay, verify_record
from hupai.rules import load_ruleset
from hupai.sim import play_hand
from hupai.tiles import format_tiles, parse_tiles

from .schema_support import schema_error

EXAMPLES = json.loads((Path(__file__).parent / "data" / "fairness" / "examples.json").read_text("utf-8"))
NO_CONTRIBUTIONS = ["", "", "", ""]
DOC = Path(__file__).parent.parent / "docs" / "fairness.md"


# --- an independent verifier, written from docs/fairness.md alone ----------------------------------


def _numbers(key: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        yield from (int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4))
        counter += 1


def _documented_order(
    tiles: list[int], secret: str, contributions: list[str], place: tuple[str, int] | None = None
) -> list[int]:
    """``place`` (room, hand index): hupai-fair/2; without it hupai-fair/1."""
    head = ["hupai-fair/1"] if place is None else ["hupai-fair/2", place[0], str(place[1])]
    key = hashlib.sha256("|".join([*head, secret, *contributions]).encode("ascii")).digest()
    stream, order = _numbers(key), sorted(tiles)
    for i in range(len(order) - 1, 0, -1):
        while (u := next(stream)) >= 2**32 - 2**32 % (i + 1):
            pass
        j = u % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


@pytest.mark.parametrize("example", EXAMPLES["examples"], ids=lambda e: f"{e['ruleset']}-{e['dealer']}")
def test_worked_examples(example: dict[str, Any]) -> None:
    secret, contributions = example["secret"], example["contributions"]
    tiles = load_ruleset(example["ruleset"]).tile_set()
    assert commitment(secret) == example["commitment"]
    assert shuffle_key(secret, contributions).hex() == example["key"]
    order = fair_order(tiles, secret, contributions)
    assert format_tiles(order) == example["order"]
    assert order == _documented_order(tiles, secret, contributions)
    deal, wall = deal_in_order(example["dealer"], order)
    assert [format_tiles(hand) for hand in deal] == example["deal"]
    assert format_tiles(wall) == example["wall"]
    assert wall_hash(secret, order) == example["wall_hash"]


@pytest.mark.parametrize(
    "example", EXAMPLES["examples_v2"], ids=lambda e: f"{e['ruleset']}-{e['room']}-{e['hand']}-{e['dealer']}"
)
def test_worked_examples_v2(example: dict[str, Any]) -> None:
    secret, contributions = example["secret"], example["contributions"]
    room, hand = example["room"], example["hand"]
    tiles = load_ruleset(example["ruleset"], example["options"]).tile_set()
    # The bytes hashed, as docs/fairness.md writes them, and the package's figures from them.
    assert example["commitment_text"] == f"hupai-fair/2|{room}|{hand}|{secret}"
    assert hashlib.sha256(example["commitment_text"].encode("ascii")).hexdigest() == example["commitment"]
    assert commitment(secret, room, hand) == example["commitment"]
    assert example["key_text"] == "|".join(["hupai-fair/2", room, str(hand), secret, *contributions])
    assert hashlib.sha256(example["key_text"].encode("ascii")).hexdigest() == example["key"]
    assert shuffle_key(secret, contributions, room, hand).hex() == example["key"]
    numbers = _numbers(bytes.fromhex(example["key"]))
    assert [next(numbers) for _ in range(3)] == example["first_numbers"]
    order = fair_order(tiles, secret, contributions, room, hand)
    assert format_tiles(order) == example["order"]
    assert order == _documented_order(tiles, secret, contributions, (room, hand))
    deal, wall = deal_in_order(example["dealer"], order)
    assert [format_tiles(tiles) for tiles in deal] == example["deal"]
    assert format_tiles(wall) == example["wall"]
    assert wall_hash(secret, order) == example["wall_hash"]
    fair = FairDeal.make(secret, contributions, order, room, hand)
    assert (fair.algorithm, fair.room, fair.hand, fair.commitment) == (
        ALGORITHM_V2,
        room,
        hand,
        example["commitment"],
    )


def test_hupai_fair_2_ties_the_deal_to_its_room_and_place() -> None:
    """The same secret and contributions deal another wall, under another commitment, in another room or
    at another place in the match; hupai-fair/1 gave the same one anywhere."""
    first, later, elsewhere = EXAMPLES["examples_v2"][:3]
    assert (later["room"], later["hand"]) == (first["room"], first["hand"] + 1)
    assert (elsewhere["room"], elsewhere["hand"]) != (first["room"], first["hand"])
    for other in (later, elsewhere):
        assert other["secret"] == first["secret"] and other["contributions"] == first["contributions"]
        assert other["commitment"] != first["commitment"] and other["key"] != first["key"]
        assert other["order"] != first["order"]
    v1 = EXAMPLES["examples"][0]
    assert v1["secret"] == first["secret"] and v1["contributions"] == first["contributions"]
    assert v1["commitment"] != first["commitment"] and v1["order"] != first["order"]


def test_the_enshi_tile_list_follows_its_options() -> None:
    assert len(load_ruleset("enshi").tile_set()) == 108
    assert len(load_ruleset("enshi", {"honours": True}).tile_set()) == 136
    honours = next(e for e in EXAMPLES["examples_v2"] if e["options"].get("honours"))
    assert "z" in honours["order"] and len(parse_tiles(honours["order"])) == 136


def test_hand_secrets_are_derived_from_the_room_secret() -> None:
    derived = [hand_secret(EXAMPLES["room_secret"], index) for index in range(3)]
    assert derived == EXAMPLES["hand_secrets"]
    assert len(set(derived)) == 3


@settings(max_examples=40)
@given(
    secret=st.binary(min_size=32, max_size=32).map(bytes.hex),
    contributions=st.lists(st.text("0123456789abcdef", max_size=64), min_size=4, max_size=4),
    ruleset=st.sampled_from(["nanjing", "nanning", "enshi"]),
)
def test_the_package_shuffles_as_documented(secret: str, contributions: list[str], ruleset: str) -> None:
    tiles = load_ruleset(ruleset).tile_set()
    order = fair_order(tiles, secret, contributions)
    assert order == _documented_order(tiles, secret, contributions)
    assert sorted(order) == sorted(tiles)
    placed = fair_order(tiles, secret, contributions, "200358", 7)
    assert placed == _documented_order(tiles, secret, contributions, ("200358", 7))
    assert sorted(placed) == sorted(tiles)


def test_every_contribution_changes_the_wall() -> None:
    tiles = load_ruleset("nanning").tile_set()
    secret = "ab" * 32
    base = fair_order(tiles, secret, NO_CONTRIBUTIONS)
    for seat in range(4):
        changed = list(NO_CONTRIBUTIONS)
        changed[seat] = "00"
        assert fair_order(tiles, secret, changed) != base
    assert fair_order(tiles, "ac" + "ab" * 31, NO_CONTRIBUTIONS) != base


def test_first_tiles_are_spread_evenly() -> None:
    """Deterministic (fixed secrets): over 2,700 deals each of Enshi's 27 kinds leads about 100 times."""
    tiles = load_ruleset("enshi").tile_set()
    firsts = Counter(
        fair_order(tiles, hashlib.sha256(str(i).encode()).hexdigest(), NO_CONTRIBUTIONS)[0]
        for i in range(2700)
    )
    chi_square = sum((count - 100) ** 2 / 100 for count in firsts.values()) + 100 * (27 - len(firsts))
    assert chi_square < 60  # 26 degrees of freedom: 60 is beyond the 99.9th percentile


@pytest.mark.parametrize("value", ["ABCD", "xyz", "0" * 65, 7, None])
def test_malformed_contributions_are_refused(value: object) -> None:
    with pytest.raises(FairDealError, match="contribution"):
        contribution_or_error(value)


@pytest.mark.parametrize(("room", "hand"), [("", 0), ("20 35", 0), ("2003|8", 1), (None, 2), ("200358", -1)])
def test_a_place_is_a_room_number_and_a_hand_index(room: str | None, hand: int) -> None:
    with pytest.raises(FairDealError, match=r"room|hand"):
        commitment("00" * 32, room, hand)


def test_new_rooms_deal_with_hupai_fair_2_and_older_ones_go_on_with_hupai_fair_1() -> None:
    """The room's secret says which algorithm it deals with, so a table rebuilt mid-match commits and
    deals exactly as before, and a match begun before hupai-fair/2 stays hupai-fair/1."""
    fresh = [new_room_secret() for _ in range(20)]
    assert len(set(fresh)) == 20
    assert all(len(secret) == 64 and room_algorithm(secret) == ALGORITHM_V2 for secret in fresh)
    assert room_algorithm(EXAMPLES["room_secret"]) == ALGORITHM_V1
    assert room_algorithm("00" * 32) == ALGORITHM_V1
    changed = fresh[0][:10] + ("0" if fresh[0][10] != "0" else "1") + fresh[0][11:]
    assert room_algorithm(changed) == ALGORITHM_V1


# --- records ---------------------------------------------------------------------------------------


def _fair_match_record(ruleset: str = "nanjing", hands: int = 2) -> dict[str, Any]:
    match = Match(load_ruleset(ruleset), seed=3)
    states = []
    for index in range(hands):
        contributions = [f"{index:02x}" * 16, "", "c0ffee", ""]
        state = match.start_hand(
            fair_secret=hand_secret(EXAMPLES["room_secret"], index), contributions=contributions
        )
        play_hand(state, [make_bot("random", index * 4 + seat) for seat in range(4)])
        match.finish_hand(state)
        states.append(state)
    return write_record(record_from_match(match, states))


def _verified(verdicts: list[HandVerdict]) -> list[bool | None]:
    return [verdict.verified for verdict in verdicts]


def test_a_fair_record_round_trips_replays_and_verifies(tmp_path: Path) -> None:
    data = _fair_match_record()
    assert data["hands"][0]["fair"]["contributions"][2] == "c0ffee"
    assert data["hands"][0]["fair"]["algorithm"] == ALGORITHM_V1 and "room" not in data["hands"][0]["fair"]
    record = read_record(data)
    verdicts = verify_record(record)
    assert _verified(verdicts) == [True, True]
    # hupai-fair/1 still verifies, with what it cannot show said in words (not a failure).
    assert all(verdict.problems == [] and verdict.caveats == [V1_CAVEAT] for verdict in verdicts)
    assert [verdict.algorithm for verdict in verdicts] == [ALGORITHM_V1] * 2
    assert write_record(record) == data
    replayed = replay(record)
    assert write_record(record_from_match(replayed.match, replayed.states)) == data


def _tampered(change: str) -> dict[str, Any]:
    data = copy.deepcopy(_fair_match_record())
    hand = data["hands"][1]
    if change == "wall":
        wall = parse_tiles(hand["wall"])
        first_other = next(i for i, tile in enumerate(wall) if tile != wall[0])
        wall[0], wall[first_other] = wall[first_other], wall[0]
        hand["wall"] = format_tiles(wall)
    elif change == "secret":
        hand["fair"]["secret"] = "0" + hand["fair"]["secret"][1:]
    elif change == "contribution":
        hand["fair"]["contributions"][2] = "c0ffef"
    elif change == "commitment":
        hand["fair"]["commitment"] = "f" + hand["fair"]["commitment"][1:]
    return data


@pytest.mark.parametrize(
    ("change", "messages"),
    [
        (  # … and the seat that drew the tile swapped in discards one it no longer holds
            "wall",
            [
                "2 of 144 positions differ, the first at position 54",
                "does not hash to the wall hash",
                "action 1 (",
            ],
        ),
        ("secret", ["does not hash to the commitment", "positions differ", "wall hash"]),
        ("contribution", ["positions differ"]),
        ("commitment", ["does not hash to the commitment"]),
    ],
)
def test_tampered_records_fail_with_what_does_not_match(change: str, messages: list[str]) -> None:
    verdicts = verify_record(read_record(_tampered(change)))
    assert verdicts[0].verified is True and verdicts[0].problems == []
    assert verdicts[1].verified is False and verdicts[1].caveats == [V1_CAVEAT]
    problems = verdicts[1].problems
    assert len(problems) == len(messages)
    for problem, message in zip(problems, messages, strict=True):
        assert message in problem


def test_malformed_fair_objects_are_refused_naming_the_hand() -> None:
    data = _fair_match_record(hands=1)
    data["hands"][0]["fair"]["secret"] = "not hex"
    with pytest.raises(RecordError, match=r"hand 0: 'fair.secret' is 64 lowercase hex digits"):
        read_record(data)
    data["hands"][0]["fair"] = {"algorithm": "hupai-fair/3"}
    with pytest.raises(
        RecordError,
        match=re.escape("hand 0: 'fair.algorithm' is 'hupai-fair/1' or 'hupai-fair/2', not 'hupai-fair/3'"),
    ):
        read_record(data)


# --- hupai-fair/2 records: the whole game checked --------------------------------------------------

ROOM = "200358"


def _v2_record(ruleset: str = "nanning", hands: int = 3) -> dict[str, Any]:
    """A match dealt as a server room deals it (hupai-fair/2), written as GET /api/rooms/<n>/record
    gives it: with the room and the first hand's index."""
    match = Match(load_ruleset(ruleset), seed=5)
    states = []
    for index in range(hands):
        state = match.start_hand(
            fair_secret=hand_secret(EXAMPLES["room_secret"], index),
            contributions=[f"{index:02x}" * 16, "", "c0ffee", ""],
            fair_room=ROOM,
            fair_hand=index,
        )
        play_hand(state, [make_bot("random", index * 4 + seat) for seat in range(4)])
        match.finish_hand(state)
        states.append(state)
    data = write_record(record_from_match(match, states))
    data["room"], data["hand_index"] = ROOM, 0
    return data


V2_RECORD = _v2_record()


def test_a_hupai_fair_2_record_verifies_hand_by_hand_with_no_caveat() -> None:
    fair = V2_RECORD["hands"][1]["fair"]
    assert list(fair) == ["algorithm", "room", "hand", "commitment", "wall_hash", "secret", "contributions"]
    assert (fair["algorithm"], fair["room"], fair["hand"]) == (ALGORITHM_V2, ROOM, 1)
    assert fair["commitment"] == commitment(fair["secret"], ROOM, 1)
    record = read_record(V2_RECORD)
    verdicts = verify_record(record)
    assert [(v.index, v.verified, v.problems, v.caveats) for v in verdicts] == [
        (index, True, [], []) for index in range(3)
    ]
    assert write_record(record) == V2_RECORD  # room and hand read and written back
    assert schema_error(V2_RECORD, "record") is None


def test_a_one_hand_record_is_placed_by_its_hand_index() -> None:
    """A server's one-hand record (GET /api/rooms/<n>/hands/<i>/record) names the hand's index."""
    alone = copy.deepcopy(V2_RECORD)
    alone["hands"], alone["hand_index"] = [alone["hands"][1]], 1
    assert _verified(verify_record(read_record(alone))) == [True]
    assert verify_record(read_record(alone))[0].index == 1
    alone["hand_index"] = 2  # served as another hand of the match
    (verdict,) = verify_record(read_record(alone))
    assert verdict.verified is False
    assert verdict.problems == [
        "the hand was dealt as hand index 1 (第2局) of its match, but it stands at index 2 (第3局) in this "
        "record"
    ]


def _first_discard(hand: dict[str, Any]) -> dict[str, Any]:
    action: dict[str, Any] = hand["actions"][0]
    assert action["act"] == "discard" and action["seat"] == hand["dealer"]
    return action


def _never_held(data: dict[str, Any]) -> None:
    """The dealer's first discard made a tile it never held (nothing was drawn before it)."""
    hand = data["hands"][1]
    held = set(parse_tiles(hand["deal"][hand["dealer"]]))
    _first_discard(hand)["tile"] = format_tiles([next(t for t in range(34) if t not in held)])


def _other_seat(data: dict[str, Any]) -> None:
    """The dealer's first discard, written as the next seat's."""
    hand = data["hands"][1]
    _first_discard(hand)["seat"] = (hand["dealer"] + 1) % 4


def _impossible_pong(data: dict[str, Any]) -> None:
    """A pong of the first discard by a seat that holds fewer than two of it (before its first draw)."""
    hand = data["hands"][1]
    tile = parse_tiles(_first_discard(hand)["tile"])[0]
    seat = next(
        seat
        for seat in range(4)
        if seat != hand["dealer"] and parse_tiles(hand["deal"][seat]).count(tile) < 2
    )
    hand["actions"].insert(1, {"seat": seat, "act": "pong"})


def _swapped_wall_tile(data: dict[str, Any]) -> None:
    hand = data["hands"][1]
    wall = parse_tiles(hand["wall"])
    other = next(i for i, tile in enumerate(wall) if tile != wall[0])
    wall[0], wall[other] = wall[other], wall[0]
    hand["wall"] = format_tiles(wall)


def _set(path: str, value: Any) -> Any:
    """A change of one value: ``"room"`` at the top, ``"1.fair.secret"`` in hand 1's ``fair`` …"""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        if parents:
            target = data["hands"][int(parents[0])]
            for name in parents[1:]:
                target = target[name]
        target[int(last) if last.isdigit() else last] = value(target[int(last) if last.isdigit() else last])

    return change


def _swap_hands(data: dict[str, Any]) -> None:
    data["hands"][0], data["hands"][1] = data["hands"][1], data["hands"][0]


def _repeat_hand(data: dict[str, Any]) -> None:
    data["hands"].append(copy.deepcopy(data["hands"][0]))


def _without_fair(hand: int) -> Any:
    def change(data: dict[str, Any]) -> None:
        del data["hands"][hand]["fair"]

    return change


def _flip(text: str) -> str:
    return ("1" if text[0] != "1" else "2") + text[1:]


INDEX = "the hand was dealt as hand index"
# (what is changed, how, and per hand of the changed record: the problems' beginnings, in order)
V2_TAMPERED: list[tuple[str, Any, dict[int, list[str]]]] = [
    (
        "another room",
        _set("room", lambda _: "200359"),
        {
            index: ["the hand was dealt for room 200358, not for this record's room 200359"]
            for index in range(3)
        },
    ),
    ("no room", _set("room", lambda _: None), {index: ["the record names no room"] for index in range(3)}),
    (
        "another hand index",
        _set("hand_index", lambda _: 1),
        {
            1: [f"{INDEX} 0 (第1局) of its match, but it stands at index 1 (第2局)"],
            2: [f"{INDEX} 1 (第2局) of its match, but it stands at index 2 (第3局)"],
            3: [f"{INDEX} 2 (第3局) of its match, but it stands at index 3 (第4局)"],
        },
    ),
    (
        "two hands swapped",
        _swap_hands,
        {
            0: [f"{INDEX} 1 (第2局)"],
            1: [
                f"{INDEX} 0 (第1局)",
                "the hands are out of order: hand index 0 follows hand index 1",
                "the dealer is seat 0 in the record, but the rules give seat 2 (hand 0, dealt by seat 2,",
            ],
        },
    ),
    (
        "a hand repeated",
        _repeat_hand,
        {
            3: [
                f"{INDEX} 0 (第1局) of its match, but it stands at index 3 (第4局)",
                "the hands are out of order: hand index 0 follows hand index 2",
                "the commitment is the one of hand index 0 (第1局): a hand is repeated",
                "the secret is the one of hand index 0 (第1局): a hand is repeated",
                "the dealer is seat 0 in the record, but the rules give seat 1 (hand 2, dealt by seat 2,",
            ],
        },
    ),
    ("a hand's fair data removed", _without_fair(1), {1: ["the hand has no 'fair': the record's other"]}),
    ("the first hand's fair data removed", _without_fair(0), {0: ["the hand has no 'fair'"]}),
    ("a discard of a tile never held", _never_held, {1: ["action 0 ({"]}),
    ("an action moved to another seat", _other_seat, {1: ["action 0 ({"]}),
    (
        "an impossible pong",
        _impossible_pong,
        {1: ['action 1 ({"seat": 0, "act": "pong"}): seat 0 cannot pong 6s']},
    ),
    (
        "a contribution",
        _set("1.fair.contributions.2", lambda _: "c0ffef"),
        {1: ["the deal and wall are not the ones the secret and contributions give"]},
    ),
    (
        "the secret",
        _set("1.fair.secret", _flip),
        {
            1: [
                "the secret does not hash to the commitment",
                "the deal and wall are not the ones",
                "the wall played does not hash to the wall hash",
            ]
        },
    ),
    ("the commitment", _set("1.fair.commitment", _flip), {1: ["the secret does not hash to the commitment"]}),
    (
        "the wall hash",
        _set("1.fair.wall_hash", _flip),
        {1: ["the wall played does not hash to the wall hash"]},
    ),
    (
        "a wall tile swapped",  # … and the seat that drew 7z for 1s discards the 1s it does not hold
        _swapped_wall_tile,
        {
            1: [
                "the deal and wall are not the ones",
                "the wall played does not hash to the wall hash",
                'action 9 ({"seat": 3, "act": "discard", "tile": "1s"}): seat 3 does not hold',
            ]
        },
    ),
]


@pytest.mark.parametrize(("change", "tamper", "expected"), V2_TAMPERED, ids=[case[0] for case in V2_TAMPERED])
def test_tampered_hupai_fair_2_records_fail_with_the_reason(
    change: str, tamper: Any, expected: dict[int, list[str]]
) -> None:
    data = copy.deepcopy(V2_RECORD)
    tamper(data)
    verdicts = verify_record(read_record(data))  # never raises: what is wrong is said per hand
    for verdict in verdicts:
        beginnings = expected.get(verdict.index)
        if beginnings is None:  # the hands not changed still verify
            assert (verdict.verified, verdict.problems) == (True, []), (change, verdict)
            continue
        assert verdict.verified is False, (change, verdict)
        assert len(verdict.problems) == len(beginnings), (change, verdict.problems)
        for problem, beginning in zip(verdict.problems, beginnings, strict=True):
            assert problem.startswith(beginning), (change, problem)


def test_a_discard_never_held_names_the_action_and_what_was_wrong() -> None:
    data = copy.deepcopy(V2_RECORD)
    _never_held(data)
    tile = data["hands"][1]["actions"][0]["tile"]
    (problem,) = verify_record(read_record(data))[1].problems
    assert problem.startswith(
        f'action 0 ({{"seat": {data["hands"][1]["dealer"]}, "act": "discard", "tile": "{tile}"}}): '
    )
    assert tile in problem.split("): ", 1)[1]


def test_hupai_fair_1_hands_are_not_checked_for_their_room_and_place() -> None:
    """hupai-fair/1 binds neither: a v1 hand anywhere verifies, with the caveat that says so."""
    data = _fair_match_record()
    data["room"], data["hand_index"] = "200359", 5
    data["hands"].append(copy.deepcopy(data["hands"][0]))  # repeated: the dealer may differ
    verdicts = verify_record(read_record(data))
    assert all(V1_CAVEAT in verdict.caveats for verdict in verdicts)
    assert [verdict.index for verdict in verdicts] == [5, 6, 7]
    assert verdicts[0].verified is True and verdicts[1].verified is True
    assert all("dealer" in problem for problem in verdicts[2].problems)


def test_fair_facts_are_the_ones_the_match_dealt() -> None:
    match = Match(load_ruleset("enshi"))
    state = match.start_hand(fair_secret="11" * 32, contributions=["aa", "", "", ""])
    assert isinstance(state.fair, FairDeal)
    again = Match(load_ruleset("enshi")).start_hand(fair_secret="11" * 32, contributions=["aa", "", "", ""])
    assert again.deal == state.deal and again.wall == state.wall


# --- hupai verify ----------------------------------------------------------------------------------

runner = CliRunner()


def test_verify_says_each_hand_is_verified(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_fair_match_record(), ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.count("verified") == 2
    assert "第2局 hand 2" in result.output
    as_json = json.loads(runner.invoke(app, ["verify", str(path), "--json"]).output)
    assert as_json["verified"] is True and [hand["verified"] for hand in as_json["hands"]] == [True, True]


def test_verify_names_what_does_not_match(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_tampered("wall"), ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)], terminal_width=200)
    assert result.exit_code == 1
    assert "hand 1: 已验证 verified" in result.output
    assert "hand 2: 不符 NOT verified" in result.output
    assert "first at position 54 of the dealing order" in result.output


def test_verify_gives_each_hand_its_verdict_reasons_and_caveats(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(V2_RECORD, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert result.output.count("已验证 verified (hupai-fair/2)") == 3 and "note" not in result.output
    # A discard of a tile never held: that hand is not verified, with the action and the reason.
    broken = copy.deepcopy(V2_RECORD)
    _never_held(broken)
    path.write_text(json.dumps(broken, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)], terminal_width=200)
    assert result.exit_code == 1
    assert "第2局 hand 2: 不符 NOT verified" in result.output
    assert '- action 0 ({"seat": ' in result.output and "does not hold" in result.output
    as_json = json.loads(runner.invoke(app, ["verify", str(path), "--json"]).output)
    assert as_json["verified"] is False
    assert [hand["verified"] for hand in as_json["hands"]] == [True, False, True]
    assert as_json["hands"][1]["problems"][0].startswith("action 0 (")
    assert as_json["hands"][1]["algorithm"] == "hupai-fair/2" and as_json["hands"][1]["caveats"] == []
    # hupai-fair/1 hands verify, with the caveat in words.
    path.write_text(json.dumps(_fair_match_record(), ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)], terminal_width=300)
    assert result.exit_code == 0
    assert result.output.count(f"note: {V1_CAVEAT}") == 2
    as_json = json.loads(runner.invoke(app, ["verify", str(path), "--json"]).output)
    assert [hand["caveats"] for hand in as_json["hands"]] == [[V1_CAVEAT]] * 2


def test_verify_a_record_without_fair_deals_is_not_verifiable(tmp_path: Path) -> None:
    """Not verifiable is neither verified (0) nor failed (1): it has its own exit status."""
    shipped = next((Path(__file__).parent / "data" / "records").rglob("*.json"))
    result = runner.invoke(app, ["verify", str(shipped)])
    assert result.exit_code == 3
    assert "not verifiable" in result.output
    as_json = json.loads(runner.invoke(app, ["verify", str(shipped), "--json"]).output)
    assert as_json["verified"] is None and {hand["verified"] for hand in as_json["hands"]} == {None}


@pytest.mark.parametrize("ruleset", ["nanjing", "nanning", "enshi"])
def test_verify_refuses_a_hupai_fair_2_match_with_a_hand_stripped_of_its_fair_data(
    ruleset: str, tmp_path: Path
) -> None:
    """A hupai-fair/2 room deals every hand fairly: a hand without its fair data was stripped of it,
    and the record fails (whichever hand it is), where a record with no fair data at all is only
    not verifiable."""
    data = _v2_record(ruleset, hands=4)
    path = tmp_path / "game.json"
    for stripped in range(4):
        tampered = copy.deepcopy(data)
        del tampered["hands"][stripped]["fair"]
        path.write_text(json.dumps(tampered, ensure_ascii=False), encoding="utf-8")
        result = runner.invoke(app, ["verify", str(path), "--json"])
        assert result.exit_code == 1, result.output
        verdicts = json.loads(result.output)
        assert verdicts["verified"] is False
        assert [hand["verified"] for hand in verdicts["hands"]] == [index != stripped for index in range(4)]
        assert "hupai-fair/2, which deals every hand" in verdicts["hands"][stripped]["problems"][0]
    for hand in data["hands"]:
        del hand["fair"]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert runner.invoke(app, ["verify", str(path)]).exit_code == 3


def test_a_fair_record_matches_the_published_schema() -> None:
    assert schema_error(_fair_match_record(), "record") is None
    data = _fair_match_record(hands=1)
    data["hands"][0]["fair"]["contributions"][0] = "XYZ"
    assert schema_error(data, "record") is not None


# --- docs/fairness.md --------------------------------------------------------------------------------


def test_the_page_is_a_verifier_without_hupai_and_shows_the_examples_figures() -> None:
    """docs/fairness.md's doctests run with the other docs; here: they use nothing of hupai, and the
    figures they print are the ones of the examples the package is held to."""
    page = DOC.read_text("utf-8")
    assert "import hupai" not in page and "from hupai" not in page
    assert page.startswith("# Fair deals: `hupai-fair/2` (and `/1`)\n")
    assert "\n## Checking the actions\n" in page and "\n### 3. Each action, in order\n" in page
    assert "<!--" not in page  # the tile flow is merged in, no marker left
    v2, v1 = EXAMPLES["examples_v2"][0], EXAMPLES["examples"][0]
    assert (v2["ruleset"], v2["dealer"], v2["room"], v2["hand"]) == ("nanning", 0, "200358", 2)
    for figure in (v2["commitment_text"], v2["commitment"], v2["key"], v2["wall_hash"], *v2["deal"][:2]):
        assert f"'{figure}'" in page, figure
    assert str(v2["first_numbers"]) in page
    dealt = parse_tiles(v2["order"])
    for tiles in (dealt[:14], dealt[14:27], dealt[53:63]):
        assert "'" + " ".join(format_tiles([tile]) for tile in tiles) + "'" in page
    for figure in (v1["commitment"], v1["key"], v1["wall_hash"], v1["deal"][0]):
        assert f"'{figure}'" in page, figure
    assert V1_CAVEAT in " ".join(page.split())
