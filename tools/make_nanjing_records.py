"""Write the Nanjing worked examples (rules-notes §4A, NJ-01 … NJ-12) as scenario records.

    python tools/make_nanjing_records.py

Each scenario below sets up the seats' tiles and the wall, lists the moves in short notation, and
states the expected settlement worked out by hand (the comments show the arithmetic). The script
plays the moves, checks that the engine agrees with every expected figure, and writes a
``hupai-record/1`` file with the expectation attached (``tests/data/records/nanjing/*.json``).
The tests replay those files and check the figures again.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hupai.game.match import Match
from hupai.game.record import Escape, HandRecord, MatchRecord, read_record, write_record
from hupai.game.scripting import run_moves
from hupai.game.stacking import stack_wall
from hupai.replay import replay
from hupai.rules import load_ruleset

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "records" / "nanjing"

DEALER = "11599p1199s12344z"  # holds 1p and 5p, far from ready


@dataclass
class Scenario:
    name: str
    example: str  # rules-notes §4A id
    source: str  # seed passage
    title: str
    hands: dict[int, str]
    moves: list[str]
    expect: dict[str, Any]
    draws: str = ""
    replacements: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    escape: int | None = None
    # further hands of the match, each {"hands", "draws", "replacements", "moves"}, dealt by the dealer
    # the rules give after the hand before (option records: 比下胡)
    then: list[dict[str, Any]] = field(default_factory=list)


SCENARIOS = [
    Scenario(
        name="nj01-menqing-hunyise-88",
        example="NJ-01",
        source="S002 算分",
        title="门清混一色, four hard flowers, self-drawn: 40 + 20 + 20 + 4×2 = 88 from each",
        hands={0: DEALER, 1: "123m234m789m6z77z1f"},
        replacements="1z1z5m6m",
        draws="7m",
        moves=["0 d 1p", "1 hu"],
        expect={
            "winners": [1],
            "shares": {"1": 88},
            "items": {"1": {"base": 20, "hard_flowers": 8, "menqing": 20, "hunyise": 40}},
            "transfers": [
                [2, 1, 88, "win_self_drawn"],
                [3, 1, 88, "win_self_drawn"],
                [0, 1, 88, "win_self_drawn"],
            ],
            "deltas": [-88, 264, -88, -88],
        },
    ),
    Scenario(
        name="nj02-escape-60",
        example="NJ-02",
        source="S002 算分",
        title="A player leaves for good: −60 花, shared by the other three",
        hands={0: DEALER},
        moves=["0 d 1p"],
        escape=2,
        expect={
            "outcome": "abandoned",
            "transfers": [[2, 3, 20, "escape"], [2, 0, 20, "escape"], [2, 1, 20, "escape"]],
            "deltas": [20, 20, -60, 20],  # the escape is paid in the hand where the player left
            "totals": [20, 20, -60, 20],
        },
    ),
    Scenario(
        name="nj03-kuaizhao-concealed-kong-other-feeder",
        example="NJ-03",
        source="S002 承包1",
        title="A pongs B, makes a concealed kong, pongs B again: 三嘴. C's 3m is A's fourth mouth: "
        "对对胡, paid by B. 20 + 暗杠 2 soft ×2 + 对对胡 40 + 无花果 40 = 104; kong money 3 each",
        hands={0: "11599p1179s12344z", 1: "339999m155p778s4z"},
        draws="2m5s6s1m2m5s6s3m",
        replacements="4m",
        moves=[
            "0 d 5p",
            "1 pong",
            "1 d 4z",
            "2 t",
            "3 t",
            "0 t",
            "1 kong 9m",
            "1 t",
            "2 t",
            "3 t",
            "0 d 7s",
            "1 pong",
            "1 d 1m",
            "2 t",
            "1 hu",
        ],
        expect={
            "winners": [1],
            "shares": {"1": 104},
            "items": {"1": {"base": 20, "concealed_kong_soft": 4, "duiduihu": 40, "wuhuaguo": 40}},
            "transfers": [
                [2, 1, 3, "concealed_kong"],
                [3, 1, 3, "concealed_kong"],
                [0, 1, 3, "concealed_kong"],
                [0, 1, 104, "kuaizhao"],
            ],
            "deltas": [-107, 113, -3, -3],
        },
    ),
    Scenario(
        name="nj04-kuaizhao-fourth-mouth-same-feeder",
        example="NJ-04",
        source="S002 承包2",
        title="A pongs B three times; B's 3m is the fourth mouth: 全球独钓 (and 对对胡), B pays. "
        "20 + 风碰 2 + 对对胡 40 + 全球独钓 60 + 无花果 40 = 162",
        hands={0: "11599p1179s12344z", 1: "339m1559p7789s22z"},
        draws="2m5s6s2m5s6s2m4s3m",
        moves=[
            "0 d 5p",
            "1 pong",
            "1 d 9p",
            "2 t",
            "3 t",
            "0 d 7s",
            "1 pong",
            "1 d 9s",
            "2 t",
            "3 t",
            "0 d 2z",
            "1 pong",
            "1 d 9m",
            "2 t",
            "3 t",
            "0 t",
            "1 hu",
        ],
        expect={
            "winners": [1],
            "shares": {"1": 162},
            "items": {"1": {"base": 20, "wind_pung": 2, "duiduihu": 40, "quanqiu": 60, "wuhuaguo": 40}},
            "transfers": [[0, 1, 162, "kuaizhao"]],
            "deltas": [-162, 162, 0, 0],
        },
    ),
    Scenario(
        name="nj05-sanqing-run-completes-seed-002",
        example="NJ-05",
        source="S002 承包3",
        title="三清 as seed 002 reads it: 111 555 777万 laid down, 34万 in hand; a 2万 completes a set: "
        "清一色, the discarder pays three shares. 20 + 清一色 60 + 无花果 40 = 120, ×3 = 360",
        hands={
            0: "1m22369p369s12344z",
            1: "11345577m19p79s4z",
            2: "5m4578p4578s2233z",
            3: "7m1266p1266s1134z",
        },
        draws="6m8m9m6m8m2m",
        options={"sanqing_trigger": "any_set_incl_sequence"},
        moves=[
            "0 d 1m",
            "1 pong",
            "1 d 9p",
            "2 d 5m",
            "1 pong",
            "1 d 9s",
            "2 t",
            "3 d 7m",
            "1 pong",
            "1 d 4z",
            "2 t",
            "3 t",
            "0 t",
            "1 hu",
        ],
        expect={
            "winners": [1],
            "shares": {"1": 120},
            "items": {"1": {"base": 20, "qingyise": 60, "wuhuaguo": 40}},
            "transfers": [[0, 1, 360, "sanqing"]],
            "deltas": [-360, 360, 0, 0],
        },
    ),
    Scenario(
        name="nj06-big-kong-bloom-first-feeder-pays",
        example="NJ-06",
        source="S002 承包4",
        title="A pongs B's 2万, adds the fourth, the replacement 5万 completes a second added kong (pung "
        "fed by C), and the next replacement wins: B, whose tile was konged first, pays all three shares. "
        "20 + two 明杠 soft 4 + 独占 2 + 对对胡 40 + 大杠开 40 + 无花果 40 = 146, ×3 = 438",
        hands={0: "2m36899p3679s1344z", 1: "2255m111p4449s12z", 2: "5m4578p4578s2233z"},
        draws="6m8m9m6m2m",
        replacements="5m9s",
        moves=[
            "0 d 2m",
            "1 pong",
            "1 d 1z",
            "2 d 5m",
            "1 pong",
            "1 d 2z",
            "2 t",
            "3 t",
            "0 t",
            "1 kong 2m",
            "1 kong 5m",
            "1 hu",
        ],
        expect={
            "winners": [1],
            "shares": {"1": 146},
            "items": {
                "1": {
                    "base": 20,
                    "exposed_kong_soft": 4,
                    "pair_wait": 2,
                    "duiduihu": 40,
                    "big_kong_bloom": 40,
                    "wuhuaguo": 40,
                }
            },
            "transfers": [
                [0, 1, 6, "exposed_kong"],
                [2, 1, 6, "exposed_kong"],
                [0, 1, 438, "kong_bloom_liability"],
            ],
            "deltas": [-444, 450, -6, 0],
        },
    ),
    Scenario(
        name="nj07-kuaizhao-same-feeder-half-flush",
        example="NJ-07",
        source="S003a 快照1",
        title="Three mouths from B, the fourth from B too: 对对胡 + 全球独钓, and the four mouths are "
        "混一色. 20 + 风碰 2 + 对对胡 40 + 全球独钓 60 + 混一色 40 + 无花果 40 = 202",
        hands={0: "157m2368p236s1234z", 1: "115577m39p89s114z"},
        draws="4m6m8m4m6m8m2m9m3m",
        moves=[
            "0 d 1m",
            "1 pong",
            "1 d 9p",
            "2 t",
            "3 t",
            "0 d 5m",
            "1 pong",
            "1 d 9s",
            "2 t",
            "3 t",
            "0 d 1z",
            "1 pong",
            "1 d 4z",
            "2 t",
            "3 t",
            "0 d 7m",
            "1 hu",
        ],
        expect={
            "winners": [1],
            "shares": {"1": 202},
            "items": {
                "1": {
                    "base": 20,
                    "wind_pung": 2,
                    "duiduihu": 40,
                    "quanqiu": 60,
                    "hunyise": 40,
                    "wuhuaguo": 40,
                }
            },
            "transfers": [[0, 1, 202, "kuaizhao"]],
            "deltas": [-202, 202, 0, 0],
        },
    ),
    Scenario(
        name="nj08-kuaizhao-other-feeder",
        example="NJ-08",
        source="S003a 快照2",
        title="Three mouths from B, the fourth from C: 对对胡 only, paid by B. "
        "20 + 风碰 2 + 对对胡 40 + 无花果 40 = 102",
        hands={0: "11599p1179s12344z", 1: "339m1559p7789s22z"},
        draws="2m5s6s2m5s6s3m",
        moves=[
            "0 d 5p",
            "1 pong",
            "1 d 9p",
            "2 t",
            "3 t",
            "0 d 7s",
            "1 pong",
            "1 d 9s",
            "2 t",
            "3 t",
            "0 d 2z",
            "1 pong",
            "1 d 9m",
            "2 t",
            "1 hu",
        ],
        expect={
            "winners": [1],
            "shares": {"1": 102},
            "items": {"1": {"base": 20, "wind_pung": 2, "duiduihu": 40, "wuhuaguo": 40}},
            "transfers": [[0, 1, 102, "kuaizhao"]],
            "deltas": [-102, 102, 0, 0],
        },
    ),
    Scenario(
        name="nj09-sanqing-fourth-pung",
        example="NJ-09",
        source="S003a 快照3, S000a",
        title="Three 万 melds from three players; a fourth 万 pung wins at once: 清一色 + 对对胡 + 全球独钓, "
        "the feeder of the fourth pays three shares. 20 + 60 + 40 + 60 + 无花果 40 = 220, ×3 = 660",
        hands={
            0: "1m22369p369s12344z",
            1: "11335577m19p79s4z",
            2: "5m4578p4578s2233z",
            3: "7m1266p1266s1134z",
        },
        draws="6m8m9m6m8m3m",
        moves=[
            "0 d 1m",
            "1 pong",
            "1 d 9p",
            "2 d 5m",
            "1 pong",
            "1 d 9s",
            "2 t",
            "3 d 7m",
            "1 pong",
            "1 d 4z",
            "2 t",
            "3 t",
            "0 t",
            "1 hu",
        ],
        expect={
            "winners": [1],
            "shares": {"1": 220},
            "items": {"1": {"base": 20, "duiduihu": 40, "quanqiu": 60, "qingyise": 60, "wuhuaguo": 40}},
            "transfers": [[0, 1, 660, "sanqing"]],
            "deltas": [-660, 660, 0, 0],
        },
    ),
    Scenario(
        name="nj10-kuaizhao-two-pungs-and-a-concealed-kong",
        example="NJ-10",
        source="S000a",
        title="B pongs A, makes a concealed kong, pongs A again: 快照 on A. A's own 3m is the fourth mouth: "
        "对对胡 + 全球独钓. 20 + 暗杠 4 + 40 + 60 + 无花果 40 = 164",
        hands={0: "11599p1179s12344z", 1: "339999m155p778s4z"},
        draws="2m5s6s1m2m5s6s2m5s3m",
        replacements="4m",
        moves=[
            "0 d 5p",
            "1 pong",
            "1 d 4z",
            "2 t",
            "3 t",
            "0 t",
            "1 kong 9m",
            "1 t",
            "2 t",
            "3 t",
            "0 d 7s",
            "1 pong",
            "1 d 1m",
            "2 t",
            "3 t",
            "0 t",
            "1 hu",
        ],
        expect={
            "winners": [1],
            "shares": {"1": 164},
            "items": {
                "1": {"base": 20, "concealed_kong_soft": 4, "duiduihu": 40, "quanqiu": 60, "wuhuaguo": 40}
            },
            "transfers": [
                [2, 1, 3, "concealed_kong"],
                [3, 1, 3, "concealed_kong"],
                [0, 1, 3, "concealed_kong"],
                [0, 1, 164, "kuaizhao"],
            ],
            "deltas": [-167, 173, -3, -3],
        },
    ),
    Scenario(
        name="nj11-kuaizhao-two-concealed-kongs-and-a-pung",
        example="NJ-11",
        source="S000a",
        title="B makes two concealed kongs and pongs A once: 快照 on A. C's 3m is the fourth mouth: "
        "对对胡, paid by A. 20 + two 暗杠 8 + 对对胡 40 + 无花果 40 = 108",
        hands={0: DEALER, 1: "339999m55p8888s2z"},
        draws="7m6m6m4m2m6m4m4m3m",
        replacements="6s7s",
        moves=[
            "0 d 1p",
            "1 kong 9m",
            "1 t",
            "2 t",
            "3 t",
            "0 t",
            "1 kong 8s",
            "1 t",
            "2 t",
            "3 t",
            "0 d 5p",
            "1 pong",
            "1 d 7m",
            "2 t",
            "1 hu",
        ],
        expect={
            "winners": [1],
            "shares": {"1": 108},
            "items": {"1": {"base": 20, "concealed_kong_soft": 8, "duiduihu": 40, "wuhuaguo": 40}},
            "deltas": [-114, 126, -6, -6],
        },
    ),
    Scenario(
        name="nj12-yajue-own-pung",
        example="NJ-12",
        source="S000a, S002, S003a (压档 / 边枝 / 压绝)",
        title="A pongs 3万, then wins on the last 3万 with 24万 (a closed wait): 压绝 replaces the 压档 soft "
        "flower. 20 + 压绝 40 + 无花果 40 = 100 from each",
        hands={0: "3m11599p1199s1234z", 1: "2334m4569p11789s"},
        draws="6m8m2m3m",
        moves=["0 d 3m", "1 pong", "1 d 9p", "2 t", "3 t", "0 t", "1 hu"],
        expect={
            "winners": [1],
            "shares": {"1": 100},
            "items": {"1": {"base": 20, "yajue": 40, "wuhuaguo": 40}},
            "deltas": [-100, 300, -100, -100],
        },
    ),
    # --- Option records (docs/rules/nanjing.md §7 "Each option shown", tests/data/options/nanjing.jsonl):
    # played hands whose settlement changes with one option.
    Scenario(
        name="opt-multi-ron",
        example="option multi_ron",
        source="S003a 一炮两响; A-3",
        title="The dealer's 5s completes two 门清 hands: both win, 20 + 门清 20 + 无花果 40 = 80 each, "
        "the dealer pays 160",
        hands={0: "11599p119s5s12344z", 1: "123m456m789p11s34s", 2: "123p456p789m22s34s"},
        moves=["0 d 5s", "1 hu", "2 hu"],
        expect={"winners": [1, 2], "deltas": [-160, 80, 80, 0], "totals": [-160, 80, 80, 0]},
    ),
    Scenario(
        name="opt-pass-win",
        example="option pass_win_restriction",
        source="S002 不能弃先胡后; A-2",
        title="Seat 1 passes a win on seat 2's 5s; seat 3's 2s is no win for it (过胡不胡), and it "
        "self-draws 5s later: 20 + 门清 20 + 无花果 40 = 80 from each",
        hands={
            0: DEALER,
            1: "123m456m789p11s34s",
            2: "2m5m8m3p6p2s5s8s2z3z4z6s7m",
            3: "1m4m7m2p4p7p3s7s6m9m2z3z2s",
        },
        draws="9m8p7s6m5s",
        moves=["0 d 1p", "1 t", "2 d 5s", "1 pass", "3 d 2s", "0 t", "1 hu"],
        expect={"winners": [1], "deltas": [-80, 240, -80, -80], "totals": [-80, 240, -80, -80]},
    ),
    Scenario(
        name="opt-pass-win-off",
        example="option pass_win_restriction",
        source="S002 不能弃先胡后; A-2",
        title="pass_win_restriction off: seat 1 passes a win on seat 2's 5s and wins on seat 3's 2s: "
        "20 + 门清 20 + 无花果 40 = 80 from seat 3",
        hands={
            0: DEALER,
            1: "123m456m789p11s34s",
            2: "2m5m8m3p6p2s5s8s2z3z4z6s7m",
            3: "1m4m7m2p4p7p3s7s6m9m2z3z2s",
        },
        draws="9m8p7s",
        options={"pass_win_restriction": False},
        moves=["0 d 1p", "1 t", "2 d 5s", "1 pass", "3 d 2s", "1 hu"],
        expect={"winners": [1], "deltas": [0, 80, 0, -80], "totals": [0, 80, 0, -80]},
    ),
    Scenario(
        name="opt-flower-kong-tianhu",
        example="option flower_kong_money",
        source="S000a 花杠; S003a",
        title="The dealer opens with 春夏秋冬 (a flower kong, 6 from each) and the replacements make 天胡: "
        "20 + 4 hard flowers 8 + 天胡 320 = 348 from each",
        hands={0: "1f2f3f4f123m456m789p1s"},
        replacements="1s3s4s5s",
        moves=["0 hu"],
        expect={"winners": [0], "deltas": [1062, -354, -354, -354], "totals": [1062, -354, -354, -354]},
    ),
    Scenario(
        name="opt-follow-penalty",
        example="option penalty_each",
        source="S002, S003a 罚（四家同打）; C-NJ-6, C-NJ-7",
        title="After the dealer's 9p, seats 1, 2, 3 and 0 discard 东 in a row: seat 1 pays 10 to each; "
        "then seat 1 self-draws 门清: 20 + 20 + 无花果 40 = 80 from each",
        hands={
            0: DEALER,
            1: "123m456m789p11s3s1z",
            2: "2m5m8m3p6p2s5s8s2z3z4z6s1z",
            3: "1m4m7m2p4p7p3s7s6m9m2z3z1z",
        },
        draws="4s9m8p7s5s",
        moves=["0 d 9p", "1 d 1z", "2 d 1z", "3 d 1z", "0 d 1z", "1 hu"],
        expect={"winners": [1], "deltas": [-70, 210, -70, -70], "totals": [-70, 210, -70, -70]},
    ),
    Scenario(
        name="opt-bixiahu-three-tianhu",
        example="option bixiahu_mult",
        source="S000a, S002, S003a 比下胡; C-NJ-18, C-NJ-19, A-15",
        title="The dealer wins 天胡 three hands running (庄家胡 and a 大胡: 比下胡 each time): "
        "20 + 天胡 320 + 无花果 40 = 380 from each, then ×2 = 760, then ×2 = 760 again (flat)",
        hands={0: "123m456m789p11s345s"},
        moves=["0 hu"],
        then=[
            {"hands": {0: "123m456m789p11s345s"}, "moves": ["0 hu"]},
            {"hands": {0: "123m456m789p11s345s"}, "moves": ["0 hu"]},
        ],
        expect={"totals": [5700, -1900, -1900, -1900]},
    ),
    Scenario(
        name="opt-bixiahu-two-tianhu",
        example="option bixiahu_triggers",
        source="S000a, S002, S003a 比下胡; C-NJ-18, C-NJ-19",
        title="The dealer wins 天胡 twice (比下胡 after the first: the dealer stays, ×2): "
        "380 from each, then 760 from each",
        hands={0: "123m456m789p11s345s"},
        moves=["0 hu"],
        then=[{"hands": {0: "123m456m789p11s345s"}, "moves": ["0 hu"]}],
        expect={"totals": [3420, -1140, -1140, -1140]},
    ),
    Scenario(
        name="opt-bixiahu-no-trigger",
        example="option bixiahu_triggers",
        source="S000a 轮流坐庄; C-NJ-18",
        title="bixiahu_triggers without dealer_win and big_hand: the dealer's 天胡 is no 比下胡, the deal "
        "passes to seat 1, whose 天胡 is not doubled: 380 from each, twice",
        hands={0: "123m456m789p11s345s"},
        options={
            "bixiahu_triggers": [
                "penalty",
                "draw",
                "haidi",
                "flower_kong",
                "kong_bloom",
                "liability",
                "multi_ron",
            ]
        },
        moves=["0 hu"],
        then=[{"hands": {1: "123m456m789p11s345s"}, "moves": ["1 hu"]}],
        expect={"totals": [760, 760, -760, -760]},
    ),
    Scenario(
        name="opt-bixiahu-dealer-passes",
        example="option bixiahu_keeps_dealer",
        source="S000a 轮流坐庄; C-NJ-19",
        title="bixiahu_keeps_dealer off: after the dealer's 天胡 (比下胡) the deal passes to seat 1, whose "
        "天胡 is doubled: 380 from each, then 760 from each",
        hands={0: "123m456m789p11s345s"},
        options={"bixiahu_keeps_dealer": False},
        moves=["0 hu"],
        then=[{"hands": {1: "123m456m789p11s345s"}, "moves": ["1 hu"]}],
        expect={"totals": [380, 1900, -1140, -1140]},
    ),
    # reserved_tiles: the 144 tiles all placed. Seat 2 is dealt 5z6z7z1f (hard flowers, no flower kong),
    # replaced at the opening by the back's 4z6m9s8s; the other 16 flowers fill the middle of the wall,
    # where the two ends meet — the reserved tail of 16 tiles (留8墩). 91 − 4 − 16 = 71 live tiles, all
    # suited tiles or winds, drawn from the front: the 68th (the dealer's) is 5s, three live tiles are left
    # after it. Every seat lets its draws go; the order spreads each kind (no four alike in a row, no seat
    # draws all four of one), and the other 2s and 5s are in hands, so nobody pays a 罚 and the dealer's
    # waits come only at the 68th. The dealer (123m456m789p11s34s after its 9m, waits 2s/5s) self-draws
    # it: 门清, no flower, fewer than 4 live tiles left — 20 + 门清 20 + 无花果 40 + 海底捞 10 = 90 from
    # each. With reserved_tiles = 20 (留10墩) only 67 tiles are live: the wall runs out before the 68th
    # draw, 荒庄, and the record's 胡 is refused (tests/data/options/nanjing.jsonl replays it so).
    Scenario(
        name="opt-reserved-tiles-haidi",
        example="option reserved_tiles",
        source="S002 留8墩, 海底捞; A-1, A-24",
        title="Every seat lets its draws go; the dealer self-draws the 68th of 71 live tiles (16 reserved), "
        "3 live tiles left: 门清 海底捞 20 + 20 + 无花果 40 + 10 = 90 from each (with 20 reserved the wall "
        "runs out first: 荒庄)",
        hands={
            0: "123m456m789p11s34s9m",
            1: "2s2s5s1m1p1s5m5p9s1z2z3z4z",
            2: "5z6z7z1f2s5s2m2p8s2z3z4z8m",
            3: "2s5s3m3p3s6m6p6s7m7p7s8p1z",
        },
        replacements="4z6m9s8s",
        draws="16m149p6s2z49m37p49s27m25p17s4z5m148p6s2z48m36p49s27m259p7s3z59m48p6s1z38m36p38s17m159p7s3z"
        "49m47p4s1z38m2p5s6p38s",
        moves=["0 d 9m", *[f"{draw % 4} t" for draw in range(1, 68)], "0 hu"],
        expect={
            "winners": [0],
            "items": {"0": {"base": 20, "menqing": 20, "wuhuaguo": 40, "haidi": 10}},
            "deltas": [270, -90, -90, -90],
            "totals": [270, -90, -90, -90],
        },
    ),
    # pass_pung_restriction: seat 1 (222m555p333s77s9s1z) passes seat 3's 7s; the dealer then draws
    # the last 7s and lets it go, before seat 1's next discard. Default: 过碰不碰, no pung; seat 1 draws
    # 9s, lets 1z go and self-draws the third 9s: 222m 555p 333s 999s 77s, concealed — 20 + 门清 20 +
    # 对对胡 40 + 无花果 40 = 120 from each (waits 7s/9s: no wait soft flower). Off: it pongs the dealer's
    # 7s, lets 1z go and wins on seat 2's 9s (the 9s it would have drawn), waiting on 9s alone: 20 +
    # 独占 2 + 对对胡 40 + 无花果 40 = 102 from seat 2.
    *[
        Scenario(
            name=name,
            example="option pass_pung_restriction",
            source="S002 不能弃先碰后; A-2",
            title=title,
            hands={
                0: "1p9p1s9s2m8m2p8p1z2z3z4z4z3p",
                1: "222m555p333s77s9s1z",
                3: "7s1m4m7m2p4p7p8s6s6m9m2z3z",
            },
            draws="3m4s6p7s9s5m6m8p9s",
            options=options,
            moves=moves,
            expect=expect,
        )
        for name, title, options, moves, expect in (
            (
                "opt-pass-pung",
                "Seat 1 passes seat 3's 7s; 过碰不碰, so no pung of the dealer's 7s; it draws 9s and self-draws "
                "the third 9s, concealed: 20 + 门清 20 + 对对胡 40 + 无花果 40 = 120 from each",
                {},
                ["0 d 3p", "1 t", "2 t", "3 d 7s", "1 pass", "0 t", "1 d 1z", "2 t", "3 t", "0 t", "1 hu"],
                {
                    "winners": [1],
                    "items": {"1": {"base": 20, "menqing": 20, "duiduihu": 40, "wuhuaguo": 40}},
                    "deltas": [-120, 360, -120, -120],
                    "totals": [-120, 360, -120, -120],
                },
            ),
            (
                "opt-pass-pung-off",
                "pass_pung_restriction off, the same deal and wall: seat 1 passes seat 3's 7s, pongs the "
                "dealer's and wins on seat 2's 9s: 20 + 独占 2 + 对对胡 40 + 无花果 40 = 102 from seat 2",
                {"pass_pung_restriction": False},
                ["0 d 3p", "1 t", "2 t", "3 d 7s", "1 pass", "0 t", "1 pong", "1 d 1z", "2 t", "1 hu"],
                {
                    "winners": [1],
                    "items": {"1": {"base": 20, "pair_wait": 2, "duiduihu": 40, "wuhuaguo": 40}},
                    "deltas": [0, 102, -102, 0],
                    "totals": [0, 102, -102, 0],
                },
            ),
        )
    ],
    # dihu_allow_kong_same_waits: seat 1 declares 报听 on 111m456m789p11s34s (waits 2s/5s) and draws the
    # fourth 1m. Default: locked, it lets the 1m go, then self-draws 5s: 地胡 (no 门清 on 地胡), no flower —
    # 20 + 地胡 280 + 无花果 40 = 340 from each. On: the kong of 1m keeps the waits 2s/5s, so it may make
    # it (暗杠 3 from each at once), lets the replacement 9m go and self-draws the same 5s: 20 + 暗杠 soft
    # 4 + 280 + 40 = 344 from each, 347 with the kong money.
    *[
        Scenario(
            name=name,
            example="option dihu_allow_kong_same_waits",
            source="S002 报听, S003a 不碰不杠; A-14",
            title=title,
            hands={0: "1p9p1s9s2m8m2p8p1z2z3z4z4z3p", 1: "111m456m789p11s34s"},
            draws="1m6p8m7p5s",
            replacements="9m",
            options=options,
            moves=moves,
            expect=expect,
        )
        for name, title, options, moves, expect in (
            (
                "opt-ready-no-kong",
                "Seat 1 declares 报听 on 111m456m789p11s34s, must let the fourth 1m go, and self-draws 5s: "
                "地胡 20 + 280 + 无花果 40 = 340 from each",
                {},
                ["1 ready", "0 d 3p", "1 t", "2 t", "3 t", "0 t", "1 hu"],
                {
                    "winners": [1],
                    "items": {"1": {"base": 20, "dihu": 280, "wuhuaguo": 40}},
                    "deltas": [-340, 1020, -340, -340],
                    "totals": [-340, 1020, -340, -340],
                },
            ),
            (
                "opt-ready-kong-same-waits",
                "dihu_allow_kong_same_waits on, the same deal and wall: the concealed kong of 1m keeps the "
                "waits 2s/5s (暗杠 3 from each); seat 1 self-draws 5s: 地胡 20 + 暗杠 4 + 280 + 40 = 344 from each",
                {"dihu_allow_kong_same_waits": True},
                ["1 ready", "0 d 3p", "1 kong 1m", "1 t", "2 t", "3 t", "0 t", "1 hu"],
                {
                    "winners": [1],
                    "items": {"1": {"base": 20, "concealed_kong_soft": 4, "dihu": 280, "wuhuaguo": 40}},
                    "transfers": [
                        [2, 1, 3, "concealed_kong"],
                        [3, 1, 3, "concealed_kong"],
                        [0, 1, 3, "concealed_kong"],
                        [2, 1, 344, "win_self_drawn"],
                        [3, 1, 344, "win_self_drawn"],
                        [0, 1, 344, "win_self_drawn"],
                    ],
                    "deltas": [-347, 1041, -347, -347],
                    "totals": [-347, 1041, -347, -347],
                },
            ),
        )
    ],
]


def build(scenario: Scenario) -> dict[str, Any]:
    """Play the scenario, check it against its expectation, and return the record."""
    ruleset = load_ruleset("nanjing", scenario.options)
    deal, wall = stack_wall(
        ruleset, hands=scenario.hands, draws=scenario.draws, replacements=scenario.replacements
    )
    match = Match(ruleset, seats=("甲", "乙", "丙", "丁"))
    state = match.start_hand(deal=deal, wall=wall)
    run_moves(state, scenario.moves)
    actions: list[Any] = list(state.actions)
    if scenario.escape is not None:
        actions.append(Escape(scenario.escape))
    hands = [HandRecord(dealer=0, actions=tuple(actions), deal=state.deal, wall=tuple(state.wall))]
    for more in scenario.then:
        match.finish_hand(state)
        dealer = match.dealer
        deal, wall = stack_wall(
            ruleset,
            dealer=dealer,
            hands=more.get("hands", {}),
            draws=more.get("draws", ""),
            replacements=more.get("replacements", ""),
        )
        state = match.start_hand(deal=deal, wall=wall)
        run_moves(state, more["moves"])
        hands.append(
            HandRecord(dealer=dealer, actions=tuple(state.actions), deal=state.deal, wall=tuple(state.wall))
        )
    record = MatchRecord(
        ruleset="nanjing",
        options=ruleset.options_dict(),
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
        raise SystemExit(f"{scenario.name}: " + "; ".join(problems))
    return data


def check(data: dict[str, Any]) -> list[str]:
    """Replay a scenario record and compare it with its expectation; returns the differences."""
    expect = data["scenario"]["expect"]
    result = replay(read_record(data))
    problems: list[str] = []
    hand = result.results[0] if result.results else None
    actual: dict[str, Any] = {}
    if hand is not None:
        actual = {
            "outcome": hand.outcome,
            "winners": list(hand.winners),
            "deltas": list(hand.deltas),
            "shares": {str(sheet.seat): sheet.share for _, _, _, sheet in hand.scores},
            "items": {
                str(sheet.seat): {e.key: e.value for e in sheet.items} for _, _, _, sheet in hand.scores
            },
            "transfers": [[t.payer, t.payee, t.amount, t.reason] for t in hand.transfers],
        }
    actual["totals"] = list(result.match.totals)
    for key, wanted in expect.items():
        if actual.get(key) != wanted:
            problems.append(f"{key}: expected {wanted}, got {actual.get(key)}")
    return problems


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for scenario in SCENARIOS:
        data = build(scenario)
        path = OUT / f"{scenario.name}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{scenario.example}: wrote {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
