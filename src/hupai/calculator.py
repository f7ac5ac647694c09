"""The score calculator (算分器): what a win is worth, described the way a player at a real table sees it.

:func:`score_win` takes a :class:`WinSpec` (the winner's concealed tiles and melds, the winning tile,
how it came, and the few facts the rules need that the tiles cannot show), builds the
:class:`~hupai.game.model.HandState` and :class:`~hupai.game.model.WinContext` the engine would hold
at that moment, and asks the rule set (``judge_win``, then ``win_transfers``). Nothing is scored
here, so the calculator and the table always agree.

:func:`win_values` is the in-game hint: for each tile a seat of a real game waits on, what a
self-drawn win and a win on the next seat's discard would bring, or why that win is not allowed.

>>> spec = WinSpec.from_dict(
...     {"preset": "nanjing", "seat": 1, "dealer": 0, "hand": "12233456789m11z", "win_tile": "7m",
...      "flowers": "6z7z7z1f", "how": "self_drawn"}
... )
>>> calculation = score_win(spec)
>>> [(item.zh, item.value) for item in calculation.sheet.items]
[('跑20', 20), ('硬花', 8), ('混一色', 40), ('门清', 20)]
>>> calculation.deltas
(-88, 264, -88, -88)
>>> refused = score_win(WinSpec.from_dict({"preset": "nanjing", "seat": 1, "hand": "123456m78m11z",
...     "melds": [{"kind": "pung", "tile": "9p", "from": 2}], "win_tile": "9m", "how": "discard", "from": 2}))
>>> refused.allowed, refused.reason[:10]
(False, '小胡需门清或4个硬花')

Enshi (一痞二赖) tables name the 痞子 turned up (its successor, here 6m, is the wildcard 赖子) and the tiles
each seat laid; ``lays_before`` says the winning replacement came right after a lay (杠开). ES-11: seat 2
laid the 痞子, seat 0 a 赖子, and each loser pays by their own multiplier:

>>> es11 = score_win(WinSpec.from_dict(
...     {"preset": "enshi", "pizi": "5m", "laid": {"0": "6m", "2": "5m"}, "seat": 2,
...      "hand": "12m6m345p678p4s", "melds": [{"kind": "pung", "tile": "7s", "from": 0}],
...      "win_tile": "4s", "how": "kong_replacement", "lays_before": 1}))
>>> [(item.zh, item.value) for item in es11.sheet.items], es11.deltas
([('小斜', 3), ('下痞子', 2), ('杠开', 2)], (-48, -12, 72, -12))
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any

from hupai.game.actions import Action, Pass, Win
from hupai.game.contract import RuleError, RuleSet, ScoreSheet, Transfer
from hupai.game.model import (
    SEATS,
    ClaimWindow,
    DrawSource,
    HandState,
    Meld,
    MeldKind,
    Phase,
    SeatState,
    WinContext,
    WinKind,
    next_seat,
)
from hupai.hand import is_win, waits
from hupai.rules import load_ruleset
from hupai.tiles import NUM_KINDS, format_tiles, parse_tiles, tile_name

__all__ = [
    "Calculation",
    "MeldSpec",
    "SpecError",
    "WaitValue",
    "WinHow",
    "WinSpec",
    "error_details",
    "score_win",
    "win_values",
]

HAND_TILES = 13
MAX_MELDS = 4
DEFAULT_TILES_LEFT = 40  # "somewhere in the middle of the hand": far from any 海底 window


class SpecError(ValueError):
    """A description that cannot be: the English sentence, the field at fault (a key of
    :meth:`WinSpec.from_dict`, or None when no one field is) and a ``code`` with its ``params``, for a
    client that explains it in its player's language."""

    def __init__(
        self, message: str, *, field: str | None, code: str = "invalid", **params: str | int
    ) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.params = params


def error_details(error: ValueError) -> dict[str, Any]:
    """``{"field", "code", "params"}`` for a refused description. A plain ValueError names its field
    as its first word where it can (``"hand: …"``); a bad preset or option is the rule card's."""
    if isinstance(error, SpecError):
        return {"field": error.field, "code": error.code, "params": dict(error.params)}
    if isinstance(error, RuleError):
        return {"field": "preset" if "preset" in str(error) else "options", "code": "rules", "params": {}}
    first = re.match(r"[a-z_]+", str(error))
    named = first.group(0) if first and first.group(0) in _KEYS else None
    return {"field": named, "code": "invalid", "params": {}}


class WinHow(Enum):
    """How the winning tile came."""

    SELF_DRAWN = "self_drawn"  # 自摸: drawn from the wall
    DISCARD = "discard"  # 点炮: on a discard (Nanjing's 快照/三清 are found by themselves, as at the table)
    ROBBED_KONG = "robbed_kong"  # 抢杠: the fourth tile of another player's added kong
    KONG_REPLACEMENT = "kong_replacement"  # 杠开: the replacement after one's own kong(s) or lays (Enshi)
    FLOWER_REPLACEMENT = "flower_replacement"  # 小杠开 (Nanjing): the replacement after a flower
    FLOWER_KONG_REPLACEMENT = "flower_kong_replacement"  # 花杠开 (Nanjing): after completing a flower kong
    CLAIM = "claim"  # Nanjing 快照/三清: claiming the discard as a set is itself the win

    @property
    def self_drawn(self) -> bool:
        return self in _SELF_DRAWN


_SELF_DRAWN = frozenset(
    {WinHow.SELF_DRAWN, WinHow.KONG_REPLACEMENT, WinHow.FLOWER_REPLACEMENT, WinHow.FLOWER_KONG_REPLACEMENT}
)
_HOW_NAMES: dict[str, WinHow] = {how.value: how for how in WinHow} | {
    "self": WinHow.SELF_DRAWN,
    "tsumo": WinHow.SELF_DRAWN,
    "zimo": WinHow.SELF_DRAWN,
    "ron": WinHow.DISCARD,
    "rob": WinHow.ROBBED_KONG,
    "robbed": WinHow.ROBBED_KONG,
    "kong_bloom": WinHow.KONG_REPLACEMENT,
    "flower_bloom": WinHow.FLOWER_REPLACEMENT,
    "flower_kong_bloom": WinHow.FLOWER_KONG_REPLACEMENT,
    "instant": WinHow.CLAIM,
    "kuaizhao": WinHow.CLAIM,
    "sanqing": WinHow.CLAIM,
}
_MELD_NAMES: dict[str, MeldKind] = {kind.value: kind for kind in MeldKind} | {"pong": MeldKind.PUNG}


@dataclass(frozen=True, slots=True, kw_only=True)
class MeldSpec:
    """A set laid down: its kind, its tile, and ``feeder``, who discarded the claimed tile (for an added
    kong: who fed the original pung; None for a concealed kong)."""

    kind: MeldKind
    tile: int
    feeder: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "tile": format_tiles([self.tile]), "from": self.feeder}


