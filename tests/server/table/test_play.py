"""Whole matches over websockets: bots in empty seats, several people, spectators, storage, records.

Every message each seat receives is checked: nobody is ever sent another seat's concealed tiles.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hupai.game.record import read_record
from hupai.replay import replay
from hupai.server.schemas import RoomIn

from ...server_support import (
    Answers,
    Message,
    PlayerThread,
    connect,
    database,
    database_urls,
    guest,
    invited,
    new_room,
    pick,
    play_socket,
    randomly,
    server,
    with_invite,
)

HIDDEN_EVENTS = {"tiles_dealt": "tiles", "tile_drawn": "tile"}


@pytest.fixture(params=database_urls())
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, server(url) as test_client:
        yield test_client


def check_private(messages: list[Message], seat: int | None) -> int:
    """Assert that ``seat`` (None: a spectator) saw no other seat's concealed tiles, and nothing that
    tells who may claim a discard: no other seat's pass, no list of seats the table waits on, and a
    claim window after every discard (tests/server/table/test_claims.py compares whole runs); returns the
    number of updates checked."""
    checked = 0
    for message in messages:
        if message["type"] != "update":
            continue
        checked += 1
        seen = message["view"]
        assert seen["seat"] == seat
        if seat is None:
            assert seen["hand"] is None
            assert "ting" not in message  # 听 and the waits are told to their own seat only
            assert "waits" not in message
        ended = seen["phase"] == "ended"
        if not ended:
            assert seen["hands"] is None
        assert "waiting_on" not in message["table"]
        for event in message["events"]:
            hidden = HIDDEN_EVENTS.get(event["event"])
            if hidden is not None and event["seat"] != seat:
                assert event[hidden] is None, (seat, event)
            if event["event"] == "hand_ended":
                assert ended
            if event["event"] == "passed":
                assert event["seat"] == seat, (seat, event)
        moves = [event["event"] for event in message["events"] if event["event"] != "payment_made"]
        if moves and moves[-1] == "tile_discarded":
            assert seen["phase"] == "claim"  # whether or not anyone may claim it
        for action in message.get("prompt", {}).get("legal", []):
            assert action["seat"] == seat
    return checked


def test_a_match_against_bots_is_played_stored_and_replays_exactly(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset="nanjing", hands=4, bot_level="efficiency")
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with connect(client, number, host) as socket:
        messages = play_socket(socket, seed=1)
    ends = [message for message in messages if message["type"] == "hand_end"]
    summary = messages[-1]
    assert [end["hand"] for end in ends] == [0, 1, 2, 3]
    assert summary["status"] == "finished"
    assert sum(summary["totals"]) == 0
    assert sorted(summary["ranks"])[0] == 1
    assert summary["totals"] == ends[-1]["totals"]
    assert summary["names"][0] == "小明"
    assert check_private(messages, 0) > 20
    # stored: every hand's settlement, the records, the player's history
    hands = client.get(f"/api/rooms/{number}/hands{with_invite(number)}").json()
    assert [hand["deltas"] for hand in hands] == [end["result"]["deltas"] for end in ends]
    record = client.get(f"/api/rooms/{number}/record{with_invite(number)}").json()
    replayed = replay(read_record(record))
    assert replayed.match.totals == summary["totals"]
    assert [list(result.deltas) for result in replayed.results] == [hand["deltas"] for hand in hands]
    one = client.get(f"/api/rooms/{number}/hands/2/record?download=true")
    assert one.headers["content-disposition"] == f'attachment; filename="hupai-{number}-3.json"'
    assert len(one.json()["hands"]) == 1
    history = client.get("/api/me/history", headers=host).json()
    assert history[0]["total"] == summary["totals"][0]
    assert history[0]["rank"] == summary["ranks"][0]
    assert history[0]["hands_played"] == 4
    assert (
        client.get(f"/api/rooms/{number}{with_invite(number)}", headers=host).json()["status"] == "finished"
    )


@pytest.mark.parametrize("preset", ["nanjing", "nanning"])
def test_two_people_two_bots_and_a_spectator_never_see_a_hidden_tile(client: TestClient, preset: str) -> None:
    host = guest(client, "甲")
    friend = guest(client, "乙")
    watcher = guest(client, "观众")
    number = new_room(client, host, preset=preset, hands=4, bot_level="strong")
    client.post(f"/api/rooms/{number}/sit", json={"seat": 2, **invited(number)}, headers=friend)
    client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=friend)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with (
        connect(client, number, host) as first,
        connect(client, number, friend) as second,
        connect(client, number, watcher) as third,
    ):
        players = [PlayerThread(first, seed=1), PlayerThread(second, seed=2)]
        for player in players:
            player.start()
        spectated = play_socket(third, answer=False)
        for player in players:
            player.join(timeout=60)
            assert player.error is None, player.error
    assert check_private(players[0].messages, 0) > 10
    assert check_private(players[1].messages, 2) > 10
    assert check_private(spectated, None) > 10
    totals = {
        tuple(messages[-1]["totals"]) for messages in (players[0].messages, players[1].messages, spectated)
    }
    assert len(totals) == 1


def test_a_finished_hand_is_public_but_the_hand_in_play_is_not(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, hands=4)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with connect(client, number, host) as socket:
        first = socket.receive_json()
        assert first["type"] == "welcome"
        assert client.get(f"/api/rooms/{number}/hands/0/record{with_invite(number)}").status_code == 404
        play_socket(socket, until="hand_end")
        record = client.get(f"/api/rooms/{number}/hands/0/record{with_invite(number)}").json()
        assert len(record["hands"][0]["deal"]) == 4
        assert client.get(f"/api/rooms/{number}/hands/1/record{with_invite(number)}").status_code == 404


def test_a_reconnect_gets_exactly_the_events_it_missed(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, hands=4)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    seen: list[Message] = []
    hand = -1
    answered = 0
    rng = random.Random(3)
    with connect(client, number, host) as socket:
        while True:
            message = next_update(socket)
            if seen and message["hand"] != hand:
                seen = []  # a new hand: events are counted per hand
            seen.extend(message["events"])
            hand = message["hand"]
            prompt = message.get("prompt")
            if prompt is not None and not prompt["automatic"]:
                if answered == 3:
                    break
                answered += 1
                socket.send_json({"type": "act", "seq": prompt["seq"], "action": pick(prompt["legal"], rng)})
    # the seat owes a decision now and nothing moves without it, so the events stand still
    with connect(client, number, host, hand=hand, since=len(seen)) as socket:
        back = next_update(socket)
    with connect(client, number, host) as socket:
        whole = next_update(socket)
    assert back["hand"] == whole["hand"] == hand
    assert back["from"] == len(seen)
    assert seen + back["events"] == whole["events"]
    assert back["view"] == whole["view"]
    assert back["prompt"]["seq"] == whole["prompt"]["seq"]


def test_a_reconnect_after_the_next_hand_began_first_gets_the_end_of_the_hand_it_left(
    client: TestClient,
) -> None:
    """A client away when its hand ended and the next began hears the rest of that hand, then the new
    one: no hand's events are lost to it (a player taken over by another process meets this)."""
    host = guest(client, "小明")
    number = new_room(client, host, hands=4)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    events: dict[int, list[Message]] = {}
    answers = Answers(randomly(random.Random(4)))
    with connect(client, number, host) as socket:
        while True:
            message = socket.receive_json()
            if message["type"] == "update":
                events.setdefault(message["hand"], []).extend(message["events"])
                if message["hand"] == 1:
                    break
            if (act := answers.act(message)) is not None:
                socket.send_json(act)
    assert events[0][-1]["event"] == "hand_ended"
    since = len(events[0]) // 2
    with connect(client, number, host, hand=0, since=since) as socket:
        rest = next_update(socket)
        then = next_update(socket)
    assert rest["hand"] == 0
    assert rest["from"] == since
    assert events[0][:since] + rest["events"] == events[0]
    assert then["hand"] == 1
    assert then["from"] == 0
    assert then["events"][: len(events[1])] == events[1]


