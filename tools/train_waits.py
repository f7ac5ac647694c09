"""Train the wait reader (``src/hupai/bots/reading.py``) on self-play and write its weights.

    python tools/train_waits.py --hands 1600 --jobs 2 --seed 1        # all three rule sets
    python tools/train_waits.py --ruleset nanning --hands 200 --out /tmp/w.json   # a quick look

Needs the ``train`` extra (``pip install -e '.[train]'``: numpy and scikit-learn). Bots play matches
(strong and efficiency, two of each); at a sample of the turns where a seat must discard, the seat's
view gives the features of each opponent (``ready_features``, ``wait_features``) and the true hands
give the labels: is the opponent ready, and which kinds complete its hand. Matches whose number is a
multiple of five are held out. Two logistic regressions are fitted per rule set (scikit-learn's
``LogisticRegression``, L-BFGS: deterministic, seconds on a laptop, and its model is exactly the dot
product the bot computes in plain Python): whether an opponent is ready, on all opponents; which kinds
it waits on, on the ready ones. On the held-out matches the product of the two — the chance a kind wins
for an opponent now — is compared with the strong bot's hand-made danger estimate (its readiness
guess times its chance per tile), by log loss and AUC over every kind in play and over the kinds in the
viewer's hand. The same seed gives the same weights.

Other line-ups (``--lineup strong,efficiency,efficiency,efficiency``) and only one bot's turns sampled
(``--viewer strong``: it reads only its opponents, and the average win and deal-in are its own) train a
reader against the opponents a bot meets; ``--keep`` writes only the rule sets trained into an existing
file, and ``--compare FILE`` scores that file's reader on the same held-out matches in place of the
hand-made estimate:

    python tools/train_waits.py --ruleset nanning --hands 3200 --rate 1.0 --seed 1 --jobs 2 \
        --lineup strong,efficiency,efficiency,efficiency --viewer strong \
        --compare src/hupai/bots/waits_model.json --keep --out /tmp/w.json
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, roc_auc_score

from hupai.bots import make_bot
from hupai.bots.base import unseen_from
from hupai.bots.reading import (
    FORMAT,
    READY_FEATURES,
    WAIT_FEATURES,
    WIN_FEATURES,
    ready_features,
    wait_features,
    win_features,
)
from hupai.bots.strong import StrongBot
from hupai.game.actions import Discard
from hupai.game.engine import legal_actions, step
from hupai.game.match import Match
from hupai.game.model import HandState, Phase
from hupai.game.view import SeatView, view
from hupai.hand import shanten
from hupai.rules import load_ruleset
from hupai.sim import _seed, acting_seat
from true_waits import truth

RULESETS = ("nanjing", "nanning", "enshi")
LINEUP = ("strong", "efficiency", "strong", "efficiency")
HANDS_PER_MATCH = 8
HELD_OUT = 5  # matches whose number is a multiple of this are the test set
OUT = Path(__file__).resolve().parent.parent / "src" / "hupai" / "bots" / "waits_model.json"


@dataclass
class Samples:
    """Rows of one match (or many): per opponent read, its ready features and label; per kind, the
    wait features, whether the kind wins for it, the hand-made estimate and whether the viewer holds it."""

    ready_x: list[list[float]] = field(default_factory=list)
    ready_y: list[int] = field(default_factory=list)
    wait_x: list[list[float]] = field(default_factory=list)
    wait_y: list[int] = field(default_factory=list)
    ready_of_row: list[int] = field(default_factory=list)  # index into ready_x of each wait row
    handmade: list[float] = field(default_factory=list)
    held: list[int] = field(default_factory=list)
    # The viewer's own prospects at each sampled turn, and whether it went on to win the hand.
    win_x: list[list[float]] = field(default_factory=list)
    win_y: list[int] = field(default_factory=list)
    gains: list[int] = field(default_factory=list)  # each winner's gain in the hand
    costs: list[int] = field(default_factory=list)  # each deal-in's cost to the feeder

    def extend(self, other: Samples) -> None:
        offset = len(self.ready_x)
        self.ready_x += other.ready_x
        self.ready_y += other.ready_y
        self.wait_x += other.wait_x
        self.wait_y += other.wait_y
        self.ready_of_row += [index + offset for index in other.ready_of_row]
        self.handmade += other.handmade
        self.held += other.held
        self.win_x += other.win_x
        self.win_y += other.win_y
        self.gains += other.gains
        self.costs += other.costs


def handmade(bot: StrongBot, seen: SeatView, other: int, unseen: Sequence[int]) -> list[float]:
    """The strong bot's hand-made chance that each kind wins for ``other`` (before this model)."""
    threat = bot._threat(seen, other)
    own = set(seen.seats[other].discards)
    return [0.0 if kind in own else threat * bot._wait_chance(kind, unseen) for kind in range(34)]


