"""Session tokens: never in the logs, a new one on registering (the guest's old ones end), and
logging out of this session or of every session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect as ws_connect

from ...server_support import (
    INVITES,
    call,
    database,
    database_urls,
    free_port,
    guest,
    opened,
    running_server,
    server,
    token_of,
)


@pytest.fixture(params=database_urls())
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, server(url) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_registering_issues_a_fresh_token_and_ends_the_guests(client: TestClient) -> None:
    old = guest(client, "小明")
    other = guest(client, "小红")  # another guest's session: untouched
    response = client.post("/api/register", json={"name": "小明", "password": "correct horse"}, headers=old)
    assert response.status_code == 200, response.text
    fresh = response.json()["token"]
    assert fresh != token_of(old)
    client.cookies.clear()
    assert client.get("/api/me", headers=old).status_code == 401
    me = client.get("/api/me", headers=bearer(fresh)).json()
    assert me["guest"] is False
    assert client.get("/api/me", headers=other).status_code == 200


def test_logout_ends_this_session_or_every_session(client: TestClient) -> None:
    client.post("/api/register", json={"name": "Alice", "password": "correct horse"})
    client.cookies.clear()
    tokens = [
        client.post("/api/login", json={"name": "Alice", "password": "correct horse"}).json()["token"]
        for _ in range(3)
    ]
    client.cookies.clear()
    assert client.post("/api/logout", json={}, headers=bearer(tokens[0])).status_code == 200
    assert client.get("/api/me", headers=bearer(tokens[0])).status_code == 401
    assert client.get("/api/me", headers=bearer(tokens[1])).status_code == 200
    everywhere = client.post("/api/logout", json={"everywhere": True}, headers=bearer(tokens[1]))
    assert everywhere.json() == {"ok": True}
    for token in tokens:
        assert client.get("/api/me", headers=bearer(token)).status_code == 401
    assert client.post("/api/logout", json={"everywhere": "yes please"}).status_code == 422


def test_websocket_tokens_stay_out_of_the_log(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    port = free_port()
    with running_server(f"sqlite:///{tmp_path / 'hupai.sqlite3'}", port, log=log, log_level="info"):
        token = call(port, "/api/guest", {"name": "房主"})["token"]
        number = opened(call(port, "/api/rooms", {}, token))
        invite = INVITES[number]
        query = f"token={token}&invite={invite}"
        with ws_connect(f"ws://127.0.0.1:{port}/api/rooms/{number}/ws?{query}") as socket:
            socket.recv(timeout=10)
        call(port, f"/api/rooms/{number}?token={token}&invite={invite}")
    text = log.read_text(encoding="utf-8", errors="replace")
    assert f"/api/rooms/{number}/ws" in text  # the handshake is logged ...
    assert "token=[redacted]" in text
    assert "invite=[redacted]" in text
    assert token not in text and invite not in text  # ... without the token or the invitation
