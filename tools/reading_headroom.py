"""How much better reading of opponents' waits would be worth, and how much of it a seat's view holds.

    python tools/reading_headroom.py play --hands 4000 --jobs 2 --sharpen 0 0.5 1 2 99 --exact-ready
    python tools/reading_headroom.py fit --hands 3200 --seed 11 --jobs 2
    python tools/reading_headroom.py infer --hands 320 --seed 7 --jobs 2

``play`` is a cheat, for measurement only: the strong bot plays three ``efficiency`` bots on duplicate
deals (as ``hupai simulate --duplicate``) with its wait reader *sharpened toward the truth* — every
chance the shipped reader gives has its odds multiplied by e^β when the tile really wins for that
opponent now and divided by e^β when it does not (β = 0 is the shipped bot, β = 99 knows every wait) —
or, with ``--exact-ready``, told exactly who is ready while the reader's own waits are kept. The bot's
decisions are the shipped ones in every other way, so the rows show what a better reader would be
worth in points. The true hands reach the bot through the self-play loop, which is only possible on
the pure-Python core: ``play`` sets ``HUPAI_PURE=1`` before hupai is imported.

``fit`` asks how much of that the view holds: on self-play of strong + 3 efficiency (only the strong
seat's turns sampled, every kind of every opponent kept; matches whose number is a multiple of five
held out) it scores the shipped reader, the shipped reader sharpened by β (which maps ``play``'s rows
onto AUC), logistic models refitted on the shipped features and on more features (tiles that passed
since the opponent's last discard from its hand, its run of 摸切, gaps to its last two discards from
hand, where it let the neighbours of a tile go), and gradient-boosted trees (scikit-learn's
``HistGradientBoostingClassifier``) on those. Log loss and AUC over every kind in play, and among
the ready opponents' kinds (all, and the ones in the viewer's hand). Needs the ``train`` extra.

``infer`` tries the other road, reading the efficiency bot's discards as the deterministic choices
they are: for each ready opponent it draws random ready hands from the tiles the seat cannot see and
keeps those its play since its last discard from the hand allows — that discard was the efficiency
choice from the hand and it, every tile drawn and let go since was the choice too and none wins, and
no tile anyone let go since wins (it would have won) — and ranks each kind by the share of kept hands
it completes, against the shipped reader's wait model on the same reads (and an even blend).
"""

from __future__ import annotations

import argparse
import functools
import inspect
import math
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __name__ == "__main__" and sys.argv[1:2] == ["play"]:
    os.environ["HUPAI_PURE"] = "1"  # the true hands reach the bot through the pure self-play loop

from hupai.bots import LEVELS, selfplay
from hupai.bots.base import unseen_from
from hupai.bots.reading import WaitReader, load_reader, ready_features, wait_features
from hupai.bots.simple import best_discard
from hupai.bots.strong import StrongBot
from hupai.game.actions import Discard
from hupai.game.model import HandState
from hupai.game.view import PublicSeat, SeatView
from hupai.hand import waits
from hupai.sim import SimConfig, simulate
from true_waits import truth

SEATS = 4
KINDS = 34


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
        true_waits = truth  # the kinds that complete a seat's hand now
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
    return [
        placed
        for placed, drawn in zip(_discards_in_order(public), public.from_draw, strict=False)
        if not drawn
    ]


def _discards_in_order(public: PublicSeat) -> list[tuple[int, int]]:
    """(order among all the hand's discards, kind) of a seat's discards."""
    return list(zip(public.order or range(len(public.discards)), public.discards, strict=False))


def _let_go_after(view: SeatView, order: int) -> set[int]:
    """The kinds anyone let go after the discard of that ``order``."""
    return {kind for public in view.seats for at, kind in _discards_in_order(public) if at > order}


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
    passed = _let_go_after(view, from_hand[-1][0] if from_hand else -1)
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


# --- inferring the hand from the efficiency bot's choices ---------------------------------------------

CANDIDATES = [1000]  # random ready hands tried per read (``--candidates``; the workers fork with it)


def efficiency_choice(counts: list[int], unseen: Sequence[int]) -> int:
    """The kind the ``efficiency`` bot lets go from ``counts``."""
    discards = [Discard(seat=0, tile=kind) for kind in range(KINDS) if counts[kind]]
    return best_discard(counts, discards, unseen).tile


