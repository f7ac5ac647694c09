"""How long the strong bot takes per decision, per rule set (median, 99th percentile, slowest).

    python bench/decisions.py                 # 64 hands per rule set: strong in one seat, efficiency in three
    python bench/decisions.py --hands 8       # a quick look

Every decision of the strong seat is timed around ``choose`` (the view and legal actions are built
outside the clock), with the wait reader (``hupai.bots.reading``) on and, for comparison, off. Target
(issue 18): under 20 ms a decision. The clock is the process's CPU time (``time.process_time``), which
other programs on a shared machine do not inflate; ``--wall`` times by the wall clock instead.
"""

from __future__ import annotations

import argparse
import statistics
import time

from hupai.bots import EfficiencyBot, StrongBot
from hupai.bots.reading import load_reader
from hupai.game.engine import legal_actions, step
from hupai.game.match import Match
from hupai.game.model import Phase
from hupai.game.view import view
from hupai.rules import load_ruleset
from hupai.sim import acting_seat

RULESETS = ("nanjing", "nanning", "enshi")


def timings(ruleset: str, hands: int, *, read_waits: bool, wall: bool = False) -> list[float]:
    """Seconds per decision of the strong bot over ``hands`` hands (it sits in every seat in turn)."""
    clock = time.perf_counter if wall else time.process_time
    out: list[float] = []
    load_reader(ruleset)  # the weights are read once per process, before the clock
    match = Match(load_ruleset(ruleset), seed=2026)
    for number in range(hands):
        strong_seat = number % 4
        strong = StrongBot(number)
        strong.read_waits = read_waits
        players = [strong if seat == strong_seat else EfficiencyBot(seat) for seat in range(4)]
        state = match.start_hand()
        while state.phase is not Phase.ENDED:
            seat = acting_seat(state)
            legal = legal_actions(state, seat)
            seen = view(state, seat)
            started = clock()
            action = players[seat].choose(seen, legal)
            if seat == strong_seat and len(legal) > 1:
                out.append(clock() - started)
            step(state, action)
        match.finish_hand(state)
    return out


def summary(values: list[float]) -> str:
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
    return (
        f"{len(values):6d} decisions  median {statistics.median(values) * 1000:6.2f} ms  "
        f"p99 {p99 * 1000:6.2f} ms  max {values[-1] * 1000:6.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=64)
    parser.add_argument("--ruleset", action="append", choices=RULESETS)
    parser.add_argument("--wall", action="store_true", help="time by the wall clock, not CPU time")
    args = parser.parse_args()
    for ruleset in args.ruleset or RULESETS:
        for read_waits in (True, False):
            label = "reader on " if read_waits else "reader off"
            found = timings(ruleset, args.hands, read_waits=read_waits, wall=args.wall)
            print(f"{ruleset:8s} {label}  {summary(found)}", flush=True)


if __name__ == "__main__":
    main()
