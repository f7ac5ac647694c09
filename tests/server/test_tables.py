"""The cluster's table keeping in one process: lease changes of one room wait for each other while
those of different rooms do not (parallel takeovers), and a stop is never lost to a wake-up."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from hupai.server.tables import RoomLocks, Tables


def test_one_room_at_a_time_rooms_side_by_side_and_nothing_kept() -> None:
    locks = RoomLocks()
    order: list[str] = []

    async def change(room_id: int, name: str) -> None:
        async with locks.hold(room_id):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    async def main() -> None:
        await asyncio.gather(change(1, "a"), change(1, "b"), change(2, "c"))

    asyncio.run(main())
    assert order.index("a out") < order.index("b in")  # the same room: one after the other
    assert order.index("c in") < order.index("a out")  # another room: at the same time
    assert locks.locks == {}  # no lock is kept once nobody holds or waits for it


@pytest.mark.parametrize("turns", [0, 1, 2])
def test_a_stop_that_comes_as_the_maintainer_is_woken_stops_it(turns: int) -> None:
    """Python 3.11's ``asyncio.wait_for`` returned the event's result and dropped a cancellation that
    came as the event was set: the maintainer then ran on and a server's stop waited for it for ever."""

    async def nothing() -> None:
        return None

    unused: Any = None  # neither the store nor the settings is reached
    leases: Any = SimpleNamespace(seconds=30.0)

    async def main() -> None:
        for _ in range(20):
            tables: Any = Tables(unused, unused, leases=leases)
            tables.renew_once = tables.take_over_once = nothing
            tables.renewed_at = float("inf")  # the next renewal as far off as it goes
            task = asyncio.create_task(tables._maintain())
            for _ in range(2):
                await asyncio.sleep(0)
            tables.wake.set()
            for _ in range(turns):
                await asyncio.sleep(0)
            task.cancel()
            # A lost cancellation never ends; a kept one ends at the loop's next turns, which a busy
            # machine may hold back for a while.
            done, _pending = await asyncio.wait({task}, timeout=10.0)
            assert done, "the cancellation was lost: the maintainer runs on"
            assert task.cancelled()

    asyncio.run(main())
