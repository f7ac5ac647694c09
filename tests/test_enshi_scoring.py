"""Enshi scoring, one test per rule clause and every worked example ES-01 … ES-11 (docs/rules/enshi.md).

Tables are built directly (no play): the 痞子 is 5m, so the 赖子 is 6m, unless a test says otherwise.
Payments are listed per seat 0 / 1 / 2 / 3, as in the spec's §10.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from hupai.game.contract import WinVerdict
from hupai.game.model import (
    SEATS,
    HandState,
    Meld,
    MeldKind,
    Phase,
    SeatState,
    WinContext,
    WinKind,
    WinResult,
)
from hupai.rules import RuleError, find_preset, load_ruleset
from hupai.rules.enshi import EnshiOptions, EnshiRuleSet
from hupai.rules.enshi.scoring import apply_caps, is_jianzihu
from hupai.rules.labels import option_labels
from hupai.tiles import parse_counts, parse_tiles

KINDS = {
    "chow": MeldKind.CHOW,
    "pung": MeldKind.PUNG,
    "kong": MeldKind.EXPOSED_KONG,
    "added": MeldKind.ADDED_KONG,
    "concealed": MeldKind.CONCEALED_KONG,
}


# (kind, tile, feeder), or for a chow with a 赖子 in it (laizi_in_melds) also the tile it stands for.
Melds = Mapping[int, Sequence[tuple[str, str, int | None] | tuple[str, str, int | None, str]]]


def tile(text: str) -> int:
    (one,) = parse_tiles(text)
    return one


def table(
    *,
    pizi: str = "5m",
    live: int = 40,
    laid: dict[int, str] | None = None,
    melds: Melds | None = None,
    **options: Any,
) -> HandState:
    """A quiet table in the middle of a hand: ``laid`` tiles per seat, ``melds`` per seat as
    (kind, tile, feeder); a chow's tile is its lowest."""
    ruleset = load_ruleset("enshi", options)
    turned = tile(pizi)
    state = HandState(
        ruleset=ruleset,
        dealer=0,
        wall=[0] * live,
        front=0,
        back=live - 1,
        seats=[SeatState() for _ in range(SEATS)],
        phase=Phase.TURN,
        turn=0,
        pizi=turned,
        laizi=ruleset.wild_of(turned),
    )
    for seat, tiles in (laid or {}).items():
        state.seats[seat].laid.extend(parse_tiles(tiles))
    for seat, specs in (melds or {}).items():
        for kind, meld_tile, feeder, *wild in specs:
            player = state.seats[seat]
            meld = Meld(KINDS[kind], tile(meld_tile), feeder, len(player.melds))
            if wild:
                meld.laizi_for, meld.laizi = tile(wild[0]), state.laizi
            player.melds.append(meld)
    return state


def win(
    state: HandState,
    seat: int,
    hand: str,
    winning: str,
    *,
    discarder: int | None = None,
    robbed: bool = False,
    chain: tuple[tuple[str, int | None], ...] = (),
) -> tuple[WinVerdict, WinContext]:
    """Judge ``seat``'s win: ``hand`` is its concealed tiles including the winning tile."""
    counts = parse_counts(hand)
    won = tile(winning)
    assert counts[won], "the hand includes the winning tile"
    kind = WinKind.SELF_DRAWN if discarder is None else WinKind.ROBBED_KONG if robbed else WinKind.DISCARD
    held = list(counts)
    if kind is not WinKind.SELF_DRAWN:
        held[won] -= 1
    state.seats[seat].counts = held
    context = WinContext(
        seat=seat,
        tile=won,
        kind=kind,
        discarder=discarder,
        counts=tuple(counts),
        replacement_chain=chain,
        live_tiles=state.live_tiles,
    )
    return state.ruleset.judge_win(state, context), context


def payments(state: HandState, context: WinContext, verdict: WinVerdict) -> list[int]:
    assert verdict.allowed, verdict.reason
    assert verdict.sheet is not None
    totals = [0] * SEATS
    for transfer in state.ruleset.win_transfers(state, context, verdict.sheet):
        assert transfer.payee == context.seat
        totals[transfer.payer] -= transfer.amount
        totals[transfer.payee] += transfer.amount
    return totals


def settle(state: HandState, seat: int, hand: str, winning: str, **how: Any) -> list[int]:
    verdict, context = win(state, seat, hand, winning, **how)
    return payments(state, context, verdict)


def keys(verdict: WinVerdict) -> dict[str, int]:
    assert verdict.sheet is not None, verdict.reason
    return {entry.key: entry.value for entry in verdict.sheet.items}


def refused(verdict: WinVerdict) -> str:
    assert not verdict.allowed
    assert verdict.sheet is None
    return verdict.reason


# --- the rule set --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["enshi", "es", "ES", "恩施", "恩施麻将", "一痞二赖"])
def test_preset_and_aliases(name: str) -> None:
    ruleset = load_ruleset(name)
    assert isinstance(ruleset, EnshiRuleSet)
    assert (ruleset.name, ruleset.zh, ruleset.en) == ("enshi", "恩施麻将", "Enshi mahjong")
    assert ruleset.preset == "enshi"
    assert ruleset.options == EnshiOptions()  # the preset changes nothing (§9 Presets)
    assert find_preset(name).name == "enshi"


