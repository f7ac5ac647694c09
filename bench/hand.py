"""Hand analysis speed, side by side with the `mahjong` package and riichienv in one process.

    python bench/hand.py            # full run (a minute or two)
    python bench/hand.py --quick    # small sets, to check that it runs
    python bench/hand.py --json     # machine-readable
    HUPAI_PURE=1 python bench/hand.py   # hupai's pure-Python core (else the compiled one, if built)

All libraries get the same fixed-seed hands: the `mahjong` package (PyPI, pure Python) as 34-count
lists, riichienv (PyPI, Rust; optional, ``pip install -e '.[bench]'``) as its 136-tile ids, converted
before timing. riichienv's win check and shanten are ``calculate_shanten`` (-1 is complete), its
waits ``HandEvaluator(tiles).get_waits()``. The libraries take turns, pass after pass over each set,
and each keeps its best pass, timed in CPU time of this process (every library here runs on one
thread), which a busy machine disturbs less than wall time: what matters is the ratio.

Before timing, hupai's per-suit tables are warmed on a *different* set of hands drawn the same way, so
the timed passes see the steady state of a long-running process (most suit shapes known) rather
than the same hands twice; how many suit shapes were new in the timed sets is reported.

Targets: issue 2, against `mahjong`: win check >= 5x `Agari.is_agari`, shanten >= 20x
`Shanten.calculate_shanten` (standard form and seven pairs, the forms both define), waits of ready
hands >= 20x 34 `Agari` calls; issue 19, against riichienv: win check and shanten at least half its
speed (compiled core).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from mahjong.agari import Agari
from mahjong.shanten import Shanten

import hupai
from hupai.hand import is_win, shanten, waits
from hupai.hand import tables as hand_tables

BUILD = getattr(hupai, "__build__", "pure")  # "compiled" or "pure" (older hupai: pure)

NUM_KINDS = 34
SEED = 2026
WARM_SEED = 4242

Hand = list[int]


def _random_hand(rng: random.Random, size: int) -> Hand:
    counts = [0] * NUM_KINDS
    for tile in rng.sample(range(4 * NUM_KINDS), size):
        counts[tile // 4] += 1
    return counts


def _complete_hand(rng: random.Random) -> Hand:
    while True:
        counts = [0] * NUM_KINDS
        for _ in range(4):
            if rng.random() < 0.35:
                counts[rng.randrange(NUM_KINDS)] += 3
            else:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                for tile in range(start, start + 3):
                    counts[tile] += 1
        counts[rng.randrange(NUM_KINDS)] += 2
        if max(counts) <= 4:
            return counts


def _minus_one(rng: random.Random, counts: Hand) -> Hand:
    out = counts[:]
    out[rng.choice([tile for tile in range(NUM_KINDS) if out[tile]])] -= 1
    return out


def _plus_one(rng: random.Random, counts: Hand) -> Hand:
    out = counts[:]
    while True:
        tile = rng.randrange(NUM_KINDS)
        if out[tile] < 4:
            out[tile] += 1
            return out


def hand_sets(seed: int, size: int) -> dict[str, list[Hand]]:
    rng = random.Random(seed)
    complete = [_complete_hand(rng) for _ in range(size)]
    ready = [_minus_one(rng, hand) for hand in complete]
    return {
        "random 14": [_random_hand(rng, 14) for _ in range(size)],
        "random 13": [_random_hand(rng, 13) for _ in range(size)],
        "complete 14": complete,
        "ready 13": ready,
        "ready + draw 14": [_plus_one(rng, hand) for hand in ready],
    }


def agari_waits(counts: Hand) -> list[int]:
    """The reference way to find waits: try each of the 34 kinds with `Agari.is_agari`."""
    found = []
    for tile in range(NUM_KINDS):
        if counts[tile] < 4:
            counts[tile] += 1
            if Agari.is_agari(counts):
                found.append(tile)
            counts[tile] -= 1
    return found


def reference_shanten(counts: Hand) -> int:
    return Shanten.calculate_shanten(counts, use_chiitoitsu=True, use_kokushi=False)


def riichienv_functions() -> dict[str, Callable[[list[int]], object]] | None:
    """riichienv's calls by operation, on 136-tile ids (None when riichienv is not installed)."""
    try:
        from riichienv import HandEvaluator, calculate_shanten
    except ImportError:
        return None

    def win(tiles: list[int]) -> bool:
        return bool(calculate_shanten(tiles) == -1)

    def hand_waits(tiles: list[int]) -> list[int]:
        return list(HandEvaluator(tiles).get_waits())

    return {"win check": win, "shanten": calculate_shanten, "waits": hand_waits}


def tile_ids(counts: Hand) -> list[int]:
    """A hand as riichienv takes it: tile ids 0-135, four per kind."""
    return [4 * kind + copy for kind, count in enumerate(counts) for copy in range(count)]


Engines = dict[str, tuple[Callable[[Any], object], Sequence[Any]]]


