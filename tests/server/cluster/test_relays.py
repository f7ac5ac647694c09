"""What a table's owner does with relayed messages it cannot place, and whose closes a socket's process
obeys (hupai.server.cluster.relay)."""

from __future__ import annotations

import asyncio
import json

from hypothesis import given
from hypothesis import strategies as st

from hupai.server.cluster.relay import Cluster
from hupai.server.cluster.remote import RemoteRoom, node_channel
from hupai.server.cluster.wire import coalesced, socket_messages
from hupai.server.table.messages import Connection, FromClient, Join

ACT = {"type": "act", "seq": 5, "action": {"act": "pass"}}


def owner() -> Cluster:
    """A cluster member that never connects: only what it would publish is looked at."""
    return Cluster("redis://127.0.0.1:9/0", node="owner")


def published(cluster: Cluster) -> list[tuple[str, dict[str, object]]]:
    out = []
    while not cluster.outgoing.empty():
        channel, data, _room, _via = cluster.outgoing.get_nowait()
        out.append((channel, json.loads(data)))
    return out


def test_a_joined_socket_is_heard() -> None:
    cluster = owner()
    joined = cluster._to_table(7, {"n": "edge", "t": "join", "c": 3, "user": 1, "hand": -1, "since": 0})
    assert isinstance(joined, Join)
    heard = cluster._to_table(7, {"n": "edge", "t": "client", "c": 3, "m": ACT})
    assert isinstance(heard, FromClient)
    assert heard.connection is joined.connection
    assert published(cluster) == []


def test_a_socket_joined_elsewhere_is_closed_so_that_it_rejoins() -> None:
    """An answer from a socket that joined the previous owner is not lost in silence: its process is
    told to close it, and the client reconnects to this owner (and answers its prompt again)."""
    cluster = owner()
    assert cluster._to_table(7, {"n": "edge", "t": "client", "c": 3, "m": ACT}) is None
    closing = {"c": 3, "close": True, "o": "owner", "rejoin": True}
    assert published(cluster) == [(node_channel("edge"), closing)]
    assert cluster._to_table(7, {"n": "edge", "t": "leave", "c": 3}) is None  # nothing to close
    assert published(cluster) == []


def relayed(cluster: Cluster, owner: str, room_id: int = 7) -> tuple[Connection, int]:
    """A socket of this process relayed to the room's table at ``owner``; its relay id."""
    connection = Connection(1)
    return connection, cluster.register(connection, RemoteRoom(cluster, room_id, owner))


def test_only_the_owner_a_socket_is_relayed_to_closes_it() -> None:
    """A paused owner that comes back answers the joins and moves that waited for it with closes:
    those of sockets now relayed to the new owner are ignored (before, each one was a reconnect)."""
    edge = Cluster("redis://127.0.0.1:9/0", node="edge")
    to_new, new_id = relayed(edge, "new")
    edge._to_this_node({"c": new_id, "close": True, "o": "old"})
    assert not to_new.closed
    edge._to_this_node({"c": new_id, "close": True, "o": "new"})
    assert to_new.closed


def test_the_new_owner_closes_a_socket_relayed_to_the_old_one() -> None:
    edge = Cluster("redis://127.0.0.1:9/0", node="edge")
    to_old, old_id = relayed(edge, "old")
    edge._to_this_node({"c": old_id, "close": True, "o": "new", "rejoin": True})
    assert to_old.closed


def test_a_process_that_lost_the_room_does_not_close_its_sockets() -> None:
    """Moves from a socket it does not know reach a process whose leases are in doubt (paused, now
    back): it is not the owner, so it says nothing."""
    cluster = owner()
    cluster.holds = lambda _room: False
    assert cluster._to_table(7, {"n": "edge", "t": "client", "c": 3, "m": ACT}) is None
    assert published(cluster) == []


def test_a_release_closes_only_the_sockets_relayed_to_the_process_that_let_go() -> None:
    edge = Cluster("redis://127.0.0.1:9/0", node="edge")
    to_old, _ = relayed(edge, "old")
    to_new, _ = relayed(edge, "new")

    async def announced() -> None:
        await edge._received("hupai:owners", {"room": 7, "node": None, "from": "old"})

    asyncio.run(announced())
    assert to_old.closed and not to_new.closed


# A publish queued by the owner: (channel, data, room). Socket messages are "m<id>\n<JSON>" (the JSON of
# encoded() has no line break); the rest are JSON (closes, replies, client messages to a room's owner).
queued = st.one_of(
    st.tuples(
        st.sampled_from(["node:a", "node:b"]),
        st.builds(lambda conn, n: f'm{conn}\n{{"n":{n}}}'.encode(), st.integers(1, 9), st.integers()),
        st.none(),
    ),
    st.tuples(
        st.sampled_from(["node:a", "node:b"]),
        st.builds(lambda conn: json.dumps({"c": conn, "close": True}).encode(), st.integers(1, 9)),
        st.none(),
    ),
    st.tuples(
        st.just("room:7"),
        st.builds(lambda n: json.dumps({"t": "client", "x": n}).encode(), st.integers()),
        st.just(7),
    ),
    # a socket message whose text has a line break: never merged
    st.tuples(st.just("node:a"), st.just(b'm3\n{"a":\n1}'), st.none()),
)


def heard(publishes: list[tuple[str, bytes, int | None]]) -> dict[str, list[object]]:
    """What each channel's listener makes of the publishes, in order."""
    by_channel: dict[str, list[object]] = {}
    for channel, data, room in publishes:
        said = by_channel.setdefault(channel, [])
        if data[:1] in b"mM":  # as the listener reads them
            said.extend(socket_messages(data))
        else:
            said.append((data, room))
    return by_channel


@given(st.lists(queued, max_size=40))
def test_coalesced_publishes_tell_each_channel_the_same_in_the_same_order(
    batch: list[tuple[str, bytes, int | None]],
) -> None:
    publishes = coalesced(batch)
    assert heard(publishes) == heard(batch)
    assert len(publishes) <= len(batch)


def test_a_run_of_socket_messages_to_one_process_is_one_publish() -> None:
    batch: list[tuple[str, bytes, int | None]] = [
        ("node:a", b'm1\n{"n":1}', None),
        ("node:b", b'm4\n{"n":2}', None),
        ("node:a", b'm2\n{"n":3}', None),
        ("room:7", b'{"t":"client"}', 7),
        ("node:a", b'{"c":2,"close":true}', None),  # ends node:a's run: the close comes after message 3
        ("node:a", b'm1\n{"n":4}', None),
    ]
    assert coalesced(batch) == [
        ("node:a", b'M1\n{"n":1}\n2\n{"n":3}', None),
        ("node:b", b'm4\n{"n":2}', None),
        ("room:7", b'{"t":"client"}', 7),
        ("node:a", b'{"c":2,"close":true}', None),
        ("node:a", b'm1\n{"n":4}', None),
    ]
    assert socket_messages(b'M1\n{"n":1}\n2\n{"n":3}') == [(1, '{"n":1}'), (2, '{"n":3}')]
