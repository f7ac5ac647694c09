"""Concurrent requests never overwrite each other: many players racing for one seat, one player
racing for two, the host starting while others sit — on SQLite as on PostgreSQL, against a real
server process (uvicorn) hit by many threads at once. A lost race answers 409, never 500."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from hupai.server.errors import Conflict
from hupai.server.schemas import RoomIn
from hupai.server.storage.database import connect, migrate
from hupai.server.storage.models import RoomSeat
from hupai.server.storage.store import Store

from ...server_support import (
    call,
    database,
    database_urls,
    free_port,
    invited,
    opened,
    running_server,
    with_invite,
)

Answer = tuple[int, dict[str, Any]]


@pytest.fixture(params=database_urls())
def port(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[int]:
    with database(request.param, tmp_path) as url:
        chosen = free_port()
        with running_server(url, chosen):
            yield chosen


def post(port: int, path: str, token: str, body: dict[str, Any] | None = None) -> Answer:
    """The status and JSON body of a POST, refusals included."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body or {}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def later(port: int, path: str, token: str, body: dict[str, Any] | None = None) -> Callable[[], Answer]:
    """A POST to make later (on a thread of :func:`at_once`)."""
    return partial(post, port, path, token, body)


def at_once(calls: list[Callable[[], Answer]]) -> list[Answer]:
    """Run every call on its own thread, released together; their answers in order."""
    gate = threading.Barrier(len(calls))
    answers: list[Answer | None] = [None] * len(calls)

    def run(index: int) -> None:
        gate.wait()
        answers[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(answer is not None for answer in answers)
    return [answer for answer in answers if answer is not None]


def guests(port: int, count: int) -> list[tuple[int, str]]:
    out = []
    for index in range(count):
        answer = call(port, "/api/guest", {"name": f"玩家{index}"})
        out.append((answer["user"]["id"], answer["token"]))
    return out


def room(port: int, number: str) -> dict[str, Any]:
    answer: dict[str, Any] = call(port, f"/api/rooms/{number}{with_invite(number)}")
    return answer


def statuses(answers: list[Answer]) -> list[int]:
    return sorted(status for status, _ in answers)


def test_twelve_players_racing_for_one_seat_seat_exactly_one(port: int) -> None:
    (_, host), *players = guests(port, 13)
    number = opened(call(port, "/api/rooms", {"preset": "nanjing"}, host))
    answers = at_once(
        [
            later(port, f"/api/rooms/{number}/sit", token, {"seat": 1, **invited(number)})
            for _, token in players
        ]
    )
    assert statuses(answers) == [200] + [409] * 11, answers
    winner = next(index for index, (status, _) in enumerate(answers) if status == 200)
    seats = room(port, number)["seats"]
    assert seats[1]["user_id"] == players[winner][0]
    assert all(body["error"]["code"] == "conflict" for status, body in answers if status == 409)


def test_one_player_racing_for_two_seats_holds_one(port: int) -> None:
    (_, host), (user, token) = guests(port, 2)
    number = opened(call(port, "/api/rooms", {"preset": "nanjing"}, host))
    tries = [
        later(port, f"/api/rooms/{number}/sit", token, {"seat": seat, **invited(number)})
        for seat in (1, 2, 3) * 4
    ]
    answers = at_once(tries)
    assert 500 not in statuses(answers), answers
    held = [seat["seat"] for seat in room(port, number)["seats"] if seat["user_id"] == user]
    assert len(held) == 1
    ready = post(port, f"/api/rooms/{number}/ready", token, {"ready": True})
    assert ready[0] == 200  # the one seat held can be made ready


def test_sitting_bots_ready_and_start_at_once_leave_a_consistent_room(port: int) -> None:
    (_, host), *players = guests(port, 7)
    number = opened(call(port, "/api/rooms", {"preset": "nanjing"}, host))
    calls: list[Callable[[], Answer]] = [
        later(port, f"/api/rooms/{number}/sit", token, invited(number)) for _, token in players
    ]
    calls += [later(port, f"/api/rooms/{number}/bots", host, {"level": "random"})] * 2
    calls += [later(port, f"/api/rooms/{number}/start", host)] * 3
    answers = at_once(calls)
    assert 500 not in statuses(answers), answers
    final = room(port, number)
    seated = {seat["user_id"] for seat in final["seats"] if seat["user_id"] is not None}
    for seat in final["seats"]:
        assert (seat["user_id"] is None) or (seat["bot"] is None), seat  # never a person and a bot
    sat = {players[index][0] for index, (status, _) in enumerate(answers[: len(players)]) if status == 200}
    assert sat <= seated  # everyone told "you sit" still sits (the host's start did not drop them)
    starts = [status for status, _ in answers[-3:]]
    assert starts.count(200) <= 1


def test_concurrent_starts_start_once_and_concurrent_leaves_stay_consistent(port: int) -> None:
    (_, host), (_, other) = guests(port, 2)
    number = opened(call(port, "/api/rooms", {"preset": "nanjing"}, host))
    post(port, f"/api/rooms/{number}/sit", other, invited(number))
    post(port, f"/api/rooms/{number}/ready", other)
    answers = at_once(
        [later(port, f"/api/rooms/{number}/start", host)] * 6
        + [later(port, f"/api/rooms/{number}/ready", other, {"ready": True})] * 4
    )
    assert 500 not in statuses(answers), answers
    assert [status for status, _ in answers[:6]].count(200) == 1
    assert room(port, number)["status"] == "playing"
    votes = at_once(
        [later(port, f"/api/rooms/{number}/dissolve", host, {"agree": True})] * 3
        + [later(port, f"/api/rooms/{number}/dissolve", other, {"agree": True})] * 3
    )
    assert 500 not in statuses(votes), votes
    assert room(port, number)["status"] == "dissolved"


def test_the_host_leaving_while_others_sit_closes_the_room_cleanly(port: int) -> None:
    (_, host), *players = guests(port, 6)
    number = opened(call(port, "/api/rooms", {"preset": "nanjing"}, host))
    answers = at_once(
        [later(port, f"/api/rooms/{number}/leave", host)]
        + [later(port, f"/api/rooms/{number}/sit", token, invited(number)) for _, token in players]
    )
    assert 500 not in statuses(answers), answers
    assert answers[0][0] == 200
    assert room(port, number)["status"] == "dissolved"


@pytest.mark.parametrize("kind", database_urls())
def test_the_database_itself_refuses_one_person_in_two_seats(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url:
        migrate(url)
        store = Store(connect(url))
        user, _ = store.accounts.create_guest("房主")
        number = store.rooms.create_room(user.id, RoomIn()).number
        with pytest.raises(Conflict), store.rooms.tx.writing() as db:  # a write that skips the store's checks
            db.get_one(RoomSeat, (store.rooms.room_id(number), 2)).user_id = user.id
        assert [seat.user_id for seat in store.rooms.room(number).seats] == [user.id, None, None, None]
