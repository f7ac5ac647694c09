"""Reading opponents' waits (读牌): for every opponent and tile, the chance that the tile wins for
that opponent now, from what one seat may see.

The chance is two small logistic models multiplied: how likely the opponent is ready (``ready``:
its discards and their 摸切 marks, melds, 报听, flowers, tiles left) and, if ready, how likely each
tile is among its waits (``wait``: the tile's kind and unseen copies, the opponent's own discards
and their 筋 (suji), discards of others it let pass since its last discard, its melds' suits, the
neighbours still in play). Both are fitted per rule set on self-play records, where the labels are
the true waits of the hands (``tools/train_waits.py``), and shipped as ``waits_model.json``;
inference here is a few dot products in plain Python.

Only the seat's :class:`~hupai.game.view.SeatView` goes in: the features are computed from it alone.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from hupai.bots.base import unseen_from
from hupai.game.model import MeldKind
from hupai.game.view import PublicSeat, SeatView
from hupai.tiles import NUM_KINDS

__all__ = [
    "READY_FEATURES",
    "WAIT_FEATURES",
    "WIN_FEATURES",
    "Logistic",
    "WaitReader",
    "load_reader",
    "ready_features",
    "wait_features",
    "win_features",
]

SEATS = 4
MODEL_FILE = "waits_model.json"
FORMAT = "hupai-waits/1"

READY_FEATURES: tuple[str, ...] = (
    "declared_ready",  # 报听
    "discards_0_2",
    "discards_3_5",
    "discards_6_8",
    "discards_9_11",
    "discards_12_14",
    "discards_15_up",
    "melds_0",
    "melds_1",
    "melds_2",
    "melds_3",
    "melds_4",
    "concealed_kongs",
    "live_tiles",  # / 100
    "from_draw_last3",  # share of the last three discards that were the tile just drawn (摸切)
    "from_draw_last6",
    "middle_last3",  # share of the last three discards that were 3-7
    "honour_share",
    "edge_first6",  # share of honours, 1 and 9 among the first six discards
    "flowers",  # / 8
    "flowers_4_up",
    "dealer",
    "laid",  # Enshi: tiles laid (痞子/赖子), / 4
    "last_middle",
)

WAIT_FEATURES: tuple[str, ...] = (
    "honour",
    "dragon",
    "rank_19",
    "rank_28",
    "rank_37",
    "rank_456",
    "unseen_0",
    "unseen_1",
    "unseen_2",
    "unseen_3",
    "unseen_4",
    "own_discard",  # the opponent let this kind go itself
    "passed",  # another seat let it go after the opponent's last discard, and it did not win
    "suji_full",  # every two-sided wait on it is ruled out by the opponent's own discards (筋)
    "suji_half",
    "near_own_discards",  # the opponent let go tiles one or two away in the same suit (/ 4)
    "sides_open",  # copies left to make a two-sided wait on it (/ 8)
    "closed_open",  # copies left to make a closed wait on it (/ 4)
    "suit_share",  # share of the opponent's discards in this suit (honours: honours)
    "flush_melds",  # the opponent's melds are all of this suit
    "other_suit_melds",  # the opponent has a meld of another number suit
    "meld_of_kind",  # the opponent has a pung or kong of this kind
    "near_last",  # within two of the opponent's last discard, same suit
    "suji_last",  # three away from the opponent's last discard, same suit
    "on_table",  # copies visible among the discards (/ 4)
    "laizi",  # Enshi: the wildcard
    "pizi",  # Enshi: the turned-up tile
)


WIN_FEATURES: tuple[str, ...] = (
    "shanten_0",
    "shanten_1",
    "shanten_2",
    "shanten_3",
    "shanten_4_up",
    "live_0",  # live tiles / 100, for each distance from ready
    "live_1",
    "live_2",
    "live_3",
    "live_4_up",
    "melds",
    "jokers",
)


def win_features(shanten: int, live_tiles: int, melds: int, jokers: int = 0) -> list[float]:
    """The seat's own prospects: tiles to go (after its best discard) and tiles left (WIN_FEATURES)."""
    out = [0.0] * len(WIN_FEATURES)
    step = min(max(shanten, 0), 4)
    out[step] = 1.0
    out[5 + step] = live_tiles / 100
    out[10] = float(melds)
    out[11] = float(jokers)
    return out


