"""What one client can make the table do: open a bounded number of sockets (per player and per
address), and ask for the whole hand again (`sync`) at most once per interval."""

from __future__ import annotations

from contextlib import ExitStack

import pytest
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from ...server_support import Message, connect, guest, new_room, server


def welcomed(socket: WebSocketTestSession) -> Message:
    message: Message = socket.receive_json()
    assert message["type"] == "welcome", message
    return message


def refused(socket: WebSocketTestSession) -> tuple[Message, int]:
    """The error a refused socket gets, and the code it is closed with."""
    message: Message = socket.receive_json()
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    return message, closed.value.code


def test_one_player_may_hold_only_so_many_sockets(url: str) -> None:
    with server(url, max_sockets_per_user=3) as client:
        host = guest(client, "房主")
        number = new_room(client, host)
        with ExitStack() as held:
            for _ in range(3):
                welcomed(held.enter_context(connect(client, number, host)))
            with connect(client, number, host) as extra:
                message, code = refused(extra)
            assert message["code"] == "too_many_sockets"
            assert "at most 3 table connections per player" in message["message"]
            assert code == 4429
            other = guest(client, "别人")  # another player is not held back
            with connect(client, number, other) as theirs:
                welcomed(theirs)
        with connect(client, number, host) as again:  # closing frees the places
            welcomed(again)


def test_one_address_may_hold_only_so_many_sockets(url: str) -> None:
    with server(url, max_sockets_per_address=2) as client:
        host = guest(client, "房主")
        number = new_room(client, host)
        players = [guest(client, f"玩家{index}") for index in range(3)]
        with ExitStack() as held:
            for player in players[:2]:
                welcomed(held.enter_context(connect(client, number, player)))
            with connect(client, number, players[2]) as extra:
                message, code = refused(extra)
        assert (message["code"], code) == ("too_many_sockets", 4429)
        assert "per address" in message["message"]


def test_a_sync_is_answered_once_per_interval(url: str) -> None:
    with server(url, sync_interval_seconds=60.0) as client:
        host = guest(client, "房主")
        number = new_room(client, host)
        client.post(f"/api/rooms/{number}/start", json={}, headers=host)
        with connect(client, number, host) as socket:
            socket.send_json({"type": "sync", "hand": 0, "since": 0})
            socket.send_json({"type": "sync", "hand": 0, "since": 0})
            # An answer to no open prompt: the table says `ignored`, after it handled the syncs. (A ping
            # would not do: the socket's process answers it at once, before the table.)
            socket.send_json({"type": "act", "seq": 1, "action": {"act": "pass"}})
            updates, errors = 0, []
            while True:
                message = socket.receive_json()
                if message["type"] == "ignored":
                    break
                updates += message["type"] == "update"
                if message["type"] == "error":
                    errors.append(message)
        assert updates >= 2  # on connecting, and the first sync
        assert [error["code"] for error in errors] == ["slow_down"]
        assert "sync too soon" in errors[0]["message"]
        assert "one every 60 s" in errors[0]["message"]


def test_reconnecting_in_a_loop_is_bounded(url: str) -> None:
    with server(url, connects_per_minute=3) as client:
        host = guest(client, "房主")
        number = new_room(client, host)
        for _ in range(3):
            with connect(client, number, host) as socket:
                welcomed(socket)
        with connect(client, number, host) as extra:
            message, code = refused(extra)
        assert (message["code"], code) == ("too_many_sockets", 4429)
        assert "at most 3 table connections a minute per player" in message["message"]
        with connect(client, number, guest(client, "别人")) as theirs:
            welcomed(theirs)