@dataclass(frozen=True, slots=True, kw_only=True)
class WinSpec:
    """One win, as a player at the table can tell it. Tiles are tile ids (see :mod:`hupai.tiles`);
    :meth:`from_dict` reads them in notation. Seats are 0-3 in turn order.

    ``ruleset``, ``options``
        The rule set or preset (``nanjing``, ``nanjing-002``, ``nanning``, ``nanning-004`` or an alias)
        and option overrides, as for :func:`hupai.rules.load_ruleset`.
    ``seat``, ``dealer``
        The winner's seat and the dealer's seat.
    ``hand``
        The winner's concealed tiles WITHOUT the winning tile: 13 less 3 per meld (a kong counts as
        one meld). For ``how=CLAIM`` these are the tiles held before the claim.
    ``win_tile``
        The winning tile (the tile drawn, discarded, robbed or claimed). For 天胡 any tile of the 14.
    ``how``
        How it came (:class:`WinHow`).
    ``from_seat``
        Who discarded it (``DISCARD``, ``CLAIM``) or whose added kong was robbed (``ROBBED_KONG``);
        None for the self-drawn kinds (a kong's feeder is its meld's ``feeder``).
    ``melds``
        The winner's melds, in the order they were made (快照 looks at the first three).
    ``flowers``
        The winner's flowers (Nanjing: 硬花 — seasons, plants and the dragons 5z 6z 7z). Rule sets
        without flowers refuse any.
    ``kong_chain``
        The kongs made in a row just before the win, as their feeders (None for a concealed kong),
        oldest first: for ``KONG_REPLACEMENT`` the winner's own (default: its last kong in ``melds``;
        an added kong keeps its pung's place); for ``DISCARD`` the discarder's kongs right before that
        discard (Nanning 杠上炮); for ``ROBBED_KONG`` the robbed player's kongs before the one robbed.
        Empty otherwise.
    ``first_turn``
        The win came in the first go-round, before any claim: a self-drawn win on the dealer's first
        14 tiles (天胡) or on a non-dealer's first draw (Nanning 地胡), or a win on the dealer's very
        first discard (Nanning 人胡).
    ``ready``
        The winner declared ready (报听) before play (Nanjing: its win is 地胡). Non-dealers only.
    ``multiplier``
        The hand's multiplier: 2 (or more, with cumulative doubling) when the hand is doubled by
        Nanjing's 比下胡.
    ``haidi``
        The win came on the last tiles of the wall (海底; each rule set's window decides). Same as
        ``tiles_left=0``.
    ``tiles_left``
        Tiles still to be drawn (the reserved tail not counted) when the win came, after the winning
        tile was drawn. Default: 0 with ``haidi``, otherwise a count far from the end of the wall.
    ``others_melds``
        Other seats' melds, where the rules look at them: a pung of the winning tile (Nanjing 压绝),
        a player who has taken three sets from the winner (Nanning 封胡: the winner may not win), a
        discarder with four melds (Nanning 全求炮). The robbed player's pung is added if missing.
    ``discarded``
        Tiles lying in the discard piles (not claimed), for rules that count them (Nanjing 压绝 with
        ``yajue_source`` including ``three_discarded``). The winning discard itself is added.
    ``code_tiles``, ``horse_tiles``, ``fish_tiles``
        Nanning extras, when their options are on: the code tiles turned after a self-drawn win (摸码,
        in the order turned), the horse tiles (买马, as they lie at the end of the wall), the fish tiles
        (钓鱼: the four set aside, or the three counted). Exactly as many as the rules turn.
    ``previous_winner``
        The last hand's winner (Nanning seed 004's 钓鱼 counts from it).
    ``pizi``
        The tile turned up after the deal (Enshi 痞子; required where the rule set turns one up, refused
        elsewhere). Its successor is the wildcard (赖子, e.g. 5m → 6m, 9m → 1m): 赖子 in ``hand`` stand for
        any tile. The turned-up tile is out of play, so it uses one of the four copies. A 痞子 in the
        winner's hand is a possible description the rules refuse (有痞子不能胡).
    ``laid``
        The tiles each seat laid out of its hand this hand (Enshi 下痞子/下赖子), the winner's and the
        others': only 痞子 and 赖子. Each multiplies the layer's stake; they count among the tiles used.
    ``lays_before``
        The lays made in a row just before the win, each followed by its replacement (they count with
        ``kong_chain``): for ``KONG_REPLACEMENT`` the winner's own — 杠开 on the replacement after laying
        a 痞子/赖子 (with ``lays_before`` and no ``kong_chain`` the replacement came after the lays alone;
        give ``kong_chain`` too when kongs were made in the same run); for ``DISCARD`` the discarder's
        lays right before that discard (杠上炮); for ``ROBBED_KONG`` the robbed player's lays before the
        kong. At most the lays ``laid`` lists for that seat.
    """

    ruleset: str = "nanjing"
    options: Mapping[str, Any] = field(default_factory=dict)
    seat: int
    dealer: int = 0
    hand: tuple[int, ...]
    win_tile: int
    how: WinHow = WinHow.SELF_DRAWN
    from_seat: int | None = None
    melds: tuple[MeldSpec, ...] = ()
    flowers: tuple[int, ...] = ()
    kong_chain: tuple[int | None, ...] = ()
    first_turn: bool = False
    ready: bool = False
    multiplier: int = 1
    haidi: bool = False
    tiles_left: int | None = None
    others_melds: Mapping[int, tuple[MeldSpec, ...]] = field(default_factory=dict)
    discarded: tuple[int, ...] = ()
    code_tiles: tuple[int, ...] = ()
    horse_tiles: tuple[int, ...] = ()
    fish_tiles: tuple[int, ...] = ()
    previous_winner: int | None = None
    pizi: int | None = None
    laid: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    lays_before: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WinSpec:
        """Read a win from plain data, tiles in notation. Keys: ``preset`` (or ``ruleset``), ``options``,
        ``seat``, ``dealer``, ``hand``, ``win_tile``, ``how``, ``from``, ``melds`` (each
        ``{"kind", "tile", "from"}``), ``flowers``, ``kongs`` (the kong chain's feeders),
        ``first_turn``, ``ready``, ``multiplier``, ``haidi``, ``tiles_left``, ``others_melds``
        (``{"2": [melds]}``), ``discarded``, ``code_tiles``, ``horse_tiles``, ``fish_tiles``,
        ``previous_winner``, ``pizi`` (a tile; ``""`` for none), ``laid`` (``{"0": "5m6m"}``),
        ``lays_before``. Raises ValueError naming the field at fault."""
        return _spec_from_dict(data)

    def as_dict(self) -> dict[str, Any]:
        """The plain-data form :meth:`from_dict` reads back."""
        out: dict[str, Any] = {
            "preset": self.ruleset,
            "options": dict(self.options),
            "seat": self.seat,
            "dealer": self.dealer,
            "hand": format_tiles(self.hand, sort=True),
            "win_tile": format_tiles([self.win_tile]),
            "how": self.how.value,
            "from": self.from_seat,
            "melds": [meld.as_dict() for meld in self.melds],
            "flowers": format_tiles(self.flowers),
            "kongs": list(self.kong_chain),
            "first_turn": self.first_turn,
            "ready": self.ready,
            "multiplier": self.multiplier,
            "haidi": self.haidi,
            "tiles_left": self.tiles_left,
            "others_melds": {
                str(seat): [meld.as_dict() for meld in melds]
                for seat, melds in sorted(self.others_melds.items())
            },
            "discarded": format_tiles(self.discarded),
            "code_tiles": format_tiles(self.code_tiles),
            "horse_tiles": format_tiles(self.horse_tiles),
            "fish_tiles": format_tiles(self.fish_tiles),
            "previous_winner": self.previous_winner,
            "pizi": format_tiles([self.pizi]) if self.pizi is not None else "",
            "laid": {str(seat): format_tiles(tiles) for seat, tiles in sorted(self.laid.items())},
            "lays_before": self.lays_before,
        }
        return out


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


@dataclass(frozen=True, slots=True)
class WaitValue:
    """What one waiting tile would bring: won self-drawn, and won on a discard by ``discarder``.
    ``unseen`` counts the copies this seat cannot see (its hand, melds shown and discards excluded)."""

    tile: int
    unseen: int
    discarder: int
    self_drawn: Calculation
    discard: Calculation

    def as_dict(self) -> dict[str, Any]:
        return {
            "tile": format_tiles([self.tile]),
            "unseen": self.unseen,
            "discarder": self.discarder,
            "self_drawn": self.self_drawn.as_dict(),
            "discard": self.discard.as_dict(),
        }


