from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hupai.tiles import (
    NUM_KINDS,
    NUM_TILES,
    NotationError,
    Suit,
    counts_to_tiles,
    format_counts,
    format_tiles,
    is_flower,
    is_honour,
    parse_counts,
    parse_tiles,
    suit_of,
    tile_id,
    tile_name,
    tile_notation,
    tiles_to_counts,
)


def test_ids_follow_the_suit_order() -> None:
    assert parse_tiles("1m9m1p9p1s9s1z7z1f8f") == [0, 8, 9, 17, 18, 26, 27, 33, 34, 41]
    assert tile_id(5, Suit.DOTS) == 13
    assert suit_of(31) is Suit.HONOURS
    assert is_honour(27) and not is_honour(26) and not is_honour(34)
    assert is_flower(34) and is_flower(41) and not is_flower(33)


def test_ordered_list_keeps_its_order() -> None:
    assert parse_tiles("1m5p3z") == [0, 13, 29]
    assert parse_tiles("3z1m") == [29, 0]
    assert format_tiles([29, 0, 1]) == "3z12m"


def test_hand_is_written_sorted() -> None:
    assert format_counts(parse_counts("3z21m 99s")) == "12m99s3z"
    assert format_tiles([31, 0, 34, 1], sort=True) == "12m5z1f"


def test_spaces_between_groups_are_allowed() -> None:
    assert parse_tiles(" 123m  456p ") == [0, 1, 2, 12, 13, 14]


@pytest.mark.parametrize(
    ("text", "position", "reason"),
    [
        ("12x", 3, "'x' is not a suit letter"),
        ("123", 3, "digits at the end have no suit letter"),
        ("m", 1, "suit letter 'm' has no digits"),
        ("12m8z", 4, "'z' has ranks 1-7, not 8"),
        ("0m", 1, "'m' has ranks 1-9, not 0"),
        ("9f", 1, "'f' has ranks 1-8, not 9"),
        ("1 2m", 2, "a space inside a group"),
    ],
)
def test_bad_notation_names_position_and_reason(text: str, position: int, reason: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_tiles(text)
    assert caught.value.position == position
    assert reason in str(caught.value)
    assert str(caught.value).startswith(f"position {position}: ")


def test_hand_refuses_fifth_copy_and_flowers() -> None:
    with pytest.raises(NotationError, match="position 6: a fifth 1m"):
        parse_counts("1111m11m")
    with pytest.raises(NotationError, match="position 1: 1f is a flower"):
        parse_counts("123f")
    with pytest.raises(ValueError, match="more than 4 copies of 2p"):
        tiles_to_counts([10] * 5)


def test_chinese_and_english_names() -> None:
    zh = [tile_name(tile) for tile in range(NUM_TILES)]
    assert zh[:9] == ["一万", "二万", "三万", "四万", "五万", "六万", "七万", "八万", "九万"]
    assert zh[9] == "一筒" and zh[17] == "九筒" and zh[18] == "一条" and zh[26] == "九条"
    assert zh[27:34] == ["东", "南", "西", "北", "白板", "发财", "红中"]
    assert zh[34:] == list("春夏秋冬梅兰竹菊")
    assert tile_name(0, lang="en") == "1 Character"
    assert tile_name(33, lang="en") == "Red Dragon"
    assert tile_name(41, lang="en") == "Chrysanthemum"
    assert len(set(zh)) == NUM_TILES
    assert len({tile_name(tile, lang="en") for tile in range(NUM_TILES)}) == NUM_TILES


def test_bad_tile_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="not a tile id"):
        tile_notation(42)
    with pytest.raises(ValueError, match="not a tile id"):
        format_tiles([-1])


tile_lists = st.lists(st.integers(min_value=0, max_value=NUM_TILES - 1), max_size=40)


@given(tile_lists)
def test_ordered_lists_round_trip(tiles: list[int]) -> None:
    text = format_tiles(tiles)
    assert parse_tiles(text) == tiles
    assert format_tiles(parse_tiles(text)) == text


@given(st.lists(st.integers(min_value=0, max_value=4), min_size=NUM_KINDS, max_size=NUM_KINDS))
def test_counts_round_trip(counts: list[int]) -> None:
    text = format_counts(counts)
    assert parse_counts(text) == counts
    assert tiles_to_counts(counts_to_tiles(counts)) == counts
