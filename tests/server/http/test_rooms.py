"""Accounts and rooms over HTTP: guests, registration, the rule card, seats, bots, ready, start."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ...server_support import database, database_urls, guest, invited, new_room, server, with_invite


@pytest.fixture(params=database_urls())
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, server(url) as test_client:
        yield test_client


def error_of(response: object) -> str:
    body = response.json()  # type: ignore[attr-defined]
    return str(body["error"]["message"] if "error" in body else body["detail"])


def test_guest_in_one_click_sets_a_private_cookie(client: TestClient) -> None:
    response = client.post("/api/guest", json={"name": "小明"})
    assert response.status_code == 200
    assert response.json()["user"] == {"id": 1, "name": "小明", "guest": True, "avatar": None}
    cookie = response.headers["set-cookie"]
    assert "hupai_session=" in cookie
    assert "HttpOnly" in cookie
    assert "samesite=lax" in cookie.lower()
    assert client.get("/api/me").json()["name"] == "小明"


def test_bad_names_are_refused_with_a_reason(client: TestClient) -> None:
    for name in ["", "x" * 17, "<script>"]:
        response = client.post("/api/guest", json={"name": name})
        assert response.status_code == 422, name
    assert client.post("/api/guest", json={"name": "ok", "admin": True}).status_code == 422


def test_register_login_logout(client: TestClient) -> None:
    response = client.post("/api/register", json={"name": "Alice", "password": "correct horse"})
    assert response.status_code == 200
    assert response.json()["user"]["guest"] is False
    assert client.post("/api/logout", json={}).json() == {"ok": True}
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/session").json() == {"user": None}  # the page's first question, never a 401
    wrong = client.post("/api/login", json={"name": "alice", "password": "wrong horse"})
    assert wrong.status_code == 401
    assert error_of(wrong) == "wrong name or password"
    right = client.post("/api/login", json={"name": "alice", "password": "correct horse"})
    assert right.status_code == 200
    assert client.get("/api/me").json()["name"] == "Alice"
    assert client.get("/api/session").json()["user"]["name"] == "Alice"


def test_names_of_registered_players_are_unique_and_passwords_hashed(client: TestClient) -> None:
    assert client.post("/api/register", json={"name": "Bob", "password": "12345678"}).status_code == 200
    taken = client.post("/api/register", json={"name": "BOB", "password": "87654321"})
    assert taken.status_code == 409
    assert "taken" in error_of(taken)
    assert client.post("/api/register", json={"name": "Carol", "password": "short"}).status_code == 422
    store = client.app.state.store  # type: ignore[attr-defined]
    from sqlalchemy import select

    from hupai.server.storage.models import User

    with store.sessions() as db:
        hashes = list(db.scalars(select(User.password_hash).where(User.login == "bob")))
    assert hashes[0].startswith("$argon2id$")


def test_a_guest_who_registers_keeps_their_games(client: TestClient) -> None:
    headers = guest(client, "路人")
    number = new_room(client, headers)
    response = client.post("/api/register", json={"name": "Dave", "password": "secret123"}, headers=headers)
    assert response.status_code == 200
    assert response.json()["user"]["id"] == 1
    history = client.get("/api/me/history").json()
    assert [entry["number"] for entry in history] == [number]


def test_the_rule_card_is_shown_before_anyone_sits(client: TestClient) -> None:
    cards = {card["preset"]: card for card in client.get("/api/rulesets").json()}
    assert {"nanjing", "nanning"} <= set(cards)
    host = guest(client, "房主")
    number = new_room(client, host, preset="nanning", options={"moma": 2}, hands=4, decision_seconds=20)
    assert len(number) == 6
    assert number.isdigit()
    room = client.get(f"/api/rooms/{number}{with_invite(number)}").json()  # anyone invited
    assert room["rules"]["ruleset"] == "nanning"
    assert room["rules"]["changed"] == {"moma": 2}
    assert room["rules"]["options"]["moma"] == 2
    assert room["rules"]["zh"]
    assert room["hands"] == 4
    assert room["decision_seconds"] == 20
    assert [seat["user_id"] for seat in room["seats"]] == [1, None, None, None]


def test_bad_rule_cards_are_refused_with_the_reason(client: TestClient) -> None:
    host = guest(client, "房主")
    unknown = client.post("/api/rooms", json={"preset": "beijing"}, headers=host)
    assert unknown.status_code == 400
    assert "unknown rule set" in error_of(unknown)
    option = client.post("/api/rooms", json={"preset": "nanjing", "options": {"nope": 1}}, headers=host)
    assert option.status_code == 400
    assert "nope" in error_of(option)
    assert client.post("/api/rooms", json={"hands": 5}, headers=host).status_code == 422
    assert client.post("/api/rooms", json={"decision_seconds": 1}, headers=host).status_code == 422
    assert client.post("/api/rooms", json={}).status_code in (401, 200)  # the cookie of the last login
    client.cookies.clear()
    assert client.post("/api/rooms", json={}).status_code == 401


def test_join_by_number_bots_ready_and_start(client: TestClient) -> None:
    host = guest(client, "房主")
    friend = guest(client, "朋友")
    number = new_room(client, host, hands=4)
    assert client.post("/api/rooms/999999/sit", json=invited(number), headers=friend).status_code == 404
    joined = client.post(
        f"/api/rooms/{number}/sit", json={"seat": 2, **invited(number)}, headers=friend
    ).json()
    assert joined["seats"][2]["name"] == "朋友"
    taken = client.post(
        f"/api/rooms/{number}/sit", json={"seat": 2, **invited(number)}, headers=guest(client, "third")
    )
    assert taken.status_code == 409
    not_host = client.post(f"/api/rooms/{number}/bots", json={"level": "strong"}, headers=friend)
    assert not_host.status_code == 403
    assert "host" in error_of(not_host)
    with_bot = client.post(f"/api/rooms/{number}/bots", json={"seat": 1, "level": "efficiency"}, headers=host)
    assert with_bot.json()["seats"][1]["bot"] == "efficiency"
    unready = client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    assert unready.status_code == 409
    assert "ready" in error_of(unready)
    client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=friend)
    started = client.post(f"/api/rooms/{number}/start", json={}, headers=host).json()
    assert started["status"] == "playing"
    assert started["seats"][3]["bot"] == "strong"  # the room's level fills the empty seat
    late = client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=guest(client, "late"))
    assert late.status_code == 409
    assert "started" in error_of(late)


def test_the_host_removes_a_player_before_the_start(client: TestClient) -> None:
    host = guest(client, "房主")
    friend = guest(client, "朋友")
    number = new_room(client, host)
    client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=friend)
    assert client.post(f"/api/rooms/{number}/remove", json={"seat": 1}, headers=friend).status_code == 403
    room = client.post(f"/api/rooms/{number}/remove", json={"seat": 1}, headers=host).json()
    assert room["seats"][1]["user_id"] is None
    assert client.post(f"/api/rooms/{number}/remove", json={"seat": 0}, headers=host).status_code == 400


def test_leaving_before_the_start(client: TestClient) -> None:
    host = guest(client, "房主")
    friend = guest(client, "朋友")
    number = new_room(client, host)
    client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=friend)
    left = client.post(f"/api/rooms/{number}/leave", json={}, headers=friend).json()
    assert left["seats"][1]["user_id"] is None
    assert client.post(f"/api/rooms/{number}/leave", json={}, headers=host).json()["status"] == "dissolved"
    assert client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=friend).status_code == 409


def test_history_and_records_need_finished_hands(client: TestClient) -> None:
    host = guest(client, "房主")
    number = new_room(client, host)
    missing = client.get(f"/api/rooms/{number}/hands/0/record{with_invite(number)}")
    assert missing.status_code == 404
    assert "not finished" in error_of(missing)
    assert client.get(f"/api/rooms/{number}/record{with_invite(number)}").status_code == 404
    assert client.get("/api/me/history", headers=host).json()[0]["status"] == "waiting"