ReadyFeatures = Callable[[SeatView, int], list[float]]
WaitFeatures = Callable[[SeatView, int], list[list[float]]]


@dataclass(frozen=True)
class Job:
    """One self-play match: its rule set, seed and number, the share of turns sampled, whether every
    kind of a not-ready opponent is kept (held-out matches), the four bots, whose turns are sampled
    (None: every seat's) and the features computed (module-level functions, so that a job pickles;
    ``tools/reading_headroom.py`` tries others)."""

    ruleset: str
    seed: int
    number: int
    rate: float
    every_kind: bool
    lineup: tuple[str, ...] = LINEUP
    viewer: str | None = None
    features: tuple[ReadyFeatures, WaitFeatures] = (ready_features, wait_features)


def play_match(job: Job) -> Samples:
    ruleset_name, seed, number, rate, every_kind = job.ruleset, job.seed, job.number, job.rate, job.every_kind
    ruleset = load_ruleset(ruleset_name)
    playable = set(ruleset.tile_set())
    match = Match(ruleset, seed=_seed(seed, ruleset_name, "match", number))
    lineup = job.lineup
    bots = [make_bot(lineup[seat], _seed(seed, ruleset_name, number, seat)) for seat in range(4)]
    sampled = {seat for seat in range(4) if job.viewer is None or lineup[seat] == job.viewer}
    reference = StrongBot()
    rng = random.Random(_seed(seed, ruleset_name, "sample", number))
    out = Samples()
    for _ in range(HANDS_PER_MATCH):
        state = match.start_hand()
        viewers: list[int] = []
        while state.phase is not Phase.ENDED:
            seat = acting_seat(state)
            legal = legal_actions(state, seat)
            seen = view(state, seat)
            if (
                state.phase is Phase.TURN
                and seat in sampled
                and any(isinstance(a, Discard) for a in legal)
                and rng.random() < rate
            ):
                _sample(out, state, seen, reference, playable, every_kind=every_kind, features=job.features)
                out.win_x.append(_prospects(state, seen))
                viewers.append(seat)
            step(state, bots[seat].choose(seen, legal))
        result = match.finish_hand(state)
        winners = set(result.winners)
        out.win_y += [int(seat in winners) for seat in viewers]
        for win in state.wins:
            if win.context.seat in sampled:
                out.gains.append(result.deltas[win.context.seat])
            discarder = win.context.discarder
            if discarder is not None and discarder in sampled and len(winners) == 1:
                out.costs.append(-result.deltas[discarder])
    return out


def _prospects(state: HandState, seen: SeatView) -> list[float]:
    assert seen.seat is not None
    counts = list(state.seats[seen.seat].counts)
    jokers = 0
    if state.laizi is not None:
        jokers, counts[state.laizi] = counts[state.laizi], 0
    melds = len(state.seats[seen.seat].melds)
    return win_features(shanten(counts, jokers=jokers), seen.live_tiles, melds, jokers)


def _sample(
    out: Samples,
    state: HandState,
    seen: SeatView,
    reference: StrongBot,
    playable: set[int],
    *,
    every_kind: bool,
    features: tuple[ReadyFeatures, WaitFeatures] = (ready_features, wait_features),
) -> None:
    assert seen.seat is not None
    ready_of, waits_of = features
    unseen = unseen_from(seen)
    held = set(seen.hand or ())
    for other in range(4):
        if other == seen.seat:
            continue
        winning = truth(state, other)
        out.ready_x.append(ready_of(seen, other))
        out.ready_y.append(int(bool(winning)))
        if not winning and not every_kind:
            continue
        index = len(out.ready_x) - 1
        estimate = handmade(reference, seen, other, unseen)
        for kind, row in enumerate(waits_of(seen, other)):
            if kind not in playable:
                continue
            out.wait_x.append(row)
            out.wait_y.append(int(kind in winning))
            out.ready_of_row.append(index)
            out.handmade.append(estimate[kind])
            out.held.append(int(kind in held))


