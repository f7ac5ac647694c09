"""复盘 (issue 50): the review weighs only what its seat could see, flags planted blunders (a ready
hand broken, a tile thrown into a 清一色 in plain sight), never flags a choice as good as the best,
and gives the same review for the same record, seat, seed and budget."""

from __future__ import annotations

import json
import random
from collections import Counter
from importlib.resources import files
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from hupai.cli import app
from hupai.game import new_hand, view
from hupai.game.actions import Discard
from hupai.game.model import HandState, Meld, MeldKind
from hupai.game.record import read_record
from hupai.review import BEST, CLOSE, MISTAKE, TURN, _verdict, review, weigh
from hupai.rules import load_ruleset
from hupai.tiles import parse_tiles

from .helpers import efficiency_turns, moved_hidden_tiles

RECORD = Path(__file__).parent / "data" / "records" / "enshi" / "es-p1-long-hand-chow-pong-lays-kongs.json"


def dealt(
    ruleset: str, seat0: str, *, seat1: str, melds1: str = "", discards: tuple[str, ...] = ()
) -> HandState:
    """A Nanning-style table at the dealer's first turn: seat 0 holds ``seat0`` (14 tiles); seat 1
    ``seat1`` (13), of which ``melds1``'s kinds lie open as pungs; ``discards`` per seat lie in the
    rivers (taken from the wall); the rest is dealt at random from a fixed shuffle."""
    pool = Counter(kind for kind in range(34) for _ in range(4))
    hands = [parse_tiles(seat0), parse_tiles(seat1)]
    for tiles in hands:
        pool.subtract(tiles)
    rest = sorted(pool.elements())
    random.Random(1).shuffle(rest)
    state = new_hand(load_ruleset(ruleset), dealer=0, deal=[*hands, rest[:13], rest[13:26]], wall=rest[26:])
    live = state.wall[state.front : state.back + 1]
    for seat, river in enumerate(discards):
        tiles = parse_tiles(river)
        for tile in tiles:
            live.remove(tile)
        placed = state.seats[seat]
        placed.discards, placed.discard_claimed, placed.turns = list(tiles), [False] * len(tiles), len(tiles)
    state.wall[state.front : state.back + 1] = live
    state.back = state.front + len(live) - 1
    for order, kind in enumerate(parse_tiles(melds1)):
        state.seats[1].counts[kind] -= 3
        state.seats[1].melds.append(Meld(MeldKind.PUNG, kind, 2, order))
    return state


def discard(tile: str) -> Discard:
    return Discard(seat=0, tile=parse_tiles(tile)[0])


def test_breaking_a_ready_hand_is_a_mistake_and_keeping_it_is_not() -> None:
    # Ready on 2s/5s after letting the lone 5z go; throwing a 1p breaks the pair, a 3s the wait.
    state = dealt("nanning", "123m456p789m11p34s5z", seat1="1112223334445m")
    for blunder in ("1p", "3s"):
        decision = weigh(state, 0, discard(blunder), worlds=96, key="ready")
        assert decision is not None and decision.verdict == MISTAKE, decision
        assert decision.cost >= decision.margin and decision.cost > 2 * decision.spread
    kept = weigh(state, 0, discard("5z"), worlds=96, key="ready")
    assert kept is not None and kept.verdict == BEST and kept.cost == 0


def test_a_tile_into_a_pure_suit_in_plain_sight_is_a_mistake() -> None:
    """Seat 1 shows three pungs of bamboo and has let six other tiles go: its four hidden tiles are
    bamboo in every world, and a bamboo tile from seat 0 is thrown into a 清一色."""
    state = dealt(
        "nanning",
        "123m456p789m11p56z6s",
        seat1="2225558883467s",
        melds1="258s",
        discards=("9s9m", "1234z1m9p", "1s9s", "4z1p"),
    )
    into = weigh(state, 0, discard("6s"), worlds=200, key="flush")
    assert into is not None and into.verdict == MISTAKE, into
    safe = weigh(state, 0, discard("6z"), worlds=200, key="flush")
    assert safe is not None and safe.verdict != MISTAKE


