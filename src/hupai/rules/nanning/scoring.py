"""Scoring a Nanning win from its elements: one formula behind every line of seed 001's tables.

The hand gives a **unit** ``V = B × 2^k``: the base ``B`` is 3, or 4 for 门清 (a concealed kong keeps
it) and for seven pairs; each element doubles it once — 碰碰胡, 清一色 (字一色 included), 七小对, and
全求人 on a discard — and 七大对 with ``n`` fours of a kind doubles ``1 + n`` times.

The situation then says who pays what:

* self-drawn: each of the three pays ``V``; on the last tile (海底捞月) ``2V``; 天胡/地胡 ``2V`` at base 4;
* after kongs in a row (杠上花): ``2^n × V`` from each (all concealed), or ``2^n × 3V`` from the first player
  whose tile was konged;
* on a discard: ``3V / 2``, or a plain hand's 2 (4 when 门清); a 大炮 — right after the discarder's kong
  (杠上炮, ×2 for each further kong in a row), by a player with four melds (全求炮), after the last tile
  (海底炮), on the dealer's first discard (人胡, base 4) — is ``3V``; robbing a kong too, ×2 for each kong
  before it in the row.

``combine = "add"`` instead adds seed 004's per-element values (see docs/rules/nanning.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hupai.game.contract import ScoreItem, ScoreSheet, WinVerdict, share_of
from hupai.game.model import SEATS, HandState, Meld, MeldKind, WinContext, WinKind, next_seat
from hupai.game.refusal import NOT_COMPLETE, Refusal
from hupai.hand import Form, GroupKind, Reading, decompositions
from hupai.rules.nanning.items import item
from hupai.rules.nanning.options import NanningOptions

EACH_PAYS = frozenset({"self_drawn", "haidi", "tianhu", "dihu", "concealed_bloom"})
DISCARDER_PAYS = frozenset({"ron", "gangshangpao", "quanqiupao", "haidipao", "renhu", "robbed_kong"})
DAPAO = frozenset({"gangshangpao", "quanqiupao", "haidipao", "renhu", "robbed_kong"})

# Seed 004's per-element values (self-drawn each, on a discard), for combine = "add".
ADD_VALUES: dict[str, tuple[int, int]] = {
    "pengpenghu": (6, 9),
    "qingyise": (6, 9),
    "qixiaodui": (8, 12),
    "qidadui_1": (16, 24),
    "qidadui_2": (32, 48),
    "qidadui_3": (64, 96),
    "quanqiuren": (0, 9),  # S004 "全球人，放衝18 張" on top of its 碰碰胡 9
}


@dataclass(frozen=True, slots=True)
class Situation:
    name: str
    kongs: int = 0  # kongs in the row (杠上花, 杠上炮), or the robbed kong's place in its row
    feeder: int | None = None  # who pays a 明杠杠上花


def suit_of_kind(kind: int) -> int:
    return kind // 9 if kind < 27 else 3


def is_menqing(melds: Sequence[Meld]) -> bool:
    """门清: no pung and no exposed kong; a concealed kong keeps it (S004 "暗杠算门清", A-7)."""
    return all(meld.kind is MeldKind.CONCEALED_KONG for meld in melds)


def feeds(melds: Sequence[Meld], feeder: int, *, count_bugang: bool) -> int:
    """How many of these melds ``feeder`` gave (封胡 counts pungs and kongs on a discard, C-NN-15)."""
    total = 0
    for meld in melds:
        if meld.feeder == feeder and meld.kind is not MeldKind.CONCEALED_KONG:
            total += 2 if count_bugang and meld.kind is MeldKind.ADDED_KONG else 1
    return total


def sealer_of(state: HandState, seat: int, options: NanningOptions) -> int | None:
    """The player who has taken three melds from ``seat`` (封胡: ``seat`` may not win this hand)."""
    if not options.fenghu:
        return None
    for other, player in enumerate(state.seats):
        if other != seat and feeds(player.melds, seat, count_bugang=options.fenghu_count_bugang) >= 3:
            return other
    return None


def sealed_by(state: HandState, winner: int, options: NanningOptions) -> int | None:
    """The player the winner has taken three melds from, who pays for the win (封胡包牌)."""
    if not options.fenghu:
        return None
    melds = state.seats[winner].melds
    for other in range(SEATS):
        if other != winner and feeds(melds, other, count_bugang=options.fenghu_count_bugang) >= 3:
            return other
    return None


def _last_tile(state: HandState, context: WinContext, options: NanningOptions) -> bool:
    if options.haidi_window == "last_round":
        return context.live_tiles < SEATS
    return context.live_tiles == 0


def situation(state: HandState, context: WinContext, options: NanningOptions) -> Situation:
    kongs = [feeder for step, feeder in context.replacement_chain if step == "kong"]
    if context.kind is WinKind.ROBBED_KONG:
        return Situation("robbed_kong", kongs=len(kongs) + 1)
    if context.kind is WinKind.SELF_DRAWN:
        if kongs:
            exposed = [feeder for feeder in kongs if feeder is not None]
            if exposed:
                return Situation("exposed_bloom", kongs=len(kongs), feeder=exposed[0])
            return Situation("concealed_bloom", kongs=len(kongs))
        if context.first_turn:
            return Situation("tianhu")
        player = state.seats[context.seat]
        if context.seat != state.dealer and player.turns == 0 and state.claims_made == 0:
            return Situation("dihu")
        if _last_tile(state, context, options):
            return Situation("haidi")
        return Situation("self_drawn")
    assert context.discarder is not None
    if kongs:
        return Situation("gangshangpao", kongs=len(kongs))
    if len(state.seats[context.discarder].melds) == 4 and options.quanqiu_pao == "dapao":
        return Situation("quanqiupao")  # with "surcharge" it is an ordinary deal-in plus a fixed extra
    if _last_tile(state, context, options):
        return Situation("haidipao")
    if (
        options.renhu == "menqing_dapao"
        and context.discarder == state.dealer
        and state.discards_made == 1
        and state.claims_made == 0
    ):
        return Situation("renhu")
    return Situation("ron")


@dataclass(frozen=True, slots=True)
class _HandValue:
    menqing: bool
    seven: bool
    doublings: tuple[tuple[str, int], ...]  # (item key, factor)


def _hand_value(reading: Reading, counts: Sequence[int], melds: Sequence[Meld], ron: bool) -> _HandValue:
    seven = reading.form is Form.SEVEN_PAIRS
    doublings: list[tuple[str, int]] = []
    if seven:
        fours = min(sum(1 for count in counts if count == 4), 3)
        doublings.append((f"qidadui_{fours}", 2 ** (1 + fours)) if fours else ("qixiaodui", 2))
    elif all(group.kind is GroupKind.PUNG for group in reading.sets):
        doublings.append(("pengpenghu", 2))
    kinds = {kind for kind, count in enumerate(counts) if count} | {meld.tile for meld in melds}
    suits = {suit_of_kind(kind) for kind in kinds}
    if len(suits) == 1:
        doublings.append(("qingyise", 2))
    if ron and len(melds) == 4:
        doublings.append(("quanqiuren", 2))
    return _HandValue(menqing=is_menqing(melds), seven=seven, doublings=tuple(doublings))


def _multiply_items(value: _HandValue, where: Situation, options: NanningOptions) -> list[ScoreItem]:
    name = where.name
    forced_menqing = name in ("tianhu", "dihu", "renhu")
    menqing = value.menqing and not (name == "ron" and options.menqing_ron == "none")
    base_four = value.seven or menqing or forced_menqing
    items = [item("base_menqing", 4) if base_four else item("base_plain", 3)]
    items += [item(key, factor, multiply=True) for key, factor in value.doublings]
    if name == "ron" and not value.doublings:
        # A plain hand on a discard pays a flat 2, or 4 when concealed (S001 二; S004 3).
        points = options.chicken_ron_points
        if menqing:
            points = 3 if options.menqing_ron == "plus1" else 4
        return [item("chicken_ron_menqing" if menqing else "chicken_ron", points)]
    if name in ("tianhu", "dihu"):
        mode = options.tianhu if name == "tianhu" else options.dihu
        if mode == "each_fixed":
            return [item(f"{name}_fixed", options.tianhu_each if name == "tianhu" else options.dihu_each)]
        return [*items, item(name, 2, multiply=True)]
    if name == "concealed_bloom" and options.concealed_bloom == "fixed_each":
        fixed = [item("concealed_bloom_fixed", options.concealed_bloom_each)]
        if where.kongs > 1:
            fixed.append(item("chain", 2 ** (where.kongs - 1), count=where.kongs - 1, multiply=True))
        return fixed
    return items + _situation_items(where)


def _situation_items(where: Situation) -> list[ScoreItem]:
    name = where.name
    if name == "self_drawn":
        return [item("self_drawn", 1, multiply=True)]
    if name == "haidi":
        return [item("haidi", 2, multiply=True)]
    if name in ("exposed_bloom", "concealed_bloom"):
        bloom = [item("kong_bloom", 2**where.kongs, count=where.kongs, multiply=True)]
        return [*bloom, item("exposed_bloom", 3, multiply=True)] if name == "exposed_bloom" else bloom
    if name == "ron":
        return [item("ron", 3, multiply=True, divisor=2)]
    extra = (
        [item("chain", 2 ** (where.kongs - 1), count=where.kongs - 1, multiply=True)]
        if where.kongs > 1
        else []
    )
    return [item(name, 3, multiply=True), *extra]


def _add_items(value: _HandValue, where: Situation, options: NanningOptions) -> list[ScoreItem]:
    """Seed 004's additive reading: each element's own value, added (our reading, C-NN-3)."""
    name = where.name
    if name in ("tianhu", "dihu") and (options.tianhu if name == "tianhu" else options.dihu) == "each_fixed":
        return [item(f"{name}_fixed", options.tianhu_each if name == "tianhu" else options.dihu_each)]
    if name == "concealed_bloom" and options.concealed_bloom == "fixed_each":
        fixed = [item("concealed_bloom_fixed", options.concealed_bloom_each)]
        if where.kongs > 1:
            fixed.append(item("chain", 2 ** (where.kongs - 1), count=where.kongs - 1, multiply=True))
        return fixed
    on_discard = name in DISCARDER_PAYS
    menqing = value.menqing and not (on_discard and options.menqing_ron == "none")
    fans = [(key, ADD_VALUES[key][1 if on_discard else 0]) for key, _ in value.doublings]
    fans = [(key, points) for key, points in fans if points]
    items: list[ScoreItem] = [item(key, points) for key, points in fans]
    if not fans:
        if name == "ron":
            points = options.chicken_ron_points + (1 if menqing and options.menqing_ron != "none" else 0)
            return [item("chicken_ron_menqing" if menqing else "chicken_ron", points)]
        items.append(
            item("base_menqing", 4) if menqing or name in ("tianhu", "dihu") else item("base_plain", 3)
        )
    elif menqing and not value.seven:
        items.append(item("base_menqing", 4, multiply=True, divisor=3))
    if name in DAPAO:
        # S004: "槓上炮：放炮者付9分" for a plain hand, "9+9=18" for 对对胡 — nine on top of the elements.
        items = [item(name, 9)] + (
            [entry for entry in items if entry.key not in ("base_plain", "base_menqing")]
        )
        if where.kongs > 1:
            items.append(item("chain", 2 ** (where.kongs - 1), count=where.kongs - 1, multiply=True))
        return items
    if name == "haidi":
        return [
            item("haidi_add", 6),
            *(entry for entry in items if entry.key not in ("base_plain", "base_menqing")),
        ]
    if name in ("tianhu", "dihu"):
        return [*items, item(name, 2, multiply=True)]
    return items + [entry for entry in _situation_items(where) if entry.key != "ron"]


def score(state: HandState, context: WinContext, options: NanningOptions) -> WinVerdict:
    """Score a complete hand on its best reading, or say why it may not win."""
    sealer = sealer_of(state, context.seat, options)
    if sealer is not None:
        return WinVerdict(
            False,
            reason=Refusal(
                f"封胡: seat {sealer} has taken three sets from seat {context.seat}, "
                "who may not win this hand",
                "sealed",
                seat=sealer,
            ),
        )
    readings = decompositions(list(context.counts))
    if not readings:
        return WinVerdict(False, reason=NOT_COMPLETE)
    where = situation(state, context, options)
    melds = state.seats[context.seat].melds
    ron = context.kind is not WinKind.SELF_DRAWN
    best: ScoreSheet | None = None
    for reading in readings:
        value = _hand_value(reading, context.counts, melds, ron)
        # Seed 004: a plain hand wins on a discard only as a 大炮 or from a player with four melds.
        four_melds = context.discarder is not None and len(state.seats[context.discarder].melds) == 4
        if (
            options.chicken_ron == "tsumo_only"
            and where.name == "ron"
            and not value.doublings
            and not four_melds
        ):
            continue
        items = (_add_items if options.combine == "add" else _multiply_items)(value, where, options)
        items += _extra_items(state, context, where, options)
        sheet = ScoreSheet(
            seat=context.seat,
            items=tuple(items),
            share=share_of(items),
            reading=str(reading),
            big_hand=bool(value.doublings),
            notes=(where.name,),
        )
        if best is None or sheet.share > best.share:
            best = sheet
    if best is None:
        return WinVerdict(
            False,
            reason=Refusal(
                "鸡胡不可放炮: a plain hand may win on a discard only as a 大炮 (seed 004)",
                "chicken_on_discard",
            ),
        )
    if _total(best, where) < options.min_points:
        return WinVerdict(
            False,
            reason=Refusal(
                f"起胡 {options.min_points}: this win is worth only {_total(best, where)}",
                "below_min_points",
                need=options.min_points,
                worth=_total(best, where),
            ),
        )
    return WinVerdict(True, sheet=best)


def _total(sheet: ScoreSheet, where: Situation) -> int:
    return sheet.share * (3 if where.name in EACH_PAYS else 1)


# --- extras: 摸码, 买马, 钓鱼 -----------------------------------------------------------------------

HONOUR_COUNT = {27: 1, 28: 2, 29: 3, 30: 4, 33: 5, 32: 6, 31: 7}  # 东南西北中发白 (S004 釣魚)


def seat_of_code(tile: int, dealer: int) -> int:
    """The seat a code tile points at, counted from the dealer: 1/5/9/东/中 the dealer, 2/6/南/发 the next,
    3/7/西/白 the one opposite, 4/8/北 the one before (S000b 摸码, 钓鱼)."""
    honours = {27: 0, 28: 1, 29: 2, 30: 3, 33: 0, 32: 1, 31: 2}
    offset = (tile % 9) % 4 if tile < 27 else honours[tile]
    return next_seat(dealer, offset)


def extra_tiles(
    state: HandState, where: Situation, kind: WinKind, options: NanningOptions
) -> dict[str, list[int]]:
    """The code, horse and fish tiles of this win (empty where the option is off or does not apply)."""
    found: dict[str, list[int]] = {}
    remaining = state.wall[state.front : state.back + 1]
    if options.moma and kind is WinKind.SELF_DRAWN and where.name != "exposed_bloom":
        # "摸后面连着的两张牌": the tiles that follow the winning one — from the kong end after a
        # concealed-kong bloom (S000b), else from the front.
        from_back = where.name == "concealed_bloom"
        found["moma"] = list(reversed(remaining))[: options.moma] if from_back else remaining[: options.moma]
    if options.maima:
        found["maima"] = remaining[-options.maima :] if remaining else []
    if options.fishing == "s004_count" and kind is WinKind.SELF_DRAWN and state.previous_winner is not None:
        found["fishing"] = list(reversed(remaining[-3:]))  # "反方向取最後三張" (S004)
    if options.fishing == "s000_predraw":
        found["fishing"] = list(state.wall[len(state.wall) - state.ruleset.set_aside_tiles :])
    return found


def hits(state: HandState, seat: int, key: str, tiles: Sequence[int]) -> int:
    if key == "fishing" and state.ruleset.options.fishing == "s004_count":
        start = state.previous_winner if state.previous_winner is not None else state.dealer
        landing = [
            next_seat(start, (tile % 9 if tile < 27 else HONOUR_COUNT[tile] - 1) % SEATS) for tile in tiles
        ]
        return sum(1 for place in landing if place == seat)
    return sum(1 for tile in tiles if seat_of_code(tile, state.dealer) == seat)


def _extra_items(
    state: HandState, context: WinContext, where: Situation, options: NanningOptions
) -> list[ScoreItem]:
    out = []
    for key, tiles in extra_tiles(state, where, context.kind, options).items():
        landed = hits(state, context.seat, key, tiles)
        out.append(item(key, 1 + landed, count=landed, multiply=True))
    return out
