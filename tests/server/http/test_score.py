"""POST /api/score: the score calculator over HTTP (the browser's 算分器)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ...server_support import sqlite_server

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


NN_SELF_DRAWN = {"preset": "nanning", "hand": "123m456p789s1122z", "win_tile": "2z", "how": "self_drawn"}


@pytest.mark.parametrize(
    ("body", "field", "code", "params"),
    [
        ({**NJ_01, "hand": "123m"}, "hand", "tile_count", {"given": 3, "expected": 13, "melds": 0}),
        ({**NJ_01, "hand": "123x"}, "hand", "notation", {}),
        ({**NJ_01, "win_tile": "9z"}, "win_tile", "notation", {}),
        ({**NN_SELF_DRAWN, "win_tile": "1f"}, "win_tile", "not_in_rules", {"tile": "1f"}),
        ({**NJ_01, "win_tile": "7m8m"}, "win_tile", "one_tile", {}),
        ({**NJ_01, "win_tile": ""}, "win_tile", "missing", {}),
        ({**NJ_01, "win_tile": "1f"}, "win_tile", "flower_elsewhere", {"tile": "1f"}),
        (
            {**NJ_01, "hand": "1111m234m789m1z56m", "win_tile": "1m"},
            None,
            "copies",
            {"tile": "1m", "count": 5, "most": 4},
        ),
        ({**NJ_01, "how": "discard"}, "from", "from_seat", {}),
        ({**NJ_01, "how": "kong_replacement"}, "melds", "needs_kong", {}),
        ({**NJ_01, "preset": "nowhere"}, "preset", "rules", {}),
        ({**NJ_01, "options": {"base": "lots"}}, "options", "rules", {}),
        ({**NN_SELF_DRAWN, "flowers": "1f"}, "flowers", "no_flowers", {}),
        (
            {**NN_SELF_DRAWN, "options": {"moma": 2}},
            "code_tiles",
            "extras_count",
            {"given": 0, "expected": 2},
        ),
        ({**NN_SELF_DRAWN, "code_tiles": "1m"}, "code_tiles", "no_extras", {}),
        ({"preset": "enshi", "hand": "123m456p789s1122s", "win_tile": "2s"}, "pizi", "missing", {}),
        ({**NJ_01, "dealer": 0, "ready": True}, "ready", "ready_dealer", {}),
        ({**NJ_01, "tiles_left": 3, "haidi": True}, "tiles_left", "invalid", {}),
    ],
)
def test_a_refusal_names_its_field_and_a_code(
    client: TestClient, body: dict[str, object], field: str | None, code: str, params: dict[str, object]
) -> None:
    """The browser explains a refusal in its player's language from ``field`` and ``code``."""
    response = client.post("/api/score", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["field"], error["code"], error["params"]) == (field, code, params)
    assert error["message"]  # the English sentence is still there for programs and logs
    inline = client.post("/api/score?refusals=inline", json=body)  # the page's calculator asks so
    assert inline.status_code == 200 and inline.json() == response.json()


def test_a_nanning_win_with_code_tiles_is_scored(client: TestClient) -> None:
    answer = client.post("/api/score", json={**NN_SELF_DRAWN, "options": {"moma": 2}, "code_tiles": "1m5m"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["allowed"]
    assert "moma" in {item["key"] for item in answer.json()["sheet"]["items"]}
