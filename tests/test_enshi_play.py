"""Enshi at the table (docs/rules/enshi.md §2-§4): the 痞子 turned up and its 赖子, laying them,
chows, wildcards in wins, and what stops a complete hand from winning."""

from __future__ import annotations

import pytest

from hupai.game import IllegalAction, Phase, legal_actions, verify
from hupai.game.actions import Chow, Discard, Lay, Pong, Win
from hupai.game.engine import win_refusal
from hupai.game.events import Chowed, PiziRevealed, TileLaid
from hupai.game.model import MeldKind
from hupai.tiles import parse_tiles

from .helpers import play, table


def tile(code: str) -> int:
    return parse_tiles(code)[0]


def enshi(hands: dict[int, str], **kwargs: object) -> object:
    return table(hands, preset="enshi", **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("pizi", "laizi"), [("5m", "6m"), ("9p", "1p"), ("9s", "1s")])
def test_the_pizi_is_turned_up_after_the_deal_and_names_the_laizi(pizi: str, laizi: str) -> None:
    state = table({}, preset="enshi", pizi=pizi)
    assert (state.pizi, state.laizi) == (tile(pizi), tile(laizi))
    assert PiziRevealed(tile(pizi), tile(laizi)) in state.events
    assert len(state.ruleset.tile_set()) == 108
    assert state.live_tiles == 108 - 53 - 1  # the 痞子 is never drawn


def test_laying_a_pizi_draws_a_replacement_and_the_turn_goes_on() -> None:
    state = table({0: "5m123m456p789p1134s"}, preset="enshi", pizi="5m", replacements="7s")
    legal = legal_actions(state, 0)
    assert Lay(seat=0, tile=tile("5m")) in legal
    assert Discard(seat=0, tile=tile("5m")) not in legal  # it leaves the hand only by laying
    with pytest.raises(IllegalAction, match="lay"):
        verify(state, Discard(seat=0, tile=tile("5m")))
    play(state, "0 lay 5m")
    seat = state.seats[0]
    assert seat.laid == [tile("5m")] and seat.drawn == tile("7s")
    assert state.phase is Phase.TURN and state.turn == 0  # no claim window: nobody may take it
    laid = [event for event in state.events if isinstance(event, TileLaid)]
    assert laid == [TileLaid(0, tile("5m"), "pizi", 2)]
    assert state.ruleset.seat_multiplier(state, 0) == 2


def test_a_laizi_is_wild_in_a_win() -> None:
    # 痞子 5m → 赖子 6m; the dealer's 123m 456p 789p 11s 23s + 6m: the 赖子 completes 123s or 234s.
    state = table({0: "123m6m456p789p1123s"}, preset="enshi", pizi="5m")
    assert Win(seat=0) in legal_actions(state, 0)
    play(state, "0 hu")
    assert state.outcome == "win"
    items = {item.key for item in state.wins[0].sheet.items}
    assert "daxie" in items and "hard" not in items  # 门前清 with a 赖子: 大斜, not 硬


def test_a_pizi_in_hand_stops_a_win_and_says_why() -> None:
    state = table({0: "345m456p789p11s234s"}, preset="enshi", pizi="5m")
    assert Win(seat=0) not in legal_actions(state, 0)
    reason = win_refusal(state, 0)
    assert reason is not None and "痞子" in reason


def test_the_next_seat_may_chow_and_a_pong_comes_first() -> None:
    hands = {0: "5m12m456p789p11s234s", 1: "46m1379p1379s258s", 2: "55m1379p1379s258s"}
    state = table(hands, preset="enshi", pizi="9s")
    play(state, "0 d 5m")
    assert Chow(seat=1, tile=tile("4m")) in legal_actions(state, 1)
    assert not any(isinstance(action, Chow) for action in legal_actions(state, 2))  # only the next seat
    play(state, "1 chow 4m", "2 pong")
    assert state.turn == 2 and state.seats[2].melds[0].kind is MeldKind.PUNG

    chowed = table(hands, preset="enshi", pizi="9s")
    play(chowed, "0 d 5m", "1 chow 4m", "2 pass")
    meld = chowed.seats[1].melds[0]
    assert (meld.kind, meld.tile, meld.claimed) == (MeldKind.CHOW, tile("4m"), tile("5m"))
    assert Chowed(1, tile("4m"), tile("5m"), 0) in chowed.events
    assert chowed.turn == 1 and chowed.phase is Phase.TURN
    assert chowed.seats[1].counts[tile("4m")] == 0 and chowed.seats[1].counts[tile("6m")] == 0
    assert Pong(seat=1) not in legal_actions(chowed, 1)


def test_chow_is_an_option() -> None:
    hands = {0: "5m12m456p789p11s234s", 1: "46m1379p1379s258s"}
    state = table(hands, preset="enshi", pizi="9s", chow=False)
    play(state, "0 d 5m")
    assert not any(isinstance(action, Chow) for action in legal_actions(state, 1))


