"""Applying a move: stored before anyone hears of it, then told to the table (or, for a decision on
a window still open, to its seat alone)."""

from __future__ import annotations

from hupai.game.actions import Action
from hupai.game.engine import release_claims, step
from hupai.game.model import HandState, Phase
from hupai.server.table import decisions, match_flow, persist, views
from hupai.server.table.core import TableState


async def apply(table: TableState, action: Action, *, stored: bool = False) -> None:
    """Store the move (unless it was ``stored`` ahead of a window's release), then play it: a move
    the table cannot store is not made (it waits for the database), so what players hear is always
    what the record holds."""
    state = table.state
    assert state is not None
    window = state.window
    if not stored:
        await persist.add_move(table, action)
    step(state, action)
    # A decision on a window still open changes nothing the others may see: only its seat hears.
    await moved(table, state, only=action.seat if window is not None and state.window is window else None)


async def moved(table: TableState, state: HandState, *, only: int | None = None) -> None:
    """Tell the table (or only seat ``only``) what changed, and settle the hand if it ended."""
    if state.phase is Phase.ENDED:
        table.pending = {}
        views.broadcast_update(table)
        await match_flow.settle(table, state, table.hand_index)
        return
    decisions.refresh_pending(table)
    if only is None:
        views.broadcast_update(table)
        await decisions.window_opened(table)  # bots decide on a new window; its passes are stored
        return
    for connection in table.connections:
        if connection.seat == only:
            views.send_update(table, connection)


def replay(state: HandState, action: Action) -> None:
    """Play a stored move again, on a hand that holds its claim windows, as the table first played it:
    a window that waited on nobody was released before the next move was made, so it is released at
    once. The hand then has the very events it had — a held added kong is announced, then completed —
    and a client's ``since`` points to the same event after a restart or a takeover as before."""
    step(state, action)
    release_claims(state)
