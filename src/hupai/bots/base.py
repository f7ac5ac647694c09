"""What a computer player is: it sees exactly one seat's view and that seat's legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol, TypeGuard

from hupai.game.actions import Action
from hupai.game.model import HandState
from hupai.game.view import SeatView
from hupai.tiles import NUM_KINDS

COPIES = 4


class Bot(Protocol):
    """A player: ``choose`` returns one of ``legal`` (never anything else)."""

    name: ClassVar[str]
    zh: ClassVar[str]
    en: ClassVar[str]

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action: ...


class Level(Protocol):
    """A bot class, as a level's menu entry: its names, and a bot for a seed."""

    name: str
    zh: str
    en: str

    def __call__(self, seed: int = 0) -> Bot: ...


class Searcher(Protocol):
    """A bot that searches (:mod:`hupai.bots.search`, its class says ``searches = True``): the game
    loop hands it the state as well, which it reads only through worlds dealt anew from what its
    seat may see."""

    def choose_in(self, state: HandState, view: SeatView, legal: Sequence[Action]) -> Action: ...


def is_searcher(player: object) -> TypeGuard[Searcher]:
    """Whether ``player`` searches: its class says ``searches = True`` (the game loop then hands it
    the state; a network player, which never has the state, cannot seat it)."""
    return bool(getattr(player, "searches", False))


def counts_of(tiles: Sequence[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


def unseen_from(view: SeatView) -> list[int]:
    """Copies of each kind this seat has not seen: four minus its own hand, every discard still on the
    table, and every meld shown (concealed kongs shown face down count as unknown)."""
    unseen = [COPIES] * NUM_KINDS
    for tile in view.hand or ():
        unseen[tile] -= 1
    for public in view.seats:
        for tile, claimed in zip(public.discards, public.claimed, strict=True):
            if not claimed:
                unseen[tile] -= 1
        for meld in public.melds:
            for tile in meld.tiles():  # as they lie: a 赖子 in a chow is a 赖子 seen
                unseen[tile] -= 1
        for tile in public.laid:
            unseen[tile] -= 1
    if view.pizi is not None:
        unseen[view.pizi] -= 1  # the turned-up 痞子 is out of play
    return [max(count, 0) for count in unseen]


def natural_counts(view: SeatView) -> tuple[list[int], int]:
    """The seat's hand as counts without its wildcards (Enshi 赖子), and how many wildcards it holds.
    (A 痞子 held stays in the counts, keeping the hand's size; the bots lay it at the first chance.)"""
    counts = counts_of(view.hand or ())
    jokers = 0
    if view.laizi is not None:
        jokers, counts[view.laizi] = counts[view.laizi], 0
    return counts, jokers
