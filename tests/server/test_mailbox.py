"""The mailbox of a table's inbox and each socket's outbox: order, deadlines, and nothing lost when a
wait ends early."""

from __future__ import annotations

import asyncio

from hypothesis import given
from hypothesis import strategies as st

from hupai.server.mailbox import Mailbox


@given(st.lists(st.integers(), max_size=50), st.integers(min_value=0, max_value=50))
def test_items_come_out_in_the_order_they_were_put(items: list[int], waits: int) -> None:
    async def scenario() -> list[int]:
        box: Mailbox[int] = Mailbox()
        taken: list[int] = []

        async def reader() -> None:
            while len(taken) < len(items):
                assert await box.wait()
                taken.append(box.take())

        task = asyncio.create_task(reader())
        for index, item in enumerate(items):
            box.put(item)
            if index % (waits + 1) == 0:
                await asyncio.sleep(0)  # the reader sometimes waits, sometimes finds several
        await asyncio.wait_for(task, 5)
        return taken

    assert asyncio.run(scenario()) == items


def test_a_wait_ends_at_its_deadline_with_nothing_and_loses_nothing_put_after() -> None:
    async def scenario() -> None:
        box: Mailbox[str] = Mailbox()
        loop = asyncio.get_running_loop()
        started = loop.time()
        assert await box.wait(0.05) is False
        assert loop.time() - started >= 0.04
        assert box.waiter is None
        box.put("late")
        assert await box.wait(0.05) is True
        assert box.take() == "late"
        assert len(box) == 0

    asyncio.run(scenario())


def test_a_put_wakes_the_waiting_reader_before_its_deadline() -> None:
    async def scenario() -> None:
        box: Mailbox[str] = Mailbox()
        loop = asyncio.get_running_loop()
        loop.call_later(0.01, box.put, "answer")
        started = loop.time()
        assert await box.wait(10) is True
        assert loop.time() - started < 5
        assert box.take() == "answer"

    asyncio.run(scenario())


def test_a_cancelled_wait_leaves_the_items_for_the_next_one() -> None:
    async def scenario() -> None:
        box: Mailbox[int] = Mailbox()

        async def reader() -> bool:
            return await box.wait(10)

        waiting = asyncio.create_task(reader())
        await asyncio.sleep(0)
        waiting.cancel()
        box.put(1)  # put at the moment the wait is cancelled
        await asyncio.gather(waiting, return_exceptions=True)
        assert waiting.cancelled()
        assert box.timer is None  # its deadline does not outlive it
        assert await box.wait(0) is True
        assert box.take() == 1
        box.put(2)
        assert await box.wait() is True  # and the next wait finds what came after
        assert box.take() == 2

    asyncio.run(scenario())


def test_a_reader_past_its_deadline_still_lets_the_other_tasks_run() -> None:
    async def scenario() -> int:
        box: Mailbox[int] = Mailbox()
        others = 0

        async def other() -> None:
            nonlocal others
            while True:
                others += 1
                await asyncio.sleep(0)

        task = asyncio.create_task(other())
        for _ in range(10):
            assert await box.wait(-1.0) is False  # a deadline long past: no wait, but a turn for others
        task.cancel()
        return others

    assert asyncio.run(scenario()) >= 9
