"""A player's statistics over stored hand settlements (大结算 and 战绩 count the same way).

A settlement is :meth:`hupai.game.match.HandResult.as_dict` plus ``kongs`` (kongs made per seat),
which the table adds when it stores a hand; older settlements without it count no kongs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from hupai.game.match import ESCAPE_REASON
from hupai.game.model import HandState

SEATS = 4


@dataclass(frozen=True)
class SeatStats:
    wins: int = 0
    self_draws: int = 0  # wins nobody fed (自摸, 杠开 …)
    deal_ins: int = 0  # hands in which this seat's discard (or robbed kong) was won on (点炮)
    kongs: int = 0
    biggest: int | None = None  # the most this seat gained in one hand it won (escape money aside)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def kongs_made(state: HandState) -> list[int]:
    """How many kongs each seat has laid down in a hand."""
    return [sum(1 for meld in seat.melds if meld.kind.is_kong) for seat in state.seats]


def seat_stats(results: Iterable[dict[str, Any]], seat: int) -> SeatStats:
    wins = self_draws = deal_ins = kongs = 0
    biggest: int | None = None
    for result in results:
        scores = result.get("scores", [])
        kongs += _at(result.get("kongs"), seat)
        if any(score["from"] == seat for score in scores):
            deal_ins += 1
        mine = [score for score in scores if score["seat"] == seat]
        if not mine:
            continue
        wins += 1
        self_draws += sum(1 for score in mine if score["from"] is None)
        gain = _at(result.get("deltas"), seat) - _escape_money(result, seat)
        biggest = gain if biggest is None else max(biggest, gain)
    return SeatStats(wins, self_draws, deal_ins, kongs, biggest)


def ranks(totals: Sequence[int], results: Sequence[dict[str, Any]]) -> list[int | None]:
    """1 for the highest total, ties ranked alike; no ranks at all when no points ever changed (a
    match dissolved before anyone paid anything has no winner)."""
    if not any(totals) and not any(any(result.get("deltas", [])) for result in results):
        return [None] * len(totals)
    return [1 + sum(1 for other in totals if other > total) for total in totals]


def how_won(score: dict[str, Any]) -> str:
    """自摸 when nobody fed the win, else 点炮 (a discard, a robbed kong, a claim)."""
    return "self_drawn" if score["from"] is None else "discard"


def _escape_money(result: dict[str, Any], seat: int) -> int:
    """What a seat got from someone leaving in this hand (逃跑): in its delta, but not won."""
    money = 0
    for transfer in result.get("transfers", []):
        if transfer.get("reason") != ESCAPE_REASON:
            continue
        if transfer["to"] == seat:
            money += int(transfer["amount"])
        if transfer["from"] == seat:
            money -= int(transfer["amount"])
    return money


def _at(values: Sequence[int] | None, seat: int) -> int:
    return int(values[seat]) if values is not None and seat < len(values) else 0
