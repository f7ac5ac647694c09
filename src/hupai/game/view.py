"""What one seat may see: its own tiles and the public table, nothing else.

``view(state, seat)`` is built from the state by copying only public facts and that seat's own
concealed tiles; ``view(state, None)`` is a spectator's. ``full_view`` opens every hand and is only
given for a finished hand (replays).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hupai.game.actions import Action, action_from_dict, action_to_dict
from hupai.game.engine import legal_actions
from hupai.game.events import Event, event_to_dict, redact, visible_to
from hupai.game.model import HandState, MeldKind, Phase, meld_tiles
from hupai.tiles import NUM_KINDS, format_tiles, parse_tiles

__all__ = [
    "PublicMeld",
    "PublicSeat",
    "SeatView",
    "event_position",
    "events_for",
    "full_view",
    "replay_view",
    "view",
    "view_message",
]


# The records of a view are built for every decision, so they spell out their __init__: the compiled
# build (hupai._native) compiles it, where the one dataclass writes would run interpreted.


@dataclass(frozen=True, slots=True)
class PublicMeld:
    kind: str
    tile: int | None  # None for a concealed kong kept face down
    feeder: int | None
    laizi_for: int | None = None  # a chow's kind a 赖子 stands for (Enshi's laizi_in_melds)
    laizi: int | None = None  # that 赖子, face up in the meld

    def __init__(
        self,
        kind: str,
        tile: int | None,
        feeder: int | None,
        laizi_for: int | None = None,
        laizi: int | None = None,
    ) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "feeder", feeder)
        object.__setattr__(self, "laizi_for", laizi_for)
        object.__setattr__(self, "laizi", laizi)

    def tiles(self) -> tuple[int, ...]:
        """The tiles that lie face up in the meld (none for a concealed kong kept face down), a 赖子
        in place of the kind it stands for."""
        if self.tile is None:
            return ()
        return meld_tiles(MeldKind(self.kind), self.tile, self.laizi_for, self.laizi)


@dataclass(frozen=True, slots=True)
class PublicSeat:
    concealed_count: int
    flowers: tuple[int, ...]
    melds: tuple[PublicMeld, ...]
    discards: tuple[int, ...]
    claimed: tuple[bool, ...]  # which discards were taken by a pong or kong
    ready: bool
    laid: tuple[int, ...] = ()  # 痞子/赖子 laid face up (Enshi)
    multiplier: int = 1  # the seat's own multiplier (Enshi 倍数)
    from_draw: tuple[bool, ...] = ()  # per discard: the kind just drawn was let go (摸切)
    order: tuple[int, ...] = ()  # per discard: its place among all the hand's discards (0, 1, …)

    def __init__(  # noqa: PLR0917 (the dataclass's own signature)
        self,
        concealed_count: int,
        flowers: tuple[int, ...],
        melds: tuple[PublicMeld, ...],
        discards: tuple[int, ...],
        claimed: tuple[bool, ...],
        ready: bool,
        laid: tuple[int, ...] = (),
        multiplier: int = 1,
        from_draw: tuple[bool, ...] = (),
        order: tuple[int, ...] = (),
    ) -> None:
        object.__setattr__(self, "concealed_count", concealed_count)
        object.__setattr__(self, "flowers", flowers)
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "discards", discards)
        object.__setattr__(self, "claimed", claimed)
        object.__setattr__(self, "ready", ready)
        object.__setattr__(self, "laid", laid)
        object.__setattr__(self, "multiplier", multiplier)
        object.__setattr__(self, "from_draw", from_draw)
        object.__setattr__(self, "order", order)


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int | None  # None: a spectator
    ruleset: str
    dealer: int
    multiplier: int
    phase: str
    turn: int
    live_tiles: int
    seats: tuple[PublicSeat, ...]
    hand: tuple[int, ...] | None  # this seat's concealed tiles, sorted (None for a spectator)
    drawn: int | None  # the tile this seat just drew
    open_tile: int | None  # the discard (or added kong) open to claims
    open_from: int | None
    legal: tuple[Action, ...]
    deltas: tuple[int, ...]
    outcome: str
    hands: tuple[tuple[int, ...], ...] | None = None  # every hand: full views of finished hands only
    options: Mapping[str, Any] = field(default_factory=dict)  # the rule card, public to everyone
    pizi: int | None = None  # the tile turned up after the deal (Enshi 痞子)
    laizi: int | None = None  # the wildcard it names (Enshi 赖子)

    def __init__(  # noqa: PLR0917 (the dataclass's own signature)
        self,
        seat: int | None,
        ruleset: str,
        dealer: int,
        multiplier: int,
        phase: str,
        turn: int,
        live_tiles: int,
        seats: tuple[PublicSeat, ...],
        hand: tuple[int, ...] | None,
        drawn: int | None,
        open_tile: int | None,
        open_from: int | None,
        legal: tuple[Action, ...],
        deltas: tuple[int, ...],
        outcome: str,
        hands: tuple[tuple[int, ...], ...] | None = None,
        options: Mapping[str, Any] | None = None,
        pizi: int | None = None,
        laizi: int | None = None,
    ) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "multiplier", multiplier)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "live_tiles", live_tiles)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "drawn", drawn)
        object.__setattr__(self, "open_tile", open_tile)
        object.__setattr__(self, "open_from", open_from)
        object.__setattr__(self, "legal", legal)
        object.__setattr__(self, "deltas", deltas)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "options", {} if options is None else options)
        object.__setattr__(self, "pizi", pizi)
        object.__setattr__(self, "laizi", laizi)

    def as_dict(self, *, seats: list[dict[str, Any]] | None = None, brief: bool = False) -> dict[str, Any]:
        """The view as JSON data. ``seats``: the public seats as dicts already built (see
        :func:`view_message`); ``brief``: without the rule card (``options``) and the legal actions
        (``legal``)."""
        # No nested helper here: compiled, each call's closure and its environment would form a
        # reference cycle, left for the garbage collector (two objects per view, per seat and move).
        shown: dict[str, Any] = {
            "seat": self.seat,
            "ruleset": self.ruleset,
            "dealer": self.dealer,
            "multiplier": self.multiplier,
            "phase": self.phase,
            "turn": self.turn,
            "live_tiles": self.live_tiles,
            "seats": [_seat_dict(public) for public in self.seats] if seats is None else seats,
            "hand": _tiles_or_none(self.hand),
            "drawn": None if self.drawn is None else format_tiles([self.drawn]),
            "open_tile": None if self.open_tile is None else format_tiles([self.open_tile]),
            "open_from": self.open_from,
            "deltas": list(self.deltas),
            "outcome": self.outcome,
            "hands": None if self.hands is None else [format_tiles(hand) for hand in self.hands],
            "pizi": None if self.pizi is None else format_tiles([self.pizi]),
            "laizi": None if self.laizi is None else format_tiles([self.laizi]),
        }
        if not brief:
            shown["legal"] = [action_to_dict(action) for action in self.legal]
            shown["options"] = dict(self.options)
        return shown

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, options: Mapping[str, Any] | None = None) -> SeatView:
        """The view :meth:`as_dict` wrote (a network client rebuilds what the server sent). Missing
        ``legal`` and ``options`` (the server sends them apart) are taken as empty / ``options``."""
        tile, tiles = _tile_read, _tiles_read  # (module functions: see as_dict)
        return cls(
            seat=data["seat"],
            ruleset=data["ruleset"],
            dealer=data["dealer"],
            multiplier=data["multiplier"],
            phase=data["phase"],
            turn=data["turn"],
            live_tiles=data["live_tiles"],
            seats=tuple(
                PublicSeat(
                    concealed_count=public["concealed_count"],
                    flowers=tuple(parse_tiles(public["flowers"])),
                    melds=tuple(
                        PublicMeld(
                            kind=meld["kind"],
                            tile=tile(meld["tile"]),
                            feeder=meld["from"],
                            laizi_for=tile(meld.get("laizi_for")),
                            laizi=tile(meld.get("laizi")),
                        )
                        for meld in public["melds"]
                    ),
                    discards=tuple(parse_tiles(public["discards"])),
                    claimed=tuple(public["claimed"]),
                    ready=public["ready"],
                    laid=tuple(parse_tiles(public.get("laid", ""))),
                    multiplier=public.get("multiplier", 1),
                    from_draw=tuple(public.get("from_draw", ())),
                    order=tuple(public.get("order", ())),
                )
                for public in data["seats"]
            ),
            hand=tiles(data["hand"]),
            drawn=tile(data["drawn"]),
            open_tile=tile(data["open_tile"]),
            open_from=data["open_from"],
            legal=tuple(action_from_dict(action) for action in data.get("legal", ())),
            deltas=tuple(data["deltas"]),
            outcome=data["outcome"],
            hands=None if data.get("hands") is None else tuple(tuple(parse_tiles(h)) for h in data["hands"]),
            options=dict(data.get("options") or options or {}),
            pizi=tile(data.get("pizi")),
            laizi=tile(data.get("laizi")),
        )


def _tile_read(value: str | None) -> int | None:
    return None if value is None else parse_tiles(value)[0]


def _tiles_read(value: str | None) -> tuple[int, ...] | None:
    return None if value is None else tuple(parse_tiles(value))


def _tiles_or_none(values: tuple[int, ...] | None) -> str | None:
    return None if values is None else format_tiles(values)


def _seat_dict(public: PublicSeat) -> dict[str, Any]:
    return {
        "concealed_count": public.concealed_count,
        "flowers": format_tiles(public.flowers),
        "melds": [_meld_dict(meld) for meld in public.melds],
        "discards": format_tiles(public.discards),
        # The public part's own tuples, not copies as lists: the same JSON, and three objects fewer
        # for every seat that changes (they live till its next change, and a server's young garbage
        # collections, which stall every table, scan what lives: docs/speed.md, step 14).
        "claimed": public.claimed,
        "ready": public.ready,
        "laid": format_tiles(public.laid),
        "multiplier": public.multiplier,
        "from_draw": public.from_draw,
        "order": public.order,
    }


def _meld_dict(meld: PublicMeld) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "kind": meld.kind,
        "tile": None if meld.tile is None else format_tiles([meld.tile]),
        "from": meld.feeder,
    }
    if meld.laizi_for is not None and meld.laizi is not None:  # only then: other melds read as before
        shown["laizi_for"] = format_tiles([meld.laizi_for])
        shown["laizi"] = format_tiles([meld.laizi])
    return shown


def _sorted_tiles(counts: list[int]) -> tuple[int, ...]:
    # A plain loop: as fast as any other way in pure Python, and three times faster compiled.
    tiles: list[int] = []
    for kind in range(NUM_KINDS):
        copies = counts[kind]
        while copies:
            tiles.append(kind)
            copies -= 1
    return tuple(tiles)


def _public_entry(state: HandState, seat: int, *, shown: bool) -> list[Any]:
    """``seat``'s public facts as cached: ``[signature, PublicSeat, its dict or None until asked
    for]``; ``shown``: whether its concealed kongs are shown face up."""
    player = state.seats[seat]
    melds = player.melds
    multiplier = state.ruleset.seat_multiplier(state, seat)
    # The engine only appends to these lists, flips a claimed discard to True and turns a pung into
    # a kong, so their lengths, the claims and the kongs tell whether anything changed since the
    # seat's public facts were last built: unchanged, they are shared by the views that follow.
    kongs = 0
    for meld in melds:
        if meld.kind is not MeldKind.PUNG and meld.kind is not MeldKind.CHOW:
            kongs += 1
    signature = (
        sum(player.counts),
        len(player.flowers),
        len(melds),
        kongs,
        len(player.discards),
        player.discard_claimed.count(True),
        player.ready,
        len(player.laid),
        multiplier,
    )
    key = (seat, shown)
    cached: list[Any] | None = state.view_cache.get(key)
    if cached is not None and cached[0] == signature:
        return cached
    public = PublicSeat(
        signature[0],
        tuple(player.flowers),
        tuple(
            PublicMeld(
                meld.kind._value_,  # not .value, which runs Python code on every access
                None if meld.kind is MeldKind.CONCEALED_KONG and not shown else meld.tile,
                meld.feeder,
                meld.laizi_for,
                meld.laizi,
            )
            for meld in melds
        )
        if melds
        else (),
        tuple(player.discards),
        tuple(player.discard_claimed),
        player.ready,
        tuple(player.laid),
        multiplier,
        tuple(player.discard_from_draw),
        tuple(player.discard_order),
    )
    entry: list[Any] = [signature, public, None]
    state.view_cache[key] = entry
    return entry


def _public_entries(state: HandState, viewer: int | None, *, everything: bool) -> list[list[Any]]:
    public_kongs = state.ruleset.concealed_kongs_public or everything
    return [
        _public_entry(state, seat, shown=public_kongs or seat == viewer) for seat in range(len(state.seats))
    ]


def _public_seats(state: HandState, viewer: int | None, *, everything: bool) -> tuple[PublicSeat, ...]:
    return tuple(entry[1] for entry in _public_entries(state, viewer, everything=everything))


def view(state: HandState, seat: int | None, *, legal: Sequence[Action] | None = None) -> SeatView:
    """What ``seat`` may see now (``None``: a spectator). Other seats' concealed tiles and the wall
    never appear; at the end of a hand the concealed hands are opened to everyone. ``legal``: the
    seat's legal actions now, when the caller has just listed them (they are listed otherwise)."""
    return _view(state, seat, legal, _public_seats(state, seat, everything=False))