# --- scoring a described win ------------------------------------------------------------------


def score_win(spec: WinSpec) -> Calculation:
    """Score the win ``spec`` describes with the rule set's own ``judge_win`` and ``win_transfers``.

    Raises ValueError (a :class:`~hupai.game.contract.RuleError` for a bad preset or option) when the
    description is impossible: a wrong tile count, a fifth copy, a flower where the rules have none….
    A possible win the rules refuse comes back with ``allowed=False`` and the rule set's reason.
    """
    ruleset = load_ruleset(spec.ruleset, spec.options)
    _validate(spec, ruleset)
    return _calculate(spec, ruleset, trusted=False)


def _calculate(spec: WinSpec, ruleset: RuleSet, *, trusted: bool) -> Calculation:
    state, counts = _build(spec, ruleset, trusted=trusted)
    seat, tile = spec.seat, spec.win_tile
    if spec.how.self_drawn:
        return _score(state, _context(spec, state, counts, WinKind.SELF_DRAWN))
    if tile in (state.pizi, state.laizi):
        word = "痞子" if tile == state.pizi else "赖子"
        kind = WinKind.ROBBED_KONG if spec.how is WinHow.ROBBED_KONG else WinKind.DISCARD
        return _refused(
            spec,
            kind,
            f"a {word} ({tile_name(tile)}, {format_tiles([tile])}) is laid, never discarded or konged, and "
            f"nobody claims or wins on one (even a {word} let go at the end of the wall)",
        )
    if spec.how is WinHow.ROBBED_KONG:
        assert spec.from_seat is not None
        if not ruleset.kong_can_be_robbed(state, spec.from_seat, tile):
            return _refused(
                spec,
                WinKind.ROBBED_KONG,
                f"seat {spec.from_seat}'s kong of {tile_name(tile)} cannot be robbed here "
                f"under {ruleset.name} rules (抢杠 not allowed after these kongs)",
            )
        return _score(state, _context(spec, state, counts, WinKind.ROBBED_KONG))
    instant = not spec.ready and ruleset.instant_win_on_claim(state, seat, tile)
    if spec.how is WinHow.CLAIM:
        if not instant:
            return _refused(
                spec,
                WinKind.INSTANT,
                f"claiming {tile_name(tile)} ({format_tiles([tile])}) is not a win by itself "
                f"(快照/三清) for seat {seat} under {ruleset.name} rules",
            )
        return _score(state, _context(spec, state, counts, WinKind.INSTANT))
    # On a discard, as the engine does: an ordinary win, or a claim that wins at once (快照/三清),
    # whichever pays the winner more.
    kinds = [WinKind.DISCARD] if counts[tile] < 4 and _completes(counts, tile, state.laizi) else []
    if instant:
        kinds.append(WinKind.INSTANT)
    if not kinds:
        return _refused(
            spec, WinKind.DISCARD, f"诈胡: {tile_name(tile)} does not complete seat {seat}'s hand"
        )
    results = [_score(state, _context(spec, state, counts, kind)) for kind in kinds]
    best: Calculation | None = None
    for result in results:
        if not result.allowed:
            continue
        if best is None or _paid(result) > _paid(best):
            best = result
    return best if best is not None else results[0]


def _paid(result: Calculation) -> int:
    return sum(transfer.amount for transfer in result.transfers if transfer.payee == result.seat)


def _completes(counts: Sequence[int], tile: int, wild: int | None) -> bool:
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


def _refused(spec: WinSpec, kind: WinKind, reason: str) -> Calculation:
    return Calculation(
        allowed=False, reason=reason, seat=spec.seat, kind=kind, sheet=None, transfers=(), deltas=(0,) * SEATS
    )


def _context(spec: WinSpec, state: HandState, counts: Sequence[int], kind: WinKind) -> WinContext:
    """The WinContext the engine builds at that moment (engine: _self_drawn_context / _claim_context)."""
    held = list(counts)
    if kind is not WinKind.INSTANT:
        held[spec.win_tile] += 1
    return WinContext(
        seat=spec.seat,
        tile=spec.win_tile,
        kind=kind,
        discarder=None if kind is WinKind.SELF_DRAWN else spec.from_seat,
        counts=tuple(held),
        replacement_chain=tuple(state.replacement_chain),
        first_turn=kind is WinKind.SELF_DRAWN and spec.first_turn and spec.seat == spec.dealer,
        live_tiles=state.live_tiles,
    )


# --- checking a description -----------------------------------------------------------------------