def test_table_shape_from_the_options() -> None:
    ruleset = load_ruleset("enshi")
    assert len(ruleset.tile_set()) == 108
    assert sorted(set(ruleset.tile_set())) == list(range(27))
    assert not any(ruleset.is_flower(kind) for kind in range(42))
    assert (ruleset.reserved_tiles, ruleset.multi_ron) == (0, False)
    assert (ruleset.indicator, ruleset.chow) == ("back", True)
    assert ruleset.pass_win_restriction and ruleset.pass_pung_restriction
    assert ruleset.pass_win_until == "discard"
    assert not ruleset.concealed_kongs_public and not ruleset.ready_declaration
    assert ruleset.set_aside_tiles == 0
    changed = load_ruleset(
        "es",
        {
            "honours": True,
            "reserved_tiles": 14,
            "multi_ron": True,
            "pizi_flip": "front",
            "chow": False,
            "pass_win_restriction": False,
            "pass_pung_restriction": "off",
        },
    )
    assert len(changed.tile_set()) == 136
    assert (changed.reserved_tiles, changed.multi_ron) == (14, True)
    assert (changed.indicator, changed.chow) == ("front", False)
    assert not changed.pass_win_restriction and not changed.pass_pung_restriction
    assert ruleset.next_multiplier(1, True) == 1
    assert ruleset.escape_transfers(2) == []


def test_es01_es02_the_laizi_follows_the_pizi_nine_wraps_to_one() -> None:
    ruleset = load_ruleset("enshi")
    assert ruleset.wild_of(tile("5m")) == tile("6m")  # ES-01
    for pizi, laizi in (("9m", "1m"), ("9p", "1p"), ("9s", "1s")):  # ES-02
        assert ruleset.wild_of(tile(pizi)) == tile(laizi)
    assert [ruleset.wild_of(kind) for kind in range(8)] == list(range(1, 9))


@pytest.mark.parametrize(
    ("successor", "order"),
    [
        ("winds_dragons", "1z2z3z4z1z 7z6z5z7z"),
        ("riichi", "1z2z3z4z1z 5z6z7z5z"),
        ("single_cycle", "1z2z3z4z7z6z5z1z"),
    ],
)
def test_honour_pizi_successors(successor: str, order: str) -> None:
    ruleset = load_ruleset("enshi", {"honours": True, "honour_successor": successor})
    for cycle in order.split():
        tiles = parse_tiles(cycle)
        assert [ruleset.wild_of(kind) for kind in tiles[:-1]] == tiles[1:]


def test_multiplier_from_lays_and_kongs() -> None:
    state = table(
        laid={1: "5m6m6m"},
        melds={1: [("kong", "1p", 0), ("added", "2p", 3), ("concealed", "3p", None), ("pung", "4p", 2)]},
    )
    ruleset = state.ruleset
    assert isinstance(ruleset, EnshiRuleSet)
    assert ruleset.multiplier(state, 1) == 2 * 4 * 4 * 2 * 2 * 4
    assert ruleset.multiplier(state, 0) == 1
    assert ruleset.seat_multiplier(state, 1) == ruleset.multiplier(state, 1)
    doubled = table(laid={2: "5m"}, pizi_factor=3, laizi_factor=5, melds={2: [("concealed", "1p", None)]})
    assert isinstance(doubled.ruleset, EnshiRuleSet)
    assert doubled.ruleset.multiplier(doubled, 2) == 3 * 4


# --- turn hooks -----------------------------------------------------------------------------------


def test_is_complete_counts_laizi_as_wildcards_and_a_held_pizi_blocks() -> None:
    state = table()
    ruleset = state.ruleset
    assert ruleset.is_complete(state, 1, parse_counts("123m456p789s1s6m"))  # the 赖子 pairs the 1s
    assert ruleset.is_complete(state, 1, parse_counts("123m456p789s6m6m"))
    assert not ruleset.is_complete(state, 1, parse_counts("123m456p789s1s2s"))
    assert not ruleset.is_complete(state, 1, parse_counts("123m456p789s55m"))  # 有痞子不能胡
    loose = table(pizi_blocks_win=False)
    assert loose.ruleset.is_complete(loose, 1, parse_counts("123m456p789s55m"))


def test_shape_refusal_explains_a_held_pizi() -> None:
    state = table()
    reason = state.ruleset.shape_refusal(state, 1, parse_counts("123m456p789s55m"))
    assert reason.startswith("有痞子不能胡: seat 1 holds the 痞子 五万 (5m)")
    assert state.ruleset.shape_refusal(state, 1, parse_counts("123m456p789s5m1s")) == ""  # not complete
    assert state.ruleset.shape_refusal(state, 1, parse_counts("123m456p789s11s")) == ""
    loose = table(pizi_blocks_win=False)
    assert loose.ruleset.shape_refusal(loose, 1, parse_counts("123m456p789s55m")) == ""


def test_lay_hooks() -> None:
    state = table(live=1)
    ruleset = state.ruleset
    state.seats[1].counts = parse_counts("5m6m6m123p")
    assert ruleset.layable(state, 1) == [tile("5m"), tile("6m")]
    assert ruleset.layable(state, 2) == []
    assert not ruleset.must_lay(state, 1)
    strict = table(live=1, forbid_keeping_pizi=True)
    strict.seats[1].counts = parse_counts("5m123p")
    strict.seats[2].counts = parse_counts("6m123p")
    assert strict.ruleset.must_lay(strict, 1)
    assert not strict.ruleset.must_lay(strict, 2)  # 禁止养痞 is about the 痞子 only
    # No lay, and no forced lay, once no live tile is left to replace it.
    state.back, strict.back = -1, -1
    assert state.ruleset.layable(state, 1) == []
    assert not strict.ruleset.must_lay(strict, 1)


