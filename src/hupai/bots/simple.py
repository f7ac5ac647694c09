"""The reference players: ``random`` (any legal action) and ``efficiency`` (牌效: fewest tiles away,
most tiles that help; claims only when they bring the hand closer)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hupai.bots.base import counts_of, unseen_from
from hupai.game.actions import Action, DeclareReady, Discard, Kong, Pass, Pong, Win
from hupai.game.view import SeatView
from hupai.hand import shanten
from hupai.hand.efficiency import accepting_tiles


class RandomBot:
    """随机: picks uniformly among the legal actions (the reference for speed and strength)."""

    name = "random"
    zh = "随机"
    en = "Random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return self.rng.choice(list(legal))


def first_of(legal: Sequence[Action], kind: type) -> Action | None:
    return next((action for action in legal if isinstance(action, kind)), None)


def best_discard(counts: list[int], discards: Sequence[Discard], unseen: Sequence[int]) -> Discard:
    """The discard that leaves the fewest tiles to go, then the most unseen tiles that help."""
    best: tuple[int, int, int] | None = None
    chosen = discards[0]
    for action in discards:
        counts[action.tile] -= 1
        after = shanten(counts)
        accepted = sum(copies for _, copies in accepting_tiles(counts, unseen=unseen)) if after >= 0 else 0
        counts[action.tile] += 1
        key = (after, -accepted, action.tile)
        if best is None or key < best:
            best, chosen = key, action
    return chosen


class EfficiencyBot:
    """牌效: tile efficiency only. Wins whenever it may, declares 报听 when offered, discards for the
    fewest tiles to go and the most helping tiles, and claims a pung or kong only if it brings the
    hand closer (a kong: no further)."""

    name = "efficiency"
    zh = "牌效"
    en = "Efficiency"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        win = first_of(legal, Win)
        if win is not None:
            return win
        ready = first_of(legal, DeclareReady)
        if ready is not None:
            return ready
        counts = counts_of(view.hand or ())
        unseen = unseen_from(view)
        discards = [action for action in legal if isinstance(action, Discard)]
        if discards:
            now = shanten(counts)
            for action in legal:
                if (
                    isinstance(action, Kong)
                    and action.tile is not None
                    and kong_keeps_shanten(counts, action.tile, now)
                ):
                    return action
            return best_discard(counts, discards, unseen)
        tile = view.open_tile
        if tile is not None:
            now = shanten(counts)
            kong = first_of(legal, Kong)
            if kong is not None and after_claim(counts, tile, 3) <= now:
                return kong
            pong = first_of(legal, Pong)
            if pong is not None and after_claim(counts, tile, 2) < now:
                return pong
        passing = first_of(legal, Pass)
        return passing if passing is not None else legal[0]


def after_claim(counts: list[int], tile: int, used: int) -> int:
    """Shanten after claiming ``tile`` with ``used`` tiles from hand and then the best discard."""
    counts[tile] -= used
    try:
        if sum(counts) % 3 == 2:  # a pung: now a discard is due
            return min(after_discard(counts, kind) for kind in range(len(counts)) if counts[kind])
        return shanten(counts)
    finally:
        counts[tile] += used


def after_discard(counts: list[int], kind: int) -> int:
    """Shanten after letting one ``kind`` go."""
    counts[kind] -= 1
    value = shanten(counts)
    counts[kind] += 1
    return value


def kong_keeps_shanten(counts: list[int], tile: int, now: int) -> bool:
    """Whether a kong of ``tile`` on one's turn leaves the hand no further from ready than a discard."""
    used = 4 if counts[tile] == 4 else 1
    counts[tile] -= used
    try:
        after = shanten(counts)
    finally:
        counts[tile] += used
    return after <= now
