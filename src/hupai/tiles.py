"""Tiles: ids, the mpsz notation, and names in Chinese and English.

A tile is an ``int``. The 34 kinds come first, in suit order, then the 8 flowers:

====== ========= ==================================
ids    notation  tiles
====== ========= ==================================
0-8    1m-9m     一万 … 九万 (characters)
9-17   1p-9p     一筒 … 九筒 (dots)
18-26  1s-9s     一条 … 九条 (bamboo)
27-30  1z-4z     东 南 西 北 (winds)
31-33  5z-7z     白板 发财 红中 (dragons)
34-41  1f-8f     春 夏 秋 冬 梅 兰 竹 菊 (flowers)
====== ========= ==================================

Notation is digits followed by their suit letter. An ordered list keeps its order
(``"1m5p3z"``); a hand is usually written sorted (``"123m456p789s1122z"``).

>>> parse_tiles("1m5p3z")
[0, 13, 29]
>>> format_tiles([0, 13, 29])
'1m5p3z'
>>> format_counts(parse_counts("321m11z"))
'123m11z'
>>> tile_name(31), tile_name(31, lang="en")
('白板', 'White Dragon')
>>> parse_tiles("12x")
Traceback (most recent call last):
...
hupai.tiles.NotationError: position 3: 'x' is not a suit letter (use m, p, s, z or f)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Final, Literal

__all__ = [
    "FLOWERS",
    "KINDS",
    "NUM_KINDS",
    "NUM_TILES",
    "Language",
    "NotationError",
    "Suit",
    "counts_to_tiles",
    "format_counts",
    "format_tiles",
    "is_flower",
    "is_honour",
    "parse_counts",
    "parse_tiles",
    "suit_of",
    "tile_id",
    "tile_name",
    "tile_notation",
    "tiles_to_counts",
]

Language = Literal["zh", "en"]

NUM_KINDS: Final = 34
"""Playable kinds: three suits of nine and seven honours. Counts vectors have this length."""
NUM_TILES: Final = 42
"""Kinds plus the eight flowers."""
KINDS = range(NUM_KINDS)
FLOWERS = range(NUM_KINDS, NUM_TILES)
COPIES: Final = 4
"""Copies of each kind in a set; each flower exists once."""


class Suit(Enum):
    """A suit and its notation letter."""

    CHARACTERS = "m"
    DOTS = "p"
    BAMBOO = "s"
    HONOURS = "z"
    FLOWERS = "f"


# (first id, highest rank) per suit, in notation-letter order.
_SUIT_LAYOUT: dict[Suit, tuple[int, int]] = {
    Suit.CHARACTERS: (0, 9),
    Suit.DOTS: (9, 9),
    Suit.BAMBOO: (18, 9),
    Suit.HONOURS: (27, 7),
    Suit.FLOWERS: (34, 8),
}
_SUIT_BY_LETTER = {suit.value: suit for suit in Suit}
_SUIT_OF_TILE: tuple[Suit, ...] = tuple(suit for suit, (_, size) in _SUIT_LAYOUT.items() for _ in range(size))

_CHINESE_NUMERALS = "一二三四五六七八九"
_ENGLISH_NUMERALS = ("1", "2", "3", "4", "5", "6", "7", "8", "9")
_ZH_SUITED = {Suit.CHARACTERS: "万", Suit.DOTS: "筒", Suit.BAMBOO: "条"}
_EN_SUITED = {Suit.CHARACTERS: "Character", Suit.DOTS: "Dot", Suit.BAMBOO: "Bamboo"}
_ZH_HONOURS = ("东", "南", "西", "北", "白板", "发财", "红中")
_EN_HONOURS = (
    "East Wind",
    "South Wind",
    "West Wind",
    "North Wind",
    "White Dragon",
    "Green Dragon",
    "Red Dragon",
)
_ZH_FLOWERS = "春夏秋冬梅兰竹菊"
_EN_FLOWERS = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Bamboo Flower", "Chrysanthemum")


def _build_names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    zh: list[str] = []
    en: list[str] = []
    for suit in (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO):
        zh.extend(numeral + _ZH_SUITED[suit] for numeral in _CHINESE_NUMERALS)
        en.extend(f"{numeral} {_EN_SUITED[suit]}" for numeral in _ENGLISH_NUMERALS)
    zh.extend(_ZH_HONOURS)
    en.extend(_EN_HONOURS)
    zh.extend(_ZH_FLOWERS)
    en.extend(_EN_FLOWERS)
    return tuple(zh), tuple(en)


_NAMES_ZH, _NAMES_EN = _build_names()


class NotationError(ValueError):
    """Tile notation that cannot be read; the message names the position (1-based) and the reason."""

    def __init__(self, text: str, position: int, reason: str) -> None:
        super().__init__(f"position {position}: {reason}")
        self.text = text
        self.position = position
        self.reason = reason


def suit_of(tile: int) -> Suit:
    """The suit of a tile id."""
    return _SUIT_OF_TILE[tile]


def is_honour(tile: int) -> bool:
    """Winds and dragons (1z-7z)."""
    return 27 <= tile < NUM_KINDS


def is_flower(tile: int) -> bool:
    """The eight season and flower tiles (1f-8f)."""
    return NUM_KINDS <= tile < NUM_TILES


def tile_id(rank: int, suit: Suit) -> int:
    """The id of ``rank`` (1-based) in ``suit``; raises ``ValueError`` when the rank does not exist."""
    first, size = _SUIT_LAYOUT[suit]
    if not 1 <= rank <= size:
        raise ValueError(f"{suit.value!r} has ranks 1-{size}, not {rank}")
    return first + rank - 1


def _rank_of(tile: int) -> int:
    return tile - _SUIT_LAYOUT[_SUIT_OF_TILE[tile]][0] + 1


def tile_notation(tile: int) -> str:
    """One tile in notation, e.g. ``"5p"``."""
    _check_tile(tile)
    return f"{_rank_of(tile)}{_SUIT_OF_TILE[tile].value}"


def tile_name(tile: int, *, lang: Language = "zh") -> str:
    """The tile's name: ``"五筒"`` / ``"5 Dot"``, ``"东"`` / ``"East Wind"``, ``"春"`` / ``"Spring"``."""
    _check_tile(tile)
    return (_NAMES_ZH if lang == "zh" else _NAMES_EN)[tile]