def next_update(socket: Any) -> Message:
    while True:
        message: Message = socket.receive_json()
        if message["type"] == "update":
            return message


def test_dissolving_needs_every_player(client: TestClient) -> None:
    host = guest(client, "甲")
    friend = guest(client, "乙")
    number = new_room(client, host, hands=8)
    client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=friend)
    client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=friend)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with connect(client, number, host) as socket:
        next_update(socket)
        one = client.post(f"/api/rooms/{number}/dissolve", json={"agree": True}, headers=host).json()
        assert one["status"] == "playing"
        assert one["dissolve_vote"]["answers"] == [True, None, None, None]
        assert (one["dissolve_vote"]["asked_by"], one["dissolve_vote"]["voters"]) == (0, [0, 1])
        both = client.post(f"/api/rooms/{number}/dissolve", json={"agree": True}, headers=friend).json()
        assert both["status"] == "dissolved"
        summary = play_socket(socket, answer=False)[-1]
    assert summary["status"] == "dissolved"
    assert sum(summary["totals"]) == 0


def test_leaving_a_started_game_pays_the_escape_penalty(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset="nanjing", hands=8)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with connect(client, number, host) as socket:
        next_update(socket)
        room = client.post(f"/api/rooms/{number}/leave", json={}, headers=host).json()
        summary = play_socket(socket, answer=False)[-1]
    assert room["status"] == "finished"
    assert room["seats"][0]["left"] is True
    assert summary["escapes"][0]["seat"] == 0
    assert sum(transfer["amount"] for transfer in summary["escapes"][0]["transfers"]) == 60
    # Money already paid in the hand (a flower kong at the deal) stands; the 60 comes on top.
    stands = [0, 0, 0, 0]
    for hand in client.get(f"/api/rooms/{number}/hands{with_invite(number)}").json():
        for transfer in hand["transfers"]:
            if transfer["reason"] != "escape":
                stands[transfer["from"]] -= transfer["amount"]
                stands[transfer["to"]] += transfer["amount"]
    assert summary["totals"][0] == stands[0] - 60
    record = client.get(f"/api/rooms/{number}/record{with_invite(number)}").json()
    assert record["hands"][-1]["actions"][-1] == {"seat": 0, "act": "escape"}
    assert replay(read_record(record)).match.totals == summary["totals"]


