"""Playing a seat for its player: 报听 auto-play and 托管 (the server uses these).

* After 报听 (S000a's "听" button) the hand is locked: take every win, otherwise discard the tile just
  drawn, and let every claim go.
* 托管: a seat whose player timed out or left is played safely until the player acts again: win when
  it may, otherwise pass any claim and discard the tile just drawn (or, with no drawn tile, the last
  tile in hand).
* 听 (S000's button "听" that adds nothing to the score): a ready player lets the table play on — take
  every win, otherwise let the tile just drawn go again and pass every claim; never declare anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from hupai.game.actions import Action, DeclareReady, Discard, Pass, Win
from hupai.game.view import SeatView


def _win_or_pass(legal: Sequence[Action]) -> Action | None:
    """A win when one is legal, else a pass when one is (claims, 报听)."""
    for kind in (Win, Pass):
        for action in legal:
            if isinstance(action, kind):
                return action
    return None


def trustee_action(view: SeatView, legal: Sequence[Action]) -> Action:
    """托管: win when legal, otherwise pass claims and discard the drawn tile."""
    chosen = _win_or_pass(legal)
    if chosen is not None:
        return chosen
    discards = [action for action in legal if isinstance(action, Discard)]
    if discards:
        drawn = next((action for action in discards if action.tile == view.drawn), None)
        return drawn if drawn is not None else discards[-1]
    return legal[0]


def ready_action(view: SeatView, legal: Sequence[Action]) -> Action:
    """After 报听: the same as 托管 — the locked hand only draws, discards and wins."""
    return trustee_action(view, legal)


def ting_action(view: SeatView, legal: Sequence[Action]) -> Action | None:
    """听: win when legal, otherwise pass (claims, 报听) or discard the tile just drawn. ``None`` when
    none of these is open (no drawn tile to let go, a forced lay): the player must decide again."""
    chosen = _win_or_pass(legal)
    if chosen is not None:
        return chosen
    if view.drawn is None:
        return None
    return next(
        (action for action in legal if isinstance(action, Discard) and action.tile == view.drawn), None
    )


class TrusteeBot:
    """托管 as a player, for seats nobody is playing."""

    name: ClassVar[str] = "trustee"
    zh: ClassVar[str] = "托管"
    en: ClassVar[str] = "Auto-play"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if any(isinstance(action, DeclareReady) for action in legal):
            return next(action for action in legal if isinstance(action, Pass))
        return trustee_action(view, legal)
