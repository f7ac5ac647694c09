"""The engine's contract with the rules: what every rule set provides to the table, and the explained
results it returns.

A :class:`RuleSet` is data (its typed, frozen options) plus scoring code. The engine in
:mod:`hupai.game` asks it which tiles make up the set, which are flowers, what a claim or a win is
worth and who pays; it never hard-codes a regional rule. The hooks live here, with the engine that
calls them, so that the engine imports nothing from :mod:`hupai.rules`; the rule sets there implement
them (and parse their options, :mod:`hupai.rules.options`). A record names its rule set; replaying
it (:mod:`hupai.replay`) sits above both.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from hupai.hand import is_win

if TYPE_CHECKING:
    from hupai.game.model import HandState, WinContext


class RuleError(ValueError):
    """An unknown rule set, preset or option, or an option value out of range."""


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One line of a score sheet: what it is, in both languages, what it adds, and where it comes from.

    ``value`` is what the item adds to one share (for ``multiply`` items: the factor).
    ``count`` is how many times it applies (e.g. four hard flowers); ``value`` already includes it.
    """

    key: str
    zh: str
    en: str
    value: int
    source: str
    count: int = 1
    multiply: bool = False
    divisor: int = 1  # a multiply item worth value/divisor (e.g. ×3/2)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "key": self.key,
            "zh": self.zh,
            "en": self.en,
            "value": self.value,
            "count": self.count,
            "multiply": self.multiply,
            "source": self.source,
        }
        if self.divisor != 1:
            out["divisor"] = self.divisor
        return out


def share_of(items: Sequence[ScoreItem]) -> int:
    """The added items' sum, then every multiplier in order (a whole factor or a fraction)."""
    share = sum(entry.value for entry in items if not entry.multiply)
    for entry in items:
        if entry.multiply:
            share = share * entry.value // entry.divisor
    return share


@dataclass(frozen=True, slots=True)
class EscapeTerms:
    """What leaving a started game costs (逃跑): the total the leaver pays, and the terms in words."""

    penalty: int
    zh: str
    en: str


@dataclass(frozen=True, slots=True)
class Transfer:
    """Money moving between two seats, with its reason (a key and its names)."""

    payer: int
    payee: int
    amount: int
    reason: str
    zh: str
    en: str

    # Spelled out, so that the compiled build (hupai._native) compiles it: payments are frequent.
    def __init__(self, payer: int, payee: int, amount: int, reason: str, zh: str, en: str) -> None:  # noqa: PLR0917
        object.__setattr__(self, "payer", payer)
        object.__setattr__(self, "payee", payee)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "zh", zh)
        object.__setattr__(self, "en", en)

    def as_dict(self) -> dict[str, Any]:
        return {
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "reason": self.reason,
            "zh": self.zh,
            "en": self.en,
        }


@dataclass(frozen=True, slots=True)
class PayerLine:
    """What one loser pays for a win where losers pay different amounts (Enshi: the share × that
    loser's own multiplier, doubled for a discarder, then capped). ``raw`` is before the cap;
    ``cap`` names the cap applied: "", "cap" (封顶), "gold_cap" (金顶) or "diamond_cap"."""

    seat: int
    items: tuple[ScoreItem, ...]
    raw: int
    paid: int
    cap: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "items": [item.as_dict() for item in self.items],
            "raw": self.raw,
            "paid": self.paid,
            "cap": self.cap,
        }


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The score of one win: its items, the value of one share, and the reading it was scored on.
    ``payers`` explains each loser's payment where they differ (empty where every loser pays shares)."""

    seat: int
    items: tuple[ScoreItem, ...]
    share: int
    reading: str
    big_hand: bool
    notes: tuple[str, ...] = ()
    payers: tuple[PayerLine, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "share": self.share,
            "reading": self.reading,
            "big_hand": self.big_hand,
            "items": [item.as_dict() for item in self.items],
            "notes": list(self.notes),
        }
        if self.payers:
            out["payers"] = [line.as_dict() for line in self.payers]
        return out


