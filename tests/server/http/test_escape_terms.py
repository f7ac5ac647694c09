"""The rule card says what leaving a started game (逃跑) costs under its own rules, for the confirmation:
the words are read from what each rule set's escape_transfers pay, so they never drift apart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hupai.rules import load_ruleset

from ...server_support import guest, new_room, sqlite_server, with_invite


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with sqlite_server(tmp_path) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("ruleset", "penalty", "zh", "en"),
    [
        ("nanjing", 60, "逃跑扣60分（其余三家各得20分）", "Leaving costs 60 points (20 to each of the other"),
        ("nanning", 0, "本规则逃跑不扣分", "These rules have no escape penalty"),
        ("enshi", 0, "本规则逃跑不扣分", "These rules have no escape penalty"),
    ],
)
def test_every_rule_card_names_its_own_escape_cost(
    client: TestClient, ruleset: str, penalty: int, zh: str, en: str
) -> None:
    cards = [card for card in client.get("/api/rulesets").json() if card["ruleset"] == ruleset]
    assert cards
    for card in cards:
        escape = card["escape"]
        assert escape["penalty"] == penalty
        assert escape["zh"].startswith(zh)
        assert escape["en"].startswith(en)
        paid = sum(t.amount for t in load_ruleset(card["preset"]).escape_transfers(0))
        assert paid == penalty
    host = guest(client, "小明")
    number = new_room(client, host, preset=ruleset, hands=4)
    room = client.get(f"/api/rooms/{number}{with_invite(number)}").json()
    own = next(card for card in cards if card["preset"] == ruleset)
    assert room["rules"]["escape"] == own["escape"]


def test_a_room_s_changed_penalty_is_the_one_it_names(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset="nanjing", hands=4, options={"escape_penalty": 50})
    escape = client.get(f"/api/rooms/{number}{with_invite(number)}").json()["rules"]["escape"]
    assert escape["penalty"] == 50
    assert "17/17/16" in escape["zh"]
    assert "17/17/16" in escape["en"]
    free = new_room(client, host, preset="nanjing", hands=4, options={"escape_penalty": 0})
    assert client.get(f"/api/rooms/{free}{with_invite(free)}").json()["rules"]["escape"]["penalty"] == 0
