"""Write the golden hand files in tests/data/hands/ (fixed seed) and cross-check them once against the
`mahjong` package from PyPI (a dev-only dependency).

    python tools/make_golden_hands.py            # regenerate and cross-check
    python tools/make_golden_hands.py --check    # cross-check the committed files only

Files (one JSON object per line):

* ``random.jsonl``: random deals of 1-14 tiles from the 136 playable tiles.
* ``near.jsonl``: complete hands with one or two tiles taken out or swapped (ready and nearly ready).
* ``wild.jsonl``: hands with one or two wildcards, checked against trying every tile for each wildcard.

Fields: ``hand`` (notation), ``melds``, ``jokers``, ``shanten``, ``standard`` (standard form alone),
``seven_pairs`` (null unless 13/14 tiles), then ``waits`` (notation) for 3n+1 tiles or ``win`` for
3n+2 tiles.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hupai.hand import is_win, seven_pairs_shanten, shanten, standard_shanten, waits
from hupai.tiles import NUM_KINDS, format_counts, format_tiles, parse_counts, parse_tiles

HANDS_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "hands"
SEED = 20261129
RANDOM_HANDS = 12_000
NEAR_HANDS = 12_000
WILD_HANDS = 2_000

Record = dict[str, Any]


def expected(counts: list[int], jokers: int = 0) -> Record:
    """The values our implementation gives; the cross-checks below vouch for them."""
    total = sum(counts) + jokers
    melds = (14 - total) // 3
    record: Record = {
        "hand": format_counts(counts),
        "melds": melds,
        "jokers": jokers,
        "shanten": shanten(counts, jokers=jokers),
        "standard": standard_shanten(counts, jokers=jokers),
        "seven_pairs": seven_pairs_shanten(counts, jokers=jokers) if melds == 0 else None,
    }
    if total % 3 == 1:
        record["waits"] = format_tiles(waits(counts, jokers=jokers))
    else:
        record["win"] = is_win(counts, jokers=jokers)
    return record


def _counts(tiles: list[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


def random_hands(rng: random.Random) -> Iterator[list[int]]:
    wall = [kind for kind in range(NUM_KINDS) for _ in range(4)]
    sizes = [14, 13] * 7 + [11, 10, 8, 7, 5, 4, 2, 1]
    for _ in range(RANDOM_HANDS):
        yield _counts(rng.sample(wall, rng.choice(sizes)))


def complete_hand(rng: random.Random, sets: int) -> list[int]:
    """A random complete hand of ``sets`` sets and a pair (or, one time in eight, seven pairs)."""
    while True:
        counts = [0] * NUM_KINDS
        if sets == 4 and rng.random() < 0.125:
            for _ in range(7):
                counts[rng.randrange(NUM_KINDS)] += 2
        else:
            for _ in range(sets):
                if rng.random() < 0.35:
                    counts[rng.randrange(NUM_KINDS)] += 3
                else:
                    start = rng.randrange(3) * 9 + rng.randrange(7)
                    for tile in range(start, start + 3):
                        counts[tile] += 1
            counts[rng.randrange(NUM_KINDS)] += 2
        if max(counts) <= 4:
            return counts


def _take(rng: random.Random, counts: list[int]) -> None:
    counts[rng.choice([tile for tile in range(NUM_KINDS) if counts[tile]])] -= 1


def _add(rng: random.Random, counts: list[int], near: bool) -> None:
    while True:
        if near:  # mostly a neighbour of a tile already held, as real hands grow
            base = rng.choice([tile for tile in range(NUM_KINDS) if counts[tile]] or [0])
            tile = base + rng.choice((-2, -1, 0, 1, 2)) if base < 27 else base
            if not 0 <= tile < 27 or tile // 9 != base // 9:
                tile = base
        else:
            tile = rng.randrange(NUM_KINDS)
        if counts[tile] < 4:
            counts[tile] += 1
            return


def near_hands(rng: random.Random) -> Iterator[list[int]]:
    for number in range(NEAR_HANDS):
        sets = 4 if number % 5 else rng.randrange(5)
        counts = complete_hand(rng, sets)
        shape = number % 4
        if shape == 0:  # ready: one tile out
            _take(rng, counts)
        elif shape == 1:  # one tile swapped
            _take(rng, counts)
            _add(rng, counts, near=rng.random() < 0.6)
        elif shape == 2:  # two tiles swapped
            for _ in range(2):
                _take(rng, counts)
            for _ in range(2):
                _add(rng, counts, near=rng.random() < 0.6)
        else:  # two out, one in: a hand of 3n+1, about one away
            for _ in range(2):
                _take(rng, counts)
            _add(rng, counts, near=True)
        if sum(counts):
            yield counts


def wild_hands(rng: random.Random) -> Iterator[tuple[list[int], int]]:
    wall = [kind for kind in range(NUM_KINDS) for _ in range(4)]
    for _ in range(WILD_HANDS):
        jokers = rng.choice((1, 2))
        if rng.random() < 0.6:  # a complete hand with wildcards in place of some tiles, maybe one short
            counts = complete_hand(rng, rng.choice((4, 4, 4, 3, 2, 1)))
            for _ in range(jokers + rng.randrange(2)):
                _take(rng, counts)
        else:
            size = rng.choice((13, 14, 10, 11, 7, 8, 4, 5)) - jokers
            counts = _counts(rng.sample(wall, size))
        yield counts, jokers


# --- cross-checks ----------------------------------------------------------------------------


def brute_force_wild(counts: list[int], jokers: int) -> Record:
    """Try every tile for every wildcard (never a fifth copy): shanten is the best of the plain hands."""
    best_shanten = best_standard = best_seven = 99
    winning = False
    found: set[int] = set()
    total = sum(counts) + jokers
    for chosen in itertools.combinations_with_replacement(range(NUM_KINDS), jokers):
        plain = counts[:]
        for tile in chosen:
            plain[tile] += 1
        if max(plain) > 4:
            continue
        best_shanten = min(best_shanten, shanten(plain))
        best_standard = min(best_standard, standard_shanten(plain))
        if total >= 13:
            best_seven = min(best_seven, seven_pairs_shanten(plain))
        if total % 3 == 1:
            found.update(waits(plain))
        else:
            winning = winning or is_win(plain)
    record: Record = {
        "shanten": best_shanten,
        "standard": best_standard,
        "seven_pairs": best_seven if total >= 13 else None,
    }
    if total % 3 == 1:
        record["waits"] = format_tiles(sorted(found))
    else:
        record["win"] = winning
    return record


def cross_check(records: list[Record]) -> Counter[str]:
    """Compare every record with the `mahjong` package (plain hands) or brute force (wildcards).

    Returns a tally of agreements and explained differences; raises on an unexplained difference.
    The one known difference: in seven pairs we count four of a kind as two pairs (Chinese rule),
    the `mahjong` package (riichi rule) does not — so with three or four of a kind in hand our
    seven-pairs shanten can be lower, and a hand like 11112233445566m wins only for us.
    """
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    tally: Counter[str] = Counter()
    for record in records:
        counts = parse_counts(record["hand"])
        if record["jokers"]:
            reference = brute_force_wild(counts, record["jokers"])
            for field, value in reference.items():
                if record[field] != value:
                    raise AssertionError(f"{record}: {field} should be {value} by brute force")
            tally["wildcards: agree with brute force"] += 1
            continue
        has_four = 4 in counts
        theirs = Shanten.calculate_shanten_for_regular_hand(counts)
        if record["standard"] != theirs:
            raise AssertionError(f"{record}: mahjong gives standard shanten {theirs}")
        tally["standard shanten: same"] += 1
        if record["seven_pairs"] is not None:
            theirs = Shanten.calculate_shanten_for_chiitoitsu_hand(counts)
            if record["seven_pairs"] == theirs:
                tally["seven pairs shanten: same"] += 1
            elif (has_four or 3 in counts) and record["seven_pairs"] < theirs:
                # With three or four of a kind, the fourth copy is a second pair for us, never for riichi.
                tally["seven pairs shanten: differs, four of a kind = two pairs"] += 1
            else:
                raise AssertionError(f"{record}: mahjong gives seven-pairs shanten {theirs}")
        if "waits" in record:
            ours = parse_tiles(record["waits"])
            agari = [
                tile
                for tile in range(NUM_KINDS)
                if counts[tile] < 4 and Agari.is_agari([c + (k == tile) for k, c in enumerate(counts)])
            ]
            extra = set(ours) - set(agari)
            if not extra and set(agari) == set(ours):
                tally["waits: same as 34 Agari calls"] += 1
            elif not set(agari) - set(ours) and all(_seven_pairs_with_four(counts, tile) for tile in extra):
                tally["waits: differ, seven pairs with four of a kind"] += 1
            else:
                raise AssertionError(f"{record}: 34 Agari calls give {format_tiles(agari)}")
        else:
            theirs_win = Agari.is_agari(counts)
            if record["win"] == theirs_win:
                tally["win: same as Agari"] += 1
            elif record["win"] and sum(counts) == 14 and all(c % 2 == 0 for c in counts) and has_four:
                tally["win: differs, seven pairs with four of a kind"] += 1
            else:
                raise AssertionError(f"{record}: Agari gives {theirs_win}")
    return tally


def _seven_pairs_with_four(counts: list[int], tile: int) -> bool:
    completed = counts[:]
    completed[tile] += 1
    return sum(completed) == 14 and all(c % 2 == 0 for c in completed) and 4 in completed


def _write(name: str, records: list[Record]) -> None:
    path = HANDS_DIR / name
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(f"wrote {len(records)} hands to {path.relative_to(HANDS_DIR.parent.parent.parent)}")


def load(name: str) -> list[Record]:
    with (HANDS_DIR / name).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--check", action="store_true", help="only cross-check the committed files")
    arguments = parser.parse_args()
    names = ("random.jsonl", "near.jsonl", "wild.jsonl")
    if not arguments.check:
        rng = random.Random(SEED)
        HANDS_DIR.mkdir(parents=True, exist_ok=True)
        _write(names[0], [expected(counts) for counts in random_hands(rng)])
        _write(names[1], [expected(counts) for counts in near_hands(rng)])
        _write(names[2], [expected(counts, jokers) for counts, jokers in wild_hands(rng)])
    for name in names:
        print(f"{name}:")
        for line, count in sorted(cross_check(load(name)).items()):
            print(f"  {count:6d}  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
