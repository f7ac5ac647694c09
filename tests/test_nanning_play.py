"""Nanning table rules in play, one test per clause (docs/rules/nanning.md). The scoring tables are
checked line by line by the records in tests/data/records/nanning/."""

from __future__ import annotations

from pathlib import Path

import pytest

from hupai.game import IllegalAction, Match, Phase, legal_actions, step, verify
from hupai.game.actions import Discard, Pass, Win
from hupai.game.contract import WinVerdict
from hupai.game.engine import new_hand
from hupai.game.stacking import stack_wall
from hupai.game.view import view
from hupai.rules import load_ruleset
from hupai.tiles import parse_tiles

from .helpers import items, judge, play, table, transfers

DEALER = "11599p1199s12344z"  # a dealer hand far from ready
N = "nanning"


def tile(text: str) -> int:
    return parse_tiles(text)[0]


def test_136_tiles_and_no_flowers() -> None:
    ruleset = load_ruleset(N)
    assert len(ruleset.tile_set()) == 136
    assert not any(ruleset.is_flower(t) for t in ruleset.tile_set())
    state = new_hand(ruleset, seed=4)
    assert [p.concealed_count for p in state.seats] == [14, 13, 13, 13]
    assert state.live_tiles == 136 - 53


def test_every_tile_is_drawn_before_a_draw() -> None:
    state = new_hand(load_ruleset(N), seed=9)
    while state.phase is not Phase.ENDED:
        if state.phase is Phase.TURN:
            player = state.seats[state.turn]
            drawn = (
                player.drawn if player.drawn is not None else next(k for k in range(34) if player.counts[k])
            )
            step(state, Discard(seat=state.turn, tile=drawn))
        else:
            assert state.window is not None
            seat = next(s for s in sorted(state.window.options) if s not in state.window.decisions)
            step(state, Pass(seat=seat))
    assert state.outcome == "draw"
    assert state.back - state.front + 1 == 0  # 摸完所有牌 (S001)


def test_a_passed_win_blocks_wins_until_ones_own_next_draw() -> None:
    # 卖胡 (S000b): seat 3 waits on 3p/6p and lets seat 1's 3p go; seat 2's 6p is then no win for it,
    # and after seat 3 has drawn again the dealer's 3p is.
    hands = {0: "11669p1199s12344z", 3: "123m456m789m11s45p"}  # the dealer could pong 6p
    state = table(hands, draws="3p6p1z3p", preset=N)
    play(state, "0 d 1p", "1 t", "3 pass", "2 t")
    assert Win(seat=3) not in legal_actions(state, 3)
    with pytest.raises(IllegalAction, match="过胡不胡"):
        verify(state, Win(seat=3))
    play(state, "3 t", "0 t")
    assert Win(seat=3) in legal_actions(state, 3)


def test_a_pung_taken_instead_of_a_win_lets_the_win_go() -> None:
    # Seat 2 waits on 5p or 6p (two pairs); it pongs seat 1's 5p instead of winning, lets 1z go,
    # and may not win on seat 3's 6p before its own next draw.
    state = table({0: DEALER, 2: "123m456m789m55p66p"}, draws="5p1z6p", preset=N)
    play(state, "0 d 1p", "1 t", "2 pong", "2 d 1m", "3 t")
    assert Win(seat=2) not in legal_actions(state, 2)


def test_fenghu_the_player_who_fed_three_sets_may_not_win() -> None:
    # The dealer feeds seat 1 three pungs; the dealer's own hand is then complete on a 4m, which it
    # may neither take from a discard nor draw (S001 十二 "被碰者本局不能胡牌").
    # The dealer keeps the 1s and 6m it draws: 123m 456p 789s 11s 56m, waiting on 4m.
    hands = {0: "5p7s3m123m456p789s1s5m", 1: "5p5p7s7s3m3m999s1s1z2z3z"}
    state = table(hands, draws="4z5z1s6z7z6m4z5z4m", preset=N)
    play(state, "0 d 5p", "1 pong", "1 d 1z", "2 t", "3 t", "0 d 7s", "1 pong", "1 d 2z", "2 t", "3 t")
    play(state, "0 d 3m", "1 pong", "1 d 3z", "2 t", "3 t")
    assert state.turn == 0 and state.phase is Phase.TURN
    assert state.seats[0].drawn == tile("4m")
    assert Win(seat=0) not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="封胡"):
        verify(state, Win(seat=0))


