"""The score calculator on Enshi tables (恩施麻将, 一痞二赖): the 痞子 turned up, 赖子 wildcards in the hand,
the tiles each seat laid, and 杠开 after a lay.

Every win among the worked examples of ``docs/rules/enshi.md`` §10 (ES-03 … ES-11), told as a player
would, gives the spec's payments; the rules' refusals (有痞子不能胡, 戳胎) come back with their reasons;
impossible descriptions are refused with a message; and every single win of bots playing Enshi, described
again, scores exactly as the engine scored it. Unless a test says otherwise the 痞子 is 5m, so the 赖子
is 6m, and seat 0 deals.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hupai.bots import make_bot
from hupai.calculator import WinHow, WinSpec, score_win, win_values
from hupai.game import legal_actions, new_hand, step, view
from hupai.game.actions import Discard, Lay, Pass, Win
from hupai.game.match import Match
from hupai.game.model import HandState, Phase, WinKind
from hupai.rules import load_ruleset
from hupai.sim import acting_seat
from hupai.tiles import format_tiles, parse_tiles

from .server_support import sqlite_server
from .test_calculator import same_as_engine, spec_from_win


def tile(text: str) -> int:
    (one,) = parse_tiles(text)
    return one


ENSHI: dict[str, Any] = {"preset": "enshi", "pizi": "5m"}
PUNG_7S = {"kind": "pung", "tile": "7s", "from": 0}
CHOW_2P = {"kind": "chow", "tile": "2p", "from": 0}
ES03 = {**ENSHI, "seat": 1, "melds": [CHOW_2P], "hand": "34m6m11s456s78s", "win_tile": "9s", "how": "discard"}
ES07 = {**ENSHI, "seat": 3, "hand": "11m7m22p33p44s99s3s6m"}
ES08B = {**ENSHI, "seat": 3, "hand": "11m77m22p33p44s99s3s"}
ES10 = {**ENSHI, "seat": 1, "hand": "234m456p789p123s5s", "win_tile": "5s"}
ES11 = {
    **ENSHI,
    "seat": 2,
    "laid": {"0": "6m", "2": "5m"},
    "melds": [PUNG_7S],
    "hand": "12m6m345p678p4s",  # drew 4s, laid the 痞子 5m, and the replacement is the other 4s
    "win_tile": "4s",
    "how": "kong_replacement",
    "lays_before": 1,
}

# (id, description, payments seat 0 / 1 / 2 / 3, the score items) — docs/rules/enshi.md §10.
EXAMPLES: list[tuple[str, dict[str, Any], list[int], dict[str, int]]] = [
    (
        "ES-03a",
        {**ES03, "from": 2, "options": {"chuotai_forbidden": False}},
        [-1, 4, -2, -1],
        {"pihu": 1},
    ),
    ("ES-03b", {**ES03, "from": 2, "laid": {"3": "5m"}}, [-1, 5, -2, -2], {"pihu": 1}),
    (
        "ES-04",
        {**ENSHI, "seat": 2, "melds": [PUNG_7S], "hand": "12m6m345p678p9s", "win_tile": "9s"},
        [-3, -3, 9, -3],
        {"xiaoxie": 3},
    ),
    (
        "ES-05",
        {**ENSHI, "seat": 1, "hand": "23m6m456p789p123s5s", "win_tile": "4m"},
        [-5, 15, -5, -5],
        {"daxie": 5},
    ),
    (
        "ES-06",
        {**ENSHI, "seat": 2, "melds": [PUNG_7S], "hand": "123m345p678p9s", "win_tile": "9s"},
        [-6, -6, 18, -6],
        {"xiaoxie": 3, "hard": 2},
    ),
    ("ES-07", {**ES07, "win_tile": "7m", "how": "discard", "from": 0}, [-10, -5, -5, 20], {"qidui": 5}),
    (
        "ES-07 pihu_only",
        {**ES07, "win_tile": "7m", "how": "discard", "from": 0, "options": {"discarder_double": "pihu_only"}},
        [-5, -5, -5, 15],
        {"qidui": 5},
    ),
    ("ES-08a", {**ES07, "win_tile": "3s"}, [-10, -10, -10, 30], {"qidui": 5, "qidui_self_drawn": 2}),
    (
        "ES-08b",
        {**ES08B, "win_tile": "3s", "how": "discard", "from": 0},
        [-20, -10, -10, 40],
        {"qidui": 5, "hard": 2},
    ),
    (
        "ES-08b pihu_only",
        {
            **ES08B,
            "win_tile": "3s",
            "how": "discard",
            "from": 0,
            "options": {"discarder_double": "pihu_only"},
        },
        [-10, -10, -10, 30],
        {"qidui": 5, "hard": 2},
    ),
    (
        "ES-09",
        {**ES08B, "win_tile": "3s"},
        [-20, -20, -20, 60],
        {"qidui": 5, "hard": 2, "qidui_self_drawn": 2},
    ),
    (
        "ES-10a",
        {**ES10, "laid": {"1": "6m6m", "2": "5m", "3": "6m"}},
        [-160, 880, -320, -400],
        {"daxie": 5, "hard": 2, "laizi_laid": 16},
    ),
    (
        "ES-10b",
        {
            **ES10,
            "laid": {"0": "6m", "1": "6m6m", "2": "5m", "3": "6m"},  # all four 赖子 laid
            "others_melds": {"2": [{"kind": "concealed_kong", "tile": "9m"}]},
        },
        [-500, 1500, -500, -500],
        {"daxie": 5, "hard": 2, "laizi_laid": 16},
    ),
    ("ES-11", ES11, [-48, -12, 72, -12], {"xiaoxie": 3, "pizi_laid": 2, "kong_bloom": 2}),
]


@pytest.mark.parametrize(
    ("data", "payments", "items"),
    [example[1:] for example in EXAMPLES],
    ids=[example[0] for example in EXAMPLES],
)
def test_worked_example_as_a_player_tells_it(
    data: dict[str, Any], payments: list[int], items: dict[str, int]
) -> None:
    calculation = score_win(WinSpec.from_dict(data))
    assert calculation.allowed, calculation.reason
    assert list(calculation.deltas) == payments
    assert calculation.sheet is not None
    assert {entry.key: entry.value for entry in calculation.sheet.items} == items
    # One payer line per loser, and one payment each, the line's capped amount.
    lines = {line.seat: line.paid for line in calculation.sheet.payers}
    assert lines == {seat: -delta for seat, delta in enumerate(payments) if seat != calculation.seat}
    assert {transfer.payer: transfer.amount for transfer in calculation.transfers} == lines
    out = calculation.as_dict()
    assert json.loads(json.dumps(out, ensure_ascii=False)) == out
    assert len(out["sheet"]["payers"]) == 3


def test_es10_payer_lines_show_the_caps() -> None:
    gold = score_win(WinSpec.from_dict(EXAMPLES[12][1]))
    assert gold.sheet is not None
    caps = {line.seat: (line.raw, line.paid, line.cap) for line in gold.sheet.payers}
    assert caps == {0: (640, 500, "gold_cap"), 2: (1280, 500, "gold_cap"), 3: (640, 500, "gold_cap")}


def test_es11_reasons_and_the_lay_in_the_chain() -> None:
    """杠开 after a lay: a self-drawn win, each loser its own line; without the lay it is a plain
    self-draw (no ×2)."""
    calculation = score_win(WinSpec.from_dict(ES11))
    assert calculation.kind is WinKind.SELF_DRAWN
    assert {t.reason for t in calculation.transfers} == {"win_self_drawn"}
    plain = score_win(WinSpec.from_dict({**ES11, "how": "self_drawn", "lays_before": 0}))
    assert list(plain.deltas) == [-24, -6, 36, -6]


# --- the 赖子 -----------------------------------------------------------------------------------------


def test_a_laizi_stands_for_a_tile_and_is_not_hard() -> None:
    """ES-05's 赖子 6m is the 5s pair's partner; the same hand with a real 5s is 硬 (×2)."""
    soft = score_win(WinSpec.from_dict(EXAMPLES[3][1]))
    assert soft.sheet is not None
    assert "6m" not in soft.sheet.reading or "5s" in soft.sheet.reading
    hard = score_win(WinSpec.from_dict({**EXAMPLES[3][1], "hand": "23m456p789p123s55s"}))
    assert hard.sheet is not None
    assert {entry.key: entry.value for entry in hard.sheet.items} == {"daxie": 5, "hard": 2}
    assert list(hard.deltas) == [-10, 30, -10, -10]
    # The 赖子 itself as the winning tile: drawn, it stands for 1m or 4m.
    drawn = score_win(WinSpec.from_dict({**ENSHI, "seat": 1, "hand": "23m456p789p123s55s", "win_tile": "6m"}))
    assert drawn.allowed
    assert list(drawn.deltas) == [-5, 15, -5, -5]
    # Four 赖子 in the hand are four wildcards (no kong of 赖子, no fifth copy needed).
    wild = score_win(WinSpec.from_dict({**ENSHI, "seat": 1, "hand": "6666m456p789p123s", "win_tile": "9s"}))
    assert wild.allowed


def test_nobody_wins_on_a_laizi_or_a_pizi_let_go() -> None:
    on_laizi = score_win(
        WinSpec.from_dict(
            {**ENSHI, "seat": 1, "hand": "23m456p789p123s55s", "win_tile": "6m", "how": "discard", "from": 0}
        )
    )
    assert not on_laizi.allowed
    assert on_laizi.reason.startswith("a 赖子 (六万, 6m) is laid, never discarded")


def test_you_pizi_bu_neng_hu() -> None:
    """A 痞子 in the winner's hand is a possible description; the rules refuse the win with their reason."""
    holding = {**ENSHI, "seat": 1, "hand": "234m456p789p12s55m", "win_tile": "3s"}
    for how in ({}, {"how": "discard", "from": 0}):
        refused = score_win(WinSpec.from_dict({**holding, **how}))
        assert not refused.allowed
        assert refused.reason.startswith("有痞子不能胡: seat 1 holds the 痞子 五万 (5m)")
        assert refused.deltas == (0, 0, 0, 0)
    loose = score_win(WinSpec.from_dict({**holding, "options": {"pizi_blocks_win": False}}))
    assert loose.allowed
    assert list(loose.deltas) == [-10, 30, -10, -10]  # 硬大斜


