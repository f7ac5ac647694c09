"""Game records (``hupai-record/1``): read, write and apply (:mod:`hupai.replay` replays them). See
``docs/record-format.md``.

A record holds the rule set and options, the seats, and for every hand its dealer, its deal and wall
(or a seed) and the actions in order. Draws and flower replacements are automatic and not written.
Passes may be left out: while a discard is open, an action that is a legal claim on it is that claim;
any other action means everyone still undecided passed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from hupai.game.actions import (
    Action,
    ActionParseError,
    Chow,
    Discard,
    Kong,
    Pass,
    Pong,
    Win,
    action_from_dict,
    action_to_dict,
)
from hupai.game.engine import (
    IllegalAction,
    ended_refusal,
    legal_actions,
    passed_pong_refusal,
    release_claims,
    step,
    verify,
)
from hupai.game.fairness import FairDeal, FairDealError
from hupai.game.match import Match
from hupai.game.model import SEATS, HandState, Phase
from hupai.tiles import format_tiles, parse_tiles

__all__ = [
    "FORMAT",
    "Dissolve",
    "Escape",
    "HandRecord",
    "MatchRecord",
    "RecordAction",
    "RecordError",
    "action_as_dict",
    "apply_action",
    "close_open_window",
    "load_record_json",
    "read_record",
    "record_from_match",
    "write_record",
]

FORMAT = "hupai-record/1"
ESCAPE = "escape"
DISSOLVE = "dissolve"


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message names the hand and action."""


@dataclass(frozen=True, slots=True)
class Escape:
    """A player leaving the game for good (逃跑), written ``{"seat": 2, "act": "escape"}``."""

    seat: int
    act = ESCAPE


@dataclass(frozen=True, slots=True)
class Dissolve:
    """The match ended early by agreement (解散: every player voted for it), written
    ``{"act": "dissolve"}`` where it happened: the hand in play is abandoned as it stands (money already
    paid stands, nobody pays for the dissolve) and nothing may follow. It names no seat: nobody in
    particular ended the match."""

    act = DISSOLVE


RecordAction = Action | Escape | Dissolve  # what a record's hand lists


@dataclass(frozen=True, slots=True)
class HandRecord:
    dealer: int
    actions: tuple[RecordAction, ...]
    deal: tuple[tuple[int, ...], ...] | None = None
    wall: tuple[int, ...] | None = None
    seed: int | None = None
    fair: FairDeal | None = None  # how the deal was drawn, when it was a fair deal (docs/fairness.md)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    ruleset: str
    options: Mapping[str, Any]
    seats: tuple[str, ...]
    hands: tuple[HandRecord, ...]
    seed: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


# --- reading ---------------------------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise RecordError(f"not JSON: {name} is not a number a record may hold")


