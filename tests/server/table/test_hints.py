"""Hints at the table: the best discards and the waits with what each would score, from the seat's
own view only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hupai.hand import shanten, waits
from hupai.server.table.hints import seat_hints
from hupai.tiles import parse_counts, parse_tiles

from ...helpers import table
from ...server_support import Message, connect, guest, new_room, play_socket, sqlite_server


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with sqlite_server(tmp_path) as test_client:
        yield test_client


@pytest.mark.parametrize("preset", ["nanjing", "nanning"])
def test_hints_name_real_waits_and_sound_discards(client: TestClient, preset: str) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset=preset, hands=4)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    checked = {"discards": 0, "waits": 0}

    def check(message: Message) -> None:
        hints = message.get("hints")
        if message["type"] != "update" or hints is None:
            return
        hand = parse_counts(message["view"]["hand"])
        assert hints["shanten"] == shanten(hand)
        for option in hints["discards"]:
            tile = parse_tiles(option["tile"])[0]
            assert hand[tile] > 0
            hand[tile] -= 1
            assert option["shanten"] == shanten(hand)
            hand[tile] += 1
            checked["discards"] += 1
        if hints.get("after_discard"):
            hand[parse_tiles(hints["after_discard"])[0]] -= 1
        for wait in hints["waits"]:
            tile = parse_tiles(wait["tile"])[0]
            assert tile in waits(hand) or wait["discard"] is not None  # a wait, or Nanjing 快照/三清
            assert 0 <= wait["left"] <= 4
            for gain in (wait["self_drawn"], wait["discard"]):
                assert gain is None or gain > 0
            checked["waits"] += 1

    with connect(client, number, host) as socket:
        socket.send_json({"type": "hints", "on": True})
        answered: set[int] = set()
        while True:  # a player who follows the hints: win when offered, else the first hinted discard
            message = socket.receive_json()
            check(message)
            if message["type"] == "match_end":
                break
            prompt = message.get("prompt")
            if message["type"] != "update" or prompt is None or prompt["seq"] in answered:
                continue
            answered.add(prompt["seq"])
            acts = {action["act"]: action for action in prompt["legal"]}
            hinted = (message.get("hints") or {}).get("discards") or []
            if "hu" in acts:
                action = {"act": "hu"}
            elif "discard" in acts and hinted:
                action = {"act": "discard", "tile": hinted[0]["tile"]}
            else:
                action = {key: value for key, value in prompt["legal"][-1].items() if key != "seat"}
            socket.send_json({"type": "act", "seq": prompt["seq"], "action": action})
    assert checked["discards"] > 20  # (whether this random deal reaches ready is chance: see below)


@pytest.mark.parametrize(
    ("preset", "hand", "pizi", "wanted"),
    [
        ("nanjing", "123m456p789s1122z3s", "", {"1z": 2, "2z": 2}),  # after letting 3s go
        ("enshi", "123m456p789s11s4m6m9p", "5m", None),  # a 赖子 (6m) helps the 4m: ready after 9p
    ],
)
def test_hints_on_a_ready_hand(preset: str, hand: str, pizi: str, wanted: dict[str, int] | None) -> None:
    state = table({0: hand}, preset=preset, pizi=pizi)
    hints = seat_hints(state, 0)
    assert hints["discards"][0]["shanten"] == 0
    waits = {wait["tile"]: wait for wait in hints["waits"]}
    assert waits, "a ready hand has waits"
    if wanted is not None:
        assert {tile: wait["left"] for tile, wait in waits.items()} == wanted
    for wait in waits.values():
        assert wait["self_drawn"] is None or wait["self_drawn"] > 0
    if pizi:
        assert all(option["tile"] != pizi for option in hints["discards"])  # a 痞子 is laid, not let go


def test_hints_are_off_unless_asked(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset="nanjing", hands=4)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    with connect(client, number, host) as socket:
        messages = play_socket(socket, seed=2, until="hand_end")
    assert not any("hints" in message for message in messages)
