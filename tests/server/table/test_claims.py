"""Claim windows at the table: nobody learns who may claim a discard — not from the updates, not from
passes, not from the pause before play moves on.

The same hand is dealt twice, differing only in seat 2's hand: in ``CLAIM`` seat 2 (a person) may pong
the dealer's first discard (1z) and passes at once; in ``QUIET`` nobody may claim it. Seat 1 (a person
who could never claim it) and a spectator must receive exactly the same, prompt numbers and clocks
aside, and in both runs play moves on no sooner than the room's ``claim_seconds`` after the discard.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import hupai.game.match
from hupai.bots import TrusteeBot
from hupai.game.contract import RuleSet
from hupai.game.engine import shuffled_deal
from hupai.game.stacking import stack_wall

from ...server_support import Message, connect, guest, invited, new_room, server
from ...test_hold_claims import CLAIM, DRAWS, QUIET
from .test_ting import comparable

CLAIM_SECONDS = 0.3  # the room's setting in these tests
# The room's setting where seat 2's pass must reach the table before the release (the most a room may
# have): a busy machine may take a good part of a second to carry a message there.
HELD_SECONDS = 3.0
ROUNDING = 1e-6  # clock readings are floats: (t + 0.3) - t may come out a hair under 0.3


class Deals:
    """The prepared first hand (seat 0 deals it); later hands are shuffled as usual."""

    hands: dict[int, str] = QUIET

    def __call__(self, ruleset: RuleSet, dealer: int, seed: int) -> tuple[list[list[int]], list[int]]:
        if dealer != 0:
            return shuffled_deal(ruleset, dealer, seed)
        return stack_wall(ruleset, dealer=0, hands=self.hands, draws=DRAWS)


@pytest.fixture
def deals(monkeypatch: pytest.MonkeyPatch) -> Deals:
    prepared = Deals()
    monkeypatch.setattr(hupai.game.match, "shuffled_deal", prepared)
    # rooms dealt from their seed, as before fair deals, so that the prepared deal is the one played
    monkeypatch.setattr("hupai.server.storage.rooms.new_room_secret", lambda: None)
    monkeypatch.setattr("hupai.server.table.actor.make_bot", lambda _level, seed: TrusteeBot(seed))
    return prepared


@pytest.fixture
def client(tmp_path: Path, deals: Deals) -> Iterator[TestClient]:
    # No server-wide claim_seconds: each room's own setting counts.
    with server(f"sqlite:///{tmp_path / 'claims.sqlite3'}", claim_seconds=None, bot_delay_seconds=0.02) as c:
        yield c


def drew(seat: int) -> Callable[[Message], bool]:
    """An update telling of ``seat``'s draw."""

    def done(message: Message) -> bool:
        events = message.get("events", []) if message["type"] == "update" else []
        return any(event["event"] == "tile_drawn" and event["seat"] == seat for event in events)

    return done


def discarded(message: Message) -> bool:
    events = message.get("events", []) if message["type"] == "update" else []
    return any(event["event"] == "tile_discarded" for event in events)


class Reader(threading.Thread):
    """Collect one socket's messages, each with when it arrived, until one satisfies ``until``."""

    def __init__(self, socket: WebSocketTestSession, until: Callable[[Message], bool]) -> None:
        super().__init__(daemon=True)
        self.socket = socket
        self.until = until
        self.received: list[tuple[float, Message]] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.received or not self.until(self.received[-1][1]):
                message = self.socket.receive_json()
                if message["type"] != "presence":  # who is at the table: no claim's business
                    self.received.append((time.monotonic(), message))
        except BaseException as error:  # reported by the test
            self.error = error

    def finish(self) -> list[tuple[float, Message]]:
        self.join(timeout=30)
        assert self.error is None, self.error
        assert not self.is_alive(), "the reader is still waiting"
        return self.received


def received(socket: WebSocketTestSession) -> tuple[float, Message]:
    """The next message (news of who is at the table left aside) and when it arrived."""
    message = socket.receive_json()
    while message["type"] == "presence":
        message = socket.receive_json()
    return time.monotonic(), message


def joined(messages: list[Message]) -> list[Message]:
    """Messages on joining, comparable across runs (who else had joined yet is no claim's business)."""
    out = [comparable(message) for message in messages]
    for message in out:
        if "table" in message:
            message["table"] = {k: v for k, v in message["table"].items() if k != "connected"}
    return out


def first_update(socket: WebSocketTestSession) -> list[Message]:
    """The messages a client gets on joining, up to its first update (so joins happen in order)."""
    messages = [socket.receive_json()]
    while messages[-1]["type"] != "update":
        messages.append(socket.receive_json())
    return messages


def release_heard(received: list[tuple[float, Message]]) -> float:
    """When the update after the one telling of the discard (play moving on) arrived.

    Timed from when the discard was sent (``play_first_discard``'s ``sent``), not from when it was
    heard: the table opens the window after the send, so the release comes at least the window's
    length after it, while a thread that picks the discard up late would shorten a gap between
    the two arrivals."""
    updates = [(at, message) for at, message in received if message["type"] == "update"]
    index = next(i for i, (_, message) in enumerate(updates) if discarded(message))
    return updates[index + 1][0]


