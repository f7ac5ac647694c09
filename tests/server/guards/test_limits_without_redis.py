"""Limits while Redis is away (restarting, unreachable): each process counts on its own instead of
failing every login and every socket, and the limits still hold (hupai.server.guards)."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import Redis

from hupai.server.errors import RateLimited
from hupai.server.guards.limits import LocalWindow, SharedOrLocalWindow
from hupai.server.guards.shared_limits import SharedSocketCounts, SharedWindow
from tests.server_support import free_port


def nowhere() -> Redis:
    """A Redis client whose server is not there: every call fails to connect."""
    return Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=0.5)


def test_a_rate_limit_counts_here_while_redis_is_away() -> None:
    async def run() -> None:
        window = SharedOrLocalWindow(SharedWindow(nowhere(), "logins", 2, 60.0), LocalWindow(2, 60.0))
        await window.check("小明", "too many")
        await window.check("小明", "too many")
        with pytest.raises(RateLimited):
            await window.check("小明", "too many")
        assert await window.wait("小红") == 0

    asyncio.run(run())


def test_sockets_are_counted_here_while_redis_is_away() -> None:
    async def run() -> None:
        counts = SharedSocketCounts(nowhere())
        key = ("user", 7)
        assert await counts.take(key, 2)
        assert await counts.take(key, 2)
        assert not await counts.take(key, 2)
        await counts.give_back(key)
        assert await counts.take(key, 2)
        if counts.renewer is not None:
            counts.renewer.cancel()

    asyncio.run(run())
