"""Self-play speed: whole hands per second with four random players, next to riichienv and RLCard.

    python bench/selfplay.py              # 5 interleaved rounds (about a minute)
    python bench/selfplay.py --quick      # a few hands, to check that it runs
    HUPAI_PURE=1 python bench/selfplay.py # the same on the pure-Python core

hupai's hands carry the full rules and scoring (flowers, kongs, claims, 痞子/赖子, every win scored and
paid, the event log); each player gets its seat's view and the legal actions for every decision, as
in real play. riichienv (PyPI ``riichienv``, Rust) plays one riichi hand (one kyoku) per
``RiichiEnv`` with its ``RandomAgent`` on every observation, as its README shows. RLCard (PyPI
``rlcard``) plays its own mahjong with four ``RandomAgent`` s through ``env.run``. Both are optional
(``pip install -e '.[bench]'``): a missing one is left out.

The engines take turns, round after round, in one process, and each keeps its best round, timed in
CPU time of this process (each engine plays on one thread), which a busy machine disturbs less than
wall time: what matters is the ratio. Targets (issue 19): every rule set at
least as many hands per second as riichienv (compiled core).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version

import hupai
from hupai.sim import SimConfig, simulate

BUILD = getattr(hupai, "__build__", "pure")  # "compiled" or "pure" (older hupai: pure)

RULESETS = ("nanjing", "nanning", "enshi")


def hupai_run(ruleset: str) -> Callable[[int, int], None]:
    def run(hands: int, seed: int) -> None:
        simulate(SimConfig(ruleset=ruleset, bots=("random",) * 4, hands=hands, seed=seed, check=False))

    return run


def riichienv_run() -> Callable[[int, int], None] | None:
    try:
        from riichienv import RiichiEnv
        from riichienv.agents import RandomAgent
    except ImportError:
        return None

    def run(hands: int, seed: int) -> None:
        agent = RandomAgent(seed=seed)
        for number in range(hands):
            env = RiichiEnv(seed=seed * 100_000 + number)  # one hand (kyoku), the default game mode
            observations = env.reset()
            while not env.done():
                observations = env.step({seat: agent.act(seen) for seat, seen in observations.items()})

    return run


def rlcard_run() -> Callable[[int, int], None] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None

    def run(games: int, seed: int) -> None:
        env = rlcard.make("mahjong", config={"seed": seed})
        env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])
        for _ in range(games):
            env.run(is_training=False)

    return run


def _version(package: str) -> str:
    try:
        return version(package)
    except PackageNotFoundError:
        return "(not installed)"


def measure(hands: int, rounds: int) -> dict[str, float]:
    """Best hands per second of each engine over ``rounds`` interleaved rounds."""
    engines: list[tuple[str, Callable[[int, int], None], int]] = []
    riichienv = riichienv_run()
    if riichienv is not None:
        engines.append(("riichienv", riichienv, hands))
    engines += [(f"hupai {ruleset}", hupai_run(ruleset), hands) for ruleset in RULESETS]
    rlcard = rlcard_run()
    if rlcard is not None:
        engines.append(("RLCard", rlcard, max(hands // 8, 2)))  # RLCard is far slower
    for _, run, _ in engines:
        run(4, 10_000)  # warm up: imports, tables, first allocations
    best = {name: 0.0 for name, _, _ in engines}
    for number in range(rounds):
        for name, run, count in engines:
            start = time.process_time()
            run(count, number)
            best[name] = max(best[name], count / (time.process_time() - start))
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="a few hands and one round (smoke test)")
    parser.add_argument("--hands", type=int, default=400, help="hands per engine per round (default 400)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; the best counts")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    arguments = parser.parse_args(argv)
    hands, rounds = (16, 1) if arguments.quick else (arguments.hands, arguments.rounds)
    best = measure(hands, rounds)
    reference = best.get("riichienv")
    if arguments.json:
        print(json.dumps({"build": BUILD, "hands_per_second": best}, indent=2))
        return 0
    others = ", ".join(f"{name} {_version(name)}" for name in ("riichienv", "rlcard"))
    print(
        f"self-play, random players, best of {rounds} interleaved rounds — hupai {BUILD} core, "
        f"Python {platform.python_version()}, {others}"
    )
    print(f"{'engine':<16} {'hands/s':>9} {'vs riichienv':>13}")
    for name, rate in best.items():
        ratio = f"{rate / reference:>12.2f}x" if reference else f"{'-':>13}"
        print(f"{name:<16} {rate:>9.1f} {ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
