"""Replaying a game record (``hupai-record/1``, :mod:`hupai.game.record`): every hand played through the
engine under the rule card the record names, settled, and checked against what the rules give (the
next dealer; nothing after an escape or a dissolve); and the fair deals it carries verified.

It sits above both the engine and the rule sets: a record names its rule set, which only the
registry in :mod:`hupai.rules` can turn into the :class:`~hupai.game.contract.RuleSet` the engine
plays by.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hupai.game.contract import RuleError, RuleSet
from hupai.game.engine import (
    IllegalAction,
    InvalidDeal,
    shuffled_deal,
)
from hupai.game.fairness import ALGORITHM_V1, ALGORITHM_V2, V1_CAVEAT, FairDeal, verify_deal
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

__all__ = ["HandVerdict", "ReplayResult", "replay", "start_hand", "verify_record"]


def _ruleset_of(record: MatchRecord) -> RuleSet:
    """The rule card the record names, from :mod:`hupai.rules`' registry."""
    try:
        return load_ruleset(record.ruleset, record.options)
    except RuleError as error:
        raise RecordError(str(error)) from None


@dataclass
class HandVerdict:
    """What ``hupai verify`` says of one hand of a record.

    ``verified`` is ``True`` when the hand's fair deal and its play check out, ``False`` when something
    does not (``problems`` says what, in words), and ``None`` when the hand carries no fair-deal facts
    (dealt from a seed or a set wall: not verifiable, though its actions are still checked).
    ``caveats`` are true statements that do not fail the hand (what ``hupai-fair/1`` cannot show …).
    """

    index: int  # the hand's 0-based index in its match (people read 第{index + 1}局)
    verified: bool | None
    problems: list[str] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    algorithm: str | None = None
    commitment: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "hand": self.index,
            "verified": self.verified,
            "algorithm": self.algorithm,
            "commitment": self.commitment,
            "problems": list(self.problems),
            "caveats": list(self.caveats),
        }


def verify_record(record: MatchRecord) -> list[HandVerdict]:
    """Check a whole game, hand by hand (docs/fairness.md): each fair deal (the commitment, the deal
    and wall, the wall hash, by its algorithm), what ties a ``hupai-fair/2`` hand to the record (its
    room, its index, the order, no commitment or secret used twice), and every action played through
    the engine against the deal and wall the hand reveals. Never raises for what a record claims:
    whatever does not match is a problem of the hand it is in."""
    ruleset = _ruleset_of(record)
    tiles = ruleset.tile_set()
    first, placing = _first_index(record)
    played = _play_each_hand(record, ruleset, first)
    verdicts: list[HandVerdict] = []
    commitments: dict[str, int] = {}
    secrets: dict[str, int] = {}
    last_placed: int | None = None  # the last hupai-fair/2 hand's own index
    # A hupai-fair/2 room deals every hand of its match fairly: in its record a hand without the
    # facts was stripped of them, not dealt another way.
    all_fair = any(hand.fair is not None and hand.fair.algorithm == ALGORITHM_V2 for hand in record.hands)
    for position, hand in enumerate(record.hands):
        index = first + position
        fair = hand.fair
        problems = played[position]
        if fair is None or hand.deal is None or hand.wall is None:
            if all_fair:
                problems = [_missing_fair_facts(hand), *problems]
            verdicts.append(HandVerdict(index, False if problems else None, problems))
            continue
        checks = verify_deal(tiles, hand.dealer, hand.deal, hand.wall, fair)
        caveats = []
        if fair.algorithm == ALGORITHM_V1:
            caveats.append(V1_CAVEAT)
        else:
            checks += _placing_problems(record, fair, index, placing, last_placed)
            checks += _repeated(fair.commitment, "commitment", commitments, index)
            checks += _repeated(fair.secret, "secret", secrets, index)
            last_placed = fair.hand
        problems = checks + problems
        verdict = HandVerdict(index, not problems, problems, caveats, fair.algorithm, fair.commitment)
        verdicts.append(verdict)
    return verdicts


def _missing_fair_facts(hand: HandRecord) -> str:
    """Why a hand of a ``hupai-fair/2`` record without its fair-deal facts fails."""
    facts = (("fair", hand.fair), ("deal", hand.deal), ("wall", hand.wall))
    missing = [name for name, value in facts if value is None]
    return (
        f"the hand has no {' / '.join(repr(name) for name in missing)}: the record's other hands are dealt "
        f"with {ALGORITHM_V2}, which deals every hand of a match fairly, so its fair-deal facts were removed"
    )


