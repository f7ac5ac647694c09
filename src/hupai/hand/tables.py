"""Per-suit tables behind the hand analysis.

A hand's 34 counts split into four independent parts: three suits of nine (where runs exist) and the
seven honours (pungs and pairs only). Everything the analysis needs is a fact about one part, so it
is computed once per part configuration and then looked up:

* **Complete parts** (win check): every configuration that is exactly some sets plus at most one
  pair, enumerated from the sets themselves — 21,743 for a suit, 498 for the honours. This is the
  classic precomputed-table win check (as in Tenhou-style agari tables and kobalab's majiang-core).
* **Distance vectors** (shanten): for a part and every target "m sets and h pairs" (m <= 4, h <= 1),
  the fewest tiles that must be added — extras may be thrown away — so that the part holds exactly
  that target, never more than four copies of a kind. Vectors of the four parts combine by a
  min-plus product, and the hand's distance to "4 - melds sets and a pair" minus one is its shanten
  number. This is the algorithm of tomohxx's shanten-number calculator
  (https://github.com/tomohxx/shanten-number), computed here by a small dynamic programme over the
  kinds of the part. Vectors are interned (a few thousand distinct ones exist), so a part maps to a
  small integer and combining two parts is one dictionary lookup once seen.
* **Wait lists**: for a part, which single added tile makes it complete, and whether the completed
  part holds the pair.
* **Class tables** (the compiled build's shanten): the same distances, by class of part rather than
  by vector, in small byte tables built from the shipped suit table on first use (see below).

Distance vectors and wait lists are remembered per configuration on first use. For suits the
vector then comes from a table of all 405,350 configurations, built once by
``tools/make_suit_table.py`` and shipped compressed (``suit_table.bin``, 383 distinct vectors); the
honours, which have no runs, are computed directly. The complete-part tables are built at import (a
few tens of milliseconds).
"""

from __future__ import annotations

import struct
import zlib
from functools import cache
from importlib import resources
from itertools import combinations_with_replacement, product
from typing import Final

SUIT_SIZE: Final = 9
HONOUR_SIZE: Final = 7
MAX_SETS: Final = 4
COPIES: Final = 4

Config = tuple[int, ...]
"""The counts of one part: 9 entries for a suit, 7 for the honours."""
Vector = tuple[int, ...]
"""Distance to (m sets, h pairs) at index 2*m + h for m in 0..4, h in 0..1; then the number of pairs
the part offers towards seven pairs (a four of a kind is two), then the number of tiles in the part."""

DISTANCES: Final = 2 * (MAX_SETS + 1)
PAIRS_INDEX: Final = DISTANCES
TILES_INDEX: Final = DISTANCES + 1
FULL_HAND_INDEX: Final = DISTANCES + 2
"""Derived when a vector is interned: the shanten of a concealed hand of 13 or 14 tiles with this
vector (the better of four sets and a pair, and seven pairs), so the hot path reads one entry."""


class PartError(ValueError):
    """A part of a counts vector that no hand can have (a count outside 0-4, or a wrong length)."""


def check_part(config: Config, size: int) -> None:
    """Refuse configurations that are not counts of a real hand; called once per new configuration."""
    if len(config) != size:
        raise PartError(f"a counts vector has 34 entries (this part has {len(config)} of {size})")
    for count in config:
        if not isinstance(count, int) or not 0 <= count <= COPIES:
            raise PartError(f"a tile count of {count!r}: each kind has 0 to {COPIES} copies")


SETS_UNIT: Final = 8
"""Complete parts map to ``SETS_UNIT * sets + pairs``, so that adding the values of the four parts of a
hand gives its sets and pairs at once (pairs stay below 8)."""