def test_an_added_kong_after_a_concealed_kong_cannot_be_robbed() -> None:
    # Seat 2 ponged 5m; later it makes a concealed kong of 8p whose replacement is the fourth 5m and
    # adds it to the pung: seat 1, waiting on 5m, may not rob it (S001 九 "先暗杠后连明杠也不能抢杠胡").
    hands = {0: "5m11599p1199s1234z", 1: "123p789s11s46m345s", 2: "5m5m8p8p8p147m258s36p"}
    state = table(hands, draws="1z7z2z8p", replacements="5m6z", preset=N)
    play(state, "0 d 5m", "2 pong", "2 d 1m", "3 t", "0 t", "1 t", "2 kong 8p", "2 kong 5m")
    assert state.phase is Phase.TURN  # no window for robbers: the kong completed
    assert state.seats[2].melds[0].kind.value == "added_kong"


def test_kong_points_are_paid_at_once() -> None:
    hands = {0: DEALER, 1: "555p1478m258s234z", 2: "9999m1367p258s14z"}
    state = table(hands, draws="2z", replacements="3z1z", preset=N)
    play(state, "0 d 5p", "1 kong", "1 t", "2 kong 9m", "2 t")
    assert transfers(state) == [
        (0, 1, 1, "exposed_kong"),
        (3, 2, 1, "concealed_kong"),
        (0, 2, 1, "concealed_kong"),
        (1, 2, 1, "concealed_kong"),
    ]


def test_concealed_kongs_are_face_down_to_the_others() -> None:
    hands = {0: DEALER, 2: "9999m1367p258s14z"}
    state = table(hands, draws="2z2z", replacements="3z", preset=N)
    play(state, "0 d 1p", "1 t", "2 kong 9m")
    assert view(state, 2).seats[2].melds[0].tile == tile("9m")
    assert view(state, 1).seats[2].melds[0].tile is None
    assert view(state, None).seats[2].melds[0].tile is None


def test_several_winners_and_the_discarder_deals_next() -> None:
    ruleset = load_ruleset(N)
    match = Match(ruleset)
    deal, wall = stack_wall(ruleset, hands={0: DEALER, 1: "123m456m789m11s46p", 2: "1235789p234567s"})
    state = match.start_hand(deal=deal, wall=wall)
    play(state, "0 d 5p", "1 hu", "2 hu")
    # 人胡: on the dealer's first discard, each win is a 门清大炮 paid by the dealer (12 each).
    assert transfers(state) == [(0, 1, 12, "dapao"), (0, 2, 12, "dapao")]
    result = match.finish_hand()
    assert result.next_dealer == 0  # 一炮多响: the discarder deals next (S000b)


def test_a_single_winner_deals_next_and_after_a_draw_the_last_drawer() -> None:
    ruleset = load_ruleset(N, {"reserved_tiles": 80})  # three tiles to draw keep the hands short
    match = Match(ruleset)
    deal, wall = stack_wall(ruleset, hands={0: DEALER, 2: "123m456m789m11s46p"}, draws="5p")
    state = match.start_hand(deal=deal, wall=wall)
    play(state, "0 d 1p", "1 t", "2 hu")
    assert match.finish_hand().next_dealer == 2  # 胡牌者為下一局莊家 (S004)
    deal, wall = stack_wall(ruleset, dealer=2, hands={2: DEALER}, draws="1z2z3z")
    state = match.start_hand(deal=deal, wall=wall)
    play(state, "2 d 1p", "3 t", "0 t", "1 t")
    assert state.outcome == "draw"
    assert match.finish_hand().next_dealer == 1  # the player who drew the last tile (S000b)


def test_plain_wins_on_a_discard_only_as_a_dapao_with_seed_004() -> None:
    hands = {0: DEALER, 2: "123m456m789m11s46p", 3: "55p1479m258s1234z"}  # seat 3 keeps the discard open
    standard = table(hands, draws="5p", preset=N)
    play(standard, "0 d 1p", "1 t")
    assert Win(seat=2) in legal_actions(standard, 2)  # 门清 on a discard: 4
    seed_004 = table(hands, draws="5p", preset="nanning-004")
    play(seed_004, "0 d 1p", "1 t")
    # Seed 004: 门清 counts only when self-drawn, and a plain hand may not win on a discard.
    assert Win(seat=2) not in legal_actions(seed_004, 2)
    with pytest.raises(IllegalAction, match="鸡胡不可放炮"):
        verify(seed_004, Win(seat=2))


