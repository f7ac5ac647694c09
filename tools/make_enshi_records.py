"""Write the Enshi worked examples (docs/rules/enshi.md §10, rules-notes §4D) as scenario records.

    python tools/make_enshi_records.py

Each scenario stacks a wall (the 痞子 is the wall's last tile, turned up after the deal), deals the
seats their tiles and plays the situation move by move through the engine: the multipliers come from
real lays and kongs, a 杠开 from a real replacement, a 屁胡 from a real chow or pung. The expected
settlement is written out by hand from the spec's figures (the comments show the arithmetic), never
taken from the engine. The script checks the engine against every expected figure, fails loudly on
any difference, and writes a ``hupai-record/1`` file with the expectation attached
(``tests/data/records/enshi/es-*.json``). ``tests/test_enshi_records.py`` replays those files and
checks the figures again, and that this script still writes the same files.

ES-01 (the 痞子 names its 赖子; three more 痞子 in play) holds in every record and is checked by the
tests on all of them; ES-02 (a 9 痞子 names the 1 of its suit) has a record per suit.

The ``opt-*`` records are plays for docs/rules/enshi.md §9 "Each option shown" (ES-OPT-nn): a play on the
default card and, where the option needs other moves, the same deal and wall played under the changed
card; ``tests/data/options/enshi.jsonl`` settles them under both cards.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hupai.game.match import HandResult, Match
from hupai.game.model import HandState, Phase
from hupai.game.record import HandRecord, MatchRecord, close_open_window, read_record, write_record
from hupai.game.scripting import run_moves
from hupai.game.stacking import stack_wall
from hupai.replay import replay
from hupai.rules import load_ruleset
from hupai.tiles import format_tiles

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "records" / "enshi"
PRESET = "enshi"
SEAT_NAMES = ("甲", "乙", "丙", "丁")

# The dealer's tiles when it only passes the time: no 痞子 (5m) or 赖子 (6m), far from ready.
JUNK = "19m19p19s28m28p28s4m"  # 13 tiles; a scenario adds the dealer's 14th (its first discard)


@dataclass
class Scenario:
    name: str  # the file's stem
    example: str  # docs/rules/enshi.md §10 id (ES-nn), ES-Pn for the extra play records, ES-OPT-nn (§9)
    source: str  # the seed passage
    title: str
    hands: dict[int, str]  # seats not listed get tiles left to chance (they never discard them)
    moves: list[str]
    expect: dict[str, Any]
    pizi: str = "5m"
    draws: str = ""
    replacements: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    # further hands of the match, each {"hands", "draws", "replacements", "moves"} (痞子 5m), dealt by
    # the dealer the rules give after the hand before (option records: next_dealer); ``expect`` checks
    # the first hand and, with "totals", the match
    then: list[dict[str, Any]] = field(default_factory=list)


def lines(*rows: tuple[int, int, int, str]) -> list[list[int | str]]:
    """Payer lines as [seat, raw, paid, cap], in the order the rule set lists them (turn order after
    the winner)."""
    return [list(row) for row in rows]


def settled(
    *,
    winner: int,
    how: str,
    discarder: int | None = None,
    items: dict[str, int],
    share: int,
    multipliers: list[int],
    paid: dict[int, tuple[int, int, str]],  # loser: (raw, paid, cap)
    pizi: str = "5m",
    laizi: str = "6m",
) -> dict[str, Any]:
    """The full expectation of a hand with one winner; deltas and transfers follow from ``paid``."""
    rows = [(seat, *paid[seat]) for seat in ((winner + offset) % 4 for offset in range(1, 4))]
    deltas = [0] * 4
    transfers: list[list[int | str]] = []
    for seat, _, amount, _ in rows:
        deltas[seat] -= amount
        deltas[winner] += amount
        if how == "self_drawn":
            reason = "win_self_drawn"
        elif seat != discarder:
            reason = "win_discard_other"
        else:
            reason = "robbed_kong" if how == "robbed_kong" else "win_discard"
        transfers.append([seat, winner, amount, reason])
    return {
        "pizi": pizi,
        "laizi": laizi,
        "outcome": "win",
        "winners": [winner],
        "how": [how],
        "items": {str(winner): items},
        "shares": {str(winner): share},
        "multipliers": multipliers,
        "payers": {str(winner): lines(*rows)},
        "transfers": transfers,
        "deltas": deltas,
        "next_dealer": winner,
    }


def exhaustive_draw_moves() -> list[str]:
    """ES-P2: the dealer discards, seat 1 lays a 赖子, then every seat lets its draw go until the wall
    is empty. 108 tiles − 53 dealt − the 痞子 = 54 live; seat 1's draw and replacement take 2, and 52
    more draws are let go."""
    moves = ["0 d 9m", "1 lay 6m", "1 t"]
    seat = 2
    for _ in range(52):
        moves.append(f"{seat} t")
        seat = (seat + 1) % 4
    return moves


SCENARIOS = [
    # --- ES-02: a 9 痞子 names the 1 of its suit -------------------------------------------------
    *[
        Scenario(
            name=f"es-02{letter}-pizi-9{suit}-laizi-1{suit}",
            example="ES-02",
            source="S003b 注 (痞子为九万九饼或者九条时，相应的赖子为一万、一饼、一条)",
            title=f"痞子 9{suit} → 赖子 1{suit}: the dealer lays its 9{suit} (×2), the replacement 1{suit} is wild "
            "and completes 23m: 杠开 (×2) 大斜 with a 赖子, 5 × 4 = 20 from each",
            pizi=f"9{suit}",
            hands={0: f"9{suit}234p567p345s55s23m"},
            replacements=f"1{suit}",
            moves=[f"0 lay 9{suit}", "0 hu"],
            expect=settled(
                winner=0,
                how="self_drawn",
                items={"daxie": 5, "pizi_laid": 2, "kong_bloom": 2},
                share=20,
                multipliers=[2, 1, 1, 1],
                paid={1: (20, 20, ""), 2: (20, 20, ""), 3: (20, 20, "")},
                pizi=f"9{suit}",
                laizi=f"1{suit}",
            ),
        )
        for letter, suit in (("a", "m"), ("b", "p"), ("c", "s"))
    ],
    # --- ES-03: 屁胡 ------------------------------------------------------------------------------
    Scenario(
        name="es-03a-pihu-chuotai-off",
        example="ES-03a",
        source="S003b 2 (放炮2块，其他人给一块)",
        title="chuotai_forbidden = false. Seat 1 chows 234p from the dealer, holds 34m6m11s456s78s and wins "
        "on seat 2's 9s: 屁胡 1 with a 赖子 (not 硬), nobody laid: the discarder 2, the others 1",
        options={"chuotai_forbidden": False},
        hands={0: "3p" + JUNK, 1: "24p34m6m11s456s78s9m"},
        draws="9s",
        moves=["0 d 3p", "1 chow 2p", "1 d 9m", "2 t", "1 hu"],
        expect=settled(
            winner=1,
            how="discard",
            discarder=2,
            items={"pihu": 1},
            share=1,
            multipliers=[1, 1, 1, 1],
            paid={2: (2, 2, ""), 3: (1, 1, ""), 0: (1, 1, "")},
        ),
    ),
    Scenario(
        name="es-03b-pihu-after-a-pizi-laid",
        example="ES-03b",
        source="S003b 2, 10 (不能戳胎)",
        title="Default card: as ES-03a, but seat 3 laid a 痞子 first (M3 = 2), so 戳胎 does not apply: "
        "the discarder 1 × 2 = 2, seat 3 1 × 2 = 2, the dealer 1",
        hands={0: "3p" + JUNK, 1: "24p34m6m11s456s78s9m", 3: "5m3p7p4s7s11p33p77p22s"},
        draws="3m4p7p8p9s",
        replacements="2p",
        moves=["0 d 3p", "1 chow 2p", "1 d 9m", "2 t", "3 lay 5m", "3 t", "0 t", "1 t", "2 t", "1 hu"],
        expect=settled(
            winner=1,
            how="discard",
            discarder=2,
            items={"pihu": 1},
            share=1,
            multipliers=[1, 1, 1, 2],
            paid={2: (2, 2, ""), 3: (2, 2, ""), 0: (1, 1, "")},
        ),
    ),
    # --- ES-04 / ES-06: 小斜 ----------------------------------------------------------------------
    Scenario(
        name="es-04-xiaoxie-with-laizi",
        example="ES-04",
        source="S003b 3 (小斜每家3块)",
        title="Seat 2 pongs the dealer's 7s, holds 12m6m345p678p9s (waits 3m, 9s) and self-draws 9s: "
        "小斜 3 with a 赖子 as 3m, all M = 1: 3 from each",
        hands={0: "7s" + JUNK, 2: "77s12m6m345p678p9s1p"},
        draws="3p7p4s9s",
        moves=["0 d 7s", "2 pong", "2 d 1p", "3 t", "0 t", "1 t", "2 hu"],
        expect=settled(
            winner=2,
            how="self_drawn",
            items={"xiaoxie": 3},
            share=3,
            multipliers=[1, 1, 1, 1],
            paid={3: (3, 3, ""), 0: (3, 3, ""), 1: (3, 3, "")},
        ),
    ),
    # --- ES-05: 大斜 ------------------------------------------------------------------------------
    Scenario(
        name="es-05-daxie-self-drawn",
        example="ES-05",
        source="S003b 4 (大斜每家5块)",
        title="Seat 1, no meld, holds 23m6m456p789p123s5s and self-draws 4m: 234m 456p 789p 123s and 5s with "
        "the 赖子 — 大斜 5, not 硬: 5 from each",
        hands={0: "3p" + JUNK, 1: "23m6m456p789p123s5s"},
        draws="4m",
        moves=["0 d 3p", "1 hu"],
        expect=settled(
            winner=1,
            how="self_drawn",
            items={"daxie": 5},
            share=5,
            multipliers=[1, 1, 1, 1],
            paid={2: (5, 5, ""), 3: (5, 5, ""), 0: (5, 5, "")},
        ),
    ),
    Scenario(
        name="es-06-hard-xiaoxie",
        example="ES-06",
        source="S003b 5 (没有赖子的话叫硬的，翻1倍)",
        title="Seat 2 pongs the dealer's 7s, holds 123m345p678p9s (no 赖子) and self-draws 9s: "
        "硬小斜 3 × 2 = 6 from each",
        hands={0: "7s" + JUNK, 2: "77s123m345p678p9s1p"},
        draws="3p7p4s9s",
        moves=["0 d 7s", "2 pong", "2 d 1p", "3 t", "0 t", "1 t", "2 hu"],
        expect=settled(
            winner=2,
            how="self_drawn",
            items={"xiaoxie": 3, "hard": 2},
            share=6,
            multipliers=[1, 1, 1, 1],
            paid={3: (6, 6, ""), 0: (6, 6, ""), 1: (6, 6, "")},
        ),
    ),
    # --- ES-07 … ES-09: 七对 ----------------------------------------------------------------------
    Scenario(
        name="es-07-qidui-on-a-discard-pihu-only",
        example="ES-07",
        source="S003b 6 (一点每家5块：七对，有赖子，放炮)",
        title="discarder_double = pihu_only (the notes' figure). Seat 3 holds 11m7m22p33p44s99s3s6m (waits "
        "7m or 3s); the dealer discards 7m: 七对 with a 赖子 on a discard, 一点 5 from each",
        options={"discarder_double": "pihu_only"},
        hands={0: "7m" + JUNK, 3: "11m7m22p33p44s99s3s6m"},
        moves=["0 d 7m", "3 hu"],
        expect=settled(
            winner=3,
            how="discard",
            discarder=0,
            items={"qidui": 5},
            share=5,
            multipliers=[1, 1, 1, 1],
            paid={0: (5, 5, ""), 1: (5, 5, ""), 2: (5, 5, "")},
        ),
    ),
    Scenario(
        name="es-07-default-qidui-on-a-discard",
        example="ES-07",
        source="S003b 6; 倍数 3 (点炮的玩家按牌面底数的双倍计算); A-20",
        title="Default card (discarder_double = all_wins): ES-07's win, the dealer as discarder pays 5 × 2 = 10, "
        "the others 5",
        hands={0: "7m" + JUNK, 3: "11m7m22p33p44s99s3s6m"},
        moves=["0 d 7m", "3 hu"],
        expect=settled(
            winner=3,
            how="discard",
            discarder=0,
            items={"qidui": 5},
            share=5,
            multipliers=[1, 1, 1, 1],
            paid={0: (10, 10, ""), 1: (5, 5, ""), 2: (5, 5, "")},
        ),
    ),
    Scenario(
        name="es-08a-qidui-self-drawn",
        example="ES-08a",
        source="S003b 7 (两点每家10块：七对有赖子自摸)",
        title="ES-07's hand self-draws 3s: 七对 with a 赖子, self-drawn, 两点 5 × 2 = 10 from each",
        hands={0: "9m" + JUNK, 3: "11m7m22p33p44s99s3s6m"},
        draws="3p7p3s",
        moves=["0 d 9m", "1 t", "2 t", "3 hu"],
        expect=settled(
            winner=3,
            how="self_drawn",
            items={"qidui": 5, "qidui_self_drawn": 2},
            share=10,
            multipliers=[1, 1, 1, 1],
            paid={0: (10, 10, ""), 1: (10, 10, ""), 2: (10, 10, "")},
        ),
    ),
    Scenario(
        name="es-08b-hard-qidui-on-a-discard-pihu-only",
        example="ES-08b",
        source="S003b 7 (两点每家10块：…或七对没赖子放炮)",
        title="discarder_double = pihu_only (the notes' figure). Seat 3 holds 11m77m22p33p44s99s3s (no 赖子); "
        "the dealer discards 3s: 七对 硬 on a discard, 两点 5 × 2 = 10 from each",
        options={"discarder_double": "pihu_only"},
        hands={0: "3s" + JUNK, 3: "11m77m22p33p44s99s3s"},
        moves=["0 d 3s", "3 hu"],
        expect=settled(
            winner=3,
            how="discard",
            discarder=0,
            items={"qidui": 5, "hard": 2},
            share=10,
            multipliers=[1, 1, 1, 1],
            paid={0: (10, 10, ""), 1: (10, 10, ""), 2: (10, 10, "")},
        ),
    ),
    Scenario(
        name="es-08b-default-hard-qidui-on-a-discard",
        example="ES-08b",
        source="S003b 7; 倍数 3; A-20",
        title="Default card: ES-08b's win, the dealer as discarder pays 10 × 2 = 20, the others 10",
        hands={0: "3s" + JUNK, 3: "11m77m22p33p44s99s3s"},
        moves=["0 d 3s", "3 hu"],
        expect=settled(
            winner=3,
            how="discard",
            discarder=0,
            items={"qidui": 5, "hard": 2},
            share=10,
            multipliers=[1, 1, 1, 1],
            paid={0: (20, 20, ""), 1: (10, 10, ""), 2: (10, 10, "")},
        ),
    ),
    Scenario(
        name="es-09-hard-qidui-self-drawn",
        example="ES-09",
        source="S003b 8 (四点每家20块：七对没赖子自摸)",
        title="ES-08b's hand self-draws 3s: 七对 硬 self-drawn, 四点 5 × 2 × 2 = 20 from each",
        hands={0: "9m" + JUNK, 3: "11m77m22p33p44s99s3s"},
        draws="3p7p3s",
        moves=["0 d 9m", "1 t", "2 t", "3 hu"],
        expect=settled(
            winner=3,
            how="self_drawn",
            items={"qidui": 5, "hard": 2, "qidui_self_drawn": 2},
            share=20,
            multipliers=[1, 1, 1, 1],
            paid={0: (20, 20, ""), 1: (20, 20, ""), 2: (20, 20, "")},
        ),
    ),
    # --- ES-10: caps --------------------------------------------------------------------------
    # Seat 1 holds 234m456p789p123s5s (no 赖子, waits 5s), draws a 赖子, lays it, the replacement is
    # the second 赖子, lays it too (M1 = 4 × 4 = 16), and self-draws 5s on a later turn: 硬大斜
    # 5 × 2 = 10, share 10 × 16 = 160.
    Scenario(
        name="es-10a-cap-one-loser",
        example="ES-10a",
        source="S003b 8 (普通封顶400分：一家或两家所输分数达到400分以上只算400分)",
        title="Seat 1 lays two 赖子 (M1 = 16) and self-draws a 硬大斜: share 160. Seat 2 laid a 痞子 (M2 = 2): "
        "320. Seat 3 laid a 赖子 (M3 = 4): 640 → 400. The dealer (M0 = 1): 160",
        hands={0: "3p" + JUNK, 1: "234m456p789p123s5s"},
        draws="6m5m6m7p5s",
        replacements="6m3p4s8p",
        moves=["0 d 3p", "1 lay 6m", "1 lay 6m", "1 t", "2 lay 5m", "2 t", "3 lay 6m", "3 t", "0 t", "1 hu"],
        expect=settled(
            winner=1,
            how="self_drawn",
            items={"daxie": 5, "hard": 2, "laizi_laid": 16},
            share=160,
            multipliers=[1, 16, 2, 4],
            paid={2: (320, 320, ""), 3: (640, 400, "cap"), 0: (160, 160, "")},
        ),
    ),
    Scenario(
        name="es-10a-two-losers-capped",
        example="ES-10a",
        source="S003b 8 (封顶, 一家或两家)",
        title="ES-10a with seat 2 laying a 赖子 instead (M2 = 4): two losers reach 640 and pay 400 each, the "
        "dealer 160 — still no 金顶",
        hands={0: "3p" + JUNK, 1: "234m456p789p123s5s"},
        draws="6m6m6m7p5s",
        replacements="6m3p4s8p",
        moves=["0 d 3p", "1 lay 6m", "1 lay 6m", "1 t", "2 lay 6m", "2 t", "3 lay 6m", "3 t", "0 t", "1 hu"],
        expect=settled(
            winner=1,
            how="self_drawn",
            items={"daxie": 5, "hard": 2, "laizi_laid": 16},
            share=160,
            multipliers=[1, 16, 4, 4],
            paid={2: (640, 400, "cap"), 3: (640, 400, "cap"), 0: (160, 160, "")},
        ),
    ),
    Scenario(
        name="es-10b-gold-cap",
        example="ES-10b",
        source="S003b 9 (金顶500分：其他三家所输分数都达400分以上算500分)",
        title="As ES-10a, but the dealer laid the fourth 赖子 (M0 = 4) and seat 2 also made a concealed kong "
        "(M2 = 2 × 4 = 8): raw 640 / 1280 / 640, all three ≥ 400: 金顶, 500 each",
        hands={0: "6m3p" + JUNK[:-2], 1: "234m456p789p123s5s", 2: "777s5m1p9p3s4s8s22p44p"},
        draws="6m7s6m7p5s",
        replacements="8m6m3p1m4s8p",
        moves=[
            "0 lay 6m",
            "0 d 3p",
            "1 lay 6m",
            "1 lay 6m",
            "1 t",
            "2 kong 7s",
            "2 lay 5m",
            "2 t",
            "3 lay 6m",
            "3 t",
            "0 t",
            "1 hu",
        ],
        expect=settled(
            winner=1,
            how="self_drawn",
            items={"daxie": 5, "hard": 2, "laizi_laid": 16},
            share=160,
            multipliers=[4, 16, 8, 4],
            paid={2: (1280, 500, "gold_cap"), 3: (640, 500, "gold_cap"), 0: (640, 500, "gold_cap")},
        ),
    ),
    # --- ES-11: the multipliers of both sides, and 杠开 after a lay ---------------------------------
    Scenario(
        name="es-11-lay-bloom-loser-multiplier",
        example="ES-11",
        source="S003b 倍数 1-2",
        title="The dealer lays a 赖子 (M0 = 4) and lets 7s go; seat 2 pongs it, later draws 4s, lays its 痞子 "
        "5m (M2 = 2) and the replacement 4s wins: 杠开 ×2, 小斜 3, share 3 × 2 × 2 = 12; the dealer "
        "pays 12 × 4 = 48, the others 12",
        hands={0: "6m7s" + JUNK[:-2], 2: "77s12m6m345p678p5m1p"},
        draws="3p7p8p4s",
        replacements="9p4s",
        moves=["0 lay 6m", "0 d 7s", "2 pong", "2 d 1p", "3 t", "0 t", "1 t", "2 lay 5m", "2 hu"],
        expect=settled(
            winner=2,
            how="self_drawn",
            items={"xiaoxie": 3, "pizi_laid": 2, "kong_bloom": 2},
            share=12,
            multipliers=[4, 1, 2, 1],
            paid={3: (12, 12, ""), 0: (48, 48, ""), 1: (12, 12, "")},
        ),
    ),
    # --- extra play records ---------------------------------------------------------------------
    # ES-P1: a longer hand. Seat 1 chows 234p from the dealer; seat 3 makes a concealed kong of 8p and
    # lets 9s go; seat 1 pongs it and at once lays its 痞子 (a lay after a claim); the dealer's 2s is
    # konged by seat 2 (direct exposed kong), who then lays a 赖子; seat 1 draws the fourth 9s and adds
    # it to its pung; seat 2 lets 6s go and seat 1 wins: 234p 999s(added kong) 234m 678s 11s, no 赖子.
    # 硬屁胡 1 × 2 = 2; M1 = 痞子 2 × 明杠 2 = 4: share 8. Seat 2 (discarder): M2 = 赖子 4 × 明杠 2 = 8,
    # 8 × 8 × 2 = 128; seat 3: M3 = 暗杠 4, 8 × 4 = 32; the dealer 8.
    Scenario(
        name="es-p1-long-hand-chow-pong-lays-kongs",
        example="ES-P1",
        source="§3.2-§3.4, §6, §7.1 (play)",
        title="A longer hand: a chow, a pung, a concealed, a direct and an added kong, a 痞子 and a 赖子 laid; "
        "seat 1 wins a 硬屁胡 on seat 2's discard: share 2 × 4 = 8; seat 2 pays 8 × 8 × 2 = 128, seat 3 "
        "8 × 4 = 32, the dealer 8",
        hands={
            0: "3p1m9m1p9p2m8m2p1s8s4m7m5p5s",
            1: "24p99s5m234m11s78s1p",
            2: "6m222s9m3m1p4p7p7m8m3s5p",
            3: "888p9s1m3p4p7p3s4s7s3m5s",
        },
        draws="4s8p9p7m2s4p7p9s6s",
        replacements="1s1m3p7m1m",
        moves=[
            "0 d 3p",
            "1 chow 2p",
            "1 d 1p",
            "2 t",
            "3 kong 8p",
            "3 d 9s",
            "1 pong",
            "1 lay 5m",
            "1 t",
            "2 t",
            "3 t",
            "0 t",
            "2 kong",
            "2 lay 6m",
            "2 t",
            "3 t",
            "0 t",
            "1 kong 9s",
            "1 t",
            "2 d 6s",
            "1 hu",
        ],
        expect=settled(
            winner=1,
            how="discard",
            discarder=2,
            items={"pihu": 1, "hard": 2, "pizi_laid": 2, "exposed_kong": 2},
            share=8,
            multipliers=[1, 4, 8, 4],
            paid={2: (128, 128, ""), 3: (32, 32, ""), 0: (8, 8, "")},
        ),
    ),
    # ES-P3: a 赖子 standing in a chow (laizi_in_melds, §3.3). Seat 1 holds 2p and a 赖子 6m but no 4p:
    # it chows the dealer's 3p into 234p, the 赖子 standing for 4p, so the meld lies as 2p 3p 6m for
    # everyone to see. It lets 9m go and self-draws 1s: 234m 789p 567s 11s and the chow — no 赖子 among
    # the concealed tiles, but the one in the chow is a 赖子 of the winning hand, so the hand is not 硬
    # (§3.3, §5.2). Open and self-drawn: 小斜 3 (§5.1); nobody laid or konged, all M = 1 (§6); each of
    # the three pays 3 (§7.1) — a 硬 reading would have been 3 × 2 = 6 each.
    Scenario(
        name="es-p3-laizi-in-a-chow-not-hard",
        example="ES-P3",
        source="§3.3 (laizi_in_melds), §5.1, §5.2 (硬), §7.1",
        title="laizi_in_melds = true. Seat 1 chows the dealer's 3p with 2p and a 赖子 6m standing for 4p (the "
        "meld lies as 2p 3p 6m), lets 9m go and self-draws 1s: no 赖子 among its concealed tiles, but the "
        "one in the chow is in the winning hand, so not 硬 — 小斜 3, all M = 1: 3 from each",
        options={"laizi_in_melds": True},
        hands={0: "3p" + JUNK, 1: "2p6m234m789p567s1s9m"},
        draws="9m9p1p1s",
        moves=["0 d 3p", "1 chow 2p", "1 d 9m", "2 t", "3 t", "0 t", "1 hu"],
        expect=settled(
            winner=1,
            how="self_drawn",
            items={"xiaoxie": 3},
            share=3,
            multipliers=[1, 1, 1, 1],
            paid={2: (3, 3, ""), 3: (3, 3, ""), 0: (3, 3, "")},
        ),
    ),
    # ES-P2: 荒庄. The three 5m in play and the four 6m are in the seats' hands (nobody lays but seat 1),
    # so every tile drawn can be let go. Seat 1 laid a 赖子 (M1 = 4), but nobody pays on a draw, and the
    # dealer deals again.
    Scenario(
        name="es-p2-exhaustive-draw",
        example="ES-P2",
        source="§3.5 荒庄 (X-ES 荒庄判定：上一局庄家继续当庄)",
        title="Nobody wins: every live tile is drawn (54 = 108 − 53 dealt − the 痞子); seat 1's laid 赖子 costs "
        "nothing, nobody pays, the dealer deals again",
        hands={
            0: "9m5m5m5m1m1p9p1s9s2m8m2p8p2s",
            1: "6m3m4m7m3p4p7p3s4s7s1m1p1s",
            2: "6m6m6m9m9p9s2m8m2p8p2s3m4m",
        },
        moves=exhaustive_draw_moves(),
        expect={
            "pizi": "5m",
            "laizi": "6m",
            "outcome": "draw",
            "winners": [],
            "multipliers": [1, 4, 1, 1],
            "transfers": [],
            "deltas": [0, 0, 0, 0],
            "next_dealer": 0,
        },
    ),
    # --- docs/rules/enshi.md §9 "Each option shown": plays whose settlement an option changes ---------
    # Each pair is the same deal and wall (the same hands, draws and replacements); the figures are
    # worked out by hand from §5-§7 in the comments, never taken from the engine.
    # pizi_flip: the dealer's 14 tiles 678m456p789p123s55s win at once (天胡 has no bonus, §11.1). The
    # wall's last tile is 5m, its first 1p. Turned from the back: 痞子 5m, 赖子 6m — the 6m of 678m is a
    # 赖子: 大斜 5, not 硬, 5 from each. Turned from the front (pizi_flip = front): 痞子 1p, 赖子 2p — no
    # 赖子 in the hand: 硬大斜 5 × 2 = 10 from each (tests/data/options/enshi.jsonl replays it so).
    Scenario(
        name="opt-pizi-flip-dealer-daxie",
        example="ES-OPT-03",
        source="§2 (the 痞子 turned from the back), §5.1, §5.2",
        title="The dealer wins on its 14 dealt tiles 678m456p789p123s55s; the wall ends in 5m and starts with 1p. "
        "痞子 from the back: 5m, so the 6m is a 赖子 — 大斜 5 from each (from the front: 痞子 1p, 赖子 2p, "
        "硬大斜 10 from each)",
        hands={0: "678m456p789p123s55s"},
        draws="1p",
        moves=["0 hu"],
        expect=settled(
            winner=0,
            how="self_drawn",
            items={"daxie": 5},
            share=5,
            multipliers=[1, 1, 1, 1],
            paid={1: (5, 5, ""), 2: (5, 5, ""), 3: (5, 5, "")},
        ),
    ),
    # reserved_tiles: seat 2 (硬 234m456p789p123s5s, waiting 5s) self-draws the last live tile, the 54th
    # (108 − 53 dealt − the 痞子): 硬大斜 10 from each. With 4 tiles reserved the 50th draw is the last:
    # 荒庄, nobody pays. The 痞子 and every 赖子 sit in hands that never discard them (as in ES-P2).
    *[
        Scenario(
            name=name,
            example="ES-OPT-04",
            source="§2 (No reserved tail), §3.5 (荒庄), §5.1",
            title=title,
            options=options,
            hands={
                0: "5m5m5m6m5s5s1m9m1p9p1s9s2m8m",
                1: "6m6m6m3m4m7m3p4p7p3s4s7s8p",
                2: "234m456p789p123s5s",
                3: "2m8m2p8p2s8s3m7m3p7p3s7s1m",
            },
            replacements="5s",  # the last live tile: just before the 痞子 at the back
            moves=["0 d 8m", *[f"{draw % 4} t" for draw in range(1, draws)], *tail],
            expect=expect,
        )
        for name, title, options, draws, tail, expect in (
            (
                "opt-reserved-tiles-last-tile-wins",
                "Default card (no reserved tail): every seat lets its draw go; seat 2 self-draws the 54th and "
                "last live tile, 5s: 硬大斜 10 from each",
                {},
                54,
                ["2 hu"],
                settled(
                    winner=2,
                    how="self_drawn",
                    items={"daxie": 5, "hard": 2},
                    share=10,
                    multipliers=[1, 1, 1, 1],
                    paid={3: (10, 10, ""), 0: (10, 10, ""), 1: (10, 10, "")},
                ),
            ),
            (
                "opt-reserved-tiles-4-draw",
                "reserved_tiles = 4: the same deal and wall; the 50th draw is the last live tile, the 5s is "
                "reserved: 荒庄, nobody pays",
                {"reserved_tiles": 4},
                51,
                [],
                {
                    "pizi": "5m",
                    "laizi": "6m",
                    "outcome": "draw",
                    "winners": [],
                    "multipliers": [1, 1, 1, 1],
                    "transfers": [],
                    "deltas": [0, 0, 0, 0],
                    "next_dealer": 0,
                },
            ),
        )
    ],
    # chow: seat 1 (24p234m789p567s1s9m) and the dealer's 3p. Default card: it chows 234p, lets 9m go
    # and self-draws 1s — open, no 赖子: 硬小斜 3 × 2 = 6 from each. chow = false: no chow; it draws the
    # 3p the next seat drew before, lets 9m go, and wins on the dealer's 1s with a concealed hand:
    # 硬大斜 5 × 2 = 10, the dealer 20.
    Scenario(
        name="opt-chow-open-hard-xiaoxie",
        example="ES-OPT-05",
        source="§3.3 (吃), §5.1, §5.2",
        title="Default card: seat 1 chows the dealer's 3p into 234p, lets 9m go and self-draws 1s: "
        "硬小斜 3 × 2 = 6 from each",
        hands={0: "3p" + JUNK, 1: "24p234m789p567s1s9m"},
        draws="3p9p1m1s",
        moves=["0 d 3p", "1 chow 2p", "1 d 9m", "2 t", "3 t", "0 t", "1 hu"],
        expect=settled(
            winner=1,
            how="self_drawn",
            items={"xiaoxie": 3, "hard": 2},
            share=6,
            multipliers=[1, 1, 1, 1],
            paid={2: (6, 6, ""), 3: (6, 6, ""), 0: (6, 6, "")},
        ),
    ),
    Scenario(
        name="opt-chow-off-hard-daxie-on-a-discard",
        example="ES-OPT-05",
        source="§3.3 (吃), §5.1 (大斜 on a discard), §5.2, §7.1",
        title="chow = false, the same deal and wall: seat 1 cannot chow the 3p, draws the other 3p, lets 9m "
        "go and wins on the dealer's 1s with a concealed hand: 硬大斜 10, the dealer 20, the others 10",
        options={"chow": False},
        hands={0: "3p" + JUNK, 1: "24p234m789p567s1s9m"},
        draws="3p9p1m1s",
        moves=["0 d 3p", "1 d 9m", "2 t", "3 t", "0 t", "1 hu"],
        expect=settled(
            winner=1,
            how="discard",
            discarder=0,
            items={"daxie": 5, "hard": 2},
            share=10,
            multipliers=[1, 1, 1, 1],
            paid={2: (10, 10, ""), 3: (10, 10, ""), 0: (20, 20, "")},
        ),
    ),
    # multi_ron: the dealer's 5s completes seat 1 (234m456p789p123s5s) and seat 3 (789m123p678s99s46s),
    # both concealed, no 赖子: 硬大斜 10 each on a discard. Default: only seat 1, first after the
    # dealer — the dealer 20, seats 2 and 3 10. multi_ron: both, each settled alone — the dealer pays
    # 20 + 20, seat 2 10 + 10, seat 1 +40 − 10, seat 3 +40 − 10.
    *[
        Scenario(
            name=name,
            example="ES-OPT-06",
            source="§3.3 (one winner), §5.1, §7.1",
            title=title,
            options=options,
            hands={0: "5s" + JUNK, 1: "234m456p789p123s5s", 3: "789m123p678s99s46s"},
            moves=moves,
            expect=expect,
        )
        for name, title, options, moves, expect in (
            (
                "opt-multi-ron-first-winner",
                "Default card: the dealer's 5s completes seats 1 and 3; only seat 1, first in turn order, "
                "wins: 硬大斜 10, the dealer 20, the others 10",
                {},
                ["0 d 5s", "1 hu"],
                settled(
                    winner=1,
                    how="discard",
                    discarder=0,
                    items={"daxie": 5, "hard": 2},
                    share=10,
                    multipliers=[1, 1, 1, 1],
                    paid={2: (10, 10, ""), 3: (10, 10, ""), 0: (20, 20, "")},
                ),
            ),
            (
                "opt-multi-ron-two-winners",
                "multi_ron = true: both win on the dealer's 5s, each 硬大斜 10 settled alone: the dealer pays "
                "20 to each, seat 2 10 to each, seats 1 and 3 10 to each other",
                {"multi_ron": True},
                ["0 d 5s", "1 hu", "3 hu"],
                {
                    "pizi": "5m",
                    "laizi": "6m",
                    "outcome": "win",
                    "winners": [1, 3],
                    "items": {"1": {"daxie": 5, "hard": 2}, "3": {"daxie": 5, "hard": 2}},
                    "shares": {"1": 10, "3": 10},
                    "multipliers": [1, 1, 1, 1],
                    "payers": {
                        "1": [[2, 10, 10, ""], [3, 10, 10, ""], [0, 20, 20, ""]],
                        "3": [[0, 20, 20, ""], [1, 10, 10, ""], [2, 10, 10, ""]],
                    },
                    "deltas": [-40, 30, -20, 30],
                    "next_dealer": 1,
                },
            ),
        )
    ],
    # pass_win_restriction: seat 1 (硬 234m456p789p123s5s) lets seat 3's 5s go, then the dealer lets a
    # 5s go too. Default: 过水不胡 until seat 1's next discard — no win on the dealer's 5s; seat 1
    # self-draws the last 5s: 硬大斜 10 from each. Off: the very same moves win on the dealer's 5s:
    # 硬大斜 10, the dealer 20, the others 10 (the option's entry replays this record so).
    Scenario(
        name="opt-pass-win-self-drawn",
        example="ES-OPT-08",
        source="§3.5 (过水不胡), §5.1, §5.2, §7.1",
        title="Default card: seat 1 passes seat 3's 5s; 过水不胡, so it cannot win on the dealer's 5s either, "
        "and self-draws the last 5s: 硬大斜 10 from each",
        hands={0: "9m" + JUNK, 1: "234m456p789p123s5s"},
        draws="1m9p5s5s5s",
        moves=["0 d 9m", "1 t", "2 t", "3 t", "1 pass", "0 t", "1 hu"],
        expect=settled(
            winner=1,
            how="self_drawn",
            items={"daxie": 5, "hard": 2},
            share=10,
            multipliers=[1, 1, 1, 1],
            paid={2: (10, 10, ""), 3: (10, 10, ""), 0: (10, 10, "")},
        ),
    ),
    # pass_pung_restriction: seat 1 (77s123m345p678p9s1p) passes seat 3's 7s; the dealer lets the other
    # 7s go. Default: 过水不碰 — no pung; seat 1 draws 9s, lets 1p go and wins on the dealer's 9s with
    # a concealed hand (123m 345p 678p 999s 77s): 硬大斜 10, the dealer 20, the others 10. Off: it
    # pongs the dealer's 7s, lets 1p go and wins on seat 2's 9s (the 9s it would have drawn) with an
    # open hand: 硬屁胡 1 × 2 = 2, seat 2 4, the others 2.
    Scenario(
        name="opt-pass-pung-concealed-daxie",
        example="ES-OPT-09",
        source="§3.5 (过水不碰), §5.1, §5.2, §7.1",
        title="Default card: seat 1 passes seat 3's 7s; 过水不碰, so it cannot pong the dealer's 7s; it draws "
        "9s and wins on the dealer's 9s, concealed: 硬大斜 10, the dealer 20, the others 10",
        hands={0: "9m" + JUNK, 1: "77s123m345p678p9s1p"},
        draws="1m9p7s7s9s2m8p9s",
        moves=["0 d 9m", "1 t", "2 t", "3 t", "1 pass", "0 t", "1 d 1p", "2 t", "3 t", "0 t", "1 hu"],
        expect=settled(
            winner=1,
            how="discard",
            discarder=0,
            items={"daxie": 5, "hard": 2},
            share=10,
            multipliers=[1, 1, 1, 1],
            paid={2: (10, 10, ""), 3: (10, 10, ""), 0: (20, 20, "")},
        ),
    ),
    Scenario(
        name="opt-pass-pung-off-hard-pihu",
        example="ES-OPT-09",
        source="§3.5 (过水不碰), §5.1, §5.2, §7.1",
        title="pass_pung_restriction = false, the same deal and wall: seat 1 pongs the dealer's 7s after "
        "passing seat 3's, lets 1p go and wins on seat 2's 9s: 硬屁胡 1 × 2 = 2, seat 2 4, the others 2",
        options={"pass_pung_restriction": False},
        hands={0: "9m" + JUNK, 1: "77s123m345p678p9s1p"},
        draws="1m9p7s7s9s2m8p9s",
        moves=["0 d 9m", "1 t", "2 t", "3 t", "1 pass", "0 t", "1 pong", "1 d 1p", "2 t", "1 hu"],
        expect=settled(
            winner=1,
            how="discard",
            discarder=2,
            items={"pihu": 1, "hard": 2},
            share=2,
            multipliers=[1, 1, 1, 1],
            paid={2: (4, 4, ""), 3: (2, 2, ""), 0: (2, 2, "")},
        ),
    ),
    # laizi_in_melds: ES-P3's deal and wall on the default card. Seat 1 (2p6m234m789p567s1s9m) may not
    # chow the dealer's 3p with its 赖子 for the 4p; it draws 9m, lets 2p go and wins on the dealer's 1s:
    # 234m 789p 567s 11s and 99m with the 赖子 as 9m, concealed — 大斜 5 (not 硬), the dealer 10, the
    # others 5. ES-P3 (laizi_in_melds = true) chows and self-draws a 小斜 3 from each.
    Scenario(
        name="opt-laizi-in-melds-off-daxie",
        example="ES-OPT-12",
        source="§3.3 (laizi_in_melds), §5.1, §7.1",
        title="ES-P3's deal on the default card: no 赖子 in a chow, so seat 1 stays concealed, draws 9m, lets 2p "
        "go and wins on the dealer's 1s: 大斜 5 with a 赖子, the dealer 10, the others 5",
        hands={0: "3p" + JUNK, 1: "2p6m234m789p567s1s9m"},
        draws="9m9p1p1s",
        moves=["0 d 3p", "1 d 2p", "2 t", "3 t", "0 t", "1 hu"],
        expect=settled(
            winner=1,
            how="discard",
            discarder=0,
            items={"daxie": 5},
            share=5,
            multipliers=[1, 1, 1, 1],
            paid={2: (5, 5, ""), 3: (5, 5, ""), 0: (10, 10, "")},
        ),
    ),
    # next_dealer: two hands. Seat 2 (23m6m456p789p123s5s) self-draws 4m: 大斜 5 with a 赖子, 5 from each.
    # The winner deals the next hand (§8): seat 2 deals and wins at once on its 14 tiles
    # 234m456p789p123s55s (no 赖子, concealed, self-drawn; 天胡 has no bonus, §11.1): 硬大斜 5 × 2 = 10
    # from each. Match: −5 − 10 = −15 each, seat 2 +15 + 30 = +45. With next_dealer = next_seat the deal
    # passes to seat 1, so a second hand dealt by seat 2 is refused (tests/data/options/enshi.jsonl).
    Scenario(
        name="opt-next-dealer-winner-deals",
        example="ES-OPT-37",
        source="§8 (next dealer), §5.1, §5.2, §7.1",
        title="Seat 2 self-draws a 大斜 (5 from each) and, as the winner, deals the next hand, which it wins at "
        "once: 硬大斜 10 from each; match −15 / −15 / +45 / −15",
        hands={0: "3p" + JUNK, 2: "23m6m456p789p123s5s"},
        draws="9p4m",
        moves=["0 d 3p", "1 t", "2 hu"],
        then=[{"hands": {2: "234m456p789p123s55s"}, "moves": ["2 hu"]}],
        expect={
            **settled(
                winner=2,
                how="self_drawn",
                items={"daxie": 5},
                share=5,
                multipliers=[1, 1, 1, 1],
                paid={3: (5, 5, ""), 0: (5, 5, ""), 1: (5, 5, "")},
            ),
            "totals": [-15, -15, 45, -15],
        },
    ),
    # next_dealer_on_draw: two hands. ES-P2's 荒庄 (nobody pays); the dealer deals again (§8) and wins at
    # once on 234m456p789p123s55s: 硬大斜 10 from each. With next_dealer_on_draw = next_seat the deal
    # passes to seat 1, so a second hand dealt by seat 0 is refused.
    Scenario(
        name="opt-next-dealer-on-draw-same-dealer",
        example="ES-OPT-38",
        source="§3.5 (荒庄), §8 (next dealer), §5.1, §5.2, §7.1",
        title="ES-P2's 荒庄, nobody pays; the dealer deals again and wins at once: 硬大斜 10 from each; match "
        "+30 / −10 / −10 / −10",
        hands={
            0: "9m5m5m5m1m1p9p1s9s2m8m2p8p2s",
            1: "6m3m4m7m3p4p7p3s4s7s1m1p1s",
            2: "6m6m6m9m9p9s2m8m2p8p2s3m4m",
        },
        moves=exhaustive_draw_moves(),
        then=[{"hands": {0: "234m456p789p123s55s"}, "moves": ["0 hu"]}],
        expect={
            "pizi": "5m",
            "laizi": "6m",
            "outcome": "draw",
            "winners": [],
            "transfers": [],
            "deltas": [0, 0, 0, 0],
            "next_dealer": 0,
            "totals": [30, -10, -10, -10],
        },
    ),
]


def play_hand(
    scenario: Scenario,
    match: Match,
    *,
    hands: dict[int, str],
    draws: str,
    replacements: str,
    moves: list[str],
) -> HandState:
    """Stack the wall for the match's dealer, deal, and play one hand's moves through the engine."""
    try:
        deal, wall = stack_wall(
            match.ruleset,
            dealer=match.dealer,
            hands=hands,
            draws=draws,
            replacements=replacements,
            pizi=scenario.pizi,
        )
        state = match.start_hand(deal=deal, wall=wall)
        run_moves(state, moves)
    except ValueError as error:  # a bad deal or notation, an illegal or unreadable move
        raise SystemExit(f"{scenario.name}: {error}") from None
    close_open_window(state)
    if state.phase is not Phase.ENDED:
        raise SystemExit(
            f"{scenario.name}: the moves stop before the hand is over (seat {state.turn} to play)"
        )
    return state


def play(scenario: Scenario) -> tuple[Match, HandState]:
    """Stack the wall, deal, and play the scenario's (first) hand through the engine."""
    match = Match(load_ruleset(PRESET, scenario.options), seats=SEAT_NAMES)
    state = play_hand(
        scenario,
        match,
        hands=scenario.hands,
        draws=scenario.draws,
        replacements=scenario.replacements,
        moves=scenario.moves,
    )
    return match, state


