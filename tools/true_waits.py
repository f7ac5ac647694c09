"""What a seat's true hand waits on, for the tools that measure the wait reader against the truth
(train_waits.py, reading_headroom.py). Plain hupai, no numpy: ``reading_headroom.py play`` needs
nothing of the ``train`` extra."""

from __future__ import annotations

from hupai.game.model import HandState
from hupai.hand import shanten, waits


def truth(state: HandState, seat: int) -> set[int]:
    """The kinds that would complete ``seat``'s hand now (empty when it is not ready)."""
    counts = list(state.seats[seat].counts)
    jokers = 0
    if state.laizi is not None:
        jokers, counts[state.laizi] = counts[state.laizi], 0
    if shanten(counts, jokers=jokers) != 0:
        return set()
    return set(waits(counts, jokers=jokers))
