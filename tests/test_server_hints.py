"""Hints at the table: the best discards and the waits with what each would score, from the seat's
own view only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hupai.hand import shanten, waits
from hupai.tiles import parse_counts, parse_tiles

from .server_support import Message, connect, guest, new_room, play_socket, sqlite_server


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with sqlite_server(tmp_path) as test_client:
        yield test_client


@pytest.mark.parametrize("preset", ["nanjing", "nanning"])
def test_hints_name_real_waits_and_sound_discards(client: TestClient, preset: str) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset=preset, hands=4)
    client.post(f"/api/rooms/{number}/start", headers=host)
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
    assert checked["discards"] > 20
    assert checked["waits"] > 0


def test_hints_are_off_unless_asked(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset="nanjing", hands=4)
    client.post(f"/api/rooms/{number}/start", headers=host)
    with connect(client, number, host) as socket:
        messages = play_socket(socket, seed=2, until="hand_end")
    assert not any("hints" in message for message in messages)
