"""Nanning options: every point on which the seeds disagree, with the rules-notes defaults (§2B, §6).

Each field names the conflict it settles (rules-notes §2B C-NN-n, §3 A-n). The docs list them all:
``docs/rules/nanning.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from hupai.rules.options import Conflict, OptionRules


@dataclass(frozen=True, slots=True, kw_only=True)
class NanningOptions:
    # Table
    reserved_tiles: int = 0  # "摸完所有牌，至胡方休" (S001)
    multi_ron: bool = True  # S000b 一炮双响/三响 (no 截胡)
    pass_win_restriction: bool = True  # S000b 卖胡: a passed win blocks wins until one's own next draw
    pass_pung_restriction: bool = False  # the Nanning seeds have no 过碰 rule
    kong_points: int = 1  # S001 "杠牌1分", paid at once
    chain_kong_fee: str = "one_per_kong"  # C-NN-14: one_per_kong (S001) | full_fee (S004)
    # Hand values
    combine: str = "multiply"  # C-NN-3: multiply (S001 tables) | add (S004)
    chicken_ron: str = "allow"  # C-NN-1: allow (S001) | tsumo_only (S004)
    chicken_ron_points: int = 2  # S001 "普通牌型（鸡胡）2分"
    menqing_ron: str = "base4"  # C-NN-2: base4 (S001) | plus1 (S004 table) | none (S004 "門清一定要自摸")
    tianhu: str = "double_menqing_tsumo"  # C-NN-4: double_menqing_tsumo (S000b) | each_fixed (S004)
    tianhu_each: int = 100  # with each_fixed (S004 table "天胡，100 張"; its points list says 6)
    dihu: str = "double_menqing_tsumo"  # C-NN-5
    dihu_each: int = 100
    renhu: str = "menqing_dapao"  # C-NN-6: menqing_dapao (S000b) | none
    concealed_bloom: str = "doubled_unit"  # C-NN-7: doubled_unit (S001, 21) | fixed_each (S004, 9 + 1)
    concealed_bloom_each: int = 9
    quanqiu_pao: str = "dapao"  # C-NN-9: dapao (S001) | surcharge (S004 "多付 9 張")
    quanqiu_pao_surcharge: int = 9
    haidi_window: str = "last_tile"  # C-NN-10: last_tile (S000b) | last_round (S004)
    min_points: int = 0  # C-NN-11: S004's "9分起胡" would be 9
    # 封胡 (S001 十二) and 死双 (S001 十三)
    fenghu: bool = True
    fenghu_count_bugang: bool = False  # C-NN-15
    sishuang: bool = False  # 死双: the sealed player's part ×2
    # Dealer
    next_dealer_on_multiron: str = "discarder"  # C-NN-12: discarder (S000b) | dealer_if_won_else_next
    next_dealer_on_draw: str = "last_drawer"  # C-NN-12: last_drawer (S000b) | same_dealer
    # Extras, off by default
    moma: int = 0  # 摸码 (S000b): code tiles drawn after a self-drawn win; 0 = off
    maima: int = 0  # 买马 (S004 mentions it; platforms): horses from the back of the wall; 0 = off
    fishing: str = "off"  # C-NN-13 钓鱼: off | s000_predraw | s004_count

    @classmethod
    def rules(cls) -> OptionRules:
        """What each option may be (:data:`RULES`)."""
        return RULES


# What each option may be (hupai.rules.options; docs/rules/nanning.md §9).
RULES = OptionRules(
    ranges={
        "reserved_tiles": (0, 100),
        "kong_points": (0, 100),
        "chicken_ron_points": (1, 100),
        "tianhu_each": (1, 1000),
        "dihu_each": (1, 1000),
        "concealed_bloom_each": (1, 1000),
        "quanqiu_pao_surcharge": (0, 1000),
        "min_points": (0, 1000),
        "moma": (0, 8),
        "maima": (0, 8),
    },
    choices={
        "chain_kong_fee": ("one_per_kong", "full_fee"),
        "combine": ("multiply", "add"),
        "chicken_ron": ("allow", "tsumo_only"),
        "menqing_ron": ("base4", "plus1", "none"),
        "tianhu": ("double_menqing_tsumo", "each_fixed"),
        "dihu": ("double_menqing_tsumo", "each_fixed"),
        "renhu": ("menqing_dapao", "none"),
        "concealed_bloom": ("doubled_unit", "fixed_each"),
        "quanqiu_pao": ("dapao", "surcharge"),
        "haidi_window": ("last_tile", "last_round"),
        "next_dealer_on_multiron": ("discarder", "dealer_if_won_else_next"),
        "next_dealer_on_draw": ("last_drawer", "same_dealer"),
        "fishing": ("off", "s000_predraw", "s004_count"),
    },
    conflicts=(
        Conflict(
            "sishuang",
            "fenghu",
            "needs",
            "死双 doubles the part of a player sealed by 封胡, and without 封胡 nobody is sealed",
            "死双是封胡的加倍，不封胡就没有死双",
        ),
        Conflict(
            "fenghu_count_bugang",
            "fenghu",
            "needs",
            "it says how the three sets of 封胡 are counted, and without 封胡 none are",
            "补杠算两手是封胡的算法，不封胡就无从算起",
        ),
    ),
)
