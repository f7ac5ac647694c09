"""A club's live lobby socket (issue 49): for its members, the club's tables as they change and a word
when its members or 玩法 do (:mod:`hupai.server.club_lobby`). The client sends nothing but pings;
the socket counts against the same limits as a table's."""

from __future__ import annotations

import asyncio
import contextlib
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from hupai.server.club_lobby import ClubLobbies, Watcher
from hupai.server.errors import NotFound
from hupai.server.http.socket import CLOSE_NOT_FOUND, CLOSE_POLICY, FLOOD_LIMIT, player_socket, refuse
from hupai.server.protocol import error_message
from hupai.server.rates import TokenBucket
from hupai.server.settings import Settings
from hupai.server.storage.store import Store

ONLY_PINGS = "this socket hears nothing but pings"

router = APIRouter()


@router.websocket("/api/clubs/{number}/ws")
async def club_socket(socket: WebSocket, number: str, token: str | None = None) -> None:
    """``token``: the session, for a client that keeps no cookie (a program), as on a table's socket."""
    await socket.accept()
    async with player_socket(socket, token) as user:
        if user is None:
            return
        store: Store = socket.app.state.store
        try:
            club_id = await run_in_threadpool(store.clubs.club_id, number, user.id)
        except NotFound as error:
            await refuse(socket, CLOSE_NOT_FOUND, "not_found", error.message)
            return
        lobbies: ClubLobbies = socket.app.state.club_lobbies
        async with lobbies.watching(club_id, user.id) as watcher:
            await _serve(socket, watcher, socket.app.state.settings)


async def _serve(socket: WebSocket, watcher: Watcher, settings: Settings) -> None:
    """Send what the watcher is told until the client goes or may see the club no more."""
    sending = asyncio.Lock()  # the reader's pongs and the lobby's messages go out one at a time
    reader = asyncio.create_task(_read(socket, settings, sending))
    try:
        while not reader.done():
            told = asyncio.create_task(watcher.next())
            await asyncio.wait({told, reader}, return_when=asyncio.FIRST_COMPLETED)
            if not told.done():
                told.cancel()
                break
            out = told.result()
            if isinstance(out, tuple):
                async with sending:
                    await refuse(socket, CLOSE_NOT_FOUND, *out)
                break
            async with sending:
                for message in out:
                    await socket.send_text(message if isinstance(message, str) else json.dumps(message))
    except Exception:  # the socket broke while sending: the client reconnects
        pass
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reader
        with contextlib.suppress(Exception):
            await socket.close()


async def _read(socket: WebSocket, settings: Settings, sending: asyncio.Lock) -> None:
    """Answer pings; refuse anything else (rate-limited as a table's socket is; a flood is cut off)."""
    bucket = TokenBucket(settings.messages_per_second, 2 * settings.messages_per_second)
    refused = 0
    while True:
        try:
            frame = await socket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text") or ""
        answer = error_message("bad_message", ONLY_PINGS)
        if not bucket.take():
            answer = error_message("slow_down", "too many messages; this one was dropped")
        elif len(text) <= settings.max_message_bytes and _is_ping(text):
            answer = {"type": "pong"}
        if answer["type"] == "error":
            refused += 1
            if refused >= FLOOD_LIMIT:
                async with sending:
                    await refuse(socket, CLOSE_POLICY, "flood", "too many bad messages; goodbye")
                return
        else:
            refused = 0
        async with sending:
            await socket.send_json(answer)


def _is_ping(text: str) -> bool:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("type") == "ping"