@pytest.mark.parametrize("laizi_in_melds", [False, True])
def test_no_kong_of_the_laizi_or_the_pizi_kind(laizi_in_melds: bool) -> None:
    state = table(laizi_in_melds=laizi_in_melds)
    assert not state.ruleset.may_kong(state, 1, tile("6m"))
    assert not state.ruleset.may_kong(state, 1, tile("5m"))
    assert state.ruleset.may_kong(state, 1, tile("7m"))


def test_pizi_and_laizi_leave_the_hand_only_by_laying() -> None:
    state = table()
    state.seats[1].counts = parse_counts("5m6m123p")
    ruleset = state.ruleset
    assert ruleset.discard_refusal(state, 1, tile("1p")) == ""
    assert ruleset.discard_refusal(state, 1, tile("5m")).startswith("痞子不能打")
    assert "lay" in ruleset.discard_refusal(state, 1, tile("6m"))
    assert ruleset.discard_refusal(state, 1, tile("6m")).startswith("赖子不能打")
    # §3.2 item 8: at the end of the wall a 痞子/赖子 is discarded only when nothing else is left.
    state.back = -1
    assert ruleset.discard_refusal(state, 1, tile("6m")) != ""
    state.seats[1].counts = parse_counts("5m6m")
    assert ruleset.discard_refusal(state, 1, tile("6m")) == ""
    assert ruleset.discard_refusal(state, 1, tile("5m")) == ""


def test_chow_options_from_natural_tiles_only() -> None:
    state = table()
    state.seats[1].counts = parse_counts("1245m7m")
    ruleset = state.ruleset
    # 3m: 123m and 234m; 345m would need the 痞子 5m.
    assert ruleset.chow_options(state, 1, tile("3m")) == [tile("1m"), tile("2m")]
    # 7m: 567m and 678m need the 赖子 6m, 789m needs 8m and 9m.
    state.seats[1].counts = parse_counts("56m8m6m")
    assert ruleset.chow_options(state, 1, tile("7m")) == []
    state.seats[1].counts = parse_counts("89m23p")
    assert ruleset.chow_options(state, 1, tile("1p")) == [tile("1p")]  # no run across suits
    assert ruleset.chow_options(state, 1, tile("5m")) == []  # the 痞子 is never claimed
    with_wild = table(laizi_in_melds=True)
    with_wild.seats[1].counts = parse_counts("1245m7m6m")
    low = with_wild.ruleset.chow_options(with_wild, 1, tile("3m"))
    assert low == [tile("1m"), tile("2m"), tile("3m")]  # one 赖子 stands in for the missing 5m
    honours = table(honours=True)
    honours.seats[1].counts = parse_counts("12z")
    assert honours.ruleset.chow_options(honours, 1, tile("3z")) == []


def test_robbing_and_kong_money() -> None:
    state = table(melds={1: [("kong", "1p", 0), ("added", "2p", 3), ("concealed", "3p", None)]})
    assert state.ruleset.kong_can_be_robbed(state, 1, tile("2p"))
    assert not table(rob_kong=False).ruleset.kong_can_be_robbed(state, 1, tile("2p"))
    assert [state.ruleset.kong_transfers(state, 1, index) for index in range(3)] == [[], [], []]
    money = table(kong_money=2, melds={1: [("kong", "1p", 0), ("added", "2p", 3), ("concealed", "3p", None)]})
    paid = [
        [(t.payer, t.payee, t.amount, t.reason) for t in money.ruleset.kong_transfers(money, 1, index)]
        for index in range(3)
    ]
    assert paid == [
        [(0, 1, 2, "kong_money")],
        [(3, 1, 2, "kong_money")],  # the pung's feeder pays for the added kong
        [(2, 1, 2, "kong_money"), (3, 1, 2, "kong_money"), (0, 1, 2, "kong_money")],
    ]


# --- who may win (§4.2) --------------------------------------------------------------------------


def test_a_hand_that_is_not_complete_is_refused() -> None:
    assert refused(win(table(), 1, "123m456p789s1s2s", "2s")[0]).startswith("诈胡")


def test_you_pizi_bu_neng_hu() -> None:
    state = table()
    reason = refused(win(state, 1, "123m456p789s111s55m", "1s")[0])
    assert reason.startswith("有痞子不能胡")
    assert "5m" in reason
    loose = table(pizi_blocks_win=False)
    assert keys(win(loose, 1, "123m456p789s111s55m", "1s")[0]) == {"daxie": 5, "hard": 2}


def test_chuotai_no_pihu_with_a_laizi_until_someone_lays() -> None:
    hand, melds = "34m6m11s456s789s", {1: [("chow", "2p", 0)]}
    reason = refused(win(table(melds=melds), 1, hand, "9s", discarder=2)[0])
    assert reason.startswith("不能戳胎")
    # A kong is not a lay.
    konged = table(melds={**melds, 3: [("concealed", "9m", None)]})
    assert refused(win(konged, 1, hand, "9s", discarder=2)[0]).startswith("不能戳胎")
    # The winner's own lay counts, and so does anybody's.
    assert win(table(melds=melds, laid={1: "6m"}), 1, hand, "9s", discarder=2)[0].allowed
    assert win(table(melds=melds, laid={0: "5m"}), 1, hand, "9s", discarder=2)[0].allowed
    # A 硬 屁胡 (no 赖子) is not affected: 1 × 2, the discarder 4, the others 2 (§10 ES-03 note).
    assert settle(table(melds=melds), 1, "234m11s456s789s", "9s", discarder=2) == [-2, 8, -4, -2]
    # Nor are 小斜, 大斜 and 七对.
    assert win(table(melds=melds), 1, hand, "9s")[0].allowed
    assert win(table(), 1, "23m6m456p789p123s5s4m", "4m", discarder=0)[0].allowed


