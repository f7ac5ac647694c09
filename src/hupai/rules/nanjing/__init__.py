"""南京麻将 (Nanjing mahjong): 144 tiles, hard and soft flowers, 跑20 砸2, liability and 比下胡.

The rules in words, with the seed each comes from and every option: ``docs/rules/nanjing.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from hupai.game.contract import HandOutcome, RuleSet, ScoreSheet, Transfer, WinVerdict
from hupai.game.model import SEATS, HandState, MeldKind, WinContext, WinKind, next_seat
from hupai.hand import waits
from hupai.rules.nanjing.items import LIABILITY_REASONS, transfer
from hupai.rules.nanjing.options import NanjingOptions
from hupai.rules.nanjing.scoring import (
    bloom_feeder,
    kuaizhao_feeder,
    sanqing_claim,
    score_instant,
    score_natural,
)

__all__ = ["NanjingOptions", "NanjingRuleSet"]

DRAGONS = (31, 32, 33)  # 白板 发财 红中: flowers (硬花) in Nanjing
SEASONS = (34, 35, 36, 37)  # 春夏秋冬
PLANTS = (38, 39, 40, 41)  # 梅兰竹菊
FLOWER_TILES = frozenset((*DRAGONS, *SEASONS, *PLANTS))


class NanjingRuleSet(RuleSet):
    name: ClassVar[str] = "nanjing"
    zh: ClassVar[str] = "南京麻将"
    en: ClassVar[str] = "Nanjing mahjong"
    options_class: ClassVar[type[NanjingOptions]] = NanjingOptions
    options: NanjingOptions
    ready_declaration = True
    concealed_kongs_public = True  # S002: "碰杠牌亮出牌面（暗杠也亮）"

    def __init__(self, options: NanjingOptions, preset: str) -> None:
        super().__init__(options, preset)
        self.multi_ron = options.multi_ron
        self.pass_win_restriction = options.pass_win_restriction
        self.pass_pung_restriction = options.pass_pung_restriction

    # --- tiles ------------------------------------------------------------------------------

    def tile_set(self) -> list[int]:
        """144 tiles: 4 of each suited tile, wind and dragon, and the eight seasons and plants."""
        return [kind for kind in range(34) for _ in range(4)] + [*SEASONS, *PLANTS]

    def is_flower(self, tile: int) -> bool:
        return tile in FLOWER_TILES

    @property
    def reserved_tiles(self) -> int:
        return self.options.reserved_tiles

    def flower_kongs(self, flowers: Sequence[int]) -> list[tuple[int, ...]]:
        """花杠: four of one dragon, 春夏秋冬, or 梅兰竹菊."""
        held = set(flowers)
        found: list[tuple[int, ...]] = [(dragon,) * 4 for dragon in DRAGONS if flowers.count(dragon) == 4]
        found.extend(group for group in (SEASONS, PLANTS) if held.issuperset(group))
        return found

    def ready_kong_allowed(self, state: HandState, seat: int, tile: int) -> bool:
        """A-14: with ``dihu_allow_kong_same_waits`` a ready seat may kong if its waits stay the same."""
        if not self.options.dihu_allow_kong_same_waits:
            return False
        player = state.seats[seat]
        if player.drawn is None:
            return False
        before = list(player.counts)
        before[player.drawn] -= 1
        after = list(player.counts)
        after[tile] -= 4 if player.counts[tile] == 4 else 1
        return waits(before) == waits(after)

    def ready_kong_refusal(self, state: HandState, seat: int, tile: int) -> str:
        if not self.options.dihu_allow_kong_same_waits:
            return "after 报听 the hand is locked: no kong (option dihu_allow_kong_same_waits is off)"
        return "after 报听 the hand is locked: no kong that changes the waits (dihu_allow_kong_same_waits)"

    # --- money during play (现场汇) -------------------------------------------------------

    def _money(self, state: HandState, amount: int) -> int:
        return amount * (2 if self.options.kong_money_zar2 else 1) * state.multiplier

    def kong_transfers(self, state: HandState, seat: int, meld_index: int) -> list[Transfer]:
        meld = state.seats[seat].melds[meld_index]
        if meld.kind is MeldKind.CONCEALED_KONG:
            amount = self._money(state, self.options.concealed_kong_money)
            return [transfer(other, seat, amount, "concealed_kong") for other in _others(seat)]
        assert meld.feeder is not None
        return [
            transfer(meld.feeder, seat, self._money(state, self.options.exposed_kong_money), "exposed_kong")
        ]

    def flower_kong_transfers(self, state: HandState, seat: int, flowers: Sequence[int]) -> list[Transfer]:
        amount = self._money(state, self.options.flower_kong_money)
        return [transfer(other, seat, amount, "flower_kong") for other in _others(seat)]

    def discard_transfers(self, state: HandState, seat: int, tile: int) -> list[Transfer]:
        """罚: four players in a row discard the same tile (the first pays), or one player discards all
        four copies. Penalties are not doubled by 砸2 but are by 比下胡."""
        amount = self.options.penalty_each * state.multiplier
        found: list[Transfer] = []
        chain = state.follow_chain
        if chain is not None and chain[2] == SEATS:
            first = chain[1]
            in_scope = self.options.follow_penalty_scope == "any_time" or (
                first == state.dealer and state.discards_made == SEATS and state.claims_made == 0
            )
            if in_scope:
                found += [transfer(first, other, amount, "penalty_follow") for other in _others(first)]
        if state.seats[seat].discarded_kinds[tile] == 4:
            found += [transfer(seat, other, amount, "penalty_four") for other in _others(seat)]
        return found

    # --- wins --------------------------------------------------------------------------------

    def may_win_on_claim(self, state: HandState, seat: int) -> bool:
        return len(state.seats[seat].melds) >= 3  # 快照 and 三清 both need three melds first

    def instant_win_on_claim(self, state: HandState, seat: int, tile: int) -> bool:
        player = state.seats[seat]
        if player.counts[tile] >= 2 and kuaizhao_feeder(player.melds) is not None:
            return True
        return sanqing_claim(player.counts, player.melds, tile, self.options.sanqing_trigger)

    def judge_win(self, state: HandState, context: WinContext) -> WinVerdict:
        if context.kind is WinKind.INSTANT:
            return score_instant(state, context, self.options)
        return score_natural(state, context, self.options)

    def win_transfers(self, state: HandState, context: WinContext, sheet: ScoreSheet) -> list[Transfer]:
        seat, share = context.seat, sheet.share
        liable = kuaizhao_feeder(state.seats[seat].melds)
        robbed = context.kind is WinKind.ROBBED_KONG
        if robbed and not (liable is not None and self.options.kuaizhao_overrides_robkong):
            assert context.discarder is not None
            return [transfer(context.discarder, seat, 3 * share, "robbed_kong")]
        if liable is not None and liable != seat:
            shares = (
                3
                if context.kind is WinKind.SELF_DRAWN or self.options.liability_on_ron == "three_shares"
                else 1
            )
            if context.kind is not WinKind.SELF_DRAWN and self.options.kuaizhao_ron_value == "pengpeng_only":
                share = _pengpeng_value(sheet, self.options)
            return [transfer(liable, seat, shares * share, "kuaizhao")]
        if context.kind is WinKind.INSTANT:
            assert context.discarder is not None
            return [transfer(context.discarder, seat, 3 * share, "sanqing")]
        if context.kind is WinKind.SELF_DRAWN:
            feeder = (
                bloom_feeder(context) if any(entry.key == "big_kong_bloom" for entry in sheet.items) else None
            )
            if feeder is not None:
                return [transfer(feeder, seat, 3 * share, "kong_bloom_liability")]
            return [transfer(other, seat, share, "win_self_drawn") for other in _others(seat)]
        assert context.discarder is not None
        return [transfer(context.discarder, seat, share, "win_discard")]

    def hand_outcome(self, state: HandState) -> HandOutcome:
        """比下胡: which triggers fired, whether the dealer stays, and so whether the next hand doubles."""
        winners = [win.context.seat for win in state.wins]
        keys = {entry.key for win in state.wins for entry in win.sheet.items}
        fired = {
            "dealer_win": state.dealer in winners,
            "big_hand": any(win.sheet.big_hand for win in state.wins),
            "penalty": any(t.reason.startswith("penalty") for t in state.transfers),
            "draw": state.outcome == "draw",
            "haidi": "haidi" in keys,
            "flower_kong": state.flower_kongs > 0,
            "kong_bloom": bool(keys & {"small_kong_bloom", "big_kong_bloom", "flower_kong_bloom"}),
            "liability": any(t.reason in LIABILITY_REASONS for t in state.transfers),
            "multi_ron": len(winners) > 1,
        }
        causes = tuple(name for name in self.options.bixiahu_triggers if fired[name])
        doubles = bool(causes) and state.outcome != "abandoned"
        stays = doubles and self.options.bixiahu_keeps_dealer
        return HandOutcome(
            next_dealer=state.dealer if stays else next_seat(state.dealer),
            doubles_next=doubles,
            causes=causes,
        )

    def next_multiplier(self, current: int, doubles: bool) -> int:
        if not doubles:
            return 1
        return current * 2 if self.options.bixiahu_mult == "cumulative" else 2

    def escape_transfers(self, seat: int, seats: int = SEATS) -> list[Transfer]:
        """逃跑 (S002): the player who leaves pays the escape penalty, shared among the others."""
        others = _others(seat)
        base, extra = divmod(self.options.escape_penalty, len(others))
        return [
            transfer(seat, other, base + (1 if index < extra else 0), "escape")
            for index, other in enumerate(others)
        ]


def _others(seat: int) -> list[int]:
    return [next_seat(seat, offset) for offset in range(1, SEATS)]


def _pengpeng_value(sheet: ScoreSheet, options: NanjingOptions) -> int:
    """C-NJ-16 (S003a): a deal-in paid by the 快照 feeder is valued as 碰碰胡 only."""
    flowers = sum(entry.value for entry in sheet.items if entry.key not in _BONUS_KEYS and not entry.multiply)
    factor = 1
    for entry in sheet.items:
        if entry.multiply:
            factor *= entry.value
    return (flowers + options.duiduihu_bonus) * factor


_BONUS_KEYS = frozenset(
    {
        "menqing",
        "hunyise",
        "qingyise",
        "duiduihu",
        "quanqiu",
        "qidui",
        "luxury_qidui_1",
        "luxury_qidui_2",
        "luxury_qidui_3",
        "double_qidui",
        "fengyise",
        "yajue",
        "wuhuaguo",
        "tianhu",
        "dihu",
        "small_kong_bloom",
        "big_kong_bloom",
        "flower_kong_bloom",
        "haidi",
    }
)