def test_a_win_on_the_replacement_after_a_lay_is_a_kong_bloom() -> None:
    # The dealer lays its 痞子 5m and draws 3s, completing 123m 456p 789p 11s 234s.
    state = table({0: "5m123m456p789p1124s"}, preset="enshi", pizi="5m", replacements="3s")
    play(state, "0 lay 5m", "0 hu")
    items = {item.key for item in state.wins[0].sheet.items}
    assert "kong_bloom" in items and "pizi_laid" in items


def test_a_laizi_fills_a_chow_only_where_the_rules_allow_it() -> None:
    # 痞子 5m → 赖子 6m. Seat 1 holds 3p and a 赖子; seat 0 lets 4p go.
    hands = {0: "4p12m456p789p11s234s", 1: "3p6m1379m1379s258s"}
    strict = table(hands, preset="enshi", pizi="5m")
    play(strict, "0 d 4p")
    assert not any(isinstance(action, Chow) for action in legal_actions(strict, 1))
    loose = table(hands, preset="enshi", pizi="5m", laizi_in_melds=True)
    play(loose, "0 d 4p")
    chow = next(action for action in legal_actions(loose, 1) if isinstance(action, Chow))
    play(loose, f"1 chow {'123456789'[chow.tile % 9]}p")
    seat = loose.seats[1]
    assert chow.tile in (tile("2p"), tile("3p"))  # 2p3p4p or 3p4p5p, the 赖子 standing in
    assert min(seat.counts) == 0  # no tile went below zero
    assert seat.counts[tile("3p")] == 0 and seat.counts[tile("6m")] == 0  # 3p and the 赖子 went in


def test_a_laizi_in_a_chow_lies_in_the_meld_in_place_of_the_tile_it_stands_for() -> None:
    """laizi_in_melds (§3.3): the meld and its event say which run tile the 赖子 stands for, and the
    meld's tiles are what lies on the table. 痞子 5m → 赖子 6m."""
    dealer = "3m7m19p19s28p28s1p9p1s9s"  # lets 3m go
    # Seat 1 holds 4m, the 痞子 5m (no rule makes it lay it) and a 赖子: 345m takes the 4m and, for the
    # 5m, the 赖子 — a 痞子 is no tile of a run (§3.3), so it stays in the hand.
    state = table({0: dealer, 1: "4m5m6m1379p1379s28s"}, preset="enshi", pizi="5m", laizi_in_melds=True)
    play(state, "0 d 3m")
    assert Chow(seat=1, tile=tile("3m")) in legal_actions(state, 1)
    play(state, "1 chow 3m")
    seat = state.seats[1]
    [meld] = seat.melds
    assert (meld.tile, meld.claimed, meld.laizi_for, meld.laizi) == (
        tile("3m"),
        tile("3m"),
        tile("5m"),
        tile("6m"),
    )
    assert meld.tiles() == (tile("3m"), tile("4m"), tile("6m"))
    assert (seat.counts[tile("4m")], seat.counts[tile("5m")], seat.counts[tile("6m")]) == (0, 1, 0)
    assert Chowed(1, tile("3m"), tile("3m"), 0, tile("5m"), tile("6m")) in state.events
    # The 赖子 standing for its own face: 678m of the dealer's 7m with 8m and a 赖子 6m.
    own = table(
        {0: "7m3m19p19s28p28s1p9p1s9s", 1: "8m6m1379p1379s258s"},
        preset="enshi",
        pizi="5m",
        laizi_in_melds=True,
    )
    play(own, "0 d 7m", "1 chow 6m")
    [meld] = own.seats[1].melds
    assert (meld.laizi_for, meld.laizi) == (tile("6m"), tile("6m"))
    assert meld.tiles() == (tile("6m"), tile("7m"), tile("8m"))
    # Natural tiles first: holding 2m and 4m, the 赖子 stays in the hand for 234m.
    plain = table({0: dealer, 1: "2m4m6m1379p1379s28s"}, preset="enshi", pizi="5m", laizi_in_melds=True)
    play(plain, "0 d 3m", "1 chow 2m")
    [meld] = plain.seats[1].melds
    assert (meld.laizi_for, meld.laizi) == (None, None)
    assert plain.seats[1].counts[tile("6m")] == 1
    assert Chowed(1, tile("2m"), tile("3m"), 0) in plain.events


def test_a_claimed_win_with_a_held_pizi_names_the_rule() -> None:
    """Seat 1 would win on the dealer's 4m were its 痞子 5m an ordinary tile: the refusal says
    有痞子不能胡, not 诈胡 (seat 2 may pong, so the discard is open to claims)."""
    hands = {0: "4m2p2p3p3p7p7p8s8s9m9m1s2s6s", 1: "123m456p789s11s5m6m", 2: "4m4m9p8p7p1m1m9s9s3s3s4s4s"}
    state = table(hands, preset="enshi", pizi="5m")
    play(state, "0 d 4m")
    assert state.phase is Phase.CLAIM
    with pytest.raises(IllegalAction, match=r"^有痞子不能胡"):
        verify(state, Win(seat=1))
