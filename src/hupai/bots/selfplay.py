"""Bots playing a dealt hand to its end: the loop of self-play (:mod:`hupai.sim` counts the results).

It lives with the bots, in the hot core (hupai._native), because self-play spends its time here
between the engine's steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hupai.bots.autoplay import trustee_action
from hupai.bots.base import Bot, is_searcher
from hupai.game.engine import legal_actions, step
from hupai.game.model import SEATS, HandState, Phase
from hupai.game.view import view

__all__ = ["acting_seat", "play"]


def acting_seat(state: HandState) -> int:
    """The seat whose decision the table waits for: the seat to play, or the first undecided seat of
    an open window."""
    if state.phase is Phase.TURN:
        return state.turn
    window = state.window
    assert window is not None
    for seat in sorted(window.options):
        if seat not in window.decisions:
            return seat
    raise ValueError("no seat has a decision to make")


def play(
    state: HandState, players: Sequence[Bot], *, after_step: Callable[[HandState], None] | None = None
) -> tuple[int, list[int]]:
    """Play ``state`` to its end, each seat's bot choosing among its legal actions from its own view;
    an illegal answer is counted and replaced by auto-play. ``after_step`` is called after every step
    (e.g. to check invariants). Returns the steps taken and the illegal answers per seat."""
    errors = [0] * SEATS
    steps = 0
    while state.phase is not Phase.ENDED:
        seat = acting_seat(state)
        legal = legal_actions(state, seat)
        seen = view(state, seat, legal=legal)
        player = players[seat]
        # A search bot is handed the state too: it deals its own worlds from it.
        action = player.choose_in(state, seen, legal) if is_searcher(player) else player.choose(seen, legal)
        if action not in legal:
            errors[seat] += 1
            action = trustee_action(seen, legal)
        step(state, action)
        steps += 1
        if after_step is not None:
            after_step(state)
    return steps, errors
