"""Nanjing table rules in play, one test per clause: flowers, the wall, claims, kongs, robbing, money
paid at once, 报听, 比下胡 and leaving. Expected values are worked out by hand in the comments."""

from __future__ import annotations

import pytest

from hupai.game import HandState, IllegalAction, Match, Phase, legal_actions, verify
from hupai.game.actions import Discard, Kong, Pong, Win
from hupai.game.engine import win_refusal
from hupai.game.events import FlowerRevealed, HandEnded, KongClaimed
from hupai.game.stacking import stack_wall
from hupai.rules import load_ruleset
from hupai.tiles import parse_tiles

from .helpers import play, table, transfers, win_items

DEALER = "11599p1199s12344z"  # a dealer hand with nothing to win, holding one 5p
JUNK = "147m258p369s1234z"  # a non-dealer hand far from ready


def tile(text: str) -> int:
    return parse_tiles(text)[0]


def test_tile_set_is_144_with_20_flowers() -> None:
    ruleset = load_ruleset("nanjing")
    tiles = ruleset.tile_set()
    assert len(tiles) == 144
    assert sum(1 for t in tiles if ruleset.is_flower(t)) == 20
    assert {t for t in tiles if ruleset.is_flower(t)} == set(parse_tiles("567z12345678f"))


def test_dealer_has_14_and_others_13() -> None:
    state = table({})
    assert [player.concealed_count + len(player.flowers) for player in state.seats] == [14, 13, 13, 13]


def test_opening_flowers_replaced_from_the_back_dealer_first_in_rounds() -> None:
    state = table({0: "1199p1199s1234z7z1f", 1: "2345678p123s44z5z"}, replacements="5z9s1s2s")
    reveals = [(event.seat, event.flower) for event in state.events if isinstance(event, FlowerRevealed)]
    # Round 1: the dealer shows 7z (draws 5z, a flower) and 1f (draws 9s); seat 1 shows 5z (draws 1s).
    # Round 2: the dealer shows the 5z it drew and draws 2s.
    assert reveals == [(0, tile("7z")), (0, tile("1f")), (1, tile("5z")), (0, tile("5z"))]
    assert state.seats[0].counts[tile("9s")] == 3
    assert state.seats[0].counts[tile("2s")] == 1
    assert state.seats[1].counts[tile("1s")] == 2
    assert state.seats[0].concealed_count == 14


def test_flower_drawn_in_play_is_replaced_from_the_back() -> None:
    state = table({0: DEALER, 1: JUNK}, draws="6f", replacements="3s")
    play(state, "0 d 1p")
    assert state.seats[1].flowers == [tile("6f")]
    assert state.seats[1].drawn == tile("3s")


@pytest.mark.parametrize(("held", "drawn"), [("777z", "7z"), ("123f", "4f"), ("567f", "8f")])
def test_flower_kong_is_paid_by_each_player_at_once(held: str, drawn: str) -> None:
    hand = held + "2345678p123s"
    state = table({0: DEALER, 1: hand}, draws=drawn, replacements="1z2z3z4z")
    play(state, "0 d 1p")
    # 花杠: each of the three others pays 6 (S000a, S003a).
    assert transfers(state) == [(2, 1, 6, "flower_kong"), (3, 1, 6, "flower_kong"), (0, 1, 6, "flower_kong")]
    assert state.flower_kongs == 1


def _play_out(state_options: dict[str, int], seed: int = 5) -> tuple[int, bool]:
    """Everyone discards what they draw until the wall runs out; returns the tiles left and whether a
    kong was ever offered with no tile left to replace it."""
    from hupai.game.engine import new_hand

    state = new_hand(load_ruleset("nanjing", state_options), seed=seed)
    kong_at_the_end = False
    while state.phase is not Phase.ENDED:
        if state.phase is Phase.TURN:
            actions = legal_actions(state, state.turn)
            if state.live_tiles <= 0 and any(isinstance(a, Kong) for a in actions):
                kong_at_the_end = True
            player = state.seats[state.turn]
            drawn = (
                player.drawn if player.drawn is not None else next(k for k in range(34) if player.counts[k])
            )
            play(state, f"{state.turn} d {format_tile(drawn)}")
        else:
            assert state.window is not None
            seat = next(s for s in sorted(state.window.options) if s not in state.window.decisions)
            play(state, f"{seat} pass")
    return state.back - state.front + 1, kong_at_the_end


