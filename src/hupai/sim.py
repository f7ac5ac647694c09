"""Self-play: bots play matches on the engine, every step checked, and the results counted.

On duplicate deals (``SimConfig(duplicate="rotations")``) every deal is played once per seating of
the bots, so the luck of the tiles cancels, and each bot's interval is computed over deals.

Pure Python (no third-party package); ``hupai simulate`` adds the progress bar, processes and tables.

>>> result = simulate(SimConfig(ruleset="nanjing", bots=("random",) * 4, hands=8, seed=1))
>>> result.hands, sum(stats.hands for stats in result.bots.values())
(8, 32)
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hupai.bots import Bot, make_bot
from hupai.bots.selfplay import acting_seat, play
from hupai.game.engine import shuffled_deal
from hupai.game.fairness import hand_secret
from hupai.game.match import Match
from hupai.game.model import SEATS, HandState
from hupai.game.record import record_from_match, write_record
from hupai.rules import load_ruleset

__all__ = [
    "DUPLICATE",
    "OUTCOMES",
    "BotStats",
    "InvariantError",
    "SimConfig",
    "SimResult",
    "acting_seat",
    "play_hand",
    "seatings",
    "simulate",
    "simulate_deals",
    "simulate_matches",
    "simulate_units",
]


class InvariantError(AssertionError):
    """An engine invariant broke during self-play (tiles not conserved, money not adding up, …)."""


@dataclass(frozen=True)
class SimConfig:
    ruleset: str = "nanjing"
    options: Mapping[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = ("strong", "efficiency", "efficiency", "efficiency")
    hands: int = 100
    seed: int = 0
    match_hands: int = 8  # hands per match (dealer rotation, 比下胡 carry over within a match)
    rotate: bool = True  # seat every bot in every seat in turn, so that seats do not bias the result
    check: bool = True  # check the invariants after every step
    records: str | None = None  # a folder to write each match's record into
    # Deal as a server room does (hupai-fair/2, from a secret derived from the seed), so that each
    # record's hands can be checked with ``hupai verify``; off: from the match's seed (faster).
    fair: bool = False
    # Duplicate deals: None (matches, as above), "rotations" (every deal once per rotation of the
    # line-up round the table: 4 hands) or "all" (once per order of the four bots: 24 hands).
    duplicate: str | None = None

    @property
    def matches(self) -> int:
        return math.ceil(self.hands / self.match_hands)

    @property
    def deals(self) -> int:
        """Deals played in duplicate mode: ``hands`` rounded up to whole deals."""
        return math.ceil(self.hands / len(seatings(self.duplicate or "rotations")))

    @property
    def units(self) -> int:
        """The pieces of work (matches, or deals in duplicate mode) that can be played apart."""
        return self.deals if self.duplicate else self.matches


DUPLICATE = ("rotations", "all")


def seatings(mode: str) -> list[tuple[int, ...]]:
    """For each playing of a deal, which line-up entry sits in each seat: the four rotations, or
    all 24 orders."""
    if mode == "rotations":
        return [tuple((seat + shift) % SEATS for seat in range(SEATS)) for shift in range(SEATS)]
    if mode == "all":
        return list(itertools.permutations(range(SEATS)))
    raise ValueError(f"unknown duplicate mode {mode!r} (one of {', '.join(DUPLICATE)})")


# What happened to a seat in a hand, for the breakdown of its points (every hand has exactly one).
OUTCOMES: dict[str, tuple[str, str]] = {
    "self_drawn": ("自摸", "won self-drawn"),
    "won_on_discard": ("点炮胡", "won on a discard"),
    "dealt_in": ("放炮", "dealt in"),
    "other_self_drawn": ("别家自摸", "another self-drew"),
    "other_won": ("别家胡", "another won on a discard"),
    "draw": ("荒庄", "no winner"),
}


@dataclass
class BotStats:
    """What one bot (by its name in the line-up) did, over all the hands it played."""

    hands: int = 0
    total: int = 0
    squares: int = 0
    errors: int = 0  # illegal answers (an external bot): the seat was auto-played instead
    # Duplicate deals: per deal, the sum of this bot's results over its seatings (``per_deal`` of
    # them), summed and squared over the deals — integers, so the sums do not depend on the order.
    deals: int = 0
    per_deal: int = 0
    deal_total: int = 0
    deal_squares: int = 0
    # Hands and points by what happened to the seat (OUTCOMES): where a bot wins or loses its points.
    # A hand's whole result goes under its outcome, kong money included.
    outcome_hands: Counter[str] = field(default_factory=Counter)
    outcome_points: Counter[str] = field(default_factory=Counter)

    def add(self, other: BotStats) -> None:
        for name in ("hands", "total", "squares", "errors", "deals", "deal_total", "deal_squares"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.per_deal = self.per_deal or other.per_deal
        self.outcome_hands.update(other.outcome_hands)
        self.outcome_points.update(other.outcome_points)

    def by_outcome(self) -> dict[str, dict[str, float]]:
        """Per outcome: how often it happened and what it added to the mean score per hand (these
        add up to :attr:`mean`)."""
        return {
            outcome: {
                "rate": self.rate(self.outcome_hands[outcome]),
                "per_hand": self.outcome_points[outcome] / self.hands if self.hands else 0.0,
            }
            for outcome in OUTCOMES
        }

    @property
    def wins(self) -> int:
        return self.outcome_hands["self_drawn"] + self.outcome_hands["won_on_discard"]

    @property
    def self_drawn(self) -> int:
        return self.outcome_hands["self_drawn"]

    @property
    def deal_ins(self) -> int:
        return self.outcome_hands["dealt_in"]

    @property
    def mean(self) -> float:
        return self.total / self.hands if self.hands else 0.0

    @property
    def interval(self) -> float:
        """Half the width of the 95% confidence interval of the mean score per hand."""
        if self.hands < 2:
            return math.inf
        variance = (self.squares - self.total * self.total / self.hands) / (self.hands - 1)
        return 1.96 * math.sqrt(max(variance, 0.0) / self.hands)

    @property
    def paired_interval(self) -> float:
        """Duplicate deals: half the width of the 95% interval of the mean per hand, over deals (each
        deal's mean over the bot's seatings is one observation, so the luck of the tiles cancels)."""
        if self.deals < 2 or not self.per_deal:
            return math.inf
        variance = (self.deal_squares - self.deal_total * self.deal_total / self.deals) / (self.deals - 1)
        return 1.96 * math.sqrt(max(variance, 0.0) / self.deals) / self.per_deal

    def rate(self, count: int) -> float:
        return count / self.hands if self.hands else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "win_rate": self.rate(self.wins),
            "self_drawn_rate": self.rate(self.self_drawn),
            "deal_in_rate": self.rate(self.deal_ins),
            "mean": self.mean,
            "ci95": self.interval,
            "errors": self.errors,
            "by_outcome": self.by_outcome(),
            **({"deals": self.deals, "paired_ci95": self.paired_interval} if self.deals else {}),
        }


@dataclass
class SimResult:
    hands: int = 0
    deals: int = 0  # duplicate mode: deals played (each by every seating)
    draws: int = 0
    steps: int = 0
    bots: dict[str, BotStats] = field(default_factory=dict)
    items: Counter[str] = field(default_factory=Counter)  # wins containing each scoring item

    def add(self, other: SimResult) -> None:
        self.hands += other.hands
        self.deals += other.deals
        self.draws += other.draws
        self.steps += other.steps
        self.items.update(other.items)
        for name, stats in other.bots.items():
            self.bots.setdefault(name, BotStats()).add(stats)

    def as_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            **({"deals": self.deals} if self.deals else {}),
            "draws": self.draws,
            "draw_rate": self.draws / self.hands if self.hands else 0.0,
            "bots": {name: stats.as_dict() for name, stats in self.bots.items()},
            "items": dict(self.items.most_common()),
        }


def _seed(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:8], "big")


def lineup(config: SimConfig) -> list[str]:
    """Unique labels for the line-up: repeated levels share one label (their results are pooled)."""
    return list(config.bots)


def play_hand(state: HandState, players: Sequence[Bot], *, check: bool = True) -> tuple[int, list[int]]:
    """Play a dealt hand to its end; returns the steps taken and, per seat, illegal answers replaced."""
    if not check:
        return play(state, players)
    full_set = Counter(state.ruleset.tile_set())
    return play(state, players, after_step=lambda after: _check(after, full_set))


def _check(state: HandState, full_set: Counter[int]) -> None:
    found: Counter[int] = Counter()
    for player in state.seats:
        found.update({kind: count for kind, count in enumerate(player.counts) if count})
        for meld in player.melds:
            found.update(meld.tiles())  # as they lie: a 赖子 in a chow counts as the 赖子
        found.update(player.flowers)
        found.update(player.laid)
        found.update(
            t for t, claimed in zip(player.discards, player.discard_claimed, strict=True) if not claimed
        )
    found.update(state.wall[state.front : state.back + 1])
    if state.pizi is not None:
        found[state.pizi] += 1  # turned up after the deal, out of play
    found.update(
        state.wall[len(state.wall) - state.ruleset.set_aside_tiles :] if state.ruleset.set_aside_tiles else ()
    )
    if found != full_set:
        raise InvariantError(f"tiles not conserved after {len(state.actions)} actions")
    if sum(state.deltas()) != 0:
        raise InvariantError("payments do not add up to zero")
    if any(transfer.payer == transfer.payee for transfer in state.transfers):
        raise InvariantError("a player was charged a payment to itself")


def simulate_matches(config: SimConfig, matches: Iterable[int]) -> SimResult:
    """Play the given match numbers of ``config`` (so that work can be split between processes)."""
    ruleset = load_ruleset(config.ruleset, config.options)
    labels = lineup(config)
    result = SimResult(bots={label: BotStats() for label in labels})
    for number in matches:
        shift = number % SEATS if config.rotate else 0
        seat_labels = [labels[(seat + shift) % SEATS] for seat in range(SEATS)]
        players = [
            make_bot(label, _seed(config.seed, number, seat)) for seat, label in enumerate(seat_labels)
        ]
        match = Match(ruleset, seed=_seed(config.seed, "match", number), seats=tuple(seat_labels))
        states = []
        first = number * config.match_hands
        for index in range(max(0, min(config.match_hands, config.hands - first))):
            state = match.start_hand(**_fair_deal(config, number, index))
            steps, errors = play_hand(state, players, check=config.check)
            states.append(state)
            hand = match.finish_hand(state)
            _count(result, state=state, deltas=hand.deltas, labels=seat_labels, steps=steps, errors=errors)
        if config.records and states:
            room = _fair_room(number) if config.fair else None
            _write_record(config.records, f"match-{number:05d}.json", match, states, room=room)
        _close(players)
    return result


def _fair_deal(config: SimConfig, number: int, index: int) -> dict[str, Any]:
    """How hand ``index`` of match ``number`` is dealt: as a room deals (``config.fair``), its secret
    derived from the seed, or from the match's seed."""
    if not config.fair:
        return {}
    room_secret = hashlib.sha256(f"hupai sim {config.seed} match {number}".encode()).hexdigest()
    return {
        "fair_secret": hand_secret(room_secret, index),
        "fair_room": _fair_room(number),
        "fair_hand": index,
    }


