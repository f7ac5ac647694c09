"""复盘: a review of one seat's decisions in a recorded match, each weighed by the search (issue 50).

At every decision the seat made — a turn (discard, kong, 报听, 痞子, a self-drawn win or not) or an
open discard it could claim (胡, 碰, 杠, 吃 or pass) — the review deals worlds from what that seat
could see (:func:`hupai.bots.search.determinized`: the other seats' concealed tiles and the wall
dealt anew from exactly the tiles it had not seen, sorted before the shuffle, so where the hidden
tiles really lay never decides a figure), plays each choice in every world and the hand on to its
end with the rollouts' policy, and notes what the seat was paid under the rule set's own settlement.
Every choice meets the same worlds, so their differences are far less noisy than their values.

A choice's figure is its mean payment with a 95% interval. The player's choice is ``best`` when no
choice has a higher mean; a ``mistake`` only when the best choice beats it world by world by more
than :data:`CONFIDENCE` standard errors *and* by at least the decision's margin in points
(:func:`margin_of`); otherwise ``close``. Decisions in an open window that another seat's claim
decided (the record does not say what this seat would have done) are not reviewed.

Everything depends on the record, the seat, the seed and the budget only: the same four give the
same review. The choices weighed at a turn are those the search weighs (strong's choice, every win,
kong and 报听, the most efficient discards) and the player's own; at a claim, every choice there was.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hupai.bots.search import candidate_actions, determinized, roll_out
from hupai.bots.strong import StrongBot
from hupai.game.actions import (
    Action,
    Chow,
    DeclareReady,
    Discard,
    Kong,
    Lay,
    Pass,
    Pong,
    Win,
    action_from_dict,
)
from hupai.game.engine import legal_actions, step
from hupai.game.match import Match
from hupai.game.model import HandState, Phase
from hupai.game.record import (
    Dissolve,
    Escape,
    HandRecord,
    MatchRecord,
    action_as_dict,
    apply_action,
    read_record,
)
from hupai.game.view import SeatView
from hupai.game.view import view as view_of
from hupai.replay import replay, start_hand
from hupai.rules import load_ruleset
from hupai.tiles import format_tiles

__all__ = [
    "DEFAULT_WORLDS",
    "Choice",
    "Decision",
    "HandReview",
    "Review",
    "action_label",
    "review",
    "review_hand",
    "weigh",
]

DEFAULT_WORLDS = 48  # worlds a decision: a 16-hand match in about ten seconds of one core (docs/review.md)
CONFIDENCE = 2.0  # standard errors by which the best choice must beat the player's to call it a mistake
Z95 = 1.96
MIN_MARGIN = 0.5  # points: no difference below half the smallest payment is a mistake
MARGIN_SHARE = 0.1  # ... nor one below a tenth of what the decision's hands typically pay
BEST, CLOSE, MISTAKE = "best", "close", "mistake"
TURN, CLAIM = "turn", "claim"


@dataclass(frozen=True)
class Choice:
    """One choice weighed: its mean payment to the seat over the worlds, and a 95% interval."""

    action: Action
    mean: float
    low: float
    high: float


@dataclass(frozen=True)
class Decision:
    """One decision of the seat: where it was, the choices weighed (the best first), which one the
    player made, and the verdict. ``cost``: how much the best choice beat the player's by (0 when
    the player's was the best), ``spread``: that lead's standard error."""

    hand: int
    index: int  # how many of the hand's recorded actions came before it
    kind: str  # TURN or CLAIM
    choices: tuple[Choice, ...]
    played: int  # the player's choice among ``choices``
    verdict: str
    cost: float
    spread: float
    margin: float
    worlds: int

    @property
    def rollouts(self) -> int:
        return self.worlds * len(self.choices)


@dataclass(frozen=True)
class HandReview:
    hand: int
    decisions: tuple[Decision, ...]
    skipped: int  # claim windows another seat's claim decided

    @property
    def summary(self) -> dict[str, Any]:
        return _summary(self.decisions)

    def as_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "skipped": self.skipped,
            "summary": self.summary,
            "decisions": [_decision_dict(decision) for decision in self.decisions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandReview:
        """A hand's review from its JSON form (as a worker process sends it back: the figures as
        written, to two decimals)."""
        decisions = tuple(
            Decision(
                hand=data["hand"],
                index=item["index"],
                kind=item["kind"],
                choices=tuple(
                    Choice(action_from_dict(choice["action"]), choice["mean"], choice["low"], choice["high"])
                    for choice in item["choices"]
                ),
                played=item["played"],
                verdict=item["verdict"],
                cost=item["cost"],
                spread=item["spread"],
                margin=item["margin"],
                worlds=item["worlds"],
            )
            for item in data["decisions"]
        )
        return cls(data["hand"], decisions, data["skipped"])


@dataclass(frozen=True)
class Review:
    ruleset: str
    seat: int
    seed: int
    worlds: int
    hands: tuple[HandReview, ...] = field(default_factory=tuple)

    @property
    def decisions(self) -> list[Decision]:
        return [decision for hand in self.hands for decision in hand.decisions]

    @property
    def summary(self) -> dict[str, Any]:
        return _summary(self.decisions)

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (docs/review.md, schema ``src/hupai/schemas/review.schema.json``)."""
        return {
            "format": "hupai-review/1",
            "ruleset": self.ruleset,
            "seat": self.seat,
            "seed": self.seed,
            "worlds": self.worlds,
            "summary": self.summary,
            "hands": [hand.as_dict() for hand in self.hands],
        }


