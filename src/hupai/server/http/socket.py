"""The table websocket: who may connect (origin, login, socket and connection limits), every incoming
frame checked at the edge before it reaches the table, and the table's messages sent out in order."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import time
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from hupai.server.cluster.remote import RemoteRoom
from hupai.server.errors import Forbidden, NotFound
from hupai.server.guards.edge import foreign_origin
from hupai.server.guards.limits import Limits, SocketCounts
from hupai.server.guards.shared_limits import SharedSocketCounts
from hupai.server.http.deps import COOKIE, LOG_IN_FIRST
from hupai.server.protocol import INCOMING, ClientMessageType, Ping, Sync, encoded, error_message
from hupai.server.rates import TokenBucket
from hupai.server.schemas import UserOut
from hupai.server.settings import Settings
from hupai.server.storage.store import Store
from hupai.server.table.messages import Connection, FromClient, Join, Leave, Message
from hupai.server.tables import Route, Tables

CLOSE_UNAUTHORIZED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_POLICY = 1008
CLOSE_TOO_MANY = 4429  # too many table sockets open for this user or address
SYNC_TOO_SOON = "sync too soon; this one was dropped"
FLOOD_LIMIT = 200  # refused messages in a row before a flooding client is cut off
EARLY_MESSAGES = 50  # kept for the table while it is being found (more are dropped)

router = APIRouter()


@router.websocket("/api/rooms/{number}/ws")
async def table_socket(
    socket: WebSocket,
    number: str,
    *,
    hand: Annotated[int, Query(ge=-1)] = -1,
    since: Annotated[int, Query(ge=0)] = 0,
    token: str | None = None,
    invite: Annotated[str | None, Query(max_length=64)] = None,
    delta: bool = False,
) -> None:
    await socket.accept()
    settings: Settings = socket.app.state.settings
    async with player_socket(socket, token, count_connects=True) as user:
        if user is not None:
            connection = Connection(user.id, hand=hand, since=since, patches=delta)
            await _play(socket, number, connection, invite, settings)


@contextlib.asynccontextmanager
async def player_socket(
    socket: WebSocket, token: str | None, *, count_connects: bool = False
) -> AsyncIterator[UserOut | None]:
    """The player of an accepted socket (the cookie's, or ``token``'s), counted against the open
    sockets a network address and a player may hold for as long as the block runs; ``None`` when
    refused (the socket told why and closed): a page on another site, no session, too many sockets
    — and with ``count_connects``, too many table connections opened this minute."""
    settings: Settings = socket.app.state.settings
    origin = foreign_origin(socket.scope, settings)
    if origin is not None:  # a page on another site must not play with its visitor's cookie
        await refuse(socket, CLOSE_FORBIDDEN, "forbidden_origin", f"connections from {origin} are refused")
        yield None
        return
    sockets: SocketCounts | SharedSocketCounts = socket.app.state.sockets
    address = ("address", socket.client.host if socket.client is not None else "")
    if not await _within_limit(socket, sockets, address, settings.max_sockets_per_address):
        yield None
        return
    try:
        store: Store = socket.app.state.store
        user = await run_in_threadpool(store.accounts.user_for_token, token or socket.cookies.get(COOKIE))
        if user is None:
            await refuse(socket, CLOSE_UNAUTHORIZED, "unauthorized", LOG_IN_FIRST)
            yield None
            return
        if count_connects and not await _connect_counted(socket, user.id, settings):
            yield None
            return
        person = ("user", user.id)
        if not await _within_limit(socket, sockets, person, settings.max_sockets_per_user):
            yield None
            return
        try:
            yield user
        finally:
            await sockets.give_back(person)
    finally:
        await sockets.give_back(address)


async def _connect_counted(socket: WebSocket, user_id: int, settings: Settings) -> bool:
    """One more table connection this minute for the player, or the socket refused."""
    limits: Limits = socket.app.state.limits
    if await limits.connects_by_user.wait(str(user_id)) > 0:
        message = f"at most {settings.connects_per_minute} table connections a minute per player"
        await refuse(socket, CLOSE_TOO_MANY, "too_many_sockets", message)
        return False
    await limits.connects_by_user.record(str(user_id))
    return True


async def _admitted(socket: WebSocket, number: str, connection: Connection, invite: str | None) -> int | None:
    """The room's id, for its players, the invited, or anyone where the host let anyone with the
    number watch; else ``None``, the socket closed with the reason."""
    store: Store = socket.app.state.store
    try:
        return await run_in_threadpool(store.invitations.admitted, number, connection.user_id, invite)
    except NotFound as error:
        await refuse(socket, CLOSE_NOT_FOUND, "not_found", error.message)
    except Forbidden as error:  # no invitation, or a locked room
        await refuse(socket, CLOSE_FORBIDDEN, error.code, error.message)
    return None


async def _play(
    socket: WebSocket, number: str, connection: Connection, invite: str | None, settings: Settings
) -> None:
    tables: Tables = socket.app.state.tables
    room_id = await _admitted(socket, number, connection, invite)
    if room_id is None:
        return
    # Finding the table may take a while (its owner just died: the socket waits for the takeover),
    # so the socket is read from the start: pings are answered, and what else the client sends
    # waits, in order, for the table.
    routed: list[Route] = []
    early: list[Message] = []

    def post(message: Message) -> None:
        if not routed:
            if len(early) < EARLY_MESSAGES:
                early.append(message)
            return
        route = routed[0]
        if isinstance(route, RemoteRoom):
            route.post(message)
        elif (table := tables.local(room_id)) is not None:
            table.post(message)
        else:  # this process lost the table: the client reconnects and finds its new owner
            connection.close()

    async def find_and_join() -> None:
        route = await tables.route(room_id)
        if connection.closed:  # the client left meanwhile
            return
        # Joined with no await in between: a table just started for this socket would otherwise run
        # first, find nobody there and end.
        routed.append(route)
        post(Join(connection))
        for message in early:
            post(message)
        early.clear()

    finding = asyncio.create_task(find_and_join())
    writer = asyncio.create_task(_pump(socket, connection))
    reader = asyncio.create_task(_read(socket, connection, post, settings))
    await asyncio.wait({finding, reader}, return_when=asyncio.FIRST_COMPLETED)
    if not routed:
        # The client left while the table was being found (the search ends by itself: stopping it
        # halfway through taking a lease could leave the lease held and no table), or finding failed.
        finding.add_done_callback(lambda task: task.cancelled() or task.exception())
        reader.cancel()
        connection.close()
        await asyncio.gather(reader, writer, return_exceptions=True)
        return
    try:
        await reader
    finally:
        route = routed[0]
        if isinstance(route, RemoteRoom):
            route.post(Leave(connection))
        elif (current := tables.tables.get(room_id)) is not None:
            current.post(Leave(connection))
        connection.close()
        with contextlib.suppress(Exception):
            await writer


async def _within_limit(
    socket: WebSocket, sockets: SocketCounts | SharedSocketCounts, key: tuple[str, object], limit: int
) -> bool:
    """Count this socket for ``key`` (a player or an address), or refuse it when ``limit`` are open."""
    if await sockets.take(key, limit):
        return True
    message = f"at most {limit} table connections per {'player' if key[0] == 'user' else 'address'} at once"
    await refuse(socket, CLOSE_TOO_MANY, "too_many_sockets", message)
    return False


async def refuse(socket: WebSocket, code: int, reason: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await socket.send_json(error_message(reason, message))
        await socket.close(code)


async def _pump(socket: WebSocket, connection: Connection) -> None:
    """Send the connection's queued messages in order; stop at the end marker or a broken socket."""
    outbox = connection.outbox
    try:
        while await outbox.wait():
            message = outbox.take()
            if message is None:
                break
            await socket.send_text(message if isinstance(message, str) else encoded(message))
            del message  # not kept alive while waiting for the next one (see app._tune_gc)
    except Exception:
        connection.close()
    with contextlib.suppress(Exception):
        await socket.close()


