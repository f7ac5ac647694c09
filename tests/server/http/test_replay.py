"""Replays of finished hands: one frame per recorded action, every hand open, ending in the stored
settlement; a hand in play is never served."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hupai.game.record import read_record
from hupai.tiles import parse_tiles

from ...server_support import connect, guest, new_room, play_socket, sqlite_server, with_invite


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with sqlite_server(tmp_path) as test_client:
        yield test_client


@pytest.mark.parametrize("preset", ["nanjing", "nanning"])
def test_a_finished_hand_replays_frame_by_frame(client: TestClient, preset: str) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset=preset, hands=4)
    assert client.post(f"/api/rooms/{number}/start", json={}, headers=host).status_code == 200
    with connect(client, number, host) as socket:
        before = client.get(f"/api/rooms/{number}/hands/0/replay{with_invite(number)}")
        assert before.status_code == 404  # nothing of a hand in play
        ended = play_socket(socket, seed=3, until="hand_end")[-1]

    replay = client.get(f"/api/rooms/{number}/hands/0/replay{with_invite(number)}").json()
    record = read_record(client.get(f"/api/rooms/{number}/hands/0/record{with_invite(number)}").json())
    frames = replay["frames"]
    assert replay["seats"] == list(record.seats)
    # Bots by level, for the page to name them in its reader's language; people by their 头像.
    assert replay["bot_levels"] == [None, "strong", "strong", "strong"]
    assert replay["avatars"] == [None, None, None, None]
    assert frames[0]["action"] is None
    assert frames[0]["events"][0]["event"] == "hand_started"
    acted = [frame["action"] for frame in frames if frame["action"] is not None]
    assert len(acted) == len(record.hands[0].actions)
    for frame in frames:  # all four hands are open in every frame
        assert [len(parse_tiles(hand)) for hand in frame["view"]["hands"]] == [
            seat["concealed_count"] for seat in frame["view"]["seats"]
        ]
        assert "options" not in frame["view"]
    last = frames[-1]["view"]
    assert last["phase"] == "ended"
    assert last["deltas"] == ended["result"]["deltas"] == replay["result"]["deltas"]
    deal = [event for event in frames[0]["events"] if event["event"] == "tiles_dealt"]
    dealt = sum(len(parse_tiles(event["tiles"])) for event in deal)
    assert dealt == 53  # the deal itself, open
