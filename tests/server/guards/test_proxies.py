"""Whom the server believes about a client's address and which names it answers to (issue 33):
X-Forwarded-For counts only from the proxies the settings name — and then only its last hop that
is not one of them, never what the client wrote before it — so quotas per address cannot be dodged
from behind a forwarder on the same machine; and a request to a name the server does not answer to
(DNS rebinding) is refused, by default on a server that listens on loopback only."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

import pytest

from hupai.server.settings import TRUSTED_PROXY_ENV, Settings, default_allowed_hosts

from ...server_support import free_port, running_server, server


def request(port: int, path: str, *, body: dict[str, Any] | None = None, **headers: str) -> tuple[int, Any]:
    """A request to a real server with exactly these headers (``Host`` among them when given)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    sent = {
        "Content-Type": "application/json",
        **{name.replace("_", "-"): value for name, value in headers.items()},
    }
    connection.request("POST" if body is not None else "GET", path, json.dumps(body) if body else None, sent)
    response = connection.getresponse()
    answer = (response.status, json.loads(response.read() or b"null"))
    connection.close()
    return answer


def upgrade(port: int, host: str) -> int:
    """The status a websocket handshake to a (missing) room's socket gets when sent to ``host``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(
        "GET",
        "/api/rooms/123456/ws",
        headers={
            "Host": host,
            "Connection": "Upgrade",
            "Upgrade": "websocket",
            "Sec-WebSocket-Version": "13",
            "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        },
    )
    status = connection.getresponse().status
    connection.close()
    return status


def guests(port: int, addresses: list[str]) -> list[int]:
    """The status of one guest account asked for per X-Forwarded-For value."""
    return [
        request(port, "/api/guest", body={"name": f"客{index}"}, X_Forwarded_For=address)[0]
        for index, address in enumerate(addresses)
    ]


def test_forwarded_for_from_a_peer_nobody_named_changes_nothing(tmp_path: Path) -> None:
    port = free_port()
    with running_server(f"sqlite:///{tmp_path / 'p.sqlite3'}", port, guests_per_address_per_hour=3):
        # Each request claims another address: all are this machine's, so the fourth is refused.
        assert guests(port, ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"]) == [200, 200, 200, 429]


def test_a_named_proxy_is_believed_for_its_last_hop_only(tmp_path: Path) -> None:
    port = free_port()
    url = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    with running_server(url, port, guests_per_address_per_hour=2, trusted_proxy=["127.0.0.1"]):
        assert guests(port, ["10.0.0.1", "10.0.0.1", "10.0.0.1"]) == [200, 200, 429]
        assert guests(port, ["10.0.0.2"]) == [200]  # another client behind the proxy has its own quota
        # Whatever a client writes before the proxy's entry is not its address.
        assert guests(port, ["10.0.0.9, 10.0.0.1", "10.0.0.7, 10.0.0.2"]) == [429, 200]


def test_trusted_proxies_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TRUSTED_PROXY_ENV, " 10.0.0.0/8, 192.168.1.1 ")
    assert Settings.from_env(database_url="sqlite://").trusted_proxy == ("10.0.0.0/8", "192.168.1.1")
    for off in ("", "0", "off"):
        monkeypatch.setenv(TRUSTED_PROXY_ENV, off)
        assert Settings.from_env(database_url="sqlite://").trusted_proxy == ()
    monkeypatch.setenv(TRUSTED_PROXY_ENV, "the proxy")
    with pytest.raises(ValueError, match=TRUSTED_PROXY_ENV):
        Settings.from_env(database_url="sqlite://")


def test_a_loopback_server_answers_only_to_its_own_names(tmp_path: Path) -> None:
    port = free_port()
    with running_server(f"sqlite:///{tmp_path / 'h.sqlite3'}", port):
        assert request(port, "/api/health", Host=f"127.0.0.1:{port}")[0] == 200
        assert request(port, "/api/health", Host=f"localhost:{port}")[0] == 200
        status, body = request(port, "/api/health", Host=f"rebind.attacker.example:{port}")
        assert status == 400 and body["error"]["code"] == "bad_host"
        assert upgrade(port, "evil.example") == 403  # the table's socket too: refused before the handshake
        assert upgrade(port, f"127.0.0.1:{port}") != 403


def test_allowed_hosts_come_from_the_public_address(tmp_path: Path) -> None:
    assert default_allowed_hosts("0.0.0.0", "https://mahjong.example.com") == (
        "mahjong.example.com",
        "localhost",
        "127.0.0.1",
        "::1",
    )
    assert default_allowed_hosts("127.0.0.1", None) == ("localhost", "127.0.0.1", "::1")
    assert default_allowed_hosts("0.0.0.0", None) == ()  # every interface, no name given: any
    with server(f"sqlite:///{tmp_path / 'a.sqlite3'}", allowed_hosts=("mahjong.example.com",)) as client:
        assert client.get("/api/health", headers={"Host": "mahjong.example.com"}).status_code == 200
        refused = client.get("/api/health", headers={"Host": "other.example"})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_host"
