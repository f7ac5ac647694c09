"""Bots that feel like people: a think time drawn for every decision within the room's pace, longer
the more a choice offers, shorter for a forced move or a win; a room's pace is its own setting and
the table waits as long as it says. The figures come from the decisions of whole self-played hands
in all three rule sets."""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import pytest

from hupai.bots import make_bot
from hupai.bots.selfplay import play
from hupai.game.actions import Action, Discard, Pass
from hupai.game.match import Match
from hupai.game.view import SeatView
from hupai.rules import load_ruleset
from hupai.server.table.think import PACES, think_seconds

from ...server_support import connect, guest, new_room, server, with_invite


@dataclass
class Recorder:
    """A strong bot that keeps every decision it makes (legal actions and choice)."""

    seed: int
    decisions: list[tuple[list[Action], Action]] = field(default_factory=list)
    name: ClassVar[str] = "recorder"
    zh: ClassVar[str] = "记录"
    en: ClassVar[str] = "recorder"

    def __post_init__(self) -> None:
        self.bot = make_bot("strong", self.seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        choice = self.bot.choose(view, legal)
        self.decisions.append((list(legal), choice))
        return choice


def decisions(ruleset: str, hands: int) -> list[tuple[list[Action], Action]]:
    players = [Recorder(seat) for seat in range(4)]
    match = Match(load_ruleset(ruleset), seed=11, seats=("a", "b", "c", "d"))
    for _ in range(hands):
        state = match.start_hand()
        play(state, players)
        match.finish_hand(state)
        if match.over:
            break
    # a pass waits for its window's release, not for a think time
    return [
        (legal, choice)
        for player in players
        for legal, choice in player.decisions
        if not isinstance(choice, Pass)
    ]


@pytest.mark.parametrize("ruleset", ["nanjing", "nanning", "enshi"])
def test_think_times_are_varied_within_the_pace_and_follow_how_hard_a_choice_is(ruleset: str) -> None:
    made = decisions(ruleset, 20)
    rng = random.Random(3)
    low, high = PACES["natural"]
    times = [think_seconds("natural", legal, choice, rng) for legal, choice in made]
    assert len(times) > 300
    assert min(times) >= 0.6 * low and max(times) <= high
    assert 1.0 <= statistics.median(times) <= 1.8, statistics.median(times)
    assert statistics.pstdev(times) > 0.3  # not a constant pause
    repeats = sum(1 for before, after in itertools.pairwise(times) if before == after)
    assert repeats <= len(times) // 100

    def mean_where(keep: object) -> float:
        chosen = [think for think, (legal, choice) in zip(times, made, strict=True) if keep(legal, choice)]  # type: ignore[operator]
        return statistics.fmean(chosen)

    def distinct(legal: list[Action]) -> int:
        return len({action.tile for action in legal if isinstance(action, Discard)})

    quick = mean_where(lambda legal, choice: distinct(legal) == 0)  # claims and wins on a discard
    few = mean_where(lambda legal, choice: 1 <= distinct(legal) <= 9)
    many = mean_where(lambda legal, choice: distinct(legal) >= 12)
    assert quick < few < many, (quick, few, many)
    assert many - few > 0.2


def test_the_paces_are_ordered() -> None:
    made = decisions("nanjing", 4)
    means = []
    for pace in ("quick", "natural", "relaxed"):
        rng = random.Random(5)
        means.append(statistics.fmean(think_seconds(pace, legal, choice, rng) for legal, choice in made))
    assert means[0] < 0.9 < means[1] < 1.9 < means[2], means


def test_a_table_waits_for_its_bots_as_the_room_s_pace_says(url: str) -> None:
    """Unset ``bot_delay_seconds`` (as a real server): the bots' moves, timed as the host hears them
    while the host's own seat plays by 托管, come varied and within the quick pace."""
    with server(url, bot_delay_seconds=None) as client:
        host = guest(client, "甲")
        number = new_room(client, host, preset="nanjing", hands=4, bot_pace="quick")
        assert client.get(f"/api/rooms/{number}{with_invite(number)}").json()["bot_pace"] == "quick"
        client.post(f"/api/rooms/{number}/start", json={}, headers=host)
        with connect(client, number, host) as socket:
            socket.send_json({"type": "trustee", "on": True})
            heard: list[tuple[float, int]] = []  # when each discard was heard, and by whom
            # Until nine bots' discards have been heard, each after another discard (a gap to time).
            while sum(1 for (_, _), (_, seat) in itertools.pairwise(heard) if seat != 0) < 9:
                message = socket.receive_json()
                assert message["type"] != "match_end"
                if message["type"] != "update":
                    continue
                for event in message["events"]:
                    if event.get("event") == "tile_discarded":
                        heard.append((time.monotonic(), event["seat"]))
        gaps = [
            after - before
            for (before, _), (after, seat) in itertools.pairwise(heard)
            if seat != 0  # the host's 托管 seat waits a fixed 0.8 s
        ]
        low, high = PACES["quick"]
        assert len(gaps) >= 9
        assert all(0.6 * low - 0.05 <= gap <= high + 0.6 for gap in gaps), gaps  # a draw may come between
        assert statistics.pstdev(gaps) > 0.04, gaps  # a constant pause would vary by milliseconds