def _complete_configs(size: int, *, runs: bool) -> dict[Config, int]:
    """Every configuration that is exactly up to four sets plus at most one pair -> its value
    ``SETS_UNIT * sets + pairs``."""
    shapes: list[tuple[int, ...]] = [(i, i, i) for i in range(size)]
    if runs:
        shapes.extend((i, i + 1, i + 2) for i in range(size - 2))
    complete: dict[Config, int] = {}
    for number in range(MAX_SETS + 1):
        for chosen in combinations_with_replacement(shapes, number):
            base = [0] * size
            for shape in chosen:
                for kind in shape:
                    base[kind] += 1
            if max(base, default=0) > COPIES:
                continue
            value = SETS_UNIT * number
            complete[tuple(base)] = value
            for kind in range(size):
                if base[kind] + 2 <= COPIES:
                    base[kind] += 2
                    complete[tuple(base)] = value + 1
                    base[kind] -= 2
    return complete


COMPLETE_SUIT: Final = _complete_configs(SUIT_SIZE, runs=True)
COMPLETE_HONOURS: Final = _complete_configs(HONOUR_SIZE, runs=False)

NOT_STANDARD: Final = 1 << 10
"""Added to a win-table value when the part is not sets and a pair (four parts stay below 1 << 16)."""
NOT_EVEN: Final = 1 << 16
"""Added to a win-table value when some kind of the part has an odd count (no seven pairs)."""


def _win_table(complete: dict[Config, int], size: int) -> dict[Config, int]:
    """Parts that can belong to a complete hand of either form -> their value plus the two flags; a
    part that is neither sets-and-pair nor all pairs is absent, so one lookup can rule a hand out."""
    table = {
        config: value + (NOT_EVEN if any(count & 1 for count in config) else 0)
        for config, value in complete.items()
    }
    for half in product(range(3), repeat=size):
        config = tuple(2 * count for count in half)
        if sum(config) <= 14 and config not in table:
            table[config] = NOT_STANDARD
    return table


WIN_SUIT: Final = _win_table(COMPLETE_SUIT, SUIT_SIZE)
WIN_HONOURS: Final = _win_table(COMPLETE_HONOURS, HONOUR_SIZE)

_INFINITY: Final = 99


State = tuple[int, int, int, int]
"""Runs started one kind ago, runs started two kinds ago, sets, pairs."""


def distance_vector(config: Config, *, runs: bool) -> Vector:
    """The distance vector of one part, by a left-to-right dynamic programme over its kinds.

    State after a kind: (runs started one kind ago, runs started two kinds ago, sets, pairs) -> the
    fewest added tiles. At each kind the target may place a pung, a pair (once) and new runs; the
    target's count of that kind (its own groups plus the runs still passing through) is at most four,
    and tiles of the part beyond the target are thrown away at no cost.
    """
    states: dict[State, int] = {(0, 0, 0, 0): 0}
    for kind, held in enumerate(config):
        states = dp_step(states, held, may_start_runs=runs and kind <= len(config) - 3)
    return dp_finish(states, config)


def dp_step(states: dict[State, int], held: int, *, may_start_runs: bool) -> dict[State, int]:
    """One kind of the programme: every way the target can cover it, and what that costs."""
    next_states: dict[State, int] = {}
    for (runs_1, runs_2, sets, pairs), cost in states.items():
        passing = runs_1 + runs_2
        for pung in (0, 1):
            for pair in (0, 1) if pairs == 0 else (0,):
                fixed = passing + 3 * pung + 2 * pair
                if fixed > COPIES or sets + pung > MAX_SETS:
                    continue
                most_new_runs = min(COPIES - fixed, MAX_SETS - sets - pung) if may_start_runs else 0
                for new_runs in range(most_new_runs + 1):
                    target = fixed + new_runs
                    key = (new_runs, runs_1, sets + pung + new_runs, pairs + pair)
                    total = cost + (target - held if target > held else 0)
                    if next_states.get(key, _INFINITY) > total:
                        next_states[key] = total
    return next_states


