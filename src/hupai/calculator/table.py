"""The table the engine would hold at the moment of a described win: seats, melds, wall and the
:class:`~hupai.game.model.WinContext`, so that the rule set scores it exactly as in play."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from hupai.calculator.spec import (
    DEFAULT_TILES_LEFT,
    HAND_TILES,
    MeldSpec,
    SpecError,
    WinHow,
    WinSpec,
    tile_code,
    tile_shown,
)
from hupai.game.actions import Action, Pass, Win
from hupai.game.contract import RuleSet
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
from hupai.tiles import NUM_KINDS


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


def build_table(spec: WinSpec, ruleset: RuleSet, *, trusted: bool) -> tuple[HandState, list[int]]:
    """A HandState at the moment of the win, and the winner's concealed counts before the winning tile."""
    others = _others_melds(spec)
    counts = [0] * NUM_KINDS
    for held in spec.hand:
        counts[held] += 1
    full = Counter(ruleset.tile_set())
    laizi = ruleset.wild_of(spec.pizi) if spec.pizi is not None and ruleset.indicator is not None else None
    used = _used(spec, others, laizi)
    if not trusted:
        _check_copies(used, full, ruleset.name)
    seats = _seats(spec, counts, others, laizi)
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


def _used(spec: WinSpec, others: Mapping[int, Sequence[MeldSpec]], laizi: int | None) -> Counter[int]:
    """The tiles the description shows (the extras apart: they are placed in the wall later); a 赖子
    standing in a chow is a 赖子 used."""
    used: Counter[int] = Counter(spec.hand)
    used[spec.win_tile] += 1
    used.update(spec.flowers)
    used.update(spec.discarded)
    if spec.pizi is not None:
        used[spec.pizi] += 1  # turned up after the deal, out of play
    for tiles in spec.laid.values():
        used.update(tiles)
    for meld in [*spec.melds, *(meld for melds in others.values() for meld in melds)]:
        used.update(meld.tiles(laizi))
    return used


def _check_copies(used: Counter[int], full: Counter[int], name: str) -> None:
    for kind, count in sorted(used.items()):
        if count > full[kind]:
            raise SpecError(
                f"{tile_shown(kind)} is used {count} times (hand, winning tile, melds, flowers, discards, "
                f"tiles laid, the turned-up 痞子 and code/horse/fish tiles together); a {name} set has "
                f"only {full[kind]}",
                field=None,
                code="copies",
                tile=tile_code(kind),
                count=count,
                most=full[kind],
            )


def _meld(meld: MeldSpec, order: int, laizi: int | None) -> Meld:
    wild = laizi if meld.laizi_for is not None else None
    return Meld(meld.kind, meld.tile, meld.feeder, order, laizi_for=meld.laizi_for, laizi=wild)


def _seats(
    spec: WinSpec, counts: Sequence[int], others: Mapping[int, Sequence[MeldSpec]], laizi: int | None
) -> list[SeatState]:
    """The four seats as the win finds them (the other seats' concealed tiles come later)."""
    seat, tile, how = spec.seat, spec.win_tile, spec.how
    seats = [SeatState() for _ in range(SEATS)]
    winner = seats[seat]
    winner.counts = list(counts)
    winner.melds = [_meld(meld, index, laizi) for index, meld in enumerate(spec.melds)]
    winner.flowers = list(spec.flowers)
    winner.ready = spec.ready
    if how.self_drawn:
        winner.counts[tile] += 1
        winner.drawn = None if _tianhu(spec) else tile
    for other, melds in others.items():
        seats[other].melds = [_meld(meld, index, laizi) for index, meld in enumerate(melds)]
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
        context = win_context(spec, state, counts, kind)
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


def win_context(spec: WinSpec, state: HandState, counts: Sequence[int], kind: WinKind) -> WinContext:
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
