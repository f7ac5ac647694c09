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

With PostgreSQL (as every cluster has), the same channels are listened to there too
(:mod:`hupai.server.cluster.notify`), and while Redis is away new relays go that way: a relay keeps
the way it started on (``via``) until its socket closes, so that its messages stay in order. When
Redis goes away the relays that went by it are closed at once; their clients reconnect (with
``hand``/``since``, missing nothing) and are relayed over PostgreSQL within a second.

Over 500 lines: one class keeps every relay of this process, both ways and both directions, because
what breaks a relay (a publish lost, Redis gone or back) must close exactly the sockets and forget
exactly the connections that went that way, and drop what is queued for them, in one step with no
await between. The wire format of a publish is :mod:`hupai.server.cluster.wire`'s; the second way
:mod:`hupai.server.cluster.notify`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from hupai.server.cluster.notify import PostgresChannel
from hupai.server.cluster.remote import (
    CLUBS,
    OWNERS,
    PG,
    PREFIX,
    REDIS,
    RemoteConnection,
    RemoteRoom,
    alive_key,
    new_node_id,
    node_channel,
    room_channel,
)
from hupai.server.cluster.wire import coalesced, runs_by_way, socket_messages
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
# Said to a socket whose relay broke, just before it is closed (docs/protocol.md): the client comes
# back at once and is relayed the other way.
RELAY_AWAY = {"type": "relay", "state": "away"}
SEND_BATCH = 500  # publishes sent in one round trip
REDIS_CONNECTIONS = 32  # per process (the subscription takes one more)
LISTEN_POLL_SECONDS = 0.05  # the longest a (un)subscription waits for the listener when all is quiet
REDIS_RETRY_SECONDS = 0.25  # how often a process whose Redis is away tries it again
# After a publish to Redis failed, new relays go over PostgreSQL for this long (the listener, which
# finds a Redis outage by itself, may still be waiting on a read).
REDIS_FAILED_SECONDS = 2.0


