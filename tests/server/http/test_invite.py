"""The room's invitation QR code: the link is built from the address the page came from, never from
a URL the caller names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hupai.server.http.site import qr_svg

from ...server_support import guest, new_room, sqlite_server


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
    assert response.content == qr_svg(f"http://testserver/#/join/{number}")
    other = client.get(f"/api/rooms/{number}/qr.svg", headers={"host": "mahjong.example:8443"})
    assert other.content == qr_svg(f"http://mahjong.example:8443/#/join/{number}")
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
    assert client.get("/api/rooms/000000/qr.svg").status_code == 404
    assert client.get("/api/rooms/12ab/qr.svg").status_code in (400, 404)
    # the query cannot choose the link either
    number = new_room(client, guest(client, "小明"))
    chosen = client.get(f"/api/rooms/{number}/qr.svg?url=https://evil.example/")
    assert chosen.content == qr_svg(f"http://testserver/#/join/{number}")
