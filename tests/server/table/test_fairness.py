"""Fair deals at a live table (docs/fairness.md): the commitment is announced before each deal, the
players' contributions shape the wall, and the secret and contributions come out with the hand —
so that ``hupai verify`` passes on any record a server room wrote.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import secrets
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.testclient import WebSocketTestSession
from typer.testing import CliRunner
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from hupai.cli import app as cli
from hupai.game.engine import shuffled_deal
from hupai.game.fairness import V1_CAVEAT, commitment, hand_secret, room_algorithm, verify_deal
from hupai.game.match import hand_seed
from hupai.game.record import read_record
from hupai.replay import verify_record
from hupai.rules import load_ruleset
from hupai.server.errors import AlreadyContributed, DealClosed
from hupai.server.storage.models import Room
from hupai.server.storage.store import Store
from hupai.tiles import parse_tiles

from ...server_support import (
    Answers,
    Message,
    call,
    connect,
    free_port,
    guest,
    invited,
    new_room,
    opened,
    passing,
    randomly,
    running_server,
    server,
    with_invite,
)

WAIT = 30.0  # deal_wait_seconds in these tests: long enough that a deal dealt soon did not wait for it
RECV_SECONDS = 40
PREPARE = "tests.server_support:fixed_rooms"  # the same room secret and seed in every server process


def receive_until(
    socket: WebSocketTestSession, done: Callable[[Message], bool], into: list[Message]
) -> Message:
    while True:
        message: Message = socket.receive_json()
        into.append(message)
        if done(message):
            return message


def of_type(kind: str, **fields: Any) -> Callable[[Message], bool]:
    return lambda message: message["type"] == kind and all(message.get(k) == v for k, v in fields.items())


def play_fairly(
    socket: WebSocketTestSession,
    rng: random.Random,
    values: dict[int, str],
    *,
    until: str = "match_end",
    heard: list[float] | None = None,
) -> list[Message]:
    """Answer every prompt and contribute a fresh random value (kept in ``values``) to every hand
    announced, until a message of type ``until``; when each message arrived goes into ``heard``."""
    received: list[Message] = []
    answers = Answers(randomly(rng))
    while True:
        message = socket.receive_json()
        received.append(message)
        if heard is not None:
            heard.append(time.monotonic())
        if message["type"] == until:
            return received
        if message["type"] == "deal_commitment" and message["hand"] not in values:
            values[message["hand"]] = secrets.token_hex(32)
            socket.send_json({"type": "entropy", "hand": message["hand"], "value": values[message["hand"]]})
        if (act := answers.act(message)) is not None:
            socket.send_json(act)


def verified(record: dict[str, Any]) -> list[bool | None]:
    """Per hand of a record: whether ``hupai verify`` verifies it, with nothing to add."""
    verdicts = verify_record(read_record(record))
    assert all(verdict.problems == [] for verdict in verdicts), verdicts
    assert all(verdict.caveats == [] for verdict in verdicts if verdict.verified), verdicts  # hupai-fair/2
    return [verdict.verified for verdict in verdicts]


def room_secret(client: TestClient, number: str) -> str:
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    secret = store.rooms.deal_secret(store.rooms.room_id(number))
    assert secret is not None and len(secret) == 64
    return secret


def test_a_match_is_committed_contributed_revealed_and_verifies(url: str, tmp_path: Path) -> None:
    with server(url, deal_wait_seconds=WAIT) as client:
        host = guest(client, "小明")
        number = new_room(client, host, preset="nanjing", hands=4, bot_level="efficiency")
        values: dict[int, str] = {}
        heard: list[float] = []
        with connect(client, number, host) as socket:
            client.post(f"/api/rooms/{number}/start", json={}, headers=host)
            messages = play_fairly(socket, random.Random(1), values, heard=heard)
        secret = room_secret(client, number)
        record = client.get(f"/api/rooms/{number}/record{with_invite(number)}").json()
        replay = client.get(f"/api/rooms/{number}/hands/0/replay{with_invite(number)}").json()
        public = [
            client.get(f"/api/rooms/{number}{with_invite(number)}").text,
            client.get(f"/api/rooms/{number}/hands{with_invite(number)}").text,
            client.get("/api/me/history", headers=host).text,
            json.dumps(record),
            json.dumps(replay),
        ]

    ends = [message for message in messages if message["type"] == "hand_end"]
    assert [end["hand"] for end in ends] == [0, 1, 2, 3]
    for index, end in enumerate(ends):
        fair = end["fair"]
        # Announced before the hand's first update, and the secret revealed at its end hashes to it.
        announced = next(
            at for at, m in enumerate(messages) if m["type"] == "deal_commitment" and m["hand"] == index
        )
        dealt = next(at for at, m in enumerate(messages) if m["type"] == "update" and m["hand"] == index)
        assert announced < dealt
        # No deal waited for a contribution that was in: a deal that did would come WAIT after its
        # commitment (less the moment the commitment took to arrive); half of it is time enough for
        # the contribution's way to the table on a busy machine.
        assert heard[dealt] - heard[announced] < WAIT / 2
        # hupai-fair/2: the commitment binds the room and the hand's index in the match.
        assert (fair["room"], fair["hand"]) == (number, index)
        assert (
            messages[announced]["commitment"]
            == fair["commitment"]
            == commitment(fair["secret"], number, index)
        )
        assert messages[announced]["algorithm"] == fair["algorithm"] == "hupai-fair/2"
        assert fair["secret"] == hand_secret(secret, index)
        # The player's contribution is in, the others' are "", and the deal told the player so.
        assert fair["contributions"] == [values[index], "", "", ""]
        facts = messages[dealt]["fair"]
        assert facts["algorithm"] == "hupai-fair/2"
        assert facts["commitment"] == fair["commitment"] and facts["wall_hash"] == fair["wall_hash"]
        assert facts["mine"] == values[index]
        assert facts["contributed"] == [True, False, False, False]
        assert "secret" not in facts and "contributions" not in facts
        # Nothing before the hand's end carries its secret.
        assert all(fair["secret"] not in json.dumps(m) for m in messages[: messages.index(end)])
        assert record["hands"][index]["fair"] == fair
    # The room's secret is in no message and no answer of the API.
    assert all(secret not in json.dumps(m) for m in messages)
    assert all(secret not in text for text in public)
    assert replay["record"]["hands"][0]["fair"] == ends[0]["fair"]
    assert replay["family"] == "nanjing"

    # The whole match verifies, every action played against the tiles; the contributions made the
    # wall: without the player's it is another one.
    assert (record["room"], record["hand_index"]) == (number, 0)
    assert verified(record) == [True] * 4
    hand = read_record(record).hands[0]
    assert hand.fair is not None and hand.deal is not None and hand.wall is not None
    tiles = load_ruleset("nanjing").tile_set()
    without = dataclasses.replace(hand.fair, contributions=("", "", "", ""))
    assert verify_deal(tiles, hand.dealer, hand.deal, hand.wall, without) != []

    # `hupai verify` on the record as downloaded.
    path = tmp_path / "room.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path), "--json"])
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert verdict["verified"] is True and [h["verified"] for h in verdict["hands"]] == [True] * 4
    assert [h["algorithm"] for h in verdict["hands"]] == ["hupai-fair/2"] * 4


def test_contributions_are_taken_once_between_commitment_and_deal(url: str) -> None:
    with server(url, deal_wait_seconds=WAIT) as client:
        host, other, watcher = guest(client, "小明"), guest(client, "小红"), guest(client, "小刚")
        number = new_room(client, host, preset="nanning", hands=4, bot_level="random")
        assert client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=other).status_code == 200
        assert (
            client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=other).status_code == 200
        )
        seen: list[Message] = []  # by the host
        others: list[Message] = []  # by the other player and the spectator
        with (
            connect(client, number, host) as first,
            connect(client, number, other) as second,
            connect(client, number, watcher) as spectator,
        ):
            client.post(f"/api/rooms/{number}/start", json={}, headers=host)
            announced = receive_until(first, of_type("deal_commitment", hand=0), seen)
            receive_until(second, of_type("deal_commitment", hand=0), others)
            assert announced["contributed"] == [False] * 4

            def refused(socket: WebSocketTestSession, message: Any) -> str:
                socket.send_text(message if isinstance(message, str) else json.dumps(message))
                error = receive_until(socket, of_type("error"), seen if socket is first else others)
                return str(error["code"])

            mine, theirs = secrets.token_hex(32), secrets.token_hex(16)
            first.send_json({"type": "entropy", "hand": 0, "value": mine})
            told = receive_until(first, of_type("deal_commitment", hand=0), seen)
            assert told["contributed"] == [True, False, False, False]
            assert told["commitment"] == announced["commitment"]
            # A second contribution, a wrong hand, malformed ones, a spectator's: refused, nothing breaks.
            assert refused(first, {"type": "entropy", "hand": 0, "value": "ab" * 32}) == "already_contributed"
            assert refused(first, {"type": "entropy", "hand": 1, "value": "ab"}) == "deal_closed"
            assert refused(first, {"type": "entropy", "hand": 0, "value": "ABCD"}) == "bad_message"
            assert refused(first, {"type": "entropy", "hand": 0, "value": "a" * 65}) == "bad_message"
            assert refused(first, {"type": "entropy", "hand": 0, "value": 12}) == "bad_message"
            assert refused(first, {"type": "entropy", "hand": -1, "value": "ab"}) == "bad_message"
            assert refused(first, {"type": "entropy", "hand": 0}) == "bad_message"
            assert (
                refused(first, '{"type": "entropy", "hand": 0, "value": "ab", "extra": 1}') == "bad_message"
            )
            assert refused(spectator, {"type": "entropy", "hand": 0, "value": "ab"}) == "not_seated"
            assert not any(m["type"] == "update" for m in seen)  # still waiting for the second player
            # The second player's contribution completes them: the hand is dealt at once.
            second.send_json({"type": "entropy", "hand": 0, "value": theirs})
            update = receive_until(second, of_type("update", hand=0), others)
            assert update["fair"]["mine"] == theirs
            assert update["fair"]["contributed"] == [True, True, False, False]
            spectating = receive_until(spectator, of_type("update", hand=0), others)
            assert "mine" not in spectating["fair"]
            assert refused(second, {"type": "entropy", "hand": 0, "value": "cd"}) == "deal_closed"
            # Play goes on: both hand their seats to 托管 and the hand ends with both values in it.
            first.send_json({"type": "trustee", "on": True})
            second.send_json({"type": "trustee", "on": True})
            end = receive_until(first, of_type("hand_end"), seen)
            first.send_json({"type": "ping"})
            receive_until(first, of_type("pong"), seen)
        assert end["fair"]["contributions"] == [mine, theirs, "", ""]
        assert all(mine not in json.dumps(m) for m in others)  # nobody else heard the host's value
        assert all(theirs not in json.dumps(m) for m in seen[: seen.index(end)])
        record = client.get(f"/api/rooms/{number}/hands/0/record", headers=host).json()
        assert verified(record) == [True]


def test_the_store_takes_a_contribution_once_and_none_after_the_deal(url: str) -> None:
    with server(url) as client:
        host = guest(client, "小明")
        number = new_room(client, host)
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        room = store.rooms.room_id(number)
        store.play.add_contribution(room, 0, 1, "ab")
        with pytest.raises(AlreadyContributed):
            store.play.add_contribution(room, 0, 1, "cd")
        assert store.play.seal_contributions(room, 0) == ("", "ab", "", "")
        with pytest.raises(DealClosed):
            store.play.add_contribution(room, 0, 2, "ef")
        assert store.play.seal_contributions(room, 0) == ("", "ab", "", "")  # sealing again changes nothing
        assert store.play.contributions(room) == {0: {0: "", 1: "ab", 2: "", 3: ""}}


def test_a_restart_before_the_deal_keeps_the_commitment_and_the_stored_contributions(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    seen: list[Message] = []
    mine, theirs = secrets.token_hex(32), secrets.token_hex(32)
    with server(url, deal_wait_seconds=WAIT) as client:
        host, other = guest(client, "小明"), guest(client, "小红")
        number = new_room(client, host, preset="enshi", hands=4)
        client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=other)
        client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=other)
        with connect(client, number, other) as second:
            with connect(client, number, host) as first:
                client.post(f"/api/rooms/{number}/start", json={}, headers=host)
                before = receive_until(second, of_type("deal_commitment", hand=0), seen)
                first.send_json({"type": "entropy", "hand": 0, "value": mine})
                told = of_type("deal_commitment", contributed=[True, False, False, False])
                receive_until(second, told, seen)
            # The host left; the other player, still there, has not contributed: no deal yet.
            second.send_json({"type": "ping"})
            assert not any(m["type"] == "update" for m in seen)
            assert receive_until(second, of_type("pong"), seen)["type"] == "pong"
            assert not any(m["type"] == "update" for m in seen)
    # The server stopped between the commitment and the deal; it comes back waiting for the deal.
    with server(url, deal_wait_seconds=WAIT) as client, connect(client, number, other) as second:
        again = receive_until(second, of_type("deal_commitment", hand=0), seen)
        assert again["commitment"] == before["commitment"]
        assert again["contributed"] == [True, False, False, False]  # the host's is stored
        second.send_json({"type": "entropy", "hand": 0, "value": theirs})
        update = receive_until(second, of_type("update", hand=0), seen)
        assert update["fair"]["contributed"] == [True, True, False, False]
        with connect(client, number, host) as first:
            first.send_json({"type": "entropy", "hand": 0, "value": mine})
            assert receive_until(first, of_type("error"), seen)["code"] == "deal_closed"
            first.send_json({"type": "trustee", "on": True})
            second.send_json({"type": "trustee", "on": True})
            end = receive_until(second, of_type("hand_end"), seen)
    assert end["fair"]["contributions"] == [mine, theirs, "", ""]
    assert end["fair"]["commitment"] == before["commitment"]


def test_a_table_rebuilt_mid_hand_deals_and_commits_the_same_hupai_fair_2_hand(tmp_path: Path) -> None:
    """A restart in the middle of a hand: the rebuilt table recomputes the same commitment and wall
    (the room's secret says hupai-fair/2, the room number and the hand's index bind them)."""
    url = f"sqlite:///{tmp_path / 'rebuilt.sqlite3'}"
    heard: list[Message] = []
    mine = secrets.token_hex(32)
    with server(url, deal_wait_seconds=WAIT) as client:
        host = guest(client, "小明")
        number = new_room(client, host, preset="nanning", hands=4)
        assert room_algorithm(room_secret(client, number)) == "hupai-fair/2"
        with connect(client, number, host) as socket:
            client.post(f"/api/rooms/{number}/start", json={}, headers=host)
            announced = receive_until(socket, of_type("deal_commitment", hand=0), heard)
            socket.send_json({"type": "entropy", "hand": 0, "value": mine})
            first = receive_until(socket, of_type("update", hand=0), heard)
    assert announced["algorithm"] == first["fair"]["algorithm"] == "hupai-fair/2"
    with server(url, deal_wait_seconds=WAIT) as client, connect(client, number, host) as socket:
        again = receive_until(socket, of_type("update", hand=0), heard)
        assert again["fair"] == first["fair"]  # the same commitment, wall hash and contribution
        assert again["fair"]["commitment"] == announced["commitment"]
        socket.send_json({"type": "trustee", "on": True})
        end = receive_until(socket, of_type("hand_end"), heard)
        record = client.get(f"/api/rooms/{number}/hands/0/record{with_invite(number)}", headers=host).json()
    assert end["fair"]["commitment"] == announced["commitment"]
    assert (end["fair"]["room"], end["fair"]["hand"], end["fair"]["contributions"][0]) == (number, 0, mine)
    assert verified(record) == [True]


def test_a_match_begun_under_hupai_fair_1_goes_on_with_it_after_a_restart(tmp_path: Path) -> None:
    """A room whose secret is from before hupai-fair/2 (no tag) deals every hand with hupai-fair/1,
    also when its table is rebuilt between hands: its commitments stay the ones players were told."""
    url = f"sqlite:///{tmp_path / 'v1.sqlite3'}"
    old_secret = "5eed" * 16
    assert room_algorithm(old_secret) == "hupai-fair/1"
    with server(url, deal_wait_seconds=WAIT) as client:
        host = guest(client, "小明")
        number = new_room(client, host, preset="nanjing", hands=4, bot_level="efficiency")
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        with store.sessions.begin() as db:  # as a room made before hupai-fair/2 was
            db.execute(update(Room).where(Room.number == number).values(deal_secret=old_secret))
        with connect(client, number, host) as socket:
            client.post(f"/api/rooms/{number}/start", json={}, headers=host)
            before = play_fairly(socket, random.Random(3), {}, until="hand_end")
    with server(url, deal_wait_seconds=WAIT) as client, connect(client, number, host) as socket:
        after = play_fairly(socket, random.Random(4), {}, until="hand_end")
        record = client.get(f"/api/rooms/{number}/record{with_invite(number)}", headers=host).json()
    announced = [m for m in before + after if m["type"] == "deal_commitment"]
    assert {m["algorithm"] for m in announced} == {"hupai-fair/1"}
    assert {m["hand"] for m in announced} >= {0, 1}
    for index, hand in enumerate(record["hands"]):
        fair = hand["fair"]
        assert fair["algorithm"] == "hupai-fair/1" and "room" not in fair
        assert fair["commitment"] == commitment(hand_secret(old_secret, index))
        assert all(m["commitment"] == fair["commitment"] for m in announced if m["hand"] == index)
    verdicts = verify_record(read_record(record))
    assert len(verdicts) >= 2
    assert all(v.verified is True and v.problems == [] and v.caveats == [V1_CAVEAT] for v in verdicts)


def test_an_escaped_hand_reveals_its_deal_too(url: str) -> None:
    with server(url, deal_wait_seconds=WAIT) as client:
        host = guest(client, "小明")
        number = new_room(client, host, preset="nanning", hands=4)
        seen: list[Message] = []
        mine = secrets.token_hex(32)
        with connect(client, number, host) as socket:
            client.post(f"/api/rooms/{number}/start", json={}, headers=host)
            receive_until(socket, of_type("deal_commitment", hand=0), seen)
            socket.send_json({"type": "entropy", "hand": 0, "value": mine})
            receive_until(socket, of_type("update", hand=0), seen)
            assert client.post(f"/api/rooms/{number}/leave", json={}, headers=host).status_code == 200  # 逃跑
            receive_until(socket, of_type("match_end"), seen)
        record = client.get(f"/api/rooms/{number}/hands/0/record", headers=host).json()
    fair = record["hands"][0]["fair"]
    assert fair["contributions"] == [mine, "", "", ""]
    assert verified(record) == [True]


def test_a_room_from_before_fair_deals_deals_from_its_seed(url: str) -> None:
    with server(url, deal_wait_seconds=WAIT) as client:
        host = guest(client, "小明")
        number = new_room(client, host, preset="nanjing", hands=4)
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        with store.sessions.begin() as db:  # as the migration leaves rooms made before it
            db.execute(update(Room).where(Room.number == number).values(deal_secret=None))
        with connect(client, number, host) as socket:
            client.post(f"/api/rooms/{number}/start", json={}, headers=host)
            messages = play_fairly(socket, random.Random(2), {}, until="hand_end")
        room = client.get(f"/api/rooms/{number}{with_invite(number)}").json()
        record = client.get(f"/api/rooms/{number}/hands/0/record{with_invite(number)}", headers=host).json()
        room_seed = store.rooms.seed(store.rooms.room_id(number))
    assert not any(message["type"] == "deal_commitment" for message in messages)
    assert all("fair" not in message for message in messages)
    hand = record["hands"][0]
    assert "fair" not in hand
    ruleset = load_ruleset(room["rules"]["preset"], room["rules"]["changed"])
    deal, wall = shuffled_deal(ruleset, hand["dealer"], hand_seed(room_seed, 0))
    assert [parse_tiles(tiles) for tiles in hand["deal"]] == deal
    assert parse_tiles(hand["wall"]) == wall
    assert verified(record) == [None]


# --- a real server killed in the middle of a hand --------------------------------------------------


def next_update(connection: ClientConnection, done: Callable[[Message], bool]) -> Message:
    while True:
        message: Message = json.loads(connection.recv(timeout=RECV_SECONDS))
        assert message["type"] != "error", message
        if done(message):
            return message


def test_a_killed_server_deals_the_same_wall_from_the_stored_contributions(url: str) -> None:
    port = free_port()
    mine = "c0ffee" * 10  # with the fixed room secret, a deal whose hand lasts past the kill
    with running_server(url, port, deal_wait_seconds=WAIT, prepare=PREPARE) as process:
        token = call(port, "/api/guest", {"name": "小明"})["token"]
        number = opened(call(port, "/api/rooms", {"preset": "nanjing", "hands": 4}, token))
        socket_url = f"ws://127.0.0.1:{port}/api/rooms/{number}/ws?token={token}"
        with ws_connect(socket_url) as connection:
            call(port, f"/api/rooms/{number}/start", {}, token)
            next_update(connection, lambda m: m["type"] == "deal_commitment")
            connection.send(json.dumps({"type": "entropy", "hand": 0, "value": mine}))
            first = next_update(connection, lambda m: m["type"] == "update")
            message, answers = first, Answers(passing)
            while len(answers.answered) < 5:  # a few moves of the hand are stored
                if (act := answers.act(message)) is not None:
                    connection.send(json.dumps(act))
                message = next_update(connection, lambda m: m["type"] in ("update", "hand_end"))
                assert message["type"] != "hand_end"
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)

    with running_server(url, port, deal_wait_seconds=WAIT, prepare=PREPARE):
        with ws_connect(socket_url) as connection:  # from the hand's first event
            again = next_update(connection, lambda m: m["type"] == "update")
            assert again["hand"] == 0 and again["from"] == 0
            assert again["fair"] == first["fair"]  # the same commitment, wall hash and contribution
            assert again["fair"]["mine"] == mine
            assert again["events"][: len(first["events"])] == first["events"]  # the same deal
            connection.send(json.dumps({"type": "trustee", "on": True}))
            next_update(connection, lambda m: m["type"] == "hand_end")
        record = call(port, f"/api/rooms/{number}/hands/0/record", token=token)
    assert record["hands"][0]["fair"]["contributions"] == [mine, "", "", ""]
    # FIXED_ROOM_SECRET is a room secret from before hupai-fair/2 (no tag): the room goes on with
    # hupai-fair/1 across the kill, and its hands verify with hupai-fair/1's caveat.
    assert record["hands"][0]["fair"]["algorithm"] == "hupai-fair/1"
    (verdict,) = verify_record(read_record(record))
    assert verdict.verified is True and verdict.problems == [] and verdict.caveats == [V1_CAVEAT]
