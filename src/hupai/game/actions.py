"""What a seat can do: frozen, keyword-only action objects with imperative names.

Each maps to the record format's ``act`` (ARCHITECTURE.md): ``discard`` (with ``tile``), ``pong``,
``kong`` (``tile`` for a concealed or added kong on one's own turn; none when claiming a discard),
``hu``, ``pass``, ``ready`` (报听); in Enshi also ``chow`` (with the run's lowest ``tile``) and ``lay``
(a 痞子 or 赖子 laid out of the hand, with its ``tile``).

Each class gives its ``act`` by a property, not a class attribute: in the compiled build
(:mod:`hupai._native`) a dataclass's class attribute would become one of its fields. Each spells out
its ``__eq__`` and ``__hash__`` (the ones dataclass writes, same meaning), which that build compiles:
legal actions are compared all the time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hupai.tiles import NUM_KINDS, format_tiles, parse_tiles

__all__ = [
    "Action",
    "ActionParseError",
    "Chow",
    "DeclareReady",
    "Discard",
    "Kong",
    "Lay",
    "Pass",
    "Pong",
    "Win",
    "action_from_dict",
]


class ActionParseError(ValueError):
    """An action in a record or a message that cannot be read."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Discard:
    seat: int
    tile: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not Discard:
            return NotImplemented
        return self.seat == other.seat and self.tile == other.tile

    def __hash__(self) -> int:
        return hash((self.seat, self.tile))

    @property
    def act(self) -> str:
        return "discard"


@dataclass(frozen=True, slots=True, kw_only=True)
class Pong:
    seat: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not Pong:
            return NotImplemented
        return self.seat == other.seat

    def __hash__(self) -> int:
        return hash((self.seat,))

    @property
    def act(self) -> str:
        return "pong"


@dataclass(frozen=True, slots=True, kw_only=True)
class Kong:
    """A kong: ``tile`` on one's own turn (concealed or added), None when claiming a discard."""

    seat: int
    tile: int | None = None

    def __eq__(self, other: object) -> bool:
        if type(other) is not Kong:
            return NotImplemented
        return self.seat == other.seat and self.tile == other.tile

    def __hash__(self) -> int:
        return hash((self.seat, self.tile))

    @property
    def act(self) -> str:
        return "kong"


@dataclass(frozen=True, slots=True, kw_only=True)
class Win:
    """胡: on one's own draw, on a discard, on a kong being added (抢杠), or a Nanjing instant win."""

    seat: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not Win:
            return NotImplemented
        return self.seat == other.seat

    def __hash__(self) -> int:
        return hash((self.seat,))

    @property
    def act(self) -> str:
        return "hu"


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass:
    seat: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not Pass:
            return NotImplemented
        return self.seat == other.seat

    def __hash__(self) -> int:
        return hash((self.seat,))

    @property
    def act(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclareReady:
    """报听: lock the hand (draw and discard only) for the earthly-hand bonus."""

    seat: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not DeclareReady:
            return NotImplemented
        return self.seat == other.seat

    def __hash__(self) -> int:
        return hash((self.seat,))

    @property
    def act(self) -> str:
        return "ready"


@dataclass(frozen=True, slots=True, kw_only=True)
class Chow:
    """吃: claim the discard into a run with two of one's own tiles; ``tile`` is the run's lowest."""

    seat: int
    tile: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not Chow:
            return NotImplemented
        return self.seat == other.seat and self.tile == other.tile

    def __hash__(self) -> int:
        return hash((self.seat, self.tile))

    @property
    def act(self) -> str:
        return "chow"


@dataclass(frozen=True, slots=True, kw_only=True)
class Lay:
    """下痞子/下赖子 (Enshi): put a 痞子 or 赖子 face up beside one's melds, draw a replacement, go on."""

    seat: int
    tile: int

    def __eq__(self, other: object) -> bool:
        if type(other) is not Lay:
            return NotImplemented
        return self.seat == other.seat and self.tile == other.tile

    def __hash__(self) -> int:
        return hash((self.seat, self.tile))

    @property
    def act(self) -> str:
        return "lay"


Action = Discard | Pong | Kong | Win | Pass | DeclareReady | Chow | Lay

_SIMPLE: dict[str, type[Pong | Win | Pass | DeclareReady]] = {
    "pong": Pong,
    "hu": Win,
    "pass": Pass,
    "ready": DeclareReady,
}


_WITH_TILE: dict[str, type[Discard | Chow | Lay]] = {"discard": Discard, "chow": Chow, "lay": Lay}


def action_to_dict(action: Action) -> dict[str, Any]:
    """The record form of an action."""
    out: dict[str, Any] = {"seat": action.seat, "act": action.act}
    tile = getattr(action, "tile", None)
    if tile is not None:
        out["tile"] = format_tiles([tile])
    return out


def action_from_dict(data: Any) -> Action:
    """Read a record action; raises :class:`ActionParseError` with the reason."""
    if not isinstance(data, dict):
        raise ActionParseError(f"an action is an object, not {type(data).__name__}")
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
        raise ActionParseError(f"'seat' must be 0-3, not {seat!r}")
    act = data.get("act")
    extra = set(data) - {"seat", "act", "tile"}
    if extra:
        raise ActionParseError(f"unknown field(s) {', '.join(sorted(extra))}")
    tile = _tile(data.get("tile")) if "tile" in data else None
    if act in ("discard", "chow", "lay"):
        if tile is None:
            raise ActionParseError(f"{act!r} needs a 'tile'")
        return _WITH_TILE[act](seat=seat, tile=tile)
    if act == "kong":
        return Kong(seat=seat, tile=tile)
    simple = _SIMPLE.get(act) if isinstance(act, str) else None
    if simple is None:
        known = "discard, pong, kong, hu, pass, ready, chow, lay"
        raise ActionParseError(f"unknown act {act!r} (one of {known})")
    if tile is not None:
        raise ActionParseError(f"{act!r} takes no 'tile'")
    return simple(seat=seat)


def _tile(value: Any) -> int:
    if not isinstance(value, str):
        raise ActionParseError(f"'tile' is one tile in notation, like \"5p\", not {value!r}")
    try:
        tiles = parse_tiles(value)
    except ValueError as error:
        raise ActionParseError(f"'tile' {value!r}: {error}") from None
    if len(tiles) != 1 or tiles[0] >= NUM_KINDS:
        raise ActionParseError(f"'tile' must be one playable tile, not {value!r}")
    return tiles[0]
