"""A ladder: every pairing of a list of bots plays the same duplicate deals, two seats each.

>>> ladder = arena(ArenaConfig(ruleset="nanjing", bots=("random", "efficiency"), hands=8, seed=1))
>>> [(pair.first, pair.second, pair.result.hands) for pair in ladder.pairs]
[('random', 'efficiency', 8)]

A pairing seats the two bots as ``A A B B`` round the table and plays every deal in the four rotations
of that line-up (so each bot sits in every seat twice and beside each kind of neighbour), on the same
deals for every pairing. Each bot's score per hand against the other has a 95% interval over deals; the
two scores of a pairing add up to zero.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from hupai.sim import BotStats, SimConfig, SimResult, simulate

__all__ = ["ArenaConfig", "Ladder", "Pairing", "arena", "pairing_config"]

Runner = Callable[[SimConfig], SimResult]


@dataclass(frozen=True)
class ArenaConfig:
    ruleset: str = "nanjing"
    options: dict[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = ("random", "efficiency", "strong")
    hands: int = 400  # hands per pairing (rounded up to whole deals of four)
    seed: int = 0
    check: bool = False


@dataclass(frozen=True)
class Pairing:
    first: str
    second: str
    result: SimResult

    def stats(self, bot: str) -> BotStats:
        return self.result.bots[bot]


@dataclass(frozen=True)
class Ladder:
    bots: tuple[str, ...]
    pairs: tuple[Pairing, ...]

    def against(self, bot: str, other: str) -> BotStats | None:
        """``bot``'s results against ``other`` (None for itself)."""
        for pair in self.pairs:
            if {pair.first, pair.second} == {bot, other} and bot != other:
                return pair.stats(bot)
        return None

    def overall(self, bot: str) -> tuple[float, float]:
        """``bot``'s mean score per hand over all its pairings, each weighted equally, with a 95%
        interval (the pairings are independent, so their variances add)."""
        found = [stats for other in self.bots if (stats := self.against(bot, other)) is not None]
        if not found:
            return 0.0, math.inf
        mean = sum(stats.mean for stats in found) / len(found)
        spread = math.sqrt(sum(stats.paired_interval**2 for stats in found)) / len(found)
        return mean, spread

    def ranking(self) -> list[str]:
        return sorted(self.bots, key=lambda bot: -self.overall(bot)[0])

    def as_dict(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "pairs": [
                {
                    "bots": [pair.first, pair.second],
                    "hands": pair.result.hands,
                    "deals": pair.result.deals,
                    "mean": {bot: pair.stats(bot).mean for bot in (pair.first, pair.second)},
                    "ci95": {bot: pair.stats(bot).paired_interval for bot in (pair.first, pair.second)},
                }
                for pair in self.pairs
            ],
            "overall": {
                bot: {"mean": self.overall(bot)[0], "ci95": self.overall(bot)[1]} for bot in self.ranking()
            },
        }


def pairing_config(config: ArenaConfig, first: str, second: str) -> SimConfig:
    return SimConfig(
        ruleset=config.ruleset,
        options=config.options,
        bots=(first, first, second, second),
        hands=config.hands,
        seed=config.seed,
        check=config.check,
        duplicate="rotations",
    )


def arena(config: ArenaConfig, *, run: Runner | None = None) -> Ladder:
    """Play every pairing of ``config.bots`` (``run`` plays one simulation: by default on this
    process; ``hupai arena`` passes one that uses processes or a Ray cluster)."""
    if len(set(config.bots)) != len(config.bots) or len(config.bots) < 2:
        raise ValueError("an arena needs two or more different bots")
    runner: Runner = run or simulate
    pairs = tuple(
        Pairing(first, second, runner(pairing_config(config, first, second)))
        for first, second in combinations(config.bots, 2)
    )
    return Ladder(bots=tuple(config.bots), pairs=pairs)


def pairings(bots: Sequence[str]) -> int:
    return len(list(combinations(bots, 2)))
