"""The table's storage calls, kept through a database that is away for a while.

Every move is stored before anyone hears of it, so a table can do nothing while the database is away
(restarting, failing over, unreachable). It waits instead of failing: each call is retried with
backoff until the database answers, the players are told that the table waits for storage and then
that it is back, and what arrives meanwhile stays in the table's inbox, in order, to be handled then.
An error that is no outage (a refused write, a lost lease) is raised at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from hupai.game.actions import Action, action_to_dict
from hupai.server.storage.database import outage
from hupai.server.table import views
from hupai.server.table.core import TableState, log

T = TypeVar("T")
FIRST_RETRY_SECONDS = 0.25
LAST_RETRY_SECONDS = 2.0  # retries settle at this interval: back within ~2 s of the database


async def stored(table: TableState, call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` in a worker thread, retried while the database is away."""
    return await retried(table, lambda: asyncio.to_thread(call, *args))


async def retried(table: TableState, attempt: Callable[[], Awaitable[T]]) -> T:
    """``attempt()`` awaited, and again while the database is away."""
    delay = FIRST_RETRY_SECONDS
    away = False
    while True:
        try:
            result = await attempt()
        except Exception as error:
            if not outage(error):
                raise
            if not away:
                away = True
                log.warning(
                    "table %s: storage is away (%s); waiting for it", table.room_id, type(error).__name__
                )
                views.broadcast(table, {"type": "storage", "state": "away"})
            await asyncio.sleep(delay)
            delay = min(delay * 2, LAST_RETRY_SECONDS)
            continue
        if away:
            log.warning("table %s: storage is back", table.room_id)
            views.broadcast(table, {"type": "storage", "state": "back"})
        return result


async def add_move(table: TableState, action: Action) -> int:
    """Store ``action`` as the hand's next move; its number."""
    number = table.moves_in_hand
    await add_moves(table, [action_to_dict(action)])
    return number


async def add_moves(table: TableState, actions: list[dict[str, Any]]) -> None:
    """Store the hand's next moves (grouped with other tables' moves in one transaction)."""
    fence = table.store.fence[1] if table.store.fence is not None else None
    store = table.store.moves.store
    first = table.moves_in_hand
    await retried(table, lambda: store(table.room_id, table.hand_index, first, actions, fence))
    table.moves_in_hand += len(actions)
