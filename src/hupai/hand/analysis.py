"""Win check, shanten and waits on 34-count vectors, with optional wildcards (赖子).

Forms: the standard form (sets and one pair; sets are pungs or runs) and seven pairs, where a four of
a kind held in hand counts as two pairs (the Chinese rule; in riichi it would count once).
Seven pairs needs a concealed hand of 14 (no melds).

``jokers`` counts wildcards held besides ``counts``; each may stand for any tile, but a reading never
uses a kind more than four times (a wildcard cannot be a fifth copy).

``melds`` is the number of sets already declared (pung, kong); the concealed hand then holds
``13 - 3 * melds`` or ``14 - 3 * melds`` tiles, jokers included. Left out, it is inferred from the
tile count.

>>> from hupai.tiles import parse_counts
>>> shanten(parse_counts("123m456p789s1122z"))
0
>>> waits(parse_counts("123m456p789s1122z"))
[27, 28]
>>> is_win(parse_counts("1122334455667m"), jokers=1)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from hupai.hand import tables
from hupai.hand.tables import (
    COMPLETE_HONOURS,
    COMPLETE_SUIT,
    FULL_HAND_INDEX,
    HONOUR_VECTOR_IDS,
    PAIRS_INDEX,
    SUIT_VECTOR_IDS,
    TILES_INDEX,
    VECTORS,
    WIN_HONOURS,
    WIN_SUIT,
)
from hupai.tiles import NUM_KINDS

if TYPE_CHECKING:  # only ever in annotations, so neither build imports it
    from mypy_extensions import i64

__all__ = [
    "HandSizeError",
    "is_win",
    "seven_pairs_shanten",
    "shanten",
    "standard_shanten",
    "waits",
]

_MAX_TILES: Final = 14
_MOST_SETS: Final = 4 * tables.SETS_UNIT

# Two ways to read a part of the counts, one for each build (hupai._native), with the same tables and
# results. Pure Python looks a part up by the tuple of its counts: slicing and hashing a tuple are
# single C calls there. Compiled (mypyc), a loop over the counts packing them into one small integer,
# three bits a kind, is several times faster than building the tuple, and so is looking it up.
# Tests run both ways in both builds.
_PACKED: Final = not __file__.endswith((".py", ".pyc"))
_BITS: Final = 3
_COPIES: Final = tables.COPIES
_NOT_SHIPPED: Final = 0xFFFF


def pack(config: Sequence[int]) -> int:
    """A part's counts (each 0-4) as one integer, three bits a kind."""
    key = 0
    for shift, count in enumerate(config):
        key |= count << (_BITS * shift)
    return key


def _pack(counts: list[int], start: int, stop: int) -> int:
    """``counts[start:stop]`` packed, or -1 when a count is not 0-4 (the tuple way then says why)."""
    key = 0
    shift = 0
    for index in range(start, stop):
        count = counts[index]
        if count < 0 or count > _COPIES:
            return -1
        key |= count << shift
        shift += _BITS
    return key


# Filled only where the packed way is used (or a test asks for it): the win tables packed, and the
# vector ids of honours (by packed counts) and of suits beyond the shipped table (by base-5 index),
# remembered, like the tuple tables, on first sight.
_WIN_SUIT_PACKED: Final[dict[int, int]] = {}
_WIN_HONOURS_PACKED: Final[dict[int, int]] = {}
_SUIT_IDS_PACKED: Final[dict[int, int]] = {}
_HONOUR_IDS_PACKED: Final[dict[int, int]] = {}


def _fill_packed_tables() -> None:
    if not _WIN_SUIT_PACKED:
        _WIN_SUIT_PACKED.update((pack(config), value) for config, value in WIN_SUIT.items())
        _WIN_HONOURS_PACKED.update((pack(config), value) for config, value in WIN_HONOURS.items())


if _PACKED:
    _fill_packed_tables()


class HandSizeError(ValueError):
    """The counts, jokers and melds do not add up to a concealed hand of 1-14 tiles."""


