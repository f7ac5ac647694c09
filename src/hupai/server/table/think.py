"""How long a bot seems to think before it moves, so that a table with bots feels like one with
people: drawn afresh for every decision from the room's pace (``bot_pace``), longer the more a
choice offers, shorter for a forced move or a win, varied from one decision to the next.

A pass in a claim window is not delayed at all: it waits for the window's release like every
decision there, whatever anyone could claim (decisions.refresh_pending). The think time rests on the
bot's own hand (how many different tiles it may let go, what else it may do), as a person's
hesitation does; the draw's spread is wider than what the hand adds, so one move says little."""

from __future__ import annotations

import random
from collections.abc import Sequence

from hupai.game.actions import Action, Discard, Pass, Win

# The room's pace: a bot's think time lies between these (seconds).
PACES: dict[str, tuple[float, float]] = {
    "quick": (0.4, 1.2),
    "natural": (0.8, 2.5),
    "relaxed": (1.5, 4.0),
}
DEFAULT_PACE = "natural"
TRUSTEE_SECONDS = 0.8  # 托管, 听 and 报听 seats play at once, as a player who left it to the table expects
SPREAD = 0.22  # of the pace's range: the draw's standard deviation
# A hand offers seven to fourteen different tiles to let go, nearly always: from the fewest to the
# most, a discard goes from easy to hard.
FEWEST_DISCARDS, MOST_DISCARDS = 7, 14


def difficulty(legal: Sequence[Action], choice: Action) -> float:
    """How much a decision offers, from 0 (forced, or a win) to 1."""
    if len(legal) == 1 or isinstance(choice, Win):
        return 0.0
    discards = {action.tile for action in legal if isinstance(action, Discard)}
    others = {type(action) for action in legal if not isinstance(action, Discard | Pass)}
    if not discards:  # a claim: 碰, 吃 or 杠 on someone's tile, quick as a hand slapping the table
        return 0.1 + 0.05 * len(others)
    spread = (len(discards) - FEWEST_DISCARDS) / (MOST_DISCARDS - FEWEST_DISCARDS)
    return min(1.0, 0.15 + 0.55 * min(1.0, max(0.0, spread)) + 0.1 * len(others))


def think_seconds(pace: str, legal: Sequence[Action], choice: Action, rng: random.Random) -> float:
    """A bot's pause before ``choice``, drawn for this decision."""
    low, high = PACES.get(pace, PACES[DEFAULT_PACE])
    if len(legal) == 1:  # nothing to weigh: a short, still varied pause
        return round(rng.uniform(0.6 * low, low), 3)
    middle = low + (high - low) * (0.05 + 0.7 * difficulty(legal, choice))
    for _ in range(20):  # drawn again when outside the pace (clamping would pile pauses on its ends)
        drawn = rng.gauss(middle, SPREAD * (high - low))
        if low <= drawn <= high:
            return round(drawn, 3)
    return round(middle, 3)
