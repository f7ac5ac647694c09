"""The database away for a while loses nothing: a move is stored before it is played, a write that
fails because the database is away is tried again until it is back, the players are told the table
waits, and the room plays on — never closed for an outage, never a move told that the record lacks.

The first test restarts a real PostgreSQL in the middle of a hand: a cluster of its own, which no
other test uses meanwhile (tests/server_support.py, ``restartable_postgresql``; `.ci/run` starts it).
The second makes one move's write fail as an outage does (the driver's OperationalError), on SQLite,
to check that the retried write is stored once and the table carries on.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from hupai.game.record import read_record
from hupai.replay import replay
from hupai.server.storage.play import MoveGroup, Play

from ...server_support import (
    Answers,
    call,
    connect,
    discards_stored,
    discards_told,
    free_port,
    guest,
    new_room,
    opened,
    passing,
    restartable_postgresql,
    running_server,
    server,
    with_invite,
)
from .test_restart import RECV_SECONDS, next_prompt, play_out

AWAY_SECONDS = 3.0


def receive_until(connection: ClientConnection, kind: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(connection.recv(timeout=RECV_SECONDS))
        seen.append(message)
        if message["type"] == kind:
            return message


def test_a_database_restart_mid_hand_loses_no_room(tmp_path: Path) -> None:
    with restartable_postgresql(tmp_path) as (url, control):
        database_restarted_mid_hand(url, control, tmp_path)


def database_restarted_mid_hand(url: str, control: list[str], tmp_path: Path) -> None:
    port = free_port()
    with running_server(url, port, log=tmp_path / "server.log") as process:
        token = call(port, "/api/guest", {"name": "小明"})["token"]
        number = opened(call(port, "/api/rooms", {"preset": "nanjing", "hands": 4}, token))
        call(port, f"/api/rooms/{number}/start", {}, token)
        events: dict[int, list[dict[str, Any]]] = {}
        answers = Answers(passing)
        with ws_connect(f"ws://127.0.0.1:{port}/api/rooms/{number}/ws?token={token}") as connection:
            for _ in range(4):
                act = answers.act(next_prompt(connection, answers.answered, events))
                assert act is not None
                connection.send(json.dumps(act))
            waiting = next_prompt(connection, answers.answered, events)  # the table waits for this seat
            act = answers.act(waiting)
            assert act is not None
            subprocess.run([*control, "stop", "-m", "fast"], check=True, timeout=60)
            try:
                connection.send(json.dumps(act))  # its write finds the database gone
                seen: list[dict[str, Any]] = []
                assert receive_until(connection, "storage", seen)["state"] == "away"
                time.sleep(AWAY_SECONDS)
                assert process.poll() is None
            finally:
                subprocess.run([*control, "start"], check=True, timeout=60)
            assert receive_until(connection, "storage", seen)["state"] == "back"
            for message in seen:
                assert message["type"] in ("storage", "update"), message
                if message["type"] == "update":
                    events.setdefault(message["hand"], []).extend(message["events"])
            summary = play_out(connection, None, answers=answers, events=events)
        assert summary["status"] == "finished"
        record = call(port, f"/api/rooms/{number}/record{with_invite(number)}")
        assert (
            call(port, f"/api/rooms/{number}{with_invite(number)}")["status"] == "finished"
        )  # never closed for the outage
    assert replay(read_record(record)).match.totals == summary["totals"]
    assert len(record["hands"]) == 4
    for index, hand in enumerate(record["hands"]):  # told exactly what was stored: none missing, none twice
        assert discards_told(events[index]) == discards_stored(hand)


def test_a_write_lost_to_an_outage_is_tried_again_and_stored_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Play.add_move_groups  # what a table's moves are stored with (group commit)
    failures = {"left": 0, "calls": 0}

    def flaky(self: Play, groups: Sequence[MoveGroup]) -> list[Exception | None]:
        failures["calls"] += 1
        if failures["left"] > 0:
            failures["left"] -= 1
            if failures["left"] == 0:
                real(self, groups)  # stored, but its answer is lost
            raise OperationalError("INSERT INTO moves", {}, ConnectionError("server closed the connection"))
        return real(self, groups)

    monkeypatch.setattr(Play, "add_move_groups", flaky)
    with server(f"sqlite:///{tmp_path / 'hupai.sqlite3'}") as client:
        host = guest(client, "小明")
        number = new_room(client, host, preset="nanjing", hands=4)
        assert client.post(f"/api/rooms/{number}/start", json={}, headers=host).status_code == 200
        answers = Answers(passing)
        events: dict[int, list[dict[str, Any]]] = {}
        kinds: list[str] = []
        with connect(client, number, host) as socket:
            while True:
                message = socket.receive_json()
                kinds.append(message["type"])
                if message["type"] == "update":
                    events.setdefault(message["hand"], []).extend(message["events"])
                if message["type"] == "match_end":
                    summary = message
                    break
                if (act := answers.act(message)) is not None:
                    if failures["calls"] > 0 and "storage" not in kinds:
                        failures["left"] = 3  # this answer's write: two outages, then one lost answer
                    socket.send_json(act)
        record = client.get(f"/api/rooms/{number}/record{with_invite(number)}").json()
        status = client.get(f"/api/rooms/{number}{with_invite(number)}").json()["status"]
    assert kinds.count("storage") == 2  # away, then back
    assert kinds.index("storage") < len(kinds) - 1
    assert status == "finished"
    for index, hand in enumerate(record["hands"]):
        assert discards_told(events[index]) == discards_stored(hand)
    assert replay(read_record(record)).match.totals == summary["totals"]