def review(
    record: MatchRecord,
    seat: int,
    *,
    worlds: int = DEFAULT_WORLDS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``seat``'s decisions in every hand of ``record`` (checked by replaying it first).
    ``progress(done, total)`` is called after each hand."""
    check_asked(record, seat, worlds)
    replay(record)  # a record that does not replay is refused with its reason (RecordError)
    hands = []
    for index in range(len(record.hands)):
        hands.append(review_hand(record, seat, index, worlds=worlds, seed=seed))
        if progress is not None:
            progress(index + 1, len(record.hands))
    return Review(record.ruleset, seat, seed, worlds, tuple(hands))


def check_asked(record: MatchRecord, seat: int, worlds: int) -> None:
    if not 0 <= seat < len(record.seats):
        raise ValueError(f"seat is 0 to {len(record.seats) - 1}, not {seat}")
    if worlds < 2:
        raise ValueError("a review needs at least 2 worlds a decision (for its intervals)")


def review_hand(record: MatchRecord, seat: int, index: int, *, worlds: int, seed: int) -> HandReview:
    """One hand's review, the same as in :func:`review` (the server reviews a match a hand at a time,
    in its search pool, to show its progress): the hands before it are replayed to reach it."""
    check_asked(record, seat, worlds)
    if index == 0:
        ruleset = load_ruleset(record.ruleset, record.options)
        match = Match(ruleset, seed=record.seed or 0, seats=record.seats, dealer=record.hands[0].dealer)
    else:  # the hands before it, replayed (and checked) as `hupai replay` plays them
        match = replay(dataclasses.replace(record, hands=record.hands[:index])).match
        if match.escapes or match.dissolved:
            raise ValueError(f"the match ended before hand {index}")
    state = start_hand(match, index, record.hands[index])
    decisions, skipped = _review_hand(state, record.hands[index], index, seat, worlds=worlds, seed=seed)
    return HandReview(index, tuple(decisions), skipped)


def _review_hand(
    state: HandState, hand: HandRecord, index: int, seat: int, *, worlds: int, seed: int
) -> tuple[list[Decision], int]:
    """The seat's decisions in one hand, and the windows skipped (up to an escape or a dissolve)."""
    decisions: list[Decision] = []
    skipped = 0
    strong = StrongBot(seed)
    for number, action in enumerate(hand.actions):
        if isinstance(action, Escape | Dissolve):
            break
        played = _decided_here(state, seat, action)
        if played is not None:
            decision = weigh(
                state, seat, played, worlds=worlds, key=f"{seed}:{index}:{number}", strong=strong
            )
            if decision is not None:
                decisions.append(replace(decision, hand=index, index=number))
        elif _claim_taken_over(state, seat, action):
            skipped += 1
        apply_action(state, action)
    return decisions, skipped


