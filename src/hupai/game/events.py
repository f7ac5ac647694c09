"""What happened at the table: frozen event objects with past-tense names.

Events carry every detail; :func:`redact` blanks what a given seat may not see (another seat's
dealt or drawn tiles) and :func:`visible_to` drops what it may not know of at all (another seat's
pass) before anything leaves the core. ``None`` in a tile field means hidden. Each class gives its
``name`` by a property, not a class attribute: in the compiled build (:mod:`hupai._native`) a
dataclass's class attribute would become one of its fields. The events of every turn spell out their
``__init__``, which that build compiles (the one dataclass writes runs interpreted).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hupai.game.contract import Transfer
from hupai.tiles import format_tiles

__all__ = [
    "Chowed",
    "ConcealedKongDeclared",
    "Event",
    "FlowerRevealed",
    "HandEnded",
    "HandStarted",
    "KongAdded",
    "KongClaimed",
    "KongRobbed",
    "Passed",
    "PaymentMade",
    "PiziRevealed",
    "Ponged",
    "ReadyDeclared",
    "TileDiscarded",
    "TileDrawn",
    "TileLaid",
    "TilesDealt",
    "Won",
    "event_to_dict",
    "redact",
    "visible_to",
]


@dataclass(frozen=True, slots=True)
class HandStarted:
    dealer: int
    multiplier: int
    wall_size: int

    @property
    def name(self) -> str:
        return "hand_started"


@dataclass(frozen=True, slots=True)
class TilesDealt:
    seat: int
    tiles: tuple[int, ...] | None  # None when hidden from the viewer
    count: int

    @property
    def name(self) -> str:
        return "tiles_dealt"


@dataclass(frozen=True, slots=True)
class FlowerRevealed:
    """A flower shown and replaced from the back (补花)."""

    seat: int
    flower: int

    def __init__(self, seat: int, flower: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "flower", flower)

    @property
    def name(self) -> str:
        return "flower_revealed"


@dataclass(frozen=True, slots=True)
class TileDrawn:
    seat: int
    tile: int | None  # None when hidden from the viewer
    replacement: bool  # from the back of the wall (after a flower or a kong)

    def __init__(self, seat: int, tile: int | None, replacement: bool) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "replacement", replacement)

    @property
    def name(self) -> str:
        return "tile_drawn"


@dataclass(frozen=True, slots=True)
class TileDiscarded:
    seat: int
    tile: int

    def __init__(self, seat: int, tile: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)

    @property
    def name(self) -> str:
        return "tile_discarded"


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int

    def __init__(self, seat: int) -> None:
        object.__setattr__(self, "seat", seat)

    @property
    def name(self) -> str:
        return "passed"


@dataclass(frozen=True, slots=True)
class Ponged:
    seat: int
    tile: int
    feeder: int

    @property
    def name(self) -> str:
        return "ponged"


@dataclass(frozen=True, slots=True)
class Chowed:
    """A discard claimed into a run (吃); ``tile`` is the run's lowest, ``claimed`` the discard. Where a
    赖子 stood in for one of the hand's two tiles (Enshi's ``laizi_in_melds``), ``laizi_for`` is the
    run's kind it stands for and ``laizi`` the 赖子 that lies in the meld, seen by everyone."""

    seat: int
    tile: int
    claimed: int
    feeder: int
    laizi_for: int | None = None
    laizi: int | None = None

    @property
    def name(self) -> str:
        return "chowed"


@dataclass(frozen=True, slots=True)
class PiziRevealed:
    """The tile turned up after the deal (Enshi 痞子) and the wildcard it names (赖子); public."""

    pizi: int
    laizi: int

    @property
    def name(self) -> str:
        return "pizi_revealed"


@dataclass(frozen=True, slots=True)
class TileLaid:
    """A 痞子 or 赖子 laid face up out of the hand (Enshi 下痞子/下赖子); a replacement draw follows.
    ``multiplier`` is the seat's multiplier after it."""

    seat: int
    tile: int
    kind: str  # "pizi" or "laizi"
    multiplier: int

    def __init__(self, seat: int, tile: int, kind: str, multiplier: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "multiplier", multiplier)

    @property
    def name(self) -> str:
        return "tile_laid"


