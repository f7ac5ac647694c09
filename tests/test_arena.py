"""The ladder: every pairing of bots on the same duplicate deals."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hupai.arena import ArenaConfig, arena, pairing_config
from hupai.cli import app
from hupai.sim import simulate


def test_every_pairing_plays_the_same_deals_two_seats_each() -> None:
    config = ArenaConfig(ruleset="nanning", bots=("random", "efficiency", "strong"), hands=8, seed=2)
    ladder = arena(config)
    assert [(pair.first, pair.second) for pair in ladder.pairs] == [
        ("random", "efficiency"),
        ("random", "strong"),
        ("efficiency", "strong"),
    ]
    for pair in ladder.pairs:
        first, second = pair.stats(pair.first), pair.stats(pair.second)
        assert (pair.result.hands, pair.result.deals) == (8, 2)
        assert first.hands == second.hands == 16  # two seats each in every hand
        assert first.total + second.total == 0
        assert pair.result.as_dict() == simulate(pairing_config(config, pair.first, pair.second)).as_dict()
    against = ladder.against("efficiency", "random")
    assert against is not None
    assert against.mean > 0  # efficiency beats random even over eight hands
    assert ladder.against("strong", "strong") is None
    assert ladder.ranking()[-1] == "random"
    data = ladder.as_dict()
    assert set(data["overall"]) == {"random", "efficiency", "strong"}


def test_an_arena_needs_two_different_bots() -> None:
    with pytest.raises(ValueError, match="two or more"):
        arena(ArenaConfig(bots=("strong", "strong")))


def test_arena_command_prints_the_table_and_json() -> None:
    runner = CliRunner()
    args = ["arena", "--bots", "random,efficiency", "--hands", "4", "--ruleset", "nanjing", "--seed", "3"]
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert "1 efficiency" in shown.output
    assert "vs 2" in shown.output
    assert "overall" in shown.output
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert data["pairs"][0]["bots"] == ["random", "efficiency"]
    assert data["pairs"][0]["hands"] == 4
    assert runner.invoke(app, ["arena", "--bots", "strong"]).exit_code == 2
    assert runner.invoke(app, ["arena", "--bots", "strong,nobody"]).exit_code == 2