def test_jianzihu_only_self_drawn() -> None:
    lone = "123m789m123p456s6m"  # four sets and a lone 赖子: any tile pairs it
    assert is_jianzihu(parse_counts(lone), tile("6m"), range(27))
    assert is_jianzihu(parse_counts("123m789m456p11s6m6m"), tile("6m"), range(27))  # two 赖子, a pair
    assert is_jianzihu(parse_counts("11m22m33m44p55p66p6m"), tile("6m"), range(27))  # six pairs, a 赖子
    assert not is_jianzihu(parse_counts("11m7m22p33p44s99s3s6m"), tile("6m"), range(27))
    state = table(laid={0: "5m"})
    reason = refused(win(state, 1, lone + "1s", "1s", discarder=0)[0])
    assert reason.startswith("见字胡必须自摸")
    assert refused(win(state, 1, lone + "1s", "1s", discarder=0, robbed=True)[0]).startswith("见字胡必须自摸")
    assert keys(win(state, 1, lone + "1s", "1s")[0]) == {"daxie": 5}
    free = table(laid={0: "5m"}, jianzihu_self_drawn_only=False)
    assert win(free, 1, lone + "1s", "1s", discarder=0)[0].allowed


def test_max_laizi_in_win() -> None:
    hand = "123m789m123p111s6m6m"
    assert win(table(), 1, hand, "1s")[0].allowed
    reason = refused(win(table(max_laizi_in_win=1), 1, hand, "1s")[0])
    assert reason.startswith("赖子太多")
    assert win(table(max_laizi_in_win=2), 1, hand, "1s")[0].allowed


def test_min_points_counts_the_three_raw_lines() -> None:
    es04 = "12m6m345p678p99s"
    melds = {2: [("pung", "7s", 0)]}
    assert win(table(melds=melds, min_points=9), 2, es04, "9s")[0].allowed
    reason = refused(win(table(melds=melds, min_points=10), 2, es04, "9s")[0])
    assert reason == "起胡 10: this win is worth only 9"


# --- hand values (§5) ----------------------------------------------------------------------------


def test_four_kinds_of_win_and_their_values() -> None:
    melds = {1: [("pung", "7s", 0)]}
    lays = {3: "5m"}
    pihu = win(table(melds=melds, laid=lays), 1, "12m6m345p678p99s", "9s", discarder=2)[0]
    assert keys(pihu) == {"pihu": 1}
    xiaoxie = win(table(melds=melds), 1, "12m6m345p678p99s", "9s")[0]
    assert keys(xiaoxie) == {"xiaoxie": 3}
    daxie = win(table(), 1, "12m6m345p678p99s789s", "9s", discarder=0)[0]
    assert keys(daxie) == {"daxie": 5}
    qidui = win(table(), 1, "11m7m22p33p44s99s6m3s3s", "3s", discarder=0)[0]
    assert keys(qidui) == {"qidui": 5}
    for verdict, note in ((pihu, "pihu"), (xiaoxie, "xiaoxie"), (daxie, "daxie"), (qidui, "qidui")):
        assert verdict.sheet is not None
        assert verdict.sheet.notes[0] == note
        assert not verdict.sheet.big_hand


def test_points_and_stake_options() -> None:
    state = table(melds={1: [("pung", "7s", 0)]}, xiaoxie_points=4, difen=2)
    verdict = win(state, 1, "12m6m345p678p99s", "9s")[0]
    assert keys(verdict) == {"xiaoxie": 4, "difen": 2}
    assert verdict.sheet is not None
    assert verdict.sheet.share == 8


def test_hard_doubles_and_laid_laizi_do_not_spoil_it() -> None:
    melds = {2: [("pung", "7s", 0)]}
    assert keys(win(table(melds=melds), 2, "123m345p678p99s", "9s")[0]) == {"xiaoxie": 3, "hard": 2}
    laid = win(table(melds=melds, laid={2: "6m"}), 2, "123m345p678p99s", "9s")[0]
    assert keys(laid) == {"xiaoxie": 3, "hard": 2, "laizi_laid": 4}
    assert keys(win(table(melds=melds, hard_factor=3), 2, "123m345p678p99s", "9s")[0])["hard"] == 3


def test_laizi_as_itself_counts_hard_only_with_the_option() -> None:
    hand = "78m6m345p678p99s"  # the 赖子 6m may stand for 6m in 678m (or for 9m)
    melds = {2: [("pung", "7s", 0)]}
    assert keys(win(table(melds=melds), 2, hand, "9s")[0]) == {"xiaoxie": 3}
    itself = win(table(melds=melds, laizi_as_itself_hard=True), 2, hand, "9s")[0]
    assert keys(itself) == {"xiaoxie": 3, "hard": 2}
    # A 赖子 standing for another tile is still a 赖子.
    other = "13m6m345p678p99s"
    assert keys(win(table(melds=melds, laizi_as_itself_hard=True), 2, other, "9s")[0]) == {"xiaoxie": 3}


