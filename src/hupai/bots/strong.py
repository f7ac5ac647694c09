"""高手 (strong): tile efficiency weighed by what the hand is worth under the rules, and by danger.

For each discard it weighs *offence* — tiles to go, tiles that help, what the waits of a ready hand
are worth (Nanning: measured in self-play, a second winning tile counts for about two copies, and
honours and terminals are let go sooner; and each counts by what a win on it pays, 2 on a discard for a
plain open hand against 9 for all pungs), and the hand's prospects under the active rules (Nanjing: a
small hand needs 门清 or four hard flowers, so an open small hand is dead; 七对, flushes and all-pungs
pay; Nanning: 门清 keeps base 4, all-pungs and flushes double) —
against *danger*: how likely the tile completes an opponent's hand (ready opponents, many melds, late
in the wall; tiles an opponent let go or that are nearly all visible are safer) and what feeding it
would cost (Nanjing 快照/三清 and Nanning 封胡 make the feeder pay the whole win; a Nanning 大炮 — a tile
let go right after one's own kong, with four melds, or after the last draw — pays three units). It
claims a pung or kong only when that keeps the hand alive and brings it closer, or is worth it by
itself.

Where a wait reader is shipped for the rule set (:mod:`hupai.bots.reading`, all three today), danger
is read by it — per opponent and tile, the chance the tile wins for them now — and both sides are
weighed in points: a deal-in's average cost against what a step nearer ready adds to the chance of
winning the hand, times a win's average gain (push early and near ready, fold late and far). In Enshi
this gives the bot its defence. Without a reader the hand-made estimate below is used.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar

from hupai.bots.base import counts_of, natural_counts, unseen_from
from hupai.bots.reading import WaitReader, load_reader
from hupai.bots.simple import EfficiencyBot, after_discard, discard_outcome, first_of
from hupai.game.actions import Action, Chow, DeclareReady, Discard, Kong, Pass, Pong, Win
from hupai.game.view import PublicSeat, SeatView
from hupai.hand import shanten, waits
from hupai.hand.efficiency import accepting_tiles

SEATS = 4
BIG_CANNON = 3.0  # Nanning 大炮: a deal-in pays three units, about three ordinary deal-ins
ENSHI_OPEN_FROM = 3  # Enshi: a concealed hand this far from ready may still open it by a claim
DRAGONS_AND_FLOWERS = range(31, 42)


def suit_of(kind: int) -> int:
    return kind // 9 if kind < 27 else 3


@dataclass(frozen=True, slots=True)
class WaitModel:
    """What one winning tile of a ready hand is worth, in unseen copies (plain counting gives each copy
    1). Measured in efficiency self-play by ``tools/measure_waits.py``: the chance to win on a tile
    per turn grows far less than its unseen copies (some are held in other hands for good), so each
    distinct winning tile is worth ``per_tile`` copies by itself, and opponents let honours and
    terminals go more readily than middle tiles."""

    per_tile: float
    honour: float
    terminal: float  # 1 and 9
    near_terminal: float  # 2 and 8
    scale: float  # keeps the sum on the scale of plain copies, which the weights were tuned on

    def value(self, kind: int, copies: int) -> float:
        if copies <= 0:
            return 0.0
        if kind >= 27:
            bonus = self.honour
        elif kind % 9 in (0, 8):
            bonus = self.terminal
        elif kind % 9 in (1, 7):
            bonus = self.near_terminal
        else:
            bonus = 0.0
        return self.scale * (self.per_tile + copies + bonus)


# Nanning, 16,000 hands of efficiency self-play (tools/measure_waits.py --seed 1): per turn, a winning tile
# is worth 0.205 + 0.099 × its unseen copies points (+0.078 an honour, +0.085 a 1 or 9, +0.041 a 2 or 8),
# at that play's average payments (3.30 a win on a discard, 10.99 a self-draw).
WAIT_MODELS: Mapping[str, WaitModel] = MappingProxyType(
    {"nanning": WaitModel(per_tile=2.08, honour=0.79, terminal=0.86, near_terminal=0.41, scale=0.6)}
)


# Nanning: the share of the strong bot's wins made on a discard (duplicate deals, seed 2027: 19.1% of
# hands won on a discard, 6.8% self-drawn); the rest are self-drawn, which pay about three times more.
RON_SHARE = 0.74


@dataclass(frozen=True, slots=True)
class NanningHand:
    """What a Nanning win of this seat pays (the default options: elements double the unit), from its
    melds and the complete concealed tiles: a unit of 3 (4 concealed, or seven pairs) doubled by 七对
    (and each four of a kind in it), 碰碰胡, 清一色 and, on a discard with four melds, 全求人; on a
    discard a plain hand pays 2 (4 concealed), else 3/2 of the unit; self-drawn, the unit from each
    of three."""

    melds: int
    menqing: bool
    meld_suits: frozenset[int]
    reference: float  # the average win's points: a winning tile worth that counts as one

    def points(self, counts: Sequence[int], ron: bool) -> float:
        held = [count for count in counts if count]
        seven = self.melds == 0 and all(count in (2, 4) for count in held)
        doublings = 0
        if seven:
            doublings += 1 + sum(1 for count in held if count == 4)
        elif all(count in (2, 3) for count in held) and held.count(2) == 1:
            doublings += 1  # 碰碰胡 (every Nanning meld is a pung or a kong)
        suits = set(self.meld_suits)
        suits.update(suit_of(kind) for kind, count in enumerate(counts) if count)
        if len(suits) == 1:
            doublings += 1  # 清一色 (字一色 too)
        if ron and self.melds >= 4:
            doublings += 1  # 全求人
        unit = (4 if self.menqing or seven else 3) << doublings
        if not ron:
            return 3.0 * unit
        if doublings == 0:
            return 4.0 if self.menqing else 2.0
        return 1.5 * unit

    def wait_value(self, counts: list[int], wait: int) -> float:
        """What a win on ``wait`` is worth, on a discard or self-drawn, against the average win."""
        counts[wait] += 1
        on_discard = self.points(counts, ron=True)
        drawn = self.points(counts, ron=False)
        counts[wait] -= 1
        return (RON_SHARE * on_discard + (1.0 - RON_SHARE) * drawn) / self.reference


def worth(model: WaitModel | None, kind: int, copies: int) -> float:
    """A winning tile's worth: by the rule set's wait model, or (none measured) its unseen copies."""
    return float(copies) if model is None else model.value(kind, copies)


class StrongBot:
    """高手: see the module docstring."""

    name: ClassVar[str] = "strong"
    zh: ClassVar[str] = "高手"
    en: ClassVar[str] = "Strong"

    # Weights, tuned by self-play against ``efficiency`` (hupai simulate): shanten dominates (a
    # step nearer roughly doubles the chance to win); helping tiles break ties, two steps ahead when
    # one away; the rules' prizes and danger shift the choice where they matter.
    shanten_weight = 100.0
    accept_weight = 1.0
    lookahead = True
    value_weight: ClassVar[Mapping[str, float]] = MappingProxyType({"nanjing": 1.0, "nanning": 0.0})
    defence: ClassVar[Mapping[str, tuple[float, float, float]]] = MappingProxyType(
        {"nanjing": (5.0, 10.0, 20.0), "nanning": (5.0, 10.0, 20.0)}
    )  # weight of danger when ready, one away, further
    # Nanjing: an open small hand needs four hard flowers, so pung only with them or a big-hand route;
    # Nanning: an open hand still wins, and speed pays more than 门清's premium.
    pong_policy: ClassVar[Mapping[str, str]] = MappingProxyType({"nanjing": "rules", "nanning": "speed"})
    # Nanning: weigh each winning tile of a ready hand by what the win pays (a plain open hand's win on
    # a discard pays 2, an all-pungs one 9): measured on duplicate deals, docs/bots.md.
    value_waits = True
    seal = True  # Nanning: take a third pung from the same player, which seals it (封胡)
    # Read opponents' waits with the trained model (hupai.bots.reading) where one is shipped; the
    # hand-made estimate below is the fallback (and the reference it was measured against).
    read_waits = True
    # How much of a read deal-in's average cost counts, per rule set. Measured on duplicate deals
    # (docs/bots.md): at the full cost the bot folds too often — it deals in less but wins less, and a
    # deal-in avoided mostly comes back as another player's self-draw, which costs about as much.
    danger_scale: ClassVar[Mapping[str, float]] = MappingProxyType(
        {"nanjing": 0.15, "nanning": 0.2, "enshi": 0.2}
    )

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.wild = EfficiencyBot(seed)
        self.kong_at: int | None = None  # live tiles when this seat last made a kong

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        action = self._choose(view, legal)
        self.played(action, view.live_tiles)
        return action

    def played(self, action: Action, live_tiles: int) -> None:
        """What the bot remembers of the move its seat made (``live_tiles`` then): a kong, until the
        next discard (杠上炮). A bot that searches tells it the move it made instead of this one's."""
        if isinstance(action, Kong):
            self.kong_at = live_tiles
        elif isinstance(action, Discard):
            self.kong_at = None

    # --- the decision ---------------------------------------------------------------------

    def _choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if view.laizi is not None:
            return self._enshi(view, legal)
        win = first_of(legal, Win)
        if win is not None:
            return win
        ready = first_of(legal, DeclareReady)
        if ready is not None:
            return ready
        counts = counts_of(view.hand or ())
        discards = [action for action in legal if isinstance(action, Discard)]
        if discards:
            kong = self._own_kong(view, counts, legal)
            return kong if kong is not None else self._discard(view, counts, discards)
        if view.open_tile is not None:
            claim = self._claim(view, counts, legal, view.open_tile)
            if claim is not None:
                return claim
        passing = first_of(legal, Pass)
        return passing if passing is not None else legal[0]

    def _enshi(self, view: SeatView, legal: Sequence[Action]) -> Action:
        """Enshi: tile efficiency with the 赖子 as jokers (EfficiencyBot), but a concealed hand is
        worth five (大斜) against one or three once open (屁胡/小斜), so a claim is made only by a hand
        that is open already or still far from ready."""
        choice = self.wild.choose(view, legal)
        if isinstance(choice, Discard):
            reader = self._reader(view)
            if reader is not None:
                return self._enshi_discard(view, legal, reader)
        if isinstance(choice, Pong | Chow | Kong) and view.open_tile is not None:
            me = self._me(view)
            counts, jokers = natural_counts(view)
            if not me.melds and shanten(counts, jokers=jokers) < ENSHI_OPEN_FROM:
                passing = first_of(legal, Pass)
                if passing is not None:
                    return passing
        return choice

    def _enshi_discard(self, view: SeatView, legal: Sequence[Action], reader: WaitReader) -> Discard:
        """Enshi discards: tiles to go and tiles that help with the 赖子 as jokers, against the read
        danger of each tile, both in points (as in the other rule sets)."""
        counts, jokers = natural_counts(view)
        unseen = unseen_from(view)
        now = shanten(counts, jokers=jokers)
        unit = self._unit_points(view, reader, now, jokers)
        reading = reader.read(view)
        scored: list[tuple[float, int, Discard]] = []
        for action in legal:
            if not isinstance(action, Discard):
                continue
            if action.tile == view.laizi or counts[action.tile] == 0:
                scored.append((-1e9, -action.tile, action))  # never let a wildcard go while others remain
                continue
            after, accepted = discard_outcome(counts, action.tile, unseen, jokers=jokers)
            offence = -self.shanten_weight * after + self.accept_weight * accepted
            cost = self._read_danger(view, action.tile, unseen, reading, reader)
            scored.append((offence * unit - cost, -action.tile, action))
        return max(scored)[2]

    # --- what the rules make of a hand ---------------------------------------------------------

    def _me(self, view: SeatView) -> PublicSeat:
        assert view.seat is not None
        return view.seats[view.seat]

    def _open_is_dead(self, view: SeatView, counts: list[int], extra_melds: int = 0) -> bool:
        """Nanjing: an open hand that is small (no big-hand prospect) and has fewer than the required
        hard flowers can never win."""
        if view.ruleset != "nanjing":
            return False
        me = self._me(view)
        flowers = len(me.flowers)
        if flowers >= int(view.options.get("small_hand_hard_flowers", 4)):
            return False
        return not self._big_prospect(view, counts, extra_melds)

    def _big_prospect(self, view: SeatView, counts: list[int], extra_melds: int = 0) -> bool:
        """A realistic route to a big hand: all pungs, or one suit (with or without winds)."""
        me = self._me(view)
        meld_tiles = [meld.tile for meld in me.melds if meld.tile is not None]
        pairs = sum(1 for count in counts if count >= 2)
        sets = len(me.melds) + extra_melds
        if sets + pairs >= 5 and all(True for _ in meld_tiles):
            return True
        by_suit = [0, 0, 0, 0]
        for kind, count in enumerate(counts):
            by_suit[suit_of(kind)] += count
        for tile in meld_tiles:
            by_suit[suit_of(tile)] += 3
        main = max(range(3), key=lambda suit: by_suit[suit])
        other = sum(by_suit[suit] for suit in range(3) if suit != main)
        return other <= 1 and by_suit[main] >= 8

    def _value_bonus(self, view: SeatView, counts: list[int]) -> float:
        """How promising the hand is beyond its speed, in units of helping tiles: a flush, pairs for
        seven pairs, pairs and pungs for all pungs — what each rule set pays extra for."""
        me = self._me(view)
        by_suit = [0, 0, 0, 0]
        for kind, count in enumerate(counts):
            by_suit[suit_of(kind)] += count
        for meld in me.melds:
            if meld.tile is not None:
                by_suit[suit_of(meld.tile)] += 3
        total = sum(by_suit) or 1
        main = max(by_suit[:3])
        # Nanjing pays 混一色 (one suit with winds) as well as 清一色; Nanning only one suit (or honours).
        honours_help = view.ruleset == "nanjing"
        share = (main + (by_suit[3] if honours_help else 0)) / total
        bonus = 40.0 * max(0.0, share - 0.6) / 0.4
        pairs = sum(1 for count in counts if count >= 2)
        if not me.melds and pairs >= 4:
            bonus += 8.0 * (pairs - 3)  # 七对 / 七小对
        triples = sum(1 for count in counts if count >= 3) + sum(
            1 for meld in me.melds if meld.tile is not None
        )
        if triples + pairs >= 5 and triples >= 2:
            bonus += 6.0 * triples  # 对对胡 / 碰碰胡
        return bonus

    # --- danger ------------------------------------------------------------------------------

    def _threat(self, view: SeatView, other: int) -> float:
        """How likely ``other`` is ready now."""
        public = view.seats[other]
        if public.ready:
            return 1.0
        melds = len(public.melds)
        turns = len(public.discards)
        base = 0.04 + 0.035 * turns + 0.18 * melds
        if melds >= 3:
            base += 0.25
        return min(base, 0.95)

    def _danger(self, view: SeatView, tile: int, unseen: Sequence[int]) -> float:
        """The expected cost of letting ``tile`` go, in units of one ordinary win."""
        assert view.seat is not None
        total = 0.0
        for other in range(SEATS):
            if other == view.seat:
                continue
            public = view.seats[other]
            if tile in public.discards:
                continue  # a tile the opponent let go itself is much less likely its wait
            threat = self._threat(view, other)
            chance = self._wait_chance(tile, unseen)
            cost = 1.0 + self._liability(view, other, tile, unseen)
            total += threat * chance * cost
        return total * self._cannon(view)

    def _cannon(self, view: SeatView) -> float:
        """Nanning: a tile let go right after one's own kong (杠上炮), while holding four melds (全求炮)
        or after the last tile was drawn (海底炮) pays three units if it deals in (a 大炮)."""
        if view.ruleset != "nanning":
            return 1.0
        just_konged = self.kong_at is not None and self.kong_at - view.live_tiles == 1
        all_melded = len(self._me(view).melds) >= 4 and view.options.get("quanqiu_pao") == "dapao"
        last = 4 if view.options.get("haidi_window") == "last_round" else 1
        if just_konged or all_melded or view.live_tiles < last:
            return BIG_CANNON
        return 1.0

    @staticmethod
    def _wait_chance(tile: int, unseen: Sequence[int]) -> float:
        if unseen[tile] == 0:
            return 0.05  # only a single wait on the last copy is left
        if tile >= 27:
            return 0.10 + 0.06 * unseen[tile]
        rank = tile % 9
        middle = 0.30 if 2 <= rank <= 6 else 0.22 if rank in (1, 7) else 0.15
        return middle * (0.5 + 0.2 * unseen[tile])

    def _liability(self, view: SeatView, other: int, tile: int, unseen: Sequence[int]) -> float:
        """Extra cost of feeding ``other`` this tile (Nanjing 快照/三清, Nanning 封胡: the feeder pays)."""
        assert view.seat is not None
        public = view.seats[other]
        fed = sum(1 for meld in public.melds if meld.feeder == view.seat)
        if unseen[tile] < 2:
            return 0.0
        if view.ruleset == "nanning" and fed >= 2:
            return 6.0  # a third pung from us seals us (封胡): we cannot win and pay double
        if view.ruleset == "nanjing":
            if fed >= 2 or (fed >= 1 and sum(1 for m in public.melds if "concealed" in m.kind) >= 1):
                return 6.0  # 快照: their fourth mouth wins at once, paid by us
            suits = {suit_of(m.tile) for m in public.melds if m.tile is not None}
            if len(public.melds) >= 3 and len(suits) == 1 and suit_of(tile) in suits:
                return 8.0  # 三清: a fourth pung of that suit wins at once, three shares from us
        return 0.0

    # --- discards ------------------------------------------------------------------------------

    def _discard(self, view: SeatView, counts: list[int], discards: Sequence[Discard]) -> Discard:
        unseen = unseen_from(view)
        now = shanten(counts)
        scored: list[tuple[float, int, Discard]] = []
        open_dead = self._me(view).melds and self._open_is_dead(view, counts)
        model = WAIT_MODELS.get(view.ruleset)
        reader = self._reader(view)
        reading = reader.read(view) if reader is not None else {}
        unit = self._unit_points(view, reader, now) if reader is not None else 0.0
        weight = self._defence_weight(view, now)
        hand = self._nanning_hand(view, reader)
        for action in discards:
            counts[action.tile] -= 1
            after = shanten(counts)
            accepted = self._acceptance(counts, after, unseen, model, hand)
            value_weight = self.value_weight.get(view.ruleset, 1.0)
            bonus = value_weight * self._value_bonus(view, counts) if value_weight else 0.0
            counts[action.tile] += 1
            offence = -self.shanten_weight * after + self.accept_weight * accepted + bonus
            if open_dead:
                offence *= 0.3  # a hand that cannot win is worth little: play safe
            if reader is not None:  # both sides in points
                score = offence * unit - self._read_danger(view, action.tile, unseen, reading, reader)
            else:
                score = offence - weight * self._danger(view, action.tile, unseen)
            scored.append((score, -action.tile, action))
        return max(scored)[2]

    # --- danger read by the model: push or fold, in points ------------------------------------------

    def _reader(self, view: SeatView) -> WaitReader | None:
        return load_reader(view.ruleset) if self.read_waits else None

    def _unit_points(self, view: SeatView, reader: WaitReader, now: int, jokers: int = 0) -> float:
        """What one unit of offence is worth in points now: a step nearer ready (``shanten_weight``
        units) is worth what it adds to the chance of winning the hand, times a win's average gain.
        Late in the wall and far from ready this is little, so danger decides (fold); early or near
        ready, speed does (push)."""
        melds = len(self._me(view).melds)
        here = max(now, 0)
        gain = reader.win_chance(here, view.live_tiles, melds, jokers) - reader.win_chance(
            here + 1, view.live_tiles, melds, jokers
        )
        return max(gain, 0.002) * reader.win_gain / self.shanten_weight

    def _read_danger(
        self,
        view: SeatView,
        tile: int,
        unseen: Sequence[int],
        reading: Mapping[int, Sequence[float]],
        reader: WaitReader,
    ) -> float:
        """The expected points lost by letting ``tile`` go: per opponent, the chance it wins on it now
        (the model) times a deal-in's average cost, raised by what feeding that opponent adds
        (快照/三清/封胡) and by a Nanning 大炮."""
        total = 0.0
        for other, chances in reading.items():
            total += chances[tile] * (1.0 + self._liability(view, other, tile, unseen))
        return total * reader.deal_in_cost * self._cannon(view) * self.danger_scale.get(view.ruleset, 1.0)

    def _nanning_hand(self, view: SeatView, reader: WaitReader | None) -> NanningHand | None:
        """Nanning (with a reader, whose average win is the scale): what this seat's wins would pay."""
        if view.ruleset != "nanning" or reader is None or not self.value_waits:
            return None
        melds = self._me(view).melds
        return NanningHand(
            melds=len(melds),
            menqing=all("concealed" in meld.kind for meld in melds),
            meld_suits=frozenset(suit_of(meld.tile) for meld in melds if meld.tile is not None),
            reference=reader.win_gain,
        )

    def _acceptance(
        self,
        counts: list[int],
        after: int,
        unseen: Sequence[int],
        model: WaitModel | None = None,
        hand: NanningHand | None = None,
    ) -> float:
        """Tiles that help; when ready, what the waits are worth (``model``, else their copies, and in
        Nanning what each win pays); one away, weighted by how good the ready hand each one leads to
        is — two steps ahead, which prefers good shapes."""
        if after < 0:
            return 0.0
        accepting = accepting_tiles(counts, unseen=unseen)
        if after == 0:
            return self._waits_worth(counts, accepting, model, hand)
        simple = float(sum(copies for _, copies in accepting))
        if after != 1 or not self.lookahead:
            return simple
        total = 0.0
        for kind, copies in accepting:
            counts[kind] += 1
            best = 0.0
            for out in range(34):
                if counts[out]:
                    counts[out] -= 1
                    if shanten(counts) == 0:
                        left = [(wait, unseen[wait] - (wait == kind)) for wait in waits(counts)]
                        best = max(best, self._waits_worth(counts, left, model, hand))
                    counts[out] += 1
            counts[kind] -= 1
            total += copies * best
        return total / 6.0

    @staticmethod
    def _waits_worth(
        counts: list[int], left: Sequence[tuple[int, int]], model: WaitModel | None, hand: NanningHand | None
    ) -> float:
        """A ready hand's winning tiles: their copies by the wait model, each weighted (Nanning) by
        what a win on it pays."""
        if hand is None:
            return sum(worth(model, wait, copies) for wait, copies in left)
        return sum(worth(model, wait, copies) * hand.wait_value(counts, wait) for wait, copies in left)

    def _defence_weight(self, view: SeatView, now: int) -> float:
        late = 1.0 + max(0, 40 - view.live_tiles) / 20
        ready, one_away, further = self.defence.get(view.ruleset, (5.0, 10.0, 20.0))
        if now <= 0:
            return ready * late
        if now == 1:
            return one_away * late
        return further * late

    # --- kongs and claims ------------------------------------------------------------------------

    def _own_kong(self, view: SeatView, counts: list[int], legal: Sequence[Action]) -> Action | None:
        now = shanten(counts)
        for action in legal:
            if isinstance(action, Kong) and action.tile is not None:
                used = 4 if counts[action.tile] == 4 else 1
                counts[action.tile] -= used
                after = shanten(counts)
                counts[action.tile] += used
                if after <= now:
                    return action
        return None

    def _claim(self, view: SeatView, counts: list[int], legal: Sequence[Action], tile: int) -> Action | None:
        now = shanten(counts)
        kong = first_of(legal, Kong)
        if kong is not None:
            counts[tile] -= 3
            after = shanten(counts)
            counts[tile] += 3
            keeps_menqing = view.ruleset == "nanjing"  # a kong on a discard keeps 门清 in Nanjing only
            if after <= now and (keeps_menqing or not self._menqing_matters(view, counts)):
                return kong
        pong = first_of(legal, Pong)
        if pong is None:
            return None
        counts[tile] -= 2
        best = min(after_discard(counts, kind) for kind in range(34) if counts[kind])
        prospect = self._big_prospect(view, counts, extra_melds=1)
        counts[tile] += 2
        if (
            view.ruleset == "nanning"
            and self.seal
            and best <= now
            and self._fed_by(view, view.open_from) >= 2
        ):
            return pong  # a third pung from the same player seals it (封胡): it cannot win and pays ours
        if best >= now:
            return None
        policy = self.pong_policy.get(view.ruleset, "speed")
        if policy == "speed":
            return pong
        if view.ruleset == "nanjing":
            me = self._me(view)
            flowers = len(me.flowers) >= int(view.options.get("small_hand_hard_flowers", 4))
            return pong if flowers or prospect else None
        if view.ruleset == "nanning":
            # Opening costs 门清 (base 4 → 3); worth it for an all-pungs or flush route, or when far behind.
            return pong if prospect or now >= 2 or not self._menqing_matters(view, counts) else None
        return pong

    def _fed_by(self, view: SeatView, feeder: int | None) -> int:
        """How many of this seat's melds ``feeder`` gave."""
        return sum(1 for meld in self._me(view).melds if feeder is not None and meld.feeder == feeder)

    def _menqing_matters(self, view: SeatView, counts: list[int]) -> bool:
        return not self._me(view).melds