def test_toggling_trustee_plays_the_seat_until_the_player_returns(tmp_path: Path) -> None:
    with server(f"sqlite:///{tmp_path / 't.sqlite3'}", bot_delay_seconds=0.02) as client:
        host = guest(client, "小明")
        number = new_room(client, host, hands=16)
        client.post(f"/api/rooms/{number}/start", json={}, headers=host)
        with connect(client, number, host) as socket:
            next_update(socket)
            socket.send_json({"type": "trustee", "on": True})
            update = next_update(socket)
            while not update["table"]["trustee"][0]:
                update = next_update(socket)
            moved = update["view"]["live_tiles"]
            while update["view"]["live_tiles"] == moved:  # the seat plays on without its player
                update = next_update(socket)
            socket.send_json({"type": "trustee", "on": False})
            while update["table"]["trustee"][0]:
                update = next_update(socket)
            while "prompt" not in update:
                update = next_update(socket)
            assert update["prompt"]["automatic"] is False


def test_a_silent_player_is_taken_over_when_the_time_runs_out(tmp_path: Path) -> None:
    with server(f"sqlite:///{tmp_path / 't.sqlite3'}", time_bank_seconds=0.5) as client:
        host = guest(client, "慢")
        store = client.app.state.store  # type: ignore[attr-defined]
        user = client.get("/api/me", headers=host).json()
        # the API asks for at least 5 s a decision; a test room is made quicker at the store
        room = store.rooms.create_room(
            user["id"], RoomIn.model_construct(**{**RoomIn().model_dump(), "hands": 1, "decision_seconds": 0})
        )
        number = room.number
        client.post(f"/api/rooms/{number}/start", json={}, headers=host)
        with connect(client, number, host) as socket:
            messages = play_socket(socket, answer=False)
    assert messages[-1]["type"] == "match_end"
    assert any(message.get("table", {}).get("trustee", [False])[0] for message in messages)
    assert any(message.get("table", {}).get("bank_ms", [1])[0] == 0 for message in messages)
