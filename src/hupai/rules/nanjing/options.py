"""Nanjing options: every number or reading on which the seeds disagree, with the rules-notes defaults.

Each field names the conflict it settles (rules-notes §2A C-NJ-n, §3 A-n). The docs list them all:
``docs/rules/nanjing.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

from hupai.rules.options import OptionRules

BIXIAHU_TRIGGERS = (
    "dealer_win",  # 庄家胡 (S002) — also S003a's 庄家连庄
    "big_hand",  # 成大胡 (S002)
    "penalty",  # 有罚 (S002, S003a)
    "draw",  # 和局 / 荒庄 (S002, S003a)
    "haidi",  # 海底捞 (S002)
    "flower_kong",  # 花杠 (S003a)
    "kong_bloom",  # 杠开 (S003a)
    "liability",  # 包牌 (S003a)
    "multi_ron",  # 一炮两响 / 三响 (S003a)
)


@dataclass(frozen=True, slots=True, kw_only=True)
class NanjingOptions:
    # Table
    reserved_tiles: int = 16  # 8 stacks never drawn (S002)
    haidi_tiles: int = 4  # 海底捞 = a win in the last 2 stacks before the reserved ones (S002)
    multi_ron: bool = True  # 一炮多响
    pass_win_restriction: bool = True  # 过胡不胡 until one's own next discard
    pass_pung_restriction: bool = True  # 过碰不碰 for that tile until one's own next discard
    # Win values
    base: int = 20  # 跑20
    menqing: str = "no_pung"  # C-NJ-11: no_pung | no_meld | pung_restored_by_bugang
    menqing_bonus: int = 20
    hunyise_bonus: int = 40
    qingyise_bonus: int = 60
    duiduihu_bonus: int = 40
    quanqiu_bonus: int = 60
    quanqiu_includes_duidui: bool = True
    qidui_bonus: int = 80  # C-NJ-1: 80 (S000a, S002) or 40 (S003a)
    luxury_qidui: str = "by_quads"  # C-NJ-2: by_quads (S000a) | win_on_fourth (S002/S003a)
    luxury_qidui_bonus: tuple[int, ...] = (160, 240, 320)
    fengyise_bonus: int = 160
    yajue_bonus: int = 40
    yajue_source: tuple[str, ...] = ("own_pung", "others_pung")  # C-NJ-12 (+ three_discarded)
    yajue_shapes: str = "kanchan_or_edge"  # C-NJ-13: kanchan | kanchan_or_edge
    wuhuaguo_bonus: int = 40
    wuhuaguo: str = "menqing_or_big"  # C-NJ-14: menqing_or_big | no_pung_only
    tianhu: str = "add"  # C-NJ-3: add | fixed_per_payer
    tianhu_bonus: int = 320  # C-NJ-3: 320 (S000a, S003a) or 60 (S002); per payer when fixed
    dihu_bonus: int = 280  # C-NJ-4: 280 (S000a, S003a) or 40 (S002)
    dihu_adds_menqing: bool = False  # C-NJ-20
    dihu_allow_kong_same_waits: bool = False
    small_kong_bloom_bonus: int = 20  # 小杠开
    big_kong_bloom: str = "add"  # C-NJ-8: add (+40) | double (×2, S002)
    big_kong_bloom_bonus: int = 40
    flower_kong_bloom: str = "add"  # C-NJ-9: add (+40) | x4 (S002)
    flower_kong_bloom_bonus: int = 40
    haidi_bonus: int = 10
    small_hand_hard_flowers: int = 4  # 小胡 needs 门清 or this many hard flowers
    suit_kong_soft: bool = True  # C-NJ-10: suited kongs 明1 / 暗2 soft flowers (S002)
    wind_pair_soft: bool = False
    # Money during play (现场汇)
    exposed_kong_money: int = 6  # C-NJ-5: 6 (S000a, S003a) or 20 (S002)
    concealed_kong_money: int = 3  # each; 3 or 10 (S002)
    flower_kong_money: int = 6  # each; 6 or 20 (S002)
    kong_money_zar2: bool = False  # C-NJ-5
    penalty_each: int = 10  # C-NJ-6: 10 (S002, S003a) or 6 (S000a)
    follow_penalty_scope: str = "any_time"  # C-NJ-7: any_time | first_round_dealer_led
    # Liability (包牌)
    liability_on_ron: str = (
        "one_share"  # C-NJ-16, C-NJ-21: 快照 liability on a deal-in: one_share | three_shares
    )
    kuaizhao_other_feeder: str = "duidui"  # C-NJ-15: duidui | duidui_plus_quanqiu
    kuaizhao_ron_value: str = "actual"  # C-NJ-16: actual | pengpeng_only
    kuaizhao_overrides_robkong: bool = False
    sanqing_trigger: str = "claim_only"  # C-NJ-17: claim_only | any_set_incl_sequence
    # 比下胡
    bixiahu_triggers: tuple[str, ...] = BIXIAHU_TRIGGERS  # C-NJ-18
    bixiahu_mult: str = "x2"  # C-NJ-19: x2 | cumulative
    bixiahu_keeps_dealer: bool = True  # C-NJ-19
    # Leaving
    escape_penalty: int = 60  # S002: 逃跑 −60

    @classmethod
    def rules(cls) -> OptionRules:
        """What each option may be (:data:`RULES`)."""
        return RULES


# What each option may be (hupai.rules.options; docs/rules/nanjing.md §7).
RULES = OptionRules(
    ranges={
        "reserved_tiles": (0, 100),
        "haidi_tiles": (0, 100),
        "base": (1, 1000),
        **dict.fromkeys(
            (
                "menqing_bonus",
                "hunyise_bonus",
                "qingyise_bonus",
                "duiduihu_bonus",
                "quanqiu_bonus",
                "qidui_bonus",
                "luxury_qidui_bonus",
                "fengyise_bonus",
                "yajue_bonus",
                "wuhuaguo_bonus",
                "tianhu_bonus",
                "dihu_bonus",
                "small_kong_bloom_bonus",
                "big_kong_bloom_bonus",
                "flower_kong_bloom_bonus",
                "haidi_bonus",
                "exposed_kong_money",
                "concealed_kong_money",
                "flower_kong_money",
                "penalty_each",
                "escape_penalty",
            ),
            (0, 1000),
        ),
        "small_hand_hard_flowers": (0, 20),
    },
    choices={
        "menqing": ("no_pung", "no_meld", "pung_restored_by_bugang"),
        "luxury_qidui": ("by_quads", "win_on_fourth"),
        "yajue_source": ("own_pung", "others_pung", "three_discarded"),
        "yajue_shapes": ("kanchan", "kanchan_or_edge"),
        "wuhuaguo": ("menqing_or_big", "no_pung_only"),
        "tianhu": ("add", "fixed_per_payer"),
        "big_kong_bloom": ("add", "double"),
        "flower_kong_bloom": ("add", "x4"),
        "follow_penalty_scope": ("any_time", "first_round_dealer_led"),
        "liability_on_ron": ("one_share", "three_shares"),
        "kuaizhao_other_feeder": ("duidui", "duidui_plus_quanqiu"),
        "kuaizhao_ron_value": ("actual", "pengpeng_only"),
        "sanqing_trigger": ("claim_only", "any_set_incl_sequence"),
        "bixiahu_triggers": BIXIAHU_TRIGGERS,
        "bixiahu_mult": ("x2", "cumulative"),
    },
    lengths={"luxury_qidui_bonus": (3, 3)},
)
