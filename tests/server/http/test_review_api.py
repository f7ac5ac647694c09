"""复盘 at the server (issue 50), on SQLite and on PostgreSQL: a player of a finished match asks for the
review of their own seat and gets it, a hand at a time with its progress, once (asked again, the same
review); nobody else may ask; a match still in play is not reviewed; and the bounds hold: reviews at
once per process (503) and one at a time per player (429)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from importlib.resources import files
from typing import Any

import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator
from sqlalchemy import select

from hupai.server.storage.models import Review, utcnow

from ...server_support import connect, guest, new_room, play_socket, server, with_invite

WORLDS = 3  # enough for the figures' shape; the verdicts' quality is tests/test_review.py's


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with server(url, review_worlds=WORLDS, reviews_at_once=1) as test_client:
        yield test_client


def finished_match(
    client: TestClient, name: str, host: dict[str, str] | None = None
) -> tuple[str, dict[str, str]]:
    """A 4-hand Nanning match of ``name`` (or ``host``) against three bots, played to its end."""
    host = host or guest(client, name)
    number = new_room(client, host, preset="nanning", hands=4)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with connect(client, number, host) as socket:
        assert play_socket(socket, seed=3)[-1]["status"] == "finished"
    return number, host


def done(client: TestClient, number: str, host: dict[str, str]) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        state: dict[str, Any] = client.get(f"/api/rooms/{number}/review", headers=host).json()
        if state["status"] != "running":
            return state
        assert time.monotonic() < deadline, state
        time.sleep(0.05)


class HeldPool:
    """The search pool, but each hand waits for the test to let it go."""

    def __init__(self, real: Any, go: threading.Event) -> None:
        self.real = real
        self.go = go

    async def run(self, work: Any, job: Any) -> Any:
        await asyncio.to_thread(self.go.wait)
        return await self.real.run(work, job)


def test_a_player_reviews_their_own_seat_once_and_nobody_else_may(client: TestClient) -> None:
    number, host = finished_match(client, "小明")
    stranger = guest(client, "路人")
    refused = client.post(f"/api/rooms/{number}/review{with_invite(number)}", json={}, headers=stranger)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "review_players_only"
    assert client.get(f"/api/rooms/{number}/review", headers=host).json()["status"] == "none"  # not asked
    asked = client.post(f"/api/rooms/{number}/review", json={}, headers=host)
    assert asked.status_code == 200 and asked.json()["hands"] == 4, asked.text
    state = done(client, number, host)
    assert state["status"] == "done" and state["hands_done"] == 4
    review = state["review"]
    schema = json.loads(files("hupai").joinpath("schemas", "review.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(review)
    assert review["seat"] == 0 and review["worlds"] == WORLDS and len(review["hands"]) == 4
    assert review["summary"]["decisions"] > 10
    again = client.post(f"/api/rooms/{number}/review", json={}, headers=host).json()
    assert again == state  # made once, kept

    waiting = new_room(client, stranger, preset="nanning", hands=4)
    early = client.post(f"/api/rooms/{waiting}/review", json={}, headers=stranger)
    assert early.status_code == 409 and early.json()["error"]["code"] == "review_not_ended"


def test_reviews_at_once_and_one_at_a_time_per_player(client: TestClient) -> None:
    first, host = finished_match(client, "小明")
    second, other = finished_match(client, "小红")
    third, _host = finished_match(client, "小明", host)
    runs = client.app.state.reviews  # type: ignore[attr-defined]
    real = runs.pool
    go = threading.Event()
    runs.pool = lambda: HeldPool(real(), go)
    try:
        started = client.post(f"/api/rooms/{first}/review", json={}, headers=host).json()
        assert started["status"] == "running" and started["hands_done"] == 0
        busy = client.post(f"/api/rooms/{second}/review", json={}, headers=other)
        assert busy.status_code == 503 and busy.headers["Retry-After"]  # one at once on this server
        # The same player asking again is told where theirs stands; another match of theirs waits.
        assert client.post(f"/api/rooms/{first}/review", json={}, headers=host).json()["status"] == "running"
        another = client.post(f"/api/rooms/{third}/review", json={}, headers=host)
        assert another.status_code == 429  # their other match waits for the first
    finally:
        go.set()
    assert done(client, first, host)["status"] == "done"
    assert client.post(f"/api/rooms/{second}/review", json={}, headers=other).status_code == 200
    assert done(client, second, other)["status"] == "done"


def test_a_review_whose_process_went_quiet_is_taken_over_and_the_old_one_writes_nothing(
    client: TestClient,
) -> None:
    """A process that stopped writing (dead, or paused past two minutes) loses its review to the next
    ask on any process; coming back, it finds the review taken and writes nothing over it."""
    number, host = finished_match(client, "小明")
    runs = client.app.state.reviews  # type: ignore[attr-defined]
    store = client.app.state.store  # type: ignore[attr-defined]
    real = runs.pool
    go = threading.Event()
    runs.pool = lambda: HeldPool(real(), go)
    try:
        assert client.post(f"/api/rooms/{number}/review", json={}, headers=host).json()["status"] == "running"
        with store.sessions.begin() as db:  # its last word, ten minutes ago
            (row,) = db.scalars(select(Review)).all()
            row.updated_at = utcnow() - timedelta(minutes=10)
        user_id = client.get("/api/me", headers=host).json()["id"]
        fresh = store.reviews.ask(number, user_id, WORLDS, "another-process", stale_seconds=120)
        assert fresh.taken and fresh.status == "running"
    finally:
        go.set()
    deadline = time.monotonic() + 60
    while runs.running:  # the first process's review notices at its next hand and stops
        assert time.monotonic() < deadline
        time.sleep(0.05)
    with store.sessions.begin() as db:
        (row,) = db.scalars(select(Review)).all()
        assert (row.node, row.status, row.hands_done, row.result) == ("another-process", "running", 0, None)