def test_chuotai_refused_until_someone_lays() -> None:
    refused = score_win(WinSpec.from_dict({**ES03, "from": 2}))
    assert not refused.allowed
    assert refused.reason.startswith("不能戳胎")
    # The discarder's lay counts as well as anyone's (and the discarder then pays 2 × 2 × 1).
    laid = score_win(WinSpec.from_dict({**ES03, "from": 2, "laid": {"2": "5m"}}))
    assert list(laid.deltas) == [-1, 6, -4, -1]


def test_gangshangpao_after_the_discarders_lay() -> None:
    """A win on a discard made right after the discarder's lay: 杠上炮 (×2 only with its option)."""
    data = {**ES07, "win_tile": "7m", "how": "discard", "from": 0, "laid": {"0": "6m"}, "lays_before": 1}
    plain = score_win(WinSpec.from_dict(data))
    assert list(plain.deltas) == [-40, -5, -5, 50]  # the discarder's own ×4, doubled
    doubled = score_win(WinSpec.from_dict({**data, "options": {"gangshangpao_factor": 2}}))
    assert doubled.sheet is not None
    assert {entry.key for entry in doubled.sheet.items} == {"qidui", "gangshangpao"}
    assert list(doubled.deltas) == [-80, -10, -10, 100]


# --- a 赖子 standing in a chow (laizi_in_melds, §3.3) -----------------------------------------------