def test_a_laizi_standing_in_a_chow_is_a_laizi_of_the_winning_hand() -> None:
    """laizi_in_melds (§3.3): seat 2 chowed 234p with a 赖子 for the 4p it lacked; its concealed tiles
    hold none. That 赖子 is in the winning hand all the same: no 硬 (§5.2), 戳胎 applies (§4.2), and
    it counts against max_laizi_in_win; with laizi_as_itself_hard only one standing for its own face
    (a 6m for the 6m of 678m) leaves the hand 硬."""
    wild, natural = {2: [("chow", "2p", 1, "4p")]}, {2: [("chow", "2p", 1)]}
    hand = "123m345s678s99s"
    assert keys(win(table(melds=natural, laizi_in_melds=True), 2, hand, "9s")[0]) == {"xiaoxie": 3, "hard": 2}
    assert keys(win(table(melds=wild, laizi_in_melds=True), 2, hand, "9s")[0]) == {"xiaoxie": 3}
    assert settle(table(melds=wild, laizi_in_melds=True), 2, hand, "9s") == [-3, -3, 9, -3]
    as_itself = table(melds=wild, laizi_in_melds=True, laizi_as_itself_hard=True)
    assert keys(win(as_itself, 2, hand, "9s")[0]) == {"xiaoxie": 3}  # it stands for 4p, not 6m
    own_face = {2: [("chow", "6m", 1, "6m")]}
    other = "123p345s678s99s"
    assert keys(win(table(melds=own_face, laizi_in_melds=True), 2, other, "9s")[0]) == {"xiaoxie": 3}
    itself = win(table(melds=own_face, laizi_in_melds=True, laizi_as_itself_hard=True), 2, other, "9s")[0]
    assert keys(itself) == {"xiaoxie": 3, "hard": 2}
    # 不能戳胎: a 屁胡 with a 赖子 only in the chow, nobody laid; anybody's lay lifts it.
    reason = refused(win(table(melds=wild, laizi_in_melds=True), 2, hand, "9s", discarder=3)[0])
    assert reason.startswith("不能戳胎")
    laid = win(table(melds=wild, laizi_in_melds=True, laid={0: "5m"}), 2, hand, "9s", discarder=3)[0]
    assert keys(laid) == {"pihu": 1}
    # One 赖子 in the chow and one in the hand (as 9s) are two.
    two = "123m345s678s6m9s"
    reason = refused(win(table(melds=wild, laizi_in_melds=True, max_laizi_in_win=1), 2, two, "9s")[0])
    assert reason.startswith("赖子太多") and "holds 2" in reason
    assert win(table(melds=natural, laizi_in_melds=True, max_laizi_in_win=1), 2, two, "9s")[0].allowed
    assert win(table(melds=wild, laizi_in_melds=True, max_laizi_in_win=2), 2, two, "9s")[0].allowed


def test_open_and_concealed_melds_and_lays() -> None:
    hand = "23m6m456p789p5s4m"
    # A concealed kong keeps 门前清: 大斜 5 × 4.
    concealed = table(melds={1: [("concealed", "9m", None)]})
    assert keys(win(concealed, 1, hand, "4m")[0]) == {"daxie": 5, "concealed_kong": 4}
    assert settle(concealed, 1, hand, "4m") == [-20, 60, -20, -20]
    # An exposed or added kong opens the hand: 小斜 3 × 2.
    for kind in ("kong", "added"):
        opened = table(melds={1: [(kind, "9m", 0)]})
        assert keys(win(opened, 1, hand, "4m")[0]) == {"xiaoxie": 3, "exposed_kong": 2}
    # A chow or pung opens it too; a lay does not.
    assert keys(win(table(melds={1: [("chow", "7s", 0)]}), 1, hand, "4m")[0]) == {"xiaoxie": 3}
    laid = win(table(laid={1: "5m"}), 1, "23m6m456p789p123s5s4m", "4m")[0]
    assert keys(laid) == {"daxie": 5, "pizi_laid": 2}


def test_daxie_on_discard_option() -> None:
    hand = "23m6m456p789p123s5s4m"
    lays = {3: "5m"}
    assert settle(table(laid=lays), 1, hand, "4m", discarder=0) == [-10, 25, -5, -10]
    off = table(laid=lays, daxie_on_discard=False)
    assert keys(win(off, 1, hand, "4m", discarder=0)[0]) == {"pihu": 1}
    assert settle(off, 1, hand, "4m", discarder=0) == [-2, 5, -1, -2]
    assert keys(win(off, 1, hand, "4m")[0]) == {"daxie": 5}  # 大斜 still self-drawn
    # A concealed hand that is a 屁胡 falls under 戳胎 like any other.
    assert refused(win(table(daxie_on_discard=False), 1, hand, "4m", discarder=0)[0]).startswith("不能戳胎")


def test_qidui_levels_and_best_reading() -> None:
    # Seven pairs that also read as sets: the reading paying most is kept (七对 self-drawn 10 > 大斜 5).
    verdict = win(table(), 1, "112233m445566p7s6m", "7s")[0]
    assert keys(verdict) == {"qidui": 5, "qidui_self_drawn": 2}
    hard = win(table(), 1, "112233m445566p77s", "7s")[0]
    assert keys(hard) == {"qidui": 5, "hard": 2, "qidui_self_drawn": 2}
    assert hard.sheet is not None
    assert hard.sheet.share == 20
    # 戳胎 forbids only the 屁胡: a concealed hand read as 七对 still wins with daxie_on_discard off.
    off = win(table(daxie_on_discard=False), 3, "11m7m22p33p44s99s3s6m7m", "7m", discarder=0)[0]
    assert keys(off) == {"qidui": 5}


# --- multipliers (§6) ----------------------------------------------------------------------------