def _first_index(record: MatchRecord) -> tuple[int, str | None]:
    """The index in its match of the record's first hand: the record's ``hand_index`` (a server's
    one-hand record, or a match record, which starts at 0), else 0; and a problem with it, if any."""
    written = record.extra.get("hand_index", 0)
    if isinstance(written, int) and not isinstance(written, bool) and written >= 0:
        return written, None
    return 0, f"the record's 'hand_index' is {json.dumps(written)}, not a hand's index (0, 1, 2 …)"


def _placing_problems(
    record: MatchRecord, fair: FairDeal, index: int, placing: str | None, last_placed: int | None
) -> list[str]:
    """A ``hupai-fair/2`` hand is the record's own: dealt for the record's room, at the place in the
    match where the record has it, after the hand before it."""
    problems = [] if placing is None else [placing]
    room = record.extra.get("room")
    if not isinstance(room, str):
        problems.append(
            f"the record names no room (its 'room' is {json.dumps(room)}), and the hand was dealt for "
            f"room {fair.room}"
        )
    elif fair.room != room:
        problems.append(f"the hand was dealt for room {fair.room}, not for this record's room {room}")
    if fair.hand != index:
        assert fair.hand is not None
        problems.append(
            f"the hand was dealt as hand index {fair.hand} (第{fair.hand + 1}局) of its match, but it "
            f"stands at index {index} (第{index + 1}局) in this record"
        )
    if last_placed is not None and fair.hand is not None and fair.hand <= last_placed:
        problems.append(
            f"the hands are out of order: hand index {fair.hand} follows hand index {last_placed}"
        )
    return problems


def _repeated(value: str, name: str, seen: dict[str, int], index: int) -> list[str]:
    """A commitment or a secret is one hand's: a second hand with it was copied."""
    if value in seen:
        earlier = seen[value]
        return [f"the {name} is the one of hand index {earlier} (第{earlier + 1}局): a hand is repeated"]
    seen[value] = index
    return []


def _play_each_hand(record: MatchRecord, ruleset: RuleSet, first: int) -> list[list[str]]:
    """Per hand: what is wrong with its play, each hand played through the engine from the deal and
    wall it reveals (or its seed). A hand is played on from the one before it while that one played
    through (so its dealer is checked against the rules), else on its own."""
    verdicts: list[list[str]] = []
    match: Match | None = None
    ended: str | None = None  # how and where an escape or a dissolve ended the match
    for position, hand in enumerate(record.hands):
        problems: list[str] = []
        verdicts.append(problems)
        if ended is not None:
            problems.append(f"the hand follows the end of the match ({ended})")
            continue
        if match is not None:
            problem = _dealer_problem(hand.dealer, match.results[-1], first + position - 1)
            if problem is not None:
                problems.append(problem)
                match = None
        if match is None:
            match = Match(ruleset, seed=record.seed or 0, seats=record.seats, dealer=hand.dealer)
        try:
            state = start_hand(match, position, hand)
        except RecordError as error:
            problems.append(str(error).removeprefix(f"hand {position}: "))
            match = None
            continue
        for number, action in enumerate(hand.actions):
            where = f"action {number} ({_shown(action)})"
            if ended is not None:
                problems.append(f"{where} follows the end of the match ({ended})")
                break
            try:
                if isinstance(action, Escape):
                    match.escape(action.seat)
                    ended = (
                        f"seat {action.seat} left (逃跑) at action {number} of hand index {first + position}"
                    )
                elif isinstance(action, Dissolve):
                    match.dissolve()
                    ended = (
                        f"the match was dissolved (解散) at action {number} of hand index {first + position}"
                    )
                else:
                    apply_action(state, action)
            except ValueError as error:  # IllegalAction, and whatever else the tiles make impossible
                problems.append(f"{where}: {error}")
                break
        if problems or ended is not None:
            match = None
            continue
        close_open_window(state)
        if state.phase is not Phase.ENDED:  # (a server writes a hand once it is over)
            problems.append(f"the record stops before the hand is over (seat {state.turn} is to play)")
            match = None
            continue
        match.finish_hand(state)
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
        state = start_hand(match, index, hand)
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


def start_hand(match: Match, index: int, hand: HandRecord) -> HandState:
    """Hand ``index`` of a record dealt in ``match`` (its seed's deal, or its deal and wall)."""
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
    problem = _dealer_problem(written, previous, previous.index)
    if problem is not None:
        raise RecordError(f"hand {index}: {problem}")


def _dealer_problem(written: int, previous: HandResult, previous_index: int) -> str | None:
    """``previous_index``: the hand before's index in the record."""
    if written == previous.next_dealer:
        return None
    return (
        f"the dealer is seat {written} in the record, but the rules give seat "
        f"{previous.next_dealer} ({_why_dealer(previous, previous_index)})"
    )


def _why_dealer(previous: HandResult, index: int) -> str:
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
    return f"hand {index}, dealt by seat {previous.dealer}, was {ended}: {after}"
