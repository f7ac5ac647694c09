"""Replaying a game record (``hupai-record/1``, :mod:`hupai.game.record`): every hand played through the
engine under the rule card the record names, settled, and checked against what the rules give (the
next dealer; nothing after an escape or a dissolve); and the fair deals it carries verified.

It sits above both the engine and the rule sets: a record names its rule set, which only the
registry in :mod:`hupai.rules` can turn into the :class:`~hupai.game.contract.RuleSet` the engine
plays by.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hupai.game.contract import RuleError, RuleSet
from hupai.game.engine import (
    IllegalAction,
    InvalidDeal,
    shuffled_deal,
)
from hupai.game.fairness import verify_deal
from hupai.game.match import HandResult, Match
from hupai.game.model import SEATS, HandState, Phase
from hupai.game.record import (
    Dissolve,
    Escape,
    HandRecord,
    MatchRecord,
    RecordAction,
    RecordError,
    action_as_dict,
    apply_action,
    close_open_window,
)
from hupai.rules import load_ruleset
from hupai.tiles import format_tiles

__all__ = ["ReplayResult", "replay", "verify_record"]


def _ruleset_of(record: MatchRecord) -> RuleSet:
    """The rule card the record names, from :mod:`hupai.rules`' registry."""
    try:
        return load_ruleset(record.ruleset, record.options)
    except RuleError as error:
        raise RecordError(str(error)) from None


def verify_record(record: MatchRecord) -> list[list[str] | None]:
    """Per hand: what does not match in its fair deal (empty: verified), or ``None`` when the hand
    carries no fair-deal facts (dealt from a seed or an explicit wall)."""
    tiles = _ruleset_of(record).tile_set()
    verdicts: list[list[str] | None] = []
    for hand in record.hands:
        if hand.fair is None or hand.deal is None or hand.wall is None:
            verdicts.append(None)
        else:
            verdicts.append(verify_deal(tiles, hand.dealer, hand.deal, hand.wall, hand.fair))
    return verdicts


@dataclass
class ReplayResult:
    match: Match
    states: list[HandState]

    @property
    def results(self) -> list[HandResult]:
        return self.match.results

    def as_dict(self) -> dict[str, Any]:
        last = len(self.results) - 1  # an escape or a dissolve ends the match: in the last hand
        escapes = [
            {"seat": seat, "hand": last, "transfers": [transfer.as_dict() for transfer in transfers]}
            for seat, transfers in self.match.escapes
        ]
        return {
            "ruleset": self.match.ruleset.preset,
            "options": dict(self.match.ruleset.options_dict()),
            "seats": list(self.match.seats),
            "hands": [
                {**result.as_dict(), **_table_facts(state)}
                for result, state in zip(self.results, self.states, strict=False)
            ],
            "escapes": escapes,
            "dissolved": last if self.match.dissolved else None,  # the hand a dissolve (解散) ended in
            "totals": list(self.match.totals),
        }


def _table_facts(state: HandState) -> dict[str, Any]:
    """What a hand's table showed beyond the settlement, where the rules have it (Enshi: the 痞子, the
    赖子, each seat's lays and multiplier at the end)."""
    if state.pizi is None:
        return {}
    return {
        "pizi": format_tiles([state.pizi]),
        "laizi": None if state.laizi is None else format_tiles([state.laizi]),
        "laid": [format_tiles(player.laid) for player in state.seats],
        "multipliers": [state.ruleset.seat_multiplier(state, seat) for seat in range(len(state.seats))],
    }


