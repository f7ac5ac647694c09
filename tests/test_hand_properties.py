"""Invariants of the hand analysis, over random hands."""

from __future__ import annotations

import itertools

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hupai.hand import Form, GroupKind, decompositions, is_win, shanten, waits
from hupai.tiles import NUM_KINDS


@st.composite
def hands(draw: st.DrawFn, *, sizes: tuple[int, ...] = (14, 13, 11, 10, 8, 7, 5, 4, 2, 1)) -> list[int]:
    size = draw(st.sampled_from(sizes))
    tiles = draw(st.permutations([kind for kind in range(NUM_KINDS) for _ in range(4)]))[:size]
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


@st.composite
def near_complete(draw: st.DrawFn) -> list[int]:
    """A complete hand with one tile changed: half of them are still complete or ready."""
    counts = [0] * NUM_KINDS
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        if draw(st.booleans()):
            tile = draw(st.integers(min_value=0, max_value=NUM_KINDS - 1))
            counts[tile] += 3
        else:
            start = draw(st.integers(min_value=0, max_value=2)) * 9 + draw(
                st.integers(min_value=0, max_value=6)
            )
            for tile in range(start, start + 3):
                counts[tile] += 1
    counts[draw(st.integers(min_value=0, max_value=NUM_KINDS - 1))] += 2
    assume(max(counts) <= 4)
    if draw(st.booleans()):
        held = [tile for tile in range(NUM_KINDS) if counts[tile]]
        counts[draw(st.sampled_from(held))] -= 1
    return counts


any_hand = st.one_of(hands(), near_complete())


@given(any_hand)
@settings(max_examples=600)
def test_win_iff_shanten_minus_one(counts: list[int]) -> None:
    if sum(counts) % 3 == 2:
        assert is_win(counts) == (shanten(counts) == -1)
    else:
        assert shanten(counts) >= 0
        assert not is_win(counts)


@given(any_hand)
@settings(max_examples=600)
def test_every_wait_wins_and_ready_iff_waits(counts: list[int]) -> None:
    if sum(counts) % 3 != 1:
        return
    found = waits(counts)
    for tile in found:
        assert counts[tile] < 4
        counts[tile] += 1
        assert is_win(counts)
        counts[tile] -= 1
    others = [tile for tile in range(NUM_KINDS) if tile not in found and counts[tile] < 4]
    for tile in others:
        counts[tile] += 1
        assert not is_win(counts)
        counts[tile] -= 1
    assert (shanten(counts) == 0) == bool(found)


@given(any_hand)
@settings(max_examples=400)
def test_shanten_changes_by_at_most_one_per_draw(counts: list[int]) -> None:
    if sum(counts) % 3 != 1:
        return
    before = shanten(counts)
    for tile in range(NUM_KINDS):
        if counts[tile] < 4:
            counts[tile] += 1
            assert before - 1 <= shanten(counts) <= before
            counts[tile] -= 1


@given(any_hand)
@settings(max_examples=600)
def test_every_reading_adds_back_up_to_the_hand(counts: list[int]) -> None:
    readings = decompositions(counts)
    assert bool(readings) == is_win(counts) if sum(counts) % 3 == 2 else not readings
    for reading in readings:
        rebuilt = [0] * NUM_KINDS
        for group in reading.groups:
            for tile in group.tiles:
                rebuilt[tile] += 1
        assert rebuilt == counts
        if reading.form is Form.STANDARD:
            assert reading.groups[0].kind is GroupKind.PAIR
            assert all(group.kind is not GroupKind.PAIR for group in reading.sets)
        else:
            assert len(reading.groups) == 7
            assert all(group.kind is GroupKind.PAIR for group in reading.groups)
    assert len({str(reading) for reading in readings}) == len(readings)


@st.composite
def wild_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    jokers = draw(st.integers(min_value=1, max_value=2))
    counts = draw(near_complete())
    while sum(counts) + jokers > 14 or sum(counts) + jokers < 1 or (sum(counts) + jokers) % 3 == 0:
        held = [tile for tile in range(NUM_KINDS) if counts[tile]]
        if not held:
            counts[0] += 1
            continue
        counts[draw(st.sampled_from(held))] -= 1
    return counts, jokers


def _plain_hands(counts: list[int], jokers: int) -> list[list[int]]:
    """Every way to replace the wildcards by real tiles without a fifth copy."""
    plain_hands = []
    for chosen in itertools.combinations_with_replacement(range(NUM_KINDS), jokers):
        plain = counts[:]
        for tile in chosen:
            plain[tile] += 1
        if max(plain) <= 4:
            plain_hands.append(plain)
    return plain_hands


@given(wild_hands())
@settings(max_examples=150)
def test_wildcards_are_as_good_as_the_best_tile(case: tuple[list[int], int]) -> None:
    counts, jokers = case
    plain = _plain_hands(counts, jokers)
    assert shanten(counts, jokers=jokers) == min(shanten(hand) for hand in plain)
    if (sum(counts) + jokers) % 3 == 2:
        assert is_win(counts, jokers=jokers) == any(is_win(hand) for hand in plain)
        for reading in decompositions(counts, jokers=jokers):
            rebuilt = [0] * NUM_KINDS
            for group in reading.groups:
                for tile in group.tiles:
                    rebuilt[tile] += 1
            for tile in reading.wild:
                rebuilt[tile] -= 1
            assert rebuilt == counts
            assert len(reading.wild) == jokers
            assert max(rebuilt[t] + reading.wild.count(t) for t in range(NUM_KINDS)) <= 4
    else:
        assert set(waits(counts, jokers=jokers)) == {
            tile
            for tile in range(NUM_KINDS)
            if counts[tile] < 4 and is_win([c + (k == tile) for k, c in enumerate(counts)], jokers=jokers)
        }