def _decided_here(state: HandState, seat: int, action: Action) -> Action | None:
    """What the seat decided at this point of the hand, if it decided anything the record shows:
    its own turn's action; its claim on an open discard; or its pass, when the next action recorded
    is nobody's claim (everyone let the discard go)."""
    if state.phase is Phase.TURN:
        return action if state.turn == seat and action.seat == seat else None
    window = state.window
    if window is None or seat not in window.options or seat in window.decisions:
        return None
    if action.seat == seat and action in legal_actions(state, seat):
        return action
    if action in legal_actions(state, action.seat):
        return None  # another seat's claim comes first in the record: this seat's choice is unknown
    return Pass(seat=seat)


def _claim_taken_over(state: HandState, seat: int, action: Action) -> bool:
    window = state.window
    return (
        state.phase is not Phase.TURN
        and window is not None
        and seat in window.options
        and seat not in window.decisions
        and action.seat != seat
    )


def weigh(
    state: HandState,
    seat: int,
    played: Action,
    *,
    worlds: int = DEFAULT_WORLDS,
    key: str = "0",
    strong: StrongBot | None = None,
) -> Decision | None:
    """The seat's decision at ``state``, its choice ``played``, weighed in ``worlds`` worlds dealt from
    what the seat could see (``key`` seeds them). None when there was no choice to make."""
    legal = legal_actions(state, seat)
    if played not in legal:
        raise ValueError(f"{played} was not among seat {seat}'s choices")
    seen = view_of(state, seat, legal=legal)
    if state.phase is Phase.TURN:
        kind = TURN
        heuristic = (strong or StrongBot(0)).choose(seen, legal)
        candidates = candidate_actions(seen, legal, heuristic)
    else:
        kind = CLAIM
        candidates = list(dict.fromkeys(legal))
    if played not in candidates:
        candidates.append(played)
    if len(candidates) < 2:
        return None
    outcomes = _played_out(state, seen, kind, candidates, worlds=worlds, rng=random.Random(key))
    decision = _verdict(kind, candidates, outcomes, candidates.index(played), worlds)
    if decision.verdict != MISTAKE:
        return decision
    # The best was picked by the same worlds that measure its lead, which flatters it (the winner's
    # curse): the lead is measured again in worlds of their own, the two choices alone.
    best = decision.choices[0].action
    again = _played_out(state, seen, kind, [best, played], worlds=worlds, rng=random.Random(f"{key}:again"))
    cost, spread = _lead(again[0], again[1])
    confirmed = cost > CONFIDENCE * spread and cost >= decision.margin
    # Measured again, the player's choice may even come out ahead: then the best beat it by nothing.
    return replace(decision, verdict=MISTAKE if confirmed else CLOSE, cost=max(cost, 0.0), spread=spread)


def _played_out(
    state: HandState,
    seen: SeatView,
    kind: str,
    candidates: Sequence[Action],
    *,
    worlds: int,
    rng: random.Random,
) -> list[list[int]]:
    """Per candidate, what the seat was paid in each of ``worlds`` worlds (the same for every one)."""
    seat = seen.seat
    assert seat is not None
    outcomes: list[list[int]] = [[] for _ in candidates]
    for _ in range(worlds):
        world = determinized(state, seen, rng, read_melds=True)
        if kind == CLAIM:
            _others_pass(world, seat)
        for place, action in enumerate(candidates):
            trial = world.copy()
            step(trial, action)
            roll_out(trial)
            outcomes[place].append(trial.deltas()[seat])
    return outcomes


def _others_pass(world: HandState, seat: int) -> None:
    """In a world, the other seats let the open discard go: their options there came from their real
    hands, which the world has dealt anew, so what they could claim is not the seat's to know."""
    window = world.window
    assert window is not None
    for other in sorted(window.options):
        if other != seat and other not in window.decisions:
            step(world, Pass(seat=other))


def _verdict(
    kind: str, candidates: Sequence[Action], outcomes: Sequence[Sequence[int]], played: int, worlds: int
) -> Decision:
    means = [sum(paid) / worlds for paid in outcomes]
    choices = []
    for action, paid, mean in zip(candidates, outcomes, means, strict=True):
        half = Z95 * _standard_error(paid, mean)
        choices.append(Choice(action, mean, mean - half, mean + half))
    # The best first; among equals, the player's (a choice as good as the best is never worse).
    order = sorted(range(len(choices)), key=lambda place: (-means[place], place != played))
    best = order[0]
    cost, spread = _lead(outcomes[best], outcomes[played])
    margin = margin_of(outcomes)
    if best == played or cost <= 0:
        verdict, cost = BEST, 0.0
    elif cost > CONFIDENCE * spread and cost >= margin:
        verdict = MISTAKE
    else:
        verdict = CLOSE
    ranked = tuple(choices[place] for place in order)
    return Decision(
        hand=0,
        index=0,
        kind=kind,
        choices=ranked,
        played=order.index(played),
        verdict=verdict,
        cost=cost,
        spread=spread,
        margin=margin,
        worlds=worlds,
    )