def dp_finish(states: dict[State, int], config: Config) -> Vector:
    """The vector from the final states: no run may be left open past the last kind."""
    distances = [_INFINITY] * DISTANCES
    for (runs_1, runs_2, sets, pairs), cost in states.items():
        if runs_1 == 0 and runs_2 == 0:
            index = 2 * sets + pairs
            distances[index] = min(distances[index], cost)
    distances.append(sum(count // 2 for count in config))
    distances.append(sum(config))
    return tuple(distances)


# The whole suit table, built once by tools/make_suit_table.py and shipped as package data: a miss
# in the per-configuration memo below then costs one array read instead of the programme.
_SHIPPED_MISSING: Final = 0xFFFF
_POWERS: Final = tuple(5**kind for kind in range(SUIT_SIZE))


def _package_file(name: str) -> bytes:
    """A data file shipped in this package (empty when it is missing)."""
    try:
        return (resources.files("hupai.hand") / name).read_bytes()
    except OSError:
        return b""


@cache
def _suit_table_file() -> bytes:
    return _package_file("suit_table.bin")


def decode_suit_table(raw: bytes) -> tuple[list[Vector], bytes]:
    """A suit table file's vectors, and for every base-5 index of a suit configuration its vector's
    number, two little-endian bytes (both empty when the file is damaged)."""
    vectors: list[Vector] = []
    try:
        data = zlib.decompress(raw)
    except zlib.error:
        data = b""
    if not data.startswith(b"HPST1"):
        return [], b""
    count, length = struct.unpack_from("<HH", data, 5)
    start = 9
    for number in range(count):
        vectors.append(tuple(data[start + number * length : start + (number + 1) * length]))
    numbers = data[start + count * length :]
    if len(numbers) != 2 * 5**SUIT_SIZE:
        return [], b""
    return vectors, numbers


@cache
def _shipped_table() -> tuple[list[Vector], bytes]:
    """The shipped table (:func:`decode_suit_table`), read on first need."""
    return decode_suit_table(_suit_table_file())


def suit_distance_vector(config: Config) -> Vector:
    """A suit's vector: from the shipped table when it holds the configuration, else computed."""
    vectors, numbers = _shipped_table()
    if numbers:
        index = 2 * sum(count * power for count, power in zip(config, _POWERS, strict=True))
        found = numbers[index] | numbers[index + 1] << 8
        if found != _SHIPPED_MISSING:
            vector: Vector = vectors[found]
            return vector
    return distance_vector(config, runs=True)


def shipped_suit_ids() -> tuple[bytes, list[int]]:
    """The shipped table as the compiled build reads it (hupai.hand.analysis): for every base-5 index
    of a suit configuration its vector's number (two little-endian bytes, 0xFFFF for none), and for
    each number the vector's interned id. Empty when the file is missing or damaged."""
    vectors, numbers = _shipped_table()
    return numbers, [intern_vector(vector) for vector in vectors]


# Interned vectors: a part maps to an id, and pairs of ids map to the id of their combination.
VECTORS: Final[list[Vector]] = []
_VECTOR_IDS: Final[dict[Vector, int]] = {}
SUIT_VECTOR_IDS: Final[dict[Config, int]] = {}
HONOUR_VECTOR_IDS: Final[dict[Config, int]] = {}
COMBINED: Final[dict[int, int]] = {}
"""(id_a << COMBINE_SHIFT | id_b) -> id of the min-plus combination of the two vectors."""
COMBINE_SHIFT: Final = 24


def intern_vector(vector: Vector) -> int:
    """The id of a vector (distances, pairs, tiles), remembered with its derived full-hand shanten."""
    found = _VECTOR_IDS.get(vector)
    if found is None:
        found = _VECTOR_IDS[vector] = len(VECTORS)
        full_hand = min(vector[2 * MAX_SETS + 1] - 1, 6 - vector[PAIRS_INDEX])
        VECTORS.append((*vector, full_hand))
    return found


def suit_vector_id(config: Config) -> int:
    """The vector id of a suit part (computed and remembered on first sight)."""
    found = SUIT_VECTOR_IDS.get(config)
    if found is None:
        check_part(config, SUIT_SIZE)
        found = SUIT_VECTOR_IDS[config] = intern_vector(suit_distance_vector(config))
    return found


def honour_vector_id(config: Config) -> int:
    """The vector id of the honours part (computed and remembered on first sight)."""
    found = HONOUR_VECTOR_IDS.get(config)
    if found is None:
        check_part(config, HONOUR_SIZE)
        found = HONOUR_VECTOR_IDS[config] = intern_vector(distance_vector(config, runs=False))
    return found


def _min_plus_steps() -> tuple[tuple[int, int, int], ...]:
    """(index in a, index in b, index of the sum) for every way to split a target between two parts."""
    steps: list[tuple[int, int, int]] = []
    for index_a in range(DISTANCES):
        sets_a, pairs_a = divmod(index_a, 2)
        for index_b in range(DISTANCES):
            sets_b, pairs_b = divmod(index_b, 2)
            if sets_a + sets_b <= MAX_SETS and pairs_a + pairs_b <= 1:
                steps.append((index_a, index_b, 2 * (sets_a + sets_b) + pairs_a + pairs_b))
    return tuple(steps)


_MIN_PLUS_STEPS: Final = _min_plus_steps()


def min_plus(a: tuple[int, ...], b: tuple[int, ...]) -> list[int]:
    """The distances of two disjoint parts together: for each target, the best split of it."""
    merged = [_INFINITY] * DISTANCES
    for index_a, index_b, index in _MIN_PLUS_STEPS:
        merged[index] = min(merged[index], a[index_a] + b[index_b])
    return merged


def combine(first: int, second: int) -> int:
    """The id of the min-plus combination of two vectors: the best split of sets and the pair between
    two disjoint parts, with their seven-pairs counts added."""
    key = first << COMBINE_SHIFT | second
    found = COMBINED.get(key)
    if found is None:
        a = VECTORS[first]
        b = VECTORS[second]
        merged = min_plus(a, b)
        merged.append(a[PAIRS_INDEX] + b[PAIRS_INDEX])
        merged.append(a[TILES_INDEX] + b[TILES_INDEX])
        found = COMBINED[key] = intern_vector(tuple(merged))
    return found


SUIT_WAITS: Final[dict[Config, tuple[tuple[int, int], ...]]] = {}
HONOUR_WAITS: Final[dict[Config, tuple[tuple[int, int], ...]]] = {}


def _part_waits(config: Config, complete: dict[Config, int]) -> tuple[tuple[int, int], ...]:
    found: list[tuple[int, int]] = []
    extended = list(config)
    for kind, count in enumerate(config):
        if count < COPIES:
            extended[kind] += 1
            value = complete.get(tuple(extended))
            if value is not None:
                found.append((kind, value))
            extended[kind] -= 1
    return tuple(found)


def suit_waits(config: Config) -> tuple[tuple[int, int], ...]:
    """(kind within the part, value of the completed part) for every tile that completes a suit part."""
    found = SUIT_WAITS.get(config)
    if found is None:
        check_part(config, SUIT_SIZE)
        found = SUIT_WAITS[config] = _part_waits(config, COMPLETE_SUIT)
    return found


def honour_waits(config: Config) -> tuple[tuple[int, int], ...]:
    """As :func:`suit_waits`, for the honours part."""
    found = HONOUR_WAITS.get(config)
    if found is None:
        check_part(config, HONOUR_SIZE)
        found = HONOUR_WAITS[config] = _part_waits(config, COMPLETE_HONOURS)
    return found


# Shanten of a whole hand, for the compiled build's reader (hupai.hand.analysis). A part's distances
# alone (its pairs and tiles simply add up, so they are kept apart) fall into few classes: 126 among
# the suits, 55 among the honours, and 180 for two or three suits together. Small byte
# tables then combine the four parts by class — suits one and two, then the third, then the honours,
# whose table holds the distance to "m sets and a pair" for each m — with no hashing or boxing.
HONOUR_KEYS: Final = 1 << 12
"""Honour keys: how many kinds hold one, two, three and four copies, three bits each. The honours'
vector depends on nothing else (they form no runs)."""


class ClassTables:
    """The class tables; every table is bytes. ``numbers`` is the shipped table (empty when it is
    missing, and then nothing here is filled); the ``suit_*`` tables are indexed by a vector's number
    in it, the ``honour_*`` ones by an honour key."""

    def __init__(self, numbers: bytes) -> None:
        self.numbers = numbers
        self.suit_class = b""
        self.suit_pairs = b""
        self.suit_tiles = b""
        self.honour_class = b""
        self.honour_pairs = b""
        self.honour_tiles = b""
        self.suits = 0
        """Suit classes: the stride of ``pair`` and ``triple``."""
        self.honours = 0
        """Honour classes: ``final`` holds, for each group class, one row of them."""
        self.pair = b""
        """Class of suits one and two -> group class."""
        self.triple = b""
        """(group class of two suits, class of the third) -> group class of the three."""
        self.final = b""
        """(group class, honour class, m) -> distance to m sets and a pair (five per pair of classes)."""


def _interned(
    distances: tuple[int, ...], ids: dict[tuple[int, ...], int], found: list[tuple[int, ...]]
) -> int:
    number = ids.get(distances)
    if number is None:
        number = ids[distances] = len(found)
        found.append(distances)
    return number


def honour_key(config: Config) -> int:
    """The honour key of a configuration of the honours (see :data:`HONOUR_KEYS`)."""
    return sum((1 << (3 * count)) >> 3 for count in config)


def _honour_configs() -> list[Config]:
    """One configuration of the honours for each key: the copies of each kind, in order."""
    configs: list[Config] = []
    for held in product(range(HONOUR_SIZE + 1), repeat=COPIES):
        if sum(held) <= HONOUR_SIZE:
            kinds = [copies for copies, number in enumerate(held, start=1) for _ in range(number)]
            configs.append(tuple(kinds + [0] * (HONOUR_SIZE - len(kinds))))
    return configs


def build_class_tables(vectors: list[Vector], numbers: bytes) -> ClassTables:
    """The class tables of a suit table (:func:`decode_suit_table`): about 0.1 s compiled, so they are
    shipped too (:func:`class_tables`)."""
    built = ClassTables(numbers)
    if not numbers:
        return built
    suit_ids: dict[tuple[int, ...], int] = {}
    suits: list[tuple[int, ...]] = []
    built.suit_class = bytes(_interned(vector[:DISTANCES], suit_ids, suits) for vector in vectors)
    built.suit_pairs = bytes(vector[PAIRS_INDEX] for vector in vectors)
    built.suit_tiles = bytes(vector[TILES_INDEX] for vector in vectors)
    honour_ids: dict[tuple[int, ...], int] = {}
    honours: list[tuple[int, ...]] = []
    honour_class = bytearray(HONOUR_KEYS)
    honour_pairs = bytearray(HONOUR_KEYS)
    honour_tiles = bytearray(HONOUR_KEYS)
    for config in _honour_configs():
        key = honour_key(config)
        vector = distance_vector(config, runs=False)
        honour_class[key] = _interned(vector[:DISTANCES], honour_ids, honours)
        honour_pairs[key] = vector[PAIRS_INDEX]
        honour_tiles[key] = vector[TILES_INDEX]
    built.honour_class = bytes(honour_class)
    built.honour_pairs = bytes(honour_pairs)
    built.honour_tiles = bytes(honour_tiles)
    built.suits = len(suits)
    built.honours = len(honours)
    group_ids: dict[tuple[int, ...], int] = {}
    groups: list[tuple[int, ...]] = []
    built.pair = bytes(_interned(tuple(min_plus(a, b)), group_ids, groups) for a in suits for b in suits)
    two_suits = list(groups)
    built.triple = bytes(
        _interned(tuple(min_plus(group, c)), group_ids, groups) for group in two_suits for c in suits
    )
    final = bytearray()
    for group in groups:
        for honour in honours:
            merged = min_plus(group, honour)
            final.extend(merged[2 * sets + 1] for sets in range(MAX_SETS + 1))
    built.final = bytes(final)
    return built


# The class tables as shipped (class_tables.bin, written with the suit table by
# tools/make_suit_table.py): the byte tables in the order below, after the CRC-32 of the suit table
# file they were built from, so that a suit table shipped without them is never read with stale ones.
_CLASS_MAGIC: Final = b"HPCT1"
_CLASS_HEADER: Final = "<IHH"


def _class_blobs(built: ClassTables) -> list[bytes]:
    return [
        built.suit_class,
        built.suit_pairs,
        built.suit_tiles,
        built.honour_class,
        built.honour_pairs,
        built.honour_tiles,
        built.pair,
        built.triple,
        built.final,
    ]


def encode_class_tables(built: ClassTables, suit_file: bytes) -> bytes:
    """The class tables as the shipped file holds them (zlib-compressed)."""
    body = bytearray(_CLASS_MAGIC)
    body += struct.pack(_CLASS_HEADER, zlib.crc32(suit_file), built.suits, built.honours)
    for blob in _class_blobs(built):
        body += struct.pack("<I", len(blob))
        body += blob
    return zlib.compress(bytes(body), 9)


def decode_class_tables(raw: bytes, suit_file: bytes, numbers: bytes) -> ClassTables | None:
    """The class tables of a shipped file, or None when it is damaged or belongs to another suit table."""
    try:
        data = zlib.decompress(raw)
    except zlib.error:
        return None
    header = len(_CLASS_MAGIC) + struct.calcsize(_CLASS_HEADER)
    if not numbers or not data.startswith(_CLASS_MAGIC) or len(data) < header:
        return None
    crc, suits, honours = struct.unpack_from(_CLASS_HEADER, data, len(_CLASS_MAGIC))
    if crc != zlib.crc32(suit_file):
        return None
    blobs: list[bytes] = []
    at = header
    while at + 4 <= len(data):
        (length,) = struct.unpack_from("<I", data, at)
        blobs.append(data[at + 4 : at + 4 + length])
        at += 4 + length
    if len(blobs) != 9 or at != len(data):
        return None
    built = ClassTables(numbers)
    built.suits, built.honours = suits, honours
    built.suit_class, built.suit_pairs, built.suit_tiles = blobs[0], blobs[1], blobs[2]
    built.honour_class, built.honour_pairs, built.honour_tiles = blobs[3], blobs[4], blobs[5]
    built.pair, built.triple, built.final = blobs[6], blobs[7], blobs[8]
    return built if _class_tables_fit(built) else None


def _class_tables_fit(built: ClassTables) -> bool:
    """Whether every index the hot path can form stays inside its table."""
    suits, honours = built.suits, built.honours
    rows = len(built.final) // (honours * (MAX_SETS + 1)) if honours else 0
    return (
        len(built.suit_class) == len(built.suit_pairs) == len(built.suit_tiles) > 0
        and len(built.honour_class) == len(built.honour_pairs) == len(built.honour_tiles) == HONOUR_KEYS
        and len(built.pair) == suits * suits > 0
        and len(built.triple) % suits == 0
        and len(built.final) == rows * honours * (MAX_SETS + 1) > 0
        and max(built.suit_class) < suits
        and max(built.honour_class) < honours
        and max(built.pair) < len(built.triple) // suits
        and max(built.triple) < rows
    )


def class_tables() -> ClassTables:
    """The class tables: the shipped ones when they belong to the shipped suit table, else built from
    it (empty when that is missing too)."""
    vectors, numbers = _shipped_table()
    suit_file = _suit_table_file()
    shipped = decode_class_tables(_package_file("class_tables.bin"), suit_file, numbers)
    return shipped if shipped is not None else build_class_tables(vectors, numbers)
