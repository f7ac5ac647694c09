"""Self-play speed: full hands per second with four random bots, next to RLCard's mahjong environment.

    python bench/selfplay.py              # 600 hands per rule set and 200 RLCard games, best of 3
    python bench/selfplay.py --quick      # a few hands, to check that it runs

hupai's hands carry the full rules and scoring (flowers, kongs, claims, every win scored and paid);
each bot gets its seat's view and the legal actions for every decision, as in real play. RLCard
(PyPI ``rlcard``) plays its own mahjong with four ``RandomAgent`` s through ``env.run``. The ratio is
what matters: the machines are shared and noisy. Target (issue 5): at least 5× RLCard.
"""

from __future__ import annotations

import argparse
import sys
import time
from importlib.metadata import version

from hupai.sim import SimConfig, simulate


def hupai_rate(ruleset: str, hands: int, repeats: int) -> float:
    best = 0.0
    for attempt in range(repeats):
        start = time.perf_counter()
        result = simulate(
            SimConfig(ruleset=ruleset, bots=("random",) * 4, hands=hands, seed=attempt, check=False)
        )
        best = max(best, result.hands / (time.perf_counter() - start))
    return best


def rlcard_rate(games: int, repeats: int) -> float:
    import rlcard
    from rlcard.agents import RandomAgent

    best = 0.0
    for attempt in range(repeats):
        env = rlcard.make("mahjong", config={"seed": attempt})
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
        start = time.perf_counter()
        for _ in range(games):
            env.run(is_training=False)
        best = max(best, games / (time.perf_counter() - start))
    return best


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    hands, games, repeats = (
        (16, 8, 1) if arguments.quick else (arguments.hands, arguments.games, arguments.repeats)
    )
    reference = rlcard_rate(games, repeats)
    print(f"self-play, random bots, best of {repeats} — rlcard {version('rlcard')}")
    print(f"{'engine':<24} {'hands/s':>9} {'vs RLCard':>10}")
    print(f"{'RLCard mahjong':<24} {reference:>9.1f} {1.0:>9.1f}x")
    for ruleset in ("nanjing", "nanning", "enshi"):
        rate = hupai_rate(ruleset, hands, repeats)
        print(f"{'hupai ' + ruleset:<24} {rate:>9.1f} {rate / reference:>9.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
