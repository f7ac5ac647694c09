"""How much better reading of opponents' waits would be worth, and how much of it a seat's view holds.

    python tools/reading_headroom.py play --hands 4000 --jobs 2 --sharpen 0 0.5 1 2 99 --exact-ready
    python tools/reading_headroom.py fit --hands 3200 --seed 11 --jobs 2

``play`` is a cheat, for measurement only: the strong bot plays three ``efficiency`` bots on duplicate
deals (as ``hupai simulate --duplicate``) with its wait reader *sharpened toward the truth* — every
chance the shipped reader gives has its odds multiplied by e^β when the tile really wins for that
opponent now and divided by e^β when it does not (β = 0 is the shipped bot, β = 99 knows every wait) —
or, with ``--exact-ready``, told exactly who is ready while the reader's own waits are kept. The bot's
decisions are the shipped ones in every other way, so the rows show what a better reader would be
worth in points. The true hands reach the bot through the self-play loop, which is only possible on
the pure-Python core: this tool sets ``HUPAI_PURE=1`` before hupai is imported.

``fit`` asks how much of that the view holds: on self-play of strong + 3 efficiency (only the strong
seat's turns sampled, every kind of every opponent kept; matches whose number is a multiple of five
held out) it scores the shipped reader, the shipped reader sharpened by β (which maps ``play``'s rows
onto AUC), logistic models refitted on the shipped features and on more features (tiles that passed
since the opponent's last discard from its hand, its run of 摸切, gaps to its last two discards from
hand, where it let the neighbours of a tile go), and gradient-boosted trees (scikit-learn's
``HistGradientBoostingClassifier``) on those. Log loss and AUC over every kind in play, and among
the ready opponents' kinds (all, and the ones in the viewer's hand). Needs the ``train`` extra.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __name__ == "__main__":
    os.environ["HUPAI_PURE"] = "1"  # play: the true hands reach the bot through the pure self-play loop

from hupai.bots import LEVELS, selfplay
from hupai.bots.reading import WaitReader, ready_features, wait_features
from hupai.bots.strong import StrongBot
from hupai.game.model import HandState
from hupai.game.view import PublicSeat, SeatView
from hupai.hand import shanten, waits
from hupai.sim import SimConfig, simulate

SEATS = 4
KINDS = 34


def true_waits(state: HandState, seat: int) -> set[int]:
    counts = list(state.seats[seat].counts)
    return set(waits(counts)) if shanten(counts) == 0 else set()


def sharpened(chance: float, wins: bool, beta: float) -> float:
    """``chance`` with its odds moved toward the truth by e^beta."""
    if beta == 0:
        return chance
    p = min(max(chance, 1e-9), 1.0 - 1e-9)
    z = math.log(p / (1.0 - p)) + (beta if wins else -beta)
    return 0.0 if z < -30.0 else 1.0 / (1.0 + math.exp(-z))


class SharpReader:
    """The shipped reader of a rule set, sharpened toward the true waits of the hand being played
    (or told who is ready)."""

    def __init__(self, reader: WaitReader, playing: list[HandState], beta: float, exact_ready: bool) -> None:
        self.reader = reader
        self.playing = playing
        self.beta = beta
        self.exact_ready = exact_ready
        self.win_gain = reader.win_gain
        self.deal_in_cost = reader.deal_in_cost

    def win_chance(self, shanten: int, live_tiles: int, melds: int, jokers: int = 0) -> float:
        return self.reader.win_chance(shanten, live_tiles, melds, jokers)

    def read(self, view: SeatView) -> dict[int, list[float]]:
        state = self.playing[0]
        if self.exact_ready:
            out = {}
            for other in range(SEATS):
                if other != view.seat:
                    ready = bool(true_waits(state, other))
                    rows = wait_features(view, other)
                    out[other] = [self.reader.wait(row) if ready else 0.0 for row in rows]
            return out
        read = self.reader.read(view)
        for other, chances in read.items():
            winning = true_waits(state, other)
            read[other] = [sharpened(p, kind in winning, self.beta) for kind, p in enumerate(chances)]
        return read


def _seat_sharp_bot(beta: float, exact_ready: bool) -> None:
    """Register ``sharp``: the strong bot with a sharpened reader, which sees the hand the self-play
    loop is deciding in (a cheat, for measurement; pure-Python core only)."""
    playing: list[HandState] = []
    # The loop's own function, not the wrapper of an earlier setting.
    looking: Callable[..., SeatView] = inspect.unwrap(selfplay.view)  # type: ignore[attr-defined]

    @functools.wraps(looking)
    def recording_view(state: HandState, seat: int | None, **kwargs: Any) -> SeatView:
        playing[:] = [state]
        return looking(state, seat, **kwargs)

    class SharpBot(StrongBot):
        def _reader(self, view: SeatView) -> Any:
            reader = super()._reader(view)
            return None if reader is None else SharpReader(reader, playing, beta, exact_ready)

    selfplay.view = recording_view  # type: ignore[attr-defined]
    LEVELS["sharp"] = SharpBot


def play(args: argparse.Namespace) -> None:
    import hupai

    if hupai.__build__ != "pure":
        sys.exit("play needs the pure-Python core: run this file directly (it sets HUPAI_PURE=1)")
    settings = [(beta, False) for beta in args.sharpen] + ([(0.0, True)] if args.exact_ready else [])
    print(f"{args.ruleset}, {args.hands} duplicate hands, seed {args.seed}: strong + 3 efficiency")
    print("| reader | strong per hand (95% over deals) | win | self-drawn | deal-in | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    for beta, exact in settings:
        _seat_sharp_bot(beta, exact)  # the workers fork with it
        started = time.perf_counter()
        config = SimConfig(
            ruleset=args.ruleset,
            bots=("sharp", "efficiency", "efficiency", "efficiency"),
            hands=args.hands,
            seed=args.seed,
            check=False,
            duplicate="rotations",
        )
        stats = simulate(config, jobs=args.jobs).bots["sharp"]
        name = "exact readiness, the reader's waits" if exact else f"sharpened by β = {beta:g}"
        print(
            f"| {name} | {stats.mean:+.3f} ± {stats.paired_interval:.3f} | {stats.rate(stats.wins):.1%} "
            f"| {stats.rate(stats.self_drawn):.1%} | {stats.rate(stats.deal_ins):.1%} "
            f"| {time.perf_counter() - started:.0f} |",
            flush=True,
        )


# --- more features: what else the view says about an opponent's waits ------------------------------


def _from_hand(public: PublicSeat) -> list[tuple[int, int]]:
    """(order, kind) of the opponent's discards from its hand (手切), oldest first."""
    orders = public.order or tuple(range(len(public.discards)))
    return [
        (order, kind)
        for order, kind, drawn in zip(orders, public.discards, public.from_draw, strict=False)
        if not drawn
    ]


