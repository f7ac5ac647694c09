"""Rate limits and the password-hashing pool: what one client may ask of the server in a while.

The limits live in memory, per server process (a restart forgets them, which only ever lets a
client try again sooner), or in Redis when processes share tables
(:mod:`hupai.server.guards.shared_limits`).
docs/security.md ("Accounts and HTTP") lists each with its setting.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from redis.exceptions import RedisError
from starlette.concurrency import run_in_threadpool

from hupai.server.errors import Busy, RateLimited
from hupai.server.guards.shared_limits import SharedSocketCounts, SharedWindow
from hupai.server.settings import Settings

if TYPE_CHECKING:
    from redis.asyncio import Redis

T = TypeVar("T")
MAX_KEYS = 100_000  # addresses and names remembered per limit; beyond that the quietest are forgotten
HASH_QUEUE_PER_WORKER = 16  # waiting hashes per worker before further logins are told to come back


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds for each key (a sliding log of times)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.events: dict[str, deque[float]] = {}

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may act again (0: now)."""
        times = self.events.get(key)
        if times is None:
            return 0.0
        now = self.clock()
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) < self.limit:
            return 0.0
        return times[0] + self.window - now

    def record(self, key: str) -> None:
        times = self.events.pop(key, None) or deque(maxlen=max(1, self.limit))
        times.append(self.clock())
        self.events[key] = times  # re-inserted: the dict stays ordered from quietest to busiest
        if len(self.events) > MAX_KEYS:
            self._forget()

    def check(self, key: str, message: str) -> None:
        """Refuse (429) when ``key`` is over the limit; otherwise count this event."""
        wait = self.wait(key)
        if wait > 0:
            raise RateLimited(message, wait)
        self.record(key)

    def _forget(self) -> None:
        """Bound the memory a flood of distinct keys can take: drop the least recently active half."""
        for key in list(self.events)[: len(self.events) // 2]:
            del self.events[key]


class Window(Protocol):
    """A rate limit as the handlers use it: in this process, or shared by all (Redis)."""

    async def wait(self, key: str) -> float: ...

    async def record(self, key: str) -> None: ...

    async def check(self, key: str, message: str) -> None: ...


class LocalWindow:
    """A :class:`RateLimiter` of this process behind the :class:`Window` calls."""

    def __init__(self, limit: int, window: float) -> None:
        self.limiter = RateLimiter(limit, window)

    async def wait(self, key: str) -> float:
        return self.limiter.wait(key)

    async def record(self, key: str) -> None:
        self.limiter.record(key)

    async def check(self, key: str, message: str) -> None:
        self.limiter.check(key, message)


class SharedOrLocalWindow:
    """A limit shared by every process while Redis answers, and counted in this process while it is
    away: a Redis restart neither stops logins and new rooms nor lifts the limits."""

    def __init__(self, shared: SharedWindow, local: LocalWindow) -> None:
        self.shared = shared
        self.local = local

    async def wait(self, key: str) -> float:
        try:
            return await self.shared.wait(key)
        except RedisError:
            return await self.local.wait(key)

    async def record(self, key: str) -> None:
        try:
            await self.shared.record(key)
        except RedisError:
            await self.local.record(key)

    async def check(self, key: str, message: str) -> None:
        try:
            await self.shared.check(key, message)
        except RedisError:
            await self.local.check(key, message)


class SocketCounts:
    """The table sockets open in this process, per player and per address, for their limits."""

    def __init__(self) -> None:
        self.open: Counter[tuple[str, object]] = Counter()

    async def take(self, key: tuple[str, object], limit: int) -> bool:
        """Count one more socket for ``key``, unless ``limit`` are open already."""
        if self.open[key] >= limit:
            return False
        self.open[key] += 1
        return True

    async def give_back(self, key: tuple[str, object]) -> None:
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]


class Limits:
    """The limits of one server: made when it starts, inside its event loop. With Redis (many
    processes) every count is shared, so a client gains nothing by reaching another process."""

    def __init__(self, settings: Settings, redis: Redis | None = None) -> None:
        def window(name: str, limit: int, seconds: float) -> Window:
            if redis is None:
                return LocalWindow(limit, seconds)
            return SharedOrLocalWindow(SharedWindow(redis, name, limit, seconds), LocalWindow(limit, seconds))

        self.login_by_address = window("login-address", settings.login_attempts_per_address, 60.0)
        self.login_by_name = window("login-name", settings.login_attempts_per_name, 60.0)
        self.guests_by_address = window("guests", settings.guests_per_address_per_hour, 3600.0)
        self.rooms_by_address = window("rooms", settings.rooms_per_address_per_hour, 3600.0)
        self.lookups_by_address = window("lookups", settings.room_lookups_per_address_per_minute, 60.0)
        self.club_joins_by_address = window("club-joins", settings.club_joins_per_address_per_hour, 3600.0)
        # Each table connection starts with the whole hand so far: reconnecting in a loop is bounded.
        self.connects_by_user = window("connects", settings.connects_per_minute, 60.0)
        self.sockets: SocketCounts | SharedSocketCounts = (
            SocketCounts() if redis is None else SharedSocketCounts(redis)
        )
        self.hashing = asyncio.Semaphore(settings.hash_workers)
        self.hash_queue = HASH_QUEUE_PER_WORKER * settings.hash_workers
        self.hashes_waiting = 0

    async def hashed(self, work: Callable[[], T]) -> T:
        """Run ``work`` (which hashes a password: 64 MiB and ~0.1 s of CPU) in the thread pool, at most
        ``hash_workers`` at once; waiting costs no thread, and a long queue is refused (503)."""
        if self.hashes_waiting >= self.hash_queue:
            raise Busy("the server is busy logging people in; try again in a few seconds")
        self.hashes_waiting += 1
        try:
            async with self.hashing:
                return await run_in_threadpool(work)
        finally:
            self.hashes_waiting -= 1
