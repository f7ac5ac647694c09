"""Scoring a Nanjing win: every reading tried, each item explained, the best legal one kept.

One share = 20 (跑20) + 2 × (hard + soft flowers) (砸2) + the bonuses of the hand, then the
multipliers (大杠开 ×2 / 花杠开 ×4 where those options are on, 比下胡 ×2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hupai.game.contract import ScoreItem, ScoreSheet, WinVerdict, share_of
from hupai.game.model import HandState, Meld, MeldKind, WinContext, WinKind
from hupai.game.refusal import NOT_COMPLETE, Refusal
from hupai.hand import Form, GroupKind, Reading, WaitShape, decompositions, waits
from hupai.rules.nanjing.items import item
from hupai.rules.nanjing.options import NanjingOptions
from hupai.tiles import NUM_KINDS, format_tiles

WINDS = range(27, 31)
BIG_HAND_ITEMS = frozenset(
    {
        "luxury_qidui_1",
        "luxury_qidui_2",
        "luxury_qidui_3",
        "double_qidui",
        "fengyise",
        "qidui",
        "qingyise",
        "yajue",
        "quanqiu",
        "hunyise",
        "duiduihu",
        "tianhu",
        "dihu",
        "wuhuaguo",
    }
)
_SHAPE_ITEMS = (
    (WaitShape.MIDDLE, "closed_wait"),
    (WaitShape.EDGE, "edge_wait"),
    (WaitShape.PAIR, "pair_wait"),
)


def suit_of_kind(kind: int) -> int:
    """0, 1, 2 for the suits; 3 for honours."""
    return kind // 9 if kind < 27 else 3


def is_menqing(melds: Sequence[Meld], rule: str) -> bool:
    """门清 under the chosen reading of C-NJ-11."""
    if rule == "no_meld":
        return not melds
    if rule == "pung_restored_by_bugang":
        return all(meld.kind is not MeldKind.PUNG for meld in melds)
    return all(meld.kind in (MeldKind.EXPOSED_KONG, MeldKind.CONCEALED_KONG) for meld in melds)


def meld_soft_items(melds: Sequence[Meld], options: NanjingOptions) -> list[ScoreItem]:
    """Soft flowers from laid-down sets: wind pungs and kongs, suited kongs."""
    wind_pungs = wind_exposed = wind_concealed = exposed = concealed = 0
    for meld in melds:
        wind = meld.tile in WINDS
        if meld.kind is MeldKind.PUNG:
            wind_pungs += wind
        elif meld.kind is MeldKind.CONCEALED_KONG:
            if wind:
                wind_concealed += 1
            else:
                concealed += 1
        elif wind:
            wind_exposed += 1
        else:
            exposed += 1
    if not options.suit_kong_soft:
        exposed = concealed = 0
    return _counted(
        [
            ("wind_pung", wind_pungs, 1),
            ("wind_exposed_kong", wind_exposed, 2),
            ("wind_concealed_kong", wind_concealed, 3),
            ("exposed_kong_soft", exposed, 1),
            ("concealed_kong_soft", concealed, 2),
        ]
    )


def _counted(entries: Sequence[tuple[str, int, int]]) -> list[ScoreItem]:
    """Soft-flower items worth ``soft`` flowers each, ×2 (砸2)."""
    return [item(key, 2 * soft * count, count=count) for key, count, soft in entries if count]


@dataclass(frozen=True, slots=True)
class _Facts:
    """What holds for the win whatever the reading."""

    hard: int
    melds: tuple[Meld, ...]
    menqing: bool
    suits: frozenset[int]
    single_wait: bool
    yajue_tile: bool
    tianhu: bool
    dihu: bool
    bloom: str  # "", "small", "big", "flower"
    haidi: bool
    multiplier: int


def _facts(state: HandState, context: WinContext, options: NanjingOptions) -> _Facts:
    player = state.seats[context.seat]
    melds = tuple(player.melds)
    kinds = {kind for kind in range(NUM_KINDS) if context.counts[kind]} | {meld.tile for meld in melds}
    suits = frozenset(suit_of_kind(kind) for kind in kinds)
    single_wait = False
    if not context.first_turn and context.kind is not WinKind.INSTANT:
        before = list(context.counts)
        before[context.tile] -= 1
        single_wait = len(waits(before)) == 1
    return _Facts(
        hard=len(player.flowers),
        melds=melds,
        menqing=is_menqing(melds, options.menqing),
        suits=suits,
        single_wait=single_wait,
        yajue_tile=_last_copy(state, context, options),
        tianhu=context.first_turn,
        dihu=player.ready,
        bloom=_bloom(context),
        haidi=context.live_tiles < options.haidi_tiles,
        multiplier=state.multiplier,
    )


def _last_copy(state: HandState, context: WinContext, options: NanjingOptions) -> bool:
    """Whether the other three copies of the winning tile are out of play as 压绝 requires (C-NJ-12)."""
    tile = context.tile
    for seat, player in enumerate(state.seats):
        pung = any(meld.kind is MeldKind.PUNG and meld.tile == tile for meld in player.melds)
        if pung and ("own_pung" if seat == context.seat else "others_pung") in options.yajue_source:
            return True
    if "three_discarded" in options.yajue_source:
        discarded = sum(
            1
            for player in state.seats
            for tile_out, claimed in zip(player.discards, player.discard_claimed, strict=True)
            if tile_out == tile and not claimed
        )
        return discarded >= 3
    return False


def _bloom(context: WinContext) -> str:
    chain = context.replacement_chain
    if context.kind is not WinKind.SELF_DRAWN or not chain:
        return ""
    if any(step == "kong" for step, _ in chain):
        return "big"
    if any(step == "flower_kong" for step, _ in chain):
        return "flower"
    return "small"


def bloom_feeder(context: WinContext) -> int | None:
    """Who is liable for a 大杠开: the first player whose tile was konged in the chain (NJ-06)."""
    for step, feeder in context.replacement_chain:
        if step == "kong" and feeder is not None:
            return feeder
    return None


def score_natural(state: HandState, context: WinContext, options: NanjingOptions) -> WinVerdict:
    """Score a complete hand on its best legal reading, or say why it may not win."""
    readings = decompositions(list(context.counts))
    if not readings:
        return WinVerdict(False, reason=NOT_COMPLETE)
    facts = _facts(state, context, options)
    best: ScoreSheet | None = None
    for reading in readings:
        sheet = _score_reading(context, reading, facts, options)
        allowed = sheet.big_hand or facts.menqing or facts.hard >= options.small_hand_hard_flowers
        if allowed and (best is None or sheet.share > best.share):
            best = sheet
    if best is None:
        return WinVerdict(
            False,
            reason=Refusal(
                f"小胡需门清或{options.small_hand_hard_flowers}个硬花: a small hand needs 门清 or at least "
                f"{options.small_hand_hard_flowers} hard flowers (this one has {facts.hard})",
                "small_hand",
                need=options.small_hand_hard_flowers,
                have=facts.hard,
            ),
        )
    return WinVerdict(True, sheet=best)


def _score_reading(
    context: WinContext, reading: Reading, facts: _Facts, options: NanjingOptions
) -> ScoreSheet:
    seven_pairs = reading.form is Form.SEVEN_PAIRS
    bonuses: list[ScoreItem] = []
    if facts.tianhu and options.tianhu == "fixed_per_payer":
        return _sheet(context, reading, [item("tianhu", options.tianhu_bonus)], facts, options)
    quanqiu = len(facts.melds) == 4
    all_pungs = not seven_pairs and all(group.kind is GroupKind.PUNG for group in reading.sets)
    honours_only = facts.suits == frozenset({3})
    one_suit = len(facts.suits - {3}) == 1
    if one_suit and 3 in facts.suits:
        bonuses.append(item("hunyise", options.hunyise_bonus))
    elif one_suit:
        bonuses.append(item("qingyise", options.qingyise_bonus))
    elif honours_only:
        bonuses.append(item("fengyise", options.fengyise_bonus))
    if all_pungs and (not quanqiu or options.quanqiu_includes_duidui):
        bonuses.append(item("duiduihu", options.duiduihu_bonus))
    if quanqiu:
        bonuses.append(item("quanqiu", options.quanqiu_bonus))
    if seven_pairs:
        bonuses.append(_seven_pairs_item(context, options))
    # The wait: 压档 / 边枝 / 独占 (one soft flower, at most one of them), or 压绝 in their place.
    shape_key = ""
    if facts.single_wait and not seven_pairs and not quanqiu:
        shapes = reading.wait_shapes(context.tile)
        shape_key = next((key for shape, key in _SHAPE_ITEMS if shape in shapes), "")
        yajue_shapes = (
            {WaitShape.MIDDLE} if options.yajue_shapes == "kanchan" else {WaitShape.MIDDLE, WaitShape.EDGE}
        )
        if facts.yajue_tile and shapes & yajue_shapes:
            bonuses.append(item("yajue", options.yajue_bonus))
            shape_key = ""
    soft = meld_soft_items(facts.melds, options)
    concealed_wind_pungs = sum(1 for group in reading.sets if group.tile in WINDS)
    missing_suit = len(facts.suits - {3}) == 2
    wind_pair = options.wind_pair_soft and reading.pair is not None and reading.pair.tile in WINDS
    soft = _merge_wind_pungs(soft, concealed_wind_pungs)
    soft += _counted([(shape_key, 1, 1)] if shape_key else [])
    soft += _counted([("missing_suit", 1, 1)] if missing_suit else [])
    soft += _counted([("wind_pair", 1, 1)] if wind_pair else [])
    if (
        facts.menqing
        and not seven_pairs
        and not facts.tianhu
        and (not facts.dihu or options.dihu_adds_menqing)
    ):
        bonuses.append(item("menqing", options.menqing_bonus))
    if facts.tianhu:
        bonuses.append(item("tianhu", options.tianhu_bonus))
    if facts.dihu:
        bonuses.append(item("dihu", options.dihu_bonus))
    other_big = any(bonus.key in BIG_HAND_ITEMS for bonus in bonuses)
    if facts.hard == 0 and _wuhuaguo_allowed(facts, other_big, options):
        bonuses.append(item("wuhuaguo", options.wuhuaguo_bonus))
    bonuses += _bloom_items(facts, options)
    if facts.haidi:
        bonuses.append(item("haidi", options.haidi_bonus))
    hard = [item("hard_flowers", 2 * facts.hard, count=facts.hard)] if facts.hard else []
    return _sheet(context, reading, [item("base", options.base), *hard, *soft, *bonuses], facts, options)


def _merge_wind_pungs(soft: list[ScoreItem], concealed: int) -> list[ScoreItem]:
    """Add wind pungs held in hand to the wind pungs laid down, as one item."""
    if not concealed:
        return soft
    melded = next((entry for entry in soft if entry.key == "wind_pung"), None)
    total = concealed + (melded.count if melded else 0)
    rest = [entry for entry in soft if entry.key != "wind_pung"]
    return [item("wind_pung", 2 * total, count=total), *rest]


def _seven_pairs_item(context: WinContext, options: NanjingOptions) -> ScoreItem:
    fours = sum(1 for count in context.counts if count == 4)
    if options.luxury_qidui == "win_on_fourth":
        if context.counts[context.tile] == 4 and not context.first_turn:
            return item("double_qidui", options.luxury_qidui_bonus[0])
        return item("qidui", options.qidui_bonus)
    if fours:
        level = min(fours, 3)
        return item(f"luxury_qidui_{level}", options.luxury_qidui_bonus[level - 1])
    return item("qidui", options.qidui_bonus)


def _wuhuaguo_allowed(facts: _Facts, other_big: bool, options: NanjingOptions) -> bool:
    if options.wuhuaguo == "no_pung_only":
        return all(meld.kind not in (MeldKind.PUNG, MeldKind.ADDED_KONG) for meld in facts.melds)
    return facts.menqing or other_big


def _bloom_items(facts: _Facts, options: NanjingOptions) -> list[ScoreItem]:
    if facts.bloom == "small":
        return [item("small_kong_bloom", options.small_kong_bloom_bonus)]
    if facts.bloom == "big":
        if options.big_kong_bloom == "double":
            return [item("big_kong_bloom", 2, multiply=True)]
        return [item("big_kong_bloom", options.big_kong_bloom_bonus)]
    if facts.bloom == "flower":
        if options.flower_kong_bloom == "x4":
            return [item("flower_kong_bloom", 4, multiply=True)]
        return [item("flower_kong_bloom", options.flower_kong_bloom_bonus)]
    return []


def _sheet(
    context: WinContext,
    reading: Reading | str,
    items: list[ScoreItem],
    facts: _Facts,
    options: NanjingOptions,
) -> ScoreSheet:
    if facts.multiplier > 1:
        items.append(item("bixiahu", facts.multiplier, multiply=True))
    share = share_of(items)
    big = any(entry.key in BIG_HAND_ITEMS for entry in items)
    return ScoreSheet(seat=context.seat, items=tuple(items), share=share, reading=str(reading), big_hand=big)


# --- 快照 and 三清: the claim itself is the win ------------------------------------------------


def kuaizhao_feeder(melds: Sequence[Meld]) -> int | None:
    """The player liable for 快照: the first three melds were all claimed from that one player or were
    concealed kongs (which count as that player's), at least one claimed (S002 承包1, NJ-10, NJ-11)."""
    if len(melds) < 3:
        return None
    first_three = sorted(melds, key=lambda meld: meld.order)[:3]
    feeders = {meld.feeder for meld in first_three if meld.kind is not MeldKind.CONCEALED_KONG}
    if len(feeders) != 1:
        return None
    return feeders.pop()


def sanqing_suit(melds: Sequence[Meld]) -> int | None:
    """The suit of 三清: three or more melds, all of one suit (S000a, S002 承包3)."""
    if len(melds) < 3:
        return None
    suits = {suit_of_kind(meld.tile) for meld in melds}
    if len(suits) != 1:
        return None
    suit = suits.pop()
    return suit if suit < 3 else None


def sanqing_claim(counts: Sequence[int], melds: Sequence[Meld], tile: int, trigger: str) -> bool:
    suit = sanqing_suit(melds)
    if suit is None or suit_of_kind(tile) != suit:
        return False
    if counts[tile] >= 2:
        return True
    if trigger != "any_set_incl_sequence":
        return False
    rank = tile % 9
    neighbours = ((-2, -1), (-1, 1), (1, 2))
    return any(
        rank + low >= 0 and rank + high <= 8 and counts[tile + low] and counts[tile + high]
        for low, high in neighbours
    )


def score_instant(state: HandState, context: WinContext, options: NanjingOptions) -> WinVerdict:
    """A 快照 or 三清 win: valued on the four melds (the claimed tile making the fourth)."""
    player = state.seats[context.seat]
    facts = _facts(state, context, options)
    feeder = kuaizhao_feeder(player.melds)
    tile = context.tile
    claimed = Meld(MeldKind.PUNG, tile, context.discarder, len(player.melds))
    four = [*player.melds, claimed]
    suits = {suit_of_kind(meld.tile) for meld in four}
    sanqing = sanqing_claim(context.counts, player.melds, tile, options.sanqing_trigger)
    # A run completing 三清 (S002's reading) is worth 清一色 alone; a fourth pung is 对对胡 as well, and
    # 全球独钓 when it comes from the 快照 feeder or completes 三清 (S000a, S002, S003a).
    run_claim = sanqing and context.counts[tile] < 2
    items = [item("base", options.base)]
    if facts.hard:
        items.append(item("hard_flowers", 2 * facts.hard, count=facts.hard))
    items += meld_soft_items(player.melds if run_claim else four, options)
    if not run_claim:
        items.append(item("duiduihu", options.duiduihu_bonus))
        same_feeder = feeder is not None and context.discarder == feeder
        if sanqing or same_feeder or options.kuaizhao_other_feeder == "duidui_plus_quanqiu":
            items.append(item("quanqiu", options.quanqiu_bonus))
    if len(suits - {3}) == 1:
        half = 3 in suits
        items.append(
            item("hunyise", options.hunyise_bonus) if half else item("qingyise", options.qingyise_bonus)
        )
    # The claimed pung opens the hand for 无花果's stricter reading.
    claimed_pung = not run_claim and options.wuhuaguo == "no_pung_only"
    if facts.hard == 0 and not claimed_pung and _wuhuaguo_allowed(facts, True, options):
        items.append(item("wuhuaguo", options.wuhuaguo_bonus))
    # 海底捞 goes by when the win comes (S002: in the last 2 stacks), so a claim-win there has it too.
    if facts.haidi:
        items.append(item("haidi", options.haidi_bonus))
    label = "三清" if sanqing and feeder is None else "快照"
    shown = [format_tiles([meld.tile] * (4 if meld.kind.is_kong else 3)) for meld in player.melds]
    shown.append(format_tiles([tile]) + "(claimed)")
    return WinVerdict(True, sheet=_sheet(context, f"{label}: {' '.join(shown)}", items, facts, options))
