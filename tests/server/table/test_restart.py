"""A real server process killed in the middle of a hand comes back with every table as it was."""

from __future__ import annotations

import json
import os
import signal
from typing import Any

from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from hupai.game.record import read_record
from hupai.replay import replay

from ...server_support import (
    Answers,
    call,
    free_port,
    opened,
    passing,
    running_server,
    winning_or_last,
    with_invite,
)

RECV_SECONDS = 40  # a silent table is a failure; the slack is for a loaded CI machine


def next_prompt(
    connection: ClientConnection, answered: set[int], events: dict[int, list[dict[str, Any]]]
) -> dict[str, Any]:
    """The next update asking this seat for a decision it has not answered (a prompt is repeated in
    every update until answered); the events on the way are collected per hand."""
    while True:
        message: dict[str, Any] = json.loads(connection.recv(timeout=RECV_SECONDS))
        if message["type"] != "update":
            continue
        events.setdefault(message["hand"], []).extend(message["events"])
        prompt = message.get("prompt")
        if prompt is not None and not prompt["automatic"] and prompt["seq"] not in answered:
            return message


def test_a_killed_server_resumes_every_table_from_storage(url: str) -> None:
    port = free_port()
    with running_server(url, port) as process:
        token = call(port, "/api/guest", {"name": "小明"})["token"]
        number = opened(call(port, "/api/rooms", {"preset": "nanjing", "hands": 4}, token))
        call(port, f"/api/rooms/{number}/start", {}, token)
        socket_url = f"ws://127.0.0.1:{port}/api/rooms/{number}/ws?token={token}"
        events: dict[int, list[dict[str, Any]]] = {}
        answers = Answers(passing)
        with ws_connect(socket_url) as connection:
            for _ in range(6):
                act = answers.act(next_prompt(connection, answers.answered, events))
                assert act is not None  # the prompt returned is one not answered yet
                connection.send(json.dumps(act))
            before = next_prompt(connection, answers.answered, events)  # the table waits for this seat now
        os.killpg(process.pid, signal.SIGKILL)  # no goodbye: whatever was not stored is lost
        process.wait(timeout=10)

    with running_server(url, port):
        query = f"&hand={before['hand']}&since={len(events[before['hand']])}"
        with ws_connect(socket_url + query) as connection:
            after = next_prompt(connection, set(), {})
            assert after["hand"] == before["hand"]
            assert after["from"] == len(events[before["hand"]])
            assert after["events"] == []
            assert after["view"] == before["view"]
            assert after["prompt"]["legal"] == before["prompt"]["legal"]
            summary = play_out(connection, after)
        assert summary["status"] == "finished"
        record = call(port, f"/api/rooms/{number}/record{with_invite(number)}")
        replayed = replay(read_record(record))
        assert replayed.match.totals == summary["totals"]
        assert len(record["hands"]) == 4


def play_out(
    connection: ClientConnection,
    message: dict[str, Any] | None,
    *,
    answers: Answers | None = None,
    events: dict[int, list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """Answer every prompt (``message`` first, if any) until the match ends; the summary. The events
    of the updates on the way are collected per hand into ``events`` when given."""
    answers = answers or Answers(winning_or_last)
    while message is None or message["type"] != "match_end":
        if message is not None:
            if events is not None and message["type"] == "update":
                events.setdefault(message["hand"], []).extend(message["events"])
            if (act := answers.act(message)) is not None:
                connection.send(json.dumps(act))
        message = json.loads(connection.recv(timeout=RECV_SECONDS))
        assert message["type"] not in ("error", "ignored"), message
    return message


def test_a_finished_room_shows_its_summary_after_a_restart(url: str) -> None:
    """A room opened again after its match ended — by a new server process, long after — is shown its
    大结算, not a waiting room: the summary is stored with the match's end."""
    port = free_port()
    with running_server(url, port) as process:
        token = call(port, "/api/guest", {"name": "小明"})["token"]
        number = opened(call(port, "/api/rooms", {"preset": "enshi", "hands": 4}, token))
        call(port, f"/api/rooms/{number}/start", {}, token)
        call(port, f"/api/rooms/{number}/dissolve", {"agree": True}, token)  # with bots only: at once
        socket_url = f"ws://127.0.0.1:{port}/api/rooms/{number}/ws?token={token}"
        with ws_connect(socket_url) as connection:
            ended = until_summary(connection)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    with running_server(url, port):
        with ws_connect(socket_url) as connection:
            again = until_summary(connection)
        assert again == ended
        assert call(port, f"/api/rooms/{number}{with_invite(number)}")["status"] == "dissolved"


def until_summary(connection: ClientConnection) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(connection.recv(timeout=RECV_SECONDS))
        if message["type"] == "match_end":
            return message
