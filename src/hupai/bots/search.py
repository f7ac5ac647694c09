"""大师 (``expert``): a bot that searches at decision time, within a budget of rollouts.

Determinized Monte Carlo. On its turn the bot deals anew, at random, everything its seat cannot see
(the other seats' concealed tiles, the wall not yet drawn, the kinds of the others' face-down kongs:
:func:`determinized`; the others' hands then settled by replaying their turns, so that they are as
close to complete as hands in play are), plays each candidate action in that world and the hand on
to its end with a fast policy in all four seats (:func:`quick_action`), and notes what its seat is
paid under the rule set's own settlement. Every candidate meets the same worlds (common random
numbers), so their differences are far less noisy than their values. The candidates are few: the
:class:`~hupai.bots.strong.StrongBot`'s choice first, then the most efficient discards and any kong
or 报听 on offer; another candidate is played only where it beats strong's choice, world by world,
by at least :data:`CONFIDENCE` standard errors (:func:`better_than_first`).

Where the search cannot help, the bot plays as ``strong`` does: a win (taken), claims (a window shows
what the others may claim, which a new deal would change), a turn with a single choice, and a turn
when another seat has declared 报听 (a new deal would not keep its hand ready).

A decision depends only on what the seat may know and on ``(seed, the number of actions so far)``,
so the same seed and budget play the same game (``tests/test_search_bot.py``).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from hupai.bots.base import natural_counts, unseen_from
from hupai.bots.selfplay import acting_seat
from hupai.bots.simple import EfficiencyBot, discard_key, first_of
from hupai.bots.strong import StrongBot
from hupai.game.actions import Action, DeclareReady, Discard, Kong, Lay, Win
from hupai.game.engine import legal_actions, step
from hupai.game.model import SEATS, HandState, MeldKind, Phase
from hupai.game.view import SeatView
from hupai.game.view import view as view_of
from hupai.hand import shanten

__all__ = ["DEFAULT_ROLLOUTS", "ExpertBot", "determinized"]

DEFAULT_ROLLOUTS = 48  # a decision: 8,000 Nanning hands in 25 min on two cores (docs/bots.md)
DISCARD_CANDIDATES = 3  # the most efficient discards searched besides strong's own choice
CONFIDENCE = 2.0  # standard errors by which a candidate must beat the heuristic's choice (docs/bots.md)
HONOURS = 27  # the first honour kind: suited kinds come in runs of nine below it
_CLAIMS = EfficiencyBot()  # the rollouts' claims (it draws no random numbers)


class ExpertBot:
    """大师: strong's judgement, checked by rollouts. ``rollouts``: the budget per decision (0 plays
    exactly as ``strong``)."""

    name: ClassVar[str] = "expert"
    zh: ClassVar[str] = "大师"
    en: ClassVar[str] = "Expert"
    searches: ClassVar[bool] = True  # the game loop hands it the state too (choose_in)

    def __init__(
        self,
        seed: int = 0,
        rollouts: int = DEFAULT_ROLLOUTS,
        *,
        confidence: float = CONFIDENCE,
        settle: bool = True,
    ) -> None:
        if rollouts < 0:
            raise ValueError("rollouts must be 0 or more")
        self.seed = seed
        self.rollouts = rollouts
        self.confidence = confidence
        self.settle = settle  # deal the others' hands as play has shaped them (determinized)
        self.heuristic = StrongBot(seed)
        self.searched = 0  # decisions made by search (for the figures in docs/bots.md)
        self.played = 0  # rollouts played, all decisions together

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """Without the state (an external harness): as ``strong``."""
        return self.heuristic.choose(view, legal)

    def choose_in(self, state: HandState, view: SeatView, legal: Sequence[Action]) -> Action:
        """Choose with the state at hand: only :func:`determinized` worlds of it are searched."""
        fallback = self.heuristic.choose(view, legal)
        seat = view.seat
        if self.rollouts == 0 or seat is None or state.phase is not Phase.TURN or state.turn != seat:
            return fallback
        if isinstance(fallback, Win):  # a win is taken: a few rollouts must not talk it down
            return fallback
        if any(public.ready for other, public in enumerate(view.seats) if other != seat):
            return fallback
        candidates = candidate_actions(view, legal, fallback)
        if len(candidates) < 2:
            return fallback
        self.searched += 1
        chosen = candidates[better_than_first(self._outcomes(state, view, candidates), self.confidence)]
        self.heuristic.played(chosen, view.live_tiles)  # it remembers the move made, not its own
        return chosen

    def _outcomes(self, state: HandState, view: SeatView, candidates: Sequence[Action]) -> list[list[int]]:
        """Per candidate, what the seat was paid in each world (the same worlds for every candidate)."""
        seat = view.seat
        assert seat is not None
        rng = random.Random(f"{self.seed}:{len(state.actions)}")
        outcomes: list[list[int]] = [[] for _ in candidates]
        for _ in range(max(1, self.rollouts // len(candidates))):
            world = determinized(state, view, rng, settle=self.settle)
            for index, action in enumerate(candidates):
                trial = world.copy()
                step(trial, action)
                roll_out(trial)
                outcomes[index].append(trial.deltas()[seat])
                self.played += 1
        return outcomes


def better_than_first(outcomes: Sequence[Sequence[int]], confidence: float = CONFIDENCE) -> int:
    """The candidate to play: the one whose outcomes beat the first's (the heuristic's choice) by the
    most, world by world, where that lead is at least ``confidence`` standard errors; else the
    first. With a small budget most differences are noise, and noise must not overrule judgement."""
    worlds = len(outcomes[0])
    best, best_lead = 0, 0.0
    for index in range(1, len(outcomes)):
        differences = [mine - first for mine, first in zip(outcomes[index], outcomes[0], strict=True)]
        lead = sum(differences) / worlds
        if worlds > 1:
            spread = sum((difference - lead) ** 2 for difference in differences) / (worlds - 1)
            if lead <= confidence * math.sqrt(spread / worlds):
                continue
        if lead > best_lead:
            best, best_lead = index, lead
    return best


def candidate_actions(view: SeatView, legal: Sequence[Action], chosen: Action) -> list[Action]:
    """What the search weighs: ``chosen`` (the heuristic's) first, then every win, kong and 报听 on
    offer, then the discards that leave the hand closest to complete."""
    candidates = [chosen]
    for action in legal:
        if isinstance(action, Win | Kong | DeclareReady) and action not in candidates:
            candidates.append(action)
    discards = [action for action in legal if isinstance(action, Discard)]
    if discards:
        counts, jokers = natural_counts(view)
        unseen = unseen_from(view)
        ranked = sorted(discards, key=lambda action: discard_key(counts, action.tile, unseen, jokers=jokers))
        for action in ranked[:DISCARD_CANDIDATES]:
            if action not in candidates:
                candidates.append(action)
    return candidates


def roll_out(state: HandState) -> None:
    """Play ``state`` to its end with :func:`quick_action` in every seat."""
    while state.phase is not Phase.ENDED:
        seat = acting_seat(state)
        step(state, quick_action(state, seat, legal_actions(state, seat)))


def quick_action(state: HandState, seat: int, legal: Sequence[Action]) -> Action:
    """The rollouts' policy, the efficiency bot's in a hurry: it wins when it may, declares 报听
    when offered, lays a 痞子 at once, discards for the fewest tiles to go (then the tile with the
    fewest neighbours, rather than counting every tile that would help: a twentieth of the work) and
    claims as the efficiency bot does. It reads only its own seat's tiles, from the state."""
    for kind in (Win, DeclareReady):
        wanted = first_of(legal, kind)
        if wanted is not None:
            return wanted
    lays = [action for action in legal if isinstance(action, Lay)]
    if lays:
        pizi = next((action for action in lays if action.tile == state.pizi), None)
        if pizi is not None or len(lays) == len(legal):
            return pizi or lays[0]
    discards = [action for action in legal if isinstance(action, Discard)]
    if not discards:  # a claim: as the efficiency bot weighs it
        return _CLAIMS.choose(view_of(state, seat, legal=legal), legal)
    counts = list(state.seats[seat].counts)
    jokers = 0
    if state.laizi is not None:
        jokers, counts[state.laizi] = counts[state.laizi], 0
    return min(discards, key=lambda action: _quick_key(counts, action.tile, jokers))


def _quick_key(counts: list[int], tile: int, jokers: int) -> tuple[int, int, int]:
    """The rollouts' discard key, smallest best: tiles to go after letting ``tile`` go, then how much
    of the hand it works with. A tile ``counts`` lacks is a wildcard: let go only when nothing else may."""
    if counts[tile] == 0:
        return (99, 0, tile)
    counts[tile] -= 1
    key = (shanten(counts, jokers=jokers), _neighbours(counts, tile), tile)
    counts[tile] += 1
    return key


def _neighbours(counts: Sequence[int], tile: int) -> int:
    """How much of the hand a tile works with: its copies, and the tiles one and two away in its suit."""
    near = 2 * counts[tile]
    if tile < HONOURS:
        rank = tile % 9
        for step_, weight in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            if 0 <= rank + step_ < 9:
                near += weight * counts[tile + step_]
    return near


def determinized(
    state: HandState, view: SeatView, rng: random.Random, *, settle: bool = True, read_melds: bool = False
) -> HandState:
    """A copy of ``state`` in which what ``view``'s seat cannot see is dealt anew at random: the other
    seats' concealed tiles, the wall still to be drawn and the kinds of the other seats' face-down
    kongs, all from one shuffled pool. That pool holds exactly the tiles the seat has not seen (all
    the tiles, less its own hand and everything shown), so nothing hidden from the seat decides the
    world it plays in; only how many tiles each part holds carries over, which the seat sees.
    Flowers (and what the rule set counts as one) stay in the wall: a hand never holds them.

    ``settle``: a hand dealt at random is further from complete than one that has played (about three
    tiles to go, against one or two by mid-hand), and rollouts from such worlds never see danger. So
    each other seat's dealt hand then plays over its turns so far: for every tile it has discarded it
    draws one from the undrawn pool and lets go what the rollouts' policy would (the tile let go goes
    back into the pool). Which tiles lie where still depends only on the pool and on what is public
    (how many tiles each seat has discarded), and every tile stays where the count says it is.

    ``read_melds`` (the review's, :mod:`hupai.review`): a seat whose two or more melds are all of one
    suit is going for 清一色 in plain sight: its hidden tiles are dealt from that suit first, and its
    settling keeps them, letting go the others first (the search bot's play, measured without it,
    is unchanged)."""
    seat = view.seat
    assert seat is not None
    world = state.copy()
    world.hold_claims = False  # a table holds windows nobody may claim until their release; rollouts do not
    ruleset = world.ruleset
    unseen = world.wall[world.front : world.back + 1]
    hidden_kongs = []
    others = [other for other in range(SEATS) if other != seat]
    for other in others:
        seated = world.seats[other]
        for kind, copies in enumerate(seated.counts):
            unseen.extend([kind] * copies)
        shown = view.seats[other].melds
        for meld, public in zip(seated.melds, shown, strict=True):
            if meld.kind is MeldKind.CONCEALED_KONG and public.tile is None:
                unseen.extend([meld.tile] * 4)
                hidden_kongs.append(meld)
    # Sorted first: the worlds depend on which tiles are hidden, never on where they really lie.
    unseen.sort()
    flowers = [tile for tile in unseen if ruleset.is_flower(tile)]
    pool = [tile for tile in unseen if not ruleset.is_flower(tile)]
    rng.shuffle(pool)
    for meld in hidden_kongs:  # each a kind the pool holds four of, all such kinds alike
        held = Counter(pool)
        meld.tile = rng.choice(sorted(kind for kind, count in held.items() if count >= 4))
        for _ in range(4):
            pool.remove(meld.tile)
    hands: list[list[int]] = []
    suits = [_flush_suit(view, other) if read_melds else None for other in others]
    for other, suit in zip(others, suits, strict=True):
        size = sum(world.seats[other].counts)
        if suit is None:
            hand, pool = pool[:size], pool[size:]
        else:  # its hidden tiles are of its suit first, as far as the pool has them
            hand, pool = _suit_first(pool, suit, size)
        counts = [0] * len(world.seats[other].counts)
        for kind in hand:
            counts[kind] += 1
        hands.append(counts)
    if settle and pool:
        turns = [len(view.seats[other].discards) for other in others]
        _settle(hands, turns, pool, world.laizi, rng, suits=suits)
    for other, counts in zip(others, hands, strict=True):
        seated = world.seats[other]
        seated.counts = counts
        if seated.drawn is not None:  # the tile it just drew: one of its tiles, as likely as any
            seated.drawn = _any_tile(counts, rng)
        world.refused_wins.pop(other, None)
    wall = pool + flowers
    rng.shuffle(wall)
    world.wall[world.front : world.back + 1] = wall
    return world


def _suit_first(pool: list[int], suit: int, size: int) -> tuple[list[int], list[int]]:
    """``size`` tiles from the (shuffled) pool, those of ``suit`` first; and the pool left."""
    inside = [place for place, kind in enumerate(pool) if kind // 9 == suit][:size]
    taken = set(inside)
    outside = [place for place in range(len(pool)) if place not in taken][: size - len(inside)]
    taken.update(outside)
    return [pool[place] for place in inside + outside], [
        kind for place, kind in enumerate(pool) if place not in taken
    ]


def _flush_suit(view: SeatView, seat: int) -> int | None:
    """The suit all of a seat's (two or more) shown melds are of, if they are all of one suit."""
    suits = {meld.tile // 9 for meld in view.seats[seat].melds if meld.tile is not None}
    if len(view.seats[seat].melds) < 2 or len(suits) != 1:
        return None
    (suit,) = suits
    return suit if suit < HONOURS // 9 else None


def _settle(
    hands: Sequence[list[int]],
    turns: Sequence[int],
    pool: list[int],
    laizi: int | None,
    rng: random.Random,
    *,
    suits: Sequence[int | None] | None = None,
) -> None:
    """Play each hand (counts) over its ``turns``, in turn order: draw a tile from ``pool`` and put
    back the one the rollouts' policy lets go (so the pool keeps its size); a hand with a suit in
    ``suits`` lets go tiles of other suits first."""
    kept_suits = suits if suits is not None else [None] * len(hands)
    for turn in range(max(turns, default=0)):
        for counts, played, suit in zip(hands, turns, kept_suits, strict=True):
            if turn >= played:
                continue
            spot = rng.randrange(len(pool))
            counts[pool[spot]] += 1
            jokers = 0
            if laizi is not None:
                jokers, counts[laizi] = counts[laizi], 0
            kept = [kind for kind in range(len(counts)) if counts[kind]]
            if suit is not None and any(kind // 9 != suit for kind in kept):
                kept = [kind for kind in kept if kind // 9 != suit]
            let_go = min(kept, key=lambda kind: _quick_key(counts, kind, jokers)) if kept else laizi
            if laizi is not None:
                counts[laizi] = jokers
            assert let_go is not None
            counts[let_go] -= 1
            pool[spot] = let_go


def _any_tile(counts: Sequence[int], rng: random.Random) -> int:
    """One of the tiles ``counts`` holds, each tile as likely as any other."""
    pick = rng.randrange(sum(counts))
    for kind, copies in enumerate(counts):
        if pick < copies:
            return kind
        pick -= copies
    raise ValueError("no tile to pick")
