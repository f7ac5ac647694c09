"""What the score calculator is told: a win as a player at the table describes it (:class:`WinSpec`),
read from plain data and checked field by field, and the errors that name the field at fault."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any

from hupai.game.contract import RuleError
from hupai.game.model import (
    SEATS,
    MeldKind,
    meld_tiles,
)
from hupai.tiles import NUM_KINDS, format_tiles, parse_tiles, tile_name

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
    kong: who fed the original pung; None for a concealed kong). ``laizi_for``: in a chow, the run's
    kind a 赖子 stands in for (Enshi's ``laizi_in_melds``; the 赖子 lies in the meld in its place)."""

    kind: MeldKind
    tile: int
    feeder: int | None = None
    laizi_for: int | None = None

    def tiles(self, laizi: int | None) -> tuple[int, ...]:
        """The tiles that lie in the meld, the 赖子 ``laizi`` in place of ``laizi_for``."""
        return meld_tiles(self.kind, self.tile, self.laizi_for, laizi)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind.value,
            "tile": format_tiles([self.tile]),
            "from": self.feeder,
        }
        if self.laizi_for is not None:
            out["laizi_for"] = format_tiles([self.laizi_for])
        return out


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
        ``{"kind", "tile", "from"}``, a chow with a 赖子 also ``"laizi_for"``), ``flowers``,
        ``kongs`` (the kong chain's feeders),
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
            field=field_of(label),
            code="notation",
        )
    try:
        return parse_tiles(value)
    except ValueError as error:
        raise SpecError(f"{label}: {error}", field=field_of(label), code="notation") from None


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
        extra = sorted(str(key) for key in entry if key not in ("kind", "tile", "from", "laizi_for"))
        if extra:
            raise ValueError(
                f"{label}: unknown meld field(s) {', '.join(extra)} (known: kind, tile, from, laizi_for)"
            )
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
                field=field_of(label),
                code="one_tile",
            )
        wild = _tiles(f"{label}: laizi_for", entry.get("laizi_for") or "")
        if len(wild) > 1:
            raise SpecError(
                f'{label}: laizi_for names the one tile a 赖子 stands for, e.g. "4m", not '
                f"{entry.get('laizi_for')!r}",
                field=field_of(label),
                code="one_tile",
            )
        melds.append(
            MeldSpec(
                kind=kind,
                tile=tiles[0],
                feeder=_optional_int(f"{label}: from", entry.get("from")),
                laizi_for=wild[0] if wild else None,
            )
        )
    return tuple(melds)


def seat_ok(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < SEATS


def field_of(label: str) -> str:
    """The field a label belongs to: "laid by seat 2" is ``laid``, "melds: from" is ``melds``."""
    return re.split(r"[ :]", label, maxsplit=1)[0]


def tile_code(tile: object) -> str:
    return format_tiles([tile]) if isinstance(tile, int) and 0 <= tile < NUM_KINDS + 8 else repr(tile)


def tile_shown(tile: object) -> str:
    if isinstance(tile, int) and 0 <= tile < NUM_KINDS + 8:
        return f"{format_tiles([tile])} ({tile_name(tile)})"
    return repr(tile)