WILD_CHOW = {
    **ENSHI,
    "options": {"laizi_in_melds": True},
    "seat": 2,
    "melds": [{"kind": "chow", "tile": "2p", "from": 1, "laizi_for": "4p"}],
    "hand": "123m345s678s9s",
    "win_tile": "9s",
}


def test_a_laizi_standing_in_a_chow_is_told_and_spoils_hard() -> None:
    """Seat 2 chowed 234p with a 赖子 for 4p and self-draws 9s: no 赖子 among its concealed tiles, but
    the one in the chow keeps the hand from 硬 — 小斜 3 from each, where the natural chow pays 6."""
    stood = score_win(WinSpec.from_dict(WILD_CHOW))
    assert stood.sheet is not None
    assert {entry.key: entry.value for entry in stood.sheet.items} == {"xiaoxie": 3}
    assert list(stood.deltas) == [-3, -3, 9, -3]
    natural = {**WILD_CHOW, "melds": [{"kind": "chow", "tile": "2p", "from": 1}]}
    assert list(score_win(WinSpec.from_dict(natural)).deltas) == [-6, -6, 18, -6]
    # Its own face: 678m with a 赖子 6m is 硬 only with laizi_as_itself_hard.
    own = {
        **WILD_CHOW,
        "melds": [{"kind": "chow", "tile": "6m", "from": 1, "laizi_for": "6m"}],
        "hand": "123p345s678s9s",
    }
    assert list(score_win(WinSpec.from_dict(own)).deltas) == [-3, -3, 9, -3]
    hard = {**own, "options": {"laizi_in_melds": True, "laizi_as_itself_hard": True}}
    assert list(score_win(WinSpec.from_dict(hard)).deltas) == [-6, -6, 18, -6]
    # Written out and read back.
    spec = WinSpec.from_dict(WILD_CHOW)
    assert spec.melds[0].laizi_for == tile("4p")
    assert spec.as_dict()["melds"] == WILD_CHOW["melds"]
    assert WinSpec.from_dict(json.loads(json.dumps(spec.as_dict(), ensure_ascii=False))) == spec


