"""快捷语 and emotes at the table: a seated player's phrase (by number) or emote (by name) reaches
everyone at the table with the seat that said it; free text, both at once or neither is refused at the
edge; spectators say nothing; a seat that talks too fast is told to slow down."""

from __future__ import annotations

import functools

import pytest
from fastapi.testclient import TestClient

from hupai.server import tables
from hupai.server.table import social
from hupai.server.table.actor import Table

from ...server_support import connect, guest, invited, new_room, next_of, server


class StillClock:
    """A clock that moves only when the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def still_tables(monkeypatch: pytest.MonkeyPatch) -> StillClock:
    """The clock of every table the server starts from now on (tables whose rooms are not started
    wait on nothing): how fast a seat may talk is then counted in the test's time, not in how long a
    busy machine takes to carry the messages (an allowance must not come back in between)."""
    clock = StillClock()
    monkeypatch.setattr(tables, "Table", functools.partial(Table, clock=clock))
    return clock


def two_friends(client: TestClient) -> tuple[dict[str, str], dict[str, str], str]:
    host, friend = guest(client, "甲"), guest(client, "乙")
    number = new_room(client, host, preset="nanjing", hands=4)
    client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=friend)
    return host, friend, number


def test_a_phrase_and_an_emote_reach_everyone_at_the_table(url: str) -> None:
    with server(url) as client:
        host, friend, number = two_friends(client)
        stranger = guest(client, "丙")  # not seated: watches
        with (
            connect(client, number, host) as mine,
            connect(client, number, friend) as theirs,
            connect(client, number, stranger) as watching,
        ):
            for socket in (mine, theirs, watching):
                next_of(socket, "welcome")  # each one is at the table
            mine.send_json({"type": "say", "phrase": 3})
            for socket in (mine, theirs, watching):
                assert next_of(socket, "said") == {"type": "said", "seat": 0, "phrase": 3}
            theirs.send_json({"type": "say", "emote": "cool"})
            for socket in (mine, theirs, watching):
                assert next_of(socket, "said") == {"type": "said", "seat": 1, "emote": "cool"}
            watching.send_json({"type": "say", "phrase": 0})
            assert next_of(watching, "error")["code"] == "not_seated"


def test_free_text_and_malformed_talk_are_refused(url: str) -> None:
    with server(url) as client:
        host, _, number = two_friends(client)
        with connect(client, number, host) as mine:
            for bad in (
                {"type": "say", "text": "hello"},
                {"type": "say", "phrase": 12},
                {"type": "say", "emote": "skull"},
                {"type": "say", "phrase": 1, "emote": "smile"},
                {"type": "say"},
            ):
                mine.send_json(bad)
                assert next_of(mine, "error")["code"] == "bad_message", bad


def test_a_seat_that_talks_too_fast_is_told_to_slow_down(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = still_tables(monkeypatch)
    with server(url) as client:
        host, friend, number = two_friends(client)
        with connect(client, number, host) as mine, connect(client, number, friend) as theirs:
            next_of(theirs, "welcome")
            for phrase in range(3):
                mine.send_json({"type": "say", "phrase": phrase})
                assert next_of(mine, "said")["phrase"] == phrase
            mine.send_json({"type": "say", "phrase": 4})
            refused = next_of(mine, "error")
            assert refused["code"] == "slow_down" and "again in 4 s" in refused["message"]
            theirs.send_json({"type": "say", "phrase": 5})  # another seat's talk is its own
            assert next_of(mine, "said") == {"type": "said", "seat": 1, "phrase": 5}
            heard = [next_of(theirs, "said")["phrase"] for _ in range(4)]
            assert heard == [0, 1, 2, 5]  # the refused one never reached the others
            clock.now += social.EVERY_SECONDS  # then one more, once the pause has passed
            mine.send_json({"type": "say", "phrase": 6})
            assert next_of(mine, "said") == {"type": "said", "seat": 0, "phrase": 6}
            mine.send_json({"type": "say", "phrase": 7})
            assert next_of(mine, "error")["code"] == "slow_down"
