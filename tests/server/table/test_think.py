"""Bots that feel like people: a think time drawn for every decision within the room's pace, longer
the more a choice offers, shorter for a forced move or a win; a room's pace is its own setting and
the table waits as long as it says. The figures come from the decisions of whole self-played hands
in all three rule sets."""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from hupai.bots import make_bot
from hupai.bots.selfplay import play
from hupai.game.actions import Action, Discard, Pass
from hupai.game.match import Match
from hupai.game.view import SeatView
from hupai.rules import load_ruleset
from hupai.server.table import think
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


# The moves a seat decides on (a think time each, a pass none); draws and flowers come by themselves.
DECIDED = frozenset(
    {"tile_discarded", "ponged", "chowed", "kong_claimed", "kong_added", "concealed_kong_declared"}
    | {"ready_declared", "tile_laid"}
)
# How much later than its think times a move may be heard: the table's own work and the way of its
# message to this thread, on a busy machine (a pace's range is wider: a room waiting the wrong pace,
# or every think time twice, is still caught).
LATE = 1.0


def test_a_table_waits_for_its_bots_as_the_room_s_pace_says(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unset ``bot_delay_seconds`` (as a real server): every think time the table draws is its room's
    quick pace's, the table waits them all out, and the bots' moves, timed as the host hears them
    while the host's own seat plays by 托管, come varied and none later than its think times say."""
    drawn: list[tuple[str, Action, float]] = []  # every think time the table drew: pace, choice, seconds

    def recorded(pace: str, legal: Sequence[Action], choice: Action, rng: random.Random) -> float:
        seconds = think_seconds(pace, legal, choice, rng)
        drawn.append((pace, choice, seconds))
        return seconds

    monkeypatch.setattr(think, "think_seconds", recorded)
    with server(url, bot_delay_seconds=None) as client:
        host = guest(client, "甲")
        number = new_room(client, host, preset="nanjing", hands=4, bot_pace="quick")
        assert client.get(f"/api/rooms/{number}{with_invite(number)}").json()["bot_pace"] == "quick"
        started = time.monotonic()  # before the first move of the match was due
        client.post(f"/api/rooms/{number}/start", json={}, headers=host)
        with connect(client, number, host) as socket:
            socket.send_json({"type": "trustee", "on": True})
            heard: list[tuple[float, int, dict[str, Any]]] = []  # each event, when heard, in which hand

            def gaps() -> list[tuple[float, int]]:
                """Per bot's discard after another discard of its hand: the seconds between the two as
                heard, and how many decisions were made in between (the discard's own included)."""
                out = []
                discards = [index for index, (_, _, event) in enumerate(heard) if discarded(event)]
                for before, after in itertools.pairwise(discards):
                    (at, hand, _), (then, later, event) = heard[before], heard[after]
                    if hand == later and event["seat"] != 0:  # the host's 托管 seat waits a fixed 0.8 s
                        made = sum(1 for _, _, e in heard[before + 1 : after + 1] if e["event"] in DECIDED)
                        out.append((then - at, made))
                return out

            while len(gaps()) < 9:
                message = socket.receive_json()
                assert message["type"] != "match_end"
                if message["type"] == "update":
                    heard.extend((time.monotonic(), message["hand"], event) for event in message["events"])
            made = list(drawn)  # the table plays on meanwhile
        low, high = PACES["quick"]
        assert made and {pace for pace, _, _ in made} == {"quick"}
        assert all(0.6 * low <= seconds <= high for _, _, seconds in made)
        # The table waits every think time out, one move after another: from before the start to the
        # last discard heard at least every discard's (each bot's first ones in the order it drew
        # them, each of the host's a fixed 0.8 s), whatever the machine's load (the microsecond
        # allows for the rounding of a sum of floats).
        discards = [(at, event["seat"]) for at, _, event in heard if discarded(event)]
        thought = sum(
            think.TRUSTEE_SECONDS if seat == 0 else seconds_of_discards(made, seat)[index]
            for seat, index in numbered(seat for _, seat in discards)
        )
        assert discards[-1][0] - started >= thought - 1e-6
        timed = gaps()
        assert all(gap <= decisions * high + LATE for gap, decisions in timed), timed
        assert statistics.pstdev(gap for gap, _ in timed) > 0.04, timed  # a constant pause varies by ms


def discarded(event: dict[str, Any]) -> bool:
    return bool(event["event"] == "tile_discarded")


def seconds_of_discards(made: list[tuple[str, Action, float]], seat: int) -> list[float]:
    """The think times drawn for ``seat``'s discards, in order (each turn's draw is played)."""
    return [seconds for _, choice, seconds in made if isinstance(choice, Discard) and choice.seat == seat]


def numbered(seats: Iterable[int]) -> Iterator[tuple[int, int]]:
    """Each seat with how many times it came before: 0, 1, 0, 2 → (0, 0), (1, 0), (0, 1), (2, 0)."""
    seen: dict[int, int] = {}
    for seat in seats:
        yield seat, seen.get(seat, 0)
        seen[seat] = seen.get(seat, 0) + 1