def format_tile(kind: int) -> str:
    from hupai.tiles import format_tiles

    return format_tiles([kind])


def test_sixteen_tiles_are_never_drawn_and_no_kong_at_the_end() -> None:
    left, kong_at_the_end = _play_out({})
    assert left == 16
    assert not kong_at_the_end
    assert _play_out({"reserved_tiles": 0})[0] == 0


def test_a_win_beats_a_pong_on_the_same_discard() -> None:
    state = table({0: DEALER, 1: "3556p1479m258s23z", 2: "123m456m789m11s46p"})
    play(state, "0 d 5p", "1 pong", "2 hu")
    assert state.outcome == "win"
    assert [win.context.seat for win in state.wins] == [2]
    # 20 + 门清 20 + 压档 46p→5p (1 soft ×2) + 无花果 40 = 82, paid by the discarder.
    assert win_items(state) == {"base": 20, "closed_wait": 2, "menqing": 20, "wuhuaguo": 40}
    assert transfers(state) == [(0, 2, 82, "win_discard")]
    assert not any(meld.kind.value == "pung" for meld in state.seats[1].melds)


def test_several_winners_on_one_discard() -> None:
    hands = {0: DEALER, 1: "123m456m789m11s46p", 2: "1235789p234567s"}
    state = table(hands)
    play(state, "0 d 5p", "1 hu", "2 hu")
    # Seat 2: 20 + 门清 20 + 独占 2 + 缺一 (no 万) 2 + 无花果 40 = 84.
    assert transfers(state) == [(0, 1, 82, "win_discard"), (0, 2, 84, "win_discard")]
    ended = [event for event in state.events if isinstance(event, HandEnded)]
    assert ended[0].winners == (1, 2)
    single = table(hands, multi_ron=False)
    play(single, "0 d 5p", "1 hu", "2 hu")
    assert [win.context.seat for win in single.wins] == [1]


def test_passing_a_win_blocks_wins_on_discards_until_ones_own_discard() -> None:
    hands = {0: DEALER, 1: "66p1479m258s1234z", 3: "123m456m789m11s45p"}
    state = table(hands, draws="3p6p1z6p")
    play(state, "0 d 1p", "1 t", "3 pass", "2 t")  # seat 3 lets 3p go; seat 2 discards 6p
    assert Win(seat=3) not in legal_actions(state, 3)
    with pytest.raises(IllegalAction, match="过胡不胡"):
        verify(state, Win(seat=3))
    reason = win_refusal(state, 3)  # shown to the player instead of a 胡 button
    assert reason is not None and "过胡不胡" in reason
    assert win_refusal(state, 1) is None  # seat 1's hand is not complete: nothing to explain
    play(state, "1 pass", "3 t", "0 t")  # seat 3 discards (the block ends); the dealer discards 6p
    assert Win(seat=3) in legal_actions(state, 3)
    assert win_refusal(state, 3) is None
    free = table(hands, draws="3p6p1z6p", pass_win_restriction=False)
    play(free, "0 d 1p", "1 t", "3 pass", "2 t")
    assert Win(seat=3) in legal_actions(free, 3)


def test_passing_a_pong_blocks_that_tile_until_ones_own_discard() -> None:
    hands = {0: DEALER, 1: "123m456m789m11s4p1z", 3: "3556p1479m258s23z"}
    state = table(hands, draws="6p5p")
    play(state, "0 d 5p", "3 pass", "1 d 1z", "2 t")  # seat 1 is now ready on 5p; seat 2 discards 5p
    assert Win(seat=1) in legal_actions(state, 1)
    assert Pong(seat=3) not in legal_actions(state, 3)
    with pytest.raises(IllegalAction, match="过碰不碰"):
        verify(state, Pong(seat=3))


