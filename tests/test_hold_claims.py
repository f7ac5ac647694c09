"""Held claim windows (``HandState.hold_claims``): a discard nobody may claim still opens a window, so
what a seat or a spectator sees never tells whether another seat could have claimed — and passes are
private to the seat that passed.

Two prepared Nanjing deals differ only in seat 2's hand: in ``CLAIM`` seat 2 may pong seat 0's first
discard (1z), in ``QUIET`` nobody may claim it.
"""

from __future__ import annotations

from typing import Any

from hupai.game.actions import Discard, Pass, Pong
from hupai.game.engine import held_open, legal_actions, release_claims, step
from hupai.game.events import KongAdded, Passed, TileDrawn
from hupai.game.model import HandState, Phase
from hupai.game.record import apply_action
from hupai.game.view import event_position, events_for, view
from hupai.tiles import parse_tiles

from .helpers import play, table

SEAT0 = "123456789m123p1z5s"  # the dealer lets 1z go first
SEAT1 = "1s3s5s7s9s2z3z4z9p7p5p2m8m"
SEAT3 = "1m4m7m1s4s7s4p7p9p3s6s9s2z"
CLAIM = {0: SEAT0, 1: SEAT1, 2: "1z1z2s4s6s8s6p8p3m5m7m9m4z", 3: SEAT3}
QUIET = {0: SEAT0, 1: SEAT1, 2: "2z3z2s4s6s8s6p8p3m5m7m9m4z", 3: SEAT3}
DRAWS = "8s6m9m1z"  # seats 1 (or 3 after a pong), 0, 1, 2 in turn: nobody may claim them


def held(hands: dict[int, str]) -> HandState:
    state = table(hands, draws=DRAWS)
    state.hold_claims = True
    return state


def public(state: HandState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees of the table, its events included."""
    seen = view(state, seat).as_dict()
    seen["events"] = events_for(state, seat)
    return seen


def test_a_discard_nobody_may_claim_opens_a_window_held_for_nobody() -> None:
    state = play(held(QUIET), "0 d 1z")
    assert state.phase is Phase.CLAIM
    assert held_open(state)
    assert all(legal_actions(state, seat) == [] for seat in range(4))
    assert view(state, 1).phase == view(state, None).phase == "claim"
    assert view(state, None).open_tile == parse_tiles("1z")[0]
    events = release_claims(state)
    assert (state.phase, state.turn) == (Phase.TURN, 1)
    assert events == [TileDrawn(1, parse_tiles("8s")[0], False)]
    assert release_claims(state) == []  # nothing held now: nothing happens


def test_released_play_is_play_without_holding() -> None:
    plain = play(table(QUIET, draws=DRAWS), "0 d 1z")
    state = play(held(QUIET), "0 d 1z")
    release_claims(state)
    assert state.events == plain.events
    assert state.actions == plain.actions
    assert view(state, 1) == view(plain, 1)


def test_a_window_with_options_is_unchanged_by_holding() -> None:
    state = play(held(CLAIM), "0 d 1z")
    assert legal_actions(state, 2) == [Pong(seat=2), Pass(seat=2)]
    assert not held_open(state)
    step(state, Pass(seat=2))
    assert state.phase is Phase.TURN and state.turn == 1  # the last decision closes it at once


def test_a_seat_and_a_spectator_cannot_tell_whether_anyone_could_claim() -> None:
    could = play(held(CLAIM), "0 d 1z")
    quiet = play(held(QUIET), "0 d 1z")
    for seat in (1, 3, None):
        assert public(could, seat) == public(quiet, seat)
    step(could, Pass(seat=2))
    release_claims(quiet)
    for seat in (1, 3, None):
        assert public(could, seat) == public(quiet, seat)
    assert Passed(2) in events_for(could, 2)  # the seat that passed sees its own pass


def test_passes_are_shown_only_to_the_seat_that_passed() -> None:
    state = play(held(CLAIM), "0 d 1z", "2 pass")
    assert Passed(2) in state.events
    assert Passed(2) in events_for(state, 2)
    for seat in (0, 1, 3, None):
        assert not any(isinstance(event, Passed) for event in events_for(state, seat))


def test_event_positions_count_what_the_seat_sees() -> None:
    state = play(held(CLAIM), "0 d 1z", "2 pass")
    passed = state.events.index(Passed(2))
    after = len(events_for(state, 1, start=0))
    assert after == len(state.events) - 1
    assert event_position(state, 1, after) == (len(state.events), after)
    assert event_position(state, 2, passed + 1) == (passed + 1, passed + 1)
    assert event_position(state, 1, passed) == (passed, passed)
    assert event_position(state, 1, passed + 1) == (passed + 2, passed + 1)  # past the hidden pass
    assert event_position(state, None, 10_000) == (len(state.events), after)  # asked for too many


def test_an_added_kong_nobody_may_rob_is_held_too() -> None:
    state = held(CLAIM)
    state = play(state, "0 d 1z", "2 pong", "2 d 2s", "3 t", "0 t", "1 t", "2 kong 1z")
    assert state.phase is Phase.ROB and held_open(state)
    assert state.events[-1] == KongAdded(2, parse_tiles("1z")[0], completed=False)
    assert all(legal_actions(state, seat) == [] for seat in range(4))
    events = release_claims(state)
    assert events[0] == KongAdded(2, parse_tiles("1z")[0], completed=True)
    assert (state.phase, state.turn) == (Phase.TURN, 2)
    assert isinstance(events[-1], TileDrawn) and events[-1].replacement


def test_a_record_action_releases_a_held_window() -> None:
    state = play(held(QUIET), "0 d 1z")
    apply_action(state, Discard(seat=1, tile=parse_tiles("8s")[0]))  # seat 1 draws 8s first
    assert state.seats[1].discards == [parse_tiles("8s")[0]]
