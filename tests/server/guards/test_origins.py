"""Cross-site requests: only JSON changes from this server's own pages (or allowed origins), the
websocket only from them too, and Secure cookies whenever the player came over HTTPS."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from hupai.server.settings import ALLOWED_ORIGINS_ENV, TRUSTED_PROXY_ENV, Settings

from ...server_support import TEST_PROXY, guest, new_room, server, token_of, with_invite

OWN = "http://testserver"  # the TestClient's Host is "testserver"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'hupai.sqlite3'}"
    with server(url, allowed_origins=("https://friend.example",)) as test:
        yield test


def test_a_change_must_be_json(client: TestClient) -> None:
    host = guest(client, "房主")
    number = new_room(client, host)
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    text = {"Content-Type": "text/plain"}  # fetch's "simple" request, sent without a preflight
    for body, kind in ((b"ready=true", form), (b"{}", text), (b"", {})):
        response = client.post(f"/api/rooms/{number}/start", content=body, headers={**host, **kind})
        assert response.status_code == 415, kind
        assert response.json()["error"]["code"] == "unsupported_media_type"
    assert client.get(f"/api/rooms/{number}{with_invite(number)}").json()["status"] == "waiting"
    ok = client.post(f"/api/rooms/{number}/start", json={}, headers={**host, "Origin": OWN})
    assert ok.status_code == 200
    charset = {**host, "Content-Type": "application/json; charset=utf-8"}
    assert client.post("/api/logout", content="{}", headers=charset).status_code == 200


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "https://evil.example"}, {"Origin": "null"}, {"Referer": "https://evil.example/page"}],
)
def test_a_change_from_another_site_is_refused(client: TestClient, headers: dict[str, str]) -> None:
    host = guest(client, "房主")
    number = new_room(client, host)
    response = client.post(f"/api/rooms/{number}/leave", json={}, headers={**host, **headers})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden_origin"
    assert client.get(f"/api/rooms/{number}{with_invite(number)}").json()["status"] == "waiting"
    assert client.post("/api/logout", json={}, headers={**host, **headers}).status_code == 403
    assert client.get("/api/me", headers=host).status_code == 200


def test_own_and_allowed_origins_and_no_origin_pass(client: TestClient) -> None:
    for headers in ({"Origin": OWN}, {"Origin": "https://friend.example"}, {"Referer": f"{OWN}/#/lobby"}, {}):
        assert client.post("/api/guest", json={"name": "小明"}, headers=headers).status_code == 200, headers


def test_the_websocket_refuses_a_foreign_origin(client: TestClient) -> None:
    host = guest(client, "房主")
    number = new_room(client, host)
    url = f"/api/rooms/{number}/ws?token={token_of(host)}"
    with client.websocket_connect(url, headers={"Origin": "https://evil.example"}) as socket:
        refusal = socket.receive_json()
        assert refusal["code"] == "forbidden_origin"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4403
    for headers in ({"Origin": OWN}, {}):
        with client.websocket_connect(url, headers=headers) as socket:
            assert socket.receive_json()["type"] == "welcome"


def test_cookies_are_secure_over_https(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'hupai.sqlite3'}"
    with server(url) as plain, server(url) as tls:
        assert "secure" not in plain.post("/api/guest", json={"name": "a"}).headers["set-cookie"].lower()
        tls.base_url = "https://testserver"
        cookie = tls.post("/api/guest", json={"name": "b"}, headers={"Origin": "https://testserver"})
        assert "secure" in cookie.headers["set-cookie"].lower()
        forwarded = {"X-Forwarded-Proto": "https"}
        untrusted = plain.post("/api/guest", json={"name": "c"}, headers=forwarded)
        assert "secure" not in untrusted.headers["set-cookie"].lower()
    with server(url, trusted_proxy=TEST_PROXY) as proxied:
        trusted = proxied.post("/api/guest", json={"name": "d"}, headers=forwarded)
        assert "secure" in trusted.headers["set-cookie"].lower()


def test_allowed_origins_and_proxy_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ALLOWED_ORIGINS_ENV, " https://A.example/ , http://b.example:8080")
    monkeypatch.setenv(TRUSTED_PROXY_ENV, "1")
    settings = Settings.from_env(database_url="sqlite://")
    assert settings.allowed_origins == ("https://a.example", "http://b.example:8080")
    assert settings.trusted_proxy == ("127.0.0.1", "::1")  # "1": a proxy on this machine
