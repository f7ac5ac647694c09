"""The golden hand files: our values, and the cross-check against the `mahjong` package."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from hupai.hand import is_win, seven_pairs_shanten, shanten, standard_shanten, waits
from hupai.tiles import format_tiles, parse_counts

from .conftest import DATA, load_jsonl

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))
import make_golden_hands

HANDS = DATA / "hands"
FILES = ("random.jsonl", "near.jsonl", "wild.jsonl")


@pytest.fixture(scope="module", params=FILES)
def records(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    return load_jsonl(HANDS / request.param)


def test_golden_files_are_big_enough() -> None:
    sizes = {name: len(load_jsonl(HANDS / name)) for name in FILES}
    assert sizes["random.jsonl"] >= 10_000
    assert sizes["near.jsonl"] >= 10_000
    near = load_jsonl(HANDS / "near.jsonl")
    assert sum(1 for r in near if r["shanten"] <= 0) >= 5_000, "near-winning hands must be mostly ready"


def test_values_match_golden(records: list[dict[str, Any]]) -> None:
    for record in records:
        counts = parse_counts(record["hand"])
        jokers = record["jokers"]
        melds = record["melds"]
        assert shanten(counts, melds=melds, jokers=jokers) == record["shanten"], record
        assert standard_shanten(counts, jokers=jokers) == record["standard"], record
        if record["seven_pairs"] is not None:
            assert seven_pairs_shanten(counts, jokers=jokers) == record["seven_pairs"], record
        if "waits" in record:
            assert format_tiles(waits(counts, jokers=jokers)) == record["waits"], record
        else:
            assert is_win(counts, jokers=jokers) == record["win"], record


def test_golden_agrees_with_reference(records: list[dict[str, Any]]) -> None:
    """Every record agrees with the `mahjong` package (or brute force for wildcards), except the
    documented seven-pairs difference."""
    tally = make_golden_hands.cross_check(records)
    assert sum(tally.values()) >= len(records)
    explained = sum(count for line, count in tally.items() if "differ" in line)
    assert explained < len(records) // 3


def test_both_ways_of_reading_a_hand_agree(records: list[dict[str, Any]]) -> None:
    """hupai.hand.analysis reads a hand's parts by tuples (pure Python) or packed integers (the compiled
    build): both ways, whichever build runs, give the golden values and the same vectors."""
    from hupai.hand import analysis

    analysis._fill_packed_tables()
    for record in records:
        counts = parse_counts(record["hand"])
        # A tuple always goes the tuple way; the packed functions are called directly.
        assert analysis._hand_vector_packed(counts) == analysis._hand_vector(tuple(counts)), record
        if "win" in record and not record["jokers"]:
            assert analysis._is_win_packed(counts) == is_win(tuple(counts)) == record["win"], record
            assert analysis._is_win_packed([*counts[:33], 5]) is False
        jokers = record["jokers"]  # the compiled build's shanten, by part classes
        assert analysis._shanten_by_classes(counts, jokers) == shanten(tuple(counts), jokers=jokers), record
    assert analysis._hand_vector_packed([5, *[0] * 33]) is None


def test_the_class_way_leaves_impossible_hands_to_the_long_way() -> None:
    from hupai.hand import analysis

    nothing = analysis._NO_ANSWER
    by_classes = analysis._shanten_by_classes
    assert by_classes([5, *[0] * 33], 0) == nothing  # a count above four
    assert by_classes([*[0] * 33, -1], 0) == nothing
    assert by_classes([0] * 34, 0) == nothing  # no tiles
    assert by_classes([1] * 12 + [0] * 22, 0) == nothing  # a multiple of three
    assert by_classes([1] * 15 + [0] * 19, 0) == nothing  # more than fourteen
    assert by_classes([4, 4, 4, 3, *[0] * 30], 0) == nothing  # a suit beyond the table
    assert by_classes([0] * 33, 0) == nothing
    assert by_classes([1] * 13 + [0] * 21, 2) == nothing  # fifteen with the jokers
    assert by_classes([1] * 13 + [0] * 21, -1) == nothing
