"""The option space, played: every value of every house option alone, every preset, and seeded random
combinations of options, each played by bots with the engine's invariant checks on (tiles conserved,
payments adding up to zero), each match's record written, read back and replayed to exactly the same
settlement, and each settlement's own sums checked (a hand's deltas add up to zero and are its
transfers, the totals are the sum of the deltas).

``hupai options-check`` runs the long form; ``tests/test_option_space.py`` a short one in every
``make test``. A value that contradicts the preset's other options (e.g. ``cap = 0`` under a 金顶) is
played with the options that need it turned off, as the lobby's rule card does.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hupai.bots import make_bot
from hupai.game.contract import options_to_dict
from hupai.game.match import HandResult, Match
from hupai.game.model import SEATS, HandState
from hupai.game.record import RecordError, read_record, record_from_match, write_record
from hupai.replay import replay
from hupai.rules import RuleError, load_ruleset, presets
from hupai.rules.options import OptionSpec, conflicts, option_specs
from hupai.sim import InvariantError, play_hand

__all__ = ["Case", "CaseResult", "check_case", "combination_cases", "preset_cases", "single_cases"]

RULESETS = ("nanjing", "nanning", "enshi")
BOTS = ("efficiency", "efficiency", "efficiency", "random")  # a random player claims what others would not


@dataclass(frozen=True, slots=True)
class Case:
    """One card to play: a preset and the options changed from it."""

    preset: str
    options: Mapping[str, Any]

    @property
    def label(self) -> str:
        changed = ",".join(f"{name}={_written(value)}" for name, value in self.options.items())
        return f"{self.preset}[{changed}]" if changed else self.preset


@dataclass(slots=True)
class CaseResult:
    case: Case
    hands: int = 0
    wins: int = 0
    draws: int = 0
    problems: list[str] = field(default_factory=list)


def specs_of(preset: str) -> dict[str, OptionSpec]:
    return option_specs(type(load_ruleset(preset).options))


def preset_cases() -> list[Case]:
    """Every shipped preset as it is."""
    return [Case(name, {}) for name in presets()]


def single_cases(preset: str) -> list[Case]:
    """Every value worth playing of every option of ``preset``'s rule set, one option at a time (the
    values other than the preset's own; :meth:`OptionSpec.values_to_try`)."""
    base = load_ruleset(preset).options
    return [
        Case(preset, _consistent(preset, {name: value}))
        for name, spec in specs_of(preset).items()
        for value in _other_values(spec, getattr(base, name))
    ]


def combination_cases(ruleset: str, count: int, seed: int) -> list[Case]:
    """``count`` seeded random cards of ``ruleset``: a preset of it and 2 to 6 options set to values
    other than its own, made consistent (options needing one turned off are turned off too)."""
    rng = random.Random(f"{ruleset}:{seed}")
    names = sorted(name for name, preset in presets().items() if preset.ruleset == ruleset)
    cases: list[Case] = []
    while len(cases) < count:
        preset = rng.choice(names)
        specs = specs_of(preset)
        base = load_ruleset(preset).options
        chosen: dict[str, Any] = {}
        for name in rng.sample(sorted(specs), rng.randint(2, 6)):
            others = _other_values(specs[name], getattr(base, name))
            if others:
                chosen[name] = rng.choice(others)
        try:
            cases.append(Case(preset, _consistent(preset, chosen)))
        except RuleError:
            continue  # two chosen options contradict each other: draw another card
    return cases


def _other_values(spec: OptionSpec, current: Any) -> list[Any]:
    """The values worth playing of an option, but the one it has now."""
    now = spec.coerce(current)
    return [value for value in spec.values_to_try() if spec.coerce(value) != now]


