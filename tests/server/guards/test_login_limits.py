"""Logging in cannot be used to stop the server or to find out who has an account: attempts are
limited per address and per name (429 with Retry-After), hashing runs a few at a time off the event
loop, and an unknown name costs the same hash as a known one."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from hupai.server.guards.limits import RateLimiter
from hupai.server.storage import accounts as store_module

from ...server_support import TEST_PROXY, server

PASSWORD = "correct horse"


class SpyHasher:
    """The store's argon2 hasher, telling ``seen`` of every hash it verifies against."""

    def __init__(self, real: PasswordHasher, seen: Callable[[str], object]) -> None:
        self.real = real
        self.seen = seen

    def verify(self, stored: str, password: str) -> bool:
        self.seen(stored)
        return self.real.verify(stored, password)

    def hash(self, password: str) -> str:
        return self.real.hash(password)

    def check_needs_rehash(self, stored: str) -> bool:
        return self.real.check_needs_rehash(stored)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'hupai.sqlite3'}"
    with server(
        url, login_attempts_per_address=4, login_attempts_per_name=2, trusted_proxy=TEST_PROXY
    ) as test:
        yield test


def login(client: TestClient, name: str, password: str, address: str = "10.0.0.1") -> int:
    headers = {"X-Forwarded-For": address}
    return client.post("/api/login", json={"name": name, "password": password}, headers=headers).status_code


def test_attempts_per_address_are_limited(client: TestClient) -> None:
    assert [login(client, f"n{index}", "wrong password") for index in range(4)] == [401] * 4
    refused = client.post(
        "/api/login", json={"name": "x", "password": "y"}, headers={"X-Forwarded-For": "10.0.0.1"}
    )
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    register = client.post(
        "/api/register", json={"name": "新人", "password": PASSWORD}, headers={"X-Forwarded-For": "10.0.0.1"}
    )
    assert register.status_code == 429  # registering hashes too
    assert login(client, "x", "wrong password", address="10.0.0.2") == 401  # another address is not held


def test_wrong_passwords_per_name_are_limited(client: TestClient) -> None:
    assert client.post("/api/register", json={"name": "Alice", "password": PASSWORD}).status_code == 200
    assert login(client, "alice", "wrong 1", "10.0.1.1") == 401
    assert login(client, "ALICE", "wrong 2", "10.0.1.2") == 401
    assert login(client, "alice", PASSWORD, "10.0.1.3") == 429  # from any address
    assert login(client, "bob", "wrong", "10.0.1.3") == 401


def test_an_unknown_name_costs_one_hash_like_a_known_one(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.post("/api/register", json={"name": "Alice", "password": PASSWORD})
    calls: list[str] = []
    monkeypatch.setattr(store_module, "_hasher", SpyHasher(store_module._hasher, calls.append))
    assert login(client, "alice", "wrong password", "10.0.2.1") == 401
    assert login(client, "nobody", "wrong password", "10.0.2.2") == 401
    assert len(calls) == 2
    assert all(stored.startswith("$argon2id$") for stored in calls)
    message = client.post("/api/login", json={"name": "nobody", "password": "x"}).json()
    assert message["error"]["message"] == "wrong name or password"  # the same words, too


def test_hashing_runs_a_few_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    running = 0
    most = 0
    changed = threading.Condition()

    def slow_verify(_stored: str) -> None:
        nonlocal running, most
        with changed:
            running += 1
            most = max(most, running)
            changed.notify_all()
            # Until two have run at once, a hash waits for another to start beside it, rather than
            # hoping that one does within a fixed pause (a busy machine may start the next later).
            changed.wait_for(lambda: most >= 2, timeout=30)
        time.sleep(0.05)  # a moment in which a third, were more let through, would run too
        with changed:
            running -= 1

    url = f"sqlite:///{tmp_path / 'hupai.sqlite3'}"
    with server(url, hash_workers=2, trusted_proxy=TEST_PROXY) as client:
        monkeypatch.setattr(store_module, "_hasher", SpyHasher(store_module._hasher, slow_verify))
        codes: list[int] = []
        threads = [
            threading.Thread(target=lambda i=index: codes.append(login(client, "x", "y", f"10.1.0.{i}")))
            for index in range(10)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert codes == [401] * 10
        assert client.get("/api/health").status_code == 200
    assert most == 2


def test_the_rate_limiter_forgives_after_its_window() -> None:
    now = [0.0]
    limiter = RateLimiter(2, 60.0, clock=lambda: now[0])
    limiter.record("a")
    limiter.record("a")
    assert limiter.wait("a") == 60.0
    assert limiter.wait("b") == 0.0
    now[0] = 30.0
    assert limiter.wait("a") == 30.0
    now[0] = 60.0
    assert limiter.wait("a") == 0.0
