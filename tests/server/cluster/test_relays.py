"""What a table's owner does with relayed messages it cannot place (hupai.server.cluster.relay)."""

from __future__ import annotations

import json

from hupai.server.cluster.relay import Cluster, node_channel
from hupai.server.table.messages import FromClient, Join

ACT = {"type": "act", "seq": 5, "action": {"act": "pass"}}


def owner() -> Cluster:
    """A cluster member that never connects: only what it would publish is looked at."""
    return Cluster("redis://127.0.0.1:9/0", node="owner")


def published(cluster: Cluster) -> list[tuple[str, dict[str, object]]]:
    out = []
    while not cluster.outgoing.empty():
        channel, data, _room = cluster.outgoing.get_nowait()
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
    assert published(cluster) == [(node_channel("edge"), {"c": 3, "close": True})]
    assert cluster._to_table(7, {"n": "edge", "t": "leave", "c": 3}) is None  # nothing to close
    assert published(cluster) == []
