"""Invariants over thousands of hands played by random legal actions."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from hupai.bots import make_bot
from hupai.game import IllegalAction, Match, legal_actions, read_record, record_from_match, step, verify
from hupai.game.actions import Action, DeclareReady, Discard, Kong, Pass, Pong, Win
from hupai.game.events import Chowed, TileDrawn, TilesDealt
from hupai.game.fairness import hand_secret
from hupai.game.model import SEATS, HandState, Phase
from hupai.game.record import write_record
from hupai.game.view import SeatView, events_for, view, view_message
from hupai.hand import shanten
from hupai.replay import replay, verify_record
from hupai.rules import load_ruleset
from hupai.sim import SimConfig, play_hand, simulate

HANDS = 1600
HANDS_PER_MATCH = 8


def tiles_in_play(state: HandState) -> Counter[int]:
    """Every tile accounted for: hands, melds, flowers, discards left on the table, and the wall."""
    found: Counter[int] = Counter()
    for player in state.seats:
        found.update({kind: count for kind, count in enumerate(player.counts) if count})
        for meld in player.melds:
            found.update(meld.tiles())  # as they lie: a 赖子 standing in a chow is that 赖子
        found.update(player.flowers)
        found.update(player.laid)
        found.update(
            tile for tile, claimed in zip(player.discards, player.discard_claimed, strict=True) if not claimed
        )
    found.update(state.wall[state.front : state.back + 1])
    if state.pizi is not None:
        found[state.pizi] += 1
    return found


def acting_seat(state: HandState) -> int:
    if state.phase is Phase.TURN:
        return state.turn
    assert state.window is not None
    return next(seat for seat in sorted(state.window.options) if seat not in state.window.decisions)


def choose(rng: random.Random, state: HandState, actions: list[Action]) -> Action:
    """Mostly sensible play (so that hands are won in every way), with random choices mixed in."""
    wins = [action for action in actions if isinstance(action, Win)]
    if wins and rng.random() < 0.9:
        return wins[0]
    claims = [action for action in actions if isinstance(action, Pong | Kong | DeclareReady)]
    if claims and rng.random() < 0.3:
        return rng.choice(claims)
    discards = [action for action in actions if isinstance(action, Discard)]
    if discards and rng.random() < 0.85:
        counts = state.seats[discards[0].seat].counts

        def after(action: Discard) -> int:
            counts[action.tile] -= 1
            value = shanten(counts)
            counts[action.tile] += 1
            return value

        scored = [(after(action), action) for action in discards]
        best = min(value for value, _ in scored)
        return rng.choice([action for value, action in scored if value == best])
    passes = [action for action in actions if isinstance(action, Pass)]
    if passes and rng.random() < 0.7:
        return passes[0]
    return rng.choice(actions)


def candidate_actions(rng: random.Random) -> list[Action]:
    """Random actions for random seats, most of them illegal at any given moment."""
    seat = rng.randrange(SEATS)
    tile = rng.randrange(34)
    return [
        Discard(seat=seat, tile=tile),
        Pong(seat=seat),
        Kong(seat=seat, tile=tile),
        Kong(seat=seat),
        Win(seat=seat),
        Pass(seat=seat),
        DeclareReady(seat=seat),
    ]


def fingerprint(state: HandState) -> tuple[object, ...]:
    return (state.phase, state.turn, state.front, state.back, len(state.events), len(state.transfers))


def check_views(state: HandState, *, start: int, serialise: bool) -> None:
    """Each seat's view holds its own tiles and public facts only; its events from ``start`` on
    hide the other seats' dealt and drawn tiles."""
    for seat in range(SEATS):
        seen = view(state, seat)
        own = tuple(kind for kind in range(34) for _ in range(state.seats[seat].counts[kind]))
        assert seen.hand == own
        if state.phase is not Phase.ENDED:
            assert seen.hands is None
        # Every discard is marked: drawn and let go (摸切) or not, and its place in the hand's order.
        assert all(len(p.from_draw) == len(p.order) == len(p.discards) for p in seen.seats)
        assert sorted(n for p in seen.seats for n in p.order) == list(range(state.discards_made))
        if serialise:
            data = seen.as_dict()
            assert "wall" not in data
            assert set(data["seats"][0]) == {
                "concealed_count",
                "flowers",
                "melds",
                "discards",
                "claimed",
                "ready",
                "laid",
                "multiplier",
                "from_draw",
                "order",
            }
            assert SeatView.from_dict(data) == seen  # what a network client rebuilds is the view
            # What a table sends is the same view without the legal actions and the rule card.
            message = view_message(state, seat)
            assert message == {key: value for key, value in data.items() if key not in ("legal", "options")}
            assert SeatView.from_dict(message, options=seen.options) == replace(seen, legal=())
        for event in events_for(state, seat, start=start):
            if isinstance(event, TilesDealt) and event.seat != seat:
                assert event.tiles is None
            if isinstance(event, TileDrawn) and event.seat != seat:
                assert event.tile is None
    spectator = view(state, None)
    assert spectator.hand is None
    assert spectator.legal == ()
    if serialise:
        assert view_message(state, None) == spectator.as_dict(brief=True)
        # Each seat's public part is built once and shared by the views that see it alike.
        shared = [view_message(state, viewer)["seats"] for viewer in (None, 0, 1)]
        assert shared[0][3] is shared[1][3] is shared[2][3]


