"""How well the search bot's worlds foresee a deal-in, against the wait reader (issue 35).

    python tools/world_quality.py --ruleset nanning --hands 30 --worlds 16

Four efficiency bots play ``--hands`` hands. At each turn of seat 0 from its fifth discard on, every
kind in its hand is labelled by whether it completes another seat's real hand now (the deal-ins the
search has to foresee), and each method below gives each such kind a chance:

- *worlds*: the share of the search's own :func:`~hupai.bots.search.determinized` worlds (settled,
  as the bot plays them) in which another seat's dealt hand is completed by the kind;
- *kept by discards*: the same share over ``--worlds`` worlds drawn, without replacement, from three
  times as many by how well each dealt hand fits its seat's discards (:func:`discard_weight`: a
  quarter for every discard that hand would have needed; a speed player rarely lets one go);
- *weighted by the reader*: all the worlds dealt for the row above, each weighted by how far the
  waits of its dealt hands agree with the shipped wait reader's chances, against how often the batch
  deals each wait (:func:`reader_weights`);
- *the reader*: the shipped reader, 1 - the product over the others of (1 - its chance);
- *the base rate*: the share of labels that are deal-ins, the same for every kind (in hindsight).

It prints the Brier score (smaller is better) and the AUC (a kind that deals in ranked above a safe
one; 0.5 is chance) of each. The search's worlds add nothing the reader lacks when their rows are no
better than the reader's (docs/bots.md).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Iterator, Sequence

from hupai.bots.reading import load_reader
from hupai.bots.search import determinized
from hupai.bots.selfplay import acting_seat
from hupai.bots.simple import EfficiencyBot
from hupai.game import Phase, new_hand, view
from hupai.game.engine import legal_actions, release_claims, step
from hupai.game.model import HandState
from hupai.game.view import SeatView
from hupai.hand import shanten, waits
from hupai.rules import load_ruleset

SEATS = 4
KINDS = 34
OTHERS = (1, 2, 3)
OVERSAMPLE = 3  # worlds dealt for each one kept by its discards
NEEDED_DISCARD = 0.25  # a dealt hand's weight, per discard it would have needed


def seat_turns(ruleset: str, seed: int, *, first_discard: int) -> Iterator[HandState]:
    """Seat 0's turns, from its ``first_discard``-th discard on, in a hand four efficiency bots play."""
    state = new_hand(load_ruleset(ruleset), seed=seed)
    players = [EfficiencyBot(seed + seat) for seat in range(SEATS)]
    while state.phase is not Phase.ENDED:
        actor = acting_seat(state)
        if state.phase is Phase.TURN and actor == 0 and len(state.seats[0].discards) >= first_discard:
            yield state.copy()
        legal = legal_actions(state, actor)
        step(state, players[actor].choose(view(state, actor, legal=legal), legal))
        release_claims(state)


def winning_kinds(counts: Sequence[int], laizi: int | None) -> frozenset[int]:
    """The kinds that complete a hand of concealed tiles ``counts`` now (none when it is not ready)."""
    hand = list(counts)
    jokers = 0
    if laizi is not None:
        jokers, hand[laizi] = hand[laizi], 0
    if shanten(hand, jokers=jokers) != 0:
        return frozenset()
    return frozenset(waits(hand, jokers=jokers))


def discard_weight(counts: Sequence[int], discards: Sequence[int], laizi: int | None) -> float:
    """:data:`NEEDED_DISCARD` for each of ``discards`` that would bring the hand closer to complete."""
    hand = list(counts)
    jokers = 0
    if laizi is not None:
        jokers, hand[laizi] = hand[laizi], 0
    away = shanten(hand, jokers=jokers)
    weight = 1.0
    for tile in discards:
        if tile == laizi or hand[tile] >= 4:
            continue
        hand[tile] += 1
        if shanten(hand, jokers=jokers) < away:
            weight *= NEEDED_DISCARD
        hand[tile] -= 1
    return weight


def reader_weights(
    dealt_waits: Sequence[dict[int, frozenset[int]]], read: dict[int, list[float]]
) -> list[float]:
    """Each world's likelihood ratio: per other seat and kind, the reader's chance that the kind wins
    for it against the batch's own share of worlds where it does (smoothed toward the reader)."""
    worlds = len(dealt_waits)
    logs = [0.0] * worlds
    for other in OTHERS:
        for kind in range(KINDS):
            chance = min(max(read[other][kind], 1e-4), 1 - 1e-4)
            dealt = sum(kind in world[other] for world in dealt_waits)
            share = (dealt + 2 * chance) / (worlds + 2)
            present, absent = math.log(chance / share), math.log((1 - chance) / (1 - share))
            for index, world in enumerate(dealt_waits):
                logs[index] += present if kind in world[other] else absent
    top = max(logs)
    return [math.exp(value - top) for value in logs]


