"""听 at the table: a ready player lets the server play the hand on (wins taken, the drawn tile let go,
claims passed), privately: no other seat nor a spectator receives anything different.

The server tests deal a prepared hand: seat 0 (the dealer, a person) is one discard from a 5p 单钓,
the bots hold only single tiles (nobody can claim anything), and seat 0's second draw is the 5p.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

import hupai.game.match
from hupai.bots import TrusteeBot
from hupai.bots.autoplay import ting_action
from hupai.game.actions import Discard, Kong, Pass, Pong, Win
from hupai.game.contract import RuleSet
from hupai.game.engine import shuffled_deal
from hupai.game.record import read_record
from hupai.game.stacking import stack_wall
from hupai.game.view import view
from hupai.replay import replay
from hupai.server.table.hints import winning_tiles
from hupai.tiles import format_tiles, parse_tiles

from ...helpers import play, table
from ...server_support import Message, connect, guest, invited, new_room, server, with_invite

READY_AFTER = "8s"  # seat 0 lets this go first and is then ready on 5p
BOTS = "1s3s5s7s9s1z2z3z4z5z6z9p7p"  # each bot: thirteen single tiles, no pair to claim with
DEAL = {0: "123456789m123p5p8s", 1: BOTS, 2: BOTS, 3: BOTS}
DRAWS = "2s4s6p7z8p6s4p5p"  # seats 1, 2, 3, 0, 1, 2, 3, 0: seat 0 draws 7z, then its 5p


def prepared_deal(ruleset: RuleSet, dealer: int, seed: int) -> tuple[list[list[int]], list[int]]:
    if dealer != 0:  # later hands (seat 0 may not deal them) are shuffled as usual
        return shuffled_deal(ruleset, dealer, seed)
    return stack_wall(ruleset, dealer=0, hands=DEAL, draws=DRAWS)


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A server dealing the prepared hand first; bots pause 0.02 s."""
    monkeypatch.setattr(hupai.game.match, "shuffled_deal", prepared_deal)
    # rooms dealt from their seed, as before fair deals, so that the prepared deal is the one played
    monkeypatch.setattr("hupai.server.storage.rooms.new_room_secret", lambda: None)
    # bots that let their drawn tile go: the same moves in every run, for comparing runs
    monkeypatch.setattr("hupai.server.table.actor.make_bot", lambda _level, seed: TrusteeBot(seed))
    with server(f"sqlite:///{tmp_path / 'ting.sqlite3'}", bot_delay_seconds=0.02) as test_client:
        yield test_client


def updates_until(socket: WebSocketTestSession, done: Any) -> Message:
    """Read messages until one satisfies ``done``; errors fail the test unless ``done`` wants them."""
    while True:
        message: Message = socket.receive_json()
        if done(message):
            return message
        assert message["type"] != "error", message


def own_prompt(message: Message) -> bool:
    return message["type"] == "update" and "prompt" in message


def start_nanning(
    client: TestClient, *, friend: bool = False, **spec: Any
) -> tuple[str, dict[str, str], dict[str, str]]:
    """A started Nanning room of the host (seat 0), bots elsewhere, or a person (``other``) in seat 2
    with ``friend``; ``spec``: more of the room's settings."""
    host = guest(client, "甲")
    other = guest(client, "乙")
    number = new_room(client, host, preset="nanning", hands=4, **spec)
    if friend:
        client.post(f"/api/rooms/{number}/sit", json={"seat": 2, **invited(number)}, headers=other)
        client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=other)
    assert client.post(f"/api/rooms/{number}/start", json={}, headers=host).status_code == 200
    return number, host, other


def discard(socket: WebSocketTestSession, prompt_update: Message, tile: str) -> None:
    seq = prompt_update["prompt"]["seq"]
    socket.send_json({"type": "act", "seq": seq, "action": {"act": "discard", "tile": tile}})


# --- the engine side -----------------------------------------------------------------------------------


def test_winning_tiles_count_the_rules_win_conditions() -> None:
    """The same shape after a pung: Nanning wins on it (鸡胡), Nanjing refuses a plain 小胡 with a pung
    and no 硬花 — so it is ready in Nanning only."""
    moves = ("0 d 1z", "1 d 1m", "0 pong", "0 d 9s")
    hands = {0: "11m234m567p789s5s9s1z", 1: "1m4m7m1p4p7p1s4s7s2z3z4z2m"}
    for preset, wanted in (("nanning", "5s"), ("nanjing", "")):
        state = play(table(hands, draws="5m", preset=preset), *moves)
        assert format_tiles(winning_tiles(state, 0)) == wanted, preset