def _seat_ok(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < SEATS


def _validate(spec: WinSpec, ruleset: RuleSet) -> None:
    """Refuse descriptions that cannot happen, with a message a player understands."""
    name = ruleset.name
    for label, value in (("seat", spec.seat), ("dealer", spec.dealer)):
        if not _seat_ok(value):
            raise ValueError(f"{label} is a seat 0-3, not {value!r}")
    seat = spec.seat
    for label, optional in (("from", spec.from_seat), ("previous_winner", spec.previous_winner)):
        if optional is not None and not _seat_ok(optional):
            raise ValueError(f"{label} is a seat 0-3, not {optional!r}")
    in_set = set(ruleset.tile_set())
    has_flowers = any(ruleset.is_flower(tile) for tile in in_set)

    def playable(label: str, tiles: Sequence[int]) -> None:
        for tile in tiles:
            if not isinstance(tile, int) or not 0 <= tile < NUM_KINDS + 8 or tile not in in_set:
                raise SpecError(
                    f"{label}: {_show(tile)} is not a tile of {name} mahjong",
                    field=_field(label),
                    code="not_in_rules",
                    tile=_code(tile),
                )
            if ruleset.is_flower(tile):
                raise SpecError(
                    f"{label}: {_show(tile)} is a flower in {name} mahjong; list it under flowers",
                    field=_field(label),
                    code="flower_elsewhere",
                    tile=_code(tile),
                )

    playable("hand", spec.hand)
    playable("win_tile", [spec.win_tile])
    playable("discarded", spec.discarded)
    for label, extra in (("code_tiles", spec.code_tiles), ("horse_tiles", spec.horse_tiles)):
        playable(label, extra)
    playable("fish_tiles", spec.fish_tiles)
    for tile in spec.flowers:
        if not has_flowers:
            raise SpecError(
                f"flowers: {name} mahjong has no flowers ({_show(tile)} given)",
                field="flowers",
                code="no_flowers",
            )
        if not isinstance(tile, int) or tile not in in_set or not ruleset.is_flower(tile):
            raise SpecError(
                f"flowers: {_show(tile)} is not a flower in {name} mahjong",
                field="flowers",
                code="not_a_flower",
                tile=_code(tile),
            )
    if len(spec.melds) > MAX_MELDS:
        raise ValueError(f"melds: a hand has at most {MAX_MELDS} melds, not {len(spec.melds)}")
    _check_melds("melds", spec.melds, seat, playable, chow=ruleset.chow)
    for other, melds in spec.others_melds.items():
        if not _seat_ok(other) or other == seat:
            raise ValueError(f"others_melds: {other!r} is not another seat (0-3, not the winner {seat})")
        if len(melds) > MAX_MELDS:
            raise ValueError(f"others_melds: seat {other} has at most {MAX_MELDS} melds, not {len(melds)}")
        _check_melds(f"others_melds of seat {other}", melds, other, playable, chow=ruleset.chow)
    wanted = HAND_TILES - 3 * len(spec.melds)
    if len(spec.hand) != wanted:
        shown = f"with {len(spec.melds)} meld{'s' if len(spec.melds) != 1 else ''}"
        raise SpecError(
            f"hand: {len(spec.hand)} concealed tiles given; {shown} the hand holds {wanted} "
            "before the winning tile (give the winning tile as win_tile, not in the hand)",
            field="hand",
            code="tile_count",
            given=len(spec.hand),
            expected=wanted,
            melds=len(spec.melds),
        )
    _check_how(spec, ruleset)
    _check_wild(spec, ruleset, playable)
    if not isinstance(spec.multiplier, int) or isinstance(spec.multiplier, bool) or spec.multiplier < 1:
        raise ValueError(f"multiplier is a whole number of at least 1, not {spec.multiplier!r}")
    if spec.tiles_left is not None:
        if not isinstance(spec.tiles_left, int) or isinstance(spec.tiles_left, bool) or spec.tiles_left < 0:
            raise ValueError(f"tiles_left is a whole number of at least 0, not {spec.tiles_left!r}")
        if spec.haidi and spec.tiles_left != 0:
            raise SpecError(
                "give haidi or tiles_left, not both (haidi means tiles_left=0)",
                field="tiles_left",
                code="invalid",
            )


def _field(label: str) -> str:
    """The field a label belongs to: "laid by seat 2" is ``laid``, "melds: from" is ``melds``."""
    return re.split(r"[ :]", label, maxsplit=1)[0]


def _code(tile: object) -> str:
    return format_tiles([tile]) if isinstance(tile, int) and 0 <= tile < NUM_KINDS + 8 else repr(tile)


def _show(tile: object) -> str:
    if isinstance(tile, int) and 0 <= tile < NUM_KINDS + 8:
        return f"{format_tiles([tile])} ({tile_name(tile)})"
    return repr(tile)


def _check_melds(
    label: str,
    melds: Sequence[MeldSpec],
    owner: int,
    playable: Callable[[str, Sequence[int]], None],
    *,
    chow: bool,
) -> None:
    for meld in melds:
        if not isinstance(meld.kind, MeldKind):
            raise ValueError(f"{label}: {meld.kind!r} is not a meld kind")
        if meld.kind is MeldKind.CHOW:
            if not chow:
                raise ValueError(f"{label}: these rules have no chow (吃)")
            if meld.tile >= 27 or meld.tile % 9 > 6:
                raise ValueError(
                    f"{label}: a chow is named by its lowest tile, 1-7 of a suit, not {_show(meld.tile)}"
                )
        playable(label, list(meld.kind.tiles(meld.tile)))
        if meld.kind is MeldKind.CONCEALED_KONG:
            if meld.feeder is not None:
                raise ValueError(f"{label}: a concealed kong of {_show(meld.tile)} has no feeder ('from')")
        elif not _seat_ok(meld.feeder) or meld.feeder == owner:
            raise SpecError(
                f"{label}: the {meld.kind.value} of {_show(meld.tile)} needs 'from', the seat that "
                f"discarded it (0-3, not seat {owner} itself), not {meld.feeder!r}",
                field=_field(label),
                code="meld_from",
                tile=_code(meld.tile),
            )


def _check_wild(spec: WinSpec, ruleset: RuleSet, playable: Callable[[str, Sequence[int]], None]) -> None:
    """The turned-up 痞子 and the tiles laid (Enshi): given exactly where the rules have them."""
    name = ruleset.name
    if ruleset.indicator is None:
        if spec.pizi is not None:
            raise ValueError(f"pizi: {name} mahjong turns up no 痞子 (wildcard indicator)")
        if any(spec.laid.values()):
            raise ValueError(f"laid: {name} mahjong has no 痞子 or 赖子 to lay")
        if spec.lays_before:
            raise ValueError(f"lays_before: {name} mahjong has no 痞子 or 赖子 to lay")
        return
    if spec.pizi is None:
        raise SpecError(
            f'pizi: {name} mahjong turns up a 痞子 after the deal; say which tile it is (e.g. "5m": '
            "then the 赖子 is 6m)",
            field="pizi",
            code="missing",
        )
    playable("pizi", [spec.pizi])
    pizi, laizi = spec.pizi, ruleset.wild_of(spec.pizi)
    special = f"the 痞子 {_show(pizi)} and the 赖子 {_show(laizi)}"
    for other, tiles in spec.laid.items():
        if not _seat_ok(other):
            raise ValueError(f"laid: {other!r} is not a seat 0-3")
        playable(f"laid by seat {other}", tiles)
        for laid in tiles:
            if laid not in (pizi, laizi):
                raise ValueError(f"laid: seat {other} laid {_show(laid)}; only {special} are laid")
    melds = [*spec.melds, *(meld for melds in spec.others_melds.values() for meld in melds)]
    for meld in melds:
        if pizi in meld.kind.tiles(meld.tile) or laizi in meld.kind.tiles(meld.tile):
            raise ValueError(
                f"melds: the {meld.kind.value} of {_show(meld.tile)} holds a 痞子 or 赖子; a chow, pung or "
                f"kong is made of natural tiles ({special} are laid, never claimed or konged)"
            )
    lays = spec.lays_before
    if not isinstance(lays, int) or isinstance(lays, bool) or lays < 0:
        raise ValueError(f"lays_before is a whole number of at least 0, not {lays!r}")
    if lays:
        how = spec.how
        if how not in (WinHow.KONG_REPLACEMENT, WinHow.DISCARD, WinHow.ROBBED_KONG):
            raise ValueError(
                "lays_before: lays just before the win go with kong_replacement (杠开), discard (杠上炮) "
                "or robbed_kong"
            )
        layer = spec.seat if how is WinHow.KONG_REPLACEMENT else spec.from_seat
        made = len(spec.laid.get(layer, ())) if layer is not None else 0
        if lays > made:
            raise ValueError(
                f"lays_before: {lays} lays in a row, but laid lists {made} tile(s) for seat {layer}"
            )


def _check_how(spec: WinSpec, ruleset: RuleSet) -> None:
    how, seat = spec.how, spec.seat
    if not isinstance(how, WinHow):
        raise ValueError(f"how: {how!r} is not one of {', '.join(h.value for h in WinHow)}")
    if how.self_drawn:
        if spec.from_seat is not None:
            raise ValueError(
                f"from: a {how.value} win has no discarder (a kong's feeder is its meld's 'from')"
            )
    elif spec.from_seat is None or spec.from_seat == seat:
        what = "whose kong was robbed" if how is WinHow.ROBBED_KONG else "who discarded the winning tile"
        raise SpecError(
            f"from: a {how.value} win needs the seat {what} (0-3, not the winner {seat})",
            field="from",
            code="from_seat",
        )
    for feeder in spec.kong_chain:
        if feeder is not None and not _seat_ok(feeder):
            raise ValueError(f"kongs: each kong's feeder is a seat 0-3 or null, not {feeder!r}")
    if spec.kong_chain and how not in (WinHow.KONG_REPLACEMENT, WinHow.DISCARD, WinHow.ROBBED_KONG):
        raise ValueError(
            "kongs: a chain of kongs goes with kong_replacement (杠开), discard (杠上炮) or robbed_kong"
        )
    if how is WinHow.KONG_REPLACEMENT:
        kongs = [meld for meld in spec.melds if meld.kind.is_kong]
        if not spec.lays_before and not kongs:
            raise SpecError(
                "a kong_replacement win (杠开) needs the kong: the winner has no kong among its melds"
                + (" (or give lays_before: a 杠开 after laying a 痞子/赖子)" if ruleset.indicator else ""),
                field="melds",
                code="needs_kong",
            )
        if len(spec.kong_chain) > len(kongs):
            raise ValueError(
                f"kongs: {len(spec.kong_chain)} kongs in a row, but the winner has {len(kongs)} kong(s)"
            )
    if how in (WinHow.FLOWER_REPLACEMENT, WinHow.FLOWER_KONG_REPLACEMENT):
        if not spec.flowers:
            raise SpecError(
                f"a {how.value} win needs the flower that was replaced: list the flowers",
                field="flowers",
                code="missing",
            )
        if how is WinHow.FLOWER_KONG_REPLACEMENT and not ruleset.flower_kongs(spec.flowers):
            raise ValueError(
                "a flower_kong_replacement win (花杠开) needs a complete flower kong among the flowers"
            )
    if how is WinHow.ROBBED_KONG:
        assert spec.from_seat is not None
        robbed = spec.others_melds.get(spec.from_seat, ())
        if any(meld.tile == spec.win_tile and meld.kind.is_kong for meld in robbed):
            raise ValueError(
                f"seat {spec.from_seat} already has a kong of {_show(spec.win_tile)}: nothing to rob"
            )
    if spec.first_turn:
        claimed = [
            meld
            for melds in spec.others_melds.values()
            for meld in melds
            if meld.kind is not MeldKind.CONCEALED_KONG
        ]
        if spec.melds or claimed or spec.kong_chain:
            raise ValueError("first_turn: the first go-round has no melds and no kongs before the win")
        if how is WinHow.DISCARD:
            if spec.from_seat != spec.dealer:
                raise ValueError("first_turn on a discard means the dealer's very first discard (人胡)")
        elif how is not WinHow.SELF_DRAWN:
            raise ValueError(
                "first_turn goes with a self-drawn win on one's first tiles (天胡/地胡) or a win on the "
                "dealer's first discard (人胡)"
            )
    if spec.ready:
        if not ruleset.ready_declaration:
            raise ValueError(f"ready: {ruleset.name} mahjong has no 报听 declaration")
        if seat == spec.dealer:
            raise SpecError("ready: only non-dealers declare 报听", field="ready", code="ready_dealer")
        if any(meld.kind is not MeldKind.CONCEALED_KONG for meld in spec.melds):
            raise SpecError(
                "ready: after 报听 a player claims nothing, so it has no pung or exposed kong",
                field="ready",
                code="ready_melds",
            )


# --- building the table the engine would hold -----------------------------------------------------


def _chain(spec: WinSpec) -> list[tuple[str, int | None]]:
    how = spec.how
    if how is WinHow.FLOWER_REPLACEMENT:
        return [("flower", None)]
    if how is WinHow.FLOWER_KONG_REPLACEMENT:
        return [("flower_kong", None)]
    feeders = list(spec.kong_chain)
    if how is WinHow.KONG_REPLACEMENT and not feeders and not spec.lays_before:
        last = [meld for meld in spec.melds if meld.kind.is_kong][-1]  # an added kong keeps its pung's place
        feeders = [None if last.kind is MeldKind.CONCEALED_KONG else last.feeder]
    # The engine records a lay as ("lay", None); the order within the run does not change a score.
    lays: list[tuple[str, int | None]] = [("lay", None)] * spec.lays_before
    return lays + [("kong", feeder) for feeder in feeders]


def _build(spec: WinSpec, ruleset: RuleSet, *, trusted: bool) -> tuple[HandState, list[int]]:
    """A HandState at the moment of the win, and the winner's concealed counts before the winning tile."""
    others = _others_melds(spec)
    counts = [0] * NUM_KINDS
    for held in spec.hand:
        counts[held] += 1
    full = Counter(ruleset.tile_set())
    used = _used(spec, others)
    if not trusted:
        _check_copies(used, full, ruleset.name)
    seats = _seats(spec, counts, others)
    hands = sum(
        HAND_TILES - 3 * len(player.melds) for other, player in enumerate(seats) if other != spec.seat
    )
    extras = len(spec.code_tiles) + len(spec.horse_tiles) + len(spec.fish_tiles)
    state = _table(spec, ruleset, seats, room=sum((full - used).values()) - hands - extras)
    placed = _place_extras(spec, state, counts)
    used.update(placed.values())
    if not trusted:
        _check_copies(used, full, ruleset.name)
    pool = _deal_others(spec, ruleset, seats, sorted((full - used).elements()))
    _lay_wall(state, placed, pool, trusted=trusted)
    return state, counts


def _others_melds(spec: WinSpec) -> dict[int, list[MeldSpec]]:
    others = {other: list(melds) for other, melds in spec.others_melds.items()}
    if spec.how is WinHow.ROBBED_KONG:
        assert spec.from_seat is not None
        robbed = others.setdefault(spec.from_seat, [])
        if not any(meld.kind is MeldKind.PUNG and meld.tile == spec.win_tile for meld in robbed):
            # The robbed player's pung stays a pung while the fourth tile is open to robbing.
            feeder = next(s for s in (next_seat(spec.from_seat, k) for k in (1, 2, 3)) if s != spec.seat)
            robbed.append(MeldSpec(kind=MeldKind.PUNG, tile=spec.win_tile, feeder=feeder))
    return others


def _used(spec: WinSpec, others: Mapping[int, Sequence[MeldSpec]]) -> Counter[int]:
    """The tiles the description shows (the extras apart: they are placed in the wall later)."""
    used: Counter[int] = Counter(spec.hand)
    used[spec.win_tile] += 1
    used.update(spec.flowers)
    used.update(spec.discarded)
    if spec.pizi is not None:
        used[spec.pizi] += 1  # turned up after the deal, out of play
    for tiles in spec.laid.values():
        used.update(tiles)
    for meld in [*spec.melds, *(meld for melds in others.values() for meld in melds)]:
        used.update(meld.kind.tiles(meld.tile))
    return used


def _check_copies(used: Counter[int], full: Counter[int], name: str) -> None:
    for kind, count in sorted(used.items()):
        if count > full[kind]:
            raise SpecError(
                f"{_show(kind)} is used {count} times (hand, winning tile, melds, flowers, discards, "
                f"tiles laid, the turned-up 痞子 and code/horse/fish tiles together); a {name} set has "
                f"only {full[kind]}",
                field=None,
                code="copies",
                tile=_code(kind),
                count=count,
                most=full[kind],
            )


def _seats(spec: WinSpec, counts: Sequence[int], others: Mapping[int, Sequence[MeldSpec]]) -> list[SeatState]:
    """The four seats as the win finds them (the other seats' concealed tiles come later)."""
    seat, tile, how = spec.seat, spec.win_tile, spec.how
    seats = [SeatState() for _ in range(SEATS)]
    winner = seats[seat]
    winner.counts = list(counts)
    winner.melds = [Meld(meld.kind, meld.tile, meld.feeder, index) for index, meld in enumerate(spec.melds)]
    winner.flowers = list(spec.flowers)
    winner.ready = spec.ready
    if how.self_drawn:
        winner.counts[tile] += 1
        winner.drawn = None if _tianhu(spec) else tile
    for other, melds in others.items():
        seats[other].melds = [
            Meld(meld.kind, meld.tile, meld.feeder, index) for index, meld in enumerate(melds)
        ]
    for other, laid in spec.laid.items():
        seats[other].laid = list(laid)
    if how is WinHow.ROBBED_KONG:
        assert spec.from_seat is not None
        seats[spec.from_seat].counts[tile] += 1  # the fourth tile, in hand while it may be robbed
    # Discards: spread over the seats in turn order; the winning discard is the discarder's last.
    outs = [(next_seat(spec.dealer, index), out) for index, out in enumerate(spec.discarded)]
    if how in (WinHow.DISCARD, WinHow.CLAIM):
        assert spec.from_seat is not None
        outs.append((spec.from_seat, tile))
    for index, (owner, out) in enumerate(outs):
        seats[owner].discards.append(out)
        seats[owner].discard_claimed.append(False)
        seats[owner].discard_from_draw.append(False)
        seats[owner].discard_order.append(index)
        seats[owner].discarded_kinds[out] += 1
    if spec.first_turn:
        # Everyone before the winner (or the dealer, for 人胡) has played once.
        before = 1 if how is WinHow.DISCARD else (seat - spec.dealer) % SEATS
        for offset in range(before):
            seats[next_seat(spec.dealer, offset)].turns = 1
    else:
        for player in seats:
            player.turns = max(len(player.discards), 1)
    return seats


def _deal_others(spec: WinSpec, ruleset: RuleSet, seats: list[SeatState], pool: list[int]) -> list[int]:
    """Give the other seats concealed tiles from the pool, 13 less 3 per meld (nothing scores them);
    returns what is left for the wall."""
    playable = iter([tile for tile in pool if not ruleset.is_flower(tile)])
    taken: Counter[int] = Counter()
    for other, player in enumerate(seats):
        if other != spec.seat:
            for _, held in zip(range(HAND_TILES - 3 * len(player.melds)), playable, strict=False):
                player.counts[held] += 1
                taken[held] += 1
    return sorted((Counter(pool) - taken).elements())


def _tianhu(spec: WinSpec) -> bool:
    return spec.first_turn and spec.how is WinHow.SELF_DRAWN and spec.seat == spec.dealer


def _table(spec: WinSpec, ruleset: RuleSet, seats: list[SeatState], *, room: int) -> HandState:
    """The HandState around the seats: phase, turn, claim window, kongs in a row, counts of play. Its
    wall holds positions until :func:`_lay_wall` lays the tiles."""
    seat, tile, how = spec.seat, spec.win_tile, spec.how
    reserved, aside = ruleset.reserved_tiles, ruleset.set_aside_tiles
    if spec.haidi:
        live = 0
    elif spec.tiles_left is not None:
        live = spec.tiles_left
    else:
        window = getattr(ruleset.options, "haidi_tiles", 0)
        live = max(0, min(max(DEFAULT_TILES_LEFT, window), room - reserved - aside))
    segment = live + reserved
    if spec.first_turn:
        discards_made = 1 if how is WinHow.DISCARD else (seat - spec.dealer) % SEATS
        claims_made = 0
    else:
        discards_made = max(sum(len(player.discards) for player in seats), SEATS)
        claims_made = sum(
            1
            for player in seats
            for meld in player.melds
            if meld.kind in (MeldKind.PUNG, MeldKind.EXPOSED_KONG)
        )
    state = HandState(
        ruleset=ruleset,
        dealer=spec.dealer,
        wall=list(range(segment + aside)),
        front=0,
        back=segment - 1,
        seats=seats,
        phase=Phase.TURN,
        turn=seat,
        multiplier=spec.multiplier,
        replacement_chain=_chain(spec),
        claims_made=claims_made,
        discards_made=discards_made,
        previous_winner=spec.previous_winner,
        pizi=spec.pizi,
        laizi=None if spec.pizi is None else ruleset.wild_of(spec.pizi),
    )
    if how.self_drawn:
        first = _tianhu(spec)
        state.draw_source = (
            DrawSource.NONE
            if first
            else DrawSource.WALL
            if how is WinHow.SELF_DRAWN
            else DrawSource.REPLACEMENT
        )
        state.last_drawer = None if first else seat
        return state
    assert spec.from_seat is not None
    robbing = how is WinHow.ROBBED_KONG
    options: dict[int, list[Action]] = {seat: [Win(seat=seat), Pass(seat=seat)]}
    state.turn = spec.from_seat
    state.last_drawer = spec.from_seat
    state.phase = Phase.ROB if robbing else Phase.CLAIM
    state.window = ClaimWindow(discarder=spec.from_seat, tile=tile, options=options, robbing=robbing)
    if robbing:
        state.pending_kong = (spec.from_seat, tile)
    return state


def _lay_wall(state: HandState, placed: Mapping[int, int], pool: list[int], *, trusted: bool) -> None:
    """Lay the wall: [drawn already | live tiles and the reserved tail | tiles set aside (钓鱼)], with
    the described code, horse and fish tiles where the rules will turn them, and the turned-up 痞子 out
    of play where the engine leaves it: just past the back end (``pizi_flip`` "back": the wall's last
    tile, before any set aside), or just before the front ("front": the wall's first)."""
    positions = len(state.wall)
    segment = state.back + 1
    prefix = len(pool) - (positions - len(placed))
    if prefix < 0:
        if not trusted:
            ruleset = state.ruleset
            most = max(0, len(pool) + len(placed) - ruleset.reserved_tiles - ruleset.set_aside_tiles)
            raise ValueError(
                f"tiles_left: {state.live_tiles} tiles cannot still be in the wall: with everything "
                f"described, at most {most} can"
            )
        pool = pool + [kind % NUM_KINDS for kind in range(-prefix)]  # a hint's table: any tiles do
        prefix = 0
    wall = pool[:prefix]
    rest = iter(pool[prefix:])
    wall.extend(placed[position] if position in placed else next(rest) for position in range(positions))
    state.wall = wall
    state.front = prefix
    state.back = prefix + segment - 1
    if state.pizi is not None:
        if state.ruleset.indicator == "front":
            wall.insert(state.front, state.pizi)
            state.front += 1
            state.back += 1
        else:
            wall.insert(state.back + 1, state.pizi)


_EXTRAS = {
    "moma": ("code_tiles", "code tiles (摸码)"),
    "maima": ("horse_tiles", "horse tiles (买马)"),
    "fishing": ("fish_tiles", "fish tiles (钓鱼)"),
}


def _place_extras(spec: WinSpec, state: HandState, counts: Sequence[int]) -> dict[int, int]:
    """Where the rules will look for code, horse and fish tiles (their positions in the wall), with the
    tiles the description gives for them. The state's wall holds positions while this runs."""
    given = {"moma": spec.code_tiles, "maima": spec.horse_tiles, "fishing": spec.fish_tiles}
    wanted: dict[str, list[int]] = {}
    if state.ruleset.name == "nanning":
        from hupai.rules.nanning.scoring import extra_tiles, situation

        kind = WinKind.SELF_DRAWN if spec.how.self_drawn else WinKind.DISCARD
        if spec.how is WinHow.ROBBED_KONG:
            kind = WinKind.ROBBED_KONG
        context = _context(spec, state, counts, kind)
        options = state.ruleset.options
        wanted = extra_tiles(state, situation(state, context, options), kind, options)
    placed: dict[int, int] = {}
    for key, (label, what) in _EXTRAS.items():
        tiles = given[key]
        positions = wanted.get(key)
        if positions is None:
            if tiles:
                raise SpecError(
                    f"{label}: no {what} are turned for this win under these rules",
                    field=label,
                    code="no_extras",
                )
            continue
        if len(tiles) != len(positions):
            raise SpecError(
                f"{label}: this win turns {len(positions)} {what}; give exactly {len(positions)}, "
                f"not {len(tiles)}",
                field=label,
                code="extras_count",
                given=len(tiles),
                expected=len(positions),
            )
        for position, tile in zip(positions, tiles, strict=True):
            if placed.get(position, tile) != tile:
                raise ValueError(f"{label}: the same wall tile is given as two different tiles")
            placed[position] = tile
    return placed


# --- hints: what each wait is worth -----------------------------------------------------------------


def win_values(
    state: HandState, seat: int, *, discard: int | None = None, discarder: int | None = None
) -> dict[int, WaitValue]:
    """For each tile that would win for ``seat`` in a real game: what a self-drawn win and a win on
    ``discarder``'s discard (default: the next seat, the first to discard after this seat) would bring,
    or why the rules refuse it. The state is not changed.

    The hand is the seat's concealed tiles when it holds 13 less 3 per meld; when it holds a drawn tile,
    name the tile it would let go with ``discard``. The keys are its waits, and on Nanjing tables also
    tiles whose claim alone would win (快照/三清). Melds, flowers, 报听, the dealer and the hand's
    multiplier come from the state, as does how many tiles the wall will still hold at that draw or
    discard (海底) — assuming nobody claims in between. Nanning's code tiles, horses and fish are not
    known before the win: the values leave them out (as if they hit nobody else and not the winner).
    On Enshi tables the seat's 赖子 are wildcards in its waits (only tiles of the set are listed), and
    the 痞子, the 赖子 and every seat's lays come from the state; a self-drawn value is a plain draw
    (not a 杠开). A seat holding a 痞子 sees its waits refused (有痞子不能胡: lay it first).
    """
    if not _seat_ok(seat):
        raise ValueError(f"seat is a seat 0-3, not {seat!r}")
    if state.phase is Phase.ENDED:
        raise ValueError("the hand is over")
    player = state.seats[seat]
    counts = list(player.counts)
    held = sum(counts)
    if discard is not None:
        if held % 3 != 2:
            raise ValueError(f"seat {seat} holds {held} tiles and has nothing to discard")
        if not 0 <= discard < NUM_KINDS or not counts[discard]:
            raise ValueError(f"seat {seat} does not hold {_show(discard)}")
        counts[discard] -= 1
    elif held % 3 != 1:
        raise ValueError(
            f"seat {seat} holds {held} tiles, a drawn one among them: "
            "name the tile it would discard (discard=)"
        )
    discarder = next_seat(seat) if discarder is None else discarder
    if not _seat_ok(discarder) or discarder == seat:
        raise ValueError(f"discarder is another seat 0-3, not {discarder!r}")
    ruleset = _hint_ruleset(state.ruleset)
    tiles = _hint_tiles(state, ruleset, seat, counts)
    discarded = [
        out
        for other in state.seats
        for out, claimed in zip(other.discards, other.discard_claimed, strict=True)
        if not claimed
    ]
    if discard is not None:
        discarded.append(discard)
    base = WinSpec(
        ruleset=ruleset.preset,
        options=MappingProxyType(dict(ruleset.options_dict())),
        seat=seat,
        dealer=state.dealer,
        hand=tuple(kind for kind in range(NUM_KINDS) for _ in range(counts[kind])),
        win_tile=0,
        melds=tuple(MeldSpec(kind=m.kind, tile=m.tile, feeder=m.feeder) for m in player.melds),
        flowers=tuple(player.flowers),
        ready=player.ready,
        multiplier=state.multiplier,
        others_melds={
            other: tuple(
                MeldSpec(kind=m.kind, tile=m.tile, feeder=m.feeder) for m in state.seats[other].melds
            )
            for other in range(SEATS)
            if other != seat and state.seats[other].melds
        },
        discarded=tuple(discarded),
        previous_winner=state.previous_winner,
        pizi=state.pizi,
        laid={other: tuple(state.seats[other].laid) for other in range(SEATS) if state.seats[other].laid},
    )
    own_draws = _draws_until(state, seat, own=True)
    their_draws = _draws_until(state, discarder, own=False)
    live = state.live_tiles
    first_draw = seat != state.dealer and player.turns == 0 and state.claims_made == 0 and discard is None
    first_discard = (
        discarder == state.dealer and state.discards_made == 0 and state.claims_made == 0 and their_draws == 0
    )
    blocked = ruleset.pass_win_restriction and player.passed_win
    if blocked and discard is not None and ruleset.pass_win_until == "discard":
        blocked = False
    unseen = _unseen(state, seat, counts, discarded)
    found: dict[int, WaitValue] = {}
    for tile in sorted(tiles):
        drawn = _hint(
            base,
            ruleset,
            tile,
            how=WinHow.SELF_DRAWN,
            first_turn=first_draw,
            tiles_left=live - own_draws,
        )
        if blocked:
            on_discard = _refused(
                _replace(base, tile, WinHow.DISCARD, discarder, first_turn=False, tiles_left=0),
                WinKind.DISCARD,
                f"过胡不胡: seat {seat} passed a win and may not win on a discard until its own next "
                f"{ruleset.pass_win_until}",
            )
        else:
            on_discard = _hint(
                base,
                ruleset,
                tile,
                how=WinHow.DISCARD,
                from_seat=discarder,
                first_turn=first_discard,
                tiles_left=live - their_draws,
            )
        found[tile] = WaitValue(
            tile=tile, unseen=unseen[tile], discarder=discarder, self_drawn=drawn, discard=on_discard
        )
    return found


def _hint_tiles(state: HandState, ruleset: RuleSet, seat: int, counts: list[int]) -> set[int]:
    """The tiles that would win for ``seat`` holding ``counts``: its waits (the 赖子 as wildcards, only
    kinds of the set), and tiles whose claim alone would win (Nanjing 快照/三清)."""
    if state.laizi is None:
        tiles = set(waits(counts))
    else:
        kinds = sorted({kind for kind in ruleset.tile_set() if kind < NUM_KINDS})
        tiles = {kind for kind in kinds if counts[kind] < 4 and _completes(counts, kind, state.laizi)}
    player = state.seats[seat]
    if not player.ready:
        probe = copy.copy(state)
        probe.seats = list(state.seats)
        mine = copy.copy(player)
        mine.counts = counts
        probe.seats[seat] = mine
        tiles.update(kind for kind in range(NUM_KINDS) if ruleset.instant_win_on_claim(probe, seat, kind))
    return tiles


def _replace(
    base: WinSpec, tile: int, how: WinHow, from_seat: int | None, *, first_turn: bool, tiles_left: int
) -> WinSpec:
    return WinSpec(
        ruleset=base.ruleset,
        options=base.options,
        seat=base.seat,
        dealer=base.dealer,
        hand=base.hand,
        win_tile=tile,
        how=how,
        from_seat=from_seat,
        melds=base.melds,
        flowers=base.flowers,
        first_turn=first_turn,
        ready=base.ready,
        multiplier=base.multiplier,
        tiles_left=tiles_left,
        others_melds=base.others_melds,
        discarded=base.discarded,
        previous_winner=base.previous_winner,
        pizi=base.pizi,
        laid=base.laid,
    )


def _hint(
    base: WinSpec,
    ruleset: RuleSet,
    tile: int,
    *,
    how: WinHow,
    first_turn: bool,
    tiles_left: int,
    from_seat: int | None = None,
) -> Calculation:
    spec = _replace(base, tile, how, from_seat, first_turn=first_turn, tiles_left=max(tiles_left, 0))
    if tiles_left < 0:
        kind = WinKind.SELF_DRAWN if how is WinHow.SELF_DRAWN else WinKind.DISCARD
        return _refused(spec, kind, "the wall runs out before that tile can come")
    return _calculate(spec, ruleset, trusted=True)


def _draws_until(state: HandState, target: int, *, own: bool) -> int:
    """Draws from the wall until ``target`` holds its next tile to play (its own draw for a self-drawn
    win, or the draw before its discard), if nobody claims in between."""
    if state.phase in (Phase.CLAIM, Phase.ROB) and state.window is not None:
        discarder = state.window.discarder
        if target == discarder and not own:
            return 0  # its discard is the one open now
        return (target - discarder - 1) % SEATS + 1
    turn = state.turn
    if target == turn:
        return SEATS if own else 0  # it holds a tile now: its next draw comes after a round
    return (target - turn) % SEATS


def _unseen(state: HandState, seat: int, counts: Sequence[int], discarded: Sequence[int]) -> list[int]:
    unseen = [4 - counts[kind] for kind in range(NUM_KINDS)]
    for out in discarded:
        unseen[out] -= 1
    if state.pizi is not None:
        unseen[state.pizi] -= 1  # turned up for everyone to see
    for player in state.seats:
        for laid in player.laid:
            unseen[laid] -= 1
    for other, player in enumerate(state.seats):
        for meld in player.melds:
            if (
                other == seat
                or meld.kind is not MeldKind.CONCEALED_KONG
                or state.ruleset.concealed_kongs_public
            ):
                for tile in meld.kind.tiles(meld.tile):
                    unseen[tile] -= 1
    return [max(count, 0) for count in unseen]


def _hint_ruleset(ruleset: RuleSet) -> RuleSet:
    """The rule set without its extras turned after the win (Nanning 摸码, 买马, 钓鱼): unknown before."""
    options = ruleset.options_dict()
    off = {"moma": 0, "maima": 0, "fishing": "off"}
    if all(options.get(key, value) == value for key, value in off.items()):
        return ruleset
    merged = {**options, **off}
    return load_ruleset(ruleset.preset, merged)


# --- reading a description --------------------------------------------------------------------------

_KEYS = (
    "preset",
    "ruleset",
    "options",
    "seat",
    "dealer",
    "hand",
    "win_tile",
    "how",
    "from",
    "melds",
    "flowers",
    "kongs",
    "first_turn",
    "ready",
    "multiplier",
    "haidi",
    "tiles_left",
    "others_melds",
    "discarded",
    "code_tiles",
    "horse_tiles",
    "fish_tiles",
    "previous_winner",
    "pizi",
    "laid",
    "lays_before",
)


def _spec_from_dict(data: Mapping[str, Any]) -> WinSpec:
    if not isinstance(data, Mapping):
        raise ValueError("a win is described by an object of fields (preset, seat, hand, win_tile, how, …)")
    unknown = sorted(str(key) for key in data if key not in _KEYS)
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(unknown)} (known: {', '.join(_KEYS)})")
    preset = data.get("preset", data.get("ruleset", "nanjing"))
    if "preset" in data and "ruleset" in data and data["preset"] != data["ruleset"]:
        raise ValueError("give preset or ruleset, not two different ones")
    if not isinstance(preset, str):
        raise ValueError(f'preset names a rule set or preset, e.g. "nanjing", not {preset!r}')
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise ValueError("options is an object of option names and values")
    if "seat" not in data:
        raise ValueError("seat: say which seat (0-3) won")
    for required in ("hand", "win_tile"):
        if required not in data:
            raise SpecError(f"{required}: missing", field=required, code="missing")
    how_name = data.get("how", "self_drawn")
    how = _HOW_NAMES.get(how_name) if isinstance(how_name, str) else None
    if how is None:
        raise ValueError(f"how: unknown {how_name!r} (one of {', '.join(h.value for h in WinHow)})")
    win = _tiles("win_tile", data["win_tile"])
    if len(win) != 1:
        code = "missing" if not win else "one_tile"
        raise SpecError(
            f'win_tile is one tile, e.g. "2z", not {data["win_tile"]!r}', field="win_tile", code=code
        )
    others = data.get("others_melds") or {}
    if not isinstance(others, Mapping):
        raise ValueError("others_melds is an object: seat -> list of melds")
    others_melds: dict[int, tuple[MeldSpec, ...]] = {}
    for key, melds in others.items():
        try:
            other = int(key)
        except (TypeError, ValueError):
            raise ValueError(f"others_melds: {key!r} is not a seat 0-3") from None
        others_melds[other] = _melds(f"others_melds of seat {other}", melds)
    pizi_text = data.get("pizi") or ""
    pizi = _tiles("pizi", pizi_text)
    if len(pizi) > 1:
        raise SpecError(
            f'pizi is the one tile turned up, e.g. "5m", not {pizi_text!r}', field="pizi", code="one_tile"
        )
    laid_in = data.get("laid") or {}
    if not isinstance(laid_in, Mapping):
        raise ValueError('laid is an object: seat -> the tiles it laid, e.g. {"0": "5m6m"}')
    laid: dict[int, tuple[int, ...]] = {}
    for key, tiles in laid_in.items():
        try:
            layer = int(key)
        except (TypeError, ValueError):
            raise ValueError(f"laid: {key!r} is not a seat 0-3") from None
        laid[layer] = tuple(_tiles(f"laid by seat {layer}", tiles or ""))
    kongs = data.get("kongs") or []
    if not isinstance(kongs, list):
        raise ValueError(
            "kongs lists the feeders of the kongs made in a row (a seat, or null when concealed)"
        )
    return WinSpec(
        ruleset=preset,
        options=MappingProxyType(dict(options)),
        seat=_int("seat", data["seat"]),
        dealer=_int("dealer", data.get("dealer", 0)),
        hand=tuple(_tiles("hand", data["hand"])),
        win_tile=win[0],
        how=how,
        from_seat=_optional_int("from", data.get("from")),
        melds=_melds("melds", data.get("melds") or []),
        flowers=tuple(_tiles("flowers", data.get("flowers") or "")),
        kong_chain=tuple(_optional_int("kongs", feeder) for feeder in kongs),
        first_turn=_bool("first_turn", data.get("first_turn", False)),
        ready=_bool("ready", data.get("ready", False)),
        multiplier=_int("multiplier", data.get("multiplier", 1)),
        haidi=_bool("haidi", data.get("haidi", False)),
        tiles_left=_optional_int("tiles_left", data.get("tiles_left")),
        others_melds=MappingProxyType(others_melds),
        discarded=tuple(_tiles("discarded", data.get("discarded") or "")),
        code_tiles=tuple(_tiles("code_tiles", data.get("code_tiles") or "")),
        horse_tiles=tuple(_tiles("horse_tiles", data.get("horse_tiles") or "")),
        fish_tiles=tuple(_tiles("fish_tiles", data.get("fish_tiles") or "")),
        previous_winner=_optional_int("previous_winner", data.get("previous_winner")),
        pizi=pizi[0] if pizi else None,
        laid=MappingProxyType(laid),
        lays_before=_int("lays_before", data.get("lays_before", 0)),
    )


