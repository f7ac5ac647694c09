"""The reference players: ``random`` (any legal action) and ``efficiency`` (牌效: fewest tiles away,
most tiles that help; claims only when they bring the hand closer)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from hupai.bots.base import natural_counts, unseen_from
from hupai.game.actions import Action, Chow, DeclareReady, Discard, Kong, Lay, Pass, Pong, Win
from hupai.game.view import SeatView
from hupai.hand import shanten
from hupai.hand.efficiency import accepting_tiles


class RandomBot:
    """随机: picks uniformly among the legal actions (the reference for speed and strength)."""

    name: ClassVar[str] = "random"
    zh: ClassVar[str] = "随机"
    en: ClassVar[str] = "Random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        # What self.rng.choice(legal) picks, written out (an index drawn by rejection from
        # getrandbits) so that the compiled build (hupai._native) runs it compiled.
        size = len(legal)
        if not size:
            raise IndexError("no legal action to choose from")
        bits = size.bit_length()
        pick = self.rng.getrandbits(bits)
        while pick >= size:
            pick = self.rng.getrandbits(bits)
        return legal[pick]


NO_CLAIM = 99  # the shanten after a claim the hand cannot make (worse than any hand's)


def first_of(legal: Sequence[Action], kind: type) -> Action | None:
    return next((action for action in legal if isinstance(action, kind)), None)


def best_discard(
    counts: list[int], discards: Sequence[Discard], unseen: Sequence[int], *, jokers: int = 0
) -> Discard:
    """The discard that leaves the fewest tiles to go, then the most unseen tiles that help
    (``jokers``: wildcards held apart from ``counts``, Enshi's 赖子)."""
    return min(discards, key=lambda action: discard_key(counts, action.tile, unseen, jokers=jokers))


def discard_key(
    counts: list[int], tile: int, unseen: Sequence[int], *, jokers: int = 0
) -> tuple[int, int, int]:
    """How good letting ``tile`` go is, smallest best: the tiles to go after it, then fewest helping
    tiles negated, then the tile. A tile ``counts`` lacks is a wildcard held apart (``jokers``), let
    go only when nothing else may go (Enshi, at the end of the wall)."""
    if counts[tile] == 0:
        return (NO_CLAIM, 0, tile)
    after, accepted = discard_outcome(counts, tile, unseen, jokers=jokers)
    return (after, -accepted, tile)


class EfficiencyBot:
    """牌效: tile efficiency only. Wins whenever it may, declares 报听 when offered, discards for the
    fewest tiles to go and the most helping tiles, and claims a pung or kong only if it brings the
    hand closer (a kong: no further)."""

    name: ClassVar[str] = "efficiency"
    zh: ClassVar[str] = "牌效"
    en: ClassVar[str] = "Efficiency"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        win = first_of(legal, Win)
        if win is not None:
            return win
        ready = first_of(legal, DeclareReady)
        if ready is not None:
            return ready
        lay = next((a for a in legal if isinstance(a, Lay) and a.tile == view.pizi), None)
        if lay is not None or (legal and all(isinstance(a, Lay) for a in legal)):
            return lay or legal[0]  # a 痞子 only multiplies and never helps the hand: lay it at once
        counts, jokers = natural_counts(view)
        unseen = unseen_from(view)
        discards = [action for action in legal if isinstance(action, Discard)]
        if discards:
            now = shanten(counts, jokers=jokers)
            for action in legal:
                if (
                    isinstance(action, Kong)
                    and action.tile is not None
                    and kong_keeps_shanten(counts, action.tile, now, jokers=jokers)
                ):
                    return action
            return best_discard(counts, discards, unseen, jokers=jokers)
        tile = view.open_tile
        if tile is not None:
            now = shanten(counts, jokers=jokers)
            kong = first_of(legal, Kong)
            if kong is not None and after_claim(counts, [tile] * 3, jokers=jokers) <= now:
                return kong
            pong = first_of(legal, Pong)
            if pong is not None and after_claim(counts, [tile] * 2, jokers=jokers) < now:
                return pong
            for chow in (action for action in legal if isinstance(action, Chow)):
                run = [chow.tile, chow.tile + 1, chow.tile + 2]
                run.remove(tile)
                if after_claim(counts, run, jokers=jokers) < now:
                    return chow
        passing = first_of(legal, Pass)
        return passing if passing is not None else legal[0]


def after_claim(counts: list[int], used: Sequence[int], *, jokers: int = 0) -> int:
    """Shanten after a claim that takes the ``used`` tiles from hand, then the best discard. A tile
    the hand lacks is a 赖子 standing in for it (Enshi's ``laizi_in_melds``)."""
    taken = []
    for tile in used:
        if counts[tile] > 0:
            counts[tile] -= 1
            taken.append(tile)
        else:
            jokers -= 1
    try:
        if jokers < 0:  # not a claim this hand can make: never better than now
            return NO_CLAIM
        if (sum(counts) + jokers) % 3 == 2:  # a pung or chow: now a discard is due
            options = [
                after_discard(counts, kind, jokers=jokers) for kind in range(len(counts)) if counts[kind]
            ]
            return min(options) if options else shanten(counts, jokers=jokers)
        return shanten(counts, jokers=jokers)
    finally:
        for tile in taken:
            counts[tile] += 1


def discard_outcome(
    counts: list[int], kind: int, unseen: Sequence[int], *, jokers: int = 0
) -> tuple[int, int]:
    """Letting one ``kind`` go: the shanten left, and how many unseen tiles would then improve the
    hand (0 once it is complete)."""
    counts[kind] -= 1
    try:
        after = shanten(counts, jokers=jokers)
        if after < 0:
            return after, 0
        return after, sum(copies for _, copies in accepting_tiles(counts, unseen=unseen, jokers=jokers))
    finally:
        counts[kind] += 1


def after_discard(counts: list[int], kind: int, *, jokers: int = 0) -> int:
    """Shanten after letting one ``kind`` go."""
    counts[kind] -= 1
    value = shanten(counts, jokers=jokers)
    counts[kind] += 1
    return value


def kong_keeps_shanten(counts: list[int], tile: int, now: int, *, jokers: int = 0) -> bool:
    """Whether a kong of ``tile`` on one's turn leaves the hand no further from ready than a discard."""
    used = 4 if counts[tile] == 4 else 1
    counts[tile] -= used
    try:
        after = shanten(counts, jokers=jokers)
    finally:
        counts[tile] += used
    return after <= now