def _parse_json(text: str) -> Any:
    """JSON as a record allows it: no NaN or Infinity, no integer of thousands of digits, no nesting so
    deep that reading it would exhaust the stack — each refused in one line."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}") from None
    except RecursionError:
        raise RecordError("not a record: the JSON is nested too deeply") from None
    except RecordError:
        raise
    except ValueError:  # Python's limit on the digits of an integer
        raise RecordError("not a record: it holds a number of thousands of digits") from None


def load_record_json(source: Path | str) -> Any:
    """The JSON of a record file (a path) or text, parsed as a record allows it; the record itself
    is not checked yet (:func:`read_record` does that). Raises :class:`RecordError`."""
    if isinstance(source, Path):
        try:
            source = source.read_text(encoding="utf-8")
        except OSError as error:
            raise RecordError(f"cannot read {source}: {error.strerror}") from None
        except UnicodeDecodeError as error:
            raise RecordError(f"not UTF-8 text: byte {error.start} cannot be read") from None
    return _parse_json(source)


def read_record(source: Path | str | Mapping[str, Any]) -> MatchRecord:
    """Read a record from a file path, JSON text or a parsed mapping; raises :class:`RecordError`."""
    data: Any = load_record_json(source) if isinstance(source, Path | str) else source
    if not isinstance(data, Mapping):
        raise RecordError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"'format' must be {FORMAT!r}, not {data.get('format')!r}")
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str):
        raise RecordError("'ruleset' names a rule set or preset, e.g. \"nanjing\"")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("'options' is an object of option names and values")
    seats = data.get("seats", ["0", "1", "2", "3"])
    if not isinstance(seats, list) or len(seats) != SEATS or not all(isinstance(name, str) for name in seats):
        raise RecordError("'seats' lists the four players' names")
    hands = data.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RecordError("'hands' lists at least one hand")
    seed = data.get("seed")
    if seed is not None and not _whole(seed):
        raise RecordError("'seed' is a whole number")
    known = {"format", "ruleset", "options", "seats", "hands", "seed"}
    extra = {key: value for key, value in data.items() if key not in known}
    return MatchRecord(
        ruleset=ruleset,
        options=dict(options),
        seats=tuple(seats),
        hands=tuple(_read_hand(index, hand) for index, hand in enumerate(hands)),
        seed=seed,
        extra=extra,
    )


HAND_FIELDS = ("dealer", "deal", "wall", "seed", "fair", "actions")


def _whole(value: Any) -> TypeGuard[int]:
    """A JSON whole number (``true`` is not 1 here, as in JSON Schema)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _read_hand(index: int, data: Any) -> HandRecord:
    where = f"hand {index}"
    if not isinstance(data, Mapping):
        raise RecordError(f"{where}: a hand is an object")
    unknown = sorted(str(key) for key in data if key not in HAND_FIELDS)
    if unknown:  # a misspelt field would otherwise be read as left out
        raise RecordError(
            f"{where}: unknown field(s) {', '.join(unknown)} (a hand has {', '.join(HAND_FIELDS)})"
        )
    dealer = data.get("dealer", 0)
    if not _whole(dealer) or not 0 <= dealer < SEATS:
        raise RecordError(f"{where}: 'dealer' is a seat 0-3")
    actions_data = data.get("actions", [])
    if not isinstance(actions_data, list):
        raise RecordError(f"{where}: 'actions' is a list")
    actions: list[RecordAction] = []
    for number, entry in enumerate(actions_data):
        try:
            if isinstance(entry, Mapping) and entry.get("act") == DISSOLVE:
                extra = sorted(str(key) for key in entry if key != "act")
                if extra:  # a seat would say who dissolved the match: nobody alone does
                    raise ActionParseError(
                        f'unknown field(s) {", ".join(extra)} (a dissolve is {{"act": "dissolve"}})'
                    )
                actions.append(Dissolve())
            elif isinstance(entry, Mapping) and entry.get("act") == ESCAPE:
                seat = entry.get("seat")
                if not _whole(seat) or not 0 <= seat < SEATS:
                    raise ActionParseError(f"'seat' must be 0-3, not {seat!r}")
                extra = sorted(str(key) for key in entry if key not in ("seat", "act"))
                if extra:
                    raise ActionParseError(f"unknown field(s) {', '.join(extra)}")
                actions.append(Escape(seat))
            else:
                actions.append(action_from_dict(entry))
        except ActionParseError as error:
            raise RecordError(f"{where}, action {number}: {error}") from None
    seed = data.get("seed")
    if ("deal" in data or "wall" in data) and "seed" in data:
        raise RecordError(f"{where}: give 'deal' and 'wall', or a 'seed', not both")
    if "deal" in data or "wall" in data:
        deal_data, wall_data = data.get("deal"), data.get("wall")
        if not isinstance(deal_data, list) or len(deal_data) != SEATS or not isinstance(wall_data, str):
            raise RecordError(f"{where}: 'deal' lists four hands in notation and 'wall' is one string")
        deal_tiles = []
        for seat, tiles in enumerate(deal_data):
            deal_tiles.append(tuple(_tiles(tiles, f"{where}: 'deal' of seat {seat}")))
        return HandRecord(
            dealer=dealer,
            actions=tuple(actions),
            deal=tuple(deal_tiles),
            wall=tuple(_tiles(wall_data, f"{where}: 'wall'")),
            fair=_fair(data.get("fair"), where),
        )
    if "seed" not in data:
        raise RecordError(f"{where}: give 'deal' and 'wall', or a 'seed'")
    if not _whole(seed):
        raise RecordError(f"{where}: 'seed' is a whole number")
    return HandRecord(dealer=dealer, actions=tuple(actions), seed=seed)


def _fair(data: Any, where: str) -> FairDeal | None:
    if data is None:
        return None
    try:
        return FairDeal.from_dict(data)
    except FairDealError as error:
        raise RecordError(f"{where}: {error}") from None


def _tiles(text: Any, where: str) -> list[int]:
    if not isinstance(text, str):
        raise RecordError(f"{where} is a string of tiles in notation")
    try:
        return parse_tiles(text)
    except ValueError as error:
        raise RecordError(f"{where}: {error}") from None


# --- writing ---------------------------------------------------------------------------------------


def write_record(record: MatchRecord) -> dict[str, Any]:
    """The JSON-ready form of a record."""
    hands = []
    for hand in record.hands:
        entry: dict[str, Any] = {"dealer": hand.dealer}
        if hand.deal is not None and hand.wall is not None:
            entry["deal"] = [format_tiles(tiles) for tiles in hand.deal]
            entry["wall"] = format_tiles(hand.wall)
            if hand.fair is not None:
                entry["fair"] = hand.fair.as_dict()
        else:
            entry["seed"] = hand.seed
        entry["actions"] = [action_as_dict(action) for action in hand.actions]
        hands.append(entry)
    out: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": record.ruleset,
        "options": dict(record.options),
        "seats": list(record.seats),
    }
    if record.seed is not None:
        out["seed"] = record.seed
    out.update(record.extra)
    out["hands"] = hands
    return out


