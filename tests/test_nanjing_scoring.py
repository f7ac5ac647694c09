"""Nanjing scoring, one test per rule clause (docs/rules/nanjing.md). Values worked out by hand."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import items, judge, sheet_of

# A plain concealed hand used throughout: 123m 456p 789s 11s + 56m waiting 4m/7m (two-sided).
PLAIN = "123m456p789s11s456m"


def test_base_20_flowers_doubled_and_bonuses_add_up_88() -> None:
    # NJ-01 (S002 算分): 门清混一色, four hard flowers, self-drawn: 40 + 20 + 20 + 4×2 = 88.
    verdict = judge("123m234m789m11z567m", "7m", flowers="6z7z7z1f")
    assert items(verdict) == {"base": 20, "hard_flowers": 8, "menqing": 20, "hunyise": 40}
    assert sheet_of(verdict).share == 88


def test_small_hand_needs_menqing_or_four_hard_flowers() -> None:
    pung = [("pung", "5p", 0)]
    refused = judge("234m456p789s11s", "4m", how="discard", melds=pung, flowers="1f2f")
    assert not refused.allowed
    assert "小胡需门清或4个硬花" in refused.reason
    assert "has 2" in refused.reason
    allowed = judge("234m456p789s11s", "4m", how="discard", melds=pung, flowers="1f2f5f6z")
    assert items(allowed) == {"base": 20, "hard_flowers": 8}
    concealed = judge("234m456p789s11s555p", "4m", how="discard")
    assert items(concealed) == {"base": 20, "menqing": 20, "wuhuaguo": 40}
    assert judge(
        "234m456p789s11s", "4m", how="discard", melds=pung, flowers="1f", small_hand_hard_flowers=1
    ).allowed


def test_menqing_kept_by_direct_and_concealed_kongs_broken_by_pung() -> None:
    hand, flower = "234m456p789s11s", "1f"
    direct = judge(hand, "4m", how="discard", melds=[("kong", "5p", 0)], flowers=flower)
    assert items(direct) == {"base": 20, "hard_flowers": 2, "exposed_kong_soft": 2, "menqing": 20}
    concealed = judge(hand, "4m", how="discard", melds=[("concealed", "5p", None)], flowers=flower)
    assert items(concealed)["menqing"] == 20
    assert items(concealed)["concealed_kong_soft"] == 4
    added = judge(hand, "4m", how="discard", melds=[("added", "5p", 0)], flowers=flower)
    assert not added.allowed  # the pung opened the hand, and one hard flower is not four
    assert not judge(
        hand, "4m", how="discard", melds=[("kong", "5p", 0)], flowers=flower, menqing="no_meld"
    ).allowed
    restored = judge(
        hand,
        "4m",
        how="discard",
        melds=[("added", "5p", 0)],
        flowers=flower,
        menqing="pung_restored_by_bugang",
    )
    assert items(restored)["menqing"] == 20


def test_full_flush_and_half_flush() -> None:
    full = judge("123m456m789m234m55m", "5m", flowers="1f")
    assert items(full) == {"base": 20, "hard_flowers": 2, "menqing": 20, "qingyise": 60}
    half = judge("123m456m789m234m11z", "1z", flowers="1f")
    assert items(half)["hunyise"] == 40
    assert "qingyise" not in items(half)


def test_all_winds_is_seven_pairs_of_winds() -> None:
    # Four wind kinds cannot make four sets and a pair, so 风一色 comes as seven pairs (S002).
    verdict = judge("11112222333344z", "4z")
    assert items(verdict) == {"base": 20, "luxury_qidui_3": 320, "fengyise": 160, "wuhuaguo": 40}
    assert sheet_of(verdict).share == 540


def test_all_pungs_with_single_wait_on_the_pair() -> None:
    verdict = judge("111m555p999s22z", "2z", melds=[("pung", "7s", 0)], flowers="1f")
    assert items(verdict) == {"base": 20, "hard_flowers": 2, "pair_wait": 2, "duiduihu": 40}
    assert sheet_of(verdict).big_hand


def test_all_melded_single_wait_stacks_all_pungs() -> None:
    melds = [("pung", "5m", 0), ("pung", "7p", 2), ("pung", "3s", 3), ("pung", "1z", 0)]
    verdict = judge("99s", "9s", how="discard", discarder=2, melds=melds, flowers="1f")
    assert items(verdict) == {"base": 20, "hard_flowers": 2, "wind_pung": 2, "duiduihu": 40, "quanqiu": 60}
    alone = judge(
        "99s", "9s", how="discard", discarder=2, melds=melds, flowers="1f", quanqiu_includes_duidui=False
    )
    assert sheet_of(alone).share == 84


def test_seven_pairs_and_the_luxury_ladder() -> None:
    assert items(judge("1133m5577p99s2244z", "4z", flowers="1f")) == {
        "base": 20,
        "hard_flowers": 2,
        "qidui": 80,
    }
    assert items(judge("111133m5577p99s22z", "2z", flowers="1f"))["luxury_qidui_1"] == 160
    assert items(judge("11113333m5577p99s", "9s", flowers="1f"))["luxury_qidui_2"] == 240
    assert items(judge("1133m5577p99s2244z", "4z", flowers="1f", qidui_bonus=40))["qidui"] == 40


def test_double_seven_pairs_only_on_the_fourth_tile_option() -> None:
    on_fourth = judge("111133m5577p99s22z", "1m", flowers="1f", luxury_qidui="win_on_fourth")
    assert items(on_fourth)["double_qidui"] == 160
    elsewhere = judge("111133m5577p99s22z", "2z", flowers="1f", luxury_qidui="win_on_fourth")
    assert items(elsewhere)["qidui"] == 80


def test_wind_pungs_and_kongs_are_soft_flowers() -> None:
    melds = [("pung", "1z", 0), ("kong", "2z", 0), ("concealed", "3z", None)]
    verdict = judge("123m55p", "3m", melds=melds, flowers="1f2f5f6z")
    assert items(verdict) == {
        "base": 20,
        "hard_flowers": 8,
        "wind_pung": 2,
        "wind_exposed_kong": 4,
        "wind_concealed_kong": 6,
        "edge_wait": 2,
        "missing_suit": 2,
    }
    held = judge("123m456p789s111z55s", "5s")
    assert items(held)["wind_pung"] == 2


def test_suited_kongs_soft_flowers_and_option() -> None:
    melds = [("kong", "5p", 0), ("concealed", "9s", None)]
    hand = "123m11s456m"
    assert items(judge(hand, "6m", melds=melds))["exposed_kong_soft"] == 2
    assert items(judge(hand, "6m", melds=melds))["concealed_kong_soft"] == 4
    plain = items(judge(hand, "6m", melds=melds, suit_kong_soft=False))
    assert "exposed_kong_soft" not in plain
    assert "concealed_kong_soft" not in plain


@pytest.mark.parametrize(
    ("hand", "tile", "key"),
    [
        ("123p456p789s11s456m", "5m", "closed_wait"),  # 压档: 46m waiting 5m
        ("123m123p456p789s11s", "3m", "edge_wait"),  # 边枝: 12m waiting 3m
        ("123m456p789s111z55s", "5s", "pair_wait"),  # 独占: waiting on the pair alone
        ("123p456p789s45556m", "5m", "closed_wait"),  # 4556m: 5m only; one soft flower either way (A-4)
    ],
)
def test_single_waits_are_one_soft_flower(hand: str, tile: str, key: str) -> None:
    found = items(judge(hand, tile))
    assert found[key] == 2
    assert sum(1 for name in ("closed_wait", "edge_wait", "pair_wait") if name in found) == 1


def test_two_sided_wait_is_no_soft_flower() -> None:
    found = items(judge(PLAIN, "4m"))
    assert not {"closed_wait", "edge_wait", "pair_wait"} & set(found)


def test_missing_one_suit() -> None:
    found = items(judge("123456m55789p111z", "1z"))
    assert found == {"base": 20, "wind_pung": 2, "missing_suit": 2, "menqing": 20, "wuhuaguo": 40}


def test_yajue_last_copy_in_a_closed_or_edge_wait() -> None:
    others_pung = [(2, "pung", "5m", 3)]
    found = items(judge("123p456p789s11s456m", "5m", other_melds=others_pung, flowers="1f"))
    assert found == {"base": 20, "hard_flowers": 2, "yajue": 40, "menqing": 20}
    own = items(judge("123p789s11s456m", "5m", melds=[("pung", "5m", 0)], flowers="1f"))
    assert own == {"base": 20, "hard_flowers": 2, "yajue": 40}
    only_own = items(judge("123p456p789s11s456m", "5m", other_melds=others_pung, yajue_source=("own_pung",)))
    assert "yajue" not in only_own
    assert only_own["closed_wait"] == 2
    edge = [(3, "pung", "3m", 2)]
    assert "yajue" in items(judge("123m123p456p789s11s", "3m", other_melds=edge))
    assert "yajue" not in items(judge("123m123p456p789s11s", "3m", other_melds=edge, yajue_shapes="kanchan"))


def test_wuhuaguo_no_flowers_with_menqing_or_a_big_hand() -> None:
    assert items(judge(PLAIN, "4m"))["wuhuaguo"] == 40
    pungs = judge("111m555p999s22z", "2z", melds=[("pung", "7s", 0)])
    assert items(pungs)["wuhuaguo"] == 40
    strict = judge("111m555p999s22z", "2z", melds=[("pung", "7s", 0)], wuhuaguo="no_pung_only")
    assert "wuhuaguo" not in items(strict)


def test_heavenly_hand_adds_320_without_menqing() -> None:
    found = items(judge(PLAIN, "4m", flowers="1f", first_turn=True))
    assert found == {"base": 20, "hard_flowers": 2, "tianhu": 320}
    fixed = judge(PLAIN, "4m", flowers="1f", first_turn=True, tianhu="fixed_per_payer", tianhu_bonus=1000)
    assert sheet_of(fixed).share == 1000


def test_earthly_hand_after_ready_adds_280() -> None:
    assert items(judge(PLAIN, "4m", flowers="1f", ready=True)) == {"base": 20, "hard_flowers": 2, "dihu": 280}
    with_menqing = items(judge(PLAIN, "4m", flowers="1f", ready=True, dihu_adds_menqing=True))
    assert with_menqing["menqing"] == 20


@pytest.mark.parametrize(
    ("chain", "options", "key", "share"),
    [
        ((("flower", None),), {}, "small_kong_bloom", 62),
        ((("kong", 0),), {}, "big_kong_bloom", 82),
        ((("kong", None), ("flower", None)), {}, "big_kong_bloom", 82),
        ((("kong", 0),), {"big_kong_bloom": "double"}, "big_kong_bloom", 84),
        ((("flower_kong", None),), {}, "flower_kong_bloom", 82),
        ((("flower_kong", None),), {"flower_kong_bloom": "x4"}, "flower_kong_bloom", 168),
    ],
)
def test_kong_blooms(
    chain: tuple[tuple[str, int | None], ...], options: dict[str, Any], key: str, share: int
) -> None:
    # 42 before the bloom: 20 + 1 flower ×2 + 门清 20.
    verdict = judge(PLAIN, "4m", flowers="1f", chain=chain, **options)
    assert key in items(verdict)
    assert sheet_of(verdict).share == share


def test_haidi_in_the_last_two_stacks() -> None:
    assert items(judge(PLAIN, "4m", flowers="1f", live=3))["haidi"] == 10
    assert "haidi" not in items(judge(PLAIN, "4m", flowers="1f", live=4))


def test_bixiahu_doubles_the_share() -> None:
    verdict = judge(PLAIN, "4m", flowers="1f", multiplier=2)
    assert items(verdict)["bixiahu"] == 2
    assert sheet_of(verdict).share == 84


def test_best_reading_is_scored() -> None:
    # 111222333m: three pungs (对对胡 with 456p? no) or three runs; the pung reading adds nothing here,
    # but 11122233344455m as all pungs + 55 pair gives 清一色 对对胡 over the run readings.
    verdict = judge("11122233344455m", "5m", flowers="1f")
    assert items(verdict)["duiduihu"] == 40
    assert items(verdict)["qingyise"] == 60