def best_times(engines: Engines, repeats: int) -> dict[str, float]:
    """Each engine's best time for one pass over its hands, the engines taking turns pass after pass."""
    best = {name: float("inf") for name in engines}
    for _ in range(repeats):
        for name, (function, hands) in engines.items():
            start = time.process_time()
            for hand in hands:
                function(hand)
            best[name] = min(best[name], time.process_time() - start)
    return best


@dataclass
class Row:
    operation: str
    hands: str
    count: int
    hupai_per_s: float
    mahjong_per_s: float
    ratio: float
    target: float
    riichienv_per_s: float | None = None
    riichienv_ratio: float | None = None
    riichienv_target: float | None = None


Measurement = tuple[str, str, Callable[[Hand], object], Callable[[Hand], object], float, float | None]
MEASUREMENTS: list[Measurement] = [
    ("win check", "complete 14", is_win, Agari.is_agari, 5.0, 0.5),
    ("win check", "ready + draw 14", is_win, Agari.is_agari, 5.0, 0.5),
    ("win check", "random 14", is_win, Agari.is_agari, 5.0, 0.5),
    ("shanten", "random 13", shanten, reference_shanten, 20.0, 0.5),
    ("shanten", "random 14", shanten, reference_shanten, 20.0, 0.5),
    ("shanten", "ready 13", shanten, reference_shanten, 20.0, 0.5),
    ("waits", "ready 13", waits, agari_waits, 20.0, None),
]


def run(size: int, repeats: int) -> tuple[list[Row], dict[str, int]]:
    warm = hand_sets(WARM_SEED, size)
    for hands in warm.values():
        for hand in hands:
            shanten(hand)
            if sum(hand) % 3 == 1:
                waits(hand)
    known = len(hand_tables.SUIT_VECTOR_IDS)
    timed = hand_sets(SEED, size)
    riichienv = riichienv_functions()
    rows = []
    for operation, name, ours, theirs, target, riichienv_target in MEASUREMENTS:
        hands = timed[name]
        engines: Engines = {
            "hupai": (ours, hands),
            "mahjong": (theirs, hands),
        }
        if riichienv is not None:
            engines["riichienv"] = (riichienv[operation], [tile_ids(hand) for hand in hands])
        times = best_times(engines, repeats)
        row = Row(
            operation,
            name,
            len(hands),
            len(hands) / times["hupai"],
            len(hands) / times["mahjong"],
            times["mahjong"] / times["hupai"],
            target,
        )
        if "riichienv" in times:
            row.riichienv_per_s = len(hands) / times["riichienv"]
            row.riichienv_ratio = times["riichienv"] / times["hupai"]
            row.riichienv_target = riichienv_target
        rows.append(row)
    tables = {
        "suit shapes known after warm-up": known,
        "suit shapes new in the timed sets": len(hand_tables.SUIT_VECTOR_IDS) - known,
        "distinct distance vectors": len(hand_tables.VECTORS),
        "combined pairs remembered": len(hand_tables.COMBINED),
    }
    if BUILD == "compiled":  # shanten reads the shipped class tables: nothing is remembered
        tables = {}
    return rows, tables


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="small sets and one pass (smoke test)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--size", type=int, default=20_000, help="hands per set (default 20000)")
    parser.add_argument("--repeats", type=int, default=5, help="passes per measurement; the best counts")
    arguments = parser.parse_args(argv)
    size, repeats = (300, 1) if arguments.quick else (arguments.size, arguments.repeats)
    rows, tables = run(size, repeats)
    if arguments.json:
        out = {"build": BUILD, "rows": [asdict(row) for row in rows], "tables": tables}
        print(json.dumps(out, indent=2))
        return 0
    print(
        f"hupai hand analysis ({BUILD} core) vs mahjong {_version('mahjong')} and riichienv "
        f"{_version('riichienv')} — Python {platform.python_version()}, {size} hands per set, "
        f"best of {repeats}"
    )
    header = (
        f"{'operation':<11} {'hands':<16} {'hupai calls/s':>14} {'mahjong':>10} {'ratio':>7}  target  "
        f"{'riichienv':>10} {'ratio':>6}  target"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        met = "met" if row.ratio >= row.target else "short"
        line = (
            f"{row.operation:<11} {row.hands:<16} {row.hupai_per_s:>14,.0f} {row.mahjong_per_s:>10,.0f} "
            f"{row.ratio:>6.1f}x  {row.target:>3.0f}x {met:<5}"
        )
        if row.riichienv_per_s is not None and row.riichienv_ratio is not None:
            line += f" {row.riichienv_per_s:>10,.0f} {row.riichienv_ratio:>5.2f}x"
            if row.riichienv_target is not None:
                met = "met" if row.riichienv_ratio >= row.riichienv_target else "short"
                line += f"  {row.riichienv_target:.1f}x {met}"
        print(line)
    for name, value in tables.items():
        print(f"{name}: {value:,}")
    return 0


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "(not installed)"


if __name__ == "__main__":
    sys.exit(main())