def test_kong_bloom_counts_once_for_a_chain_of_replacements() -> None:
    melds = {2: [("pung", "7s", 0)]}
    hand = "12m6m345p678p44s"
    chain: tuple[tuple[str, int | None], ...] = (("lay", None), ("kong", None), ("lay", None))
    verdict = win(table(melds=melds, laid={2: "5m"}), 2, hand, "4s", chain=chain)[0]
    assert keys(verdict) == {"xiaoxie": 3, "pizi_laid": 2, "kong_bloom": 2}
    assert "kong_bloom" not in keys(win(table(melds=melds), 2, hand, "4s")[0])
    # On a discard the discarder's chain is no 杠开.
    on_discard = win(table(melds=melds, laid={2: "5m"}), 2, hand, "4s", discarder=1, chain=chain)[0]
    assert keys(on_discard) == {"pihu": 1, "pizi_laid": 2}


def test_gangshangpao_is_off_unless_its_factor_is_set() -> None:
    melds = {2: [("pung", "7s", 0)]}
    chain: tuple[tuple[str, int | None], ...] = (("kong", 3),)
    args = (2, "12m6m345p678p44s", "4s")
    lays = {1: "5m"}
    assert "gangshangpao" not in keys(win(table(melds=melds, laid=lays), *args, discarder=1, chain=chain)[0])
    on = table(melds=melds, laid=lays, gangshangpao_factor=2)
    assert keys(win(on, *args, discarder=1, chain=chain)[0]) == {"pihu": 1, "gangshangpao": 2}
    assert "gangshangpao" not in keys(win(on, *args, discarder=1)[0])


# --- payments (§7) -------------------------------------------------------------------------------


def test_payer_lines_and_reasons_on_a_discard() -> None:
    state = table(melds={1: [("chow", "2p", 0)]}, laid={3: "5m"})
    verdict, context = win(state, 1, "34m6m11s456s789s", "9s", discarder=2)
    assert verdict.sheet is not None
    lines = {line.seat: line for line in verdict.sheet.payers}
    assert [(lines[seat].raw, lines[seat].paid, lines[seat].cap) for seat in (2, 3, 0)] == [
        (2, 2, ""),
        (2, 2, ""),
        (1, 1, ""),
    ]
    assert [entry.key for entry in lines[2].items] == ["discarder"]
    assert [entry.key for entry in lines[3].items] == ["pizi_laid"]
    assert lines[0].items == ()
    reasons = {t.payer: t.reason for t in state.ruleset.win_transfers(state, context, verdict.sheet)}
    assert reasons == {2: "win_discard", 3: "win_discard_other", 0: "win_discard_other"}
    assert verdict.sheet.as_dict()["payers"][0]["seat"] == 2
    # win_transfers recomputes the lines when a sheet comes without them.
    bare = dataclasses.replace(verdict.sheet, payers=())
    assert [t.amount for t in state.ruleset.win_transfers(state, context, bare)] == [2, 2, 1]


def test_robbed_kong_is_paid_as_a_discard_by_the_robbed_player() -> None:
    state = table(melds={1: [("pung", "7s", 0)], 2: [("pung", "3m", 0)]}, laid={0: "6m"})
    verdict, context = win(state, 1, "123m6m345p678p9s", "3m", discarder=2, robbed=True)
    assert verdict.sheet is not None
    paid = [(t.payer, t.amount, t.reason) for t in state.ruleset.win_transfers(state, context, verdict.sheet)]
    assert paid == [(2, 2, "robbed_kong"), (3, 1, "win_discard_other"), (0, 4, "win_discard_other")]


def test_self_drawn_reasons() -> None:
    state = table(melds={2: [("pung", "7s", 0)]})
    verdict, context = win(state, 2, "12m6m345p678p99s", "9s")
    assert verdict.sheet is not None
    transfers = state.ruleset.win_transfers(state, context, verdict.sheet)
    assert {t.reason for t in transfers} == {"win_self_drawn"}
    assert (transfers[0].zh, transfers[0].en) == ("自摸", "Self-drawn win: each player's line")


def test_discarder_double_pihu_only() -> None:
    melds = {1: [("chow", "2p", 0)]}
    lays = {3: "5m"}
    pihu = table(melds=melds, laid=lays, discarder_double="pihu_only")
    assert settle(pihu, 1, "34m6m11s456s789s", "9s", discarder=2) == [-1, 5, -2, -2]
    daxie = table(laid=lays, discarder_double="pihu_only")
    assert settle(daxie, 1, "23m6m456p789p123s5s4m", "4m", discarder=0) == [-5, 20, -5, -10]


def test_caps_one_two_or_all_three() -> None:
    options = EnshiOptions()
    assert apply_caps([160, 320, 640], options) == [(160, ""), (320, ""), (400, "cap")]
    assert apply_caps([160, 640, 640], options) == [(160, ""), (400, "cap"), (400, "cap")]
    # 达到…以上: 400 counts; 金顶 pays 500 each, even above a raw 450.
    assert apply_caps([400, 450, 1280], options) == [(500, "gold_cap")] * 3
    assert apply_caps([399, 450, 1280], options) == [(399, ""), (400, "cap"), (400, "cap")]
    diamond = dataclasses.replace(options, diamond_cap=800)
    assert apply_caps([500, 600, 1280], diamond) == [(800, "diamond_cap")] * 3
    assert apply_caps([499, 600, 1280], diamond) == [(500, "gold_cap")] * 3
    uncapped = dataclasses.replace(options, cap=0)
    assert apply_caps([499, 600, 1280], uncapped) == [(499, ""), (600, ""), (1280, "")]
    no_gold = dataclasses.replace(options, gold_cap=0)
    assert apply_caps([400, 450, 1280], no_gold) == [(400, "cap"), (400, "cap"), (400, "cap")]  # 400 is 达到
    # The caps are absolute: 底分 does not scale them.
    assert apply_caps([800, 800, 800], dataclasses.replace(options, difen=2)) == [(500, "gold_cap")] * 3


