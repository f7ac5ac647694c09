"""The dissolve vote (解散) as players know it: one player asks, every other person answers within the
room's countdown, silence counts as agreement, one refusal ends the vote for everyone and play goes
on. Bots agree. Every vote, with its answers and how it ended, is in the room's record."""

from __future__ import annotations

import random
import time
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hupai.server.storage.models import DissolveVote

from ...schema_support import schema_error
from ...server_support import (
    Answers,
    Message,
    connect,
    guest,
    invited,
    new_room,
    randomly,
    rebuilt,
    server,
    token_of,
    with_invite,
)
from .test_dissolve import play_prompts


def three_friends(client: TestClient, **spec: Any) -> tuple[list[dict[str, str]], str]:
    """Three people (seats 0-2) and a bot at a started Nanjing room; the two friends' seats play by
    托管 (so the table never waits for them) and their sockets are closed again."""
    people = [guest(client, name) for name in ("甲", "乙", "丙")]
    number = new_room(client, people[0], preset="nanjing", hands=8, decision_seconds=5, **spec)
    for friend in people[1:]:
        client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=friend)
        client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=friend)
    assert client.post(f"/api/rooms/{number}/start", json={}, headers=people[0]).status_code == 200
    for friend in people[1:]:
        with connect(client, number, friend) as socket:
            socket.send_json({"type": "trustee", "on": True})
            while socket.receive_json()["type"] != "update":
                pass
    return people, number


def vote(client: TestClient, number: str, who: dict[str, str], agree: bool) -> Any:
    return client.post(f"/api/rooms/{number}/dissolve", json={"agree": agree}, headers=who)


def next_vote(socket: WebSocketTestSession, result: str | None) -> dict[str, Any]:
    """The vote of the next ``room`` message whose vote stands so (other messages are skipped)."""
    for _ in range(2_000):
        message: Message = socket.receive_json()
        found = message["room"]["dissolve_vote"] if message["type"] == "room" else None
        if found is not None and found["result"] == result:
            return dict(found)
    raise AssertionError(f"no vote {result} was heard")


def ms_since(start: float) -> float:
    """Milliseconds since ``start`` (a ``time.monotonic()`` reading), the most a countdown can have
    run down since then."""
    return (time.monotonic() - start) * 1000


def play_slowly(socket: WebSocketTestSession, message: Message) -> list[Message]:
    """The host's play from ``message`` on, a third of a second a decision (a match lasts long enough
    for a countdown), until the match ends; every message is returned."""
    answers = Answers(randomly(random.Random(7)))
    received: list[Message] = []
    while message["type"] != "match_end":
        received.append(message)
        if (act := answers.act(message)) is not None:
            time.sleep(0.3)
            socket.send_json(act)
        message = socket.receive_json()
    return [*received, message]


def test_one_refusal_ends_the_vote_for_everyone_and_play_goes_on(url: str) -> None:
    with server(url, time_bank_seconds=0) as client:
        people, number = three_friends(client)
        host, first, second = people
        with connect(client, number, host) as socket, connect(client, number, second) as other:
            play_prompts(socket, 2)
            before = time.monotonic()
            asked = vote(client, number, host, True).json()["dissolve_vote"]
            assert (asked["asked_by"], asked["voters"], asked["result"]) == (0, [0, 1, 2], None)
            assert asked["answers"] == [True, None, None, None]  # the bot (seat 3) is not asked
            assert asked["number"] == 1 and asked["seconds"] == 60
            assert 60_000 - ms_since(before) - 1 <= asked["ms_left"] <= 60_000  # whole ms, rounded down
            heard = next_vote(other, None)  # every other player hears the vote at once
            assert heard["asked_by"] == 0 and heard["ms_left"] >= 60_000 - ms_since(before) - 1
            assert vote(client, number, first, True).json()["dissolve_vote"]["answers"] == [
                True,
                True,
                None,
                None,
            ]
            assert vote(client, number, first, True).status_code == 200  # said again: no change
            changed = vote(client, number, first, False)
            assert changed.status_code == 409 and changed.json()["error"]["code"] == "dissolve_answered"
            refusing = time.monotonic()
            refused = vote(client, number, second, False).json()
            assert refused["status"] == "playing"
            assert refused["dissolve_vote"]["result"] == "refused"
            assert refused["dissolve_vote"]["answers"] == [True, True, False, None]
            assert next_vote(socket, "refused")["answers"] == [True, True, False, None]

            again = vote(client, number, first, True)
            assert again.status_code == 409
            assert again.json()["error"]["code"] == "dissolve_refused_recently"
            # Thirty seconds from the refusal, less what has passed since, in whole seconds rounded up.
            assert 30 - ms_since(refusing) / 1000 <= again.json()["error"]["params"]["seconds"] <= 30
            assert "ask again in" in again.json()["error"]["message"]
            nothing = vote(client, number, first, False)
            assert nothing.status_code == 409 and nothing.json()["error"]["code"] == "dissolve_no_vote"
            # Play goes on: the table moves on (whoever plays the host's seat by now).
            reached: set[int] = set()  # how far into its hand each update brought the host
            while len(reached) <= 3:
                message = socket.receive_json()
                assert message["type"] != "match_end"
                if message["type"] == "update":
                    reached.add(message["from"] + len(message["events"]))
            assert client.get(f"/api/rooms/{number}{with_invite(number)}").json()["status"] == "playing"


