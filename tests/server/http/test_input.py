"""Bad input never changes a table: malformed, unknown, oversized, flooding, stale and illegal
messages each get an error, and a table fed random garbage still finishes its hands correctly."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from hupai.game.record import read_record
from hupai.game.refusal import CODES
from hupai.replay import replay
from hupai.server.http import socket as socket_module
from hupai.server.http.socket import FLOOD_LIMIT
from hupai.server.rates import TokenBucket
from hupai.tiles import format_tiles, parse_tiles

from ...server_support import (
    Message,
    connect,
    database,
    database_urls,
    guest,
    new_room,
    play_socket,
    server,
    with_invite,
)


@pytest.fixture(params=database_urls())
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, server(url) as test_client:
        yield test_client


def started(client: TestClient, **spec: Any) -> tuple[str, dict[str, str]]:
    host = guest(client, "测试")
    number = new_room(client, host, **spec)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    return number, host


def my_prompt(socket: WebSocketTestSession) -> Message:
    """Read until this seat owes a decision; the update carrying the prompt."""
    while True:
        message: Message = socket.receive_json()
        prompt = message.get("prompt")
        if message["type"] == "update" and prompt is not None and not prompt["automatic"]:
            return message


def reply_to(socket: WebSocketTestSession, raw: str | bytes) -> Message:
    """Send a raw frame; the first error or notice that comes back (updates are skipped)."""
    if isinstance(raw, bytes):
        socket.send_bytes(raw)
    else:
        socket.send_text(raw)
    while True:
        message: Message = socket.receive_json()
        if message["type"] in ("error", "ignored", "pong"):
            return message


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2, 3]", "bad_message"),
        ('{"type": "shout"}', "bad_message"),
        ('{"type": "act"}', "bad_message"),
        ('{"type": "act", "seq": "x", "action": {"act": "pass"}}', "bad_message"),
        ('{"type": "act", "seq": 1, "action": {"act": "fly"}}', "bad_message"),
        ('{"type": "act", "seq": 1, "action": {"act": "pass"}, "extra": 1}', "bad_message"),
        ('{"type": "sync", "since": -4}', "bad_message"),
        ("x" * 9000, "too_large"),
        (b"\xff\xfe\x00", "bad_json"),
        ("[" * 1500 + "]" * 1500, "bad_json"),  # nested past the parser's recursion limit
        ('{"type": "sync", "hand": ' + "[" * 1300 + "]" * 1300 + "}", "bad_json"),
    ],
)
def test_malformed_messages_get_an_error_and_change_nothing(
    client: TestClient, raw: str | bytes, code: str
) -> None:
    number, host = started(client)
    with connect(client, number, host) as socket:
        before = my_prompt(socket)
        reply = reply_to(socket, raw)
        assert reply["type"] == "error"
        assert reply["code"] == code
        assert reply["message"]
        socket.send_json({"type": "sync", "hand": before["hand"], "since": 0})
        after = my_prompt(socket)
    assert after["view"] == before["view"]
    assert after["prompt"]["seq"] == before["prompt"]["seq"]


def test_stale_illegal_and_misspelt_actions_are_refused_with_a_reason(client: TestClient) -> None:
    number, host = started(client, preset="nanjing")
    with connect(client, number, host) as socket:
        before = my_prompt(socket)
        seq = before["prompt"]["seq"]
        hand = parse_tiles(before["view"]["hand"])
        stale = reply_to(socket, json.dumps({"type": "act", "seq": seq - 1, "action": {"act": "pass"}}))
        assert stale["type"] == "ignored"
        missing = next(format_tiles([kind]) for kind in range(27) if kind not in hand)
        illegal = reply_to(
            socket, json.dumps({"type": "act", "seq": seq, "action": {"act": "discard", "tile": missing}})
        )
        assert illegal["code"] == "illegal"
        assert illegal["message"] and "why" not in illegal  # a plain sentence: no code to word it by
        notation = reply_to(
            socket, json.dumps({"type": "act", "seq": seq, "action": {"act": "discard", "tile": "0x"}})
        )
        assert notation["code"] == "bad_action"
        assert "0x" in notation["message"]
        no_win = reply_to(socket, json.dumps({"type": "act", "seq": seq, "action": {"act": "hu"}}))
        assert no_win["code"] == "illegal"
        assert no_win["why"]["code"] in CODES  # 诈胡 and its kin come with a code the page words
        socket.send_json({"type": "sync", "hand": before["hand"], "since": 0})
        after = my_prompt(socket)
    assert after["view"] == before["view"]


def test_a_flood_is_slowed_down_then_cut_off(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The socket's allowance on a clock that stands still: no token comes back while the flood is
    # read. On the real clock one came back every 0.2 s, and a machine slower than 1,000 frames a
    # second broke the run of refusals that cuts a flood off (the test then waited for ever).
    monkeypatch.setattr(
        socket_module,
        "TokenBucket",
        lambda rate, capacity: TokenBucket(rate, capacity, clock=lambda: 0.0),
    )
    with server(f"sqlite:///{tmp_path / 'flood.sqlite3'}", messages_per_second=5) as slow:
        number, host = started(slow)
        with connect(slow, number, host) as socket:
            my_prompt(socket)
            for _ in range(FLOOD_LIMIT + 100):
                socket.send_text('{"type": "ping"}')
            received: list[Message] = []
            with pytest.raises(WebSocketDisconnect):
                read_until_closed(socket, received)
    assert sum(message["type"] == "pong" for message in received) == 10  # the burst: twice the rate
    codes = [message["code"] for message in received if message["type"] == "error"]
    assert codes == ["slow_down"] * FLOOD_LIMIT + ["flood"]


def read_until_closed(socket: WebSocketTestSession, received: list[Message]) -> None:
    """Read until the socket closes, keeping every message."""
    while True:
        received.append(socket.receive_json())


def test_sockets_need_a_login_and_a_real_room(client: TestClient) -> None:
    number, host = started(client)
    client.cookies.clear()
    with connect(client, number, None) as socket:
        assert socket.receive_json()["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4401
    with connect(client, "000000", host) as socket:
        assert socket.receive_json()["code"] == "not_found"


def test_spectators_cannot_act(client: TestClient) -> None:
    number, _host = started(client)
    watcher = guest(client, "观众")
    with connect(client, number, watcher) as socket:
        reply = reply_to(socket, json.dumps({"type": "act", "seq": 1, "action": {"act": "pass"}}))
        assert reply["code"] == "not_your_turn"
        assert reply_to(socket, '{"type": "trustee", "on": true}')["code"] == "not_seated"


def garbage(rng: random.Random, prompt: Message | None) -> str:
    """Random junk, half of it shaped like the real messages."""
    kind = rng.randrange(6)
    if kind == 0:
        return "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(1, 60)))
    if kind == 1:
        return json.dumps(rng.choice([None, 1, "act", [], {}, {"type": None}]))
    seq = prompt["seq"] if prompt is not None and rng.random() < 0.5 else rng.randrange(-5, 500)
    action = {
        "act": rng.choice(["discard", "pong", "kong", "hu", "pass", "ready", "chi", ""]),
        "tile": rng.choice(["1m", "5z", "9s", "8f", "0m", "", "1m2m"]),
    }
    if rng.random() < 0.3:
        del action["tile"]
    return json.dumps(
        {"type": rng.choice(["act", "act", "sync", "trustee", "ping"]), "seq": seq, "action": action}
    )


@pytest.mark.parametrize("preset", ["nanjing", "nanning"])
def test_a_table_fed_random_garbage_still_finishes_its_hands_correctly(
    client: TestClient, preset: str
) -> None:
    number, host = started(client, preset=preset, hands=4)
    rng = random.Random(7)
    errors = 0
    with connect(client, number, host) as socket:
        last_prompt: list[Message | None] = [None]

        def fuzz(message: Message) -> None:
            nonlocal errors
            errors += message["type"] == "error"
            if message["type"] == "update":
                last_prompt[0] = message.get("prompt")
                for _ in range(rng.randrange(3)):
                    socket.send_text(garbage(rng, last_prompt[0]))

        messages = play_socket(socket, seed=3, on_message=fuzz)
    summary = messages[-1]
    assert summary["type"] == "match_end"
    assert errors > 10
    record = client.get(f"/api/rooms/{number}/record{with_invite(number)}").json()
    replayed = replay(read_record(record))
    assert replayed.match.totals == summary["totals"]
    assert sum(summary["totals"]) == 0