def _check_tile(tile: int) -> None:
    if not isinstance(tile, int) or not 0 <= tile < NUM_TILES:
        raise ValueError(f"not a tile id: {tile!r} (ids are 0-{NUM_TILES - 1})")


def parse_tiles(text: str) -> list[int]:
    """Read an ordered list of tiles. Spaces between groups are allowed; order is kept.

    Raises :class:`NotationError` naming the 1-based position of the first problem.
    """
    tiles: list[int] = []
    pending: list[tuple[int, int]] = []  # (rank, position) of digits waiting for their suit letter
    for index, char in enumerate(text):
        position = index + 1
        if char.isspace():
            if pending:
                raise NotationError(
                    text, position, "a space inside a group: digits need their suit letter first"
                )
            continue
        if "0" <= char <= "9":
            pending.append((int(char), position))
            continue
        suit = _SUIT_BY_LETTER.get(char)
        if suit is None:
            raise NotationError(text, position, f"{char!r} is not a suit letter (use m, p, s, z or f)")
        if not pending:
            raise NotationError(text, position, f"suit letter {char!r} has no digits before it")
        first, size = _SUIT_LAYOUT[suit]
        for rank, digit_position in pending:
            if not 1 <= rank <= size:
                raise NotationError(text, digit_position, f"{suit.value!r} has ranks 1-{size}, not {rank}")
            tiles.append(first + rank - 1)
        pending.clear()
    if pending:
        raise NotationError(text, pending[-1][1], "digits at the end have no suit letter")
    return tiles


# Each tile's digit and suit letter, looked up rather than computed: views format many tiles per move.
_DIGITS = tuple(str(_rank_of(tile)) for tile in range(NUM_TILES))
_LETTERS = tuple(_SUIT_OF_TILE[tile].value for tile in range(NUM_TILES))


def format_tiles(tiles: Iterable[int], *, sort: bool = False) -> str:
    """Write tiles in notation. Consecutive tiles of one suit share their letter; order is kept
    unless ``sort`` is set.

    >>> format_tiles([31, 0, 1, 34], sort=True)
    '12m5z1f'
    """
    ordered = list(tiles)
    for tile in ordered:
        if not isinstance(tile, int) or not 0 <= tile < NUM_TILES:
            _check_tile(tile)  # raises, naming the bad value
    if sort:
        ordered.sort()
    letters = [_LETTERS[tile] for tile in ordered]
    last = len(ordered) - 1
    parts: list[str] = []
    for position, tile in enumerate(ordered):
        parts.append(_DIGITS[tile])
        if position == last or letters[position + 1] != letters[position]:
            parts.append(letters[position])
    return "".join(parts)


def tiles_to_counts(tiles: Iterable[int]) -> list[int]:
    """A 34-count vector of playable tiles; flowers and a fifth copy are refused."""
    counts = [0] * NUM_KINDS
    for tile in tiles:
        _check_tile(tile)
        if tile >= NUM_KINDS:
            raise ValueError(f"{tile_notation(tile)} is a flower: a hand's counts hold playable tiles only")
        counts[tile] += 1
        if counts[tile] > COPIES:
            raise ValueError(f"more than {COPIES} copies of {tile_notation(tile)}")
    return counts


def parse_counts(text: str) -> list[int]:
    """Read a hand of playable tiles into a 34-count vector.

    Raises :class:`NotationError` for bad notation, a flower, or a fifth copy of a tile.

    >>> parse_counts("11z")[27]
    2
    """
    tiles = parse_tiles(text)
    seen = [0] * NUM_TILES
    # Find the position of the offending tile so the message can point at it.
    positions = _tile_positions(text)
    for tile, position in zip(tiles, positions, strict=True):
        seen[tile] += 1
        if tile >= NUM_KINDS:
            raise NotationError(
                text, position, f"{tile_notation(tile)} is a flower; flowers are not part of a hand"
            )
        if seen[tile] > COPIES:
            raise NotationError(text, position, f"a fifth {tile_notation(tile)}: there are only {COPIES}")
    return seen[:NUM_KINDS]


def _tile_positions(text: str) -> list[int]:
    """1-based positions of the digit of each tile in already-valid notation."""
    return [index + 1 for index, char in enumerate(text) if "0" <= char <= "9"]


def format_counts(counts: Sequence[int]) -> str:
    """Write a 34-count vector as a sorted hand, e.g. ``"123m456p789s1122z"``."""
    if len(counts) != NUM_KINDS:
        raise ValueError(f"a counts vector has {NUM_KINDS} entries, not {len(counts)}")
    return format_tiles(counts_to_tiles(counts))


def counts_to_tiles(counts: Sequence[int]) -> list[int]:
    """The sorted tiles of a counts vector."""
    return [tile for tile, count in enumerate(counts) for _ in range(count)]
