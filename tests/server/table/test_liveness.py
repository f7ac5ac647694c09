"""A player whose phone drops off the network (its socket open but silent: no pong, nothing read) is
shown to the others as away within seconds — the server pings every socket — and at once when a
socket closes, not only with the table's next move (issue 47)."""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from typing import Any

from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from ...server_support import call, free_port, invited, opened, running_server

# The server pings every 4 s and gives a socket 4 s to answer: 8 s, with a busy machine's slack — and
# below the 20 s a server on uvicorn's own settings takes before its first ping.
AWAY_WITHIN_SECONDS = 18
# Nothing moves at this table (its bots think for two minutes, and so may its people): an update
# about a seat can only be the news that it came or went.
QUIET_SECONDS = 45


def silent_socket(port: int, path: str) -> socket.socket:
    """A websocket opened by hand that then never reads nor answers a ping: a phone gone offline."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = raw.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:200]
    return raw


def seat_shown(connection: ClientConnection, seat: int, connected: bool, seconds: float) -> float:
    """Read the table's updates until ``seat`` is shown (dis)connected; how long that took."""
    start = time.monotonic()
    while True:
        left = seconds - (time.monotonic() - start)
        assert left > 0, f"seat {seat} never shown {'present' if connected else 'away'}"
        message: dict[str, Any] = json.loads(connection.recv(timeout=left))
        if message["type"] == "presence" and message["connected"][seat] is connected:
            return time.monotonic() - start


def test_a_silent_player_is_shown_away_and_a_closed_socket_at_once(url: str) -> None:
    port = free_port()
    with running_server(url, port, bot_delay_seconds=120):  # a quiet table: nothing moves meanwhile
        host = call(port, "/api/guest", {"name": "房主"})["token"]
        friend = call(port, "/api/guest", {"name": "手机"})["token"]
        number = opened(
            call(port, "/api/rooms", {"preset": "nanning", "hands": 4, "decision_seconds": 120}, host)
        )
        seat = call(port, f"/api/rooms/{number}/sit", invited(number), friend)
        friend_seat = next(place["seat"] for place in seat["seats"] if place["name"] == "手机")
        call(port, f"/api/rooms/{number}/ready", {"ready": True}, friend)
        call(port, f"/api/rooms/{number}/start", {}, host)
        path = f"/api/rooms/{number}/ws?token="
        with ws_connect(f"ws://127.0.0.1:{port}{path}{host}") as watching:
            phone = silent_socket(port, path + friend)
            try:
                seat_shown(watching, friend_seat, True, QUIET_SECONDS)
                seat_shown(watching, friend_seat, False, AWAY_WITHIN_SECONDS)  # no pong: given up
            finally:
                phone.close()
            with ws_connect(f"ws://127.0.0.1:{port}{path}{friend}") as back:
                seat_shown(watching, friend_seat, True, QUIET_SECONDS)  # back: shown without a move
                back.close()
            seat_shown(watching, friend_seat, False, QUIET_SECONDS)  # closed: shown without a move
