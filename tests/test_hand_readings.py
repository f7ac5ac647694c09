"""Readings (decompositions) of complete hands, including wildcards."""

from __future__ import annotations

import pytest

from hupai.hand import Form, Group, GroupKind, HandSizeError, WaitShape, decompositions
from hupai.tiles import parse_counts, parse_tiles


def readings(hand: str, jokers: int = 0) -> list[str]:
    return [str(reading) for reading in decompositions(parse_counts(hand), jokers=jokers)]


def test_a_plain_hand_has_one_reading() -> None:
    (reading,) = decompositions(parse_counts("123m456p789s111z55s"))
    assert reading.form is Form.STANDARD
    assert reading.pair == Group(GroupKind.PAIR, 22)
    assert {(group.kind, group.tile) for group in reading.sets} == {
        (GroupKind.RUN, 0),
        (GroupKind.RUN, 12),
        (GroupKind.RUN, 24),
        (GroupKind.PUNG, 27),
    }


def test_every_reading_is_listed_once() -> None:
    assert readings("11122233344455m") == [
        "22m 111m 234m 345m 345m",
        "55m 111m 222m 333m 444m",
        "55m 111m 234m 234m 234m",
        "55m 123m 123m 123m 444m",
    ]


def test_nine_gates_shape_reads_one_way() -> None:
    assert readings("11123455678999m") == ["55m 111m 234m 678m 999m"]


def test_seven_pairs_with_four_of_a_kind_is_two_pairs() -> None:
    found = decompositions(parse_counts("11112233445566m"))
    sevens = [reading for reading in found if reading.form is Form.SEVEN_PAIRS]
    assert len(sevens) == 1
    assert [group.tile for group in sevens[0].groups] == [0, 0, 1, 2, 3, 4, 5]
    assert sevens[0].pair is None and sevens[0].sets == ()


def test_a_hand_that_is_both_forms_lists_both() -> None:
    found = decompositions(parse_counts("11223344556677m"))
    assert {reading.form for reading in found} == {Form.STANDARD, Form.SEVEN_PAIRS}


def test_incomplete_hand_has_no_reading() -> None:
    assert decompositions(parse_counts("123m456p789s1112z")) == []
    assert decompositions(parse_counts("123m456p789s111z")) == []


def test_wildcards_stand_for_named_tiles() -> None:
    assert readings("1123m", jokers=1) == ["11m 23m(1m)", "11m 23m(4m)", "1m(1m) 123m"]
    (reading,) = [r for r in decompositions(parse_counts("1123m"), jokers=1) if r.wild == (3,)]
    assert reading.sets[0].tiles == (1, 2, 3)


def test_wildcards_never_make_a_fifth_copy() -> None:
    # 1111m with a wildcard: the only complete readings would need a fifth 1m.
    assert decompositions(parse_counts("1111m"), jokers=1) == []
    with_pung = readings("111m", jokers=2)
    assert "11m 1m(23m)" in with_pung
    assert "(22m) 111m" in with_pung
    assert "(11m) 111m" not in with_pung


def test_wildcards_alone_can_be_any_set() -> None:
    found = decompositions(parse_counts("123m456p789s11z"), jokers=3)
    wild_only = {str(group) for r in found for group in r.sets if len(group.wild) == 3}
    assert "(111m)" in wild_only and "(789s)" in wild_only and "(777z)" in wild_only


def test_wildcard_seven_pairs() -> None:
    sevens = [
        r for r in decompositions(parse_counts("112233445566m7p"), jokers=1) if r.form is Form.SEVEN_PAIRS
    ]
    assert [str(r) for r in sevens] == ["11m 22m 33m 44m 55m 66m 7p(7p)"]


def test_wrong_vector_length_is_refused() -> None:
    with pytest.raises(HandSizeError, match="34 entries"):
        decompositions([2] + [0] * 26)


@pytest.mark.parametrize(
    ("hand", "winning", "shapes"),
    [
        ("123m456p789s11z79m8m", "8m", {WaitShape.MIDDLE}),
        ("123m456p789s11z12m3m", "3m", {WaitShape.EDGE}),
        ("123m456p789s11z89m7m", "7m", {WaitShape.EDGE}),
        ("123m456p789s11z23m4m", "4m", {WaitShape.TWO_SIDED}),
        ("123m456p789s11z23m1m", "1m", {WaitShape.TWO_SIDED}),
        ("123m456p789s111z5m5m", "5m", {WaitShape.PAIR}),
        ("123m456p789s11z55m5m", "5m", {WaitShape.PUNG}),
        # 23456m + 1m: the winning 1m starts the run 123m — two-sided (23m waits 1m or 4m).
        ("456p789s11z23456m1m", "1m", {WaitShape.TWO_SIDED}),
        # 2344m + 4m reads 234m 44m: the 4m may have completed the pair or the run.
        ("123p789s111z2344m4m", "4m", {WaitShape.PAIR, WaitShape.TWO_SIDED}),
    ],
)
def test_wait_shapes(hand: str, winning: str, shapes: set[WaitShape]) -> None:
    counts = parse_counts(hand)
    (tile,) = parse_tiles(winning)
    found: set[WaitShape] = set()
    for reading in decompositions(counts):
        found |= reading.wait_shapes(tile)
    assert found == shapes


def test_a_wildcard_is_never_the_winning_tile() -> None:
    (reading,) = decompositions(parse_counts("12m456p789s11z555s"), jokers=1)
    assert reading.wild == (2,)
    assert reading.wait_shapes(2) == set()
    assert reading.wait_shapes(0) == {WaitShape.TWO_SIDED}
