"""tools/reading_headroom.py: what better reading would be worth (a cheat for measurement) and the
features it tries."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from hupai.bots.reading import READY_FEATURES, WAIT_FEATURES
from hupai.game.view import PublicSeat, SeatView
from hupai.sim import SimConfig, simulate

from .helpers import needs_train_extra

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "tools"))
try:
    import reading_headroom as headroom
finally:
    sys.path.pop(0)


def test_sharpening_moves_the_odds_toward_the_truth() -> None:
    assert headroom.sharpened(0.2, True, 0.0) == 0.2
    assert headroom.sharpened(0.2, True, 1.0) == pytest.approx(0.2 * 2.718281828 / (0.8 + 0.2 * 2.718281828))
    assert headroom.sharpened(0.2, False, 1.0) < 0.2 < headroom.sharpened(0.2, True, 0.5)
    assert headroom.sharpened(0.001, True, 99.0) == pytest.approx(1.0)
    assert headroom.sharpened(0.9, False, 99.0) == 0.0


def _seat(discards: tuple[int, ...], from_draw: tuple[bool, ...], order: tuple[int, ...]) -> PublicSeat:
    claimed = (False,) * len(discards)
    return PublicSeat(13, (), (), discards, claimed, False, from_draw=from_draw, order=order)


def test_more_features_mark_what_passed_since_the_last_discard_from_hand() -> None:
    """Seat 1 let 5m go from its hand (order 4), then 9p straight from the draw (order 8); the tiles
    let go after order 4 by anyone (and its own 9p) passed a hand that has not changed since."""
    m5, p9, z1, s2, s3, m1 = 4, 17, 27, 19, 20, 0
    seats = (
        _seat((m1, s2), (False, False), (0, 5)),
        _seat((z1, m5, p9), (False, False, True), (1, 4, 8)),
        _seat((s3,), (True,), (2,)),
        _seat((z1,), (False,), (3,)),
    )
    view = SeatView(0, "nanning", 0, 1, "turn", 0, 60, seats, (), None, None, None, (), (0, 0, 0, 0), "")
    rows = headroom.more_wait_features(view, 1)
    base = len(WAIT_FEATURES)
    assert len(rows) == 34
    assert all(len(row) == base + 23 for row in rows)
    passed = {kind for kind, row in enumerate(rows) if row[base]}
    assert passed == {s2, p9}
    assert rows[p9][base + 1] == 0.0  # one 摸切 in a row, not two
    # Gaps to the last discard from hand (5m): 3m and 7m are two away, 2m three.
    assert rows[2][base + 2 + 2] == 1.0
    assert rows[6][base + 2 + 2] == 1.0
    assert rows[1][base + 2 + 3] == 1.0
    # 4m's neighbour one above (5m) was let go second of three, from the hand.
    first_above = base + 10 + 2 * 3
    assert rows[3][first_above : first_above + 3] == [1.0, 1 / 3, 1.0]
    ready = headroom.more_ready_features(view, 1)
    assert len(ready) == len(READY_FEATURES) + 5
    assert ready[len(READY_FEATURES) :] == [0.1, 0.0, 1.0, 0.0, 0.0]


def test_play_without_sharpening_is_the_shipped_bot() -> None:
    """β = 0 plays exactly as ``hupai simulate --duplicate`` does (the cheat's window changes nothing)."""
    command = [sys.executable, str(ROOT / "tools" / "reading_headroom.py"), "play", "--hands", "16"]
    command += ["--seed", "5", "--sharpen", "0"]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    number = r"([+-]?[0-9.]+)"
    row = re.search(
        rf"\| sharpened by β = 0 \| {number} ± [0-9.]+ \| {number}% \| [0-9.]+% \| {number}%", out
    )
    assert row is not None, out
    lineup = ("strong", "efficiency", "efficiency", "efficiency")
    config = SimConfig(ruleset="nanning", bots=lineup, hands=16, seed=5, check=False, duplicate="rotations")
    stats = simulate(config).bots["strong"]
    assert row.group(1) == f"{stats.mean:+.3f}"
    assert row.group(2) == f"{100 * stats.rate(stats.wins):.1f}"
    assert row.group(3) == f"{100 * stats.rate(stats.deal_ins):.1f}"


def test_fit_scores_every_reader_on_held_out_matches() -> None:
    """With the ``train`` extra: ``fit`` prints a row per reader, each figure a log loss or an AUC."""
    needs_train_extra()
    command = [sys.executable, str(ROOT / "tools" / "reading_headroom.py"), "fit", "--hands", "40"]
    command += ["--seed", "3", "--rate", "1.0", "--sharpen", "1"]
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=600).stdout
    rows = [line.split("|")[1:-1] for line in out.splitlines() if line.startswith("| ") and "---" not in line]
    names = [row[0].strip() for row in rows[1:]]
    assert names == [
        "shipped",
        "shipped, sharpened by β = 1",
        "logistic, shipped features",
        "trees, shipped features",
        "logistic, more features",
        "trees, more features",
    ]
    for row in rows[1:]:
        figures = [float(cell) for cell in row[1:] if cell.strip() != "—"]
        assert len(figures) >= 4
        assert all(0.0 <= figure <= 1.0 for figure in figures)
    sharpened, shipped = rows[2], rows[1]
    assert float(sharpened[2]) > float(shipped[2])  # the cheat's AUC is above the reader's


def test_the_inference_knows_the_efficiency_bots_choice() -> None:
    """``efficiency_choice`` is exactly the tile the efficiency bot lets go, on every discard of a
    played match; and a random ready hand is ready, of the size asked, from the pool given."""
    import random

    from hupai.bots import EfficiencyBot
    from hupai.bots.base import counts_of, unseen_from
    from hupai.game import Match, Phase, legal_actions, step, view
    from hupai.game.actions import Discard
    from hupai.hand import shanten
    from hupai.rules import load_ruleset
    from hupai.sim import acting_seat

    match = Match(load_ruleset("nanning"), seed=11)
    bots = [EfficiencyBot(seat) for seat in range(4)]
    compared = 0
    for _ in range(2):
        state = match.start_hand()
        while state.phase is not Phase.ENDED:
            seat = acting_seat(state)
            legal = legal_actions(state, seat)
            seen = view(state, seat)
            action = bots[seat].choose(seen, legal)
            if isinstance(action, Discard):
                counts = counts_of(seen.hand or ())
                assert headroom.efficiency_choice(counts, unseen_from(seen)) == action.tile
                compared += 1
            step(state, action)
        match.finish_hand(state)
    assert compared > 20
    rng = random.Random(3)
    pool = [4] * 34
    for size in (13, 10, 7, 4, 1):
        hand = headroom.random_ready_hand(pool, size, rng)
        assert hand is not None
        assert sum(hand) == size
        assert shanten(hand) == 0
        assert all(count <= 4 for count in hand)


def test_infer_compares_the_inferred_waits_with_the_reader() -> None:
    needs_train_extra()
    command = [sys.executable, str(ROOT / "tools" / "reading_headroom.py"), "infer", "--hands", "16"]
    command += ["--seed", "5", "--candidates", "50"]
    out = subprocess.run(command, capture_output=True, text=True, check=True, timeout=600).stdout
    rows = {
        line.split("|")[1].strip(): line.split("|")[2:5] for line in out.splitlines() if line.startswith("| ")
    }
    for kinds in ("every kind", "in the seat's hand"):
        assert all(0.0 <= float(cell) <= 1.0 for cell in rows[kinds]), out