@dataclass(frozen=True, slots=True)
class WinVerdict:
    """Whether a structurally complete hand may win here, and if so its score; else the reason."""

    allowed: bool
    sheet: ScoreSheet | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What the rule set concludes about a finished hand for the match: flags for the next hand."""

    next_dealer: int
    doubles_next: bool
    causes: tuple[str, ...] = field(default=())


class RuleSet(ABC):
    """A regional rule set bound to its options."""

    name: ClassVar[str]
    zh: ClassVar[str]
    en: ClassVar[str]
    options_class: ClassVar[type[Any]]

    def __init__(self, options: Any, preset: str) -> None:
        self.options = options
        self.preset = preset

    # --- tiles and table shape -------------------------------------------------------------

    @abstractmethod
    def tile_set(self) -> list[int]:
        """Every tile of a full set, in a fixed order (the engine shuffles a copy)."""

    @abstractmethod
    def is_flower(self, tile: int) -> bool:
        """Tiles revealed and replaced from the back of the wall (补花)."""

    @property
    @abstractmethod
    def reserved_tiles(self) -> int:
        """Tiles at the end of the wall never drawn; the hand is a draw when only these remain."""

    multi_ron: bool = True
    set_aside_tiles: int = 0
    """Tiles taken from the back of the wall before play and kept out of it (Nanning S000b 钓鱼)."""
    concealed_kongs_public: bool = True
    ready_declaration: bool = False
    """Whether non-dealers may declare ready (报听) on their first 13 tiles."""
    pass_win_restriction: bool = True
    pass_win_until: str = "discard"
    """When a passed win stops blocking wins on discards: the seat's own next "discard" or "draw"."""
    pass_pung_restriction: bool = True

    # --- wildcards, laying and chows (Enshi); the defaults are the plain game ---------------------

    indicator: str | None = None
    """Where a tile is turned up after the deal to name the wildcard (Enshi 痞子): "back" (the wall's
    last tile), "front", or None for no indicator. The turned tile is never drawn."""
    chow: bool = False
    """Whether the next seat may chow (吃) a discard."""

    def wild_of(self, indicator: int) -> int:
        """The wildcard kind an indicator names (Enshi 赖子: the next tile, 9 → 1 in its suit)."""
        raise NotImplementedError

    def is_complete(self, state: HandState, seat: int, counts: list[int]) -> bool:
        """Whether ``counts`` (a seat's concealed tiles, 3n+2 of them) form a winning shape; rule sets
        with wildcards count them as jokers here."""
        return is_win(counts)

    def shape_refusal(self, state: HandState, seat: int, counts: list[int]) -> str:
        """Why ``counts``, which :meth:`is_complete` rejects, would still be a winning shape as plain
        tiles (Enshi: 有痞子不能胡); "" when there is nothing to explain. Shown to players."""
        return ""

    def seat_multiplier(self, state: HandState, seat: int) -> int:
        """A seat's own multiplier where the rules keep one (Enshi 倍数); 1 elsewhere."""
        return 1

    def layable(self, state: HandState, seat: int) -> list[int]:
        """Kinds ``seat`` may lay out of its hand on its turn (Enshi 下痞子/下赖子): each lay draws a
        replacement from the back and the turn goes on. Empty in the plain game."""
        return []

    def must_lay(self, state: HandState, seat: int) -> bool:
        """Whether ``seat`` must lay before anything else this turn (Enshi 禁止养痞)."""
        return False

    def may_kong(self, state: HandState, seat: int, tile: int) -> bool:
        """Whether ``seat`` may make a kong of ``tile`` (Enshi: never of the 赖子)."""
        return True

    def discard_refusal(self, state: HandState, seat: int, tile: int) -> str:
        """Why ``seat`` may not discard ``tile`` (Enshi: a 痞子/赖子 leaves the hand only by laying);
        "" when it may."""
        return ""

    def may_discard(self, state: HandState, seat: int, tile: int) -> bool:
        """Whether ``seat`` may discard ``tile`` it holds: :meth:`discard_refusal` without its words
        (asked while listing the legal actions, so rule sets that refuse discards answer it cheaply)."""
        return not self.discard_refusal(state, seat, tile)

    def chow_options(self, state: HandState, seat: int, tile: int) -> list[int]:
        """The lowest tiles of the runs ``seat`` could make by chowing ``tile`` (only asked when
        :attr:`chow` is set and ``seat`` is the discarder's next seat)."""
        return []

    def kong_can_be_robbed(self, state: HandState, seat: int, tile: int) -> bool:
        """Whether ``seat``'s added kong of ``tile`` may be robbed (抢杠) at this point."""
        return True

    def ready_kong_allowed(self, state: HandState, seat: int, tile: int) -> bool:
        """Whether a seat that declared ready (报听) may still kong ``tile`` on its turn."""
        return False

    def ready_kong_refusal(self, state: HandState, seat: int, tile: int) -> str:
        """Why a seat that declared ready (报听) may not kong ``tile`` now."""
        return "after 报听 the hand is locked: no kong"

    # --- money during play ---------------------------------------------------------------

    @abstractmethod
    def kong_transfers(self, state: HandState, seat: int, meld_index: int) -> list[Transfer]:
        """Money paid at once for a kong just completed by ``seat`` (its meld ``meld_index``)."""

    def flower_kong_transfers(self, state: HandState, seat: int, flowers: Sequence[int]) -> list[Transfer]:
        """Money paid at once for a flower kong (花杠)."""
        return []

    def flower_kongs(self, flowers: Sequence[int]) -> list[tuple[int, ...]]:
        """The complete flower kongs among revealed flowers."""
        return []

    def discard_transfers(self, state: HandState, seat: int, tile: int) -> list[Transfer]:
        """Penalties triggered by a discard (罚)."""
        return []

    # --- wins ------------------------------------------------------------------------------

    @abstractmethod
    def judge_win(self, state: HandState, context: WinContext) -> WinVerdict:
        """Score a structurally complete (or instant) win, or say why it is not allowed."""

    def instant_win_on_claim(self, state: HandState, seat: int, tile: int) -> bool:
        """Whether claiming ``tile`` as a set would itself be a win (Nanjing 快照 / 三清)."""
        return False

    def may_win_on_claim(self, state: HandState, seat: int) -> bool:
        """Whether :meth:`instant_win_on_claim` could hold for any tile (a cheap first test: False
        only where it holds for none)."""
        return False

    @abstractmethod
    def win_transfers(self, state: HandState, context: WinContext, sheet: ScoreSheet) -> list[Transfer]:
        """Who pays the winner, and how much (liability included)."""

    @abstractmethod
    def hand_outcome(self, state: HandState) -> HandOutcome:
        """The next dealer and whether the next hand is doubled, once the hand has ended."""

    def next_multiplier(self, current: int, doubles: bool) -> int:
        """The next hand's multiplier after one with this outcome (Nanjing 比下胡 doubles)."""
        return 2 if doubles else 1

    def escape_transfers(self, seat: int, seats: int = 4) -> list[Transfer]:
        """What a player who leaves a started game for good pays (逃跑), each with the reason
        ``"escape"`` (the match pays them in the hand where the player left)."""
        return []

    def escape_terms(self) -> EscapeTerms:
        """What leaving costs under these rules, in words for the 逃跑 confirmation — read from
        :meth:`escape_transfers`, so the words never drift from what is paid."""
        shares = [transfer.amount for transfer in self.escape_transfers(0)]
        total = sum(shares)
        ending = (
            "这一局作废（已付的分照算），比赛随即结束。",
            "the hand in play is void (payments already made stand) and the match ends.",
        )
        if not total:
            return EscapeTerms(
                0, f"本规则逃跑不扣分：{ending[0]}", f"These rules have no escape penalty: {ending[1]}"
            )
        others = {1: ("一", "one"), 2: ("两", "two"), 3: ("三", "three")}.get(len(shares), ("几", "players"))
        if len(set(shares)) == 1:
            split = (f"其余{others[0]}家各得{shares[0]}分", f"{shares[0]} to each of the other {others[1]}")
        else:
            each = "/".join(str(share) for share in shares)
            split = (f"其余{others[0]}家分得{each}分", f"{each} to the other {others[1]}")
        return EscapeTerms(
            total,
            f"逃跑扣{total}分（{split[0]}）；{ending[0]}",
            f"Leaving costs {total} points ({split[1]}); {ending[1]}",
        )

    # --- options ----------------------------------------------------------------------------

    def options_dict(self) -> Mapping[str, Any]:
        """The options as plain data (read-only; computed once)."""
        cached: Mapping[str, Any] | None = getattr(self, "_options_dict", None)
        if cached is None:
            cached = MappingProxyType(options_to_dict(self.options))
            self._options_dict = cached
        return cached


def options_to_dict(options: Any) -> dict[str, Any]:
    """Options as plain JSON-able data (tuples become lists)."""
    out: dict[str, Any] = {}
    for name in (item.name for item in fields(options)):
        value = getattr(options, name)
        out[name] = list(value) if isinstance(value, tuple | frozenset) else value
    return out
