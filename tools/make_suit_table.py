"""Build the per-suit distance table shipped with hupai (src/hupai/hand/suit_table.bin), and with it
the class tables of the compiled build's shanten (class_tables.bin beside it).

    python tools/make_suit_table.py             # about half a minute
    python tools/make_suit_table.py --classes   # the class tables alone, from the suit table there

For every suit configuration (nine counts 0-4, at most 14 tiles) it computes the distance vector of
:func:`hupai.hand.tables.distance_vector` and stores, zlib-compressed:

* ``HPST1`` magic, the number of distinct vectors ``V`` and their length ``L`` (two little-endian
  16-bit words each after the magic),
* the ``V`` vectors, ``L`` bytes each,
* for every base-5 index ``sum(c[i] * 5**i)`` of the 5**9 configurations, the 16-bit id of its vector
  (0xFFFF where a configuration has more than 14 tiles).

The dynamic programme of :func:`~hupai.hand.tables.distance_vector` runs once per prefix of the
configuration tree (configurations sharing their first kinds share that work), which is what makes
the whole table affordable in pure Python. A test checks random entries against the programme run
directly. The class tables (:func:`hupai.hand.tables.build_class_tables`, their format at
:func:`~hupai.hand.tables.encode_class_tables`) name the suit table file they belong to by its CRC-32;
a test checks them against a fresh build.
"""

from __future__ import annotations

import struct
import sys
import time
import zlib
from array import array
from pathlib import Path

from hupai.hand.tables import (
    COPIES,
    SUIT_SIZE,
    State,
    build_class_tables,
    decode_suit_table,
    dp_finish,
    dp_step,
    encode_class_tables,
)

OUT = Path(__file__).resolve().parent.parent / "src" / "hupai" / "hand" / "suit_table.bin"
CLASS_OUT = OUT.with_name("class_tables.bin")
MAX_TILES = 14
MISSING = 0xFFFF


def build() -> tuple[list[tuple[int, ...]], array[int]]:
    vectors: list[tuple[int, ...]] = []
    ids: dict[tuple[int, ...], int] = {}
    table = array("H", [MISSING]) * (5**SUIT_SIZE)
    powers = [5**kind for kind in range(SUIT_SIZE)]

    def walk(kind: int, states: dict[State, int], prefix: list[int], index: int, tiles: int) -> None:
        if kind == SUIT_SIZE:
            vector = dp_finish(states, tuple(prefix))
            found = ids.get(vector)
            if found is None:
                found = ids[vector] = len(vectors)
                vectors.append(vector)
            table[index] = found
            return
        for held in range(min(COPIES, MAX_TILES - tiles) + 1):
            prefix.append(held)
            following = dp_step(states, held, may_start_runs=kind <= SUIT_SIZE - 3)
            walk(kind + 1, following, prefix, index + held * powers[kind], tiles + held)
            prefix.pop()

    walk(0, {(0, 0, 0, 0): 0}, [], 0, 0)
    return vectors, table


def encode(vectors: list[tuple[int, ...]], table: array[int]) -> bytes:
    length = len(vectors[0])
    body = bytearray(b"HPST1")
    body += struct.pack("<HH", len(vectors), length)
    for vector in vectors:
        body += bytes(vector)
    little = array("H", table)
    if sys.byteorder != "little":
        little.byteswap()
    body += little.tobytes()
    return zlib.compress(bytes(body), 9)


def write_class_tables(suit_file: bytes) -> None:
    """The class tables of the compiled build's shanten, built from this suit table file."""
    start = time.perf_counter()
    vectors, numbers = decode_suit_table(suit_file)
    built = build_class_tables(vectors, numbers)
    data = encode_class_tables(built, suit_file)
    CLASS_OUT.write_bytes(data)
    print(
        f"{built.suits} suit and {built.honours} honour classes, {len(data):,} bytes "
        f"-> {CLASS_OUT.relative_to(CLASS_OUT.parent.parent.parent.parent)} in "
        f"{time.perf_counter() - start:.1f}s"
    )


def main(argv: list[str]) -> int:
    if argv == ["--classes"]:  # the class tables alone, for the suit table already there
        write_class_tables(OUT.read_bytes())
        return 0
    start = time.perf_counter()
    vectors, table = build()
    data = encode(vectors, table)
    OUT.write_bytes(data)
    valid = sum(1 for value in table if value != MISSING)
    print(
        f"{valid:,} configurations, {len(vectors):,} distinct vectors, {len(data):,} bytes "
        f"-> {OUT.relative_to(OUT.parent.parent.parent.parent)} in {time.perf_counter() - start:.1f}s"
    )
    write_class_tables(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