@dataclass(frozen=True, slots=True)
class KongClaimed:
    """A kong on a discard (直杠)."""

    seat: int
    tile: int
    feeder: int

    @property
    def name(self) -> str:
        return "kong_claimed"


@dataclass(frozen=True, slots=True)
class KongAdded:
    """The fourth tile added to one's own pung (补杠); completed only if nobody robs it."""

    seat: int
    tile: int
    completed: bool

    @property
    def name(self) -> str:
        return "kong_added"


@dataclass(frozen=True, slots=True)
class ConcealedKongDeclared:
    seat: int
    tile: int | None  # hidden from others where concealed kongs stay face down

    @property
    def name(self) -> str:
        return "concealed_kong_declared"


@dataclass(frozen=True, slots=True)
class KongRobbed:
    seat: int  # the robbed player
    tile: int

    @property
    def name(self) -> str:
        return "kong_robbed"


@dataclass(frozen=True, slots=True)
class ReadyDeclared:
    seat: int

    @property
    def name(self) -> str:
        return "ready_declared"


@dataclass(frozen=True, slots=True)
class PaymentMade:
    """Money paid during the hand (a kong's or a flower kong's): the rule set's transfer itself, sent
    to clients with its fields at the top level like any event's."""

    transfer: Transfer

    @property
    def name(self) -> str:
        return "payment_made"


@dataclass(frozen=True, slots=True)
class Won:
    seat: int
    tile: int
    how: str  # "self_drawn", "discard", "robbed_kong", "instant"
    discarder: int | None
    share: int
    items: tuple[dict[str, Any], ...]
    hand: tuple[int, ...]  # the winner's concealed tiles, shown to everyone

    @property
    def name(self) -> str:
        return "won"


@dataclass(frozen=True, slots=True)
class HandEnded:
    outcome: str  # "win", "draw" or "abandoned"
    winners: tuple[int, ...]
    deltas: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...] | None  # every concealed hand, opened at the end

    @property
    def name(self) -> str:
        return "hand_ended"


Event = (
    HandStarted
    | TilesDealt
    | FlowerRevealed
    | TileDrawn
    | TileDiscarded
    | Passed
    | Ponged
    | Chowed
    | PiziRevealed
    | TileLaid
    | KongClaimed
    | KongAdded
    | ConcealedKongDeclared
    | KongRobbed
    | ReadyDeclared
    | PaymentMade
    | Won
    | HandEnded
)


def redact(event: Event, viewer: int | None, *, concealed_kongs_public: bool = True) -> Event:
    """The event as ``viewer`` may see it (None: a spectator, who sees only public facts)."""
    # Built directly rather than by dataclasses.replace, which reads the class's fields on every call:
    # a table redacts every draw for three seats.
    if isinstance(event, TileDrawn) and event.seat != viewer:
        return TileDrawn(event.seat, None, event.replacement)
    if isinstance(event, TilesDealt) and event.seat != viewer:
        return TilesDealt(event.seat, None, event.count)
    if isinstance(event, ConcealedKongDeclared) and event.seat != viewer and not concealed_kongs_public:
        return ConcealedKongDeclared(event.seat, None)
    return event


def visible_to(event: Event, viewer: int | None) -> bool:
    """Whether ``viewer`` (None: a spectator) may know the event happened at all: a pass is its own
    seat's business — seeing others pass would tell who could have claimed the tile."""
    return not isinstance(event, Passed) or event.seat == viewer


def event_to_dict(event: Event) -> dict[str, Any]:
    """JSON-ready form: tiles in notation, other fields as they are."""
    out: dict[str, Any] = {"event": event.name}
    for key in event.__dataclass_fields__:
        value = getattr(event, key)
        if key in ("tile", "flower", "claimed", "pizi", "laizi", "laizi_for") and isinstance(value, int):
            value = format_tiles([value])
        elif key in ("tiles", "hand") and value is not None:
            value = format_tiles(value)
        elif key == "hands" and value is not None:
            value = [format_tiles(hand) for hand in value]
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Transfer):
            out.update((field, getattr(value, field)) for field in value.__dataclass_fields__)
            continue
        out[key] = value
    return out
