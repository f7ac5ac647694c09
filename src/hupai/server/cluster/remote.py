"""Both ends of a relay (:mod:`hupai.server.cluster.relay`): the names of the channels and keys, the
owner's stand-in for a socket on another process, and a socket's stand-in for a table on another."""

from __future__ import annotations

import os
import secrets
import socket
from typing import Any, Protocol

from hupai.server.protocol import INCOMING, encoded
from hupai.server.table.messages import Connection, Escape, FromClient, Join, Leave, Message, RoomChanged

PREFIX = "hupai:"
OWNERS = PREFIX + "owners"
CLUBS = PREFIX + "clubs"  # which clubs changed (hupai.server.club_lobby): every process listens
# The two ways a relay goes between processes (:mod:`hupai.server.cluster.relay`).
REDIS = "redis"
PG = "pg"


class Relay(Protocol):
    """What the stand-ins need of this process's part in the cluster
    (:class:`~hupai.server.cluster.relay.Cluster`)."""

    node: str

    def publish(
        self, channel: str, payload: dict[str, Any], *, room_id: int | None = None, via: str | None = None
    ) -> None: ...

    def publish_raw(
        self, channel: str, data: bytes, *, room_id: int | None = None, via: str | None = None
    ) -> None: ...

    def current_via(self) -> str: ...

    def register(self, connection: Connection, room: RemoteRoom) -> int: ...

    def unregister(self, connection: Connection) -> int: ...

    def connection_id(self, connection: Connection) -> int | None: ...

    def await_reply(self, done: Any) -> int | None: ...


def room_channel(room_id: int) -> str:
    return f"{PREFIX}room:{room_id}"


def node_channel(node: str) -> str:
    return f"{PREFIX}node:{node}"


def alive_key(node: str) -> str:
    return f"{PREFIX}alive:{node}"


def new_node_id() -> str:
    """A name for this process, unique across machines and restarts."""
    return f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(4)}"


class RemoteConnection(Connection):
    """On the owner: a client whose socket is on another process. What the table sends it is
    published to that process; it is closed when that process says so or stops being alive."""

    def __init__(
        self,
        cluster: Relay,
        node: str,
        conn: int,
        *,
        user_id: int | None,
        hand: int,
        since: int,
        patches: bool = False,
        via: str = REDIS,
    ) -> None:
        super().__init__(user_id, hand=hand, since=since, patches=patches)
        self.cluster = cluster
        self.node = node
        self.conn = conn
        self.via = via  # the way its join came, which every answer takes

    def send(self, message: dict[str, Any] | str) -> None:
        if not self.closed:
            # "m<id>\n<the message's JSON>": the socket's process sends the text on as it is, with
            # no second decoding and encoding of every update.
            text = message if isinstance(message, str) else encoded(message)
            self.cluster.publish_raw(node_channel(self.node), f"m{self.conn}\n{text}".encode(), via=self.via)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            closing = {"c": self.conn, "close": True, "o": self.cluster.node}  # "o": who closes
            self.cluster.publish(node_channel(self.node), closing, via=self.via)


class RemoteRoom:
    """On a socket's process: the table of a room another process owns. Posting to it publishes to
    the owner; a message nobody received (the owner just died or let go) closes this process's
    sockets of the room, whose clients reconnect and find the new owner."""

    def __init__(self, cluster: Relay, room_id: int, owner: str) -> None:
        self.cluster = cluster
        self.room_id = room_id
        self.owner = owner
        self.via = cluster.current_via()  # kept while its socket lives: its messages stay in order

    def post(self, message: Message) -> None:
        cluster = self.cluster
        payload: dict[str, Any]
        if isinstance(message, Join):
            conn = cluster.register(message.connection, self)
            payload = {
                "t": "join",
                "user": message.connection.user_id,
                "hand": message.connection.hand_index,
                "since": message.connection.sent_events,
                "patches": message.connection.patches,
                "c": conn,
            }
        elif isinstance(message, Leave):
            payload = {"t": "leave", "c": cluster.unregister(message.connection)}
        elif isinstance(message, FromClient):
            relay = cluster.connection_id(message.connection)
            if relay is None:
                return
            payload = {"t": "client", "c": relay, "m": INCOMING.dump_python(message.message, mode="json")}
        elif isinstance(message, RoomChanged):
            payload = {"t": "room"}
        elif isinstance(message, Escape):
            payload = {"t": "escape", "seat": message.seat, "r": cluster.await_reply(message.done)}
        else:
            payload = {"t": "dissolve", "r": cluster.await_reply(message.done)}
        payload["n"] = cluster.node
        cluster.publish(room_channel(self.room_id), payload, room_id=self.room_id, via=self.via)