def action_as_dict(action: RecordAction) -> dict[str, Any]:
    """An action as a record writes it."""
    if isinstance(action, Dissolve):
        return {"act": DISSOLVE}
    if isinstance(action, Escape):
        return {"seat": action.seat, "act": ESCAPE}
    return action_to_dict(action)


def record_from_match(match: Match, states: Sequence[HandState]) -> MatchRecord:
    """A record of hands played through a :class:`Match` (every option written out in full)."""
    hands = []
    escapes = dict(match.escapes)
    for index, state in enumerate(states):
        actions: list[RecordAction] = list(state.actions)
        if index == len(states) - 1:
            actions.extend(Escape(seat) for seat in escapes)
            if match.dissolved:
                actions.append(Dissolve())
        hands.append(
            HandRecord(
                dealer=state.dealer,
                actions=tuple(actions),
                deal=state.deal,
                wall=tuple(state.wall),
                fair=state.fair,
            )
        )
    return MatchRecord(
        ruleset=match.ruleset.preset,
        options=match.ruleset.options_dict(),
        seats=tuple(match.seats),
        hands=tuple(hands),
        seed=match.seed,
    )


# --- applying a record's actions ---------------------------------------------------------------------


def apply_action(state: HandState, action: Action) -> None:
    """Apply a record action: a legal decision on an open discard is taken as one; any other action
    first passes every seat still undecided. Raises :class:`IllegalAction` when it is not legal —
    with the rule's reason when it could only have been meant as a claim on the open discard (过胡不胡,
    过碰不碰, 卖胡, 有痞子不能胡 …), not with whose turn it is afterwards."""
    claim_refusal: str | None = None
    while True:
        if state.phase is Phase.ENDED:
            refused = _refused_win(state, action)
            raise IllegalAction(refused or claim_refusal or ended_refusal(state))
        window = state.window
        if window is None or state.phase is Phase.TURN:
            try:
                step(state, action)
            except IllegalAction:
                # A win the last discard would have given, refused by the rules: the record meant that
                # claim (even when play has come round to the winner's own turn), so name its rule.
                refused = _refused_win(state, action)
                if refused or _only_a_claim(state, action):
                    reason = refused or claim_refusal or _refused_claim_on_last_discard(state, action)
                    if reason:
                        raise IllegalAction(reason) from None
                raise
            return
        if action in legal_actions(state, action.seat):
            step(state, action)
            return
        if claim_refusal is None and action.seat != window.discarder:
            try:
                verify(state, action)
            except IllegalAction as error:
                refused = _refused_win(state, action)
                claim_refusal = refused or str(error)
        undecided = [seat for seat in sorted(window.options) if seat not in window.decisions]
        for seat in undecided:
            step(state, Pass(seat=seat))
        release_claims(state)  # a window held open for nobody (``hold_claims``) closes as passed


def _refused_win(state: HandState, action: Action) -> str | None:
    """The rule that refused the win ``action`` stands for (a 胡, or a pass on it) on the tile last
    offered, when its seat's hand was complete but may not win (the engine's ``refused_wins``)."""
    return state.refused_wins.get(action.seat) if isinstance(action, Win | Pass) else None


def _refused_claim_on_last_discard(state: HandState, action: Action) -> str | None:
    """Why a claim on a discard that nobody could claim (play moved straight on) was not allowed."""
    if isinstance(action, Win):
        return state.refused_wins.get(action.seat)
    last = next((done for done in reversed(state.actions) if isinstance(done, Discard)), None)
    if isinstance(action, Pong) and last is not None and last.tile in state.seats[action.seat].passed_pungs:
        return passed_pong_refusal(action.seat, last.tile)
    if isinstance(action, Pong) and last is not None and last.seat != action.seat:
        held = state.seats[action.seat].counts[last.tile]
        if held < 2:  # (nobody could claim it, or play would have waited for the claim)
            return (
                f"seat {action.seat} cannot pong {format_tiles([last.tile])}, seat {last.seat}'s last "
                f"discard: it holds {held} of it, and a pong takes two"
            )
    return None


def _only_a_claim(state: HandState, action: Action) -> bool:
    """Whether ``action`` can only be a claim on a discard: a pong, a chow, a kong without a tile, or
    a win by a seat whose turn it is not."""
    if isinstance(action, Pong | Chow) or (isinstance(action, Kong) and action.tile is None):
        return True
    return isinstance(action, Win) and action.seat != state.turn


def close_open_window(state: HandState) -> None:
    """Pass every seat still undecided on the open discard, kong or 报听 window."""
    while state.phase in (Phase.CLAIM, Phase.ROB, Phase.DECLARE) and state.window is not None:
        undecided = [seat for seat in sorted(state.window.options) if seat not in state.window.decisions]
        if not undecided:  # held open for nobody (``hold_claims``)
            release_claims(state)
            continue
        step(state, Pass(seat=undecided[0]))
