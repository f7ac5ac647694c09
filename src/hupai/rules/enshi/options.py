"""Enshi options: every point the seed leaves open, with the defaults of the ``enshi`` preset.

Each field names where it comes from (S003b, the one Enshi seed; X-ES, an Enshi app's rule text;
"our reading" where no source speaks). The docs list them all: ``docs/rules/enshi.md`` §9.
"""

from __future__ import annotations

from dataclasses import dataclass

from hupai.rules.options import Conflict, OptionRules


@dataclass(frozen=True, slots=True, kw_only=True)
class EnshiOptions:
    # Tiles and the 痞子
    honours: bool = False  # 108 suited tiles (X-ES); true: 136 with 东南西北中发白
    honour_successor: str = (
        "winds_dragons"  # the 赖子 after an honour 痞子: winds_dragons | riichi | single_cycle
    )
    pizi_flip: str = "back"  # X-ES "从尾墩翻出": back | front (S003b "桌面第一张牌", which end unsaid)
    reserved_tiles: int = 0  # silent; every tile but the 痞子 is drawn
    # Play
    chow: bool = True  # S003b 3 "在吃牌、碰牌后"; X-ES "可吃、碰、杠"
    multi_ron: bool = False  # A-3; X-ES "无一炮多响"
    rob_kong: bool = True  # our reading: an added kong may be robbed, paid as a discard
    pass_win_restriction: bool = True  # A-2; X-ES "过水不胡"
    pass_pung_restriction: bool = True  # A-2; X-ES "过水不碰"
    pizi_blocks_win: bool = True  # X-ES "有痞子不能胡"
    forbid_keeping_pizi: bool = False  # X-ES 禁止养痞 (off there too)
    laizi_in_melds: bool = False  # X-ES "赖子…不可充当某张牌去碰和杠"
    # Who may win
    max_laizi_in_win: int = 0  # 0 = any number (S003b); X-ES 一赖到底 would be 1 (our reading)
    laizi_as_itself_hard: bool = False  # our reading of S003b 5 "没有赖子"
    jianzihu_self_drawn_only: bool = True  # X-ES "见字胡必须自摸"
    chuotai_forbidden: bool = True  # S003b 10 不能戳胎
    daxie_on_discard: bool = True  # our reading of S003b 4 "和牌"
    # Values and payments
    discarder_double: str = "all_wins"  # A-20, S003b 倍数 3: all_wins | pihu_only (S003b 6-7 "每家")
    difen: int = 1  # S003b 1 底分
    pihu_points: int = 1  # S003b 2
    xiaoxie_points: int = 3  # S003b 3
    daxie_points: int = 5  # S003b 4
    qidui_points: int = 5  # S003b 6 一点
    hard_factor: int = 2  # S003b 5 硬 "翻1倍"
    qidui_self_drawn_factor: int = 2  # S003b 7, 8 (四点)
    pizi_factor: int = 2  # S003b 倍数 1 "下一个痞子翻2倍"
    laizi_factor: int = 4  # S003b 倍数 1 "下一个赖子翻4倍"
    exposed_kong_factor: int = 2  # S003b 倍数 1 "明杠翻2倍"
    concealed_kong_factor: int = 4  # S003b 倍数 1 "暗杠翻4倍"
    kong_bloom_factor: int = 2  # S003b 倍数 1 "杠开翻2倍"
    gangshangpao_factor: int = 1  # X-ES option 杠上炮 2; 1 = off
    cap: int = 400  # S003b 8 (封顶) per loser; 0 = no cap at all
    gold_cap: int = 500  # S003b 9 金顶, when all three reach the cap; 0 = none
    diamond_cap: int = 0  # X-ES 钻石顶, when all three reach gold_cap; 0 = off
    kong_money: int = 0  # no source: kongs only multiply
    min_points: int = 0  # X-ES 起胡 (our reading): the three raw lines must add up to this
    # Dealer
    next_dealer: str = "winner"  # X-ES "上局胡牌的用户为庄家": winner | next_seat
    next_dealer_on_draw: str = "same_dealer"  # X-ES "荒庄…上一局庄家继续当庄": same_dealer | next_seat

    @classmethod
    def rules(cls) -> OptionRules:
        """What each option may be (:data:`RULES`)."""
        return RULES


# What each option may be (hupai.rules.options; docs/rules/enshi.md §9). The seed's factors are 2 and
# 4; 8 leaves room for a house's own without letting an uncapped score run to absurd sizes.
RULES = OptionRules(
    ranges={
        "reserved_tiles": (0, 100),
        "max_laizi_in_win": (0, 4),
        "difen": (1, 100),
        **dict.fromkeys(("pihu_points", "xiaoxie_points", "daxie_points", "qidui_points"), (1, 100)),
        **dict.fromkeys(
            (
                "hard_factor",
                "qidui_self_drawn_factor",
                "pizi_factor",
                "laizi_factor",
                "exposed_kong_factor",
                "concealed_kong_factor",
                "kong_bloom_factor",
                "gangshangpao_factor",
            ),
            (1, 8),
        ),
        **dict.fromkeys(("cap", "gold_cap", "diamond_cap"), (0, 10000)),
        "kong_money": (0, 1000),
        "min_points": (0, 1000),
    },
    choices={
        "honour_successor": ("winds_dragons", "riichi", "single_cycle"),
        "pizi_flip": ("back", "front"),
        "discarder_double": ("all_wins", "pihu_only"),
        "next_dealer": ("winner", "next_seat"),
        "next_dealer_on_draw": ("same_dealer", "next_seat"),
    },
    conflicts=(
        Conflict(
            "gold_cap",
            "cap",
            "needs",
            "金顶 is what each pays when all three reach the cap",
            "三家都到封顶才有金顶",
        ),
        Conflict("gold_cap", "cap", "above", "金顶 is a higher top than the cap", "金顶要高于封顶"),
        Conflict(
            "diamond_cap",
            "gold_cap",
            "needs",
            "钻石顶 is what each pays when all three reach 金顶",
            "三家都到金顶才有钻石顶",
        ),
        Conflict("diamond_cap", "gold_cap", "above", "钻石顶 is a higher top than 金顶", "钻石顶要高于金顶"),
        Conflict(
            "laizi_in_melds",
            "chow",
            "needs",
            "a 赖子 stands in only for a tile of a chow, and without chows there is none",
            "赖子只能在吃牌时顶替一张牌，不能吃牌就无从顶替",
        ),
    ),
)
