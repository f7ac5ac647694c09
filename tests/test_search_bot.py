"""The search bot (大师, ``expert``): the worlds it deals keep what its seat sees and nothing it does
not; its decisions are legal, reproducible for a seed and budget, and within the budget."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from statistics import mean

import pytest

from hupai.bots import Bot, BotError, EfficiencyBot, ExpertBot, StrongBot, make_bot
from hupai.bots.search import better_than_first, determinized
from hupai.bots.selfplay import play
from hupai.game import Phase, new_hand, view
from hupai.game.model import HandState
from hupai.hand import shanten
from hupai.rules import load_ruleset
from hupai.sim import SimConfig, simulate

from .helpers import efficiency_turns, moved_hidden_tiles

RULESETS = ["nanjing", "nanning", "enshi"]


def turns_of(ruleset: str, seed: int) -> Iterator[HandState]:
    """Every turn of seat 0 in a hand played by efficiency bots (the state as it stood)."""
    return efficiency_turns(ruleset, seed, seat=0)


def all_tiles(state: HandState) -> Counter[int]:
    """Every tile of the game, wherever it lies (a face-down kong as its kind)."""
    tiles: Counter[int] = Counter(state.wall[state.front : state.back + 1])
    for seated in state.seats:
        for kind, copies in enumerate(seated.counts):
            tiles[kind] += copies
        tiles.update(seated.flowers)
        tiles.update(
            tile for tile, claimed in zip(seated.discards, seated.discard_claimed, strict=True) if not claimed
        )
        tiles.update(seated.laid)
        for meld in seated.melds:
            tiles.update(meld.tiles())
    return tiles


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_determinized_world_looks_the_same_to_the_seat_and_holds_the_same_tiles(ruleset: str) -> None:
    checked = 0
    for seed in range(10):
        for state in turns_of(ruleset, seed):
            seen = view(state, 0)
            for settle in (False, True):
                world = determinized(state, seen, random.Random(seed), settle=settle)
                assert view(world, 0) == seen  # nothing the seat sees has changed
                assert all_tiles(world) == all_tiles(state)  # tiles conserved
                assert [sum(s.counts) for s in world.seats] == [sum(s.counts) for s in state.seats]
                checked += 1
    assert checked > 30


def distance(counts: list[int], laizi: int | None) -> int:
    natural = list(counts)
    jokers = 0
    if laizi is not None:
        jokers, natural[laizi] = natural[laizi], 0
    return shanten(natural, jokers=jokers)


@pytest.mark.parametrize("ruleset", ["nanjing", "nanning"])
def test_settled_worlds_deal_the_others_hands_as_far_from_complete_as_real_ones(ruleset: str) -> None:
    """From the seat's seventh turn on, the other hands in play are about one tile from ready; hands
    dealt at random from the unseen tiles are about three, and settled ones are as close as the real."""
    real, uniform, settled = [], [], []
    for seed in range(12):
        for turn, state in enumerate(turns_of(ruleset, seed)):
            if turn < 6:
                continue
            seen = view(state, 0)
            worlds = {
                settle: determinized(state, seen, random.Random(seed), settle=settle)
                for settle in (False, True)
            }
            for other in (1, 2, 3):
                real.append(distance(state.seats[other].counts, state.laizi))
                uniform.append(distance(worlds[False].seats[other].counts, state.laizi))
                settled.append(distance(worlds[True].seats[other].counts, state.laizi))
    assert len(real) > 60
    assert mean(uniform) > mean(real) + 1.2
    assert abs(mean(settled) - mean(real)) < 0.4


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_determinized_world_does_not_depend_on_where_the_hidden_tiles_really_are(ruleset: str) -> None:
    """Two states that differ only in what the seat cannot see give the same worlds: the hidden tiles
    of one, moved about between the wall and the other seats' hands, make the other."""
    for seed in range(4):
        for state in turns_of(ruleset, seed):
            moved = moved_hidden_tiles(state, seed)
            if moved.seats[1:] == state.seats[1:] and moved.wall == state.wall:
                continue
            seen = view(state, 0)
            for settle in (False, True):
                first = determinized(state, seen, random.Random(99), settle=settle)
                second = determinized(moved, view(moved, 0), random.Random(99), settle=settle)
                assert first.wall == second.wall
                assert first.seats == second.seats


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_expert_answers_legally_and_within_its_budget(ruleset: str) -> None:
    for seed in range(2):
        state = new_hand(load_ruleset(ruleset), seed=seed)
        expert = ExpertBot(seed, rollouts=8)
        _steps, errors = play(state, [expert, EfficiencyBot(1), EfficiencyBot(2), EfficiencyBot(3)])
        assert errors == [0, 0, 0, 0]
        assert state.phase is Phase.ENDED
        assert expert.played <= expert.searched * 8
        assert expert.searched > 0


def test_the_same_seed_and_budget_play_the_same_game() -> None:
    def game(seed: int) -> list[object]:
        state = new_hand(load_ruleset("nanning"), seed=5)
        play(state, [ExpertBot(seed, rollouts=6)] + [EfficiencyBot(other) for other in range(1, 4)])
        return list(state.actions)

    assert game(1) == game(1)


def test_with_no_budget_the_expert_plays_as_strong() -> None:
    def game(bot: Bot) -> list[object]:
        state = new_hand(load_ruleset("nanjing"), seed=8)
        play(state, [bot, *(EfficiencyBot(other) for other in range(1, 4))])
        return list(state.actions)

    assert game(ExpertBot(3, rollouts=0)) == game(StrongBot(3))


def test_the_budget_is_part_of_the_bot_name() -> None:
    bot = make_bot("expert:12", seed=4)
    assert isinstance(bot, ExpertBot) and bot.rollouts == 12
    assert isinstance(make_bot("大师"), ExpertBot)
    with pytest.raises(BotError, match="whole number"):
        make_bot("expert:many")
    with pytest.raises(BotError, match="only the expert"):
        make_bot("strong:8")


def test_simulate_seats_the_expert() -> None:
    config = SimConfig(
        ruleset="nanning",
        bots=("expert:4", "efficiency", "efficiency", "efficiency"),
        hands=8,
        seed=2,
        duplicate="rotations",
    )
    result = simulate(config)
    assert result.hands == 8
    assert all(stats.errors == 0 for stats in result.bots.values())
    assert result.as_dict() == simulate(config).as_dict()


def test_a_candidate_overrules_the_heuristic_only_by_a_clear_lead() -> None:
    first = [0, 3, -1, 0, 2, 0]
    assert better_than_first([first, list(first)]) == 0  # a tie keeps strong's choice
    assert better_than_first([first, [value + 1 for value in first]]) == 1  # ahead in every world
    # ahead on average, by one big win in one world of six: within the noise
    assert better_than_first([first, [value + (12 if i == 1 else -1) for i, value in enumerate(first)]]) == 0
    # the larger clear lead of two
    ahead = [[value + 1 for value in first], [value + 2 for value in first]]
    assert better_than_first([first, *ahead]) == 2