def view_message(state: HandState, seat: int | None) -> dict[str, Any]:
    """``view(state, seat).as_dict(brief=True)``, as a table sends it to every seat after every move,
    built for that: without the legal actions, and each seat's public part is one dict shared by
    every view of the same facts (built once, not once per viewer and move). Shared: do not change
    what it returns, only replace it."""
    entries = _public_entries(state, seat, everything=False)
    seats: list[dict[str, Any]] = []
    for entry in entries:
        if entry[2] is None:
            entry[2] = _seat_dict(entry[1])
        seats.append(entry[2])
    seen = _view(state, seat, (), tuple(entry[1] for entry in entries))
    return seen.as_dict(seats=seats, brief=True)


def _view(
    state: HandState, seat: int | None, legal: Sequence[Action] | None, seats: tuple[PublicSeat, ...]
) -> SeatView:
    window = state.window
    phase = state.phase
    open_tile = window.tile if window is not None and phase is not Phase.DECLARE else None
    ended = phase is Phase.ENDED
    own = state.seats[seat] if seat is not None else None
    if seat is None:
        legal = ()
    elif legal is None:
        legal = legal_actions(state, seat)
    return SeatView(
        seat=seat,
        ruleset=state.ruleset.name,
        dealer=state.dealer,
        multiplier=state.multiplier,
        phase=phase._value_,  # not .value, which runs Python code on every access
        turn=state.turn,
        live_tiles=max(state.live_tiles, 0),
        seats=seats,
        hand=_sorted_tiles(own.counts) if own is not None else None,
        drawn=own.drawn if own is not None and state.turn == seat else None,
        open_tile=open_tile,
        open_from=window.discarder if open_tile is not None and window is not None else None,
        legal=tuple(legal),
        deltas=tuple(state.deltas()),
        outcome=state.outcome,
        hands=tuple(_sorted_tiles(player.counts) for player in state.seats) if ended else None,
        options=state.ruleset.options_dict(),
        pizi=state.pizi,
        laizi=state.laizi,
    )