def test_kongs_are_paid_at_once() -> None:
    hands = {0: DEALER, 1: "555p1478m258s234z", 2: "9999m1367p258s14z"}
    state = table(hands, draws="2z", replacements="3z1z")
    play(state, "0 d 5p", "1 kong", "1 t", "2 kong 9m", "2 t")
    # 明杠 (一杠): the discarder pays 6. 暗杠: each of the other three pays 3.
    assert transfers(state) == [
        (0, 1, 6, "exposed_kong"),
        (3, 2, 3, "concealed_kong"),
        (0, 2, 3, "concealed_kong"),
        (1, 2, 3, "concealed_kong"),
    ]
    assert any(isinstance(event, KongClaimed) for event in state.events)


def test_added_kong_is_paid_by_the_feeder_of_the_pung() -> None:
    state = table({0: DEALER, 1: "3556p1479m258s23z"}, draws="1z2z3z5p", replacements="4z")
    play(state, "0 d 5p", "1 pong", "1 d 1m", "2 t", "3 t", "0 t", "1 kong 5p", "1 t")
    assert transfers(state) == [(0, 1, 6, "exposed_kong")]
    assert state.seats[1].melds[0].kind.value == "added_kong"


def test_robbing_an_added_kong_the_robbed_player_pays_three_shares() -> None:
    hands = {0: DEALER, 1: "3556p1479m258s23z", 2: "123m456m789m11s46p"}
    state = table(hands, draws="1z2z3z5p")
    play(state, "0 d 5p", "1 pong", "1 d 1m", "2 t", "3 t", "0 t", "1 kong 5p", "2 hu")
    # The other three 5p sit in seat 1's pung, so seat 2's closed wait on the last copy is 压绝:
    # 20 + 压绝 40 + 门清 20 + 无花果 40 = 120. Robbing counts as self-drawn: the robbed player pays all
    # three shares and gets no kong money (S000a, S002, S003a).
    assert win_items(state) == {"base": 20, "yajue": 40, "menqing": 20, "wuhuaguo": 40}
    assert transfers(state) == [(1, 2, 360, "robbed_kong")]
    assert state.seats[1].melds[0].kind.value == "pung"


def test_four_players_in_a_row_discard_the_same_tile_the_first_pays() -> None:
    state = table({0: DEALER}, draws="1z1z1z")
    play(state, "0 d 1z", "1 t", "2 t", "3 t")
    assert sorted(transfers(state)) == [
        (0, 1, 10, "penalty_follow"),
        (0, 2, 10, "penalty_follow"),
        (0, 3, 10, "penalty_follow"),
    ]


def test_follow_penalty_first_round_scope() -> None:
    state = table({0: DEALER}, draws="1z1z1z", follow_penalty_scope="first_round_dealer_led")
    play(state, "0 d 1z", "1 t", "2 t", "3 t")
    assert len(transfers(state)) == 3
    later = table({0: DEALER}, draws="5m6m7m8m1z1z1z", follow_penalty_scope="first_round_dealer_led")
    play(later, "0 d 9s", "1 t", "2 t", "3 t", "0 d 1z", "1 t", "2 t", "3 t")
    assert transfers(later) == []


def test_one_player_discarding_all_four_copies_pays() -> None:
    hands = {0: DEALER, 1: "147m258p3677s234z"}
    draws = "9m8m8m8m7s6m6m6m9m6m4m4m7s"
    moves = [
        "0 d 1p",
        "1 d 7s",
        "2 t",
        "3 t",
        "0 t",
        "1 d 7s",
        "2 t",
        "3 t",
        "0 t",
        "1 d 7s",
        "2 t",
        "3 t",
        "0 t",
    ]
    state = table(hands, draws=draws)
    play(state, *moves, "1 d 7s")
    assert transfers(state) == [
        (1, 2, 10, "penalty_four"),
        (1, 3, 10, "penalty_four"),
        (1, 0, 10, "penalty_four"),
    ]