def margin_of(outcomes: Sequence[Sequence[int]]) -> float:
    """The difference in points that matters at a decision: a tenth of what its hands paid the seat
    on average (either way), and never below half a point. Nanjing's payments run ten times
    Nanning's; a margin of their own scale keeps a mistake a mistake in each."""
    paid = [abs(value) for values in outcomes for value in values]
    return max(MIN_MARGIN, MARGIN_SHARE * sum(paid) / len(paid)) if paid else MIN_MARGIN


def _lead(better: Sequence[int], worse: Sequence[int]) -> tuple[float, float]:
    """How far ``better`` paid above ``worse``, world by world, on average; and its standard error."""
    lead = [mine - theirs for mine, theirs in zip(better, worse, strict=True)]
    mean = sum(lead) / len(lead)
    return mean, _standard_error(lead, mean)


def _standard_error(values: Sequence[float], mean: float) -> float:
    if len(values) < 2:
        return 0.0
    variance = sum((value - mean) ** 2 for value in values) / (len(values) - 1)
    return math.sqrt(variance / len(values))


def _summary(decisions: Sequence[Decision]) -> dict[str, Any]:
    """Decisions reviewed, how often the player's choice was the search's best, the mistakes and their
    estimated cost, and the biggest turning point (the decision whose choices' means lay furthest
    apart: where the hand was most at stake)."""
    mistakes = [decision for decision in decisions if decision.verdict == MISTAKE]
    agreed = sum(decision.verdict == BEST for decision in decisions)
    turning = max(
        decisions, key=lambda decision: decision.choices[0].mean - decision.choices[-1].mean, default=None
    )
    return {
        "decisions": len(decisions),
        "best": agreed,
        "close": sum(decision.verdict == CLOSE for decision in decisions),
        "mistakes": len(mistakes),
        "agreement": round(agreed / len(decisions), 3) if decisions else None,
        "cost": round(sum(decision.cost for decision in mistakes), 2),
        "turning_point": None if turning is None else {"hand": turning.hand, "index": turning.index},
    }


def _decision_dict(decision: Decision) -> dict[str, Any]:
    return {
        "index": decision.index,
        "kind": decision.kind,
        "verdict": decision.verdict,
        "played": decision.played,
        "cost": round(decision.cost, 2),
        "spread": round(decision.spread, 2),
        "margin": round(decision.margin, 2),
        "worlds": decision.worlds,
        "rollouts": decision.rollouts,
        "choices": [
            {
                "action": action_as_dict(choice.action),
                "mean": round(choice.mean, 2),
                "low": round(choice.low, 2),
                "high": round(choice.high, 2),
            }
            for choice in decision.choices
        ],
    }


_LABELS: tuple[tuple[type, str, str], ...] = (
    (Discard, "打", "discard"),
    (Pong, "碰", "pong"),
    (Kong, "杠", "kong"),
    (Chow, "吃", "chow"),
    (Win, "胡", "win"),
    (Pass, "过", "pass"),
    (DeclareReady, "报听", "declare ready"),
    (Lay, "亮", "lay"),
)


def action_label(action: Action) -> str:
    """A choice as a player says it, Chinese then English: ``打 5s discard``, ``过 pass``."""
    for kind, zh, en in _LABELS:
        if isinstance(action, kind):
            tile = getattr(action, "tile", None)
            shown = f" {format_tiles([tile])}" if isinstance(tile, int) else ""
            return f"{zh}{shown} {en}"
    return type(action).__name__


def review_hand_job(job: tuple[dict[str, Any], int, int, int, int]) -> dict[str, Any]:
    """:func:`review_hand` in a worker process: (the record's JSON, seat, hand, worlds, seed) in, the
    hand's review as JSON out (:meth:`HandReview.from_dict` reads it back)."""
    data, seat, index, worlds, seed = job
    return review_hand(read_record(data), seat, index, worlds=worlds, seed=seed).as_dict()
