"""Matches played by random legal actions, for record tests: any rule set, any number of hands, and
a player leaving (逃跑) at any point — during a hand or between hands."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hupai.game import Match, legal_actions, step
from hupai.game.actions import Action, Discard, Pass, Win
from hupai.game.contract import RuleSet
from hupai.game.model import HandState, Phase


@dataclass(frozen=True)
class Leaving:
    """Seat ``seat`` leaves in hand ``hand`` after ``steps`` steps, or after that hand when it ends
    sooner (then between hands)."""

    seat: int
    hand: int
    steps: int


def acting_seat(state: HandState) -> int:
    if state.phase is Phase.TURN:
        return state.turn
    assert state.window is not None
    return next(seat for seat in sorted(state.window.options) if seat not in state.window.decisions)


def choose(rng: random.Random, actions: list[Action]) -> Action:
    """Wins when offered, mostly passes and discards otherwise: hands end in every way, and soon."""
    wins = [action for action in actions if isinstance(action, Win)]
    if wins and rng.random() < 0.8:
        return wins[0]
    plain = [action for action in actions if isinstance(action, Pass | Discard)]
    if plain and rng.random() < 0.8:
        return rng.choice(plain)
    return rng.choice(actions)


def play_match(
    ruleset: RuleSet, *, seed: int, hands: int, leaving: Leaving | None = None
) -> tuple[Match, list[HandState]]:
    rng = random.Random(seed)
    match = Match(ruleset, seed=seed)
    states: list[HandState] = []
    for index in range(hands):
        state = match.start_hand()
        states.append(state)
        steps = 0
        while state.phase is not Phase.ENDED:
            if leaving is not None and leaving.hand == index and steps == leaving.steps:
                match.escape(leaving.seat)
                return match, states
            step(state, choose(rng, legal_actions(state, acting_seat(state))))
            steps += 1
        match.finish_hand(state)
        if leaving is not None and leaving.hand == index:
            match.escape(leaving.seat)  # the hand ended before the player left: between hands
            return match, states
    return match, states