def test_ready_declaration_locks_the_hand_and_wins_the_earthly_hand() -> None:
    state = table({0: DEALER, 1: "123m456p789s11s46m"}, draws="1z5m")
    assert state.phase is Phase.DECLARE
    play(state, "1 ready", "0 d 1p")
    assert state.seats[1].ready
    assert legal_actions(state, 1) == [Discard(seat=1, tile=tile("1z"))]
    with pytest.raises(IllegalAction, match="报听"):
        verify(state, Discard(seat=1, tile=tile("1m")))
    play(state, "1 t", "2 t", "1 hu")
    # 20 + 地胡 280 + 压档 2 + 无花果 40 = 342, no 门清 (C-NJ-20).
    assert win_items(state) == {"base": 20, "closed_wait": 2, "dihu": 280, "wuhuaguo": 40}
    assert transfers(state) == [(2, 1, 342, "win_discard")]


def test_heavenly_hand_on_the_dealers_first_turn() -> None:
    state = table({0: "123m456p789s11s456m"})
    play(state, "0 hu")
    assert win_items(state) == {"base": 20, "tianhu": 320, "wuhuaguo": 40}
    assert sorted(transfers(state)) == [
        (1, 0, 380, "win_self_drawn"),
        (2, 0, 380, "win_self_drawn"),
        (3, 0, 380, "win_self_drawn"),
    ]


def test_small_kong_bloom_win_on_a_flower_replacement() -> None:
    state = table({0: DEALER, 1: "123m456p789s11s56m"}, draws="1f", replacements="4m")
    play(state, "0 d 1p", "1 hu")
    # 20 + 1 hard flower ×2 + 门清 20 + 小杠开 20 = 62 from each.
    assert win_items(state) == {"base": 20, "hard_flowers": 2, "menqing": 20, "small_kong_bloom": 20}
    assert [t[2] for t in transfers(state)] == [62, 62, 62]


def test_big_kong_bloom_after_a_direct_kong_the_feeder_pays_three_shares() -> None:
    state = table({0: DEALER, 1: "555p123m789s11s56m"}, replacements="4m")
    play(state, "0 d 5p", "1 kong", "1 hu")
    # 20 + 明杠 soft 2 + 门清 (direct kong keeps it) 20 + 大杠开 40 + 无花果 40 = 122; the discarder of 5p
    # pays all three shares (S000a, S002, S003a).
    assert win_items(state) == {
        "base": 20,
        "exposed_kong_soft": 2,
        "menqing": 20,
        "big_kong_bloom": 40,
        "wuhuaguo": 40,
    }
    assert transfers(state) == [(0, 1, 6, "exposed_kong"), (0, 1, 366, "kong_bloom_liability")]


def test_haidi_win_in_the_last_two_stacks() -> None:
    # With 86 of the 91 wall tiles reserved, five are drawn: seat 1 draws the last one and wins.
    state = table({0: DEALER, 1: "123m456p789s11s56m"}, draws="1z2z3z4z4m", reserved_tiles=86)
    play(state, "0 d 1p", "1 t", "2 t", "3 t", "0 t", "1 hu")
    # 20 + 门清 20 + 无花果 40 + 海底捞 10 = 90 from each.
    assert win_items(state) == {"base": 20, "menqing": 20, "wuhuaguo": 40, "haidi": 10}
    assert state.live_tiles == 0


