"""Room numbers cannot be scanned (issue 33): every lookup of a room by number — the room, its
invitation, its QR code — counts against the asker's address, a number that is no room five times,
and beyond the limit comes 429 with Retry-After. The QR code is drawn once per link."""

from __future__ import annotations

from pathlib import Path

from hupai.server.http.deps import FAILED_LOOKUP_WEIGHT
from hupai.server.http.invitations import qr_svg

from ...server_support import TEST_PROXY, guest, new_room, server

LIMIT = 10


def test_lookups_are_counted_and_failed_ones_count_more(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'l.sqlite3'}"
    with server(url, room_lookups_per_address_per_minute=LIMIT, trusted_proxy=TEST_PROXY) as client:
        number = new_room(client, guest(client, "房主"), preset="nanjing")
        honest = {"X-Forwarded-For": "10.0.0.1"}
        paths = [f"/api/rooms/{number}", f"/api/rooms/{number}/invite", f"/api/rooms/{number}/qr.svg"]
        answers = [client.get(paths[index % 3], headers=honest).status_code for index in range(LIMIT)]
        assert answers == [200] * LIMIT
        refused = client.get(paths[0], headers=honest)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0

        scanner = {"X-Forwarded-For": "10.0.0.2"}
        misses = LIMIT // FAILED_LOOKUP_WEIGHT
        tried = [
            client.get(f"/api/rooms/{100000 + guess}", headers=scanner).status_code for guess in range(misses)
        ]
        assert tried == [404] * misses
        assert client.get(paths[0], headers=scanner).status_code == 429  # out after two wrong numbers
        assert client.get(paths[0], headers={"X-Forwarded-For": "10.0.0.3"}).status_code == 200


def test_the_qr_code_is_drawn_once_per_link(tmp_path: Path) -> None:
    with server(f"sqlite:///{tmp_path / 'q.sqlite3'}") as client:
        number = new_room(client, guest(client, "房主"), preset="nanjing")
        first = client.get(f"/api/rooms/{number}/qr.svg")
        drawn = qr_svg.cache_info()
        again = client.get(f"/api/rooms/{number}/qr.svg")
        assert first.content == again.content and first.content.startswith(b"<svg")
        assert qr_svg.cache_info().hits == drawn.hits + 1 and qr_svg.cache_info().misses == drawn.misses
