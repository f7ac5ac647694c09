"""南宁麻将 (Nanning mahjong): 136 tiles, no flowers, no 吃, every tile drawn; units that double.

The rules in words, with the seed each comes from and every option: ``docs/rules/nanning.md``.
"""

from __future__ import annotations

from typing import ClassVar

from hupai.game.contract import HandOutcome, RuleSet, ScoreSheet, Transfer, WinVerdict
from hupai.game.model import SEATS, HandState, MeldKind, WinContext, next_seat
from hupai.rules.nanning.items import transfer
from hupai.rules.nanning.options import NanningOptions
from hupai.rules.nanning.scoring import DAPAO, EACH_PAYS, score, sealed_by, situation

__all__ = ["NanningOptions", "NanningRuleSet"]

FISH_SET_ASIDE = 4  # S000b 钓鱼: one tile per player from the kong end before play


class NanningRuleSet(RuleSet):
    name: ClassVar[str] = "nanning"
    zh: ClassVar[str] = "南宁麻将"
    en: ClassVar[str] = "Nanning mahjong"
    options_class: ClassVar[type[NanningOptions]] = NanningOptions
    options: NanningOptions
    ready_declaration = False
    concealed_kongs_public = False
    pass_win_until = "draw"  # 卖胡: "到轮到自己摸牌" (S000b)

    def __init__(self, options: NanningOptions, preset: str) -> None:
        super().__init__(options, preset)
        self.multi_ron = options.multi_ron
        self.pass_win_restriction = options.pass_win_restriction
        self.pass_pung_restriction = options.pass_pung_restriction
        self.set_aside_tiles = FISH_SET_ASIDE if options.fishing == "s000_predraw" else 0

    def tile_set(self) -> list[int]:
        """136 tiles: four of each suited tile and honour; no flowers (S001 "无花牌")."""
        return [kind for kind in range(34) for _ in range(4)]

    def is_flower(self, tile: int) -> bool:
        return False

    @property
    def reserved_tiles(self) -> int:
        return self.options.reserved_tiles

    # --- kongs ------------------------------------------------------------------------------

    def kong_transfers(self, state: HandState, seat: int, meld_index: int) -> list[Transfer]:
        """杠分, paid at once: 1 from the feeder of an exposed kong, 1 from each for a concealed one. In a row
        of kongs after an exposed one, the player whose tile was konged first pays for the later kongs
        too (S001 七 "累加杠分"; S004 "A承擔所有槓牌費用")."""
        meld = state.seats[seat].melds[meld_index]
        points = self.options.kong_points
        concealed = meld.kind is MeldKind.CONCEALED_KONG
        earlier = [feeder for step, feeder in state.replacement_chain if step == "kong"]
        first_exposed = next((feeder for feeder in earlier if feeder is not None), None)
        if first_exposed is not None:
            full = concealed and self.options.chain_kong_fee == "full_fee"
            return [transfer(first_exposed, seat, points * (SEATS - 1) if full else points, "chain_kong")]
        if concealed:
            return [transfer(other, seat, points, "concealed_kong") for other in _others(seat)]
        assert meld.feeder is not None
        return [transfer(meld.feeder, seat, points, "exposed_kong")]

    def kong_can_be_robbed(self, state: HandState, seat: int, tile: int) -> bool:
        """Only a row of exposed kongs can be robbed: not after a concealed kong (S001 九 "先暗杠后连明杠
        也不能抢杠胡")."""
        return not any(step == "kong" and feeder is None for step, feeder in state.replacement_chain)

    # --- wins ---------------------------------------------------------------------------------

    def judge_win(self, state: HandState, context: WinContext) -> WinVerdict:
        return score(state, context, self.options)

    def win_transfers(self, state: HandState, context: WinContext, sheet: ScoreSheet) -> list[Transfer]:
        options = self.options
        where = situation(state, context, options)
        seat, share = context.seat, sheet.share
        sealed = sealed_by(state, seat, options)
        double = 2 if options.sishuang else 1
        if where.name in EACH_PAYS or where.name == "exposed_bloom":
            if where.name == "exposed_bloom":
                assert where.feeder is not None
                normal = [transfer(where.feeder, seat, share, "kong_bloom_feeder")]
            else:
                normal = [transfer(other, seat, share, "win_self_drawn") for other in _others(seat)]
            if sealed is None:
                return normal
            # 封胡: the sealed player pays the whole bill (S001 十二; 死双 doubles it, S001 十三).
            return [transfer(sealed, seat, sum(t.amount for t in normal) * double, "fenghu")]
        discarder = context.discarder
        assert discarder is not None
        reason = (
            "robbed_kong"
            if where.name == "robbed_kong"
            else "dapao"
            if where.name in DAPAO
            else "win_discard"
        )
        paid = [transfer(discarder, seat, share, reason)]
        if (
            where.name == "ron"
            and options.quanqiu_pao == "surcharge"
            and len(state.seats[discarder].melds) == 4
        ):
            paid.append(transfer(discarder, seat, options.quanqiu_pao_surcharge, "quanqiupao_surcharge"))
        if sealed is None:
            return paid
        if sealed == discarder:
            # The sealed player dealt in: ×2 (S001 十二, S004 "所付張數 * 2").
            return [transfer(sealed, seat, sum(t.amount for t in paid) * 2 * double, "fenghu_double")]
        # Someone else dealt in: the sealed player pays as much again (双飞, S001 十二).
        return [*paid, transfer(sealed, seat, share * double, "fenghu_shuangfei")]

    def hand_outcome(self, state: HandState) -> HandOutcome:
        """The next dealer: the winner; after several winners the discarder; after a draw whoever drew
        the last tile (S000b, S004; options C-NN-12). No doubled hands in Nanning (S001 "无连庄累计得分")."""
        winners = [win.context.seat for win in state.wins]
        if state.outcome == "win" and len(winners) == 1:
            return HandOutcome(next_dealer=winners[0], doubles_next=False)
        if state.outcome == "win":
            if self.options.next_dealer_on_multiron == "discarder":
                discarder = state.wins[0].context.discarder
                return HandOutcome(
                    next_dealer=state.dealer if discarder is None else discarder, doubles_next=False
                )
            stays = state.dealer in winners
            return HandOutcome(
                next_dealer=state.dealer if stays else next_seat(state.dealer), doubles_next=False
            )
        if state.outcome == "draw" and self.options.next_dealer_on_draw == "last_drawer":
            last = state.last_drawer
            return HandOutcome(next_dealer=state.dealer if last is None else last, doubles_next=False)
        return HandOutcome(next_dealer=state.dealer, doubles_next=False)


def _others(seat: int) -> list[int]:
    return [next_seat(seat, offset) for offset in range(1, SEATS)]