def replay(
    record: MatchRecord,
    *,
    ruleset: RuleSet | None = None,
    allow_unfinished: bool = False,
) -> ReplayResult:
    """Play a record through the engine and settle every hand.

    ``ruleset`` re-scores the same play under another rule card (by default the record's own).
    Every hand after the first must name the dealer the rules give after the hand before it, and
    nothing may follow an escape (逃跑) or a dissolve (解散): either ends the match.
    Raises :class:`RecordError` naming the hand, the action's index and the reason.
    """
    if ruleset is None:
        ruleset = _ruleset_of(record)
    match = Match(ruleset, seed=record.seed or 0, seats=record.seats, dealer=record.hands[0].dealer)
    states: list[HandState] = []
    ended: str | None = None  # how and where an escape or a dissolve ended the match
    for index, hand in enumerate(record.hands):
        if ended is not None:
            raise RecordError(f"hand {index}: {ended}")
        if match.results:
            _check_dealer(index, hand.dealer, match.results[-1])
        state = _start_hand(match, index, hand)
        states.append(state)
        for number, action in enumerate(hand.actions):
            if ended is not None:
                raise RecordError(f"hand {index}, action {number} ({_shown(action)}): {ended}")
            where = f"hand {index}, action {number}"
            if isinstance(action, Escape):
                match.escape(action.seat)
                ended = f"the match ended when seat {action.seat} left (逃跑) at {where}; nothing may follow"
                continue
            if isinstance(action, Dissolve):
                # Where it is written: an open claim window is abandoned undecided, as at the table.
                match.dissolve()
                ended = f"the match was dissolved (解散) at {where}; nothing may follow"
                continue
            try:
                apply_action(state, action)
            except IllegalAction as error:
                raise RecordError(f"hand {index}, action {number} ({_shown(action)}): {error}") from None
        if ended is not None:
            continue  # the escape or the dissolve settled the hand
        close_open_window(state)
        if state.phase is not Phase.ENDED:
            if allow_unfinished and index == len(record.hands) - 1:
                return ReplayResult(match, states)
            raise RecordError(
                f"hand {index}: the record stops before the hand is over (seat {state.turn} is to play)"
            )
        match.finish_hand(state)
    return ReplayResult(match, states)


def _start_hand(match: Match, index: int, hand: HandRecord) -> HandState:
    try:
        if hand.seed is not None:
            deal, wall = shuffled_deal(match.ruleset, match.dealer, hand.seed)
            return match.start_hand(deal=deal, wall=wall)
        assert hand.deal is not None and hand.wall is not None
        state = match.start_hand(deal=hand.deal, wall=hand.wall)
    except InvalidDeal as error:
        raise RecordError(f"hand {index}: {error}") from None
    state.fair = hand.fair  # kept, so a record written from the replay still proves its deals
    return state


def _shown(action: RecordAction) -> str:
    """An action as the record writes it, for an error line."""
    return json.dumps(action_as_dict(action), ensure_ascii=False)


def _check_dealer(index: int, written: int, previous: HandResult) -> None:
    """The dealer of a hand after the first follows from the rules and the hand before: a record
    that names another would replay a different match without a word."""
    if written != previous.next_dealer:
        raise RecordError(
            f"hand {index}: the dealer is seat {written} in the record, but the rules give seat "
            f"{previous.next_dealer} ({_why_dealer(previous)})"
        )


def _why_dealer(previous: HandResult) -> str:
    """Why the rules give that dealer, in the facts they read: how the hand before ended."""
    if previous.outcome == "win":
        seats = " and ".join(str(seat) for seat in previous.winners)
        ended = f"won by seat{'s' if len(previous.winners) > 1 else ''} {seats}"
    else:
        ended = {"draw": "a draw (荒庄)", "abandoned": "abandoned"}.get(previous.outcome, previous.outcome)
    if previous.causes:
        ended += f", 比下胡: {', '.join(previous.causes)}"
    if previous.next_dealer == previous.dealer:
        after = "the dealer stays"
    elif previous.next_dealer == (previous.dealer + 1) % SEATS:
        after = "the deal passes to the next seat"
    else:
        after = f"seat {previous.next_dealer} deals next"
    return f"hand {previous.index}, dealt by seat {previous.dealer}, was {ended}: {after}"