@dataclass(frozen=True, slots=True)
class Logistic:
    """``sigmoid(intercept + weights · features)``."""

    weights: tuple[float, ...]
    intercept: float

    def __call__(self, features: Sequence[float]) -> float:
        z = self.intercept
        for weight, value in zip(self.weights, features, strict=True):
            if value:
                z += weight * value
        if z < -30.0:
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], names: Sequence[str]) -> Logistic:
        if tuple(data["features"]) != tuple(names):
            raise ValueError("the model's features do not match this version of hupai")
        return cls(tuple(float(w) for w in data["weights"]), float(data["intercept"]))


def _suit(kind: int) -> int:
    return kind // 9 if kind < 27 else 3


def _rank(kind: int) -> int:
    return kind % 9 if kind < 27 else -1


def _is_middle(kind: int) -> bool:
    return kind < 27 and 2 <= kind % 9 <= 6


def _is_edge(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def ready_features(view: SeatView, other: int) -> list[float]:
    """What the ``other`` seat's public play says about whether it is ready (READY_FEATURES)."""
    public = view.seats[other]
    discards = public.discards
    count = len(discards)
    bucket = min(count // 3, 5)
    melds = min(len(public.melds), 4)
    last3 = discards[-3:]
    first6 = discards[:6]
    marks = public.from_draw
    out = [0.0] * len(READY_FEATURES)
    out[0] = float(public.ready)
    out[1 + bucket] = 1.0
    out[7 + melds] = 1.0
    out[12] = float(sum(1 for meld in public.melds if meld.kind == MeldKind.CONCEALED_KONG.value))
    out[13] = view.live_tiles / 100
    out[14] = sum(marks[-3:]) / 3 if marks else 0.0
    out[15] = sum(marks[-6:]) / 6 if marks else 0.0
    out[16] = sum(1 for kind in last3 if _is_middle(kind)) / 3 if last3 else 0.0
    out[17] = sum(1 for kind in discards if kind >= 27) / count if count else 0.0
    out[18] = sum(1 for kind in first6 if _is_edge(kind)) / 6
    out[19] = len(public.flowers) / 8
    out[20] = float(len(public.flowers) >= 4)
    out[21] = float(view.dealer == other)
    out[22] = len(public.laid) / 4
    out[23] = float(bool(discards) and _is_middle(discards[-1]))
    return out


@dataclass(frozen=True, slots=True)
class _Table:
    """What every opponent's reading shares: unseen copies, copies let go, the discards in order."""

    unseen: list[int]
    on_table: list[int]
    sequence: list[tuple[int, int, int]]  # (order, seat, kind) of every discard of the hand


def _table(view: SeatView) -> _Table:
    on_table = [0] * NUM_KINDS
    sequence = []
    for seat, public in enumerate(view.seats):
        orders = public.order or tuple(range(len(public.discards)))
        for order, kind, claimed in zip(orders, public.discards, public.claimed, strict=False):
            sequence.append((order, seat, kind))
            if not claimed:
                on_table[kind] += 1
    sequence.sort()
    return _Table(unseen_from(view), on_table, sequence)


@dataclass(frozen=True, slots=True)
class _Opponent:
    """What one opponent's public play says, read once for all 34 kinds."""

    own: frozenset[int]  # kinds it let go
    passed: frozenset[int]  # kinds others let go after its last discard (it did not win on them)
    suit_counts: tuple[int, int, int, int]
    total: int
    meld_suits: frozenset[int]
    meld_kinds: frozenset[int]  # pungs and kongs
    last: int | None  # its last discard


def _opponent(public: PublicSeat, other: int, table: _Table) -> _Opponent:
    last_order = public.order[-1] if public.order else -1
    suit_counts = [0, 0, 0, 0]
    for kind in public.discards:
        suit_counts[_suit(kind)] += 1
    return _Opponent(
        own=frozenset(public.discards),
        passed=frozenset(
            kind for order, seat, kind in table.sequence if order > last_order and seat != other
        ),
        suit_counts=(suit_counts[0], suit_counts[1], suit_counts[2], suit_counts[3]),
        total=len(public.discards),
        meld_suits=frozenset(_suit(meld.tile) for meld in public.melds if meld.tile is not None),
        meld_kinds=frozenset(
            meld.tile for meld in public.melds if meld.tile is not None and meld.kind != "chow"
        ),
        last=public.discards[-1] if public.discards else None,
    )


def _number_features(out: list[float], kind: int, opponent: _Opponent, unseen: Sequence[int]) -> None:
    """The features only a number tile has: 筋 (suji), neighbours let go or still in play, the
    distance from the opponent's last discard."""
    rank = kind % 9
    own = opponent.own
    low = rank >= 3 and (kind - 3) in own
    high = rank <= 5 and (kind + 3) in own
    needed = (rank >= 3) + (rank <= 5)
    covered = low + high
    out[13] = float(covered == needed)
    out[14] = float(0 < covered < needed)
    out[15] = sum(1 for step in (-2, -1, 1, 2) if 0 <= rank + step <= 8 and (kind + step) in own) / 4
    sides = 0
    if rank >= 2:
        sides += min(unseen[kind - 2], unseen[kind - 1])
    if rank <= 6:
        sides += min(unseen[kind + 1], unseen[kind + 2])
    out[16] = sides / 8
    if 1 <= rank <= 7:
        out[17] = min(unseen[kind - 1], unseen[kind + 1]) / 4
    last = opponent.last
    if last is not None and last < 27 and last // 9 == kind // 9:
        gap = abs(last % 9 - rank)
        out[22] = float(0 < gap <= 2)
        out[23] = float(gap == 3)


def _kind_features(view: SeatView, kind: int, opponent: _Opponent, table: _Table) -> list[float]:
    out = [0.0] * len(WAIT_FEATURES)
    suit = _suit(kind)
    rank = _rank(kind)
    if kind >= 27:
        out[0] = 1.0
        out[1] = float(kind >= 31)
    else:
        out[2 if rank in (0, 8) else 3 if rank in (1, 7) else 4 if rank in (2, 6) else 5] = 1.0
        _number_features(out, kind, opponent, table.unseen)
    out[6 + min(table.unseen[kind], 4)] = 1.0
    out[11] = float(kind in opponent.own)
    out[12] = float(kind in opponent.passed)
    out[18] = opponent.suit_counts[suit] / opponent.total if opponent.total else 0.0
    out[19] = float(opponent.meld_suits == {suit})
    out[20] = float(any(other < 3 and other != suit for other in opponent.meld_suits))
    out[21] = float(kind in opponent.meld_kinds)
    out[24] = table.on_table[kind] / 4
    out[25] = float(kind == view.laizi)
    out[26] = float(kind == view.pizi)
    return out


def wait_features(view: SeatView, other: int, table: _Table | None = None) -> list[list[float]]:
    """For each of the 34 kinds: what the table says about it being among ``other``'s waits
    (WAIT_FEATURES)."""
    table = table or _table(view)
    opponent = _opponent(view.seats[other], other, table)
    return [_kind_features(view, kind, opponent, table) for kind in range(NUM_KINDS)]


@dataclass(frozen=True, slots=True)
class WaitReader:
    """The fitted models of one rule set: whether an opponent is ready, which kinds it waits on, and
    the chance of winning the hand oneself; with the average points a win brings the winner
    (``win_gain``) and a deal-in costs the feeder (``deal_in_cost``) in the same self-play."""

    ready: Logistic
    wait: Logistic
    win: Logistic
    win_gain: float
    deal_in_cost: float

    def win_chance(self, shanten: int, live_tiles: int, melds: int, jokers: int = 0) -> float:
        return self.win(win_features(shanten, live_tiles, melds, jokers))

    def ready_chance(self, view: SeatView, other: int) -> float:
        return self.ready(ready_features(view, other))

    def read(self, view: SeatView) -> dict[int, list[float]]:
        """For every opponent of the viewing seat: per kind, the chance it wins for them now."""
        assert view.seat is not None
        table = _table(view)
        out = {}
        for other in range(SEATS):
            if other == view.seat:
                continue
            ready = self.ready(ready_features(view, other))
            out[other] = [ready * self.wait(row) for row in wait_features(view, other, table)]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WaitReader:
        return cls(
            ready=Logistic.from_dict(data["ready"], READY_FEATURES),
            wait=Logistic.from_dict(data["wait"], WAIT_FEATURES),
            win=Logistic.from_dict(data["win"], WIN_FEATURES),
            win_gain=float(data["win_gain"]),
            deal_in_cost=float(data["deal_in_cost"]),
        )


@cache
def _models() -> dict[str, WaitReader]:
    try:
        text = resources.files("hupai.bots").joinpath(MODEL_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise ValueError(f"{MODEL_FILE}: not a {FORMAT} file")
    return {name: WaitReader.from_dict(model) for name, model in data["rulesets"].items()}


def load_reader(ruleset: str) -> WaitReader | None:
    """The shipped reader of a rule set (by its name, e.g. ``"nanning"``), or None if none was trained."""
    return _models().get(ruleset)