async def _read(
    socket: WebSocket, connection: Connection, post: Callable[[Message], None], settings: Settings
) -> None:
    """Check every incoming message at the edge; only valid ones reach the table."""
    edge = _Edge(connection, post, settings)
    while not connection.closed:
        try:
            frame = await socket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if not edge.take(frame):
            return
        del frame  # not kept alive while waiting for the next one (see app._tune_gc)


class _Edge:
    """One connection's incoming frames: checked, rate-limited, and posted to its table when valid."""

    def __init__(self, connection: Connection, post: Callable[[Message], None], settings: Settings) -> None:
        self.connection = connection
        self.post = post
        self.settings = settings
        # At most messages_per_second on average, in bursts of twice that.
        self.bucket = TokenBucket(settings.messages_per_second, 2 * settings.messages_per_second)
        self.last_sync = -math.inf
        self.refused = 0

    def take(self, frame: Mapping[str, Any]) -> bool:
        """Handle one frame; False when the connection is done (it left, or flooded)."""
        if frame["type"] == "websocket.disconnect":
            return False
        text = frame.get("text")
        if text is None:
            text = (frame.get("bytes") or b"").decode("utf-8", errors="replace")
        connection, settings = self.connection, self.settings
        message, problem = _check_frame(text, settings, self.bucket)
        if isinstance(message, Sync):
            # A sync answers with the whole hand so far: a few bytes in, kilobytes out. One per
            # interval bounds what one connection can make the server send.
            now = time.monotonic()
            if now - self.last_sync < settings.sync_interval_seconds:
                message, problem = (
                    None,
                    error_message(
                        "slow_down", f"{SYNC_TOO_SOON}: one every {settings.sync_interval_seconds:g} s"
                    ),
                )
            else:
                self.last_sync = now
        if problem is not None:
            self.refused += 1
            connection.send(problem)
            if self.refused >= FLOOD_LIMIT:
                connection.send(error_message("flood", "too many bad messages; goodbye"))
                connection.close()
                return False
            return True
        self.refused = 0
        if isinstance(message, Ping):  # answered here: a live socket says so even while its table moves
            connection.send({"type": "pong"})
            return True
        assert message is not None
        self.post(FromClient(connection, message))
        return True


def _check_frame(
    text: str, settings: Settings, bucket: TokenBucket
) -> tuple[ClientMessageType | None, dict[str, Any] | None]:
    """The validated message, or the error to send back."""
    limit = settings.max_message_bytes
    if len(text.encode("utf-8", errors="replace")) > limit:
        return None, error_message("too_large", f"messages are at most {limit} bytes")
    if not bucket.take():
        return None, error_message("slow_down", "too many messages; this one was dropped")
    try:
        data = json.loads(text)
    except ValueError:
        return None, error_message("bad_json", "a message is one JSON object")
    except RecursionError:  # [[[…]]] deeper than the parser goes: refused like any bad JSON
        return None, error_message("bad_json", "a message is one JSON object, not nested this deeply")
    try:
        return INCOMING.validate_python(data), None
    except RecursionError:
        return None, error_message("bad_message", "a message is not nested this deeply")
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "message"
        return None, error_message("bad_message", f"{where}: {first['msg']}")