def test_bixiahu_doubles_the_next_hand_and_keeps_the_dealer() -> None:
    ruleset = load_ruleset("nanjing")
    match = Match(ruleset)
    deal, wall = stack_wall(ruleset, hands={0: "123m456p789s11s456m"})
    first = match.start_hand(deal=deal, wall=wall)
    play(first, "0 hu")
    result = match.finish_hand()
    assert result.doubles_next
    assert set(result.causes) == {"dealer_win", "big_hand"}
    assert match.dealer == 0
    assert match.multiplier == 2
    deal, wall = stack_wall(
        ruleset, hands={0: DEALER, 1: "555p1478m258s234z", 2: "123m456m789m11s46p"}, replacements="3z"
    )
    second = match.start_hand(deal=deal, wall=wall)
    assert second.multiplier == 2
    play(second, "0 d 5p", "1 kong", "1 t", "2 t", "3 t", "0 t")
    assert transfers(second)[0] == (0, 1, 12, "exposed_kong")  # kong money doubles too (S003a)


def test_after_ready_a_kong_is_allowed_only_if_the_waits_stay_the_same() -> None:
    hands = {0: DEALER, 1: "1235888m456p789s"}  # ready on 5m alone
    locked = table(hands, draws="8m")
    play(locked, "1 ready", "0 d 1p")
    assert Kong(seat=1, tile=tile("8m")) not in legal_actions(locked, 1)
    relaxed = table(hands, draws="8m", dihu_allow_kong_same_waits=True)
    play(relaxed, "1 ready", "0 d 1p")
    assert Kong(seat=1, tile=tile("8m")) in legal_actions(relaxed, 1)
    changing = table({0: DEALER, 1: "1235666m456p789s"}, draws="6m", dihu_allow_kong_same_waits=True)
    play(changing, "1 ready", "0 d 1p")  # waits 4m 5m 7m; after a kong of 6m only 5m
    assert Kong(seat=1, tile=tile("6m")) not in legal_actions(changing, 1)


def test_escape_costs_60_shared_by_the_others_and_ends_the_match() -> None:
    match = Match(load_ruleset("nanjing"))
    state = match.start_hand()
    play(state, f"0 d {format_tile(next(k for k in range(34) if state.seats[0].counts[k]))}")
    transfers_paid = match.escape(2)
    assert [(t.payer, t.payee, t.amount) for t in transfers_paid] == [(2, 3, 20), (2, 0, 20), (2, 1, 20)]
    assert match.totals == [20, 20, -60, 20]
    assert match.over
    assert match.results[-1].outcome == "abandoned"


def test_nanjing_002_preset_uses_seed_002_numbers() -> None:
    options = load_ruleset("nanjing-002").options
    assert (options.exposed_kong_money, options.concealed_kong_money, options.flower_kong_money) == (
        20,
        10,
        20,
    )
    assert (options.tianhu_bonus, options.dihu_bonus) == (60, 40)
    assert (options.big_kong_bloom, options.flower_kong_bloom) == ("double", "x4")
    state = table({0: DEALER, 1: "555p1478m258s234z"}, replacements="3z", preset="nanjing-002")
    play(state, "0 d 5p", "1 kong")
    assert transfers(state) == [(0, 1, 20, "exposed_kong")]


def test_unknown_options_and_values_are_refused() -> None:
    from hupai.rules import RuleError

    with pytest.raises(RuleError, match="unknown option 'qidui'"):
        load_ruleset("nanjing", {"qidui": 40})
    with pytest.raises(RuleError, match="menqing"):
        load_ruleset("nanjing", {"menqing": "sometimes"})
    with pytest.raises(RuleError, match="whole number"):
        load_ruleset("nanjing", {"qidui_bonus": "lots"})
    with pytest.raises(RuleError, match="unknown rule set or preset"):
        load_ruleset("mahjong-mars")


def _short_hand(
    match: Match, dealer: int, hands: dict[int, str], draws: str, replacements: str = ""
) -> HandState:
    deal, wall = stack_wall(match.ruleset, dealer=dealer, hands=hands, draws=draws, replacements=replacements)
    return match.start_hand(deal=deal, wall=wall)


