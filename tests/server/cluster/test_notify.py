"""The relay's second way, over PostgreSQL's LISTEN/NOTIFY (hupai.server.cluster.notify): channel names
PostgreSQL takes, messages of any length put back together, none collapsed or reordered — framed and
put together here, and sent through a real PostgreSQL (skipped without one, as the other PostgreSQL
variants are)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hupai.server.cluster.notify import PART_CHARACTERS, PostgresChannel, Reassembly, framed, pg_channel
from hupai.server.cluster.remote import OWNERS, node_channel, room_channel

from ...server_support import database

# Any text but lone surrogates (not UTF-8) and NUL (no PostgreSQL text holds it; JSON escapes it).
texts = st.text(
    st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=5 * PART_CHARACTERS
)


@given(st.lists(texts, max_size=6))
def test_any_messages_come_back_whole_and_in_order(messages: list[str]) -> None:
    numbers = itertools.count(1)
    payloads = [payload for text in messages for payload in framed("abcd", numbers, text.encode())]
    assert all(len(payload.encode()) < 8000 for payload in payloads)  # PostgreSQL's limit
    assert len(set(payloads)) == len(payloads)  # identical ones in one transaction would come once
    parts = Reassembly()
    whole = [message for payload in payloads if (message := parts.add(payload)) is not None]
    assert whole == [text.encode() for text in messages]


def test_every_channel_has_a_name_postgresql_takes() -> None:
    long_node = "a-host-name-of-forty-characters-exactly-1234567-deadbeef"
    names = {pg_channel(channel) for channel in (node_channel(long_node), OWNERS, room_channel(12345))}
    assert len(names) == 3
    assert all(len(name) <= 63 and name.isidentifier() and name.islower() for name in names)


def test_messages_cross_a_real_postgresql_whole_and_in_order(tmp_path: Path) -> None:
    with database("postgresql", tmp_path) as url:
        asyncio.run(crossing(url))


async def crossing(url: str) -> None:
    heard: list[tuple[str, bytes]] = []
    arrived = asyncio.Event()

    async def received(channel: str, data: bytes) -> None:
        heard.append((channel, data))
        if len(heard) == 4:
            arrived.set()

    listener, sender = PostgresChannel(url, received), PostgresChannel(url, received)
    await listener.start([node_channel("edge")])
    await sender.start([])
    try:
        await listener.listen(room_channel(7))  # (returns once the LISTEN has run)
        long = ("南" * 3 * PART_CHARACTERS).encode()  # three parts, three bytes a character
        sent = [
            (node_channel("edge"), b'{"ping":1}'),
            (node_channel("edge"), b'{"ping":1}'),  # the same again: both arrive
            (room_channel(7), long),
            (room_channel(8), b"not listened to"),
            (node_channel("edge"), b"last"),
        ]
        await sender.send(sent)
        await asyncio.wait_for(arrived.wait(), 10)
        assert heard == [sent[0], sent[1], sent[2], sent[4]]
    finally:
        await listener.stop()
        await sender.stop()
