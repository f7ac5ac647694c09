"""What a described win is worth: the rule set's verdict and explained score sheet on the table built
for it (:func:`score_win`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hupai.calculator.checks import validate
from hupai.calculator.spec import WinHow, WinSpec
from hupai.calculator.table import build_table, win_context
from hupai.game.contract import RuleSet, ScoreSheet, Transfer
from hupai.game.model import (
    SEATS,
    HandState,
    WinContext,
    WinKind,
)
from hupai.game.refusal import Refusal
from hupai.hand import is_win
from hupai.rules import load_ruleset
from hupai.tiles import format_tiles, tile_name


@dataclass(frozen=True, slots=True)
class Calculation:
    """The rule set's verdict on one win: allowed or not (with the rule set's reason), the explained
    score sheet, the payments for the win, and each seat's net change from them.

    ``kind`` is how the engine scored it (``WinKind``: a ``DISCARD`` spec may come out as Nanjing's
    ``INSTANT`` 快照/三清 when that pays the winner more, as at the table). Money paid during play
    (kong money, penalties) is not part of a win and not included.
    """

    allowed: bool
    reason: str
    seat: int
    kind: WinKind | None
    sheet: ScoreSheet | None
    transfers: tuple[Transfer, ...]
    deltas: tuple[int, ...]

    @property
    def total(self) -> int:
        """What the winner gains (0 when the win is not allowed)."""
        return self.deltas[self.seat]

    def as_dict(self) -> dict[str, Any]:
        return {
            "allowed": self.allowed,
            "reason": self.reason,
            "seat": self.seat,
            "kind": self.kind.value if self.kind is not None else None,
            "share": self.sheet.share if self.sheet is not None else 0,
            "total": self.total,
            "sheet": self.sheet.as_dict() if self.sheet is not None else None,
            "transfers": [transfer.as_dict() for transfer in self.transfers],
            "deltas": list(self.deltas),
        }


def score_win(spec: WinSpec) -> Calculation:
    """Score the win ``spec`` describes with the rule set's own ``judge_win`` and ``win_transfers``.

    Raises ValueError (a :class:`~hupai.game.contract.RuleError` for a bad preset or option) when the
    description is impossible: a wrong tile count, a fifth copy, a flower where the rules have none….
    A possible win the rules refuse comes back with ``allowed=False`` and the rule set's reason.
    """
    ruleset = load_ruleset(spec.ruleset, spec.options)
    validate(spec, ruleset)
    return calculate(spec, ruleset, trusted=False)


def calculate(spec: WinSpec, ruleset: RuleSet, *, trusted: bool) -> Calculation:
    state, counts = build_table(spec, ruleset, trusted=trusted)
    seat, tile = spec.seat, spec.win_tile
    if spec.how.self_drawn:
        return _score(state, win_context(spec, state, counts, WinKind.SELF_DRAWN))
    if tile in (state.pizi, state.laizi):
        word = "痞子" if tile == state.pizi else "赖子"
        kind = WinKind.ROBBED_KONG if spec.how is WinHow.ROBBED_KONG else WinKind.DISCARD
        return refused(
            spec,
            kind,
            Refusal(
                f"a {word} ({tile_name(tile)}, {format_tiles([tile])}) is laid, never discarded or konged, "
                f"and nobody claims or wins on one (even a {word} let go at the end of the wall)",
                "wild_never_discarded",
                tile=format_tiles([tile]),
            ),
        )
    if spec.how is WinHow.ROBBED_KONG:
        assert spec.from_seat is not None
        if not ruleset.kong_can_be_robbed(state, spec.from_seat, tile):
            return refused(
                spec,
                WinKind.ROBBED_KONG,
                f"seat {spec.from_seat}'s kong of {tile_name(tile)} cannot be robbed here "
                f"under {ruleset.name} rules (抢杠 not allowed after these kongs)",
            )
        return _score(state, win_context(spec, state, counts, WinKind.ROBBED_KONG))
    instant = not spec.ready and ruleset.instant_win_on_claim(state, seat, tile)
    if spec.how is WinHow.CLAIM:
        if not instant:
            return refused(
                spec,
                WinKind.INSTANT,
                f"claiming {tile_name(tile)} ({format_tiles([tile])}) is not a win by itself "
                f"(快照/三清) for seat {seat} under {ruleset.name} rules",
            )
        return _score(state, win_context(spec, state, counts, WinKind.INSTANT))
    # On a discard, as the engine does: an ordinary win, or a claim that wins at once (快照/三清),
    # whichever pays the winner more.
    kinds = [WinKind.DISCARD] if counts[tile] < 4 and completes(counts, tile, state.laizi) else []
    if instant:
        kinds.append(WinKind.INSTANT)
    if not kinds:
        return refused(spec, WinKind.DISCARD, f"诈胡: {tile_name(tile)} does not complete seat {seat}'s hand")
    results = [_score(state, win_context(spec, state, counts, kind)) for kind in kinds]
    best: Calculation | None = None
    for result in results:
        if not result.allowed:
            continue
        if best is None or _paid(result) > _paid(best):
            best = result
    return best if best is not None else results[0]


def _paid(result: Calculation) -> int:
    return sum(transfer.amount for transfer in result.transfers if transfer.payee == result.seat)


def completes(counts: Sequence[int], tile: int, wild: int | None) -> bool:
    """Whether ``tile`` completes the hand, the wildcards (Enshi 赖子) as jokers. A held 痞子 counts as a
    plain tile here: the rules then refuse the win with their reason (有痞子不能胡)."""
    after = list(counts)
    after[tile] += 1
    return _shape(after, wild)


def _shape(counts: Sequence[int], wild: int | None) -> bool:
    if wild is None:
        return is_win(counts)
    rest = list(counts)
    jokers, rest[wild] = rest[wild], 0
    return is_win(rest, jokers=jokers)


def _score(state: HandState, context: WinContext) -> Calculation:
    ruleset = state.ruleset
    verdict = ruleset.judge_win(state, context)
    if not verdict.allowed or verdict.sheet is None:
        return Calculation(
            allowed=False,
            reason=verdict.reason or "no win",
            seat=context.seat,
            kind=context.kind,
            sheet=None,
            transfers=(),
            deltas=(0,) * SEATS,
        )
    transfers = tuple(ruleset.win_transfers(state, context, verdict.sheet))
    deltas = [0] * SEATS
    for transfer in transfers:
        deltas[transfer.payer] -= transfer.amount
        deltas[transfer.payee] += transfer.amount
    return Calculation(
        allowed=True,
        reason="",
        seat=context.seat,
        kind=context.kind,
        sheet=verdict.sheet,
        transfers=transfers,
        deltas=tuple(deltas),
    )


def refused(spec: WinSpec, kind: WinKind, reason: str) -> Calculation:
    return Calculation(
        allowed=False, reason=reason, seat=spec.seat, kind=kind, sheet=None, transfers=(), deltas=(0,) * SEATS
    )
