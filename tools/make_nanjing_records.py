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
    record = MatchRecord(
        ruleset="nanjing",
        options=ruleset.options_dict(),
        seats=tuple(match.seats),
        hands=(HandRecord(dealer=0, actions=tuple(actions), deal=state.deal, wall=tuple(state.wall)),),
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