# --- impossible descriptions ------------------------------------------------------------------------

NANJING = {"preset": "nanjing", "seat": 1, "hand": "12233456789m11z", "win_tile": "7m"}
ES05 = EXAMPLES[3][1]

BAD: list[tuple[dict[str, Any], str]] = [
    ({**ES05, "pizi": ""}, "pizi: enshi mahjong turns up a 痞子 after the deal; say which tile it is"),
    ({**NANJING, "pizi": "5m"}, "pizi: nanjing mahjong turns up no 痞子"),
    ({**NANJING, "laid": {"1": "5m"}}, "laid: nanjing mahjong has no 痞子 or 赖子 to lay"),
    ({**ES05, "pizi": "5m6m"}, "pizi is the one tile turned up"),
    ({**ES05, "pizi": "1z"}, "pizi: 1z (东) is not a tile of enshi mahjong"),
    (
        {**ES05, "laid": {"2": "7m"}},
        "laid: seat 2 laid 7m (七万); only the 痞子 5m (五万) and the 赖子 6m (六万) are laid",
    ),
    ({**ES05, "laid": {"5": "5m"}}, "laid: 5 is not a seat 0-3"),
    ({**ES05, "laid": {"x": "5m"}}, "laid: 'x' is not a seat 0-3"),
    ({**ES05, "laid": "5m"}, "laid is an object"),
    # A fifth 赖子: one in the hand, four laid.
    ({**ES05, "laid": {"0": "6m6m", "2": "6m6m"}}, "6m (六万) is used 5 times"),
    # The turned-up 痞子 takes a copy: two laid and two in hand make five.
    ({**ES05, "hand": "23m55m456p789p123s", "laid": {"0": "5m5m"}}, "5m (五万) is used 5 times"),
    (
        {**ES05, "hand": "456p789p123s5s", "melds": [{"kind": "chow", "tile": "4m", "from": 0}]},
        "melds: the chow of 4m (四万) holds a 痞子 or 赖子",
    ),
    (
        {**WILD_CHOW, "options": {}},
        "melds: a 赖子 stands in the chow of 2p (二筒) (laizi_for), but a 赖子 stands in a chow only "
        "with the option laizi_in_melds",
    ),
    (
        {**WILD_CHOW, "melds": [{"kind": "pung", "tile": "2p", "from": 1, "laizi_for": "2p"}]},
        "melds: only a chow may hold a 赖子 (laizi_for)",
    ),
    (
        {**WILD_CHOW, "melds": [{"kind": "chow", "tile": "2p", "from": 1, "laizi_for": "5p"}]},
        "melds: laizi_for names a tile of the chow's run (234p), not 5p (五筒)",
    ),
    (
        {**WILD_CHOW, "melds": [{"kind": "chow", "tile": "2p", "from": 1, "laizi_for": "4p5p"}]},
        "melds: laizi_for names the one tile a 赖子 stands for",
    ),
    (
        {**WILD_CHOW, "melds": [{"kind": "chow", "tile": "6m", "from": 1}], "hand": "123p345s678s9s"},
        "name that tile with laizi_for",
    ),
    # The 赖子 in the chow is one of the four: with three laid and one in the hand, five.
    ({**WILD_CHOW, "hand": "123m345s678s6m", "laid": {"0": "6m6m6m"}}, "6m (六万) is used 5 times"),
    ({**ES05, "how": "kong_replacement"}, "a kong_replacement win (杠开) needs the kong"),
    ({**ES05, "how": "kong_replacement", "lays_before": 1}, "lays_before: 1 lays in a row, but laid lists 0"),
    ({**ES05, "lays_before": 1, "laid": {"1": "5m"}}, "lays_before: lays just before the win go with"),
    ({**ES05, "lays_before": -1}, "lays_before is a whole number of at least 0"),
    ({**NANJING, "lays_before": 1, "how": "kong_replacement"}, "lays_before: nanjing mahjong has no"),
    ({**ES05, "flowers": "1f"}, "flowers: enshi mahjong has no flowers"),
    ({**ES05, "hand": "23m6m456p789p123s"}, "hand: 12 concealed tiles given"),
]


@pytest.mark.parametrize(("data", "message"), BAD, ids=[message[:40] for _, message in BAD])
def test_impossible_descriptions_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        score_win(WinSpec.from_dict(data))


# --- reading and writing --------------------------------------------------------------------------


def test_spec_fields_round_trip() -> None:
    spec = WinSpec.from_dict(ES11)
    assert spec.pizi == tile("5m")
    assert spec.laid == {0: (tile("6m"),), 2: (tile("5m"),)}
    assert spec.lays_before == 1
    assert spec.how is WinHow.KONG_REPLACEMENT
    data = spec.as_dict()
    assert data["pizi"] == "5m"
    assert data["laid"] == {"0": "6m", "2": "5m"}
    assert data["lays_before"] == 1
    assert WinSpec.from_dict(data) == spec
    assert WinSpec.from_dict(json.loads(json.dumps(data, ensure_ascii=False))) == spec
    assert score_win(WinSpec.from_dict(data)) == score_win(spec)
    # Other rule sets write no 痞子 and read an empty one back as none.
    nanjing = WinSpec.from_dict(NANJING)
    assert nanjing.as_dict()["pizi"] == ""
    assert nanjing.as_dict()["laid"] == {}
    assert WinSpec.from_dict(nanjing.as_dict()) == nanjing


# --- against the engine -------------------------------------------------------------------------------

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {
        "chuotai_forbidden": False,
        "pizi_flip": "front",
        "gangshangpao_factor": 2,
        "discarder_double": "pihu_only",
        "laizi_as_itself_hard": True,
        "laizi_in_melds": True,
    },
    {"honours": True, "multi_ron": True, "kong_money": 1, "cap": 100, "gold_cap": 150},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "house", "honours"])
def test_every_win_bots_play_is_scored_the_same(options: dict[str, Any]) -> None:
    """Bots play Enshi hands; every win, described again as a player would tell it (the 痞子, every
    seat's lays, the lays and kongs right before it), gives the engine's very sheet and payments."""
    ruleset = load_ruleset("enshi", options)
    seen: Counter[str] = Counter()
    for seed in range(25):
        match = Match(ruleset, seed=seed)
        bots = [make_bot(level, 100 * seed + seat) for seat, level in enumerate(["strong", "efficiency"] * 2)]
        for _ in range(4):
            state = match.start_hand()
            while state.phase is not Phase.ENDED:
                seat = acting_seat(state)
                step(state, bots[seat].choose(view(state, seat), legal_actions(state, seat)))
            for win in state.wins:
                spec = spec_from_win("enshi", options, state, win)
                calculation = score_win(spec)
                same_as_engine(calculation, win)
                again = WinSpec.from_dict(json.loads(json.dumps(spec.as_dict(), ensure_ascii=False)))
                assert again == spec
                seen["wins"] += 1
                seen[win.context.kind.value] += 1
                seen["laid"] += any(player.laid for player in state.seats)
                seen["lay in chain"] += any(what == "lay" for what, _ in win.context.replacement_chain)
                seen["laizi in a chow"] += any(
                    meld.laizi_for is not None for meld in state.seats[win.context.seat].melds
                )
            match.finish_hand(state)
    assert seen["wins"] >= 80  # every hand so far ends in a win
    assert seen["self_drawn"] and seen["discard"]
    assert seen["laid"] >= seen["wins"] // 2
    assert seen["lay in chain"]  # 杠开 after a lay, or a win on the discard made after one
    if options.get("laizi_in_melds"):
        assert seen["laizi in a chow"]  # a win with a 赖子 standing in one of its chows


# --- hints ---------------------------------------------------------------------------------------------


def enshi_hand(hands: dict[int, str], *, front: str = "", back: str = "", pizi: str = "5m") -> HandState:
    """A hand dealt with the given tiles for some seats (dealer 0: 14), ``front`` the next tiles drawn,
    ``back`` the next replacements (drawn from the back: the last first), and ``pizi`` the wall's last
    tile (turned up); everything else shuffled."""
    ruleset = load_ruleset("enshi")
    pool = Counter(ruleset.tile_set())
    for text in [*hands.values(), front, back, pizi]:
        pool.subtract(parse_tiles(text))
    assert min(pool.values()) >= 0
    rest = sorted(pool.elements())
    random.Random(7).shuffle(rest)
    deal = []
    for seat in range(4):
        given = parse_tiles(hands.get(seat, ""))
        size = 14 if seat == 0 else 13
        deal.append(given + [rest.pop() for _ in range(size - len(given))])
    wall = parse_tiles(front) + rest + parse_tiles(back) + parse_tiles(pizi)
    return new_hand(ruleset, deal=deal, wall=wall)


DEALER = "111m999m111p999p19s"  # lets 9s go: nobody can chow it, and no other seat holds two


def dealer_lets_9s_go(state: HandState) -> None:
    step(state, Discard(seat=0, tile=tile("9s")))
    while state.phase is Phase.CLAIM:
        step(state, Pass(seat=next(seat for seat in range(4) if legal_actions(state, seat))))
    assert state.turn == 1


