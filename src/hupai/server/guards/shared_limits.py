"""Rate limits and socket counts shared by every server process (Redis), so that a client reaching
another process behind the load balancer gets no second allowance.

Each limit is one small Lua script, so counting and refusing happen in one step on Redis however
many processes ask at once, and every time is Redis's own clock (``TIME``), so the machines' clocks
do not matter. Every key expires, so what a flood of distinct names or addresses leaves behind is
bounded by the limit's window.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from hupai.server.errors import RateLimited

PREFIX = "hupai:limit:"
SOCKET_PREFIX = "hupai:sockets:"
SOCKET_LEASE_SECONDS = 60.0  # a socket counts this long unless its process renews it (it died?)
SOCKET_RENEW_SECONDS = 20.0

# KEYS[1]: the key's sorted set of event times. ARGV: limit, window (ms), record (1/0), member.
# Returns the milliseconds to wait (0: allowed, and recorded when asked).
_WINDOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
end
return 0
"""

# KEYS[1]: the sorted set of open sockets (member: process and socket, score: when it lapses).
# ARGV: limit, lease (ms), member. Returns 1 when counted, 0 when the limit is reached.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
"""

# Every socket still open is (re)added: after a Redis restart the counts come back within a renewal.
_RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #ARGV, 2 do
  redis.call('ZADD', KEYS[(i + 1) / 2], now + tonumber(ARGV[i]), ARGV[i + 1])
  redis.call('PEXPIRE', KEYS[(i + 1) / 2], tonumber(ARGV[i]))
end
return 1
"""


class SharedWindow:
    """At most ``limit`` events per ``window`` seconds for each key, across every process."""

    def __init__(self, redis: Redis, name: str, limit: int, window: float) -> None:
        self.prefix = f"{PREFIX}{name}:"
        self.limit = limit
        self.window_ms = int(window * 1000)
        self.script = redis.register_script(_WINDOW)

    async def _run(self, key: str, *, record: bool) -> float:
        member = secrets.token_hex(8)
        args: list[Any] = [self.limit, self.window_ms, "1" if record else "0", member]
        waited = await self.script(keys=[self.prefix + key], args=args)
        return int(waited) / 1000

    async def wait(self, key: str) -> float:
        return await self._run(key, record=False)

    async def record(self, key: str) -> None:
        await self._run(key, record=True)

    async def check(self, key: str, message: str) -> None:
        wait = await self._run(key, record=True)
        if wait > 0:
            raise RateLimited(message, wait)


class SharedSocketCounts:
    """Open table sockets per player and per address across every process. A socket counts until
    it closes, or — should its process die without saying so — until its lease lapses."""

    def __init__(self, redis: Redis) -> None:
        self.take_script = redis.register_script(_TAKE)
        self.renew_script = redis.register_script(_RENEW)
        self.redis = redis
        self.node = secrets.token_hex(6)
        self.serials = itertools.count()
        self.mine: dict[tuple[str, object], list[str]] = {}  # key -> this process's members
        self.renewer: asyncio.Task[None] | None = None

    @staticmethod
    def _key(key: tuple[str, object]) -> str:
        return f"{SOCKET_PREFIX}{key[0]}:{key[1]}"

    async def take(self, key: tuple[str, object], limit: int) -> bool:
        member = f"{self.node}:{next(self.serials)}"
        lease_ms = int(SOCKET_LEASE_SECONDS * 1000)
        try:
            taken = await self.take_script(keys=[self._key(key)], args=[limit, lease_ms, member])
        except RedisError:
            # Redis is away: this process's own sockets are counted against the limit instead (and
            # renewed into Redis once it is back).
            taken = len(self.mine.get(key, ())) < limit
        if not taken:
            return False
        self.mine.setdefault(key, []).append(member)
        if self.renewer is None:
            self.renewer = asyncio.create_task(self._renew(), name="sockets-renew")
        return True

    async def give_back(self, key: tuple[str, object]) -> None:
        members = self.mine.get(key)
        if not members:
            return
        member = members.pop()
        if not members:
            del self.mine[key]
        with contextlib.suppress(Exception):  # it lapses by itself if Redis is away
            await self.redis.zrem(self._key(key), member)

    async def _renew(self) -> None:
        lease_ms = int(SOCKET_LEASE_SECONDS * 1000)
        while True:
            await asyncio.sleep(SOCKET_RENEW_SECONDS)
            keys: list[str] = []
            args: list[Any] = []
            for key, members in list(self.mine.items()):
                for member in members:
                    keys.append(self._key(key))
                    args.extend([lease_ms, member])
            if keys:
                with contextlib.suppress(Exception):
                    await self.renew_script(keys=keys, args=args)