@pytest.mark.parametrize("preset", ["nanjing", "nanjing-002", "nanning", "nanning-004", "enshi"])
def test_random_play_keeps_every_invariant(preset: str) -> None:
    ruleset = load_ruleset(preset)
    full_set = Counter(ruleset.tile_set())
    rng = random.Random(preset)
    hands = wins = 0
    for match_number in range(HANDS // HANDS_PER_MATCH // 2):
        match = Match(ruleset, seed=match_number)
        states = []
        for _ in range(HANDS_PER_MATCH):
            state = match.start_hand()
            steps = checked = 0
            while state.phase is not Phase.ENDED:
                seat = acting_seat(state)
                actions = legal_actions(state, seat)
                assert actions, "a seat asked to act always has something to do"
                if steps % 7 == 0:
                    before = fingerprint(state)
                    for candidate in candidate_actions(rng):
                        if candidate not in legal_actions(state, candidate.seat):
                            with pytest.raises(IllegalAction) as refused:
                                verify(state, candidate)
                            assert str(refused.value)
                            with pytest.raises(IllegalAction):
                                step(state, candidate)
                    assert fingerprint(state) == before
                step(state, choose(rng, state, actions))
                steps += 1
                assert tiles_in_play(state) == full_set
                assert sum(state.deltas()) == 0
                assert all(transfer.payer != transfer.payee for transfer in state.transfers)
                if steps % 5 == 0:
                    check_views(state, start=checked, serialise=steps % 25 == 0)
                    checked = len(state.events)
            check_views(state, start=0, serialise=True)
            states.append(state)
            result = match.finish_hand()
            assert sum(result.deltas) == 0
            hands += 1
            wins += result.outcome == "win"
        assert sum(match.totals) == 0
        # Replaying the record reproduces every event.
        text = json.dumps(write_record(record_from_match(match, states)), ensure_ascii=False)
        replayed = replay(read_record(text))
        assert [state.events for state in replayed.states] == [state.events for state in states]
        assert replayed.match.totals == match.totals
    assert hands == HANDS // 2
    assert wins > hands // 5


def laizi_chows(state: HandState) -> int:
    return sum(1 for player in state.seats for meld in player.melds if meld.laizi_for is not None)


def check_laizi_chows(state: HandState) -> None:
    """Each chow with a 赖子 (Enshi's laizi_in_melds): its 赖子 lies in place of one run kind, its event
    says so, and a win whose chow holds one is not 硬 (§3.3; ``laizi_as_itself_hard`` is off)."""
    for seat, player in enumerate(state.seats):
        events = [event for event in state.events if isinstance(event, Chowed) and event.seat == seat]
        chows = [meld for meld in player.melds if meld.kind.value == "chow"]
        assert len(events) == len(chows)
        for event, meld in zip(events, chows, strict=True):
            assert (event.tile, event.claimed, event.laizi_for, event.laizi) == (
                meld.tile,
                meld.claimed,
                meld.laizi_for,
                meld.laizi,
            )
            if meld.laizi_for is None:
                assert meld.laizi is None and meld.tiles() == meld.kind.tiles(meld.tile)
                continue
            assert meld.laizi == state.laizi is not None
            run = list(meld.kind.tiles(meld.tile))
            assert meld.laizi_for in run and meld.laizi_for != meld.claimed
            run[run.index(meld.laizi_for)] = state.laizi
            assert meld.tiles() == tuple(run)
    for win in state.wins:
        if laizi_chows_of(state, win.context.seat):
            assert win.sheet is not None and "hard" not in {entry.key for entry in win.sheet.items}


def laizi_chows_of(state: HandState, seat: int) -> int:
    return sum(1 for meld in state.seats[seat].melds if meld.laizi_for is not None)


LAIZI_IN_MELDS = {"laizi_in_melds": True}


def test_self_play_with_laizi_in_chows_keeps_every_invariant(tmp_path: Path) -> None:
    """Enshi with ``laizi_in_melds``: bots play 240 hands through hupai.sim with its invariants checked
    after every step (the tiles conserved, a 赖子 in a chow counted as the 赖子 it is); every match's
    record replays to the same results, its chows with a 赖子 as played."""
    config = SimConfig(ruleset="enshi", options=LAIZI_IN_MELDS, hands=240, seed=4, records=str(tmp_path))
    result = simulate(config)  # raises InvariantError on a broken invariant
    assert result.hands == 240
    full_set = Counter(load_ruleset("enshi", LAIZI_IN_MELDS).tile_set())
    totals: Counter[str] = Counter()
    stood = wins = 0
    for path in sorted(tmp_path.glob("match-*.json")):
        record = read_record(path)
        replayed = replay(record)
        for seat, label in enumerate(record.seats):
            totals[label] += replayed.match.totals[seat]
        for state in replayed.states:
            assert tiles_in_play(state) == full_set
            check_laizi_chows(state)
            stood += laizi_chows(state)
            wins += sum(1 for win in state.wins if laizi_chows_of(state, win.context.seat))
    assert dict(totals) == {label: stats.total for label, stats in result.bots.items()}
    assert stood >= 30, stood  # the bots do chow with a 赖子: the checks above had something to check
    assert wins >= 5, wins


def test_fair_dealt_hands_with_laizi_in_chows_verify() -> None:
    """Hands dealt as a server room deals them (hupai-fair/2), played by bots with ``laizi_in_melds``
    and hupai.sim's invariants: ``hupai verify`` verifies every hand, and the replay reproduces every
    event, the chows with a 赖子 among them."""
    ruleset = load_ruleset("enshi", LAIZI_IN_MELDS)
    stood = 0
    for seed in range(3):
        match = Match(ruleset, seed=seed)
        states = []
        for index in range(6):
            state = match.start_hand(
                fair_secret=hand_secret("c3" * 32, seed * 100 + index),
                contributions=[f"{index:02x}" * 16, "", "c0ffee", ""],
                fair_room=f"{seed:06d}",
                fair_hand=index,
            )
            bots = [make_bot("efficiency", seed * 1000 + index * 4 + seat) for seat in range(4)]
            play_hand(state, bots)
            match.finish_hand(state)
            states.append(state)
            stood += laizi_chows(state)
        data = write_record(record_from_match(match, states))
        data["room"], data["hand_index"] = f"{seed:06d}", 0
        verdicts = verify_record(read_record(json.dumps(data, ensure_ascii=False)))
        problems = [verdict.problems for verdict in verdicts]
        assert [verdict.verified for verdict in verdicts] == [True] * len(states), problems
        replayed = replay(read_record(json.dumps(data, ensure_ascii=False)))
        assert [state.events for state in replayed.states] == [state.events for state in states]
        assert replayed.match.totals == match.totals
    assert stood >= 4, stood


def test_full_view_only_after_the_hand_and_spectators_see_no_hand() -> None:
    from hupai.game import full_view, new_hand

    state = new_hand(load_ruleset("nanjing"), seed=3)
    with pytest.raises(ValueError, match="once the hand is over"):
        full_view(state)
    assert view(state, None).hand is None
    assert view(state, None).hands is None
    rng = random.Random(3)
    while state.phase is not Phase.ENDED:
        seat = acting_seat(state)
        step(state, choose(rng, state, legal_actions(state, seat)))
    opened = full_view(state)
    assert opened.hands is not None
    assert [len(hand) for hand in opened.hands] == [player.concealed_count for player in state.seats]
    assert SeatView.from_dict(opened.as_dict()) == opened


def _containers(state: HandState) -> list[object]:
    """Every mutable container and record a hand state holds (a copy must share none of them)."""
    found: list[object] = [state.wall, state.seats, state.events, state.replacement_chain, state.wins]
    found += [state.transfers, state.declare_pending, state.actions, state.refused_wins]
    for player in state.seats:
        found += [player, player.counts, player.flowers, player.melds, player.discards]
        found += [player.discard_claimed, player.discarded_kinds, player.passed_pungs, player.laid]
        found += player.melds
    if state.window is not None:
        found += [state.window, state.window.options, state.window.decisions]
        found += list(state.window.options.values())
    return found


@pytest.mark.parametrize("preset", ["nanjing", "nanning", "enshi"])
def test_a_copy_is_equal_and_independent(preset: str) -> None:
    """HandState.copy(): equal in every field, sharing no mutable part; playing on the copy leaves the
    original as it was."""
    from hupai.game.engine import held_open, release_claims

    ruleset = load_ruleset(preset)
    rng = random.Random(f"copy {preset}")
    for number in range(24):
        match = Match(ruleset, seed=number)
        state = match.start_hand()
        state.hold_claims = number % 2 == 1  # a live table's held windows
        steps = 0
        while state.phase is not Phase.ENDED:
            if held_open(state):
                release_claims(state)
                continue
            if steps % 3 == 0:
                twin = state.copy()
                assert twin == state
                shared = {id(part) for part in _containers(state)} & {id(part) for part in _containers(twin)}
                assert not shared
                if steps % 9 == 0:
                    before = state.copy()
                    while twin.phase is not Phase.ENDED:  # play the copy on to its end
                        if held_open(twin):
                            release_claims(twin)
                            continue
                        step(twin, rng.choice(legal_actions(twin, acting_seat(twin))))
                    assert state == before
            step(state, choose(rng, state, legal_actions(state, acting_seat(state))))
            steps += 1


def test_the_engines_shuffle_is_pythons() -> None:
    """A seed deals what random.shuffle gives (records written before keep their deals)."""
    from hupai.game.engine import shuffle

    for seed in range(200):
        size = 1 + seed % 150
        ours, theirs = list(range(size)), list(range(size))
        shuffle(ours, random.Random(seed))
        random.Random(seed).shuffle(theirs)
        assert ours == theirs


def garbage_of_views() -> list[str]:
    """The types of what a hand's views, for every seat after every move, leave to the collector."""
    import gc

    state = Match(load_ruleset("nanjing"), seed=5).start_hand()
    rng = random.Random(5)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        while state.phase is not Phase.ENDED:
            for seat in (0, 1, 2, 3, None):
                SeatView.from_dict(view(state, seat).as_dict())
                view_message(state, seat)
            choices = [legal for seat in range(SEATS) if (legal := legal_actions(state, seat))]
            step(state, rng.choice(choices[0]))
        gc.collect()
        return [type(thing).__qualname__ for thing in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_views_leave_no_garbage_for_the_collector() -> None:
    """A server builds a view for every seat after every move: none may leave reference cycles
    behind (compiled nested functions did), or the garbage collector's pauses stall every table.
    Counted in a process of its own: in this one, threads left by other tests (a server's, a
    player's) may leave garbage of their own meanwhile."""
    done = subprocess.run(
        [sys.executable, "-c", f"import json, {__name__} as t; print(json.dumps(t.garbage_of_views()))"],
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []
