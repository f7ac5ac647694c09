"""How long bots seem to think at a table (server/table/think.py), per room pace, over bot games.

    python bench/think_times.py               # 32 hands of each rule set, strong bots in every seat
    python bench/think_times.py --hands 8     # a quick look

Every decision a bot makes at a table is counted as the table counts it: its own turns (a discard,
a kong, a win, a forced move) and its claims on a discard; a pass in a claim window has no think time
(the window's own pause covers it). Printed per pace: how many, the median, the 10th and 90th
percentiles and the extremes, all and by kind of decision. The draw is seeded: the figures repeat.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict
from collections.abc import Sequence

from hupai.bots import StrongBot
from hupai.game.actions import Action, Discard, Pass, Win
from hupai.game.engine import legal_actions, step
from hupai.game.match import Match
from hupai.game.model import Phase
from hupai.game.view import view
from hupai.rules import load_ruleset
from hupai.server.table.think import PACES, think_seconds
from hupai.sim import acting_seat

RULESETS = ("nanjing", "nanning", "enshi")


def kind_of(legal: Sequence[Action], choice: Action) -> str:
    if len(legal) == 1:
        return "forced"
    if isinstance(choice, Win):
        return "win"
    if isinstance(choice, Discard):
        return "discard"
    return "claim or kong"


def think_times(hands: int, pace: str) -> dict[str, list[float]]:
    rng = random.Random(2026)
    found: dict[str, list[float]] = defaultdict(list)
    for ruleset in RULESETS:
        match = Match(load_ruleset(ruleset), seed=2026)
        players = [StrongBot(seat) for seat in range(4)]
        for _ in range(hands):
            state = match.start_hand()
            while state.phase is not Phase.ENDED:
                seat = acting_seat(state)
                legal = legal_actions(state, seat)
                choice = players[seat].choose(view(state, seat), legal)
                if not isinstance(choice, Pass):
                    seconds = think_seconds(pace, legal, choice, rng)
                    found["all"].append(seconds)
                    found[kind_of(legal, choice)].append(seconds)
                step(state, choice)
            match.finish_hand(state)
    return found


def line(label: str, values: list[float]) -> str:
    values = sorted(values)
    tenth, ninetieth = (values[int(share * (len(values) - 1))] for share in (0.1, 0.9))
    return (
        f"  {label:14s} {len(values):6d}  median {statistics.median(values):4.2f} s  "
        f"p10 {tenth:4.2f}  p90 {ninetieth:4.2f}  min {values[0]:4.2f}  max {values[-1]:4.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=32, help="hands of each rule set")
    args = parser.parse_args()
    for pace in PACES:
        found = think_times(args.hands, pace)
        print(f"{pace} ({PACES[pace][0]}-{PACES[pace][1]} s)")
        for label in ("all", "discard", "claim or kong", "win", "forced"):
            if found[label]:
                print(line(label, found[label]))


if __name__ == "__main__":
    main()