def test_minimum_points() -> None:
    hands = {0: DEALER, 2: "123m456m789m11s46p", 3: "55p1479m258s1234z"}
    state = table(hands, draws="5p", preset=N, min_points=9)
    play(state, "0 d 1p", "1 t")
    with pytest.raises(IllegalAction, match="起胡 9"):
        verify(state, Win(seat=2))


def test_every_option_item_and_reason_is_documented() -> None:
    from hupai.rules.nanning.items import ITEMS, REASONS
    from hupai.rules.nanning.options import NanningOptions

    doc = (Path(__file__).parent.parent / "docs" / "rules" / "nanning.md").read_text(encoding="utf-8")
    assert [name for name in NanningOptions.__dataclass_fields__ if f"`{name}`" not in doc] == []
    assert [key for key in ITEMS if f"`{key}`" not in doc] == []
    assert [key for key in REASONS if f"`{key}`" not in doc] == []


def test_all_honours_counts_as_a_full_flush() -> None:
    found = items(judge_nanning("111z222z333z444z55z", "5z"))
    assert found["qingyise"] == 2  # 字一色 is 清一色 in Nanning (S001 四)
    assert found["pengpenghu"] == 2


def test_horses_from_the_back_of_the_wall() -> None:
    # 买马 with two horses: 9m points at the dealer, 3s at seat 2 (the one opposite): one hit, ×2.
    hands = {0: DEALER, 2: "123m456m789m11s46p"}
    state = table(hands, draws="5p", replacements="3s9m", preset=N, maima=2)
    play(state, "0 d 1p", "1 t", "2 hu")
    assert transfers(state) == [(1, 2, 8, "win_discard")]
    assert [entry.key for entry in state.wins[0].sheet.items][-1] == "maima"


def judge_nanning(hand: str, winning: str) -> WinVerdict:
    return judge(hand, winning, how="discard", discarder=0, preset=N)


def test_a_player_with_four_melds_who_deals_in_pays_a_surcharge_with_seed_004() -> None:
    # 全求炮: seat 2 has four pungs and lets 1s go; seat 1 wins a plain hand. S001: 大炮 (3 × 3 = 9);
    # S004 (surcharge): an ordinary deal-in (2) plus 9.
    from .test_nanning_play_support import four_melds_deal_in

    assert four_melds_deal_in({}) == [(2, 1, 9, "dapao")]
    assert four_melds_deal_in({"quanqiu_pao": "surcharge"}) == [
        (2, 1, 2, "win_discard"),
        (2, 1, 9, "quanqiupao_surcharge"),
    ]


def test_codes_after_a_concealed_kong_bloom_come_from_the_kong_end() -> None:
    from .test_nanning_play_support import concealed_bloom_with_code

    # 2p points at seat 1 (the dealer's 下家: 2/6/南/发): 8 × 2 = 16 from each (S000b 摸码 "牌尾").
    assert [amount for _, _, amount, _ in concealed_bloom_with_code("2p")] == [16, 16, 16]
    assert [amount for _, _, amount, _ in concealed_bloom_with_code("3p")] == [8, 8, 8]


def test_a_record_claim_refused_by_a_rule_names_the_rule() -> None:
    """Seat 3 passes a win on seat 0's 5p; when seat 1 lets the next 5p go, a record that has seat 3
    win on it is refused with 过胡不胡, not with whose turn it is once play has moved on."""
    from hupai.game.record import RecordError, read_record
    from hupai.game.stacking import stack_wall
    from hupai.replay import replay
    from hupai.tiles import format_tiles

    bots = "1s3s5s7s9s1z2z3z4z5z6z9p7p"
    ruleset = load_ruleset("nanning")
    deal, wall = stack_wall(
        ruleset, hands={0: bots + "5p", 1: bots, 2: bots, 3: "123456789m123p5p"}, draws="5p"
    )
    record = {
        "format": "hupai-record/1",
        "ruleset": "nanning",
        "hands": [
            {
                "dealer": 0,
                "deal": [format_tiles(hand) for hand in deal],
                "wall": format_tiles(wall),
                "actions": [
                    {"seat": 0, "act": "discard", "tile": "5p"},
                    {"seat": 3, "act": "pass"},
                    {"seat": 1, "act": "discard", "tile": "5p"},
                    {"seat": 3, "act": "hu"},
                ],
            }
        ],
    }
    with pytest.raises(RecordError, match=r"hand 0, action 3 .*过胡不胡"):
        replay(read_record(record))
