"""POST /api/score: the score calculator over HTTP (the browser's 算分器)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from .server_support import sqlite_server

NJ_01 = {"preset": "nanjing", "hand": "123m234m789m11z56m", "win_tile": "7m", "flowers": "6z7z7z1f"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with sqlite_server(tmp_path) as test_client:
        yield test_client


def test_a_described_win_is_scored_and_paid(client: TestClient) -> None:
    answer = client.post("/api/score", json=NJ_01).json()  # NJ-01: 20 + 8 + 40 + 20, self-drawn
    assert answer["allowed"] and answer["share"] == 88 and answer["total"] == 264
    assert answer["deltas"] == [264, -88, -88, -88]
    assert {item["zh"] for item in answer["sheet"]["items"]} == {"跑20", "硬花", "混一色", "门清"}
    doubled = client.post("/api/score", json={**NJ_01, "multiplier": 2}).json()
    assert doubled["total"] == 528
    on_discard = client.post("/api/score", json={**NJ_01, "how": "discard", "from": 2}).json()
    assert [(t["from"], t["to"], t["reason"]) for t in on_discard["transfers"]] == [(2, 0, "win_discard")]


def test_a_win_the_rules_refuse_comes_back_with_the_reason(client: TestClient) -> None:
    small = {
        "preset": "nanjing",
        "hand": "23m678p789s11s",
        "win_tile": "4m",
        "how": "discard",
        "from": 1,
        "melds": [{"kind": "pung", "tile": "5p", "from": 2}],
        "flowers": "1f2f",
    }
    answer = client.post("/api/score", json=small).json()
    assert not answer["allowed"] and "小胡需门清或4个硬花" in answer["reason"]
    assert answer["deltas"] == [0, 0, 0, 0]
    house = client.post("/api/score", json={**small, "options": {"small_hand_hard_flowers": 2}}).json()
    assert house["allowed"]  # a house rule of two hard flowers lets it win


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({**NJ_01, "hand": "123m"}, 400, "hand"),
        ({**NJ_01, "win_tile": "9z"}, 400, "win_tile"),
        ({**NJ_01, "preset": "nowhere"}, 400, "nowhere"),
        ({**NJ_01, "how": "magic"}, 400, "magic"),
        ({**NJ_01, "seat": 7}, 422, "seat"),
        ({**NJ_01, "surprise": 1}, 422, "surprise"),
    ],
)
def test_impossible_descriptions_are_refused_in_a_sentence(
    client: TestClient, body: dict[str, object], status: int, says: str
) -> None:
    response = client.post("/api/score", json=body)
    assert response.status_code == status
    assert says in response.text