def _check_shape(counts: Sequence[int], jokers: int, melds: int | None, *, waiting: bool) -> None:
    """Raise a clear error for a hand that cannot exist. Only called when the fast checks fail."""
    if len(counts) != NUM_KINDS:
        raise HandSizeError(f"a counts vector has {NUM_KINDS} entries, not {len(counts)}")
    if jokers < 0:
        raise HandSizeError(f"jokers cannot be negative ({jokers})")
    for kind, count in enumerate(counts):
        if not 0 <= count <= tables.COPIES:
            raise HandSizeError(f"kind {kind} has {count} copies; each kind has 0 to {tables.COPIES}")
    total = sum(counts) + jokers
    if total % 3 == 0 or total > _MAX_TILES:
        raise HandSizeError(
            f"{total} tiles is not a hand: a concealed hand holds 3n+1 tiles while waiting "
            "(13, 10, 7, 4, 1) or 3n+2 after drawing (14, 11, 8, 5, 2)"
        )
    if waiting and total % 3 != 1:
        raise HandSizeError(f"{total} tiles: waits are asked of a hand of 13, 10, 7, 4 or 1 tiles")
    implied = (_MAX_TILES - total) // 3
    if melds is not None and melds != implied:
        raise HandSizeError(f"{total} concealed tiles go with {implied} melds, not {melds}")


# The shipped suit table (hupai.hand.tables), loaded on first use by the packed way: every suit
# configuration's vector, read by its base-5 index without hashing, and never missing.
_SHIPPED: Final[list[bytes]] = []
_SHIPPED_IDS: Final[list[int]] = []


def _shipped() -> bytes:
    if not _SHIPPED:
        numbers, interned = tables.shipped_suit_ids()
        _SHIPPED_IDS.extend(interned)
        _SHIPPED.append(numbers)
    return _SHIPPED[0]


def _suit_id_packed(counts: list[int], start: int, numbers: bytes) -> int:
    """The vector id of the suit ``counts[start:start + 9]`` (-1 when a count is not 0-4)."""
    index = 0
    for kind in range(start + 8, start - 1, -1):
        count = counts[kind]
        if count < 0 or count > _COPIES:
            return -1
        index = index * 5 + count
    if numbers:
        number = numbers[2 * index] | numbers[2 * index + 1] << 8
        if number != _NOT_SHIPPED:
            return _SHIPPED_IDS[number]
    found = _SUIT_IDS_PACKED.get(index)  # more than 14 tiles, or no shipped table
    if found is None:
        found = _SUIT_IDS_PACKED[index] = tables.suit_vector_id(tuple(counts[start : start + 9]))
    return found


def _part_ids_packed(counts: list[int]) -> tuple[int, int, int, int] | None:
    """The vector ids of the four parts, the packed way (None when a count is not 0-4)."""
    numbers = _shipped()
    a = _suit_id_packed(counts, 0, numbers)
    if a < 0:
        return None
    b = _suit_id_packed(counts, 9, numbers)
    if b < 0:
        return None
    c = _suit_id_packed(counts, 18, numbers)
    if c < 0:
        return None
    key = _pack(counts, 27, 34)
    z = _HONOUR_IDS_PACKED.get(key)
    if z is None:
        if key < 0:
            return None
        z = _HONOUR_IDS_PACKED[key] = tables.honour_vector_id(tuple(counts[27:34]))
    return a, b, c, z


def _hand_vector_packed(counts: list[int]) -> tuple[int, ...] | None:
    """:func:`_hand_vector` the packed way (None when a count is not 0-4)."""
    ids = _part_ids_packed(counts)
    if ids is None:
        return None
    a, b, c, z = ids
    return _combined_vector(a, b, c, z)


def _combined_vector(a: int, b: int, c: int, z: int) -> tuple[int, ...]:
    """The whole hand's vector from its four parts' vector ids (combinations made on first sight)."""
    combined = tables.COMBINED
    ab = combined.get(a << 24 | b)
    if ab is None:
        ab = tables.combine(a, b)
    abc = combined.get(ab << 24 | c)
    if abc is None:
        abc = tables.combine(ab, c)
    whole = combined.get(abc << 24 | z)
    if whole is None:
        whole = tables.combine(abc, z)
    return VECTORS[whole]


# Shanten the compiled build's way: the class tables of hupai.hand.tables, read on first use, and
# machine integers (mypyc's i64; plain ints in pure Python, where this way only runs in tests).
_CLASS_TABLES: Final[list[tables.ClassTables]] = []
_NO_ANSWER: Final = -99
_FORMS: Final = tables.MAX_SETS + 1
_MOST_COPIES: Final[i64] = tables.COPIES


def _class_tables() -> tables.ClassTables:
    if not _CLASS_TABLES:
        _CLASS_TABLES.append(tables.class_tables())
    return _CLASS_TABLES[0]


