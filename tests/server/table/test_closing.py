"""No failure leaves a room stuck in play: a table that cannot be rebuilt, or a match that cannot be
finished, closes its room with a reason — stored, in the REST room and in the players' `room`
message — and dissolving or leaving it then answers why."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hupai.server.storage.play import Play
from hupai.server.table.actor import Table

from ...server_support import (
    Answers,
    Message,
    connect,
    database,
    database_urls,
    guest,
    new_room,
    randomly,
    server,
    with_invite,
)


@pytest.fixture(params=database_urls())
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, server(url) as test_client:
        yield test_client


def fail(*_args: Any, **_kwargs: Any) -> Any:
    raise RuntimeError("injected failure")


async def fail_later(*_args: Any, **_kwargs: Any) -> Any:
    """A coroutine's failure comes when it is awaited, not when it is called: patching an async
    method with :func:`fail` would raise where no real call ever does (and kill the table's task
    when it loads a room that has just started)."""
    raise RuntimeError("injected failure")


def until_closed(socket: WebSocketTestSession, *, play: bool = False) -> Message:
    """Read (answering prompts when ``play``) until a `room` message says the room is closed."""
    answers = Answers(randomly(random.Random(1)))
    for _ in range(5000):
        message: Message = socket.receive_json()
        if message["type"] == "room" and message["room"]["status"] == "closed":
            return message
        if play and (act := answers.act(message)) is not None:
            socket.send_json(act)
    raise AssertionError("the room was never closed")


def assert_closed_with_a_reason(client: TestClient, number: str, host: dict[str, str]) -> None:
    room = client.get(f"/api/rooms/{number}{with_invite(number)}").json()
    assert room["status"] == "closed"
    assert "hands played are kept" in room["closed_reason"]
    vote = client.post(f"/api/rooms/{number}/dissolve", json={"agree": True}, headers=host)
    assert vote.status_code == 409
    assert vote.json()["error"]["message"].startswith("the room was closed: the server could not")
    leave = client.post(f"/api/rooms/{number}/leave", json={}, headers=host)
    assert leave.status_code == 409
    assert "closed" in leave.json()["error"]["message"]


def test_a_table_that_cannot_be_rebuilt_closes_its_room(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = guest(client, "房主")
    number = new_room(client, host)
    monkeypatch.setattr(Table, "resume", fail_later)
    with connect(client, number, host) as socket:
        assert client.post(f"/api/rooms/{number}/start", json={}, headers=host).status_code == 200
        message = until_closed(socket)
    assert "could not be rebuilt" in message["room"]["closed_reason"]
    assert_closed_with_a_reason(client, number, host)


def test_a_dissolve_that_cannot_finish_the_match_closes_the_room(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = guest(client, "房主")
    number = new_room(client, host)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    monkeypatch.setattr(Play, "finish_match", fail)
    with connect(client, number, host) as socket:
        answer = client.post(f"/api/rooms/{number}/dissolve", json={"agree": True}, headers=host)
        assert answer.status_code == 200
        assert answer.json()["status"] == "closed"
        until_closed(socket)
    assert_closed_with_a_reason(client, number, host)


def test_an_escape_that_cannot_finish_the_match_closes_the_room(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = guest(client, "房主")
    number = new_room(client, host)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    monkeypatch.setattr(Play, "finish_match", fail)
    answer = client.post(f"/api/rooms/{number}/leave", json={}, headers=host)
    assert answer.json()["status"] == "closed"
    assert_closed_with_a_reason(client, number, host)


def test_a_match_that_cannot_be_finished_after_its_last_hand_closes_the_room(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = guest(client, "房主")
    number = new_room(client, host, hands=4)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    monkeypatch.setattr(Play, "finish_match", fail)
    with connect(client, number, host) as socket:
        until_closed(socket, play=True)
    assert_closed_with_a_reason(client, number, host)
    assert (
        len(client.get(f"/api/rooms/{number}/hands{with_invite(number)}").json()) >= 1
    )  # the hands played are kept
