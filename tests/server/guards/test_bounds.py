"""What a hostile client cannot do over HTTP: send bodies past the size limit, numbers that are not
finite, JSON nested past the parser, house options out of range — each is refused with a clear
400/413/422, nothing is stored, and a refusal never echoes the input back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from hupai.server.storage.models import Room

from ...server_support import database, database_urls, guest, server

JSON = {"Content-Type": "application/json"}
SCORE = {"preset": "nanjing", "hand": "123m456m789m1p23s", "win_tile": "1p"}


@pytest.fixture(params=database_urls())
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, server(url) as test_client:
        yield test_client


def rooms_stored(client: TestClient) -> int:
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.sessions() as db:
        count: int = db.scalar(select(func.count()).select_from(Room))
        return count


def post_raw(client: TestClient, path: str, body: str | bytes, headers: dict[str, str]) -> Any:
    return client.post(path, content=body, headers={**JSON, **headers})


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("nanjing", '{"escape_penalty": 1e30}'),
        ("nanjing", '{"escape_penalty": 10001}'),
        ("nanning", '{"kong_points": 99999999999999999999999999999999}'),
        ("nanning", '{"kong_points": Infinity}'),
        ("nanning", '{"kong_points": -Infinity}'),
        ("nanning", '{"kong_points": NaN}'),
        ("nanning", '{"kong_points": 1e999}'),
    ],
)
def test_out_of_range_and_non_finite_options_are_refused_and_nothing_is_stored(
    client: TestClient, preset: str, options: str
) -> None:
    host = guest(client, "房主")
    body = f'{{"preset": "{preset}", "options": {options}}}'
    response = post_raw(client, "/api/rooms", body, host)
    assert response.status_code in (400, 422), response.text
    assert response.json()["error"]["message"]
    assert rooms_stored(client) == 0
    score = json.dumps({**SCORE, "preset": preset})[:-1] + f', "options": {options}}}'
    answer = post_raw(client, "/api/score", score, {})
    assert answer.status_code in (400, 422), answer.text
    assert "error" in answer.json()


def test_a_non_finite_number_anywhere_in_a_body_is_a_400_not_a_500(client: TestClient) -> None:
    host = guest(client, "房主")
    for body in ('{"hands": Infinity}', '{"decision_seconds": NaN}', '{"options": {"x": [1, -Infinity]}}'):
        response = post_raw(client, "/api/rooms", body, host)
        assert response.status_code == 400, response.text
        assert response.json()["error"]["code"] == "bad_json"
    assert rooms_stored(client) == 0


def test_a_huge_option_list_is_refused_before_it_is_read(client: TestClient) -> None:
    host = guest(client, "房主")
    options = {"yajue_source": ["x" * 20] * 100_000}  # about 2.4 MB
    body = json.dumps({"preset": "nanjing", "options": options})
    assert len(body) > 2_000_000
    response = post_raw(client, "/api/rooms", body, host)
    assert response.status_code == 413
    assert response.json()["error"] == {
        "code": "too_large",
        "message": "a request body is at most 65536 bytes",
    }
    assert rooms_stored(client) == 0
    assert post_raw(client, "/api/score", json.dumps({**SCORE, "options": options}), {}).status_code == 413


def test_a_streamed_body_is_counted_as_it_arrives(client: TestClient) -> None:
    host = guest(client, "房主")

    def chunks() -> Iterator[bytes]:  # no Content-Length: sent chunked
        yield b'{"preset": "nanjing", "options": {"x": "'
        for _ in range(100):
            yield b"y" * 4096
        yield b'"}}'

    response = client.post("/api/rooms", content=chunks(), headers={**JSON, **host})
    assert response.status_code == 413
    assert rooms_stored(client) == 0


def test_a_long_option_list_under_the_body_limit_is_refused_by_the_rules(client: TestClient) -> None:
    host = guest(client, "房主")
    options = {"yajue_source": ["own_pung"] * 1000}
    response = client.post("/api/rooms", json={"preset": "nanjing", "options": options}, headers=host)
    assert response.status_code == 400
    assert "at most 16" in response.json()["error"]["message"]
    assert rooms_stored(client) == 0


def test_deeply_nested_json_is_refused_with_400(client: TestClient) -> None:
    host = guest(client, "房主")
    body = '{"preset": "nanjing", "options": {"x": ' + "[" * 5000 + "]" * 5000 + "}}"
    response = post_raw(client, "/api/rooms", body, host)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_json"


def test_a_422_says_where_and_what_but_never_echoes_the_input(client: TestClient) -> None:
    marker = "<script>secret-" + "z" * 30_000
    response = client.post("/api/guest", json={"name": marker})
    assert response.status_code == 422
    assert "secret-" not in response.text
    assert len(response.content) < 2000
    (detail,) = response.json()["detail"]
    assert detail["loc"] == ["body", "name"]
    assert detail["msg"]
    assert set(detail) == {"loc", "msg", "type"}


def test_a_body_wrong_everywhere_lists_only_the_first_errors(client: TestClient) -> None:
    host = guest(client, "房主")
    response = client.post("/api/rooms", json={f"field{i}": i for i in range(500)}, headers=host)
    assert response.status_code == 422
    assert len(response.json()["detail"]) == 10


def test_a_malformed_content_length_is_refused(client: TestClient) -> None:
    response = client.post("/api/guest", content=b'{"name": "a"}', headers={**JSON, "Content-Length": "1e9"})
    assert response.status_code == 413


def test_the_rule_cards_give_each_whole_number_option_its_range(client: TestClient) -> None:
    cards = {card["preset"]: card for card in client.get("/api/rulesets").json()}
    nanjing = cards["nanjing"]["labels"]
    assert (nanjing["escape_penalty"]["min"], nanjing["escape_penalty"]["max"]) == (0, 1000)
    for card in cards.values():
        for name, value in card["options"].items():
            whole = isinstance(value, int) and not isinstance(value, bool)
            assert ("min" in card["labels"][name]) is whole or isinstance(value, list), name
            if whole:
                assert card["labels"][name]["min"] <= value <= card["labels"][name]["max"], name


def test_options_are_read_by_the_rules_of_the_cli_and_contradictions_refused(client: TestClient) -> None:
    host = guest(client, "房主")
    for preset, options, said in [
        ("enshi", {"cap": 0}, "options 'gold_cap' and 'cap' contradict"),
        ("nanning", {"fenghu": "off", "sishuang": "on"}, "options 'sishuang' and 'fenghu' contradict"),
        ("nanjing", {"yajue_source": "own_pung,own_pung"}, "names 'own_pung' twice"),
        ("nanjing", {"multi_ron": "maybe"}, "'multi_ron' is true or false"),
    ]:
        response = client.post("/api/rooms", json={"preset": preset, "options": options}, headers=host)
        assert response.status_code == 400, response.text
        assert said in response.json()["error"]["message"]
    assert rooms_stored(client) == 0
    options = {"yajue_source": "three_discarded, own_pung", "multi_ron": "OFF", "base": "40"}
    response = client.post("/api/rooms", json={"preset": "nanjing", "options": options}, headers=host)
    assert response.status_code == 200, response.text
    # Stored as read, not as written: the same card whatever spelling the host used.
    assert response.json()["rules"]["changed"] == {
        "yajue_source": ["own_pung", "three_discarded"],
        "multi_ron": False,
        "base": 40,
    }
