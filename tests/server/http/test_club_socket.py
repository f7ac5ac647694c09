"""A club's live lobby socket (issue 49), on SQLite and on PostgreSQL: a member hears the club's tables
as they open, fill and start, and a word when its members or 玩法 change; a stranger is refused; a
removed member is told at once and let go; the socket answers pings and nothing else."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from hupai.server.storage.models import Room

from ...server_support import guest, server, token_of
from .test_clubs import BOUNDS, CARD, opened, registered

# Reads again rarely: every message these tests hear comes from a change, not from the clock.
QUIET = {**BOUNDS, "members_per_club": 10, "club_lobby_refresh_seconds": 3600}


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with server(url, **QUIET) as test_client:
        yield test_client


def lobby(client: TestClient, number: str, person: dict[str, str]) -> WebSocketTestSession:
    return client.websocket_connect(f"/api/clubs/{number}/ws?token={token_of(person)}")


def tables_heard(socket: WebSocketTestSession) -> list[dict[str, Any]]:
    """The next message, which must be the club's tables: (number, status, names seated) each."""
    message = socket.receive_json()
    assert message["type"] == "club_tables", message
    return [
        {"number": t["number"], "status": t["status"], "seated": [s["name"] for s in t["seats"] if s["name"]]}
        for t in message["tables"]
    ]


def heard_until(socket: WebSocketTestSession, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The club's one table as first heard the way ``wanted`` says (other messages skipped)."""
    for _ in range(50):
        message = socket.receive_json()
        if message["type"] == "club_tables" and message["tables"] and wanted(message["tables"][0]):
            table: dict[str, Any] = message["tables"][0]
            return table
    raise AssertionError("never heard")


def test_a_member_hears_tables_open_fill_and_start_and_a_removed_member_is_let_go(
    client: TestClient,
) -> None:
    owner = registered(client, "圈主")
    number, token = opened(client, owner)
    friend, other = guest(client, "牌友"), guest(client, "旁人")
    for person in (friend, other):
        assert (
            client.post(f"/api/clubs/{number}/join", json={"invite": token}, headers=person).status_code
            == 200
        )
    with lobby(client, number, friend) as socket:
        assert tables_heard(socket) == []  # on connecting: the club as it is
        saved = client.post(f"/api/clubs/{number}/rules", json={"name": "南京", "card": CARD}, headers=owner)
        assert socket.receive_json() == {"type": "club_changed"}  # a new 玩法: the page reads the club again
        rules_id = saved.json()["rules"][0]["id"]
        room = client.post(f"/api/clubs/{number}/tables", json={"rules_id": rules_id}, headers=owner).json()
        (table,) = tables_heard(socket)
        assert table["number"] == room["number"] and table["status"] == "waiting"
        assert [name for name in table["seated"] if not name.startswith("机器人")] == ["圈主"]
        sat = client.post(f"/api/rooms/{room['number']}/sit", json={}, headers=friend)
        assert sat.status_code == 200, sat.text
        assert "牌友" in tables_heard(socket)[0]["seated"]
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}
        socket.send_text("let me in")
        assert socket.receive_json()["code"] == "bad_message"
        # The owner takes the other member out: the friend's lobby hears the club changed; the removed
        # one's socket is told and closed at once.
        with lobby(client, number, other) as removed:
            tables_heard(removed)
            gone = client.post(
                f"/api/clubs/{number}/members/{_id(client, number, owner, '旁人')}/remove",
                json={},
                headers=owner,
            )
            assert gone.status_code == 200, gone.text
            said = removed.receive_json()
            assert said["type"] == "error" and said["code"] == "not_found"
            with pytest.raises(WebSocketDisconnect) as closed:
                removed.receive_json()
            assert closed.value.code == 4404
        assert socket.receive_json() == {"type": "club_changed"}
        # Started, then a hand finished (stored as a table stores it): the lobby says 第2局 is on.
        client.post(f"/api/rooms/{room['number']}/ready", json={"ready": True}, headers=friend)
        client.post(f"/api/rooms/{room['number']}/start", json={}, headers=owner)
        playing = heard_until(socket, lambda table: table["status"] == "playing")
        assert playing["hands_played"] == 0
        store = client.app.state.store  # type: ignore[attr-defined]
        with store.sessions() as db:
            room_id = db.scalar(select(Room.id).where(Room.number == room["number"]))
        store.play.finish_hand(room_id, 0, {}, {})
        assert heard_until(socket, lambda table: table["hands_played"] == 1)["status"] == "playing"


def test_a_stranger_and_a_closed_club_are_refused(client: TestClient) -> None:
    owner = registered(client, "圈主")
    number, _token = opened(client, owner)
    stranger = guest(client, "路人")
    for asked in (number, "99999999"):
        with lobby(client, asked, stranger) as socket:
            assert socket.receive_json()["code"] == "not_found"
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 4404
    client.cookies.clear()
    with client.websocket_connect(f"/api/clubs/{number}/ws") as socket:  # nobody logged in
        assert socket.receive_json()["code"] == "unauthorized"
    with lobby(client, number, owner) as socket:
        tables_heard(socket)
        assert client.post(f"/api/clubs/{number}/close", json={}, headers=owner).status_code == 200
        assert socket.receive_json()["code"] == "not_found"  # closed: gone for its owner too


def _id(client: TestClient, number: str, asker: dict[str, str], name: str) -> int:
    members = client.get(f"/api/clubs/{number}", headers=asker).json()["members"]
    return int(next(member["user_id"] for member in members if member["name"] == name))
