"""Measure what a winning tile is worth to a ready hand, for the strong bot's wait model.

    python tools/measure_waits.py --ruleset nanning --hands 16000 --jobs 2 --seed 1

Four efficiency bots play. Every time a seat's discard leaves it ready, each of its winning tiles is
followed until the seat's next discard: did the seat win on that tile, on someone's discard or
self-drawn? Per winning tile and turn, the chance of each, valued at the average payment of a win on a
discard and of a self-draw in the same games, is fitted (least squares, weighted by how often each
case occurred) as

    worth ≈ a + b × unseen copies + bonus (honour; 1 or 9; 2 or 8)

and printed with the table it was fitted on. Divided by ``b`` it is the strong bot's ``WaitModel``:
``per_tile = a / b`` and the bonuses in copies (``src/hupai/bots/strong.py``).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from hupai.bots import EfficiencyBot
from hupai.bots.base import unseen_from
from hupai.game.actions import Discard
from hupai.game.engine import legal_actions, step
from hupai.game.match import Match
from hupai.game.model import Phase
from hupai.game.view import view
from hupai.hand import shanten, waits
from hupai.rules import load_ruleset
from hupai.sim import acting_seat

HANDS_PER_MATCH = 8
CLASSES = ("honour", "19", "28", "37", "456")
Following = dict[int, list[tuple[int, int]]]  # ready seat -> its winning tiles (kind, unseen copies)


def tile_class(kind: int) -> str:
    if kind >= 27:
        return "honour"
    rank = kind % 9
    return "19" if rank in (0, 8) else "28" if rank in (1, 7) else "37" if rank in (2, 6) else "456"


def close(
    following: Following, tally: Counter[tuple[str, ...]], seat: int, won_on: int | None = None, how: str = ""
) -> None:
    """End the turn ``seat``'s waits were followed for: count it for each, and the win on one of them."""
    for kind, copies in following.pop(seat, []):
        case = (tile_class(kind), str(copies))
        tally[("turns", *case)] += 1
        if kind == won_on:
            tally[(how, *case)] += 1


def play_match(job: tuple[str, int, int]) -> Counter[tuple[str, ...]]:
    """Counts for one match: ("turns", class, copies), ("ron"/"tsumo", class, copies), and the
    payments ("paid", "ron"/"tsumo") with their numbers ("wins", …)."""
    ruleset_name, seed, number = job
    match = Match(load_ruleset(ruleset_name), seed=seed * 1_000_003 + number)
    bots = [EfficiencyBot(number * 4 + seat) for seat in range(4)]
    tally: Counter[tuple[str, ...]] = Counter()
    for _ in range(HANDS_PER_MATCH):
        state = match.start_hand()
        following: Following = {}
        while state.phase is not Phase.ENDED:
            seat = acting_seat(state)
            action = bots[seat].choose(view(state, seat), legal_actions(state, seat))
            if isinstance(action, Discard):
                close(following, tally, seat)
            step(state, action)
            if isinstance(action, Discard) and not state.outcome:  # the hand goes on
                counts = list(state.seats[seat].counts)
                if shanten(counts) == 0:
                    unseen = unseen_from(view(state, seat))
                    following[seat] = [(kind, unseen[kind]) for kind in waits(counts) if unseen[kind]]
        for win in state.wins:
            how = "tsumo" if win.context.discarder is None else "ron"
            close(following, tally, win.context.seat, win.context.tile, how)
            tally[("paid", how)] += sum(t.amount for t in win.transfers if t.payee == win.context.seat)
            tally[("wins", how)] += 1
        for seat in list(following):
            close(following, tally, seat)
        match.finish_hand(state)
    return tally


def least_squares(
    rows: Sequence[Sequence[float]], targets: Sequence[float], weights: Sequence[float]
) -> list[float]:
    """Weighted least squares by the normal equations (a handful of columns; no library needed)."""
    size = len(rows[0])
    matrix = [[0.0] * (size + 1) for _ in range(size)]
    for row, target, weight in zip(rows, targets, weights, strict=True):
        for i in range(size):
            for j in range(size):
                matrix[i][j] += weight * row[i] * row[j]
            matrix[i][size] += weight * row[i] * target
    for col in range(size):  # Gauss-Jordan with partial pivoting
        pivot = max(range(col, size), key=lambda r: abs(matrix[r][col]))
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        for r in range(size):
            if r != col:
                factor = matrix[r][col] / matrix[col][col]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col], strict=True)]
    return [matrix[i][size] / matrix[i][i] for i in range(size)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="nanning")
    parser.add_argument("--hands", type=int, default=16000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    jobs = [(args.ruleset, args.seed, number) for number in range(args.hands // HANDS_PER_MATCH)]
    tally: Counter[tuple[str, ...]] = Counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for part in pool.map(play_match, jobs, chunksize=8):
            tally.update(part)
    ron_pay = tally[("paid", "ron")] / max(tally[("wins", "ron")], 1)
    tsumo_pay = tally[("paid", "tsumo")] / max(tally[("wins", "tsumo")], 1)
    print(
        f"{args.ruleset}, {args.hands} hands, seed {args.seed}: "
        f"a win on a discard pays {ron_pay:.2f}, a self-draw {tsumo_pay:.2f}"
    )
    print(f"{'class':8} {'copies':>6} {'turns':>7} {'ron':>7} {'tsumo':>7} {'worth':>7}")
    rows: list[list[float]] = []
    targets: list[float] = []
    weights: list[float] = []
    for name in CLASSES:
        for copies in range(1, 5):
            case = (name, str(copies))
            turns = tally[("turns", *case)]
            if not turns:
                continue
            ron, tsumo = tally[("ron", *case)] / turns, tally[("tsumo", *case)] / turns
            worth = ron * ron_pay + tsumo * tsumo_pay
            print(f"{name:8} {copies:>6} {turns:>7} {ron:>7.4f} {tsumo:>7.4f} {worth:>7.3f}")
            rows.append([1.0, float(copies), name == "honour", name == "19", name == "28"])
            targets.append(worth)
            weights.append(float(turns))
    a, b, honour, terminal, near = least_squares(rows, targets, weights)
    print(f"worth ≈ {a:.4f} + {b:.4f} × copies (+{honour:.4f} honour, +{terminal:.4f} 1/9, +{near:.4f} 2/8)")
    print(
        f"WaitModel(per_tile={a / b:.2f}, honour={honour / b:.2f}, terminal={terminal / b:.2f}, "
        f"near_terminal={near / b:.2f}, scale=…)"
    )


if __name__ == "__main__":
    main()
