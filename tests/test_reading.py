"""The wait reader: features from the seat's view only, the shipped weights, plain-Python inference."""

from __future__ import annotations

import ast
import json
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest

import hupai
from hupai.bots import StrongBot
from hupai.bots.reading import (
    FORMAT,
    READY_FEATURES,
    WAIT_FEATURES,
    WIN_FEATURES,
    Logistic,
    load_reader,
    ready_features,
    wait_features,
    win_features,
)
from hupai.game import Phase, legal_actions, view
from hupai.game.actions import Discard
from hupai.game.engine import step
from hupai.game.match import Match
from hupai.game.model import HandState
from hupai.game.view import SeatView
from hupai.rules import load_ruleset
from hupai.sim import acting_seat

from .helpers import needs_train_extra

RULESETS = ("nanjing", "nanning", "enshi")
ROOT = Path(__file__).parent.parent


def midgame(ruleset: str, discards: int = 24) -> HandState:
    """A hand played by strong bots until ``discards`` tiles have been let go (the first seed whose
    hand lasts that long)."""
    for seed in range(100):
        state = Match(load_ruleset(ruleset), seed=seed).start_hand()
        bots = [StrongBot(seat) for seat in range(4)]
        while state.phase is not Phase.ENDED and state.discards_made < discards:
            seat = acting_seat(state)
            step(state, bots[seat].choose(view(state, seat), legal_actions(state, seat)))
        if state.phase is not Phase.ENDED:
            return state
    raise AssertionError("no hand lasted long enough")


