"""Many server processes as one: Redis carries what a table's owner and the other processes say.

Each table is played by one process, the owner of the room's lease (:mod:`hupai.server.cluster.leases`).
A player's socket may reach any process. Where it lands on another process than the owner, that
process relays: what the client sends is published on the room's channel, which only the owner
listens to; what the table sends the client is published on the socket process's own channel.
Redis publishes in the order it receives, and each process publishes from one task, so a client
hears a table's messages once and in order, as over a direct socket.

Channels (``hupai:`` first):

* ``room:<id>`` — to the room's owner: joins, leaves, client messages, room changes, escapes.
* ``node:<id>`` — to one process: messages for the sockets it holds, answers to its requests.
* ``owners`` — to all: a table changed hands (sockets relayed to the old owner are closed, so the
  clients reconnect and are served by the new one with ``hand``/``since``, missing nothing).

A process proves it is alive with the key ``alive:<id>`` (it expires unless renewed); an owner
whose relayed connection belongs to a process that is no longer alive treats it as gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.client import PubSub

from hupai.server.protocol import INCOMING
from hupai.server.table.messages import (
    Connection,
    Dissolve,
    Escape,
    FromClient,
    Join,
    Leave,
    Message,
    RoomChanged,
)

log = logging.getLogger("hupai.cluster")
PREFIX = "hupai:"
OWNERS = PREFIX + "owners"
SEND_BATCH = 500  # publishes sent in one round trip
REDIS_CONNECTIONS = 32  # per process (the subscription takes one more)
LISTEN_POLL_SECONDS = 0.05  # the longest a (un)subscription waits for the listener when all is quiet


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
        self, cluster: Cluster, node: str, conn: int, *, user_id: int | None, hand: int, since: int
    ) -> None:
        super().__init__(user_id, hand=hand, since=since)
        self.cluster = cluster
        self.node = node
        self.conn = conn

    def send(self, message: dict[str, Any] | str) -> None:
        if not self.closed:
            # "m<id>\n<the message's JSON>": the socket's process sends the text on as it is, with
            # no second decoding and encoding of every update.
            text = message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
            self.cluster.publish_raw(node_channel(self.node), f"m{self.conn}\n{text}".encode())

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.cluster.publish(node_channel(self.node), {"c": self.conn, "close": True})


class RemoteRoom:
    """On a socket's process: the table of a room another process owns. Posting to it publishes to
    the owner; a message nobody received (the owner just died or let go) closes this process's
    sockets of the room, whose clients reconnect and find the new owner."""

    def __init__(self, cluster: Cluster, room_id: int, owner: str) -> None:
        self.cluster = cluster
        self.room_id = room_id
        self.owner = owner

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
        cluster.publish(room_channel(self.room_id), payload, room_id=self.room_id)


class Cluster:
    """This process's part of the cluster: its name, its Redis connections, what it relays."""

    def __init__(self, redis_url: str, *, node: str | None = None, alive_seconds: float = 10.0) -> None:
        self.node = node or new_node_id()
        # A bounded pool that makes callers wait for a free connection rather than fail: thousands
        # of sockets opening at once each ask Redis something (limits, relays).
        pool = BlockingConnectionPool.from_url(redis_url, max_connections=REDIS_CONNECTIONS, timeout=60)
        self.redis: Redis = Redis(connection_pool=pool)
        self.alive_seconds = alive_seconds
        self.pubsub: PubSub | None = None
        self.outgoing: asyncio.Queue[tuple[str, bytes, int | None]] = asyncio.Queue()
        self.commands: asyncio.Queue[tuple[str, str, asyncio.Future[None]]] = asyncio.Queue()
        self.ids = itertools.count(1)
        # Sockets on this process relayed to other owners: id -> (connection, room).
        self.local: dict[int, tuple[Connection, RemoteRoom]] = {}
        self.local_ids: dict[int, int] = {}  # id(connection) -> its relay id
        self.replies: dict[int, asyncio.Future[None]] = {}
        # Connections relayed to this process's tables: (node, id) -> connection.
        self.remote: dict[tuple[str, int], tuple[int, RemoteConnection]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        # Set by the owner of the tables (hupai.server.tables.Tables).
        self.deliver: Callable[[int, Message], None] = lambda _room, _message: None
        self.on_owner_change: Callable[[int, str | None], Awaitable[None]] | None = None
        self.on_unheard: Callable[[int], None] = lambda _room: None

    # --- running -------------------------------------------------------------------------------

    async def start(self) -> None:
        await self.redis.ping()
        await self.redis.set(alive_key(self.node), "1", px=int(self.alive_seconds * 1000))
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(node_channel(self.node), OWNERS)
        self.tasks = [
            asyncio.create_task(self._send(), name="cluster-send"),
            asyncio.create_task(self._listen(), name="cluster-listen"),
        ]

    async def stop(self) -> None:
        """Flush what is queued, then stop (the process's tables were stopped first)."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._drain(), 2.0)
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.redis.delete(alive_key(self.node))
        with contextlib.suppress(Exception):
            if self.pubsub is not None:
                await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _drain(self) -> None:
        while not self.outgoing.empty():
            await asyncio.sleep(0.01)

    async def heartbeat(self) -> None:
        """Say this process is alive; close relayed connections of processes that are not."""
        await self.redis.set(alive_key(self.node), "1", px=int(self.alive_seconds * 1000))
        # The processes this one relays to (owners) and from (sockets): are they still there?
        nodes = sorted(
            {node for node, _conn in self.remote} | {room.owner for _c, room in self.local.values()}
        )
        if not nodes:
            return
        pipe = self.redis.pipeline(transaction=False)
        for node in nodes:
            pipe.exists(alive_key(node))
        gone = {node for node, there in zip(nodes, await pipe.execute(), strict=True) if not there}
        for _connection, room in list(self.local.values()):
            if room.owner in gone:
                self.close_relays(room.room_id)  # its clients reconnect and find the new owner
        for (node, conn), (room_id, connection) in list(self.remote.items()):
            if node in gone:
                del self.remote[(node, conn)]
                connection.closed = True  # nobody to tell
                self.deliver(room_id, Leave(connection))

    async def unheard_nodes(self, nodes: list[str]) -> set[str] | None:
        """Of ``nodes``, those no longer listening on their channel: a process that died (or lost
        Redis) stops listening at once, long before its leases run out. None when this process is
        not heard either (Redis itself restarted or is cut off): then nobody can be judged."""
        answer = await self.redis.pubsub_numsub(node_channel(self.node), *map(node_channel, nodes))
        counts = [count for _channel, count in answer]  # in the order asked
        if not counts[0]:
            return None
        return {node for node, count in zip(nodes, counts[1:], strict=True) if not count}

    # --- sending -------------------------------------------------------------------------------

    def publish(self, channel: str, payload: dict[str, Any], *, room_id: int | None = None) -> None:
        """Queue a message; one task sends them all, in order. ``room_id``: a message to a room's
        owner, whose loss (nobody listening) is reported to :attr:`on_unheard`."""
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
        self.publish_raw(channel, data, room_id=room_id)

    def publish_raw(self, channel: str, data: bytes, *, room_id: int | None = None) -> None:
        self.outgoing.put_nowait((channel, data, room_id))

    async def _send(self) -> None:
        while True:
            batch = [await self.outgoing.get()]
            while len(batch) < SEND_BATCH and not self.outgoing.empty():
                batch.append(self.outgoing.get_nowait())
            try:
                pipe = self.redis.pipeline(transaction=False)
                for channel, data, _room in batch:
                    pipe.publish(channel, data)
                heard = await pipe.execute()
            except Exception:
                log.exception("cluster: could not publish %d message(s)", len(batch))
                continue
            unheard = {
                room
                for (_c, _d, room), count in zip(batch, heard, strict=True)
                if room is not None and not count
            }
            for room_id in unheard:
                self.on_unheard(room_id)

    async def announce_owner(self, room_id: int, *, released: bool = False) -> None:
        """This process now owns the room's table (or let it go): other processes drop their relays
        to the old owner, and take a released room in play over at once."""
        await self.redis.publish(
            OWNERS, json.dumps({"room": room_id, "node": None if released else self.node})
        )

    # --- the rooms this process owns -----------------------------------------------------------

    async def own(self, room_id: int) -> None:
        """Listen to the room's channel (from now on, what is published there reaches this process)."""
        await self._subscription("subscribe", room_channel(room_id))

    async def disown(self, room_id: int) -> None:
        with contextlib.suppress(Exception):
            await self._subscription("unsubscribe", room_channel(room_id))
        for key, (room, connection) in list(self.remote.items()):
            if room == room_id:
                del self.remote[key]
                connection.close()

    async def _subscription(self, command: str, channel: str) -> None:
        # The listening task alone uses the subscription's connection: it runs the command between
        # two reads, and says when Redis has it.
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.commands.put_nowait((command, channel, done))
        await done

    # --- sockets of this process relayed elsewhere ---------------------------------------------

    def register(self, connection: Connection, room: RemoteRoom) -> int:
        conn = next(self.ids)
        self.local[conn] = (connection, room)
        self.local_ids[id(connection)] = conn
        return conn

    def unregister(self, connection: Connection) -> int:
        conn = self.local_ids.pop(id(connection), 0)
        self.local.pop(conn, None)
        return conn

    def connection_id(self, connection: Connection) -> int | None:
        return self.local_ids.get(id(connection))

    def close_relays(self, room_id: int, *, except_owner: str | None = None) -> None:
        """Close this process's sockets relayed to the room's (old) owner: their clients reconnect."""
        for conn, (connection, room) in list(self.local.items()):
            if room.room_id == room_id and room.owner != except_owner:
                self.local.pop(conn, None)
                self.local_ids.pop(id(connection), None)
                connection.close()

    def await_reply(self, done: asyncio.Future[None] | None) -> int | None:
        if done is None:
            return None
        request = next(self.ids)
        self.replies[request] = done
        done.add_done_callback(lambda _future: self.replies.pop(request, None))
        return request

    # --- receiving -----------------------------------------------------------------------------

    async def _listen(self) -> None:
        assert self.pubsub is not None
        while True:
            while not self.commands.empty():
                command, channel, done = self.commands.get_nowait()
                try:
                    await getattr(self.pubsub, command)(channel)
                    done.set_result(None)
                except Exception as error:
                    done.set_exception(error)
            try:
                item = await self.pubsub.get_message(timeout=LISTEN_POLL_SECONDS)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: lost the subscription; retrying")
                await asyncio.sleep(0.5)
                continue
            if item is None or item.get("type") != "message":
                continue
            try:
                channel, data = item["channel"].decode(), item["data"]
                if data.startswith(b"m"):  # a message for one of this process's sockets
                    conn, _, text = data[1:].partition(b"\n")
                    self._forward(int(conn), text.decode())
                else:
                    await self._received(channel, json.loads(data))
            except Exception:  # one bad message never stops the relay
                log.exception("cluster: could not handle a message")

    async def _received(self, channel: str, payload: dict[str, Any]) -> None:
        if channel == OWNERS:
            room_id, owner = int(payload["room"]), payload["node"]
            self.close_relays(room_id, except_owner=owner)
            if owner != self.node and self.on_owner_change is not None:
                await self.on_owner_change(room_id, owner)
        elif channel.startswith(PREFIX + "node:"):
            self._to_this_node(payload)
        elif channel.startswith(PREFIX + "room:"):
            room_id = int(channel.rsplit(":", 1)[1])
            message = self._to_table(room_id, payload)
            if message is not None:
                self.deliver(room_id, message)

    def _to_this_node(self, payload: dict[str, Any]) -> None:
        if "reply" in payload:
            done = self.replies.pop(int(payload["reply"]), None)
            if done is not None and not done.done():
                done.set_result(None)
            return
        entry = self.local.get(int(payload["c"]))
        if entry is not None and payload.get("close"):
            self.unregister(entry[0])
            entry[0].close()

    def _forward(self, conn: int, text: str) -> None:
        entry = self.local.get(conn)
        if entry is not None:
            entry[0].send(text)

    def _to_table(self, room_id: int, payload: dict[str, Any]) -> Message | None:
        node, kind = str(payload["n"]), payload["t"]
        if kind == "room":
            return RoomChanged()
        if kind in ("escape", "dissolve"):
            done = self._reply_future(node, payload.get("r"))
            return Escape(int(payload["seat"]), done) if kind == "escape" else Dissolve(done)
        key = (node, int(payload["c"]))
        if kind == "join":
            connection = RemoteConnection(
                self, node, key[1], user_id=payload["user"], hand=payload["hand"], since=payload["since"]
            )
            self.remote[key] = (room_id, connection)
            return Join(connection)
        entry = self.remote.get(key)
        if entry is None:
            if kind == "client":
                # From a socket that joined the room's previous owner (sent before its process heard
                # of the takeover): lost here, an answer would stall the table until its clock runs
                # out. Closed instead, the client reconnects, joins this owner and answers again.
                self.publish(node_channel(node), {"c": key[1], "close": True})
            return None
        if kind == "leave":
            del self.remote[key]
            return Leave(entry[1])
        return FromClient(entry[1], INCOMING.validate_python(payload["m"]))

    def _reply_future(self, node: str, request: Any) -> asyncio.Future[None] | None:
        if request is None:
            return None
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        done.add_done_callback(lambda _f: self.publish(node_channel(node), {"reply": request}))
        return done