def full_view(state: HandState) -> SeatView:
    """Every hand open: only for a finished hand (replays)."""
    if state.phase is not Phase.ENDED:
        raise ValueError("all hands are shown only once the hand is over")
    return replay_view(state)


def replay_view(state: HandState) -> SeatView:
    """Every hand open at any point of a hand: for replaying a hand that has finished (the caller
    checks that it has: a hand in play must never be shown this way)."""
    base = view(state, None)
    window = state.window
    open_tile = window.tile if window is not None and state.phase is not Phase.DECLARE else None
    return SeatView(
        seat=None,
        ruleset=base.ruleset,
        dealer=base.dealer,
        multiplier=base.multiplier,
        phase=base.phase,
        turn=base.turn,
        live_tiles=base.live_tiles,
        seats=_public_seats(state, None, everything=True),
        hand=None,
        drawn=state.seats[state.turn].drawn if state.phase is Phase.TURN else None,
        open_tile=open_tile,
        open_from=window.discarder if open_tile is not None and window is not None else None,
        legal=(),
        deltas=base.deltas,
        outcome=base.outcome,
        hands=tuple(_sorted_tiles(player.counts) for player in state.seats),
        options=base.options,
        pizi=base.pizi,
        laizi=base.laizi,
    )


def events_for(state: HandState, seat: int | None, *, start: int = 0) -> list[Event]:
    """The hand's events from ``start`` (an index into all of them) on, as ``seat`` may see them (None:
    a spectator). Events another seat may not see at all — a pass, which would tell who could have
    claimed — are left out, so a seat's own count of events differs from the hand's."""
    public = state.ruleset.concealed_kongs_public
    return [
        redact(event, seat, concealed_kongs_public=public)
        for event in state.events[start:]
        if visible_to(event, seat)
    ]


def event_position(state: HandState, seat: int | None, seen: int) -> tuple[int, int]:
    """Where ``seat``'s first ``seen`` events (as :func:`events_for` counts them) end among all the
    hand's events: (index into all of them, how many of ``seat``'s lie before it — ``seen``, or fewer
    when the hand has fewer)."""
    count = 0
    for index, event in enumerate(state.events):
        if count == seen:
            return index, count
        count += visible_to(event, seat)
    return len(state.events), count


def events_as_dicts(events: list[Event]) -> list[dict[str, Any]]:
    return [event_to_dict(event) for event in events]