@pytest.mark.parametrize(("mult", "third"), [("x2", 2), ("cumulative", 4)])
def test_deal_rotation_draws_and_flags(mult: str, third: int) -> None:
    # Eleven live tiles per hand keep the hands short.
    match = Match(load_ruleset("nanjing", {"reserved_tiles": 80, "bixiahu_mult": mult}))
    # Hand 1: seat 1 wins a plain hand with a flower (42 each): no 比下胡, the deal passes to seat 1.
    first = _short_hand(match, 0, {0: DEALER, 1: "123m456p789s11s5m1f"}, "4m", "6m")
    play(first, "0 d 1p", "1 hu")
    result = match.finish_hand()
    assert (result.doubles_next, result.next_dealer, match.multiplier) == (False, 1, 1)
    assert result.deltas == (-42, 126, -42, -42)
    # Hands 2 and 3: the wall runs out (和局): 比下胡, seat 1 keeps the deal, the flags count.
    for number in (2, 3):
        state = _short_hand(match, 1, {1: DEALER}, "1z2z3z4m5m6m7m8m9m1s2s")
        play(state, "1 d 1p", *["2 t", "3 t", "0 t", "1 t"] * 2, "2 t", "3 t", "0 t")
        assert state.outcome == "draw"
        result = match.finish_hand()
        assert result.causes == ("draw",)
        assert match.dealer == 1
        assert result.flags == number - 2
    assert match.multiplier == third


def test_every_option_and_item_is_documented() -> None:
    from pathlib import Path

    from hupai.rules.nanjing.items import ITEMS, REASONS
    from hupai.rules.nanjing.options import NanjingOptions

    doc = (Path(__file__).parent.parent / "docs" / "rules" / "nanjing.md").read_text(encoding="utf-8")
    missing = [name for name in NanjingOptions.__dataclass_fields__ if f"`{name}`" not in doc]
    assert missing == []
    assert [key for key in ITEMS if f"`{key}`" not in doc] == []
    assert [key for key in REASONS if f"`{key}`" not in doc] == []


def test_a_refused_win_is_explained_even_when_nobody_may_claim_the_discard() -> None:
    # As above, but no one can pong the 6p: play moves straight on, and seat 3 (who draws next) is
    # still told why it could not win on it.
    hands = {0: DEALER, 1: "14789m258s12345z", 3: "123m456m789m11s45p"}
    state = table(hands, draws="3p6p1z6p")
    play(state, "0 d 1p", "1 t", "3 pass", "2 t")
    assert state.window is None and state.turn == 3  # no claim window opened on the 6p
    reason = win_refusal(state, 3)
    assert reason is not None and "过胡不胡" in reason
    assert win_refusal(state, 1) is None
    play(state, "3 t")  # its own discard ends both the block and the explanation
    assert win_refusal(state, 3) is None


def test_the_instant_win_precheck_never_hides_a_kuaizhao_or_sanqing() -> None:
    """``may_win_on_claim`` lets the hints skip probing every tile: it must be True wherever some
    claim would itself win. Seat 0 of dealt hands, given random pungs (of one suit or not, fed by one
    seat or several), every tile probed, under both 三清 triggers."""
    import random

    from hupai.game import new_hand
    from hupai.game.model import Meld, MeldKind

    instant = 0
    for trigger in ("claim_only", "any_set_incl_sequence"):
        ruleset = load_ruleset("nanjing", {"sanqing_trigger": trigger})
        rng = random.Random(trigger)
        for seed in range(300):
            state = new_hand(ruleset, seed=seed)
            suit = rng.randrange(3)
            melds = []
            for order in range(rng.randrange(5)):
                kind = 9 * suit + rng.randrange(9) if rng.random() < 0.7 else rng.randrange(34)
                melds.append(Meld(MeldKind.PUNG, kind, rng.choice((1, 1, 2, 3)), order))
            state.seats[0].melds = melds
            wins = [tile for tile in range(34) if ruleset.instant_win_on_claim(state, 0, tile)]
            instant += bool(wins)
            assert not wins or ruleset.may_win_on_claim(state, 0), (melds, wins)
    assert instant > 20  # the rule did come up
