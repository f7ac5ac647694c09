"""tools/measure_waits.py: the measurement behind the strong bot's Nanning wait model."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))
from measure_waits import least_squares, play_match, tile_class


def test_least_squares_recovers_a_known_line() -> None:
    rows = [[1.0, float(copies), float(honour)] for copies in range(1, 5) for honour in (0, 1)]
    targets = [0.2 + 0.1 * row[1] + 0.05 * row[2] for row in rows]
    fitted = least_squares(rows, targets, [1.0 + row[1] for row in rows])
    assert [round(value, 9) for value in fitted] == [0.2, 0.1, 0.05]


def test_a_match_counts_each_ready_turn_and_the_wins_on_its_tiles() -> None:
    tally = play_match(("nanning", 7, 0))
    turns = {key[1:]: count for key, count in tally.items() if key[0] == "turns"}
    assert turns, "eight hands of efficiency play always reach a ready hand"
    for how in ("ron", "tsumo"):
        for key, count in tally.items():
            if key[0] == how:
                assert 0 < count <= turns[key[1:]]
    wins = tally[("wins", "ron")] + tally[("wins", "tsumo")]
    assert wins > 0 and tally[("paid", "ron")] + tally[("paid", "tsumo")] >= 2 * wins
    assert {tile_class(kind) for kind in (0, 1, 2, 3, 4, 27)} == {"19", "28", "37", "456", "honour"}
