"""A token bucket: at most ``rate`` events a second on average, in bursts of up to ``capacity``. The
socket edge paces each connection's messages with one, and the table each seat's 快捷语."""

from __future__ import annotations

import time
from collections.abc import Callable


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