def _run_of_drawn(public: PublicSeat) -> int:
    run = 0
    for drawn in reversed(public.from_draw):
        if not drawn:
            break
        run += 1
    return run


def more_ready_features(view: SeatView, other: int) -> list[float]:
    """The shipped ready features, and the opponent's run of 摸切 at the end of its discards."""
    run = _run_of_drawn(view.seats[other])
    return [
        *ready_features(view, other),
        min(run, 10) / 10,
        *(float(run == n) for n in (0, 1, 2)),
        float(run >= 3),
    ]


def _gap(kind: int, reference: int | None) -> list[float]:
    """One-hot: the same kind, or 1, 2, 3 apart in the same number suit."""
    out = [0.0] * 4
    if reference is not None and kind < 27 and reference < 27 and reference // 9 == kind // 9:
        gap = abs(reference % 9 - kind % 9)
        if gap <= 3:
            out[gap] = 1.0
    return out


def more_wait_features(view: SeatView, other: int) -> list[list[float]]:
    """The shipped wait features, then: the kind passed (anyone let it go) since the opponent's last
    discard from its hand — a ready hand unchanged since would have won on it — alone and with a run of
    two 摸切; gaps to its last two discards from its hand; for each neighbour 2 or 1 below or above,
    whether, when (share of its discards) and whether from its hand it first let that kind go; and
    whether its last discard from its hand was an honour."""
    public = view.seats[other]
    from_hand = _from_hand(public)
    since = from_hand[-1][0] if from_hand else -1
    passed = set()
    for seat in view.seats:
        for order, kind in zip(seat.order or range(len(seat.discards)), seat.discards, strict=False):
            if order > since:
                passed.add(kind)
    run = _run_of_drawn(public)
    last = from_hand[-1][1] if from_hand else None
    before = from_hand[-2][1] if len(from_hand) > 1 else None
    first: dict[int, tuple[int, bool]] = {}
    for index, (kind, drawn) in enumerate(zip(public.discards, public.from_draw, strict=False)):
        first.setdefault(kind, (index, drawn))
    total = max(len(public.discards), 1)
    rows = wait_features(view, other)
    for kind, row in enumerate(rows):
        row.extend((float(kind in passed), float(kind in passed and run >= 2)))
        row.extend(_gap(kind, last) + _gap(kind, before))
        for step in (-2, -1, 1, 2):
            near = kind + step
            if kind >= 27 or not 0 <= kind % 9 + step <= 8 or near not in first:
                row.extend((0.0, 0.0, 0.0))
            else:
                index, drawn = first[near]
                row.extend((1.0, index / total, float(not drawn)))
        row.append(float(last is not None and last >= 27))
    return rows