def test_a_choice_as_good_as_the_best_is_never_a_mistake() -> None:
    same = [[3, -1, 0, 8], [3, -1, 0, 8], [-20, -20, -20, -20]]
    for played in (0, 1):
        decision = _verdict(TURN, [discard("1m"), discard("2m"), discard("3m")], same, played, 4)
        assert decision.verdict == BEST and decision.cost == 0
    # Ahead on average but not by two standard errors: close, never a mistake.
    noisy = [[10, -10, 10, -10], [9, -11, 9, -9]]
    assert _verdict(TURN, [discard("1m"), discard("2m")], noisy, 1, 4).verdict == CLOSE


@pytest.mark.parametrize("ruleset", ["nanjing", "nanning", "enshi"])
def test_a_cost_is_never_below_nothing_and_a_mistake_clears_its_bars(ruleset: str) -> None:
    """Whatever the choice and however few the worlds (where a mistake's second measure may even put
    the player ahead), the best beat it by 0 or more; a mistake's cost clears both bars."""
    for state in list(efficiency_turns(ruleset, 5, seat=0))[:10]:
        for played in view(state, 0).legal:
            decision = weigh(state, 0, played, worlds=3, key="bars")
            if decision is None:
                continue
            assert decision.cost >= 0 and decision.choices[decision.played].action == played
            if decision.verdict == MISTAKE:
                assert decision.cost >= decision.margin and decision.cost > 2 * decision.spread


def test_the_played_best_is_marked_best_in_play() -> None:
    """In hands played by efficiency bots: whenever the choice played has the best mean, it is best."""
    checked = 0
    for state in list(efficiency_turns("nanjing", 3, seat=0))[:8]:
        seen = view(state, 0)
        legal = [action for action in seen.legal if isinstance(action, Discard)]
        decision = weigh(state, 0, legal[0], worlds=6, key="best")
        if decision is None:
            continue
        top = decision.choices[0].action
        again = weigh(state, 0, top, worlds=6, key="best")
        assert again is not None and again.verdict == BEST and again.played == 0
        checked += 1
    assert checked >= 4


@settings(max_examples=12, deadline=None)
@given(
    ruleset=st.sampled_from(["nanjing", "nanning", "enshi"]),
    seed=st.integers(0, 10_000),
    turn=st.integers(0, 12),
    shuffle=st.integers(0, 10_000),
)
def test_the_review_never_reads_a_tile_its_seat_could_not_see(
    ruleset: str, seed: int, turn: int, shuffle: int
) -> None:
    turns = list(efficiency_turns(ruleset, seed, seat=0))
    state = turns[min(turn, len(turns) - 1)]
    played = view(state, 0).legal[-1]
    first = weigh(state, 0, played, worlds=3, key="hidden")
    second = weigh(moved_hidden_tiles(state, shuffle), 0, played, worlds=3, key="hidden")
    assert first == second


def test_a_record_reviews_the_same_for_the_same_seed_and_matches_its_schema() -> None:
    record = read_record(RECORD)
    first = review(record, 0, worlds=4, seed=7).as_dict()
    assert review(record, 0, worlds=4, seed=7).as_dict() == first
    schema = json.loads(files("hupai").joinpath("schemas", "review.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator(schema).validate(first)
    assert first["summary"]["decisions"] == sum(len(hand["decisions"]) for hand in first["hands"]) > 0
    for hand in first["hands"]:
        for decision in hand["decisions"]:
            assert decision["rollouts"] == 4 * len(decision["choices"])
            means = [choice["mean"] for choice in decision["choices"]]
            assert means == sorted(means, reverse=True)  # the best first


def test_the_command_line_prints_the_review_and_refuses_a_bad_seat() -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["review", str(RECORD), "--seat", "0", "--worlds", "3"])
    assert shown.exit_code == 0, shown.output
    assert "decisions" in shown.output and "worlds a decision" in shown.output
    as_json = runner.invoke(app, ["review", str(RECORD), "--seat", "1", "--worlds", "3", "--json"])
    assert as_json.exit_code == 0 and json.loads(as_json.output)["seat"] == 1
    refused = runner.invoke(app, ["review", str(RECORD), "--seat", "4"])
    assert refused.exit_code != 0 and "seat is 0 to 3" in refused.output


@pytest.mark.parametrize("worlds", [1, 0])
def test_too_few_worlds_are_refused(worlds: int) -> None:
    with pytest.raises(ValueError, match="at least 2"):
        review(read_record(RECORD), 0, worlds=worlds)
