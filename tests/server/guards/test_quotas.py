"""Guests and rooms are not free for the taking: per-address quotas (429), a few waiting rooms per
player (409), and a cleanup that closes idle waiting rooms and deletes stale guests who never played."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

from hupai.server.storage.models import Result, Room, utcnow
from hupai.server.storage.store import Store

from ...server_support import TEST_PROXY, guest, invited, new_room, server, with_invite


def from_address(address: str, headers: dict[str, str] | None = None) -> dict[str, str]:
    return {"X-Forwarded-For": address, **(headers or {})}


def test_guests_per_address_are_limited(url: str) -> None:
    with server(url, guests_per_address_per_hour=3, trusted_proxy=TEST_PROXY) as client:
        for index in range(3):
            made = client.post("/api/guest", json={"name": f"g{index}"}, headers=from_address("10.2.0.1"))
            assert made.status_code == 200
        refused = client.post("/api/guest", json={"name": "g3"}, headers=from_address("10.2.0.1"))
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        assert 3000 < int(refused.headers["Retry-After"]) <= 3600
        assert (
            client.post("/api/guest", json={"name": "g4"}, headers=from_address("10.2.0.2")).status_code
            == 200
        )


def test_rooms_per_address_are_limited(url: str) -> None:
    with server(url, rooms_per_address_per_hour=2, trusted_proxy=TEST_PROXY) as client:
        host = guest(client, "房主")
        assert client.post("/api/rooms", json={}, headers=from_address("10.3.0.1", host)).status_code == 200
        assert client.post("/api/rooms", json={}, headers=from_address("10.3.0.1", host)).status_code == 200
        refused = client.post("/api/rooms", json={}, headers=from_address("10.3.0.1", host))
        assert refused.status_code == 429
        assert "Retry-After" in refused.headers


def test_a_player_has_a_few_waiting_rooms(url: str) -> None:
    with server(url, waiting_rooms_per_user=3) as client:
        host = guest(client, "房主")
        numbers = [new_room(client, host) for _ in range(3)]
        refused = client.post("/api/rooms", json={}, headers=host)
        assert refused.status_code == 409
        assert "3 rooms waiting" in refused.json()["error"]["message"]
        assert client.post(f"/api/rooms/{numbers[0]}/leave", json={}, headers=host).status_code == 200
        assert client.post("/api/rooms", json={}, headers=host).status_code == 200
        other = guest(client, "别人")
        assert client.post("/api/rooms", json={}, headers=other).status_code == 200


def test_idle_waiting_rooms_close_and_free_their_numbers(url: str) -> None:
    with server(url) as client:
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        host = guest(client, "房主")
        idle = new_room(client, host)
        busy = new_room(client, host)
        later = utcnow() + timedelta(hours=3)
        store.upkeep.cleanup(idle_room_hours=2, stale_guest_days=7, now=later - timedelta(hours=2))
        assert (
            client.get(f"/api/rooms/{idle}{with_invite(idle)}").json()["status"] == "waiting"
        )  # not idle yet
        with store.sessions.begin() as db:  # the busy room saw a change an hour before "later"
            room = db.get(Room, store.rooms.room_id(busy))
            assert room is not None
            room.active_at = later - timedelta(hours=1)
        done = store.upkeep.cleanup(idle_room_hours=2, stale_guest_days=7, now=later)
        assert done.rooms == [store.rooms.room_id(idle)]
        assert client.get(f"/api/rooms/{idle}{with_invite(idle)}").json()["status"] == "dissolved"
        assert client.get(f"/api/rooms/{busy}{with_invite(busy)}").json()["status"] == "waiting"
        sat = client.post(f"/api/rooms/{idle}/sit", json=invited(idle), headers=guest(client, "迟到"))
        assert sat.status_code == 409


def test_stale_guests_who_never_played_are_deleted(url: str) -> None:
    with server(url) as client:
        store: Store = client.app.state.store  # type: ignore[attr-defined]
        stale = guest(client, "走了")
        number = new_room(client, stale)
        played = guest(client, "打过")
        playing = guest(client, "在打")
        started = new_room(client, playing)
        client.post(f"/api/rooms/{started}/start", json={}, headers=playing)
        client.cookies.clear()  # a new account, not "在打" registering
        registered = client.post("/api/register", json={"name": "Alice", "password": "correct horse"})
        with store.sessions.begin() as db:
            played_id = client.get("/api/me", headers=played).json()["id"]
            room_id = store.rooms.room_id(started)
            db.add(Result(room_id=room_id, seat=1, user_id=played_id, name="打过", total=0, rank=1))
        client.cookies.clear()
        done = store.upkeep.cleanup(
            idle_room_hours=1000, stale_guest_days=7, now=utcnow() + timedelta(days=8)
        )
        assert done.guests == 1
        assert client.get("/api/me", headers=stale).status_code == 401
        assert (
            client.get(f"/api/rooms/{number}{with_invite(number)}").status_code == 404
        )  # its room went with it
        for kept in (played, playing, {"Authorization": f"Bearer {registered.json()['token']}"}):
            assert client.get("/api/me", headers=kept).status_code == 200
        fresh = store.upkeep.cleanup(
            idle_room_hours=1000, stale_guest_days=7, now=utcnow() + timedelta(days=1)
        )
        assert fresh.guests == 0


def test_the_server_cleans_up_by_itself(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'hupai.sqlite3'}"
    with server(url, idle_room_hours=0.0, cleanup_seconds=0.05) as client:
        host = guest(client, "房主")
        number = new_room(client, host)
        deadline = time.monotonic() + 10
        while client.get(f"/api/rooms/{number}{with_invite(number)}").json()["status"] == "waiting":
            assert time.monotonic() < deadline, "the cleanup did not run"
            time.sleep(0.05)
        assert client.get(f"/api/rooms/{number}{with_invite(number)}").json()["status"] == "dissolved"
