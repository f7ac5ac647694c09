"""Group commit of moves: the moves that tables of this process ask to store while a write is under
way are stored together by the next one, in one transaction (one lock, one fence query, one commit
and one trip to a worker thread for all of them), instead of one transaction per move.

Nothing is written behind anyone's back: a table's ``store`` returns once its moves are committed,
exactly as a write of its own would, so every move is still stored before anyone hears of it, and a
process killed mid-transaction loses only moves nobody was told of. Nothing waits to fill a group
either: the first move is written at once, and what arrives meanwhile goes with the next write.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hupai.server.storage.database import outage
from hupai.server.storage.fencing import Fence
from hupai.server.storage.play import MoveGroup, Play

MOST_GROUPS = 500  # tables in one transaction (well under SQLite's limit on a statement's values)


class MoveWriter:
    """The moves of every table of this process, written in groups (see the module)."""

    def __init__(self, play: Play) -> None:
        self.play = play  # unfenced: each group carries its own table's fence
        self.waiting: list[tuple[MoveGroup, asyncio.Future[None]]] = []
        self.writer: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    async def store(
        self, room_id: int, hand_index: int, first: int, actions: list[dict[str, Any]], fence: Fence | None
    ) -> None:
        """Store a table's moves ``first``, ``first + 1``, … of a hand (under its ``fence``); returns
        once they are committed. Raises what storing them alone would: ``LeaseLost``, ``Conflict``, or
        the database's error when it is away (the table retries)."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop:  # (a new event loop: tests run several in turn)
            self.loop, self.waiting, self.writer = loop, [], None
        done: asyncio.Future[None] = loop.create_future()
        self.waiting.append((MoveGroup(room_id, hand_index, first, actions, fence), done))
        if self.writer is None or self.writer.done():
            self.writer = loop.create_task(self._write_all(), name="hupai-move-writer")
        await done

    async def _write_all(self) -> None:
        while self.waiting:
            batch, self.waiting = self.waiting[:MOST_GROUPS], self.waiting[MOST_GROUPS:]
            outcomes = await self._write(batch)
            for (_, done), outcome in zip(batch, outcomes, strict=True):
                if done.done():  # its table stopped waiting (cancelled)
                    continue
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)

    async def _write(self, batch: list[tuple[MoveGroup, asyncio.Future[None]]]) -> list[Exception | None]:
        groups = [group for group, _ in batch]
        try:
            return await asyncio.to_thread(self.play.add_move_groups, groups)
        except Exception as error:
            if outage(error) or len(groups) == 1:
                return [error] * len(groups)  # the database is away: every table retries
        # Refused for a reason that is no outage: one group's fault must not fail the others.
        outcomes: list[Exception | None] = []
        for group in groups:
            try:
                outcomes.extend(await asyncio.to_thread(self.play.add_move_groups, [group]))
            except Exception as error:
                outcomes.append(error)
        return outcomes