def collect(
    ruleset: str,
    hands: int,
    seed: int,
    jobs: int,
    rate: float,
    *,
    lineup: tuple[str, ...] = LINEUP,
    viewer: str | None = None,
) -> tuple[Samples, Samples]:
    matches = max(HELD_OUT, hands // HANDS_PER_MATCH)
    train, test = Samples(), Samples()
    jobs_list = [
        Job(ruleset, seed, number, rate, number % HELD_OUT == 0, lineup, viewer) for number in range(matches)
    ]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = list(pool.map(play_match, jobs_list, chunksize=1))
    else:
        parts = [play_match(job) for job in jobs_list]
    for number, part in enumerate(parts):
        (test if number % HELD_OUT == 0 else train).extend(part)
    return train, test


def fit(
    x: Sequence[Sequence[float]], y: Sequence[int], names: Sequence[str]
) -> tuple[LogisticRegression, dict[str, Any]]:
    model = LogisticRegression(C=1.0, max_iter=5000, solver="lbfgs")
    model.fit(np.asarray(x, dtype=np.float64), np.asarray(y))
    weights = [round(float(w), 6) for w in model.coef_[0]]
    return model, {
        "features": list(names),
        "weights": weights,
        "intercept": round(float(model.intercept_[0]), 6),
    }


def _metrics(y: np.ndarray, p: np.ndarray) -> dict[str, float]:
    clipped = np.clip(p, 1e-4, 1 - 1e-4)
    return {
        "rows": len(y),
        "positives": float(y.mean()),
        "log_loss": float(log_loss(y, clipped, labels=[0, 1])),
        "auc": float(roc_auc_score(y, p)) if 0 < y.sum() < len(y) else float("nan"),
    }


def _shipped(model: dict[str, Any], x: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """A model from a weights file (``{"weights", "intercept"}``), applied to rows as the bot does."""
    z = np.asarray(x, dtype=np.float64) @ np.asarray(model["weights"]) + float(model["intercept"])
    out: np.ndarray = 1.0 / (1.0 + np.exp(-z))
    return out


def evaluate(
    ready: LogisticRegression,
    wait: LogisticRegression,
    test: Samples,
    other: dict[str, Any] | None = None,
) -> dict[str, Any]:
    ready_p = ready.predict_proba(np.asarray(test.ready_x))[:, 1]
    rows = np.asarray(test.wait_x)
    model_p = ready_p[np.asarray(test.ready_of_row)] * wait.predict_proba(rows)[:, 1]
    if other is not None:  # --compare: the given weights in place of the hand-made estimate
        other_ready = _shipped(other["ready"], test.ready_x)
        test = Samples(
            ready_y=test.ready_y,
            wait_y=test.wait_y,
            held=test.held,
            handmade=list(other_ready[np.asarray(test.ready_of_row)] * _shipped(other["wait"], rows)),
        )
    y = np.asarray(test.wait_y)
    made = np.asarray(test.handmade)
    held = np.asarray(test.held, dtype=bool)
    out = {
        "ready_auc": float(roc_auc_score(test.ready_y, ready_p)),
        "every_kind": {"model": _metrics(y, model_p), "handmade": _metrics(y, made)},
        "held_kinds": {"model": _metrics(y[held], model_p[held]), "handmade": _metrics(y[held], made[held])},
    }
    if other is not None:
        out["compared_ready_auc"] = float(roc_auc_score(test.ready_y, other_ready))
    return out


def train(
    ruleset: str,
    hands: int,
    seed: int,
    jobs: int,
    rate: float,
    *,
    lineup: tuple[str, ...] = LINEUP,
    viewer: str | None = None,
    compare: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    started = time.perf_counter()
    data, test = collect(ruleset, hands, seed, jobs, rate, lineup=lineup, viewer=viewer)
    played = time.perf_counter() - started
    ready, ready_json = fit(data.ready_x, data.ready_y, READY_FEATURES)
    ready_rows = [
        row for row, index in zip(data.wait_x, data.ready_of_row, strict=True) if data.ready_y[index]
    ]
    ready_labels = [y for y, index in zip(data.wait_y, data.ready_of_row, strict=True) if data.ready_y[index]]
    wait, wait_json = fit(ready_rows, ready_labels, WAIT_FEATURES)
    win, win_json = fit(data.win_x, data.win_y, WIN_FEATURES)
    win_p = win.predict_proba(np.asarray(test.win_x))[:, 1]
    gains, costs = data.gains + test.gains, data.costs + test.costs
    report = {
        "hands": max(HELD_OUT, hands // HANDS_PER_MATCH) * HANDS_PER_MATCH,
        "opponents_read": len(data.ready_x),
        "wait_rows": len(ready_rows),
        "self_play_seconds": round(played, 1),
        "fit_seconds": round(time.perf_counter() - started - played, 1),
        "held_out": evaluate(ready, wait, test, compare),
        "win_held_out": _metrics(np.asarray(test.win_y), win_p),
    }
    models = {
        "ready": ready_json,
        "wait": wait_json,
        "win": win_json,
        "win_gain": round(sum(gains) / max(len(gains), 1), 4),
        "deal_in_cost": round(sum(costs) / max(len(costs), 1), 4),
    }
    return models, report


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ruleset", action="append", choices=RULESETS, help="repeatable; default: all three")
    parser.add_argument("--hands", type=int, default=1600, help="self-play hands per rule set")
    parser.add_argument("--rate", type=float, default=0.25, help="share of discard turns sampled")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--lineup",
        default=",".join(LINEUP),
        help="the four self-play bots, comma-separated (default: %(default)s)",
    )
    parser.add_argument(
        "--viewer",
        help="sample only the turns of this bot (e.g. strong: it reads only its opponents, and the "
        "average win and deal-in are its own); default: every seat's",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        help="a weights file: on the held-out matches its reader stands in for the hand-made estimate "
        "(log loss and AUC of both, e.g. the shipped reader against one trained on another line-up)",
    )
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the other rule sets' models already in --out (write only the ones trained)",
    )
    args = parser.parse_args()
    lineup = tuple(name.strip() for name in args.lineup.split(","))
    if len(lineup) != 4:
        parser.error("--lineup needs four bots")
    import sklearn

    started = time.perf_counter()
    models, reports = {}, {}
    for ruleset in args.ruleset or RULESETS:
        compared = None
        if args.compare is not None:
            compared = json.loads(args.compare.read_text(encoding="utf-8"))["rulesets"][ruleset]
        models[ruleset], reports[ruleset] = train(
            ruleset,
            args.hands,
            args.seed,
            args.jobs,
            args.rate,
            lineup=lineup,
            viewer=args.viewer,
            compare=compared,
        )
        print(ruleset, json.dumps(reports[ruleset], indent=1), flush=True)
    command = f"python tools/train_waits.py --hands {args.hands} --rate {args.rate} --seed {args.seed}"
    if lineup != LINEUP:
        command += f" --lineup {','.join(lineup)}"
    if args.viewer:
        command += f" --viewer {args.viewer}"
    trained: dict[str, Any] = {
        "command": command,
        "library": f"scikit-learn {sklearn.__version__}",
        "seconds": round(time.perf_counter() - started, 1),
        "reports": reports,
    }
    if args.keep and args.out.exists():
        # Only the rule sets trained now change; the others keep their weights and their record.
        before = json.loads(args.out.read_text(encoding="utf-8"))
        models = {**before["rulesets"], **models}
        commands = before["trained"].get("commands") or dict.fromkeys(
            before["rulesets"], before["trained"]["command"]
        )
        trained["command"] = before["trained"]["command"]
        trained["commands"] = {**commands, **dict.fromkeys(reports, command)}
        trained["seconds"] = before["trained"]["seconds"]
        trained["reports"] = {**before["trained"]["reports"], **reports}
    document = {"format": FORMAT, "trained": trained, "rulesets": models}
    args.out.write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