def test_the_model_file_ships_with_the_package_for_every_rule_set() -> None:
    text = resources.files("hupai.bots").joinpath("waits_model.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert data["format"] == FORMAT
    assert set(data["rulesets"]) == set(RULESETS)
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "bots/waits_model.json" in pyproject
    for ruleset in RULESETS:
        reader = load_reader(ruleset)
        assert reader is not None
        assert len(reader.ready.weights) == len(READY_FEATURES)
        assert len(reader.wait.weights) == len(WAIT_FEATURES)
        assert len(reader.win.weights) == len(WIN_FEATURES)
        assert reader.win_gain > 0
        assert reader.deal_in_cost > 0
    assert load_reader("no-such-rules") is None


def test_logistic_is_a_dot_product_and_a_sigmoid() -> None:
    model = Logistic(weights=(2.0, -1.0), intercept=0.5)
    assert model([0.0, 0.0]) == pytest.approx(1 / (1 + 2.718281828459045**-0.5))
    assert model([1.0, 1.0]) == pytest.approx(1 / (1 + 2.718281828459045**-1.5))
    assert Logistic(weights=(-100.0,), intercept=0.0)([1.0]) == 0.0
    with pytest.raises(ValueError, match="features"):
        Logistic.from_dict({"features": ["a"], "weights": [1.0], "intercept": 0.0}, ["b"])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_reading_gives_a_chance_per_opponent_and_kind(ruleset: str) -> None:
    state = midgame(ruleset)
    seat = acting_seat(state)
    seen = view(state, seat)
    reader = load_reader(ruleset)
    assert reader is not None
    reading = reader.read(seen)
    assert sorted(reading) == sorted(set(range(4)) - {seat})
    for chances in reading.values():
        assert len(chances) == 34
        assert all(0.0 <= chance <= 1.0 for chance in chances)
    for other in reading:
        assert len(ready_features(seen, other)) == len(READY_FEATURES)
        rows = wait_features(seen, other)
        assert len(rows) == 34
        assert all(len(row) == len(WAIT_FEATURES) for row in rows)
    assert len(win_features(1, 50, 2)) == len(WIN_FEATURES)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_reading_depends_on_the_view_alone(ruleset: str) -> None:
    """Two tables that differ only in what the seat cannot see (another hand, the wall) read the
    same; the view rebuilt from what is sent to an external bot reads the same too."""
    state = midgame(ruleset)
    seat = acting_seat(state)
    other = (seat + 1) % 4
    hidden = state.copy()
    held = next(kind for kind in range(34) if hidden.seats[other].counts[kind])
    position = next(index for index in range(hidden.front, hidden.back + 1) if hidden.wall[index] != held)
    swapped = hidden.wall[position]
    hidden.seats[other].counts[held] -= 1
    hidden.seats[other].counts[swapped] += 1
    hidden.wall[position] = held
    assert hidden.seats[other].counts != state.seats[other].counts
    seen = view(state, seat)
    assert view(hidden, seat) == seen
    reader = load_reader(ruleset)
    assert reader is not None
    assert reader.read(view(hidden, seat)) == reader.read(seen)
    rebuilt = SeatView.from_dict(json.loads(json.dumps(seen.as_dict())), options=seen.options)
    assert reader.read(rebuilt) == reader.read(seen)


def test_the_reader_module_never_touches_the_table_state() -> None:
    source = (ROOT / "src" / "hupai" / "bots" / "reading.py").read_text(encoding="utf-8")
    imported = {
        alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert "HandState" not in imported
    assert "hupai.game.engine" not in source
    assert {"SeatView", "PublicSeat"} <= imported


def test_a_declared_ready_opponent_reads_as_more_dangerous() -> None:
    state = midgame("nanjing", discards=12)
    seat = acting_seat(state)
    seen = view(state, seat)
    other = (seat + 2) % 4
    reader = load_reader("nanjing")
    assert reader is not None
    seats = list(seen.seats)
    seats[other] = replace(seats[other], ready=True)
    declared = replace(seen, seats=tuple(seats))
    assert reader.ready_chance(declared, other) > reader.ready_chance(seen, other)
    assert sum(reader.read(declared)[other]) > sum(reader.read(seen)[other])


def test_a_tile_let_go_by_others_since_the_opponents_discard_reads_safer() -> None:
    """Bots always win when they can: a kind others let go since the opponent's own last discard,
    which it did not win on, is read as far less likely its wait."""
    state = midgame("nanning", discards=20)
    seat = acting_seat(state)
    seen = view(state, seat)
    rows = {other: wait_features(seen, other) for other in range(4) if other != seat}
    passed_index = WAIT_FEATURES.index("passed")
    assert any(row[passed_index] for table in rows.values() for row in table)
    reader = load_reader("nanning")
    assert reader is not None
    assert reader.wait.weights[passed_index] < 0


@pytest.mark.skipif(
    hupai.__build__ == "compiled",
    reason="compiled code calls the reader directly, past a patched method (make test-pure runs this)",
)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_strong_reads_waits_in_every_rule_set(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At a discard, the strong bot asks the reader — with the view it was given and nothing else."""
    state = midgame(ruleset, discards=16)
    while state.phase is not Phase.TURN or not any(
        isinstance(action, Discard) for action in legal_actions(state, state.turn)
    ):
        seat = acting_seat(state)
        step(state, StrongBot(0).choose(view(state, seat), legal_actions(state, seat)))
        assert state.phase is not Phase.ENDED
    seat = state.turn
    seen = view(state, seat)
    reader = load_reader(ruleset)
    assert reader is not None
    calls: list[SeatView] = []
    original = type(reader).read

    def spy(self: object, given: SeatView) -> dict[int, list[float]]:
        calls.append(given)
        return original(reader, given)

    monkeypatch.setattr(type(reader), "read", spy)
    bot = StrongBot(1)
    action = bot.choose(seen, legal_actions(state, seat))
    assert action in legal_actions(state, seat)
    if isinstance(action, Discard):
        assert calls
        assert all(given is seen for given in calls)


def test_training_fits_exactly_what_the_bot_computes() -> None:
    """With the ``train`` extra: the fitted weights, computed in plain Python, give scikit-learn's
    probabilities."""
    needs_train_extra()
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import train_waits
    finally:
        sys.path.pop(0)
    part = train_waits.play_match(train_waits.Job("nanning", 3, 1, 0.5, False))
    assert part.ready_x
    assert len(part.win_x) == len(part.win_y)
    model, data = train_waits.fit(part.ready_x, part.ready_y, READY_FEATURES)
    ours = Logistic.from_dict(data, READY_FEATURES)
    theirs = model.predict_proba(part.ready_x[:20])[:, 1]
    for row, expected in zip(part.ready_x[:20], theirs, strict=True):
        assert ours(row) == pytest.approx(float(expected), abs=1e-5)


def test_training_against_other_lineups() -> None:
    """With the ``train`` extra: ``--lineup``/``--viewer`` sample only the viewer bot's turns (it reads
    three opponents each time), and the same job gives the same rows."""
    needs_train_extra()
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import train_waits
    finally:
        sys.path.pop(0)
    lineup = ("strong", "efficiency", "efficiency", "efficiency")
    job = train_waits.Job("nanning", 3, 1, 0.5, False, lineup, "strong")
    every = train_waits.play_match(train_waits.Job("nanning", 3, 1, 0.5, False, lineup))
    part = train_waits.play_match(job)
    assert part.win_x
    assert len(part.ready_x) == 3 * len(part.win_x)
    assert len(part.win_x) < len(every.win_x)
    assert train_waits.play_match(job).ready_x == part.ready_x