def test_winning_tiles_on_the_turn_leave_the_drawn_tile_out() -> None:
    state = play(table(DEAL, draws=DRAWS, preset="nanning"), f"0 d {READY_AFTER}")
    assert format_tiles(winning_tiles(state, 0)) == "5p"
    state = play(state, "1 t", "2 t", "3 t")
    assert state.seats[0].drawn == parse_tiles("7z")[0]
    assert format_tiles(winning_tiles(state, 0)) == "5p"  # holding 14: without the tile just drawn
    assert winning_tiles(state, 1) == []


def test_ting_action_wins_passes_and_lets_the_drawn_tile_go() -> None:
    state = play(table(DEAL, draws=DRAWS, preset="nanning"), f"0 d {READY_AFTER}", "1 t", "2 t", "3 t")
    seen = view(state, 0)
    drawn = parse_tiles("7z")[0]
    kong = Kong(seat=0, tile=drawn)
    assert ting_action(seen, [Discard(seat=0, tile=1), kong, Discard(seat=0, tile=drawn)]) == Discard(
        seat=0, tile=drawn
    )
    assert ting_action(seen, [Pong(seat=0), Pass(seat=0)]) == Pass(seat=0)
    assert ting_action(seen, [Discard(seat=0, tile=drawn), Win(seat=0)]) == Win(seat=0)
    assert ting_action(seen, [Discard(seat=0, tile=1), kong]) is None  # nothing 听 may do


# --- at the table ----------------------------------------------------------------------------------


def test_ting_plays_the_ready_hand_and_wins_by_itself(client: TestClient) -> None:
    number, host, _ = start_nanning(client)
    with connect(client, number, host) as socket:
        first = updates_until(socket, own_prompt)
        assert first["ting"] is False
        assert "waits" not in first  # 14 tiles and nothing drawn: not ready as it stands
        discard(socket, first, READY_AFTER)
        ready = updates_until(socket, lambda m: m["type"] == "update" and "waits" in m)
        assert ready["waits"] == [{"tile": "5p", "left": 3}]  # four, less the one in hand
        socket.send_json({"type": "ting", "on": True})
        on = updates_until(socket, lambda m: m["type"] == "update" and m["ting"])
        assert on["table"]["trustee"] == [False] * 4  # nothing public says so
        messages: list[Message] = [on]
        while messages[-1]["type"] != "hand_end":
            message = socket.receive_json()
            assert message["type"] != "error", message
            if message["type"] == "update" and "prompt" in message:
                assert message["prompt"]["automatic"] is True  # the player is never asked
            messages.append(message)
    end = messages[-1]
    assert end["result"]["winners"] == [0]
    assert end["result"]["scores"][0]["how"] == "self_drawn"
    events = [event for message in messages if message["type"] == "update" for event in message["events"]]
    discards = [
        event["tile"] for event in events if event["event"] == "tile_discarded" and event["seat"] == 0
    ]
    assert discards == ["7z"]  # the tile it drew, let go
    assert end["totals"][0] > 0
    # stored like any move: the record replays to the same result
    record = client.get(f"/api/rooms/{number}/hands/0/record{with_invite(number)}").json()
    assert [list(result.deltas) for result in replay(read_record(record)).results] == [
        end["result"]["deltas"]
    ]


def test_ting_is_refused_unless_a_ready_hand_is_in_play(client: TestClient) -> None:
    host = guest(client, "甲")
    watcher = guest(client, "观众")
    waiting = new_room(client, host, preset="nanning", hands=4)
    with connect(client, waiting, host) as socket:
        socket.send_json({"type": "ting", "on": True})
        assert updates_until(socket, lambda m: m["type"] == "error")["code"] == "no_game"
    number, host, _ = start_nanning(client)
    with connect(client, number, watcher) as spectator:
        spectator.send_json({"type": "ting", "on": True})
        assert updates_until(spectator, lambda m: m["type"] == "error")["code"] == "not_seated"
    with connect(client, number, host) as socket:
        first = updates_until(socket, own_prompt)
        socket.send_json({"type": "ting", "on": True})  # 14 tiles, none drawn: let one go first
        assert updates_until(socket, lambda m: m["type"] == "error")["code"] == "not_ready"
        discard(socket, first, "1m")  # one tile further from a win
        socket.send_json({"type": "ting", "on": True})
        assert updates_until(socket, lambda m: m["type"] == "error")["code"] == "not_ready"
        mine = updates_until(socket, own_prompt)
        assert mine["prompt"]["automatic"] is False
        assert mine["ting"] is False
        assert "waits" not in mine


def test_cancelling_ting_gives_the_prompts_back(client: TestClient) -> None:
    # Seat 2 is a person, and play waits for it (two minutes a decision) until it lets 托管 play its
    # seat as the bots play theirs: 听 goes on and off before seat 0 draws, however slow the machine.
    number, host, friend = start_nanning(client, friend=True, decision_seconds=120)
    with connect(client, number, host) as socket, connect(client, number, friend) as second:
        discard(socket, updates_until(socket, own_prompt), READY_AFTER)
        socket.send_json({"type": "ting", "on": True})
        updates_until(socket, lambda m: m["type"] == "update" and m["ting"])
        socket.send_json({"type": "ting", "on": False})
        off = updates_until(socket, lambda m: m["type"] == "update" and not m["ting"])
        assert off["waits"] == [{"tile": "5p", "left": 3}]  # still ready: the mark stays
        second.send_json({"type": "trustee", "on": True})
        drew = updates_until(socket, own_prompt)  # its draw (7z): the player decides again
        assert drew["prompt"]["automatic"] is False
        assert drew["view"]["drawn"] == "7z"
        # 听 again while holding the drawn tile: it lets that tile go by itself
        socket.send_json({"type": "ting", "on": True})
        auto = updates_until(socket, lambda m: own_prompt(m) and m["prompt"]["automatic"])
        assert auto["ting"] is True
        end = updates_until(socket, lambda m: m["type"] == "hand_end")
    assert end["result"]["winners"] == [0]


def test_other_seats_and_spectators_receive_exactly_the_same_with_or_without_ting(
    client: TestClient,
) -> None:
    """The same hand twice: seat 0 plays it by 听, then by hand with the very same moves. What seat 2 (a
    person, in 托管) and a spectator receive is the same, prompt numbers and clocks aside."""

    def run(by_ting: bool) -> tuple[list[Message], list[Message]]:
        number, host, friend = start_nanning(client, friend=True)
        watcher = guest(client, "观众")
        with (
            connect(client, number, friend) as second,
            connect(client, number, watcher) as third,
        ):
            second.send_json({"type": "trustee", "on": True})
            for socket in (second, third):  # from here on, both runs tell them the same
                updates_until(socket, lambda m: m["type"] == "update" and m["table"]["trustee"][2])
            readers = [Reader(second), Reader(third)]
            with connect(client, number, host) as first:
                for reader in readers:
                    reader.start()
                discard(first, updates_until(first, own_prompt), READY_AFTER)
                if by_ting:
                    first.send_json({"type": "ting", "on": True})
                    updates_until(first, lambda m: m["type"] == "hand_end")
                else:
                    play_like_ting(first)
                for reader in readers:
                    reader.join(timeout=30)
                    assert reader.error is None, reader.error
                    assert not reader.is_alive(), "the reader is still waiting for the hand's end"
        return readers[0].messages, readers[1].messages

    with_ting, by_hand = run(True), run(False)
    for seen_with, seen_without in zip(with_ting, by_hand, strict=True):
        assert len(seen_with) == len(seen_without) > 3
        assert [comparable(m) for m in seen_with] == [comparable(m) for m in seen_without]
        for message in seen_with:
            assert "ting" not in message or message["view"]["seat"] == 2
            assert message.get("ting") in (None, False)


class Reader(threading.Thread):
    """Collect one socket's messages until the hand ends."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        super().__init__(daemon=True)
        self.socket = socket
        self.messages: list[Message] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.messages or self.messages[-1]["type"] != "hand_end":
                self.messages.append(self.socket.receive_json())
        except BaseException as error:  # reported by the test
            self.error = error


def play_like_ting(socket: WebSocketTestSession) -> None:
    """Seat 0 by hand, with 听's moves: win when offered, else pass, else let the drawn tile go."""
    answered: set[int] = set()
    while True:
        message = socket.receive_json()
        if message["type"] == "hand_end":
            return
        prompt = message.get("prompt")
        if message["type"] != "update" or prompt is None or prompt["seq"] in answered:
            continue
        answered.add(prompt["seq"])
        acts = {action["act"] for action in prompt["legal"]}
        action = {"act": "hu"} if "hu" in acts else {"act": "pass"}
        if not acts & {"hu", "pass"}:
            action = {"act": "discard", "tile": message["view"]["drawn"]}
        socket.send_json({"type": "act", "seq": prompt["seq"], "action": action})


def comparable(message: Message) -> Message:
    """A message without what differs between any two runs: prompt numbers and clocks."""
    if message["type"] in ("room", "welcome"):  # the runs' rooms and guests have other numbers
        return {
            "type": message["type"],
            "seat": message.get("seat"),
            "status": message.get("room", {}).get("status"),
        }
    out = dict(message)
    if "prompt" in out:
        out["prompt"] = {k: v for k, v in out["prompt"].items() if k not in ("seq", "deadline_ms")}
    if "table" in out:
        out["table"] = {k: v for k, v in out["table"].items() if k != "bank_ms"}
    return out