def _consistent(preset: str, chosen: Mapping[str, Any]) -> dict[str, Any]:
    """``chosen`` with whatever needs an option it turns off turned off too (never one it sets)."""
    options = dict(chosen)
    base = load_ruleset(preset).options
    cls = type(base)
    specs = option_specs(cls)
    for _ in range(len(specs)):
        try:
            load_ruleset(preset, options)
            return options
        except RuleError:
            values = {**options_to_dict(base), **options}
            values = {name: specs[name].coerce(value) for name, value in values.items()}
            broken = next(conflict for conflict in conflicts(cls) if conflict.broken(values))
            if broken.option in chosen:
                raise
            options[broken.option] = _off(specs[broken.option])
    raise RuleError(f"cannot make {dict(chosen)} consistent")


def _off(spec: OptionSpec) -> Any:
    return {"switch": False, "whole": 0, "words": []}[spec.kind]


def check_case(case: Case, *, hands: int, seed: int, match_hands: int = 8) -> CaseResult:
    """Play ``hands`` hands of ``case`` and check everything said in the module's docstring."""
    result = CaseResult(case)
    try:
        ruleset = load_ruleset(case.preset, case.options)
    except RuleError as error:
        result.problems.append(f"refused: {error}")
        return result
    number = 0
    while result.hands < hands:
        players = [make_bot(BOTS[seat], seed * 7919 + number * 4 + seat) for seat in range(SEATS)]
        match = Match(ruleset, seed=seed * 1_000_003 + number, seats=("甲", "乙", "丙", "丁"))
        states: list[HandState] = []
        where = f"{case.label} seed {seed} match {number}"
        try:
            for _ in range(min(match_hands, hands - result.hands)):
                state = match.start_hand()
                play_hand(state, players, check=True)
                states.append(state)
                hand = match.finish_hand(state)
                result.hands += 1
                result.wins += bool(hand.winners)
                result.draws += not hand.winners
        except InvariantError as error:
            result.problems.append(f"{where}, hand {len(states)}: invariant broken: {error}")
            return result
        result.problems.extend(f"{where}: {problem}" for problem in _settlement_problems(match))
        result.problems.extend(f"{where}: {problem}" for problem in _replay_problems(match, states))
        number += 1
        if result.problems:
            break
    return result


def _settlement_problems(match: Match) -> Iterable[str]:
    totals = [0] * SEATS
    for hand in match.results:
        if sum(hand.deltas) != 0:
            yield f"hand {hand.index}: deltas {list(hand.deltas)} do not add up to zero"
        paid = [0] * SEATS
        for transfer in hand.transfers:
            paid[transfer.payer] -= transfer.amount
            paid[transfer.payee] += transfer.amount
            if transfer.amount <= 0 or transfer.payer == transfer.payee:
                yield f"hand {hand.index}: {transfer.payer} pays {transfer.payee} {transfer.amount}"
        if paid != list(hand.deltas):
            yield f"hand {hand.index}: transfers add up to {paid}, the deltas say {list(hand.deltas)}"
        totals = [total + delta for total, delta in zip(totals, hand.deltas, strict=True)]
    if totals != list(match.totals):
        yield f"totals {list(match.totals)} are not the sum of the hands' deltas {totals}"


def _replay_problems(match: Match, states: Sequence[HandState]) -> Iterable[str]:
    """The match's record, written as JSON and read back, replays to exactly the same settlement."""
    text = json.dumps(write_record(record_from_match(match, states)), ensure_ascii=False)
    try:
        replayed = replay(read_record(text))
    except RecordError as error:
        yield f"its record does not replay: {error}"
        return
    for played, again in zip(match.results, replayed.results, strict=False):
        if _settled(played) != _settled(again):
            yield f"hand {played.index} replays to {_settled(again)}, was {_settled(played)}"
    if len(match.results) != len(replayed.results) or list(match.totals) != list(replayed.match.totals):
        yield f"the record replays to totals {list(replayed.match.totals)}, was {list(match.totals)}"


def _settled(hand: HandResult) -> tuple[Any, ...]:
    return (
        hand.outcome,
        hand.winners,
        hand.deltas,
        hand.transfers,
        hand.next_dealer,
        hand.multiplier,
        hand.doubles_next,
    )


def _written(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "+".join(map(str, value)) or "none"
    return str(value)