def fit(args: argparse.Namespace) -> None:
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss, roc_auc_score

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import train_waits
    from hupai.bots.reading import load_reader

    started = time.perf_counter()
    lineup = ("strong", "efficiency", "efficiency", "efficiency")
    feature_sets = {
        "shipped": (ready_features, wait_features),
        "more": (more_ready_features, more_wait_features),
    }
    data = {}
    for name, features in feature_sets.items():
        jobs = [
            train_waits.Job(args.ruleset, args.seed, n, args.rate, True, lineup, "strong", features)
            for n in range(max(train_waits.HELD_OUT, args.hands // train_waits.HANDS_PER_MATCH))
        ]
        data[name] = _arrays(jobs, args.jobs)
    print(f"self-play and features: {time.perf_counter() - started:.0f} s", flush=True)
    reader = load_reader(args.ruleset)
    assert reader is not None, f"no shipped reader for {args.ruleset}"

    def report(name: str, split: dict[str, Any], ready_p: Any, wait_p: Any) -> None:
        """A row: the chance each kind wins now (ready × wait) over every kind in play; readiness
        per opponent read (None: not separate); the wait part among the ready opponents."""
        y, held, ready = split["y"], split["held"], split["ready"] == 1
        every = np.clip(wait_p if ready_p is None else ready_p * wait_p, 1e-6, 1 - 1e-6)
        among = np.clip(wait_p[ready], 1e-6, 1 - 1e-6)
        ready_held = held[ready] == 1
        ready_auc = (
            "—" if ready_p is None else f"{roc_auc_score(split['ready'][::KINDS], ready_p[::KINDS]):.4f}"
        )
        held_auc = roc_auc_score(y[ready][ready_held], among[ready_held])
        print(
            f"| {name} | {log_loss(y, every):.5f} | {roc_auc_score(y, every):.4f} | {ready_auc} "
            f"| {roc_auc_score(y[ready], among):.4f} | {held_auc:.4f} |",
            flush=True,
        )

    print("| reader | log loss | AUC | ready AUC | AUC among the ready | … kinds held |")
    print("|---|---:|---:|---:|---:|---:|")
    test = data["shipped"]["test"]
    rows = test["X"]
    ready_n = data["shipped"]["ready_width"]
    shipped_ready = np.array([reader.ready(row[:ready_n]) for row in rows[::KINDS]]).repeat(KINDS)
    shipped_wait = np.array([reader.wait(row[ready_n:]) for row in rows])
    report("shipped", test, shipped_ready, shipped_wait)
    for beta in args.sharpen:
        truth = test["y"] == 1
        sharp = np.array(
            [sharpened(r * w, t, beta) for r, w, t in zip(shipped_ready, shipped_wait, truth, strict=True)]
        )
        # Sharpened as a whole: the chance a kind wins now (readiness is inside it).
        report(f"shipped, sharpened by β = {beta:g}", test, None, sharp)
    for name, split in data.items():
        ready_n = split["ready_width"]
        train, held_out = split["train"], split["test"]
        x, y, ready = train["X"], train["y"], train["ready"] == 1
        ready_model = LogisticRegression(max_iter=5000).fit(x[::KINDS, :ready_n], train["ready"][::KINDS])
        wait_model = LogisticRegression(max_iter=5000).fit(x[ready][:, ready_n:], y[ready])
        tx = held_out["X"]
        ready_p = ready_model.predict_proba(tx[::KINDS, :ready_n])[:, 1].repeat(KINDS)
        report(
            f"logistic, {name} features", held_out, ready_p, wait_model.predict_proba(tx[:, ready_n:])[:, 1]
        )
        trees = {"max_iter": 200, "max_leaf_nodes": 31, "random_state": args.seed, "early_stopping": False}
        ready_trees = HistGradientBoostingClassifier(**trees).fit(
            x[::KINDS, :ready_n], train["ready"][::KINDS]
        )
        wait_trees = HistGradientBoostingClassifier(**trees).fit(x[ready][:, ready_n:], y[ready])
        report(
            f"trees, {name} features",
            held_out,
            ready_trees.predict_proba(tx[::KINDS, :ready_n])[:, 1].repeat(KINDS),
            wait_trees.predict_proba(tx[:, ready_n:])[:, 1],
        )
    print(f"in all {time.perf_counter() - started:.0f} s")


def _part(job: Any) -> dict[str, Any]:
    """One match's rows as arrays: each wait row beside its opponent's ready row (34 rows per read)."""
    import numpy as np

    import train_waits

    samples = train_waits.play_match(job)
    ready_x = np.asarray(samples.ready_x, dtype=np.float32)
    index = np.asarray(samples.ready_of_row)
    return {
        "X": np.hstack([ready_x[index], np.asarray(samples.wait_x, dtype=np.float32)]),
        "y": np.asarray(samples.wait_y, dtype=np.int8),
        "held": np.asarray(samples.held, dtype=np.int8),
        "ready": np.asarray(samples.ready_y, dtype=np.int8)[index],
        "ready_width": ready_x.shape[1],
    }


def _arrays(jobs: Sequence[Any], workers: int) -> dict[str, Any]:
    import numpy as np

    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_part, jobs, chunksize=4))
    else:
        parts = [_part(job) for job in jobs]
    out: dict[str, Any] = {"ready_width": parts[0]["ready_width"]}
    for name, keep in (("train", False), ("test", True)):
        chosen = [part for number, part in enumerate(parts) if (number % 5 == 0) == keep]
        out[name] = {
            key: np.concatenate([part[key] for part in chosen]) for key in ("X", "y", "held", "ready")
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=("play", "fit"))
    parser.add_argument("--ruleset", default="nanning")
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--sharpen", type=float, nargs="*", default=[0.0, 0.5, 1.0], help="the β to try")
    parser.add_argument("--exact-ready", action="store_true", help="play: also with exact readiness")
    parser.add_argument(
        "--rate", type=float, default=0.5, help="fit: share of the strong seat's turns sampled"
    )
    args = parser.parse_args()
    (play if args.what == "play" else fit)(args)


if __name__ == "__main__":
    main()
