"""Refusing descriptions that cannot happen, with a message a player understands: seats, tile counts,
melds and who fed them, wildcards, and how the win came under each rule set."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hupai.calculator.spec import (
    HAND_TILES,
    MAX_MELDS,
    MeldSpec,
    SpecError,
    WinHow,
    WinSpec,
    field_of,
    seat_ok,
    tile_code,
    tile_shown,
)
from hupai.game.contract import RuleSet
from hupai.game.model import (
    MeldKind,
)
from hupai.tiles import NUM_KINDS, format_tiles


def validate(spec: WinSpec, ruleset: RuleSet) -> None:
    """Refuse descriptions that cannot happen, with a message a player understands."""
    name = ruleset.name
    for label, value in (("seat", spec.seat), ("dealer", spec.dealer)):
        if not seat_ok(value):
            raise ValueError(f"{label} is a seat 0-3, not {value!r}")
    seat = spec.seat
    for label, optional in (("from", spec.from_seat), ("previous_winner", spec.previous_winner)):
        if optional is not None and not seat_ok(optional):
            raise ValueError(f"{label} is a seat 0-3, not {optional!r}")
    in_set = set(ruleset.tile_set())
    has_flowers = any(ruleset.is_flower(tile) for tile in in_set)

    def playable(label: str, tiles: Sequence[int]) -> None:
        for tile in tiles:
            if not isinstance(tile, int) or not 0 <= tile < NUM_KINDS + 8 or tile not in in_set:
                raise SpecError(
                    f"{label}: {tile_shown(tile)} is not a tile of {name} mahjong",
                    field=field_of(label),
                    code="not_in_rules",
                    tile=tile_code(tile),
                )
            if ruleset.is_flower(tile):
                raise SpecError(
                    f"{label}: {tile_shown(tile)} is a flower in {name} mahjong; list it under flowers",
                    field=field_of(label),
                    code="flower_elsewhere",
                    tile=tile_code(tile),
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
                f"flowers: {name} mahjong has no flowers ({tile_shown(tile)} given)",
                field="flowers",
                code="no_flowers",
            )
        if not isinstance(tile, int) or tile not in in_set or not ruleset.is_flower(tile):
            raise SpecError(
                f"flowers: {tile_shown(tile)} is not a flower in {name} mahjong",
                field="flowers",
                code="not_a_flower",
                tile=tile_code(tile),
            )
    if len(spec.melds) > MAX_MELDS:
        raise ValueError(f"melds: a hand has at most {MAX_MELDS} melds, not {len(spec.melds)}")
    _check_melds("melds", spec.melds, seat, playable, chow=ruleset.chow)
    for other, melds in spec.others_melds.items():
        if not seat_ok(other) or other == seat:
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
                    f"{label}: a chow is named by its lowest tile, 1-7 of a suit, not {tile_shown(meld.tile)}"
                )
        playable(label, list(meld.kind.tiles(meld.tile)))
        if meld.laizi_for is not None:
            if meld.kind is not MeldKind.CHOW:
                raise ValueError(
                    f"{label}: only a chow may hold a 赖子 (laizi_for); a {meld.kind.value} is made of "
                    "natural tiles"
                )
            if meld.laizi_for not in meld.kind.tiles(meld.tile):
                raise ValueError(
                    f"{label}: laizi_for names a tile of the chow's run "
                    f"({format_tiles(meld.kind.tiles(meld.tile))}), not {tile_shown(meld.laizi_for)}"
                )
        if meld.kind is MeldKind.CONCEALED_KONG:
            if meld.feeder is not None:
                raise ValueError(
                    f"{label}: a concealed kong of {tile_shown(meld.tile)} has no feeder ('from')"
                )
        elif not seat_ok(meld.feeder) or meld.feeder == owner:
            raise SpecError(
                f"{label}: the {meld.kind.value} of {tile_shown(meld.tile)} needs 'from', the seat that "
                f"discarded it (0-3, not seat {owner} itself), not {meld.feeder!r}",
                field=field_of(label),
                code="meld_from",
                tile=tile_code(meld.tile),
            )


def _check_wild(spec: WinSpec, ruleset: RuleSet, playable: Callable[[str, Sequence[int]], None]) -> None:
    """The turned-up 痞子 and the tiles laid (Enshi): given exactly where the rules have them."""
    name = ruleset.name
    melds = [*spec.melds, *(meld for melds in spec.others_melds.values() for meld in melds)]
    wild_melds = [meld for meld in melds if meld.laizi_for is not None]
    if wild_melds and not (
        ruleset.indicator is not None and getattr(ruleset.options, "laizi_in_melds", False)
    ):
        why = (
            f"{name} mahjong has no 赖子"
            if ruleset.indicator is None
            else "a 赖子 stands in a chow only with the option laizi_in_melds"
        )
        raise ValueError(
            f"melds: a 赖子 stands in the chow of {tile_shown(wild_melds[0].tile)} (laizi_for), but {why}"
        )
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
    special = f"the 痞子 {tile_shown(pizi)} and the 赖子 {tile_shown(laizi)}"
    for other, tiles in spec.laid.items():
        if not seat_ok(other):
            raise ValueError(f"laid: {other!r} is not a seat 0-3")
        playable(f"laid by seat {other}", tiles)
        for laid in tiles:
            if laid not in (pizi, laizi):
                raise ValueError(f"laid: seat {other} laid {tile_shown(laid)}; only {special} are laid")
    for meld in melds:
        # The run's other kinds are natural tiles; a 赖子 may stand in for one (laizi_for), whatever
        # kind that is (the 痞子's, or the 赖子's own face).
        natural = list(meld.kind.tiles(meld.tile))
        if meld.laizi_for is not None:
            natural.remove(meld.laizi_for)
        if pizi in natural or laizi in natural:
            may = getattr(ruleset.options, "laizi_in_melds", False) and meld.kind is MeldKind.CHOW
            raise ValueError(
                f"melds: the {meld.kind.value} of {tile_shown(meld.tile)} holds a 痞子 or 赖子; a chow, pung "
                f"or kong is made of natural tiles ({special} are laid, never claimed or konged)"
                + (
                    "; one 赖子 may stand in a chow for a tile it lacks: name that tile with laizi_for"
                    if may
                    else ""
                )
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
        if feeder is not None and not seat_ok(feeder):
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
                f"seat {spec.from_seat} already has a kong of {tile_shown(spec.win_tile)}: nothing to rob"
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