def build(scenario: Scenario) -> dict[str, Any]:
    """Play the scenario, check it against its expectation, and return the record."""
    match, state = play(scenario)
    hands = [HandRecord(dealer=0, actions=tuple(state.actions), deal=state.deal, wall=tuple(state.wall))]
    for more in scenario.then:
        match.finish_hand(state)
        dealer = match.dealer
        state = play_hand(
            scenario,
            match,
            hands=more.get("hands", {}),
            draws=more.get("draws", ""),
            replacements=more.get("replacements", ""),
            moves=more["moves"],
        )
        hands.append(
            HandRecord(dealer=dealer, actions=tuple(state.actions), deal=state.deal, wall=tuple(state.wall))
        )
    record = MatchRecord(
        ruleset=PRESET,
        options=match.ruleset.options_dict(),
        seats=tuple(match.seats),
        hands=tuple(hands),
        extra={
            "scenario": {
                "example": scenario.example,
                "source": scenario.source,
                "title": scenario.title,
                "expect": scenario.expect,
            }
        },
    )
    data = write_record(record)
    problems = check(data)
    if problems:
        raise SystemExit(f"{scenario.name} ({scenario.example}): " + "; ".join(problems))
    return data


def actual_figures(hand: HandResult, state: HandState) -> dict[str, Any]:
    """What the engine made of a replayed hand, in the shape of a scenario's ``expect``."""
    ruleset = state.ruleset
    return {
        "pizi": format_tiles([state.pizi]) if state.pizi is not None else None,
        "laizi": format_tiles([state.laizi]) if state.laizi is not None else None,
        "outcome": hand.outcome,
        "winners": list(hand.winners),
        "how": [how for how, _, _, _ in hand.scores],
        "items": {
            str(sheet.seat): {entry.key: entry.value for entry in sheet.items} for *_, sheet in hand.scores
        },
        "shares": {str(sheet.seat): sheet.share for *_, sheet in hand.scores},
        "multipliers": [ruleset.seat_multiplier(state, seat) for seat in range(4)],
        "payers": {
            str(sheet.seat): [[line.seat, line.raw, line.paid, line.cap] for line in sheet.payers]
            for *_, sheet in hand.scores
        },
        "transfers": [[t.payer, t.payee, t.amount, t.reason] for t in hand.transfers],
        "deltas": list(hand.deltas),
        "next_dealer": hand.next_dealer,
    }


def check(data: dict[str, Any]) -> list[str]:
    """Replay a scenario record and compare it with its expectation; returns the differences."""
    expect = data["scenario"]["expect"]
    result = replay(read_record(data))
    actual = actual_figures(result.results[0], result.states[0])
    actual["totals"] = list(result.match.totals)
    return [
        f"{key}: expected {wanted}, got {actual.get(key)}"
        for key, wanted in expect.items()
        if actual.get(key) != wanted
    ]


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    names = [scenario.name for scenario in SCENARIOS]
    if len(set(names)) != len(names):
        raise SystemExit("two scenarios share a name")
    built = {scenario.name: build(scenario) for scenario in SCENARIOS}
    for path in OUT.glob("*.json"):
        if path.stem not in built:
            path.unlink()
    for scenario in SCENARIOS:
        path = OUT / f"{scenario.name}.json"
        path.write_text(render(built[scenario.name]), encoding="utf-8")
        print(f"{scenario.example}: wrote {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
