"""A match: many hands, the dealer's rotation, 比下胡 doubling and its flags, running totals, leaving,
dissolving.

>>> from hupai.rules import load_ruleset
>>> match = Match(load_ruleset("nanjing"), seed=7)
>>> state = match.start_hand()
>>> state.dealer, state.multiplier
(0, 1)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hupai.game.contract import RuleSet, ScoreSheet, Transfer
from hupai.game.engine import abandon, deal_in_order, new_hand, shuffled_deal
from hupai.game.fairness import FairDeal, fair_order
from hupai.game.model import SEATS, HandState, Phase

__all__ = ["ESCAPE_REASON", "HandResult", "Match", "MatchError", "hand_seed"]

ESCAPE_REASON = "escape"  # the reason of every escape payment (RuleSet.escape_transfers)


class MatchError(ValueError):
    """A match used out of order (a hand started before the last one ended, …)."""


def hand_seed(match_seed: int, index: int) -> int:
    """The seed of hand ``index`` of a match: derived, so any hand can be dealt again on its own."""
    digest = hashlib.sha256(f"hupai:{match_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass(frozen=True, slots=True)
class HandResult:
    """The settlement of one hand, as ``hupai replay`` prints it."""

    index: int
    dealer: int
    multiplier: int
    outcome: str
    winners: tuple[int, ...]
    deltas: tuple[int, ...]
    scores: tuple[tuple[str, int, int | None, ScoreSheet], ...]  # (how, tile, discarder, sheet)
    transfers: tuple[Transfer, ...]
    next_dealer: int
    doubles_next: bool
    causes: tuple[str, ...]
    flags: int
    escaped: tuple[int, ...] = ()  # who left the game for good in this hand (逃跑); paid in ``transfers``

    def escape_money(self, seat: int) -> int:
        """What ``seat`` gained (or, negative, paid) by escapes in this hand: part of its delta."""
        money = 0
        for transfer in self.transfers:
            if transfer.reason != ESCAPE_REASON:
                continue
            if transfer.payee == seat:
                money += transfer.amount
            if transfer.payer == seat:
                money -= transfer.amount
        return money

    def as_dict(self) -> dict[str, Any]:
        from hupai.tiles import format_tiles

        return {
            "hand": self.index,
            "dealer": self.dealer,
            "multiplier": self.multiplier,
            "outcome": self.outcome,
            "winners": list(self.winners),
            "deltas": list(self.deltas),
            "scores": [
                {"how": how, "tile": format_tiles([tile]), "from": discarder, **sheet.as_dict()}
                for how, tile, discarder, sheet in self.scores
            ],
            "transfers": [transfer.as_dict() for transfer in self.transfers],
            "next_dealer": self.next_dealer,
            "bixiahu": {"next_doubled": self.doubles_next, "causes": list(self.causes), "flags": self.flags},
            "escaped": list(self.escaped),
        }


@dataclass
class Match:
    """Hands played one after another by the same four seats.

    ``seed`` deals every hand (hand *i* from :func:`hand_seed`); a record's explicit deals can be
    given to :meth:`start_hand` instead.
    """

    ruleset: RuleSet
    seed: int = 0
    seats: Sequence[str] = ("东家", "南家", "西家", "北家")
    dealer: int = 0
    multiplier: int = 1
    streak: int = 0  # consecutive 比下胡 hands (插旗: n in a row show n-1 flags)
    totals: list[int] = field(default_factory=lambda: [0] * SEATS)
    results: list[HandResult] = field(default_factory=list)
    escapes: list[tuple[int, tuple[Transfer, ...]]] = field(default_factory=list)
    current: HandState | None = None
    over: bool = False
    dissolved: bool = False  # ended early by agreement (解散), not played out

    @property
    def flags(self) -> int:
        return max(self.streak - 1, 0)

    def start_hand(
        self,
        *,
        deal: Sequence[Sequence[int]] | None = None,
        wall: Sequence[int] | None = None,
        fair_secret: str | None = None,
        contributions: Sequence[str] = ("", "", "", ""),
        fair_room: str | None = None,
        fair_hand: int | None = None,
    ) -> HandState:
        """Deal the next hand: from the record's ``deal`` and ``wall``, from a fair-deal secret and the
        seats' contributions (:mod:`hupai.game.fairness`: ``hupai-fair/2`` with the room number and the
        hand's index in the match, ``hupai-fair/1`` without), or else from the match's seed."""
        if self.over:
            raise MatchError("the match is over")
        if self.current is not None and self.current.phase is not Phase.ENDED:
            raise MatchError("the current hand has not ended")
        fair = None
        if fair_secret is not None:
            order = fair_order(self.ruleset.tile_set(), fair_secret, contributions, fair_room, fair_hand)
            fair = FairDeal.make(fair_secret, contributions, order, fair_room, fair_hand)
            deal, wall = deal_in_order(self.dealer, order)
        elif deal is None or wall is None:
            deal, wall = shuffled_deal(self.ruleset, self.dealer, hand_seed(self.seed, len(self.results)))
        last = self.results[-1] if self.results else None
        previous_winner = last.winners[0] if last is not None and len(last.winners) == 1 else None
        self.current = new_hand(
            self.ruleset,
            dealer=self.dealer,
            deal=deal,
            wall=wall,
            multiplier=self.multiplier,
            previous_winner=previous_winner,
        )
        self.current.fair = fair
        return self.current

    def finish_hand(self, state: HandState | None = None) -> HandResult:
        """Settle the ended hand: totals, the next dealer and the next hand's multiplier."""
        state = state or self.current
        if state is None or state.phase is not Phase.ENDED:
            raise MatchError("the hand has not ended")
        outcome = self.ruleset.hand_outcome(state)
        deltas = state.deltas()
        for seat in range(SEATS):
            self.totals[seat] += deltas[seat]
        self.streak = self.streak + 1 if outcome.doubles_next else 0
        result = HandResult(
            index=len(self.results),
            dealer=state.dealer,
            multiplier=state.multiplier,
            outcome=state.outcome,
            winners=tuple(win.context.seat for win in state.wins),
            deltas=tuple(deltas),
            scores=tuple(
                (win.context.kind.value, win.context.tile, win.context.discarder, win.sheet)
                for win in state.wins
            ),
            transfers=tuple(state.transfers),
            next_dealer=outcome.next_dealer,
            doubles_next=outcome.doubles_next,
            causes=outcome.causes,
            flags=self.flags,
        )
        self.results.append(result)
        self.dealer = outcome.next_dealer
        self.multiplier = self.ruleset.next_multiplier(self.multiplier, outcome.doubles_next)
        self.current = None
        return result

    def escape(self, seat: int) -> tuple[Transfer, ...]:
        """A player leaves for good (逃跑): the hand in play is abandoned (money already paid stands),
        the escape penalty is paid, and the match is over.

        The penalty is paid in a hand, so that every hand's transfers add up to its deltas and the
        deltas to the totals: in the hand in play, or between hands in the last hand played (where
        a record writes the escape, after that hand's actions)."""
        if self.over:
            raise MatchError("the match is over")
        if self.current is not None:
            abandon(self.current)
            self.finish_hand(self.current)
        if not self.results:
            raise MatchError("no hand has been dealt: an escape is paid in a hand")
        transfers = tuple(self.ruleset.escape_transfers(seat))
        last = self.results[-1]
        deltas = list(last.deltas)
        for transfer in transfers:
            deltas[transfer.payer] -= transfer.amount
            deltas[transfer.payee] += transfer.amount
            self.totals[transfer.payer] -= transfer.amount
            self.totals[transfer.payee] += transfer.amount
        self.results[-1] = replace(
            last, deltas=tuple(deltas), transfers=last.transfers + transfers, escaped=(*last.escaped, seat)
        )
        self.escapes.append((seat, transfers))
        self.over = True
        return transfers

    def dissolve(self) -> HandResult | None:
        """The players end the match early by agreement (解散): the hand in play, if any, is abandoned
        where it stands — money already paid (kongs, penalties) stands, and nobody pays for the
        dissolve (no rule set defines a payment) — and the match is over. Returns that hand's result
        (``None`` between hands, when the match just ends after the last hand played)."""
        if self.over:
            raise MatchError("the match is over")
        result = None
        if self.current is not None:
            abandon(self.current)  # a hand that has ended keeps its outcome
            result = self.finish_hand(self.current)
        self.over = True
        self.dissolved = True
        return result
