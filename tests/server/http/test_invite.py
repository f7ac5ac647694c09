"""The room's invitation and its QR code: the link is the server's public address when it has one,
else built from the address the page came from — never from a URL the caller names — and a server on
loopback only says friends on other devices cannot open it (issue 32)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hupai.server.http.invitations import qr_svg
from hupai.server.settings import Settings

from ...server_support import INVITES, guest, new_room, sqlite_server


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with sqlite_server(tmp_path) as test_client:
        yield test_client


def test_the_qr_code_draws_the_join_link_of_the_host_asked(client: TestClient) -> None:
    number = new_room(client, guest(client, "小明"))
    response = client.get(f"/api/rooms/{number}/qr.svg")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")
    token = INVITES[number]
    assert response.content == qr_svg(f"http://testserver/#/join/{number}/{token}")
    other = client.get(f"/api/rooms/{number}/qr.svg", headers={"host": "mahjong.example:8443"})
    assert other.content == qr_svg(f"http://mahjong.example:8443/#/join/{number}/{token}")
    assert len(other.content) < 20_000


@pytest.mark.parametrize(
    "host", ["evil.example/phish?x=", "a b", "x" * 101, "<svg>", "example.com:99999999", ""]
)
def test_a_host_that_is_not_a_plain_address_is_refused(client: TestClient, host: str) -> None:
    number = new_room(client, guest(client, "小明"))
    response = client.get(f"/api/rooms/{number}/qr.svg", headers={"host": host})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


def test_no_qr_code_for_a_room_that_does_not_exist(client: TestClient) -> None:
    assert client.get("/api/rooms/000000/qr.svg").status_code == 401  # for a room's players only
    number = new_room(client, guest(client, "小明"))
    assert client.get("/api/rooms/000000/qr.svg").status_code == 404
    assert client.get("/api/rooms/12ab/qr.svg").status_code in (400, 404)
    # the query cannot choose the link either
    chosen = client.get(f"/api/rooms/{number}/qr.svg?url=https://evil.example/")
    assert chosen.content == qr_svg(f"http://testserver/#/join/{number}/{INVITES[number]}")


def test_an_invitation_uses_the_public_address_when_there_is_one(tmp_path: Path) -> None:
    """Behind a proxy or a name, the invitation (its link and its QR code) carries the public address,
    whatever host the page was opened at; and it can reach a friend's device."""
    with sqlite_server(tmp_path, public_url="https://mahjong.example.com") as client:
        number = new_room(client, guest(client, "小明"))
        invite = client.get(f"/api/rooms/{number}/invite").json()
        link = f"https://mahjong.example.com/#/join/{number}/{INVITES[number]}"
        assert invite == {"link": link, "reachable": True}
        qr = client.get(f"/api/rooms/{number}/qr.svg", headers={"host": "127.0.0.1:8000"})
        assert qr.content == qr_svg(invite["link"])


def test_an_invitation_from_a_server_on_loopback_says_it_cannot_reach_friends(client: TestClient) -> None:
    number = new_room(client, guest(client, "小明"))
    invite = client.get(f"/api/rooms/{number}/invite").json()
    assert invite == {"link": f"http://testserver/#/join/{number}/{INVITES[number]}", "reachable": False}
    assert client.get("/api/rooms/999999/invite").status_code == 404


def test_a_public_address_with_more_than_scheme_host_and_port_is_refused() -> None:
    for wrong in ("mahjong.example.com", "https://mahjong.example.com/room", "ftp://x", "https://a b"):
        with pytest.raises(ValueError, match="public URL"):
            Settings(database_url="sqlite://", public_url=wrong)
    assert Settings(database_url="sqlite://", listen_host="0.0.0.0").reachable_by_friends