def _suit_number(counts: list[int], start: i64, numbers: bytes) -> i64:
    """The shipped table's number for the suit ``counts[start:start + 9]``; -1 when a count is not 0-4
    or the suit holds more than 14 tiles."""
    index: i64 = 0
    kind = start + 8
    while kind >= start:
        count: i64 = counts[kind]
        if count < 0 or count > _MOST_COPIES:
            return -1
        index = index * 5 + count
        kind -= 1
    low: i64 = numbers[2 * index]
    high: i64 = numbers[2 * index + 1]
    number = low | high << 8
    return -1 if number == _NOT_SHIPPED else number


def _honour_key(counts: list[int]) -> i64:
    """The honour key of ``counts[27:34]`` (tables.HONOUR_KEYS), or -1 when a count is not 0-4."""
    key: i64 = 0
    for kind in range(27, 34):
        count: i64 = counts[kind]
        if count < 0 or count > _MOST_COPIES:
            return -1
        key += (1 << (3 * count)) >> 3
    return key


def _shanten_by_classes(counts: list[int], jokers: i64) -> int:
    """:func:`shanten` of 34 counts, melds not given, from the class tables; _NO_ANSWER for what they
    do not answer (a count outside 0-4, a tile count that is no hand: the long way says why)."""
    found = _class_tables()
    numbers = found.numbers
    if len(counts) != NUM_KINDS or not numbers or jokers < 0:
        return _NO_ANSWER
    a = _suit_number(counts, 0, numbers)
    b = _suit_number(counts, 9, numbers)
    c = _suit_number(counts, 18, numbers)
    key = _honour_key(counts)
    if a < 0 or b < 0 or c < 0 or key < 0:
        return _NO_ANSWER
    suit_tiles = found.suit_tiles
    tiles: i64 = suit_tiles[a] + suit_tiles[b] + suit_tiles[c] + found.honour_tiles[key]
    total = tiles + jokers
    if total % 3 == 0 or total > _MAX_TILES:
        return _NO_ANSWER
    sets = total // 3
    suit_class = found.suit_class
    suits: i64 = found.suits
    group: i64 = found.pair[suit_class[a] * suits + suit_class[b]]
    group = found.triple[group * suits + suit_class[c]]
    honours: i64 = found.honours
    best: i64 = found.final[(group * honours + found.honour_class[key]) * _FORMS + sets] - jokers - 1
    if sets == 4 and best >= 0:  # 13 or 14 tiles: seven pairs too
        suit_pairs = found.suit_pairs
        pairs: i64 = suit_pairs[a] + suit_pairs[b] + suit_pairs[c] + found.honour_pairs[key]
        seven: i64 = _seven_pairs_distance(pairs, tiles - 2 * pairs, jokers) - 1
        if seven < best:
            return seven
    return best


def _hand_vector(counts: Sequence[int]) -> tuple[int, ...]:
    """The combined distance vector of the whole hand (see :mod:`hupai.hand.tables`)."""
    if _PACKED and isinstance(counts, list) and len(counts) == NUM_KINDS:
        vector = _hand_vector_packed(counts)
        if vector is not None:
            return vector
    suit_ids = SUIT_VECTOR_IDS
    config = tuple(counts[0:9])
    a = suit_ids.get(config)
    if a is None:
        a = tables.suit_vector_id(config)
    config = tuple(counts[9:18])
    b = suit_ids.get(config)
    if b is None:
        b = tables.suit_vector_id(config)
    config = tuple(counts[18:27])
    c = suit_ids.get(config)
    if c is None:
        c = tables.suit_vector_id(config)
    config = tuple(counts[27:34])
    z = HONOUR_VECTOR_IDS.get(config)
    if z is None:
        z = tables.honour_vector_id(config)
    return _combined_vector(a, b, c, z)


def _seven_pairs_distance(pairs: int, singles: int, jokers: int) -> int:
    """Tiles to add (replacing others) to hold seven pairs; wildcards first match singles, then each other."""
    matched = min(jokers, singles)
    return 7 - pairs - matched - (jokers - matched) // 2


