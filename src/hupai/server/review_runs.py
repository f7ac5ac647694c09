"""复盘 at the server (issue 50): a player asks for the review of their own seat in a finished match;
this process makes it a hand at a time in the search pool (:mod:`hupai.server.table.searches`), off
the event loop, writing its progress after each hand, and keeps the result
(:mod:`hupai.server.storage.reviews`): asked again, by anyone of that seat, on any process, it is
answered as made.

Bounded: at most ``reviews_at_once`` reviews under way in a process (503 ``busy`` beyond, with
Retry-After), and one at a time per player (429). A review's hand takes about a second of one worker;
bots' searches share the pool and, while it is busy, play strong's choice (they never wait).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from hupai.review import DEFAULT_WORLDS, HandReview, Review, review_hand_job
from hupai.server.errors import Busy, RateLimited
from hupai.server.storage.reviews import DONE, ReviewState
from hupai.server.storage.store import Store
from hupai.server.table.searches import SearchPool

STALE_SECONDS = 120.0  # a review whose process wrote nothing for this long is taken over by the next ask
REVIEW_SEED = 0  # every review of the server is seeded alike: the same match and seat, the same review

log = logging.getLogger("hupai.server")


class ReviewRuns:
    def __init__(
        self,
        store: Store,
        pool: Callable[[], SearchPool],
        *,
        node: str,
        at_once: int = 2,
        worlds: int = DEFAULT_WORLDS,
    ) -> None:
        self.store = store
        self.pool = pool
        self.node = node
        self.at_once = at_once
        self.worlds = worlds
        self.running: dict[tuple[int, int, int], asyncio.Task[None]] = {}
        self.players: dict[int, tuple[int, int, int]] = {}  # a player's review under way here

    async def ask(self, number: str, user_id: int) -> dict[str, Any]:
        """The asker's review of their seat: made, under way (with its progress), or started here."""
        mine = self.players.get(user_id)
        if mine is not None:  # one under way here: this one is answered only if it is that one or done
            state = await asyncio.to_thread(self.store.reviews.seen, number, user_id, self.worlds)
            if state.status != DONE and _key(state) != mine:
                raise RateLimited("one review at a time: yours is under way", 5)
            return state.said()
        if len(self.running) >= self.at_once:
            raise Busy(f"{self.at_once} reviews are under way on this server; ask again shortly")
        state = await asyncio.to_thread(
            self.store.reviews.ask, number, user_id, self.worlds, self.node, stale_seconds=STALE_SECONDS
        )
        if state.taken:
            self.players[user_id] = _key(state)
            self.running[_key(state)] = asyncio.create_task(self._make(state, user_id))
        return state.said()

    async def seen(self, number: str, user_id: int) -> dict[str, Any]:
        state = await asyncio.to_thread(self.store.reviews.seen, number, user_id, self.worlds)
        return state.said()

    async def _make(self, state: ReviewState, user_id: int) -> None:
        key = _key(state)
        result = None
        try:
            data = await asyncio.to_thread(self.store.reviews.record_of, state.room_id)
            hands: list[HandReview] = []
            for index in range(state.hands):
                job = (data, state.seat, index, state.worlds, REVIEW_SEED)
                hands.append(HandReview.from_dict(await self.pool().run(review_hand_job, job)))
                if not await asyncio.to_thread(self.store.reviews.progress, state, self.node, index + 1):
                    return  # taken over elsewhere (this process seemed gone): theirs stands
            ruleset = str(data.get("ruleset", ""))
            result = Review(ruleset, state.seat, REVIEW_SEED, state.worlds, tuple(hands)).as_dict()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("review of room #%d seat %d failed", state.room_id, state.seat)
        finally:
            self.running.pop(key, None)
            if self.players.get(user_id) == key:
                del self.players[user_id]
        try:
            await asyncio.to_thread(self.store.reviews.finish, state, self.node, result)
        except Exception:  # the database away: the next ask, after STALE_SECONDS, makes it again
            log.exception("could not store the review of room #%d seat %d", state.room_id, state.seat)

    async def close(self) -> None:
        for task in list(self.running.values()):
            task.cancel()
        for task in list(self.running.values()):
            try:
                await task
            except BaseException:
                continue


def _key(state: ReviewState) -> tuple[int, int, int]:
    return (state.room_id, state.seat, state.worlds)
