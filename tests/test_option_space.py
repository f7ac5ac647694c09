"""The option space in every ``make test`` (the short form of ``hupai options-check``): every value of
every option alone, every preset, and seeded random combinations per rule set, played by bots with the
engine's invariant checks on, each record replayed to the same settlement, each settlement's sums
checked (hupai.optionspace). The long form, for a release: ``hupai options-check --jobs 2``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from hupai import optionspace
from hupai.game.match import Match
from hupai.optionspace import RULESETS, Case, check_case, combination_cases, preset_cases, single_cases
from hupai.replay import replay
from hupai.rules import load_ruleset

HANDS = 8  # one match per card: a dealer's rotation, 比下胡 carried, the record of several hands
COMBINATIONS = 24  # per rule set
SEED = 46


def _by_option(ruleset: str) -> dict[str, list[Case]]:
    grouped: dict[str, list[Case]] = {}
    for case in single_cases(ruleset):
        grouped.setdefault(next(iter(case.options)), []).append(case)
    return grouped


SINGLES = [(ruleset, name, cases) for ruleset in RULESETS for name, cases in _by_option(ruleset).items()]
COMBINED = [
    (ruleset, part, cases[part::4])
    for ruleset in RULESETS
    for cases in [combination_cases(ruleset, COMBINATIONS, SEED)]
    for part in range(4)
]


def played(cases: list[Case]) -> list[str]:
    problems: list[str] = []
    for case in cases:
        result = check_case(case, hands=HANDS, seed=SEED)
        assert result.hands == HANDS or result.problems, case.label
        problems.extend(result.problems)
    return problems


@pytest.mark.parametrize(
    ("ruleset", "option", "cases"), SINGLES, ids=[f"{ruleset}-{name}" for ruleset, name, _ in SINGLES]
)
def test_every_value_of_the_option_plays_and_replays(ruleset: str, option: str, cases: list[Case]) -> None:
    assert played(cases) == []


@pytest.mark.parametrize("case", preset_cases(), ids=lambda case: case.preset)
def test_every_preset_plays_and_replays(case: Case) -> None:
    assert played([case]) == []


@pytest.mark.parametrize(
    ("ruleset", "part", "cases"), COMBINED, ids=[f"{ruleset}-{part}" for ruleset, part, _ in COMBINED]
)
def test_random_combinations_play_and_replay(ruleset: str, part: int, cases: list[Case]) -> None:
    assert played(cases) == []


def test_the_space_covers_every_option_and_value() -> None:
    for ruleset in RULESETS:
        specs = optionspace.specs_of(ruleset)
        base = load_ruleset(ruleset).options
        seen: dict[str, set[str]] = {}
        for case in single_cases(ruleset):
            for name, value in case.options.items():
                seen.setdefault(name, set()).add(repr(specs[name].coerce(value)))
        for name, spec in specs.items():
            wanted = {repr(spec.coerce(value)) for value in spec.values_to_try()} - {
                repr(spec.coerce(getattr(base, name)))
            }
            assert wanted <= seen.get(name, set()), (ruleset, name)


def test_a_value_needing_another_is_played_with_what_needs_it_off() -> None:
    (case,) = [case for case in single_cases("enshi") if case.options.get("cap") == 0]
    assert case.options == {"cap": 0, "gold_cap": 0}
    assert len(combination_cases("enshi", 50, SEED)) == 50


def test_a_record_that_replays_differently_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def under_another_card(record: Any) -> Any:
        return replay(replace(record, options={**record.options, "base": 40}))

    monkeypatch.setattr("hupai.optionspace.replay", under_another_card)
    result = check_case(Case("nanjing", {}), hands=HANDS, seed=SEED)
    assert any("replays to" in problem for problem in result.problems), result.problems


def test_a_settlement_that_does_not_add_up_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Match.finish_hand

    def short_changed(self: Any, state: Any = None) -> Any:
        hand = real(self, state)
        if hand.transfers:
            self.results[-1] = replace(hand, transfers=hand.transfers[1:])
        return self.results[-1]

    monkeypatch.setattr(Match, "finish_hand", short_changed)
    result = check_case(Case("nanning", {}), hands=HANDS, seed=SEED)
    assert any("transfers add up to" in problem for problem in result.problems), result.problems