def random_ready_hand(pool: Sequence[int], size: int, rng: random.Random) -> list[int] | None:
    """Counts of a random hand of ``size`` tiles one from complete (a pair and sets, one tile taken
    away), drawn from the ``pool`` of tiles; None when the draw fails."""
    left = list(pool)
    pairs = [kind for kind in range(KINDS) if left[kind] >= 2]
    if not pairs:
        return None
    pair = rng.choice(pairs)
    left[pair] -= 2
    tiles = [pair, pair]
    for _ in range((size - 1) // 3):
        for _attempt in range(20):
            if rng.random() < 0.25:
                kind = rng.randrange(KINDS)
                if left[kind] >= 3:
                    left[kind] -= 3
                    tiles += [kind] * 3
                    break
            else:
                low = rng.randrange(27)
                if low % 9 <= 6 and left[low] and left[low + 1] and left[low + 2]:
                    for kind in (low, low + 1, low + 2):
                        left[kind] -= 1
                    tiles += [low, low + 1, low + 2]
                    break
        else:
            return None
    tiles.pop(rng.randrange(len(tiles)))
    counts = [0] * KINDS
    for kind in tiles:
        counts[kind] += 1
    return counts


def inferred_waits(
    view: SeatView, other: int, rng: random.Random, candidates: int
) -> tuple[list[float], int] | None:
    """Per kind, the share of the sampled ready hands of ``other`` that its play since its last
    discard from the hand allows and that the kind completes, and how many were kept (None: nothing
    to go on)."""
    public = view.seats[other]
    from_hand = _from_hand(public)
    if not from_hand:
        return None
    at, let_go = from_hand[-1]
    drawn_since = [kind for order, kind in _discards_in_order(public) if order > at]
    passed = _let_go_after(view, at)  # its own draws let go since among them
    seen_then = [0] * KINDS  # what the opponent could see when it chose: earlier discards, the melds
    for shown in view.seats:
        for order, kind in _discards_in_order(shown):
            if order < at:
                seen_then[kind] += 1
        for meld in shown.melds:
            for tile in meld.tiles():  # as they lie (a 赖子 standing in a chow is a 赖子)
                seen_then[tile] += 1
    pool = unseen_from(view)
    hits = [0] * KINDS
    kept = 0
    for _ in range(candidates):
        hand = random_ready_hand(pool, public.concealed_count, rng)
        if hand is None:
            continue
        winning = set(waits(hand))
        if not winning or winning & passed:
            continue
        unseen = [max(0, 4 - hand[kind] - seen_then[kind]) for kind in range(KINDS)]
        if all(_chose(hand, kind, unseen) for kind in (let_go, *drawn_since)):
            kept += 1
            for kind in winning:
                hits[kind] += 1
    return ([hit / kept for hit in hits], kept) if kept else None


def _chose(hand: list[int], drawn: int, unseen: Sequence[int]) -> bool:
    """Whether the efficiency bot, holding ``hand`` and ``drawn``, lets ``drawn`` go."""
    hand[drawn] += 1
    try:
        return efficiency_choice(hand, unseen) == drawn
    finally:
        hand[drawn] -= 1


def no_ready_features(view: SeatView, other: int) -> list[float]:
    return []


def reader_and_inferred(view: SeatView, other: int) -> list[list[float]]:
    """Per kind: the shipped reader's chance it is among the waits (if ready), the inferred one (the
    reader's where inference has nothing to go on), and the share of the hands drawn that were kept."""
    reader = load_reader(view.ruleset)
    assert reader is not None
    model = [reader.wait(row) for row in wait_features(view, other)]
    public = view.seats[other]
    rng = random.Random(hash((other, view.live_tiles, *public.discards)))
    inferred, kept = inferred_waits(view, other, rng, CANDIDATES[0]) or (model, 0)
    share = kept / CANDIDATES[0]
    return [[chance, guess, share] for chance, guess in zip(model, inferred, strict=True)]


def infer(args: argparse.Namespace) -> None:
    import numpy as np
    from sklearn.metrics import roc_auc_score

    train_waits = _train_waits()
    CANDIDATES[0] = args.candidates
    started = time.perf_counter()
    lineup = ("strong", "efficiency", "efficiency", "efficiency")
    features = (no_ready_features, reader_and_inferred)
    jobs = [
        train_waits.Job(args.ruleset, args.seed, n, args.rate, False, lineup, "strong", features)
        for n in range(max(1, args.hands // train_waits.HANDS_PER_MATCH))
    ]
    rows = _arrays(jobs, args.jobs, split=False)
    y, held = rows["y"] == 1, rows["held"] == 1
    seconds = time.perf_counter() - started
    reads = len(y) // KINDS
    kept = float(np.median(rows["X"][::KINDS, 2]))
    per_read = 1000 * seconds * args.jobs / reads
    print(f"{reads} reads of a ready opponent, {seconds:.0f} s (about {per_read:.0f} ms of CPU a read);")
    print(f"the median read kept {kept:.0%} of the hands drawn")
    print("| kinds | reader AUC | inferred AUC | blend AUC |")
    print("|---|---:|---:|---:|")
    for name, chosen in (("every kind", np.ones_like(y)), ("in the seat's hand", held)):
        model, guess = rows["X"][chosen, 0], rows["X"][chosen, 1]
        aucs = [roc_auc_score(y[chosen], p) for p in (model, guess, (model + guess) / 2)]
        print(f"| {name} | " + " | ".join(f"{auc:.4f}" for auc in aucs) + " |")


def fit(args: argparse.Namespace) -> None:
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss, roc_auc_score

    train_waits = _train_waits()
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
    shipped_ready = np.array([reader.ready(row[:ready_n].tolist()) for row in rows[::KINDS]]).repeat(KINDS)
    shipped_wait = np.array([reader.wait(row[ready_n:].tolist()) for row in rows])
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


def _train_waits() -> Any:
    """tools/train_waits.py, this file's neighbour: its self-play jobs collect the rows."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        import train_waits
    finally:
        sys.path.pop(0)
    return train_waits


def _part(job: Any) -> dict[str, Any]:
    """One match's rows as arrays: each wait row beside its opponent's ready row (34 rows per read)."""
    import numpy as np

    samples = _train_waits().play_match(job)
    ready_x = np.asarray(samples.ready_x, dtype=np.float32)
    index = np.asarray(samples.ready_of_row)
    return {
        "X": np.hstack([ready_x[index], np.asarray(samples.wait_x, dtype=np.float32)]),
        "y": np.asarray(samples.wait_y, dtype=np.int8),
        "held": np.asarray(samples.held, dtype=np.int8),
        "ready": np.asarray(samples.ready_y, dtype=np.int8)[index],
        "ready_width": ready_x.shape[1],
    }


def _arrays(jobs: Sequence[Any], workers: int, *, split: bool = True) -> dict[str, Any]:
    """Every job's rows as arrays: split into ``train`` and ``test`` (matches whose number is a
    multiple of five held out), or all together."""
    import numpy as np

    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_part, jobs, chunksize=4))
    else:
        parts = [_part(job) for job in jobs]
    keys = ("X", "y", "held", "ready")
    if not split:
        return {key: np.concatenate([part[key] for part in parts]) for key in keys}
    out: dict[str, Any] = {"ready_width": parts[0]["ready_width"]}
    for name, keep in (("train", False), ("test", True)):
        chosen = [part for number, part in enumerate(parts) if (number % 5 == 0) == keep]
        out[name] = {key: np.concatenate([part[key] for part in chosen]) for key in keys}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=("play", "fit", "infer"))
    parser.add_argument("--ruleset", default="nanning")
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--sharpen", type=float, nargs="*", default=[0.0, 0.5, 1.0], help="the β to try")
    parser.add_argument("--exact-ready", action="store_true", help="play: also with exact readiness")
    parser.add_argument(
        "--rate", type=float, default=0.5, help="fit: share of the strong seat's turns sampled"
    )
    parser.add_argument("--candidates", type=int, default=1000, help="infer: random ready hands per read")
    args = parser.parse_args()
    {"play": play, "fit": fit, "infer": infer}[args.what](args)


if __name__ == "__main__":
    main()