def play_first_discard(
    client: TestClient, deals: Deals, hands: dict[int, str], claim_seconds: float = CLAIM_SECONDS
) -> dict[str, Any]:
    """Deal ``hands``; the dealer lets 1z go; seat 2 passes at once if it is asked. Returns what seat 1,
    the spectator and seat 2 received until seat 1 drew, and when the discard was sent."""
    deals.hands = hands
    host, one, two, watcher = (guest(client, name) for name in ("甲", "乙", "丙", "观众"))
    number = new_room(client, host, preset="nanjing", hands=4, claim_seconds=claim_seconds)
    for headers, seat in ((one, 1), (two, 2)):
        client.post(f"/api/rooms/{number}/sit", json={"seat": seat, **invited(number)}, headers=headers)
        client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=headers)
    assert client.post(f"/api/rooms/{number}/start", json={}, headers=host).status_code == 200
    with (
        connect(client, number, one) as first,
        connect(client, number, watcher) as spectator,
        connect(client, number, two) as second,
        connect(client, number, host) as dealer,
    ):
        joined = {"seat1": first_update(first), "spectator": first_update(spectator)}
        first_update(second)
        prompt = first_update(dealer)[-1]["prompt"]
        readers = {"seat1": Reader(first, drew(1)), "spectator": Reader(spectator, drew(1))}
        for reader in readers.values():
            reader.start()
        sent = time.monotonic()
        dealer.send_json({"type": "act", "seq": prompt["seq"], "action": {"act": "discard", "tile": "1z"}})
        seat2 = [received(second)]
        asked = seat2[-1][1].get("prompt")
        if asked is not None:
            answer = {"type": "act", "seq": asked["seq"], "action": {"act": "pass"}}
            second.send_json(answer)
            passed_at = time.monotonic()
            second.send_json(answer)  # once held, an answer cannot be changed or repeated
            while not drew(1)(seat2[-1][1]):
                seat2.append(received(second))
            seat2.insert(0, (passed_at, {"type": "sent_pass"}))
        seen = {name: reader.finish() for name, reader in readers.items()}
    return {"joined": joined, "seen": seen, "seat2": seat2, "number": number, "seat1": one, "sent": sent}


def test_nobody_can_tell_whether_a_seat_could_claim(client: TestClient, deals: Deals) -> None:
    could = play_first_discard(client, deals, CLAIM)
    quiet = play_first_discard(client, deals, QUIET)
    assert could["seat2"][0][1]["type"] == "sent_pass"  # seat 2 could claim, and passed
    assert "prompt" not in quiet["seat2"][0][1]  # seat 2 could not
    for name in ("seat1", "spectator"):
        for run in (could, quiet):
            messages = [message for _, message in run["seen"][name]]
            assert len(messages) >= 2
            for message in messages:
                assert "waiting_on" not in message.get("table", {})
                assert all(event["event"] != "passed" for event in message.get("events", []))
            assert release_heard(run["seen"][name]) - run["sent"] >= CLAIM_SECONDS - ROUNDING, name
        assert joined(could["joined"][name]) == joined(quiet["joined"][name])
        assert [comparable(m) for _, m in could["seen"][name]] == [
            comparable(m) for _, m in quiet["seen"][name]
        ]
    discard_update = next(m for _, m in quiet["seen"]["seat1"] if discarded(m))
    assert discard_update["view"]["phase"] == "claim"  # a window whether or not anyone may claim
    assert "prompt" not in discard_update


def test_an_early_pass_is_held_until_the_release(client: TestClient, deals: Deals) -> None:
    run = play_first_discard(client, deals, CLAIM, claim_seconds=HELD_SECONDS)
    seat2 = run["seat2"]
    asked_at, asked = seat2[1]
    assert {action["act"] for action in asked["prompt"]["legal"]} == {"pong", "pass"}
    assert discarded(asked) and asked["view"]["phase"] == "claim"
    passed_at = seat2[0][0]
    assert passed_at - asked_at < HELD_SECONDS / 2  # answered well before the release
    after = seat2[2:]
    kinds = [message["type"] for _, message in after]
    assert kinds == ["ignored", "update"]  # the repeat is refused; nothing else until the release
    released_at, released = after[-1]
    assert released_at - run["sent"] >= HELD_SECONDS - ROUNDING
    assert [event["event"] for event in released["events"]] == ["passed", "tile_drawn"]  # its own pass
    assert "prompt" not in released


def test_the_pause_is_a_room_setting_within_bounds(client: TestClient) -> None:
    host = guest(client, "甲")
    room = client.post("/api/rooms", json={"claim_seconds": 1.5}, headers=host).json()
    assert room["claim_seconds"] == 1.5
    assert client.get(f"/api/rooms/{room['number']}").json()["claim_seconds"] == 1.5
    assert client.post("/api/rooms", json={}, headers=host).json()["claim_seconds"] == 0.6
    for wrong in (0.1, 3.5, "soon"):
        assert client.post("/api/rooms", json={"claim_seconds": wrong}, headers=host).status_code == 422


def test_a_reconnect_counts_events_as_its_seat_received_them(client: TestClient, deals: Deals) -> None:
    """Seat 1 never received seat 2's pass: its ``since`` counts without it, and still resumes exactly."""
    run = play_first_discard(client, deals, CLAIM)
    updates = [
        m for m in run["joined"]["seat1"] + [m for _, m in run["seen"]["seat1"]] if m["type"] == "update"
    ]
    had = updates[-1]["from"] + len(updates[-1]["events"])
    assert had == sum(len(update["events"]) for update in updates)
    for since, missed in ((had, []), (had - 1, updates[-1]["events"][-1:])):
        with connect(client, run["number"], run["seat1"], hand=0, since=since) as socket:
            back = first_update(socket)[-1]
        assert back["from"] == since
        assert back["events"] == missed