def test_kong_money_is_not_capped_and_not_in_the_win() -> None:
    state = table(kong_money=5, melds={1: [("concealed", "9m", None)]})
    assert settle(state, 1, "23m6m456p789p5s4m", "4m") == [-20, 60, -20, -20]


# --- dealer (§8) ---------------------------------------------------------------------------------


def _ended(state: HandState, outcome: str, winner: int | None = None) -> HandState:
    state.outcome = outcome
    if winner is not None:
        verdict, context = win(state, winner, "123m345p678p99s777s", "9s")
        assert verdict.sheet is not None
        state.wins.append(WinResult(context, verdict.sheet, ()))
    return state


def _next_dealer(outcome: str, winner: int | None = None, **options: Any) -> int:
    state = _ended(table(**options), outcome, winner)
    result = state.ruleset.hand_outcome(state)
    assert not result.doubles_next
    return result.next_dealer


def test_next_dealer() -> None:
    assert _next_dealer("win", 2) == 2  # the winner deals
    assert _next_dealer("win", 0) == 0
    assert _next_dealer("win", 2, next_dealer="next_seat") == 1
    assert _next_dealer("draw") == 0  # 荒庄: the dealer stays
    assert _next_dealer("draw", next_dealer_on_draw="next_seat") == 1
    assert _next_dealer("abandoned") == 0