def _fair_room(number: int) -> str:
    """The room a fairly dealt match ``number`` is dealt for (its record names it: docs/fairness.md)."""
    return f"{number:06d}"


def _write_record(
    folder: str, name: str, match: Match, states: Sequence[HandState], *, room: str | None = None
) -> None:
    import json

    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    record = write_record(record_from_match(match, states))
    if room is not None:
        record["room"] = room  # what ties each fairly dealt hand to this record (docs/fairness.md)
    (path / name).write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")


def _close(players: Sequence[Bot]) -> None:
    for player in players:
        close = getattr(player, "close", None)
        if callable(close):
            close()


def _count(
    result: SimResult,
    *,
    state: HandState,
    deltas: Sequence[int],
    labels: Sequence[str],
    steps: int,
    errors: Sequence[int],
) -> None:
    result.hands += 1
    result.steps += steps
    result.draws += state.outcome == "draw"
    for win in state.wins:
        result.items.update({item.key for item in win.sheet.items})
    for seat, label in enumerate(labels):
        stats = result.bots[label]
        stats.hands += 1
        stats.total += deltas[seat]
        stats.squares += deltas[seat] * deltas[seat]
        stats.errors += errors[seat]
        outcome = _outcome(state, seat)
        stats.outcome_hands[outcome] += 1
        stats.outcome_points[outcome] += deltas[seat]


