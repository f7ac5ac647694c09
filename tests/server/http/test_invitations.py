"""Private rooms (issue 33): a stranger who knows only a room's number can neither sit, nor watch, nor
read its records; the invitation link's token lets a friend in; a wrong token counts as a failed
lookup; a new link ends the old one; the host's lock keeps everyone new out, link or not; a room
whose host let anyone with the number watch is watched, never sat in, without the link. The token
is only ever given to the room's own players."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hupai.server.http.deps import FAILED_LOOKUP_WEIGHT

from ...server_support import (
    INVITES,
    TEST_PROXY,
    connect,
    guest,
    invited,
    new_room,
    opened,
    server,
    sqlite_server,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with sqlite_server(tmp_path) as test_client:
        yield test_client


def code(answer: object) -> str:
    return str(answer.json()["error"]["code"])  # type: ignore[attr-defined]


def refused_socket(client: TestClient, number: str, headers: dict[str, str], **query: str) -> str:
    """The code a table socket is closed with (it must be closed)."""
    extra = "".join(f"&{key}={value}" for key, value in query.items())
    token = headers["Authorization"].removeprefix("Bearer ")
    with client.websocket_connect(f"/api/rooms/{number}/ws?token={token}{extra}") as socket:
        message = socket.receive_json()
        assert message["type"] == "error", message
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()
    return str(message["code"])


def test_a_stranger_with_only_the_number_finds_nothing_to_enter(client: TestClient) -> None:
    host = guest(client, "房主")
    number = new_room(client, host, hands=4)
    stranger = guest(client, "路人")
    assert client.get(f"/api/rooms/{number}", headers=stranger).status_code == 403
    assert code(client.get(f"/api/rooms/{number}", headers=stranger)) == "invite_needed"
    sat = client.post(f"/api/rooms/{number}/sit", json={}, headers=stranger)
    assert sat.status_code == 403 and code(sat) == "invite_needed"
    for guess in ("x" * 22, "邀请" * 11, "\x00"):  # whatever a client sends is an answer, never a 500
        wrong = client.post(f"/api/rooms/{number}/sit", json={"invite": guess}, headers=stranger)
        assert wrong.status_code == 403 and code(wrong) == "invite_needed", guess
        seen = client.get(f"/api/rooms/{number}", params={"invite": guess}, headers=stranger)
        assert seen.status_code == 403, guess
    assert refused_socket(client, number, stranger, invite="%E9%82%80") == "invite_needed"
    assert refused_socket(client, number, stranger) == "invite_needed"
    for path in ("record", "hands", "hands/0/record", "hands/0/replay", "invite", "qr.svg"):
        assert client.get(f"/api/rooms/{number}/{path}", headers=stranger).status_code == 403, path
    seats = client.get(f"/api/rooms/{number}", headers=host).json()["seats"]
    assert [place["user_id"] for place in seats][1:] == [None, None, None]  # nothing changed


def test_the_invitation_lets_a_friend_sit_and_watch_and_only_players_are_given_it(client: TestClient) -> None:
    host = guest(client, "房主")
    created = client.post("/api/rooms", json={"hands": 4}, headers=host).json()
    number, token = opened(created), created["invite"]
    assert len(token) >= 22  # 128 bits
    friend, watcher = guest(client, "朋友"), guest(client, "观众")
    seen = client.get(f"/api/rooms/{number}?invite={token}", headers=friend).json()
    assert seen["number"] == number and seen["invite"] is None  # the token is not handed on
    sat = client.post(f"/api/rooms/{number}/sit", json={"invite": token}, headers=friend)
    assert sat.status_code == 200 and sat.json()["invite"] is None
    # the friend, now a player, may share the invitation; a watcher with the link may not get it
    assert token in client.get(f"/api/rooms/{number}/invite", headers=friend).json()["link"]
    assert client.get(f"/api/rooms/{number}/invite?invite={token}", headers=watcher).status_code == 403
    with connect(client, number, watcher) as socket:  # with the link
        first = socket.receive_json()
        assert first["type"] != "error"
        assert token not in json.dumps(first)
    # a player comes back by number alone
    assert client.get(f"/api/rooms/{number}", headers=friend).status_code == 200


def test_a_new_link_ends_the_old_one(client: TestClient) -> None:
    host = guest(client, "房主")
    number = new_room(client, host)
    old = INVITES[number]
    stranger = guest(client, "拿着旧链接")
    assert client.post(f"/api/rooms/{number}/invite", json={}, headers=stranger).status_code == 403  # host's
    renewed = client.post(f"/api/rooms/{number}/invite", json={}, headers=host).json()
    new = renewed["link"].rsplit("/", 1)[1]
    assert new != old
    assert (
        code(client.post(f"/api/rooms/{number}/sit", json={"invite": old}, headers=stranger))
        == "invite_needed"
    )
    assert client.post(f"/api/rooms/{number}/sit", json={"invite": new}, headers=stranger).status_code == 200


def test_a_locked_room_lets_nobody_new_in_and_its_players_back(client: TestClient) -> None:
    host, friend = guest(client, "房主"), guest(client, "朋友")
    number = new_room(client, host)
    client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=friend)
    assert client.post(f"/api/rooms/{number}/lock", json={"locked": True}, headers=friend).status_code == 403
    locked = client.post(f"/api/rooms/{number}/lock", json={"locked": True}, headers=host)
    assert locked.status_code == 200 and locked.json()["locked"] is True
    late = guest(client, "迟到")
    refused = client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=late)
    assert refused.status_code == 403 and code(refused) == "room_locked"
    assert refused_socket(client, number, late, invite=INVITES[number]) == "room_locked"
    assert client.get(f"/api/rooms/{number}", headers=friend).json()["locked"] is True  # players still in
    with connect(client, number, friend, invite=False) as socket:
        assert socket.receive_json()["type"] != "error"
    client.post(f"/api/rooms/{number}/lock", json={"locked": False}, headers=host)
    assert client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=late).status_code == 200


def test_a_room_open_to_watchers_is_watched_by_number_but_never_sat_in(client: TestClient) -> None:
    host = guest(client, "房主")
    number = new_room(client, host, watchers="anyone")
    stranger = guest(client, "路人")
    assert client.get(f"/api/rooms/{number}", headers=stranger).json()["watchers"] == "anyone"
    with connect(client, number, stranger, invite=False) as socket:
        assert socket.receive_json()["type"] != "error"
    assert code(client.post(f"/api/rooms/{number}/sit", json={}, headers=stranger)) == "invite_needed"
    assert client.post("/api/rooms", json={"watchers": "everyone"}, headers=host).status_code == 422


def test_wrong_invitations_are_counted_like_numbers_that_are_no_room(tmp_path: Path) -> None:
    limit = 10
    url = f"sqlite:///{tmp_path / 'i.sqlite3'}"
    with server(url, room_lookups_per_address_per_minute=limit, trusted_proxy=TEST_PROXY) as client:
        number = new_room(client, guest(client, "房主"))
        guesser = {**guest(client, "猜"), "X-Forwarded-For": "10.0.0.9"}
        tries = limit // FAILED_LOOKUP_WEIGHT
        answers = [
            client.post(f"/api/rooms/{number}/sit", json={"invite": f"guess{n}"}, headers=guesser).status_code
            for n in range(tries)
        ]
        assert answers == [403] * tries
        # out of tries, even with the right token now
        assert (
            client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=guesser).status_code == 429
        )
