"""Each club's live lobby on this process (issue 49): the members watching it, and one reader per club
that reads the club again when it changed and tells each of them what they have not seen.

A club changed when a transaction that touched it committed (:mod:`hupai.server.storage.club_changes`):
on this process, heard at once; on another, through the cluster (Redis, or PostgreSQL while Redis is
away). Whatever is missed (the cluster away, a bulk close of idle rooms) is caught by reading every
club watched here again every :data:`REFRESH_SECONDS`. One read per club per change serves all its
watchers here, however many, and a burst of changes (a table started: four seats and its room) is
read once. A watcher who is no longer a member (removed, left, the club closed) is told so and let go
at the next read: at once after the write that removed them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from hupai.server.storage.clubs import ClubBoard
from hupai.server.storage.store import Store

REFRESH_SECONDS = 20.0  # every watched club is read again this often, changed or not
SETTLE_SECONDS = 0.1  # changes this close together are read once

log = logging.getLogger("hupai.server")


class Watcher:
    """One member's lobby socket: the newest of what it has not been sent (a slow socket is sent the
    latest tables, never a backlog), or why it must go."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.tables: str | None = None  # the tables message not sent yet
        self.club_changed = False  # the members or 玩法 changed since it last read them
        self.gone: tuple[str, str] | None = None  # (code, message): it may see this club no more
        self.ready = asyncio.Event()
        self.sent_tables: str | None = None
        self.club_version: int | None = None

    def see(self, board: ClubBoard | None, tables: str) -> None:
        if board is None or self.user_id not in board.members:
            self.gone = ("not_found", "you are not a member of this club (any more)")
        else:
            if tables != self.sent_tables:
                self.tables = self.sent_tables = tables
            if self.club_version is not None and board.club_version != self.club_version:
                self.club_changed = True
            self.club_version = board.club_version
        if self.gone or self.tables is not None or self.club_changed:
            self.ready.set()

    async def next(self) -> list[dict[str, Any] | str] | tuple[str, str]:
        """What to send now, in order, once there is something; or (code, message) to go."""
        await self.ready.wait()
        self.ready.clear()
        if self.gone is not None:
            return self.gone
        out: list[dict[str, Any] | str] = []
        if self.tables is not None:
            out.append(self.tables)
            self.tables = None
        if self.club_changed:
            out.append({"type": "club_changed"})
            self.club_changed = False
        return out


class _ClubWatch:
    """The watchers of one club here, and the task that reads it for them."""

    def __init__(self, lobbies: ClubLobbies, club_id: int) -> None:
        self.lobbies = lobbies
        self.club_id = club_id
        self.watchers: set[Watcher] = set()
        self.changed = asyncio.Event()
        self.task = asyncio.create_task(self._run(), name=f"club-lobby-{club_id}")

    async def _run(self) -> None:
        store, refresh = self.lobbies.store, self.lobbies.refresh_seconds
        while self.watchers:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(refresh):
                    await self.changed.wait()
            await asyncio.sleep(self.lobbies.settle_seconds)
            self.changed.clear()  # a change from here on is read again
            try:
                board = await asyncio.to_thread(store.clubs.board, self.club_id)
            except Exception as error:  # the database away a moment: try again shortly
                log.warning("club lobby %d: could not read the club (%s)", self.club_id, error)
                self.lobbies.loop_later(refresh / 4, self.changed.set)
                continue
            tables = _tables_message(board)
            for watcher in list(self.watchers):
                watcher.see(board, tables)


class ClubLobbies:
    def __init__(
        self,
        store: Store,
        *,
        refresh_seconds: float = REFRESH_SECONDS,
        settle_seconds: float = SETTLE_SECONDS,
    ) -> None:
        self.store = store
        self.refresh_seconds = refresh_seconds
        self.settle_seconds = settle_seconds
        self.clubs: dict[int, _ClubWatch] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        # Set by the cluster: tell the other processes which clubs changed here.
        self.tell_others: Callable[[set[int]], None] = lambda _clubs: None

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()

    def written(self, clubs: set[int]) -> None:
        """A commit changed these clubs (called in the thread that committed)."""
        if self.loop is not None and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: the server is stopping
                self.loop.call_soon_threadsafe(self._written_here, clubs)

    def _written_here(self, clubs: set[int]) -> None:
        self.heard(clubs)
        self.tell_others(clubs)

    def heard(self, clubs: set[int]) -> None:
        """These clubs changed (here or on another process): their watchers here are read for."""
        for club_id in clubs:
            if (watch := self.clubs.get(club_id)) is not None:
                watch.changed.set()

    def loop_later(self, seconds: float, callback: Callable[[], None]) -> None:
        if self.loop is not None:
            self.loop.call_later(seconds, callback)

    @contextlib.asynccontextmanager
    async def watching(self, club_id: int, user_id: int) -> AsyncIterator[Watcher]:
        """A watcher of the club for the time of the ``async with``; its first tables come from a
        read made after it joined (nothing written before it joined is missed)."""
        watch = self.clubs.get(club_id)
        if watch is None or watch.task.done():
            watch = self.clubs[club_id] = _ClubWatch(self, club_id)
        watcher = Watcher(user_id)
        watch.watchers.add(watcher)
        watch.changed.set()
        try:
            yield watcher
        finally:
            watch.watchers.discard(watcher)
            if not watch.watchers:
                watch.task.cancel()
                if self.clubs.get(club_id) is watch:
                    del self.clubs[club_id]

    async def close(self) -> None:
        for watch in list(self.clubs.values()):
            watch.task.cancel()
        for watch in list(self.clubs.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await watch.task
        self.clubs.clear()


def _tables_message(board: ClubBoard | None) -> str:
    tables = [] if board is None else [table.model_dump(mode="json") for table in board.tables]
    return json.dumps({"type": "club_tables", "tables": tables}, ensure_ascii=False, separators=(",", ":"))