# --- options ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"pizi_flip": "middle"}, "'pizi_flip' is one of back, front"),
        ({"honour_successor": "x"}, "'honour_successor' is one of winds_dragons, riichi, single_cycle"),
        ({"discarder_double": "never"}, "'discarder_double' is one of all_wins, pihu_only"),
        ({"next_dealer": "dealer"}, "'next_dealer' is one of winner, next_seat"),
        ({"next_dealer_on_draw": "winner"}, "'next_dealer_on_draw' is one of same_dealer, next_seat"),
        ({"reserved_tiles": 101}, "'reserved_tiles' is a whole number from 0 to 100, not 101"),
        ({"max_laizi_in_win": 5}, "'max_laizi_in_win' is a whole number from 0 to 4, not 5"),
        ({"laizi_factor": 0}, "'laizi_factor' is a whole number from 1 to 8, not 0"),
        ({"difen": 0}, "'difen' is a whole number from 1 to 100, not 0"),
        ({"cap": -1}, "'cap' is a whole number from 0 to 10000, not -1"),
        ({"pihu_points": -1}, "'pihu_points' is a whole number from 1 to 100, not -1"),
        ({"cap": 1e30}, "'cap' is a whole number from 0 to 10000, not a 31-digit number"),
        ({"cap": float("inf")}, "'cap' is a whole number from 0 to 10000, not inf"),
        ({"difen": 10**4000}, "not a 4001-digit number"),
        ({"diamond_cap": 800, "gold_cap": 0}, "options 'diamond_cap' and 'gold_cap' contradict"),
        ({"gold_cap": 300}, "options 'gold_cap' and 'cap' contradict: 'gold_cap' must be above 'cap'"),
        ({"cap": 0}, "options 'gold_cap' and 'cap' contradict: 'gold_cap' needs 'cap'"),
        ({"laizi_in_melds": True, "chow": False}, "options 'laizi_in_melds' and 'chow' contradict"),
        ({"chuotai": False}, "unknown option 'chuotai'"),
        ({"chow": "maybe"}, "'chow' is true or false"),
    ],
)
def test_option_validation(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        load_ruleset("enshi", changes)


def test_option_labels_cover_every_option() -> None:
    labels = option_labels("enshi")
    names = [field.name for field in dataclasses.fields(EnshiOptions)]
    assert list(labels) == names
    assert labels["chuotai_forbidden"]["zh"] == "不能戳胎"
    assert labels["pizi_flip"]["values"] == {
        "back": {"zh": "从尾墩翻", "en": "The wall's last tile"},
        "front": {"zh": "从牌头翻", "en": "The wall's first tile"},
    }
    texts = [field.name for field in dataclasses.fields(EnshiOptions) if isinstance(field.default, str)]
    assert sorted(name for name in labels if "values" in labels[name]) == sorted(texts)


# --- the worked examples (§10) --------------------------------------------------------------------

ES03_MELDS: Melds = {1: [("chow", "2p", 0)]}
ES03_HAND = "34m6m11s456s789s"  # the 赖子 6m as 2m or 5m; wins on seat 2's 9s


def test_es03a_pihu_discarder_two_others_one() -> None:
    state = table(melds=ES03_MELDS, chuotai_forbidden=False)
    verdict, _ = win(state, 1, ES03_HAND, "9s", discarder=2)
    assert keys(verdict) == {"pihu": 1}
    assert settle(state, 1, ES03_HAND, "9s", discarder=2) == [-1, 4, -2, -1]
    # Under the default card the same win is refused (戳胎).
    assert refused(win(table(melds=ES03_MELDS), 1, ES03_HAND, "9s", discarder=2)[0]).startswith("不能戳胎")


def test_es03b_pihu_after_a_pizi_was_laid() -> None:
    state = table(melds=ES03_MELDS, laid={3: "5m"})
    assert settle(state, 1, ES03_HAND, "9s", discarder=2) == [-1, 5, -2, -2]


def test_es04_xiaoxie_three_each() -> None:
    state = table(melds={2: [("pung", "7s", 0)]})
    verdict, _ = win(state, 2, "12m6m345p678p99s", "9s")
    assert keys(verdict) == {"xiaoxie": 3}
    assert settle(state, 2, "12m6m345p678p99s", "9s") == [-3, -3, 9, -3]


def test_es05_daxie_five_each() -> None:
    state = table()
    verdict, _ = win(state, 1, "23m6m456p789p123s5s4m", "4m")
    assert keys(verdict) == {"daxie": 5}
    assert settle(state, 1, "23m6m456p789p123s5s4m", "4m") == [-5, 15, -5, -5]


def test_es06_hard_xiaoxie_six_each() -> None:
    state = table(melds={2: [("pung", "7s", 0)]})
    assert keys(win(state, 2, "123m345p678p99s", "9s")[0]) == {"xiaoxie": 3, "hard": 2}
    assert settle(state, 2, "123m345p678p99s", "9s") == [-6, -6, 18, -6]


ES07_HAND = "11m7m22p33p44s99s3s6m"  # five pairs and a 赖子: waits 7m or 3s


def test_es07_qidui_on_a_discard_both_versions() -> None:
    default = table()
    assert keys(win(default, 3, ES07_HAND + "7m", "7m", discarder=0)[0]) == {"qidui": 5}
    assert settle(default, 3, ES07_HAND + "7m", "7m", discarder=0) == [-10, -5, -5, 20]
    printed = table(discarder_double="pihu_only")
    assert settle(printed, 3, ES07_HAND + "7m", "7m", discarder=0) == [-5, -5, -5, 15]


def test_es08a_qidui_self_drawn_ten_each() -> None:
    state = table()
    assert keys(win(state, 3, ES07_HAND + "3s", "3s")[0]) == {"qidui": 5, "qidui_self_drawn": 2}
    assert settle(state, 3, ES07_HAND + "3s", "3s") == [-10, -10, -10, 30]


ES08B_HAND = "11m77m22p33p44s99s3s"  # no 赖子


def test_es08b_hard_qidui_on_a_discard_both_versions() -> None:
    default = table()
    assert keys(win(default, 3, ES08B_HAND + "3s", "3s", discarder=0)[0]) == {"qidui": 5, "hard": 2}
    assert settle(default, 3, ES08B_HAND + "3s", "3s", discarder=0) == [-20, -10, -10, 40]
    printed = table(discarder_double="pihu_only")
    assert settle(printed, 3, ES08B_HAND + "3s", "3s", discarder=0) == [-10, -10, -10, 30]


def test_es09_hard_qidui_self_drawn_twenty_each() -> None:
    state = table()
    verdict, _ = win(state, 3, ES08B_HAND + "3s", "3s")
    assert keys(verdict) == {"qidui": 5, "hard": 2, "qidui_self_drawn": 2}
    assert settle(state, 3, ES08B_HAND + "3s", "3s") == [-20, -20, -20, 60]


ES10_HAND = "234m456p789p123s5s5s"


def test_es10a_one_loser_capped_at_400() -> None:
    state = table(laid={1: "6m6m", 2: "5m", 3: "6m"})
    verdict, _ = win(state, 1, ES10_HAND, "5s")
    assert keys(verdict) == {"daxie": 5, "hard": 2, "laizi_laid": 16}
    assert verdict.sheet is not None
    assert verdict.sheet.share == 160
    caps = {line.seat: (line.raw, line.paid, line.cap) for line in verdict.sheet.payers}
    assert caps == {0: (160, 160, ""), 2: (320, 320, ""), 3: (640, 400, "cap")}
    assert settle(state, 1, ES10_HAND, "5s") == [-160, 880, -320, -400]
    # Had seat 2 laid a 赖子 instead: two losers capped, still no 金顶.
    two = table(laid={1: "6m6m", 2: "6m", 3: "6m"})
    assert settle(two, 1, ES10_HAND, "5s") == [-160, 960, -400, -400]


def test_es10b_gold_cap_when_all_three_reach_400() -> None:
    state = table(laid={0: "6m", 1: "6m6m", 2: "5m", 3: "6m"}, melds={2: [("concealed", "9m", None)]})
    verdict, _ = win(state, 1, ES10_HAND, "5s")
    assert verdict.sheet is not None
    caps = {line.seat: (line.raw, line.paid, line.cap) for line in verdict.sheet.payers}
    assert caps == {0: (640, 500, "gold_cap"), 2: (1280, 500, "gold_cap"), 3: (640, 500, "gold_cap")}
    assert settle(state, 1, ES10_HAND, "5s") == [-500, 1500, -500, -500]


def test_es11_kong_bloom_after_laying_the_pizi() -> None:
    state = table(laid={0: "6m", 2: "5m"}, melds={2: [("pung", "7s", 0)]})
    assert isinstance(state.ruleset, EnshiRuleSet)
    assert [state.ruleset.multiplier(state, seat) for seat in range(SEATS)] == [4, 1, 2, 1]
    verdict, _ = win(state, 2, "12m6m345p678p44s", "4s", chain=(("lay", None),))
    assert keys(verdict) == {"xiaoxie": 3, "pizi_laid": 2, "kong_bloom": 2}
    assert verdict.sheet is not None
    assert verdict.sheet.share == 12
    assert settle(state, 2, "12m6m345p678p44s", "4s", chain=(("lay", None),)) == [-48, -12, 72, -12]