def test_win_values_on_a_ready_hand_with_a_laizi() -> None:
    """Seat 1 holds ES-05's hand (a 赖子 6m): its waits count the 赖子 as a wildcard, only suited tiles are
    listed, and the self-drawn 4m it then draws is worth what the engine pays."""
    state = enshi_hand({0: DEALER, 1: "23m6m456p789p123s5s"}, front="4m")
    assert (state.pizi, state.laizi) == (tile("5m"), tile("6m"))
    before = state.copy()
    values = win_values(state, 1)
    assert state == before
    assert format_tiles(sorted(values)) == "146m5s"  # the 赖子 6m too: drawn, it is one more wildcard
    four = values[tile("4m")]
    assert four.unseen == 4
    assert list(four.self_drawn.deltas) == [-5, 15, -5, -5]  # 大斜, 5 each
    assert four.discarder == 2
    assert list(four.discard.deltas) == [-5, 20, -10, -5]  # on seat 2's discard: the discarder double
    assert values[tile("5s")].unseen == 3
    assert values[tile("6m")].self_drawn.allowed
    assert not values[tile("6m")].discard.allowed  # nobody discards a 赖子
    assert values[tile("6m")].discard.reason.startswith("a 赖子 (六万, 6m) is laid, never discarded")
    # Play it: the dealer lets 9s go, seat 1 draws 4m and wins.
    dealer_lets_9s_go(state)
    assert state.seats[1].drawn == tile("4m")
    step(state, Win(seat=1))
    same_as_engine(four.self_drawn, state.wins[0])


def test_win_values_after_a_lay() -> None:
    """Seat 1 draws a second 赖子, lays it (its stake ×4) and holds the replacement: the values count the
    lay, and the laid 赖子 is no longer unseen."""
    state = enshi_hand({0: DEALER, 1: "23m6m456p789p123s5s"}, front="6m", back="7s")
    dealer_lets_9s_go(state)
    step(state, Lay(seat=1, tile=tile("6m")))
    assert state.seats[1].laid == [tile("6m")]
    assert state.seats[1].drawn == tile("7s")
    values = win_values(state, 1, discard=tile("7s"))
    assert values[tile("6m")].unseen == 2  # one in the hand, one laid
    assert list(values[tile("4m")].self_drawn.deltas) == [-20, 60, -20, -20]  # 大斜 5 × 4
    assert list(values[tile("4m")].discard.deltas) == [-20, 80, -40, -20]


def test_win_values_for_a_wait_on_the_pizi_kind() -> None:
    """With the 痞子 4m, ES-05's hand (赖子 5m) also waits on 4m, which it could not win with (有痞子不能胡);
    the turned-up 4m is seen by everyone."""
    state = enshi_hand({0: DEALER, 1: "23m5m456p789p123s5s"}, pizi="4m")
    values = win_values(state, 1)
    assert format_tiles(sorted(values)) == "145m5s"
    pizi = values[tile("4m")]
    assert pizi.unseen == 3
    assert pizi.self_drawn.reason.startswith("有痞子不能胡")
    assert values[tile("1m")].self_drawn.allowed


# --- over HTTP ----------------------------------------------------------------------------------------


def test_post_api_score_takes_the_pizi_and_the_lays(tmp_path: Path) -> None:
    """POST /api/score (the browser's 算分器) reads ``pizi``, ``laid`` and ``lays_before``, and chows."""
    with sqlite_server(tmp_path) as client:
        answer = client.post("/api/score", json=ES11).json()
        assert answer["allowed"], answer
        assert answer["deltas"] == [-48, -12, 72, -12]
        assert {line["seat"]: line["paid"] for line in answer["sheet"]["payers"]} == {0: 48, 1: 12, 3: 12}
        chow = client.post("/api/score", json={**ES03, "from": 2, "laid": {"3": "5m"}}).json()
        assert chow["deltas"] == [-1, 5, -2, -2]
        missing = client.post("/api/score", json={**ES11, "pizi": ""})
        assert missing.status_code == 400
        assert "pizi" in missing.text
        wrong = client.post("/api/score", json={**ES11, "laid": {"0": "7m"}})
        assert wrong.status_code == 400
        assert "only the 痞子" in wrong.text
        stood = client.post("/api/score", json=WILD_CHOW).json()
        assert stood["deltas"] == [-3, -3, 9, -3], stood
