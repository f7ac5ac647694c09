"""A queue with one reader, for the loops a server runs thousands of at once (a table's inbox, each
socket's outbox).

``asyncio.Queue.get`` makes a coroutine and a future for every wait, and a wait with a timeout
through ``asyncio.wait`` a task, a set, a second future and callbacks besides. Each of them lives
until the next message, so at 1,000 tables (4,000 sockets) they were a fair part of what every
young garbage collection had to scan while all tables stood still (docs/speed.md, step 14). Here a
wait is one future, and one timer when it has a deadline. Nothing is lost when a wait is cancelled
or times out: the items stay where they are until taken.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Mailbox(Generic[T]):
    """Items in the order put; one reader waits for them (:meth:`wait`) and takes them (:meth:`take`)."""

    __slots__ = ("items", "timer", "waiter")

    def __init__(self) -> None:
        self.items: deque[T] = deque()
        self.waiter: asyncio.Future[bool] | None = None
        self.timer: asyncio.TimerHandle | None = None

    def __len__(self) -> int:
        return len(self.items)

    def put(self, item: T) -> None:
        self.items.append(item)
        waiter = self.waiter
        if waiter is not None:
            self.waiter = None
            if not waiter.done():  # (done: its reader was cancelled)
                waiter.set_result(True)
            self._stop_timer()

    def take(self) -> T:
        """The oldest item (``IndexError`` when there is none)."""
        return self.items.popleft()

    def wait(self, timeout: float | None = None) -> asyncio.Future[bool]:
        """To be awaited: until an item is in, or ``timeout`` seconds have passed (None: no limit);
        whether one is. A future, not a coroutine: one object less for every wait of thousands of
        readers. Past its deadline the reader goes on at once, but only after the other tasks had a
        turn (a reader whose deadline stays past must not keep the loop to itself)."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[bool] = loop.create_future()
        if self.items:
            waiter.set_result(True)
            return waiter
        self._stop_timer()
        self.waiter = waiter
        if timeout is not None:
            if timeout <= 0:
                loop.call_soon(self._time_up, waiter)
            else:
                self.timer = loop.call_later(timeout, self._time_up, waiter)
        return waiter

    def _time_up(self, waiter: asyncio.Future[bool]) -> None:
        if self.waiter is waiter:
            self.waiter = self.timer = None
        if not waiter.done():
            waiter.set_result(bool(self.items))

    def _stop_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
