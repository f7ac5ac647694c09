"""Computer players, auto-play, external bots and the self-play simulator."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hupai.bots import BotError, StrongBot, make_bot, trustee_action
from hupai.bots.external import ExternalBot
from hupai.bots.strong import BIG_CANNON, WAIT_MODELS, NanningHand
from hupai.cli import app
from hupai.game import Phase, legal_actions, view
from hupai.game.actions import Discard, Kong, Pass, Pong, Win
from hupai.game.engine import step
from hupai.game.view import PublicMeld
from hupai.sim import SimConfig, play_hand, simulate

from .helpers import play, table

EXAMPLE_BOT = f"cmd:{sys.executable} {Path(__file__).parent.parent / 'examples' / 'bot_example.py'}"


@pytest.mark.parametrize("ruleset", ["nanjing", "nanning"])
def test_every_bot_answers_legally_through_whole_hands(ruleset: str) -> None:
    result = simulate(
        SimConfig(ruleset=ruleset, bots=("strong", "efficiency", "random", "trustee"), hands=24, seed=3)
    )
    assert result.hands == 24
    assert all(stats.errors == 0 for stats in result.bots.values())
    assert sum(stats.total for stats in result.bots.values()) == 0  # money adds up to zero


def test_same_seed_same_games() -> None:
    config = SimConfig(
        ruleset="nanjing", bots=("strong", "efficiency", "efficiency", "random"), hands=16, seed=11
    )
    first, second = simulate(config), simulate(config)
    assert first.as_dict() == second.as_dict()
    assert simulate(SimConfig(**{**config.__dict__, "seed": 12})).as_dict() != first.as_dict()


@pytest.mark.parametrize("ruleset", ["nanjing", "nanning", "enshi"])
def test_points_by_outcome_add_up_to_the_score(ruleset: str) -> None:
    config = SimConfig(ruleset=ruleset, bots=("strong", "efficiency", "efficiency", "efficiency"), hands=24)
    result = simulate(config, jobs=1)
    for stats in result.bots.values():
        parts = stats.by_outcome()
        assert sum(part["per_hand"] for part in parts.values()) == pytest.approx(stats.mean)
        assert sum(part["rate"] for part in parts.values()) == pytest.approx(1.0)
        assert parts["self_drawn"]["rate"] == pytest.approx(stats.rate(stats.self_drawn))
    # The strong bot sits at every table once: its hands without a winner are the table's draws.
    strong = result.bots["strong"]
    assert strong.outcome_hands["draw"] == result.draws
    assert sum(stats.wins for stats in result.bots.values()) > 0


def test_processes_do_not_change_the_result() -> None:
    config = SimConfig(ruleset="nanning", bots=("efficiency", "random", "random", "random"), hands=16, seed=5)
    assert simulate(config, jobs=2).as_dict() == simulate(config).as_dict()


def test_trustee_wins_passes_and_lets_the_drawn_tile_go() -> None:
    state = table({0: "11599p1199s12344z", 1: "123m456p789s11s56m"}, draws="2z4m")
    play(state, "0 d 1p", "1 t", "2 t")  # seat 2 discarded 4m: seat 1 may win on it
    assert trustee_action(view(state, 1), legal_actions(state, 1)) == Win(seat=1)
    discard_state = table({0: "11599p1199s12344z"}, draws="7m")
    play(discard_state, "0 d 1p")
    legal = legal_actions(discard_state, 1)
    assert trustee_action(view(discard_state, 1), legal) == Discard(seat=1, tile=6)
    claim_state = table({0: "11599p1199s12344z", 2: "3556p1479m258s23z"})
    play(claim_state, "0 d 5p")
    assert Pong(seat=2) in legal_actions(claim_state, 2)
    assert trustee_action(view(claim_state, 2), legal_actions(claim_state, 2)) == Pass(seat=2)


def test_efficiency_discards_the_tile_that_keeps_the_hand_closest() -> None:
    state = table({0: "123m456p789s11357z"})  # 1z pair: throw one of the lone honours
    bot = make_bot("efficiency")
    action = bot.choose(view(state, 0), legal_actions(state, 0))
    assert isinstance(action, Discard)
    assert action.tile in (29, 31, 33)


def test_strong_keeps_a_nanjing_small_hand_winnable() -> None:
    # Seat 2 could pong 5p and get closer, but an open small hand with no hard flowers could never win
    # in Nanjing; the efficiency bot pongs anyway, the strong bot passes.
    state = table({0: "11599p1199s12344z", 2: "3556p1479m258s23z"})
    play(state, "0 d 5p")
    seen, legal = view(state, 2), legal_actions(state, 2)
    assert make_bot("strong").choose(seen, legal) == Pass(seat=2)


def test_bot_levels_by_name() -> None:
    assert make_bot("高手").name == "strong"
    assert make_bot("Efficiency").name == "efficiency"
    with pytest.raises(BotError, match="unknown bot"):
        make_bot("grandmaster")


def test_external_bot_plays_whole_hands() -> None:
    result = simulate(
        SimConfig(ruleset="nanjing", bots=(EXAMPLE_BOT, "efficiency", "efficiency", "efficiency"), hands=8)
    )
    assert result.bots[EXAMPLE_BOT].errors == 0
    assert result.hands == 8


def test_a_broken_external_bot_is_replaced_by_trustee_play() -> None:
    bot = ExternalBot(f"{sys.executable} -c \"print('not json'); import time; time.sleep(5)\"", timeout=1.0)
    state = table({0: "11599p1199s12344z"})
    players = [bot, make_bot("trustee"), make_bot("trustee"), make_bot("trustee")]
    play_hand(state, players)
    bot.close()
    assert state.phase is Phase.ENDED
    assert bot.failures >= 1


def test_simulate_command_prints_the_table_and_json(tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(
        app, ["simulate", "--hands", "8", "--bots", "strong,efficiency,efficiency,efficiency"]
    )
    assert out.exit_code == 0
    assert "高手 Strong" in out.stdout and "牌效 Efficiency" in out.stdout
    assert "score/hand" in out.stdout
    assert "得失" in out.stdout and "别家自摸" in out.stdout  # where the points came from
    result = runner.invoke(
        app,
        [
            "simulate",
            "--hands",
            "8",
            "--ruleset",
            "nanning",
            "--json",
            "--records",
            str(tmp_path),
            "--seed",
            "4",
        ],
    )
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["hands"] == 8
    assert set(data["bots"]) == {"strong", "efficiency"}
    assert {"win_rate", "deal_in_rate", "mean", "ci95", "by_outcome"} <= set(data["bots"]["strong"])
    shares = data["bots"]["strong"]["by_outcome"]
    assert sum(part["per_hand"] for part in shares.values()) == pytest.approx(data["bots"]["strong"]["mean"])
    assert list(tmp_path.glob("match-*.json"))
    bad = runner.invoke(app, ["simulate", "--bots", "nope"])
    assert bad.exit_code == 2
    assert "unknown bot" in bad.stderr


def test_strong_counts_a_nanning_big_cannon_as_three_deal_ins() -> None:
    state = table({0: "1111m456p789s1235z"}, draws="9p", replacements="6z", preset="nanning")
    bot = make_bot("strong")
    assert isinstance(bot, StrongBot)
    ordinary = view(state, 0)
    assert bot._cannon(ordinary) == 1.0
    kong = bot.choose(ordinary, legal_actions(state, 0))
    assert kong == Kong(seat=0, tile=0)  # four 1m: the concealed kong keeps the hand as near
    step(state, kong)
    after_kong = view(state, 0)
    assert bot._cannon(after_kong) == BIG_CANNON  # 杠上炮: the next tile let go pays three units
    discard = bot.choose(after_kong, legal_actions(state, 0))
    assert isinstance(discard, Discard)
    step(state, discard)
    assert bot._cannon(view(state, 0)) == 1.0
    assert bot._cannon(replace(ordinary, live_tiles=0)) == BIG_CANNON  # 海底炮
    last_round = replace(ordinary, live_tiles=3, options={**ordinary.options, "haidi_window": "last_round"})
    assert bot._cannon(last_round) == BIG_CANNON
    assert bot._cannon(replace(ordinary, ruleset="nanjing", live_tiles=0)) == 1.0
    pung = PublicMeld(kind="pung", tile=27, feeder=1)
    four_melds = (replace(ordinary.seats[0], melds=(pung,) * 4), *ordinary.seats[1:])
    assert bot._cannon(replace(ordinary, seats=four_melds)) == BIG_CANNON  # 全求炮


def test_strong_values_two_nanning_waits_above_the_same_copies_of_one() -> None:
    # Let 4p go: a 5p kanchan, four copies unseen; let 6p go: 4p and 1z (a shanpon), two copies each.
    # Counting copies these tie and the efficiency bot lets the lower tile go. In Nanning self-play a
    # second winning tile is worth about two copies by itself (opponents hold some copies of any tile
    # for good) and an honour is let go sooner, so the strong bot keeps the shanpon.
    state = table({0: "123m456m789s446p11z"}, preset="nanning")
    seen, legal = view(state, 0), legal_actions(state, 0)
    assert make_bot("efficiency").choose(seen, legal) == Discard(seat=0, tile=12)
    assert make_bot("strong").choose(seen, legal) == Discard(seat=0, tile=14)
    model = WAIT_MODELS["nanning"]
    assert model.value(12, 2) + model.value(27, 2) > model.value(13, 4)
    assert model.value(27, 2) > model.value(13, 2) > model.value(13, 1) > model.value(13, 0) == 0.0


def counts_of_text(text: str) -> list[int]:
    counts = [0] * 34
    for digits, suit in ((part[:-1], part[-1]) for part in text.split()):
        for digit in digits:
            counts["mpsz".index(suit) * 9 + int(digit) - 1] += 1
    return counts


def test_nanning_hand_pays_as_the_rules_do() -> None:
    # docs/rules/nanning.md: a unit of 3 (4 concealed or seven pairs), doubled per element; on a
    # discard a plain hand pays 2 (4 concealed), else 3/2 of the unit; self-drawn, the unit from each.
    concealed = NanningHand(melds=0, menqing=True, meld_suits=frozenset(), reference=1.0)
    plain = counts_of_text("123m 456p 789s 111z 55z")
    assert (concealed.points(plain, ron=True), concealed.points(plain, ron=False)) == (4.0, 12.0)
    seven_flush = counts_of_text("11223344556677m")
    assert (concealed.points(seven_flush, ron=True), concealed.points(seven_flush, ron=False)) == (24.0, 48.0)
    two_pungs = NanningHand(melds=2, menqing=False, meld_suits=frozenset({0, 3}), reference=1.0)
    assert two_pungs.points(counts_of_text("345p 678s 55z"), ron=True) == 2.0
    assert two_pungs.points(counts_of_text("345p 678s 55z"), ron=False) == 9.0
    assert two_pungs.points(counts_of_text("555p 888s 55z"), ron=True) == 9.0  # 碰碰胡: 3 × 2 × 3/2
    four_melds = NanningHand(melds=4, menqing=False, meld_suits=frozenset({0, 1}), reference=1.0)
    assert four_melds.points(counts_of_text("55z"), ron=True) == 18.0  # 碰碰胡 and 全求人
    assert four_melds.points(counts_of_text("55z"), ron=False) == 18.0


def test_strong_weighs_nanning_waits_by_what_the_win_pays() -> None:
    # Let 8s go: 9m and 7s (two copies each), all pungs and concealed — 12 on a discard, 24 self-drawn.
    # Let 7s go: 6s and 9s (five copies), a plain hand — 4 and 12. Counting copies keeps the second;
    # weighing each win by what it pays, the first.
    state = table({0: "33399m999p778999s"}, preset="nanning")
    seen, legal = view(state, 0), legal_actions(state, 0)
    copies_only = StrongBot(0)
    copies_only.value_waits = False
    assert copies_only.choose(seen, legal) == Discard(seat=0, tile=24)
    assert make_bot("strong").choose(seen, legal) == Discard(seat=0, tile=25)


def test_the_random_bot_picks_what_random_choice_picks() -> None:
    """RandomBot draws its pick as random.Random.choice does, so seeds keep their games."""
    import random

    from hupai.bots import RandomBot
    from hupai.game import new_hand, view
    from hupai.rules import load_ruleset

    seen = view(new_hand(load_ruleset("nanjing"), seed=1), 0)
    for seed in range(50):
        bot, reference = RandomBot(seed), random.Random(seed)
        for size in range(1, 40):
            legal = [Pass(seat=seat % 4) for seat in range(size)]
            assert bot.choose(seen, legal) is reference.choice(legal)


def test_a_claim_that_needs_a_laizi_for_a_missing_tile_is_weighed_not_crashed_on() -> None:
    """Enshi with ``laizi_in_melds``: a chow may take a 赖子 for a tile the hand lacks (the engine fills
    it so); the efficiency bot weighs that chow with one wildcard fewer — it used to count the missing
    tile down to -1 and crash. A claim the hand cannot make at all is never better than now."""
    from hupai.bots.simple import NO_CLAIM, after_claim, after_discard
    from hupai.tiles import parse_tiles

    counts = [0] * 34
    for tile in parse_tiles("13m456p789s1z"):  # and a 赖子: ten tiles, waiting
        counts[tile] += 1
    before = list(counts)
    # a chow of the discard 2m... with 1m and 3m is natural; one of 4m by 3m and a 赖子 for 5m is not
    after = after_claim(counts, parse_tiles("3m5m"), jokers=1)
    assert counts == before  # the hand is given back as it was
    rest = list(counts)
    rest[parse_tiles("3m")[0]] -= 1  # 3m and the 赖子 go into the chow; then a discard is due
    expected = min(after_discard(rest, kind) for kind in range(34) if rest[kind])
    assert after == expected
    assert after_claim(counts, parse_tiles("5m6m"), jokers=0) == NO_CLAIM  # no 5m, no 6m, no 赖子
    assert counts == before


def test_a_wildcard_is_the_last_discard_the_efficiency_key_ranks() -> None:
    """Enshi: the 赖子 is held apart from the counts (as jokers); letting one go (only at the end of
    the wall) must rank behind every natural tile, never count its kind down to -1."""
    from hupai.bots.simple import best_discard, discard_key
    from hupai.tiles import parse_tiles

    counts = [0] * 34
    for tile in parse_tiles("1234m456p789s113z"):  # and a 赖子: fourteen tiles
        counts[tile] += 1
    laizi = parse_tiles("5s")[0]  # held as a joker: counts[laizi] == 0
    unseen = [4] * 34
    before = list(counts)
    wild = discard_key(counts, laizi, unseen, jokers=1)
    naturals = [discard_key(counts, tile, unseen, jokers=1) for tile in range(34) if counts[tile]]
    assert counts == before
    assert all(key < wild for key in naturals)
    discards = [Discard(seat=0, tile=laizi)] + [Discard(seat=0, tile=tile) for tile in parse_tiles("14m")]
    assert best_discard(counts, discards, unseen, jokers=1).tile != laizi


def test_only_the_expert_level_takes_a_budget() -> None:
    bot = make_bot("大师:7", seed=3)
    assert bot.name == "expert" and getattr(bot, "rollouts", None) == 7
    with pytest.raises(BotError, match="only the expert bot takes a budget"):
        make_bot("strong:7")