def shanten(counts: Sequence[int], *, melds: int | None = None, jokers: int = 0) -> int:
    """Tiles away from ready: -1 complete, 0 ready (听牌), 1 one away, … — the best of both forms.

    >>> from hupai.tiles import parse_counts
    >>> shanten(parse_counts("19m19p19s1234567z"))  # no pair at all: seven pairs is six away
    6
    """
    if jokers or melds is not None:
        if _PACKED and melds is None and isinstance(counts, list):
            found = _shanten_by_classes(counts, jokers)
            if found != _NO_ANSWER:
                return found
        return _shanten(counts, _hand_vector(counts), melds, jokers)
    if _PACKED:
        if isinstance(counts, list):
            found = _shanten_by_classes(counts, 0)
            if found != _NO_ANSWER:
                return found
        vector = _hand_vector(counts)
    else:
        # The lookups of _hand_vector without its fill-on-miss steps: this is the hottest call of
        # every bot, and subscripts are cheaper than .get. A part or pair never seen goes the long
        # way once.
        suit_ids = SUIT_VECTOR_IDS
        combined = tables.COMBINED
        try:
            ab = combined[suit_ids[tuple(counts[0:9])] << 24 | suit_ids[tuple(counts[9:18])]]
            abc = combined[ab << 24 | suit_ids[tuple(counts[18:27])]]
            vector = VECTORS[combined[abc << 24 | HONOUR_VECTOR_IDS[tuple(counts[27:34])]]]
        except KeyError:
            vector = _hand_vector(counts)
    if 13 <= vector[TILES_INDEX] <= _MAX_TILES and len(counts) == NUM_KINDS:
        return vector[FULL_HAND_INDEX]
    return _shanten(counts, vector, melds, jokers)


def _shanten(counts: Sequence[int], vector: tuple[int, ...], melds: int | None, jokers: int) -> int:
    real = vector[TILES_INDEX]
    total = real + jokers
    if total % 3 == 0 or total > _MAX_TILES or melds is not None or jokers < 0 or len(counts) != NUM_KINDS:
        _check_shape(counts, jokers, melds, waiting=False)
    sets = total // 3
    best = vector[2 * sets + 1] - jokers - 1
    if sets == 4 and best >= 0:
        pairs = vector[PAIRS_INDEX]
        seven = _seven_pairs_distance(pairs, real - 2 * pairs, jokers) - 1
        if seven < best:
            return seven
    return best