def _outcome(state: HandState, seat: int) -> str:
    """What happened to ``seat`` in a finished hand (a key of OUTCOMES)."""
    if not state.wins:
        return "draw"
    own = next((win for win in state.wins if win.context.seat == seat), None)
    if own is not None:
        return "self_drawn" if own.context.discarder is None else "won_on_discard"
    if any(win.context.discarder == seat for win in state.wins):
        return "dealt_in"
    return "other_self_drawn" if state.wins[0].context.discarder is None else "other_won"


def simulate_deals(config: SimConfig, deals: Iterable[int]) -> SimResult:
    """Duplicate mode: play the given deal numbers of ``config``, each once per seating.

    A deal is one hand's tiles (deal and wall, from the seed and the deal's number) with its dealer
    seat (the deal's number modulo four); each playing is a hand of its own (no 连庄 or 比下胡 carried
    over), so every seating meets exactly the same tiles."""
    ruleset = load_ruleset(config.ruleset, config.options)
    labels = lineup(config)
    orders = seatings(config.duplicate or "rotations")
    result = SimResult(bots={label: BotStats() for label in labels})
    appearances = Counter(labels)
    for number in deals:
        dealer = number % SEATS
        deal, wall = shuffled_deal(ruleset, dealer, _seed(config.seed, "deal", number))
        sums: Counter[str] = Counter()
        for index, order in enumerate(orders):
            seat_labels = [labels[order[seat]] for seat in range(SEATS)]
            players = [
                make_bot(label, _seed(config.seed, "deal", number, index, seat))
                for seat, label in enumerate(seat_labels)
            ]
            match = Match(ruleset, seed=_seed(config.seed, "deal", number), seats=tuple(seat_labels))
            match.dealer = dealer
            state = match.start_hand(deal=[list(tiles) for tiles in deal], wall=list(wall))
            steps, errors = play_hand(state, players, check=config.check)
            hand = match.finish_hand(state)
            _count(result, state=state, deltas=hand.deltas, labels=seat_labels, steps=steps, errors=errors)
            for seat, label in enumerate(seat_labels):
                sums[label] += hand.deltas[seat]
            if config.records:
                _write_record(config.records, f"deal-{number:05d}-{index:02d}.json", match, [state])
            _close(players)
        result.deals += 1
        for label in appearances:
            stats = result.bots[label]
            stats.deals += 1
            stats.per_deal = appearances[label] * len(orders)
            stats.deal_total += sums[label]
            stats.deal_squares += sums[label] * sums[label]
    return result


def simulate_units(config: SimConfig, numbers: Iterable[int]) -> SimResult:
    """Play the given units of ``config``: deals in duplicate mode, else matches."""
    return simulate_deals(config, numbers) if config.duplicate else simulate_matches(config, numbers)


def simulate(config: SimConfig, *, progress: Callable[[int], None] | None = None, jobs: int = 1) -> SimResult:
    """Play ``config.hands`` hands (in matches of ``config.match_hands``, or on duplicate deals) and
    count the results.

    ``progress`` is called with the number of hands finished after each match (deal); ``jobs`` > 1
    spreads the matches (deals) over that many processes (the result does not depend on it).
    """
    numbers = list(range(config.units))
    total = SimResult(bots={label: BotStats() for label in lineup(config)})
    if jobs <= 1:
        for number in numbers:
            part = simulate_units(config, [number])
            total.add(part)
            if progress is not None:
                progress(part.hands)
        return total
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(_one_unit, [(config, number) for number in numbers], chunksize=1):
            total.add(part)
            if progress is not None:
                progress(part.hands)
    return total


def _one_unit(job: tuple[SimConfig, int]) -> SimResult:
    config, number = job
    return simulate_units(config, [number])
