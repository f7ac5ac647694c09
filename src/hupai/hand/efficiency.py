"""Tile efficiency (牌效): which tiles improve a hand, and what each discard leaves.

``unseen`` is a 34-count vector of copies the player has not seen (four minus those in hand, melds,
discards …); by default only the hand itself is subtracted.

>>> from hupai.tiles import parse_counts, format_tiles
>>> best = discard_options(parse_counts("123m456p789s11357z"))[0]
>>> format_tiles([best.discard]), best.shanten, best.accepting_count
('3z', 1, 8)
>>> format_tiles(kind for kind, _ in best.accepting)
'157z'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hupai.hand.analysis import shanten
from hupai.tiles import NUM_KINDS

__all__ = ["DiscardOption", "accepting_tiles", "discard_options", "unseen_counts"]

_COPIES = 4


def unseen_counts(counts: Sequence[int], seen: Sequence[int] = ()) -> list[int]:
    """Copies not in ``counts`` nor among the ``seen`` tiles (an ordered list of kinds, flowers ignored)."""
    unseen = [_COPIES - count for count in counts]
    for tile in seen:
        if tile < NUM_KINDS and unseen[tile] > 0:
            unseen[tile] -= 1
    return unseen


def accepting_tiles(
    counts: Sequence[int], *, unseen: Sequence[int] | None = None, melds: int | None = None, jokers: int = 0
) -> list[tuple[int, int]]:
    """For a hand of 3n+1 tiles: (kind, unseen copies) of every kind whose draw lowers its shanten (进张)."""
    available = unseen_counts(counts) if unseen is None else unseen
    current = shanten(counts, melds=melds, jokers=jokers)
    extended = list(counts)
    found: list[tuple[int, int]] = []
    for kind in range(NUM_KINDS):
        if extended[kind] < _COPIES and available[kind] > 0:
            extended[kind] += 1
            if shanten(extended, jokers=jokers) < current:
                found.append((kind, available[kind]))
            extended[kind] -= 1
    return found


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """What discarding one kind from a hand of 3n+2 tiles leaves."""

    discard: int
    shanten: int
    accepting: tuple[tuple[int, int], ...]

    @property
    def accepting_count(self) -> int:
        """Unseen copies of all accepting kinds together."""
        return sum(copies for _, copies in self.accepting)


def discard_options(
    counts: Sequence[int], *, unseen: Sequence[int] | None = None, jokers: int = 0
) -> list[DiscardOption]:
    """Every distinct discard, best first: lowest shanten, then most accepting copies, then tile order."""
    available = unseen_counts(counts) if unseen is None else unseen
    remaining = list(counts)
    options: list[DiscardOption] = []
    for kind in range(NUM_KINDS):
        if remaining[kind]:
            remaining[kind] -= 1
            after = shanten(remaining, jokers=jokers)
            accepting = (
                tuple(accepting_tiles(remaining, unseen=available, jokers=jokers)) if after >= 0 else ()
            )
            options.append(DiscardOption(kind, after, accepting))
            remaining[kind] += 1
    options.sort(key=lambda option: (option.shanten, -option.accepting_count, option.discard))
    return options
