"""Whether 复盘's verdicts mean something (issue 50): the mistakes it flags per decision, for a random
player and for the strong bot, in self-play hands of each rule set; and how long a 16-hand match's
review takes.

    python bench/review_levels.py                       # 200 hands a player a rule set, 16 worlds
    python bench/review_levels.py --hands 40 --worlds 8 --jobs 2 --rulesets nanning

For each rule set and each player (``random``, ``strong``), four of that bot play ``--hands`` hands
(matches of 8, recorded), and seat 0 of every match is reviewed; it reports decisions reviewed, the
share whose choice was the search's best, close calls, and mistakes per decision (with their mean
estimated cost). Then it times the review of one 16-hand match of strong bots (``--worlds`` as given,
and the default), by the wall clock, on one core.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from hupai.game.record import read_record
from hupai.review import DEFAULT_WORLDS, review
from hupai.sim import SimConfig, simulate

MATCH_HANDS = 8


def recorded(
    ruleset: str, bot: str, hands: int, folder: Path, *, match_hands: int = MATCH_HANDS
) -> list[Path]:
    config = SimConfig(
        ruleset=ruleset,
        hands=hands,
        bots=(bot,) * 4,
        seed=50,
        match_hands=match_hands,
        check=False,
        records=str(folder),
    )
    simulate(config)
    return sorted(folder.glob("*.json"))


def reviewed(job: tuple[str, int]) -> dict[str, Any]:
    path, worlds = job
    return review(read_record(Path(path)), 0, worlds=worlds, seed=1).summary


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rulesets", default="nanning,nanjing,enshi")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as temporary, ProcessPoolExecutor(args.jobs) as pool:
        for ruleset in args.rulesets.split(","):
            for bot in ("random", "strong"):
                folder = Path(temporary) / f"{ruleset}-{bot}"
                folder.mkdir()
                paths = recorded(ruleset, bot, args.hands, folder)
                summaries = list(pool.map(reviewed, [(str(path), args.worlds) for path in paths]))
                decisions = sum(summary["decisions"] for summary in summaries)
                mistakes = sum(summary["mistakes"] for summary in summaries)
                row = {
                    "ruleset": ruleset,
                    "player": bot,
                    "hands": args.hands,
                    "decisions": decisions,
                    "best": round(sum(summary["best"] for summary in summaries) / decisions, 3),
                    "close": round(sum(summary["close"] for summary in summaries) / decisions, 3),
                    "mistakes_per_decision": round(mistakes / decisions, 3),
                    "mean_cost": round(sum(summary["cost"] for summary in summaries) / max(mistakes, 1), 2),
                }
                rows.append(row)
                if not args.json:
                    print(json.dumps(row, ensure_ascii=False), flush=True)
        folder = Path(temporary) / "timed"
        folder.mkdir()
        (match,) = recorded("nanjing", "strong", 16, folder, match_hands=16)
        timings = {}
        for worlds in sorted({args.worlds, DEFAULT_WORLDS}):
            started = time.perf_counter()
            review(read_record(match), 0, worlds=worlds, seed=1)
            timings[worlds] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps({"levels": rows, "match_16_hands_seconds": timings}, ensure_ascii=False))
    else:
        for worlds, seconds in timings.items():
            print(f"a 16-hand Nanjing match of strong bots, seat 0, {worlds} worlds a decision: {seconds} s")


if __name__ == "__main__":
    main()
