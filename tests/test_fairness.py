"""Fair deals (hupai-fair/1): the worked examples, an independent verifier, tampered records, the CLI."""

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
    FairDeal,
    FairDealError,
    commitment,
    contribution_or_error,
    fair_order,
    hand_secret,
    shuffle_key,
    wall_hash,
)
from hupai.game.match import Match
from hupai.game.record import RecordError, read_record, record_from_match, write_record
from hupai.replay import replay, verify_record
from hupai.rules import load_ruleset
from hupai.sim import play_hand
from hupai.tiles import format_tiles, parse_tiles

from .schema_support import schema_error

EXAMPLES = json.loads((Path(__file__).parent / "data" / "fairness" / "examples.json").read_text("utf-8"))
NO_CONTRIBUTIONS = ["", "", "", ""]


# --- an independent verifier, written from docs/fairness.md alone ----------------------------------


def _numbers(key: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        yield from (int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4))
        counter += 1


def _documented_order(tiles: list[int], secret: str, contributions: list[str]) -> list[int]:
    key = hashlib.sha256("|".join(["hupai-fair/1", secret, *contributions]).encode()).digest()
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


def test_hand_secrets_are_derived_from_the_room_secret() -> None:
    derived = [hand_secret(EXAMPLES["room_secret"], index) for index in range(3)]
    assert derived == EXAMPLES["hand_secrets"]
    assert len(set(derived)) == 3


@settings(max_examples=40, deadline=None)
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


def test_a_fair_record_round_trips_replays_and_verifies(tmp_path: Path) -> None:
    data = _fair_match_record()
    assert data["hands"][0]["fair"]["contributions"][2] == "c0ffee"
    record = read_record(data)
    assert verify_record(record) == [[], []]
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
        ("wall", ["2 of 144 positions differ, the first at position 54", "does not hash to the wall hash"]),
        ("secret", ["does not hash to the commitment", "positions differ", "wall hash"]),
        ("contribution", ["positions differ"]),
        ("commitment", ["does not hash to the commitment"]),
    ],
)
def test_tampered_records_fail_with_what_does_not_match(change: str, messages: list[str]) -> None:
    verdicts = verify_record(read_record(_tampered(change)))
    assert verdicts[0] == []
    problems = verdicts[1]
    assert problems is not None and len(problems) == len(messages)
    for problem, message in zip(problems, messages, strict=True):
        assert message in problem


def test_malformed_fair_objects_are_refused_naming_the_hand() -> None:
    data = _fair_match_record(hands=1)
    data["hands"][0]["fair"]["secret"] = "not hex"
    with pytest.raises(RecordError, match=r"hand 0: 'fair.secret' is 64 lowercase hex digits"):
        read_record(data)
    data["hands"][0]["fair"] = {"algorithm": "hupai-fair/2"}
    with pytest.raises(
        RecordError, match=re.escape("hand 0: 'fair.algorithm' is 'hupai-fair/1', not 'hupai-fair/2'")
    ):
        read_record(data)


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


def test_verify_a_record_without_fair_deals_is_not_verifiable(tmp_path: Path) -> None:
    shipped = next((Path(__file__).parent / "data" / "records").rglob("*.json"))
    result = runner.invoke(app, ["verify", str(shipped)])
    assert result.exit_code == 1
    assert "not verifiable" in result.output


def test_a_fair_record_matches_the_published_schema() -> None:
    assert schema_error(_fair_match_record(), "record") is None
    data = _fair_match_record(hands=1)
    data["hands"][0]["fair"]["contributions"][0] = "XYZ"
    assert schema_error(data, "record") is not None
