"""Between hands: the next hand is dealt when every person at the table has pressed 继续, or when the
room's countdown runs out; a 继续 at any other moment is refused with an error. Also the 大结算 and
战绩 statistics that the settlement sheets show."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hupai.server.stats import ranks

from ...server_support import (
    Message,
    connect,
    database,
    database_urls,
    guest,
    invited,
    new_room,
    play_socket,
    server,
)


@pytest.fixture(params=database_urls())
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    # No server-wide pause between hands: each room's own next_hand_seconds counts.
    with database(request.param, tmp_path) as url, server(url, next_hand_seconds=None) as test_client:
        yield test_client


def read_until(socket: WebSocketTestSession, wanted: Callable[[Message], bool]) -> Message:
    while True:
        message: Message = socket.receive_json()
        if wanted(message):
            return message


def of_type(kind: str) -> Callable[[Message], bool]:
    return lambda message: message["type"] == kind


def first_update_of_hand(hand: int) -> Callable[[Message], bool]:
    return lambda message: message["type"] == "update" and message["hand"] == hand


def two_people_room(client: TestClient, next_hand_seconds: int) -> tuple[str, dict[str, str], dict[str, str]]:
    """A started room: the host in seat 0, a friend in seat 2, bots in the other seats."""
    host = guest(client, "甲")
    friend = guest(client, "乙")
    number = new_room(client, host, hands=4, next_hand_seconds=next_hand_seconds)
    client.post(f"/api/rooms/{number}/sit", json={"seat": 2, **invited(number)}, headers=friend)
    client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=friend)
    assert client.post(f"/api/rooms/{number}/start", json={}, headers=host).status_code == 200
    return number, host, friend


def back_in_seat(message: Message) -> bool:
    return message["type"] == "update" and not any(message["table"]["trustee"])


def autoplay_first_hand(first: WebSocketTestSession, second: WebSocketTestSession) -> Message:
    """Both people let 托管 play the first hand, then take their seats back to read the sheet."""
    for socket in (first, second):
        read_until(socket, of_type("update"))
        socket.send_json({"type": "trustee", "on": True})
    end = read_until(first, of_type("hand_end"))
    read_until(second, of_type("hand_end"))
    for socket in (first, second):
        socket.send_json({"type": "trustee", "on": False})
    for socket in (first, second):
        read_until(socket, back_in_seat)
    return end


def test_the_room_keeps_its_pause_between_hands(client: TestClient) -> None:
    host = guest(client, "甲")
    room = client.post("/api/rooms", json={"next_hand_seconds": 40}, headers=host).json()
    assert room["next_hand_seconds"] == 40
    assert client.get(f"/api/rooms/{room['number']}").json()["next_hand_seconds"] == 40
    assert client.post("/api/rooms", json={}, headers=host).json()["next_hand_seconds"] == 15
    for wrong in (2, 121, "soon"):
        assert client.post("/api/rooms", json={"next_hand_seconds": wrong}, headers=host).status_code == 422


def test_everyone_pressing_continue_deals_at_once(client: TestClient) -> None:
    number, host, friend = two_people_room(client, next_hand_seconds=120)
    with connect(client, number, host) as first, connect(client, number, friend) as second:
        end = autoplay_first_hand(first, second)
        assert end["hand"] == 0 and end["last"] is False
        assert end["pressed"] == [] and 100_000 < end["next_in_ms"] <= 120_000
        first.send_json({"type": "continue"})
        told = read_until(second, of_type("continue"))
        assert told["pressed"] == [0] and told["waiting"] == [2]
        first.send_json({"type": "continue"})  # a second press is harmless
        assert read_until(first, of_type("continue"))["pressed"] == [0]
        started = time.monotonic()
        second.send_json({"type": "continue"})
        dealt = read_until(second, first_update_of_hand(1))
        assert time.monotonic() - started < 10  # not the two minutes of the countdown
        assert dealt["view"]["phase"] != "ended"
        assert read_until(first, first_update_of_hand(1))["hand"] == 1


def test_the_countdown_deals_when_someone_does_not_press(client: TestClient) -> None:
    # 10 s: the press must come before the countdown ends, after both players have taken their
    # seats back (four messages, which a busy machine may take a few seconds to carry).
    number, host, friend = two_people_room(client, next_hand_seconds=10)
    with connect(client, number, host) as first, connect(client, number, friend) as second:
        autoplay_first_hand(first, second)
        pressed = time.monotonic()
        first.send_json({"type": "continue"})
        told = read_until(first, lambda m: of_type("continue")(m) or first_update_of_hand(1)(m))
        assert told["type"] == "continue" and told["waiting"] == [2]  # one press did not deal
        assert 0 < told["next_in_ms"] <= 10_000
        read_until(first, first_update_of_hand(1))
        waited = time.monotonic() - pressed
        # Dealt when the countdown said, as of the press at the latest, and not long after.
        assert told["next_in_ms"] / 1000 <= waited < told["next_in_ms"] / 1000 + 10, waited
        read_until(second, first_update_of_hand(1))


def test_a_continue_at_the_wrong_moment_is_refused(client: TestClient) -> None:
    host = guest(client, "甲")
    watcher = guest(client, "观众")
    number = new_room(client, host, hands=4, next_hand_seconds=3)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with connect(client, number, host) as socket, connect(client, number, watcher) as spectator:
        read_until(socket, of_type("update"))
        socket.send_json({"type": "continue"})  # a hand is in play
        error = read_until(socket, of_type("error"))
        assert error["code"] == "not_between_hands"
        socket.send_json({"type": "continue", "now": True})  # an unknown field
        assert read_until(socket, of_type("error"))["code"] == "bad_message"
        spectator.send_json({"type": "continue"})
        assert read_until(spectator, of_type("error"))["code"] == "not_seated"
        client.post(f"/api/rooms/{number}/dissolve", json={"agree": True}, headers=host)
        summary = read_until(socket, of_type("match_end"))
        socket.send_json({"type": "continue"})  # after the match
        assert read_until(socket, of_type("error"))["code"] == "not_between_hands"
        socket.send_json({"type": "ping"})  # the table lives on
        assert read_until(socket, of_type("pong")) == {"type": "pong"}
    assert summary["status"] == "dissolved"
    # The bots may have paid for a kong before the dissolve: ranks then follow the totals, and only a
    # match where nobody ever paid anything has no ranks at all.
    totals = summary["totals"]
    if any(totals):
        assert summary["ranks"] == [1 + sum(other > total for other in totals) for total in totals]
    else:
        assert summary["ranks"] == [None, None, None, None]
    assert summary["room"] == number
    assert summary["bot_levels"] == [None, "strong", "strong", "strong"]
    history = client.get("/api/me/history", headers=host).json()
    assert history[0]["rank"] is None
    assert history[0]["rules_zh"] == "南京麻将"


def test_a_whole_match_summary_counts_every_player(tmp_path: Path) -> None:
    with server(f"sqlite:///{tmp_path / 'm.sqlite3'}") as client:  # no pause between hands
        host = guest(client, "小明")
        number = new_room(client, host, preset="nanning", hands=4, bot_level="efficiency")
        client.post(f"/api/rooms/{number}/start", json={}, headers=host)
        with connect(client, number, host) as socket:
            messages = play_socket(socket, seed=5)
        history = client.get("/api/me/history", headers=host).json()
    ends = [message for message in messages if message["type"] == "hand_end"]
    summary = messages[-1]
    assert [end["last"] for end in ends] == [False, False, False, True]
    assert summary["rules"]["zh"] == "南宁麻将" and summary["rules"]["en"] == "Nanning mahjong"
    assert summary["ended_at"].endswith("Z")
    assert len(summary["hands"]) == 4
    for seat, stats in enumerate(summary["stats"]):
        won = [hand for hand in summary["hands"] if any(win["seat"] == seat for win in hand["wins"])]
        assert stats["wins"] == len(won)
        mine = [win for hand in won for win in hand["wins"] if win["seat"] == seat]
        drawn = sum(1 for win in mine if win["how"] == "self_drawn")
        assert stats["self_draws"] == drawn
        fed = [hand for hand in summary["hands"] if any(win["from"] == seat for win in hand["wins"])]
        assert stats["deal_ins"] == len(fed)
        assert stats["biggest"] == (max(hand["deltas"][seat] for hand in won) if won else None)
        kongs = sum(end["result"]["kongs"][seat] for end in ends)
        assert stats["kongs"] == kongs
    totals = summary["totals"]
    assert summary["ranks"] == [1 + sum(other > total for other in totals) for total in totals]
    assert history[0]["rules_en"] == "Nanning mahjong"
    assert history[0]["total"] == totals[0] and history[0]["rank"] == summary["ranks"][0]
    assert history[0]["wins"] == summary["stats"][0]["wins"]
    assert history[0]["kongs"] == summary["stats"][0]["kongs"]
    update = next(message for message in messages if message["type"] == "update")
    assert update["table"]["bot_levels"] == [None, "efficiency", "efficiency", "efficiency"]


def test_ranks_go_by_totals_and_a_match_where_nobody_paid_has_none() -> None:
    assert ranks([0, 0, 0, 0], []) == [None, None, None, None]
    assert ranks([0, 0, 0, 0], [{"deltas": [0, 0, 0, 0]}]) == [None, None, None, None]
    # paid and paid back: everyone is level, yet the match was played
    assert ranks([0, 0, 0, 0], [{"deltas": [3, -3, 0, 0]}, {"deltas": [-3, 3, 0, 0]}]) == [1, 1, 1, 1]
    assert ranks([-4, -4, -4, 12], []) == [2, 2, 2, 1]
    assert ranks([5, -10, 5, 0], [{"deltas": [5, -10, 5, 0]}]) == [1, 4, 1, 3]