def weighted_draw(weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """``count`` indices drawn without replacement, each in proportion to its weight (Efraimidis and
    Spirakis: the largest keys log(u) / weight)."""
    keys = [
        (math.log(1.0 - rng.random()) / max(weight, 1e-300), index) for index, weight in enumerate(weights)
    ]
    return [index for _key, index in sorted(keys, reverse=True)[:count]]


def share(worlds: Sequence[dict[int, frozenset[int]]], weights: Sequence[float], kind: int) -> float:
    hit = sum(
        weight for world, weight in zip(worlds, weights, strict=True) if any(kind in world[o] for o in OTHERS)
    )
    return hit / sum(weights)


def auc(chances: Sequence[float], labels: Sequence[bool]) -> float:
    """The chance that a deal-in is ranked above a safe kind (ties count a half)."""
    ranked = sorted(zip(chances, labels, strict=True))
    positives = sum(labels)
    negatives = len(labels) - positives
    below, total, index = 0, 0.0, 0
    while index < len(ranked):
        end = index
        while end < len(ranked) and ranked[end][0] == ranked[index][0]:
            end += 1
        tied = ranked[index:end]
        hits = sum(label for _chance, label in tied)
        total += hits * (below + (len(tied) - hits) / 2)
        below += len(tied) - hits
        index = end
    return total / (positives * negatives) if positives and negatives else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ruleset", default="nanning")
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=16, help="worlds a read, as the search plays them")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    reader = load_reader(args.ruleset)
    if reader is None:
        raise SystemExit(f"no wait reader is shipped for {args.ruleset}")
    methods = ["worlds", "kept by discards", "weighted by the reader", "the reader"]
    chances: dict[str, list[float]] = {method: [] for method in methods}
    labels: list[bool] = []
    reads = 0
    for hand in range(args.hands):
        for state in seat_turns(args.ruleset, args.seed + hand, first_discard=5):
            seen: SeatView = view(state, 0)
            rng = random.Random(f"{args.seed}:{hand}:{len(state.actions)}")
            reads += 1
            kinds = [
                kind for kind, copies in enumerate(state.seats[0].counts) if copies and kind != state.laizi
            ]
            real = {other: winning_kinds(state.seats[other].counts, state.laizi) for other in OTHERS}
            labels += [any(kind in real[other] for other in OTHERS) for kind in kinds]
            dealt = [determinized(state, seen, rng) for _ in range(args.worlds * OVERSAMPLE)]
            dealt_waits = [
                {o: winning_kinds(world.seats[o].counts, world.laizi) for o in OTHERS} for world in dealt
            ]
            fit = [
                math.prod(
                    discard_weight(world.seats[o].counts, seen.seats[o].discards, world.laizi) for o in OTHERS
                )
                for world in dealt
            ]
            kept = [dealt_waits[index] for index in weighted_draw(fit, args.worlds, rng)]
            plain = dealt_waits[: args.worlds]
            read = reader.read(seen)
            by_reader = reader_weights(dealt_waits, read)
            for kind in kinds:
                chances["worlds"].append(share(plain, [1.0] * len(plain), kind))
                chances["kept by discards"].append(share(kept, [1.0] * len(kept), kind))
                chances["weighted by the reader"].append(share(dealt_waits, by_reader, kind))
                chances["the reader"].append(1 - math.prod(1 - read[o][kind] for o in OTHERS))
    rate = sum(labels) / len(labels)
    print(f"{args.ruleset}: {args.hands} hands, {reads} reads, {len(labels)} kinds, {rate:.2%} deal in")
    print("| chance from | Brier | AUC |")
    print("|---|---:|---:|")
    for method in methods:
        brier = sum((p - y) ** 2 for p, y in zip(chances[method], labels, strict=True)) / len(labels)
        name = method if method == "the reader" else f"{method} ({args.worlds} worlds)"
        print(f"| {name} | {brier:.5f} | {auc(chances[method], labels):.3f} |")
    print(f"| the base rate | {rate * (1 - rate):.5f} | 0.500 |")


if __name__ == "__main__":
    main()
