"""The state of one hand at the table: wall, seats, melds, the phase and what is pending.

The state is mutable and owned by the engine (:mod:`hupai.game.engine`); ``step`` changes it and
returns the events it produced. ``HandState.copy()`` gives an independent copy when one is needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final

# Imported at run time, not only for type checking: the compiled build (hupai._native) reads the
# fields' types of these dataclasses when it builds them.
from hupai.game.actions import Action
from hupai.game.contract import RuleSet, ScoreSheet, Transfer, WinVerdict
from hupai.game.events import Event
from hupai.game.fairness import FairDeal
from hupai.tiles import NUM_KINDS

SEATS: Final = 4


def next_seat(seat: int, steps: int = 1) -> int:
    return (seat + steps) % SEATS


class MeldKind(Enum):
    """Sets laid down on the table."""

    CHOW = "chow"  # 吃: a run of three with the claimed discard (Enshi)
    PUNG = "pung"  # 碰
    EXPOSED_KONG = "exposed_kong"  # 明杠 on a discard (直杠, 一杠)
    ADDED_KONG = "added_kong"  # 明杠 added to one's own pung (补杠, 二杠)
    CONCEALED_KONG = "concealed_kong"  # 暗杠

    @property
    def is_kong(self) -> bool:
        return self is not MeldKind.PUNG and self is not MeldKind.CHOW

    @property
    def size(self) -> int:
        """Tiles in the meld."""
        return 4 if self.is_kong else 3

    def tiles(self, tile: int) -> tuple[int, ...]:
        """The kinds the meld is made of, given its ``tile`` (a chow's lowest): the run, or three or
        four of a kind. What lies on the table may differ: see :func:`meld_tiles`."""
        if self is MeldKind.CHOW:
            return (tile, tile + 1, tile + 2)
        return (tile,) * self.size


def meld_tiles(
    kind: MeldKind, tile: int, laizi_for: int | None = None, laizi: int | None = None
) -> tuple[int, ...]:
    """The tiles that lie in a meld: ``kind.tiles(tile)``, with the 赖子 ``laizi`` in place of the kind
    ``laizi_for`` it stands for (a chow with a 赖子, Enshi's ``laizi_in_melds``)."""
    natural = kind.tiles(tile)
    if laizi_for is None or laizi is None:
        return natural
    out = list(natural)
    out[out.index(laizi_for)] = laizi
    return tuple(out)


@dataclass(slots=True)
class Meld:
    """A laid-down set. ``feeder`` is who discarded the claimed tile (None for a concealed kong);
    for an added kong it stays the feeder of the original pung. ``order`` counts the seat's melds.

    A chow may hold a 赖子 standing in for one of its two hand tiles (Enshi's ``laizi_in_melds``):
    ``laizi_for`` is the run's kind it stands for, ``laizi`` the 赖子's own kind, the tile that lies
    in the meld (both None otherwise). :meth:`tiles` gives the tiles as they lie."""

    kind: MeldKind
    tile: int  # a chow's lowest tile
    feeder: int | None
    order: int
    claimed: int | None = None  # a chow's claimed discard
    laizi_for: int | None = None  # the run's kind a 赖子 stands for
    laizi: int | None = None  # that 赖子's kind (the wildcard of the hand)

    def copy(self) -> Meld:
        return Meld(self.kind, self.tile, self.feeder, self.order, self.claimed, self.laizi_for, self.laizi)

    def tiles(self) -> tuple[int, ...]:
        """The tiles that lie in the meld, a 赖子 in place of the kind it stands for."""
        if self.laizi_for is None:
            return self.kind.tiles(self.tile)
        return meld_tiles(self.kind, self.tile, self.laizi_for, self.laizi)

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"kind": self.kind.value, "tile": self.tile, "from": self.feeder}
        if self.claimed is not None:
            out["claimed"] = self.claimed
        if self.laizi_for is not None:
            out["laizi_for"] = self.laizi_for
            out["laizi"] = self.laizi
        return out


class Phase(Enum):
    DECLARE = "declare"  # non-dealers may declare ready (报听) before play
    TURN = "turn"  # the seat to act holds 3n+2 tiles
    CLAIM = "claim"  # a discard is open to claims
    ROB = "rob"  # an added kong is open to robbing (抢杠)
    ENDED = "ended"


class DrawSource(Enum):
    NONE = "none"  # the dealer's first turn, or a turn after a claim
    WALL = "wall"
    REPLACEMENT = "replacement"  # from the back after a flower or a kong


@dataclass(slots=True)
class SeatState:
    counts: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    flowers: list[int] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    discard_claimed: list[bool] = field(default_factory=list)
    # Public marks of each discard: the kind just drawn let go (摸切, as against one from the hand),
    # and its place among all the hand's discards (so the order across seats can be read).
    discard_from_draw: list[bool] = field(default_factory=list)
    discard_order: list[int] = field(default_factory=list)
    discarded_kinds: list[int] = field(default_factory=lambda: [0] * NUM_KINDS)
    ready: bool = False  # declared ready (报听): draw and discard only
    passed_win: bool = False  # passed a win: no win on a discard until this seat discards again
    passed_pungs: set[int] = field(default_factory=set)
    drawn: int | None = None  # the tile just drawn (for a ready seat's forced discard)
    turns: int = 0  # discards made
    laid: list[int] = field(default_factory=list)  # tiles laid out of the hand (Enshi 痞子/赖子), public

    @property
    def concealed_count(self) -> int:
        return sum(self.counts)

    def copy(self) -> SeatState:
        """An independent copy (its melds copied too)."""
        return SeatState(
            counts=list(self.counts),
            flowers=list(self.flowers),
            melds=[meld.copy() for meld in self.melds],
            discards=list(self.discards),
            discard_claimed=list(self.discard_claimed),
            discard_from_draw=list(self.discard_from_draw),
            discard_order=list(self.discard_order),
            discarded_kinds=list(self.discarded_kinds),
            ready=self.ready,
            passed_win=self.passed_win,
            passed_pungs=set(self.passed_pungs),
            drawn=self.drawn,
            turns=self.turns,
            laid=list(self.laid),
        )


class WinKind(Enum):
    SELF_DRAWN = "self_drawn"  # 自摸
    DISCARD = "discard"  # 点炮 / 吃胡
    ROBBED_KONG = "robbed_kong"  # 抢杠
    INSTANT = "instant"  # Nanjing 快照 / 三清: the claim itself is the win


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything about one win that scoring needs beyond the table itself."""

    seat: int
    tile: int
    kind: WinKind
    discarder: int | None  # who discarded (or whose kong was robbed) — None on a self-draw
    counts: tuple[int, ...]  # concealed tiles including the winning tile (for INSTANT: before the claim)
    replacement_chain: tuple[tuple[str, int | None], ...] = ()  # ("kong", feeder) / ("flower", None) …
    first_turn: bool = False  # dealer's first turn (天胡)
    live_tiles: int = 0  # tiles still to be drawn when the win came (海底 looks at this)


@dataclass(frozen=True, slots=True)
class WinResult:
    context: WinContext
    sheet: ScoreSheet
    transfers: tuple[Transfer, ...]


@dataclass(slots=True)
class ClaimWindow:
    """An open discard (or added kong) and the decisions still awaited."""

    discarder: int
    tile: int
    options: dict[int, list[Action]]  # eligible seat -> its legal decisions (a pass always among them)
    decisions: dict[int, Action] = field(default_factory=dict)
    robbing: bool = False  # an added kong being robbed rather than a discard
    # The win each seat offered one was found to have, with its score, when the window opened (the
    # engine pays it if taken); not compared: the options say the same.
    wins: dict[int, tuple[WinContext, ScoreSheet]] = field(default_factory=dict, compare=False, repr=False)

    def copy(self) -> ClaimWindow:
        options = {seat: list(actions) for seat, actions in self.options.items()}
        return ClaimWindow(
            self.discarder, self.tile, options, dict(self.decisions), self.robbing, dict(self.wins)
        )


@dataclass(slots=True)
class HandState:
    ruleset: RuleSet
    dealer: int
    wall: list[int]
    front: int
    back: int  # index of the next replacement tile (the wall is used from both ends)
    seats: list[SeatState]
    phase: Phase
    turn: int
    multiplier: int = 1  # 比下胡 doubles the next hand
    events: list[Event] = field(default_factory=list)
    window: ClaimWindow | None = None
    draw_source: DrawSource = DrawSource.NONE
    replacement_chain: list[tuple[str, int | None]] = field(default_factory=list)
    claims_made: int = 0  # pungs and kongs claimed so far (天胡/地胡 need none before)
    discards_made: int = 0
    follow_chain: tuple[int, int, int, int] | None = None  # (tile, first seat, length, last seat)
    wins: list[WinResult] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)
    penalties: int = 0
    flower_kongs: int = 0
    declare_pending: dict[int, bool] = field(default_factory=dict)
    outcome: str = ""  # "win", "draw" or "abandoned" once ended
    pending_kong: tuple[int, int] | None = None  # (seat, tile) of an added kong awaiting robbers
    actions: list[Action] = field(default_factory=list)  # every action applied, passes included
    deal: tuple[tuple[int, ...], ...] = ()  # as dealt, before flowers were replaced (for records)
    fair: FairDeal | None = None  # how a fair deal was drawn (revealed in the record after the hand)
    last_drawer: int | None = None  # who drew last (Nanning: deals next after an exhaustive draw)
    previous_winner: int | None = None  # the last hand's single winner (Nanning S004 钓鱼 counts from it)
    pizi: int | None = None  # the tile turned up after the deal (Enshi 痞子), never drawn
    refused_wins: dict[int, str] = field(default_factory=dict)  # seat -> why the last discard, which
    # completed its hand, could not be won (when no claim window opened); private to that seat
    laizi: int | None = None  # the wildcard kind it names (Enshi 赖子)
    # Live tables: a discard (or added kong) nobody may claim still opens a window, with no options,
    # until release_claims — so the table looks the same whether or not a seat could claim.
    hold_claims: bool = False
    # The views' record of each seat's public facts, kept while they do not change (hupai.game.view);
    # not part of the state: a copy starts without it.
    view_cache: dict[tuple[int, bool], Any] = field(default_factory=dict, compare=False, repr=False)
    # The verdict on the seat to play's self-drawn win, while no event has happened since: (number of
    # events, the win, the verdict) (hupai.game.engine); not part of the state either.
    turn_win: tuple[int, WinContext, WinVerdict] | None = field(default=None, compare=False, repr=False)

    @property
    def live_tiles(self) -> int:
        """Tiles still to be drawn before only the reserved tail remains."""
        return self.back - self.front + 1 - self.ruleset.reserved_tiles

    def copy(self) -> HandState:
        """An independent copy: every list, dict, set and mutable record is new; what is immutable (the
        rule set, events, actions, wins, payments, tuples) is shared."""
        window = self.window
        return HandState(
            ruleset=self.ruleset,
            dealer=self.dealer,
            wall=list(self.wall),
            front=self.front,
            back=self.back,
            seats=[seat.copy() for seat in self.seats],
            phase=self.phase,
            turn=self.turn,
            multiplier=self.multiplier,
            events=list(self.events),
            window=None if window is None else window.copy(),
            draw_source=self.draw_source,
            replacement_chain=list(self.replacement_chain),
            claims_made=self.claims_made,
            discards_made=self.discards_made,
            follow_chain=self.follow_chain,
            wins=list(self.wins),
            transfers=list(self.transfers),
            penalties=self.penalties,
            flower_kongs=self.flower_kongs,
            declare_pending=dict(self.declare_pending),
            outcome=self.outcome,
            pending_kong=self.pending_kong,
            actions=list(self.actions),
            deal=self.deal,
            fair=self.fair,
            last_drawer=self.last_drawer,
            previous_winner=self.previous_winner,
            pizi=self.pizi,
            refused_wins=dict(self.refused_wins),
            laizi=self.laizi,
            hold_claims=self.hold_claims,
        )

    def deltas(self) -> list[int]:
        totals = [0] * SEATS
        for transfer in self.transfers:
            totals[transfer.payer] -= transfer.amount
            totals[transfer.payee] += transfer.amount
        return totals
