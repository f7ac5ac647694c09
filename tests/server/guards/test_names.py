"""Names cannot impersonate: look-alikes of a registered name are refused (409, enforced by the
database's unique key, even under concurrent registrations), invisible and bidi characters are
refused (422), and guests cannot take a registered player's name."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from hupai.server.names import clean_name, name_key
from hupai.server.storage.database import alembic_config, migrate

from ...server_support import server

PASSWORD = "correct horse"


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with server(url, login_attempts_per_address=100) as test_client:
        yield test_client


def register(client: TestClient, name: str) -> int:
    client.cookies.clear()
    return client.post("/api/register", json={"name": name, "password": PASSWORD}).status_code


@pytest.mark.parametrize(
    "look_alike",
    ["Ａｌｉｃｅ", "ALICE", "Аlice", "Αlice", "ali ce", "Alice\ufe0f"],  # fullwidth, Cyrillic А, Greek Α
)
def test_look_alikes_of_a_registered_name_are_taken(client: TestClient, look_alike: str) -> None:
    assert register(client, "Alice") == 200
    response = client.post("/api/register", json={"name": look_alike, "password": PASSWORD})
    assert response.status_code == 409, look_alike
    assert response.json()["error"]["code"] == "conflict"


@pytest.mark.parametrize(
    "name",
    [
        "Alice\u200b",
        "\u200b\u200d",
        "\u202eecilA",
        "A\u2066lice",
        "\u3164",
        "\u2800\u2800",
        "   ",
        "\u0301",
        "a\nb",
    ],
)
def test_hidden_characters_are_refused(client: TestClient, name: str) -> None:
    for path in ("/api/register", "/api/guest"):
        response = client.post(path, json={"name": name, "password": PASSWORD})
        assert response.status_code == 422, (path, name)


def test_names_are_stored_normalised(client: TestClient) -> None:
    response = client.post("/api/guest", json={"name": "  Ｂｏｂ   ｔｈｅ  ｂｕｉｌｄｅｒ "})
    assert response.json()["user"]["name"] == "Bob the builder"
    assert client.post("/api/guest", json={"name": "＜script＞"}).status_code == 422


def test_guests_cannot_take_a_registered_name(client: TestClient) -> None:
    assert register(client, "Alice") == 200
    client.cookies.clear()
    for name in ("Alice", "аlice", "ＡＬＩＣＥ"):
        refused = client.post("/api/guest", json={"name": name})
        assert refused.status_code == 409, name
    assert client.post("/api/guest", json={"name": "Alice2"}).status_code == 200
    # Guest names are not reserved (guests are free, so they could squat every name): registering
    # a name a guest shows is allowed.
    client.cookies.clear()
    assert client.post("/api/guest", json={"name": "Bob"}).status_code == 200
    assert register(client, "Bob") == 200


def test_concurrent_registrations_of_one_name_give_one_account(client: TestClient) -> None:
    codes: list[int] = []

    def attempt(name: str) -> None:
        response = client.post("/api/register", json={"name": name, "password": PASSWORD})
        codes.append(response.status_code)

    names = ["Carol", "carol", "CAROL", "Сarol", "Ｃａｒｏｌ", "Carol", "carol", "cАrol"]
    threads = [threading.Thread(target=attempt, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [200] + [409] * 7


def test_the_key_folds_look_alikes() -> None:
    assert name_key("ВОВ") == name_key("bob")  # Cyrillic capitals
    assert name_key("Νικο") != name_key("vikο")  # Greek capital Ν is N, small ν is v
    assert name_key("小明") == "小明"
    assert clean_name("e\u0301") == "\u00e9"  # composed
    with pytest.raises(ValueError, match="accents"):
        clean_name("a\u0300\u0301\u0302\u0303")


def test_the_migration_moves_logins_to_keys(url: str) -> None:
    config = alembic_config(url)
    command.upgrade(config, "0001")
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (id, name, login, created_at) VALUES "
                "(1, 'Alice', 'alice', CURRENT_TIMESTAMP), (2, 'Аlice', 'аlice', CURRENT_TIMESTAMP), "
                "(3, '小明', NULL, CURRENT_TIMESTAMP)"
            )
        )
    migrate(url)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT id, login FROM users ORDER BY id")).all()
    logins: dict[int, str | None] = {row[0]: row[1] for row in rows}
    engine.dispose()
    assert logins == {1: "alice", 2: "<2>alice", 3: None}