class Cluster:
    """This process's part of the cluster: its name, its Redis connections, what it relays."""

    def __init__(
        self,
        redis_url: str,
        *,
        node: str | None = None,
        alive_seconds: float = 10.0,
        database_url: str | None = None,
    ) -> None:
        """``database_url``: a PostgreSQL one gives the relay its second way (none on SQLite)."""
        self.node = node or new_node_id()
        # A bounded pool that makes callers wait for a free connection rather than fail: thousands
        # of sockets opening at once each ask Redis something (limits, relays).
        pool = BlockingConnectionPool.from_url(redis_url, max_connections=REDIS_CONNECTIONS, timeout=60)
        self.redis: Redis = Redis(connection_pool=pool)
        self.alive_seconds = alive_seconds
        self.pubsub: PubSub | None = None
        self.outgoing: asyncio.Queue[tuple[str, bytes, int | None, str]] = asyncio.Queue()
        self.commands: asyncio.Queue[tuple[str, str, asyncio.Future[None]]] = asyncio.Queue()
        self.ids = itertools.count(1)
        # Sockets on this process relayed to other owners: id -> (connection, room).
        self.local: dict[int, tuple[Connection, RemoteRoom]] = {}
        self.local_ids: dict[int, int] = {}  # id(connection) -> its relay id
        self.replies: dict[int, asyncio.Future[None]] = {}
        # Connections relayed to this process's tables: (node, id) -> connection.
        self.remote: dict[tuple[str, int], tuple[int, RemoteConnection]] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.rooms_owned: set[int] = set()  # the room channels this process listens to
        self.away = False  # Redis does not answer: relays wait for it (or go over PostgreSQL)
        self.relays_broken = False  # a publish was lost: every relay starts again
        self.redis_failed_at = -math.inf  # when a publish to Redis last failed
        self.back_at = -math.inf  # when Redis last came back
        self.postgres: PostgresChannel | None = None
        if database_url is not None and database_url.startswith("postgresql"):
            self.postgres = PostgresChannel(
                database_url, lambda channel, data: self._handle(channel, data, PG)
            )
        # Set by the owner of the tables (hupai.server.tables.Tables).
        self.deliver: Callable[[int, Message], None] = lambda _room, _message: None
        self.on_owner_change: Callable[[int, str | None], Awaitable[None]] | None = None
        self.on_unheard: Callable[[int], None] = lambda _room: None
        self.holds: Callable[[int], bool] = lambda _room: True  # whether this process owns the room now
        # Set by the clubs' lobbies (hupai.server.club_lobby): clubs changed on another process.
        self.on_clubs_changed: Callable[[set[int]], None] = lambda _clubs: None

    # --- running -------------------------------------------------------------------------------

    async def start(self) -> None:
        await self.redis.ping()
        self.pubsub = await self._subscribed()
        if self.postgres is not None:
            await self.postgres.start([node_channel(self.node), OWNERS, CLUBS])
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
        if self.postgres is not None:
            await self.postgres.stop()

    def current_via(self) -> str:
        """The way a relay starting now goes: Redis, unless it is away and PostgreSQL is there."""
        if self.postgres is None:
            return REDIS
        redis_failing = self.away or time.monotonic() - self.redis_failed_at < REDIS_FAILED_SECONDS
        return PG if redis_failing else REDIS

    async def _drain(self) -> None:
        while not self.outgoing.empty():
            await asyncio.sleep(0.01)

    async def heartbeat(self) -> None:
        """Say this process is alive; close relayed connections of processes that are not."""
        if self.away:
            return  # nothing can be said or judged; the relays start again when Redis is back
        try:
            await self._heartbeat()
        except RedisError as error:
            log.warning("cluster: no heartbeat (%s)", error)

    async def _heartbeat(self) -> None:
        await self.redis.set(alive_key(self.node), "1", px=int(self.alive_seconds * 1000))
        if time.monotonic() - self.back_at < self.alive_seconds:
            return  # Redis just came back: the others may not have said they are alive yet
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
                # Told all the same: a process only late with its heartbeat (its database was away)
                # closes the socket, whose client comes back, rather than keep it open and silent.
                connection.close()
                self.deliver(room_id, Leave(connection))

    async def answers(self, node: str) -> bool:
        """Whether ``node`` looks able to play a table now: it listens on its channel (a process that
        died does not) and renewed its alive key on time (a paused one does not). When Redis cannot
        say, True: the relay then finds out by itself."""
        try:
            pipe = self.redis.pipeline(transaction=False)
            pipe.pubsub_numsub(node_channel(node))
            pipe.pttl(alive_key(node))
            ((_channel, listening),), left_ms = await pipe.execute()
        except Exception:
            return True
        # Renewed every third of its life: under 40% left is a renewal missed (-2: no key at all).
        return bool(listening) and left_ms > self.alive_seconds * 400

    def relayed_rooms(self) -> dict[int, set[str]]:
        """The rooms this process's sockets are relayed for, and the owners they are relayed to."""
        rooms: dict[int, set[str]] = {}
        for _connection, room in self.local.values():
            rooms.setdefault(room.room_id, set()).add(room.owner)
        return rooms

    async def unheard_nodes(self, nodes: list[str]) -> set[str] | None:
        """Of ``nodes``, those no longer listening on their channel: a process that died (or lost
        Redis) stops listening at once, long before its leases run out. None when this process is
        not heard either (Redis itself restarted or is cut off): then nobody can be judged."""
        try:
            answer = await self.redis.pubsub_numsub(node_channel(self.node), *map(node_channel, nodes))
        except RedisError:
            return None
        counts = [count for _channel, count in answer]  # in the order asked
        if not counts[0]:
            return None
        return {node for node, count in zip(nodes, counts[1:], strict=True) if not count}

    # --- sending -------------------------------------------------------------------------------

    def publish(
        self, channel: str, payload: dict[str, Any], *, room_id: int | None = None, via: str | None = None
    ) -> None:
        """Queue a message; one task sends them all, in order. ``room_id``: a message to a room's
        owner, whose loss (nobody listening) is reported to :attr:`on_unheard`. ``via``: the relay's
        way (Redis or PostgreSQL); by default the way a relay starting now would go."""
        data = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
        self.publish_raw(channel, data, room_id=room_id, via=via)

    def publish_raw(
        self, channel: str, data: bytes, *, room_id: int | None = None, via: str | None = None
    ) -> None:
        self.outgoing.put_nowait((channel, data, room_id, via or self.current_via()))

    async def _send(self) -> None:
        while True:
            batch = [await self.outgoing.get()]
            while len(batch) < SEND_BATCH and not self.outgoing.empty():
                batch.append(self.outgoing.get_nowait())
            for via, run in runs_by_way(batch):
                if via == PG:
                    await self._send_by_postgres(run)
                else:
                    await self._send_by_redis(coalesced(run))

    async def _send_by_redis(self, batch: list[tuple[str, bytes, int | None]]) -> None:
        try:
            pipe = self.redis.pipeline(transaction=False)
            for channel, data, _room in batch:
                pipe.publish(channel, data)
            heard = await pipe.execute()
        except Exception as error:
            if not self.away and not self.relays_broken:
                log.warning("cluster: could not publish %d message(s) (%s)", len(batch), error)
            self.redis_failed_at = time.monotonic()
            if self.postgres is None:  # lost: the relays are started again once Redis answers
                self.relays_broken = True
            else:  # lost: the relays that went by Redis start again now, over PostgreSQL
                self._start_relays_again(REDIS)
            return
        unheard = {
            room for (_c, _d, room), count in zip(batch, heard, strict=True) if room is not None and not count
        }
        for room_id in unheard:
            self.on_unheard(room_id)

    async def _send_by_postgres(self, batch: list[tuple[str, bytes, int | None]]) -> None:
        assert self.postgres is not None
        try:
            await self.postgres.send([(channel, data) for channel, data, _room in batch])
        except Exception as error:  # lost: the relays that went this way start again
            log.warning("cluster: could not send %d message(s) by PostgreSQL (%s)", len(batch), error)
            self._start_relays_again(PG)

    async def announce_owner(self, room_id: int, *, released: bool = False) -> None:
        """This process now owns the room's table (or let it go): other processes drop their relays
        to the old owner, and take a released room in play over at once."""
        owner = None if released else self.node
        news = {"room": room_id, "node": owner, "from": self.node}
        if self.current_via() == PG:
            self.publish(OWNERS, news, via=PG)
            return
        try:
            await self.redis.publish(OWNERS, json.dumps(news))
        except RedisError as error:  # the others find out from the leases (their relay checks)
            log.warning("cluster: could not announce room %s's owner (%s)", room_id, error)
            if self.postgres is not None:
                self.publish(OWNERS, news, via=PG)

    # --- the rooms this process owns -----------------------------------------------------------

    async def own(self, room_id: int) -> None:
        """Listen to the room's channel (from now on, what is published there reaches this process)."""
        if self.postgres is not None:
            await self.postgres.listen(room_channel(room_id))
            self.rooms_owned.add(room_id)
            if self.away:  # subscribed on Redis with the others when it is back
                return
            with contextlib.suppress(Exception):  # (or when the listener finds it away)
                await self._subscription("subscribe", room_channel(room_id))
            return
        await self._subscription("subscribe", room_channel(room_id))
        self.rooms_owned.add(room_id)

    async def disown(self, room_id: int) -> None:
        self.rooms_owned.discard(room_id)
        if self.postgres is not None:
            await self.postgres.unlisten(room_channel(room_id))
        with contextlib.suppress(Exception):
            await self._subscription("unsubscribe", room_channel(room_id))
        for key, (room, connection) in list(self.remote.items()):
            if room == room_id:
                del self.remote[key]
                connection.close()

    async def _subscription(self, command: str, channel: str) -> None:
        # The listening task alone uses the subscription's connection: it runs the command between
        # two reads, and says when Redis has it.
        if self.away:  # the listener waits for Redis: this would wait as long
            raise ConnectionError("Redis is away")
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

    def close_relays(
        self, room_id: int, *, except_owner: str | None = None, only_owner: str | None = None
    ) -> None:
        """Close this process's sockets relayed to the room's (old) owner — all of them, all but those
        relayed to ``except_owner``, or only those relayed to ``only_owner``: their clients reconnect."""
        for conn, (connection, room) in list(self.local.items()):
            if room.room_id != room_id or room.owner == except_owner:
                continue
            if only_owner is None or room.owner == only_owner:
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
            if self.relays_broken:  # a publish failed: once Redis answers, every relay starts again
                try:
                    await self.redis.ping()
                except Exception as error:
                    await self._wait_for_redis(error)
                    continue
                self._start_relays_again()
            try:
                item = await self.pubsub.get_message(timeout=LISTEN_POLL_SECONDS)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                await self._wait_for_redis(error)
                continue
            if item is None or item.get("type") != "message":
                continue
            try:
                await self._handle(item["channel"].decode(), item["data"], REDIS)
            except Exception:  # one bad message never stops the relay
                log.exception("cluster: could not handle a message")

    async def _handle(self, channel: str, data: bytes, via: str) -> None:
        """One message heard on ``channel``, by Redis or by PostgreSQL (``via``)."""
        if data[:1] in b"mM":  # for this process's sockets
            for conn, text in socket_messages(data):
                self._forward(conn, text)
        else:
            await self._received(channel, json.loads(data), via)

    async def _subscribed(self) -> PubSub:
        """A new subscription to this process's channels (and say it is alive)."""
        await self.redis.set(alive_key(self.node), "1", px=int(self.alive_seconds * 1000))
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            rooms = [room_channel(room_id) for room_id in sorted(self.rooms_owned)]
            await pubsub.subscribe(node_channel(self.node), OWNERS, CLUBS, *rooms)
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise
        return pubsub

    async def _wait_for_redis(self, error: Exception) -> None:
        """The subscription broke (Redis restarted or is unreachable). The tables here play on for
        their own sockets; relays wait. Once Redis answers again, listen anew and start every relay
        again: whatever was published meanwhile is lost, both ways."""
        self.away = True
        if self.postgres is not None:
            log.warning("cluster: Redis is away (%s); relays go over PostgreSQL", error)
            self._start_relays_again(REDIS)  # their clients come back at once, relayed the other way
        else:
            log.warning("cluster: Redis is away (%s); tables play on for their own sockets", error)
        old = self.pubsub
        while True:
            await asyncio.sleep(REDIS_RETRY_SECONDS)
            try:
                self.pubsub = await self._subscribed()
                break
            except asyncio.CancelledError:
                raise
            except Exception:
                continue
        if old is not None:
            with contextlib.suppress(Exception):
                await old.aclose()
        self.away = False
        self.back_at = time.monotonic()
        self._start_relays_again(REDIS)
        log.warning("cluster: Redis is back; new relays go by it")

    def _start_relays_again(self, via: str | None = None) -> None:
        """Messages were lost (a publish failed, or Redis restarted): close this process's sockets
        relayed that way (all without ``via``; their clients reconnect with ``hand``/``since`` and
        miss nothing), forget the connections relayed here that way (their sockets are being
        closed), and drop what is still queued for them."""
        if via is None or via == REDIS:
            self.relays_broken = False
        kept = []
        while not self.outgoing.empty():
            queued = self.outgoing.get_nowait()
            if via is not None and queued[3] != via:
                kept.append(queued)
        for queued in kept:
            self.outgoing.put_nowait(queued)
        for connection, room in list(self.local.values()):
            if via is None or room.via == via:
                self.unregister(connection)
                connection.send(RELAY_AWAY)
                connection.close()
        for key, (room_id, connection) in list(self.remote.items()):
            if via is None or connection.via == via:
                del self.remote[key]
                connection.closed = True  # its socket's process closes the socket
                self.deliver(room_id, Leave(connection))

    async def _received(self, channel: str, payload: dict[str, Any], via: str = REDIS) -> None:
        if channel == CLUBS:
            if payload.get("node") != self.node:  # its own changes this process heard at once
                self.on_clubs_changed({int(club) for club in payload["clubs"]})
        elif channel == OWNERS:
            room_id, owner = int(payload["room"]), payload["node"]
            if owner is None:  # let go: only the sockets relayed to the process that let it go
                self.close_relays(room_id, only_owner=payload.get("from"))
            else:
                self.close_relays(room_id, except_owner=owner)
            if owner != self.node and self.on_owner_change is not None:
                await self.on_owner_change(room_id, owner)
        elif channel.startswith(PREFIX + "node:"):
            self._to_this_node(payload)
        elif channel.startswith(PREFIX + "room:"):
            room_id = int(channel.rsplit(":", 1)[1])
            message = self._to_table(room_id, payload, via)
            if message is not None:
                self.deliver(room_id, message)

    def _to_this_node(self, payload: dict[str, Any]) -> None:
        if "reply" in payload:
            done = self.replies.pop(int(payload["reply"]), None)
            if done is not None and not done.done():
                done.set_result(None)
            return
        entry = self.local.get(int(payload["c"]))
        # Only the process this socket is relayed to may close it, or the room's owner now, for a socket
        # relayed to the one before: a paused owner that comes back answers what waited for it (joins
        # and moves the new owner has served) with closes that must not reach those sockets.
        if entry is None or not payload.get("close"):
            return
        if payload.get("o") == entry[1].owner or payload.get("rejoin"):
            self.unregister(entry[0])
            entry[0].close()

    def _forward(self, conn: int, text: str) -> None:
        entry = self.local.get(conn)
        if entry is not None:
            entry[0].send(text)

    def _to_table(self, room_id: int, payload: dict[str, Any], via: str = REDIS) -> Message | None:
        node, kind = str(payload["n"]), payload["t"]
        if kind == "room":
            return RoomChanged()
        if kind in ("escape", "dissolve"):
            done = self._reply_future(node, payload.get("r"), via)
            return Escape(int(payload["seat"]), done) if kind == "escape" else Dissolve(done)
        key = (node, int(payload["c"]))
        if kind == "join":
            connection = RemoteConnection(
                self,
                node,
                key[1],
                user_id=payload["user"],
                hand=payload["hand"],
                since=payload["since"],
                patches=bool(payload.get("patches", False)),
                via=via,
            )
            self.remote[key] = (room_id, connection)
            return Join(connection)
        entry = self.remote.get(key)
        if entry is None:
            if kind == "client" and self.holds(room_id):
                # From a socket that joined the room's previous owner (sent before its process heard
                # of the takeover): lost here, an answer would stall the table until its clock runs
                # out. Closed instead, the client reconnects, joins this owner and answers again.
                # (Said only by the owner: a paused process that lost the table stays quiet.)
                closing = {"c": key[1], "close": True, "o": self.node, "rejoin": True}
                self.publish(node_channel(node), closing, via=via)
            return None
        if kind == "leave":
            del self.remote[key]
            return Leave(entry[1])
        return FromClient(entry[1], INCOMING.validate_python(payload["m"]))

    def _reply_future(self, node: str, request: Any, via: str) -> asyncio.Future[None] | None:
        if request is None:
            return None
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        done.add_done_callback(lambda _f: self.publish(node_channel(node), {"reply": request}, via=via))
        return done
