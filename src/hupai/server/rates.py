"""A token bucket: at most ``rate`` events a second on average, in bursts of up to ``capacity``. The
socket edge paces each connection's messages with one, and the table each seat's 快捷语 and its
joining and leaving the voice."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import TypeVar

Key = TypeVar("Key", bound=Hashable)


class TokenBucket:
    """Starts full; each event takes a token; tokens come back at ``rate`` a second up to ``capacity``."""

    def __init__(self, rate: float, capacity: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.capacity = capacity
        self.clock = clock
        self.tokens = capacity
        self.at = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        """Take a token: False (nothing taken) when none is left."""
        self._refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until a token is back (0: one is there now)."""
        self._refill()
        return max(0.0, (1 - self.tokens) / self.rate)


def take_from(
    buckets: dict[Key, TokenBucket], key: Key, rate: float, capacity: float, clock: Callable[[], float]
) -> TokenBucket | None:
    """Take a token from ``key``'s bucket (made full on its first use): None when taken, else the
    empty bucket (its ``wait()`` says how long until one is back)."""
    bucket = buckets.get(key)
    if bucket is None:
        bucket = buckets[key] = TokenBucket(rate, capacity, clock)
    return None if bucket.take() else bucket
