"""Lease changes of one room wait for each other; those of different rooms do not (parallel takeovers)."""

from __future__ import annotations

import asyncio

from hupai.server.tables import RoomLocks


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
