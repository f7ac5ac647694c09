"""逃跑 at the table: the escape is paid in the hand where it happens (its transfers, its deltas), the
hand's sheet shows it before 大结算, the hands add up to the totals, and a table rebuilt from the
stored moves gives the same numbers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from hupai.game.record import read_record
from hupai.replay import replay

from ...schema_support import schema_error
from ...server_support import (
    Message,
    connect,
    guest,
    new_room,
    paid,
    play_socket,
    rebuilt,
    server,
    with_invite,
    without_seat,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # A long pause between hands, so that a player can leave while the others read the sheet.
    with server(f"sqlite:///{tmp_path / 'escape.sqlite3'}", next_hand_seconds=60.0) as test_client:
        yield test_client


def leave(client: TestClient, number: str, host: dict[str, str], socket: Any) -> list[Message]:
    room = client.post(f"/api/rooms/{number}/leave", json={}, headers=host).json()
    assert room["status"] == "finished"
    return play_socket(socket, answer=False)


def check_sums(summary: dict[str, Any], hands: list[dict[str, Any]]) -> None:
    for result in hands:
        assert paid(result) == result["deltas"], f"hand {result['hand']}: transfers do not add up to deltas"
        assert schema_error(result, "settlement", "hand") is None
    assert [sum(column) for column in zip(*(line["deltas"] for line in summary["hands"]), strict=True)] == (
        summary["totals"]
    )


def check_record(client: TestClient, number: str, summary: dict[str, Any]) -> None:
    """The room's record and each hand's match the schema and replay to the summary; the replay of
    the hand the escape ends stops at the escape."""
    record = client.get(f"/api/rooms/{number}/record{with_invite(number)}").json()
    assert schema_error(record, "record") is None
    for index in range(len(summary["hands"])):
        assert (
            schema_error(
                client.get(f"/api/rooms/{number}/hands/{index}/record{with_invite(number)}").json(), "record"
            )
            is None
        )
    frames = client.get(f"/api/rooms/{number}/hands/{len(summary['hands']) - 1}/replay").json()["frames"]
    assert frames[-1]["escape"] == summary["escapes"][0]["seat"]
    assert frames[-1]["view"]["phase"] == "ended"
    replayed = replay(read_record(record))
    assert replayed.match.totals == summary["totals"]
    settlement = replayed.as_dict()
    assert schema_error(settlement, "settlement") is None
    assert [hand["deltas"] for hand in settlement["hands"]] == [line["deltas"] for line in summary["hands"]]


def test_leaving_mid_hand_pays_the_escape_in_that_hand(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset="nanjing", hands=4)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with connect(client, number, host) as socket:
        play_socket(socket, until="update", answer=False)
        messages = leave(client, number, host, socket)
    hand_end = next(message for message in messages if message["type"] == "hand_end")
    summary = messages[-1]
    result = hand_end["result"]
    assert hand_end["last"] is True  # 大结算 follows
    assert result["outcome"] == "abandoned"
    assert result["escaped"] == [0]
    escape = [transfer for transfer in result["transfers"] if transfer["reason"] == "escape"]
    assert [(t["from"], t["to"], t["amount"]) for t in escape] == [(0, 1, 20), (0, 2, 20), (0, 3, 20)]
    assert {(t["zh"], t["en"]) for t in escape} == {("逃跑", "Left the game: escape penalty")}
    assert result["deltas"] == paid(result)
    assert summary["hands"][-1]["escaped"] == [0]
    assert summary["escapes"] == [{"seat": 0, "hand": 0, "transfers": escape}]
    stored = client.get(f"/api/rooms/{number}/hands{with_invite(number)}").json()
    assert stored[-1] == result
    check_sums(summary, stored)
    check_record(client, number, summary)
    again = rebuilt(client, number)
    assert (again["totals"], again["hands"], again["escapes"]) == (
        summary["totals"],
        summary["hands"],
        summary["escapes"],
    )


def test_leaving_between_hands_pays_the_escape_in_the_hand_just_played(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset="nanjing", hands=4)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with connect(client, number, host) as socket:
        first = play_socket(socket, until="hand_end")[-1]
        messages = leave(client, number, host, socket)
    hand_end = next(message for message in messages if message["type"] == "hand_end")
    summary = messages[-1]
    assert hand_end["hand"] == first["hand"] == 0
    assert hand_end["last"] is True
    before, after = first["result"], hand_end["result"]
    assert after["outcome"] == before["outcome"] != "abandoned"  # the hand ended as it did
    assert after["escaped"] == [0]
    assert after["transfers"][: len(before["transfers"])] == before["transfers"]
    assert [t["reason"] for t in after["transfers"][len(before["transfers"]) :]] == ["escape"] * 3
    assert after["deltas"][0] == before["deltas"][0] - 60
    assert len(summary["hands"]) == 1
    for seat in before["winners"]:  # the biggest win is the win, not the escape money that came after it
        assert summary["stats"][seat]["biggest"] == before["deltas"][seat]
    check_sums(summary, client.get(f"/api/rooms/{number}/hands{with_invite(number)}").json())
    check_record(client, number, summary)
    assert rebuilt(client, number)["totals"] == summary["totals"]


def test_a_rule_set_without_an_escape_penalty_still_names_who_left(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset="nanning", hands=4)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with connect(client, number, host) as socket:
        play_socket(socket, until="update", answer=False)
        messages = leave(client, number, host, socket)
    result = next(message for message in messages if message["type"] == "hand_end")["result"]
    assert result["escaped"] == [0]
    assert [t for t in result["transfers"] if t["reason"] == "escape"] == []
    check_sums(messages[-1], client.get(f"/api/rooms/{number}/hands{with_invite(number)}").json())
    check_record(client, number, messages[-1])


def test_leaving_while_a_discard_waits_for_its_release_replays_the_same(tmp_path: Path) -> None:
    """As for a dissolve (tests/server/table/test_dissolve.py): a window held for nobody is closed as its
    release would close it before the hand is abandoned, so the record replays to the hand stored."""
    with server(f"sqlite:///{tmp_path / 'held.sqlite3'}", claim_seconds=None) as client:
        host = guest(client, "小明")
        number = new_room(client, host, preset="nanjing", hands=4, claim_seconds=3)
        client.post(f"/api/rooms/{number}/start", json={}, headers=host)
        with connect(client, number, host) as socket:
            while not (prompt := socket.receive_json().get("prompt")) or prompt["automatic"]:
                pass  # until the dealer's first turn
            discard = next(action for action in prompt["legal"] if action["act"] == "discard")
            socket.send_json({"type": "act", "seq": prompt["seq"], "action": without_seat(discard)})
            while (update := socket.receive_json())["type"] != "update" or update.get("prompt"):
                pass  # until the discard is played: its window is held now, for 3 seconds
            messages = leave(client, number, host, socket)
        ended = [message for message in messages if message["type"] == "update"][-1]["view"]
        summary = messages[-1]
        check_record(client, number, summary)
        frames = client.get(f"/api/rooms/{number}/hands/0/replay{with_invite(number)}").json()["frames"]
        assert frames[-1]["view"]["live_tiles"] == ended["live_tiles"]