def _tiles(label: str, value: Any) -> list[int]:
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        value = "".join(value)
    if not isinstance(value, str):
        raise SpecError(
            f'{label} is written in tile notation, e.g. "123m456p11z", not {value!r}',
            field=_field(label),
            code="notation",
        )
    try:
        return parse_tiles(value)
    except ValueError as error:
        raise SpecError(f"{label}: {error}", field=_field(label), code="notation") from None


def _int(label: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{label} is a whole number, not {value!r}")
    return value


def _optional_int(label: str, value: Any) -> int | None:
    return None if value is None else _int(label, value)


def _bool(label: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{label} is true or false, not {value!r}")
    return value


def _melds(label: str, value: Any) -> tuple[MeldSpec, ...]:
    if not isinstance(value, list):
        raise ValueError(f'{label} is a list of {{"kind", "tile", "from"}} objects')
    melds = []
    for entry in value:
        if not isinstance(entry, Mapping):
            raise ValueError(f'{label}: each meld is an object {{"kind", "tile", "from"}}, not {entry!r}')
        extra = sorted(str(key) for key in entry if key not in ("kind", "tile", "from"))
        if extra:
            raise ValueError(f"{label}: unknown meld field(s) {', '.join(extra)} (known: kind, tile, from)")
        kind_name = entry.get("kind")
        kind = _MELD_NAMES.get(kind_name) if isinstance(kind_name, str) else None
        if kind is None:
            raise ValueError(
                f"{label}: unknown meld kind {kind_name!r} (one of {', '.join(k.value for k in MeldKind)})"
            )
        tiles = _tiles(label, entry.get("tile", ""))
        if len(tiles) != 1:
            raise SpecError(
                f'{label}: a meld names one tile, e.g. "5p", not {entry.get("tile")!r}',
                field=_field(label),
                code="one_tile",
            )
        melds.append(
            MeldSpec(kind=kind, tile=tiles[0], feeder=_optional_int(f"{label}: from", entry.get("from")))
        )
    return tuple(melds)
