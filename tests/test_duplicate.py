"""Duplicate deals: every deal played once per seating of the bots, intervals over deals."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hupai.cli import app, with_flag_values
from hupai.sim import BotStats, SimConfig, seatings, simulate

LINEUP = ("strong", "efficiency", "efficiency", "efficiency")


def test_seatings_are_the_rotations_or_every_order() -> None:
    rotations = seatings("rotations")
    assert len(rotations) == 4
    assert all(sorted(order) == [0, 1, 2, 3] for order in rotations)
    assert sorted(order[0] for order in rotations) == [0, 1, 2, 3]  # each entry sits in seat 0 once
    assert len(set(seatings("all"))) == 24
    with pytest.raises(ValueError, match="unknown duplicate mode"):
        seatings("twice")


def test_every_deal_is_played_by_every_rotation_on_the_same_tiles(tmp_path: Path) -> None:
    config = SimConfig(
        ruleset="nanning", bots=LINEUP, hands=8, seed=5, duplicate="rotations", records=str(tmp_path)
    )
    result = simulate(config)
    assert (result.hands, result.deals) == (8, 2)
    strong, efficiency = result.bots["strong"], result.bots["efficiency"]
    assert (strong.hands, efficiency.hands) == (8, 24)
    assert (strong.deals, strong.per_deal, efficiency.per_deal) == (2, 4, 12)
    assert strong.total + efficiency.total == 0
    for deal in range(2):
        records = [json.loads(path.read_text()) for path in sorted(tmp_path.glob(f"deal-{deal:05d}-*.json"))]
        assert len(records) == 4
        hands = [record["hands"][0] for record in records]
        assert len({(hand["dealer"], json.dumps(hand["deal"]), hand["wall"]) for hand in hands}) == 1
        assert hands[0]["dealer"] == deal % 4
        # The strong bot sits in a different seat in each playing.
        assert sorted(record["seats"].index("strong") for record in records) == [0, 1, 2, 3]


def test_all_orders_play_each_deal_24_times() -> None:
    result = simulate(SimConfig(ruleset="nanjing", bots=LINEUP, hands=24, seed=2, duplicate="all"))
    assert (result.hands, result.deals) == (24, 1)
    assert result.bots["strong"].per_deal == 24


def test_paired_interval_is_over_the_deals_means() -> None:
    results = [[3, -1, 0, 2], [5, 5, -3, 1], [0, 0, 0, -4]]  # one bot's four seatings on three deals
    stats = BotStats(deals=3, per_deal=4)
    for deal in results:
        stats.deal_total += sum(deal)
        stats.deal_squares += sum(deal) ** 2
    means = [sum(deal) / 4 for deal in results]
    assert stats.paired_interval == pytest.approx(1.96 * statistics.stdev(means) / math.sqrt(3))
    assert BotStats(deals=1, per_deal=4).paired_interval == math.inf


def test_duplicate_results_do_not_depend_on_processes_or_runs() -> None:
    config = SimConfig(ruleset="enshi", bots=LINEUP, hands=12, seed=9, duplicate="rotations", check=False)
    once = simulate(config).as_dict()
    assert simulate(config, jobs=2).as_dict() == once
    assert simulate(config).as_dict() == once
    assert once["bots"]["strong"]["deals"] == 3
    assert math.isfinite(once["bots"]["strong"]["paired_ci95"])


def test_simulate_duplicate_command_prints_both_intervals() -> None:
    runner = CliRunner()
    args = ["simulate", "--ruleset", "nanning", "--hands", "8", "--seed", "1", "--duplicate", "rotations"]
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert "duplicate deals" in shown.output
    assert "over deals" in shown.output
    data = json.loads(runner.invoke(app, [*args, "--json"]).output)
    assert data["duplicate"] == "rotations"
    assert data["deals"] == 2
    assert {"ci95", "paired_ci95", "deals"} <= set(data["bots"]["strong"])
    bad = runner.invoke(app, ["simulate", "--hands", "4", "--duplicate", "thrice"])
    assert bad.exit_code == 2


def test_duplicate_alone_means_the_rotations() -> None:
    assert with_flag_values(["simulate", "--duplicate"]) == ["simulate", "--duplicate", "rotations"]
    assert with_flag_values(["simulate", "--duplicate", "--hands", "8"])[2] == "rotations"
    assert with_flag_values(["simulate", "--duplicate", "all"]) == ["simulate", "--duplicate", "all"]