def standard_shanten(counts: Sequence[int], *, melds: int | None = None, jokers: int = 0) -> int:
    """Shanten of the standard form alone (sets and a pair)."""
    _check_shape(counts, jokers, melds, waiting=False)
    vector = _hand_vector(counts)
    return vector[2 * ((vector[TILES_INDEX] + jokers) // 3) + 1] - jokers - 1


def seven_pairs_shanten(counts: Sequence[int], *, jokers: int = 0) -> int:
    """Shanten of seven pairs alone (a concealed hand of 13 or 14; four of a kind is two pairs)."""
    _check_shape(counts, jokers, None, waiting=False)
    real = sum(counts)
    if real + jokers < 13:
        raise HandSizeError("seven pairs needs a concealed hand of 13 or 14 tiles")
    pairs = sum(count // 2 for count in counts)
    return _seven_pairs_distance(pairs, real - 2 * pairs, jokers) - 1


def is_win(counts: Sequence[int], *, jokers: int = 0) -> bool:
    """Whether the concealed tiles (plus ``jokers``) are a complete hand: 3n+2 tiles forming n sets
    and a pair, or, with 14 tiles, seven pairs.

    >>> from hupai.tiles import parse_counts
    >>> is_win(parse_counts("11223344556677m")), is_win(parse_counts("11112233445566m"))
    (True, True)
    """
    if jokers:
        return _is_win_with_jokers(counts, jokers)
    if _PACKED and isinstance(counts, list) and len(counts) == NUM_KINDS:
        return _is_win_packed(counts)
    # Honours first: a stray honour is the commonest reason a hand is not complete.
    z = WIN_HONOURS.get(tuple(counts[27:34]))
    if z is None:
        return False
    a = WIN_SUIT.get(tuple(counts[0:9]))
    if a is None:
        return False
    b = WIN_SUIT.get(tuple(counts[9:18]))
    if b is None:
        return False
    c = WIN_SUIT.get(tuple(counts[18:27]))
    if c is None:
        return False
    whole = a + b + c + z
    if len(counts) != NUM_KINDS:
        _check_shape(counts, 0, None, waiting=False)
    # As _complete, inlined: a function call is a fifth of this path's time in pure Python.
    standard = whole & (tables.NOT_EVEN - 1)
    if standard <= _MOST_SETS + 1 and standard & 7 == 1:
        return True
    return whole < tables.NOT_EVEN and sum(counts) == _MAX_TILES


def _complete(whole: int, counts: Sequence[int]) -> bool:
    """Whether a hand whose four parts are in the win tables, with these values added, is complete."""
    # Each standard part adds 8 per set and 1 per pair: one pair and at most four sets in all.
    standard = whole & (tables.NOT_EVEN - 1)
    if standard <= _MOST_SETS + 1 and standard & 7 == 1:
        return True
    # Every part all pairs: seven pairs when there are fourteen tiles.
    return whole < tables.NOT_EVEN and sum(counts) == _MAX_TILES


def _is_win_packed(counts: list[int]) -> bool:
    """:func:`is_win` without jokers, the packed way (a hand of 34 counts)."""
    z = _WIN_HONOURS_PACKED.get(_pack(counts, 27, 34))
    if z is None:
        return False
    a = _WIN_SUIT_PACKED.get(_pack(counts, 0, 9))
    if a is None:
        return False
    b = _WIN_SUIT_PACKED.get(_pack(counts, 9, 18))
    if b is None:
        return False
    c = _WIN_SUIT_PACKED.get(_pack(counts, 18, 27))
    if c is None:
        return False
    return _complete(a + b + c + z, counts)


def _is_win_with_jokers(counts: Sequence[int], jokers: int) -> bool:
    vector = _hand_vector(counts)
    real = vector[TILES_INDEX]
    total = real + jokers
    if jokers < 0 or len(counts) != NUM_KINDS:
        _check_shape(counts, jokers, None, waiting=False)
    if total % 3 != 2 or total > _MAX_TILES:
        return False
    sets = total // 3
    # Wildcards fill exactly the missing tiles, so the hand is complete when that number is theirs.
    if vector[2 * sets + 1] == jokers:
        return True
    pairs = vector[PAIRS_INDEX]
    return sets == 4 and _seven_pairs_distance(pairs, real - 2 * pairs, jokers) == 0


def waits(counts: Sequence[int], *, melds: int | None = None, jokers: int = 0) -> list[int]:
    """The kinds whose next copy completes a hand of 13, 10, 7, 4 or 1 concealed tiles (jokers included).

    A kind the hand already holds four of is never a wait. Copies in melds or elsewhere on the table
    are not known here; callers that know them filter the result.
    """
    total = sum(counts) + jokers
    if total % 3 != 1 or total > _MAX_TILES or melds is not None or jokers or len(counts) != NUM_KINDS:
        _check_shape(counts, jokers, melds, waiting=True)
        if jokers:
            return _waits_with_jokers(counts, jokers)
    man = tuple(counts[0:9])
    pin = tuple(counts[9:18])
    sou = tuple(counts[18:27])
    honours = tuple(counts[27:34])
    man_value = COMPLETE_SUIT.get(man)
    pin_value = COMPLETE_SUIT.get(pin)
    sou_value = COMPLETE_SUIT.get(sou)
    honour_value = COMPLETE_HONOURS.get(honours)
    found: list[int] = []
    # The added tile joins one part; every other part must already be complete, and the hand then
    # holds exactly one pair (value & 7 == 1).
    if man_value is None:
        if pin_value is not None and sou_value is not None and honour_value is not None:
            others = pin_value + sou_value + honour_value
            found.extend(kind for kind, value in tables.suit_waits(man) if (others + value) & 7 == 1)
    elif pin_value is None:
        if sou_value is not None and honour_value is not None:
            others = man_value + sou_value + honour_value
            found.extend(9 + kind for kind, value in tables.suit_waits(pin) if (others + value) & 7 == 1)
    elif sou_value is None:
        if honour_value is not None:
            others = man_value + pin_value + honour_value
            found.extend(18 + kind for kind, value in tables.suit_waits(sou) if (others + value) & 7 == 1)
    elif honour_value is None:
        others = man_value + pin_value + sou_value
        found.extend(27 + kind for kind, value in tables.honour_waits(honours) if (others + value) & 7 == 1)
    else:
        # Every part complete with two pairs among them: either pair may become a pung.
        values = (man_value, pin_value, sou_value, honour_value)
        whole = sum(values)
        for offset, config, value, part_waits in (
            (0, man, man_value, tables.suit_waits),
            (9, pin, pin_value, tables.suit_waits),
            (18, sou, sou_value, tables.suit_waits),
            (27, honours, honour_value, tables.honour_waits),
        ):
            others = whole - value
            found.extend(offset + kind for kind, new in part_waits(config) if (others + new) & 7 == 1)
    if total == 13:
        singles = counts.count(1)
        triples = counts.count(3)
        if singles + triples == 1:
            odd = counts.index(1 if singles else 3)
            if odd not in found:
                found.append(odd)
                found.sort()
    return found


def _waits_with_jokers(counts: Sequence[int], jokers: int) -> list[int]:
    extended = list(counts)
    found: list[int] = []
    for kind in range(NUM_KINDS):
        if extended[kind] < tables.COPIES:
            extended[kind] += 1
            if is_win(extended, jokers=jokers):
                found.append(kind)
            extended[kind] -= 1
    return found