def test_silence_until_the_countdown_ends_counts_as_agreement(url: str) -> None:
    with server(url, time_bank_seconds=0) as client:
        people, number = three_friends(client, dissolve_seconds=10)
        host, first, _ = people
        with connect(client, number, host) as socket:
            prompted = play_prompts(socket, 1)
            asked = time.monotonic()  # before the vote: its countdown starts after this
            vote(client, number, first, True)  # seat 1 asks; seats 0 and 2 stay silent
            messages = play_slowly(socket, prompted)
            waited = time.monotonic() - asked
        summary = messages[-1]
        assert summary["type"] == "match_end" and summary["status"] == "dissolved"
        # Not before the room's 10 s (less a millisecond: the countdown is told in whole ms), and
        # well before the match could have ended by itself (it would go on for a minute at this pace):
        # what is between is a busy machine's.
        assert 10 - 0.001 <= waited < 30, waited
        ended = [m["room"]["dissolve_vote"] for m in messages if m["type"] == "room"][-1]
        assert (ended["result"], ended["answers"], ended["ms_left"]) == (
            "timeout",
            [None, True, None, None],
            0,
        )
        record = client.get(f"/api/rooms/{number}/record{with_invite(number)}").json()
        assert schema_error(record, "record") is None
        [written] = record["dissolve_votes"]
        assert written["asked_by"] == 1 and written["answers"] == [None, True, None, None]
        assert written["result"] == "timeout"
        assert (written["hand"], written["after"]) <= (len(record["hands"]) - 1, 10_000)


def test_every_vote_is_in_the_record_and_a_rebuilt_table_ends_an_agreed_match(url: str) -> None:
    with server(url, time_bank_seconds=0) as client:
        people, number = three_friends(client, dissolve_seconds=10)
        host, first, second = people
        with connect(client, number, host) as socket:
            play_prompts(socket, 3)
            vote(client, number, host, True)
            vote(client, number, second, False)  # the first vote is refused
        store = client.app.state.store  # type: ignore[attr-defined]
        with store.rooms.tx.writing() as db:  # the pause after a refusal, passed
            for row in db.query(DissolveVote):
                row.ended_at = row.ended_at.replace(year=2000)
        # The second vote is stored but its table never hears of it (its process stopped).
        outcomes = [
            store.votes.vote(number, store.accounts.user_for_token(token_of(person)).id, True)[1]
            for person in (first, host, second)
        ]
        assert outcomes == ["open", "open", "agreed"]
        summary = rebuilt(client, number)  # a rebuilt table ends the match everyone agreed to end
        assert summary["status"] == "dissolved"
        record = client.get(f"/api/rooms/{number}/record{with_invite(number)}").json()
        assert [(v["asked_by"], v["answers"], v["result"]) for v in record["dissolve_votes"]] == [
            (0, [True, None, False, None], "refused"),
            (1, [True, True, True, None], "agreed"),
        ]
        assert record["dissolve_votes"][0]["after"] > 0  # asked after the hand's first moves
        assert schema_error(record, "record") is None
