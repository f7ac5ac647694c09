"""The in-game hint: for each tile a seat of a real game waits on, what a self-drawn win and a win on
the next seat's discard would bring, or why that win is not allowed (:func:`win_values`)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from hupai.calculator.scoring import Calculation, calculate, completes, refused
from hupai.calculator.spec import MeldSpec, WinHow, WinSpec, seat_ok, tile_shown
from hupai.game.contract import RuleSet
from hupai.game.model import (
    SEATS,
    HandState,
    MeldKind,
    Phase,
    WinKind,
    next_seat,
)
from hupai.hand import waits
from hupai.rules import load_ruleset
from hupai.tiles import NUM_KINDS, format_tiles


@dataclass(frozen=True, slots=True)
class WaitValue:
    """What one waiting tile would bring: won self-drawn, and won on a discard by ``discarder``.
    ``unseen`` counts the copies this seat cannot see (its hand, melds shown and discards excluded)."""

    tile: int
    unseen: int
    discarder: int
    self_drawn: Calculation
    discard: Calculation

    def as_dict(self) -> dict[str, Any]:
        return {
            "tile": format_tiles([self.tile]),
            "unseen": self.unseen,
            "discarder": self.discarder,
            "self_drawn": self.self_drawn.as_dict(),
            "discard": self.discard.as_dict(),
        }


def win_values(
    state: HandState, seat: int, *, discard: int | None = None, discarder: int | None = None
) -> dict[int, WaitValue]:
    """For each tile that would win for ``seat`` in a real game: what a self-drawn win and a win on
    ``discarder``'s discard (default: the next seat, the first to discard after this seat) would bring,
    or why the rules refuse it. The state is not changed.

    The hand is the seat's concealed tiles when it holds 13 less 3 per meld; when it holds a drawn tile,
    name the tile it would let go with ``discard``. The keys are its waits, and on Nanjing tables also
    tiles whose claim alone would win (快照/三清). Melds, flowers, 报听, the dealer and the hand's
    multiplier come from the state, as does how many tiles the wall will still hold at that draw or
    discard (海底) — assuming nobody claims in between. Nanning's code tiles, horses and fish are not
    known before the win: the values leave them out (as if they hit nobody else and not the winner).
    On Enshi tables the seat's 赖子 are wildcards in its waits (only tiles of the set are listed), and
    the 痞子, the 赖子 and every seat's lays come from the state; a self-drawn value is a plain draw
    (not a 杠开). A seat holding a 痞子 sees its waits refused (有痞子不能胡: lay it first).
    """
    if not seat_ok(seat):
        raise ValueError(f"seat is a seat 0-3, not {seat!r}")
    if state.phase is Phase.ENDED:
        raise ValueError("the hand is over")
    player = state.seats[seat]
    counts = list(player.counts)
    held = sum(counts)
    if discard is not None:
        if held % 3 != 2:
            raise ValueError(f"seat {seat} holds {held} tiles and has nothing to discard")
        if not 0 <= discard < NUM_KINDS or not counts[discard]:
            raise ValueError(f"seat {seat} does not hold {tile_shown(discard)}")
        counts[discard] -= 1
    elif held % 3 != 1:
        raise ValueError(
            f"seat {seat} holds {held} tiles, a drawn one among them: "
            "name the tile it would discard (discard=)"
        )
    discarder = next_seat(seat) if discarder is None else discarder
    if not seat_ok(discarder) or discarder == seat:
        raise ValueError(f"discarder is another seat 0-3, not {discarder!r}")
    ruleset = _hint_ruleset(state.ruleset)
    tiles = _hint_tiles(state, ruleset, seat, counts)
    if not tiles:
        return {}  # most hands wait on nothing: no need to set up the scoring
    discarded = [
        out
        for other in state.seats
        for out, claimed in zip(other.discards, other.discard_claimed, strict=True)
        if not claimed
    ]
    if discard is not None:
        discarded.append(discard)
    base = WinSpec(
        ruleset=ruleset.preset,
        options=MappingProxyType(dict(ruleset.options_dict())),
        seat=seat,
        dealer=state.dealer,
        hand=tuple(kind for kind in range(NUM_KINDS) for _ in range(counts[kind])),
        win_tile=0,
        melds=tuple(
            MeldSpec(kind=m.kind, tile=m.tile, feeder=m.feeder, laizi_for=m.laizi_for) for m in player.melds
        ),
        flowers=tuple(player.flowers),
        ready=player.ready,
        multiplier=state.multiplier,
        others_melds={
            other: tuple(
                MeldSpec(kind=m.kind, tile=m.tile, feeder=m.feeder, laizi_for=m.laizi_for)
                for m in state.seats[other].melds
            )
            for other in range(SEATS)
            if other != seat and state.seats[other].melds
        },
        discarded=tuple(discarded),
        previous_winner=state.previous_winner,
        pizi=state.pizi,
        laid={other: tuple(state.seats[other].laid) for other in range(SEATS) if state.seats[other].laid},
    )
    own_draws = _draws_until(state, seat, own=True)
    their_draws = _draws_until(state, discarder, own=False)
    live = state.live_tiles
    first_draw = seat != state.dealer and player.turns == 0 and state.claims_made == 0 and discard is None
    first_discard = (
        discarder == state.dealer and state.discards_made == 0 and state.claims_made == 0 and their_draws == 0
    )
    blocked = ruleset.pass_win_restriction and player.passed_win
    if blocked and discard is not None and ruleset.pass_win_until == "discard":
        blocked = False
    unseen = _unseen(state, seat, counts, discarded)
    found: dict[int, WaitValue] = {}
    for tile in sorted(tiles):
        drawn = _hint(
            base,
            ruleset,
            tile,
            how=WinHow.SELF_DRAWN,
            first_turn=first_draw,
            tiles_left=live - own_draws,
        )
        if blocked:
            on_discard = refused(
                _replace(base, tile, WinHow.DISCARD, discarder, first_turn=False, tiles_left=0),
                WinKind.DISCARD,
                f"过胡不胡: seat {seat} passed a win and may not win on a discard until its own next "
                f"{ruleset.pass_win_until}",
            )
        else:
            on_discard = _hint(
                base,
                ruleset,
                tile,
                how=WinHow.DISCARD,
                from_seat=discarder,
                first_turn=first_discard,
                tiles_left=live - their_draws,
            )
        found[tile] = WaitValue(
            tile=tile, unseen=unseen[tile], discarder=discarder, self_drawn=drawn, discard=on_discard
        )
    return found


def _hint_tiles(state: HandState, ruleset: RuleSet, seat: int, counts: list[int]) -> set[int]:
    """The tiles that would win for ``seat`` holding ``counts``: its waits (the 赖子 as wildcards, only
    kinds of the set), and tiles whose claim alone would win (Nanjing 快照/三清)."""
    if state.laizi is None:
        tiles = set(waits(counts))
    else:
        kinds = sorted({kind for kind in ruleset.tile_set() if kind < NUM_KINDS})
        tiles = {kind for kind in kinds if counts[kind] < 4 and completes(counts, kind, state.laizi)}
    player = state.seats[seat]
    if not player.ready and ruleset.may_win_on_claim(state, seat):
        probe = copy.copy(state)
        probe.seats = list(state.seats)
        mine = copy.copy(player)
        mine.counts = counts
        probe.seats[seat] = mine
        tiles.update(kind for kind in range(NUM_KINDS) if ruleset.instant_win_on_claim(probe, seat, kind))
    return tiles


def _replace(
    base: WinSpec, tile: int, how: WinHow, from_seat: int | None, *, first_turn: bool, tiles_left: int
) -> WinSpec:
    return WinSpec(
        ruleset=base.ruleset,
        options=base.options,
        seat=base.seat,
        dealer=base.dealer,
        hand=base.hand,
        win_tile=tile,
        how=how,
        from_seat=from_seat,
        melds=base.melds,
        flowers=base.flowers,
        first_turn=first_turn,
        ready=base.ready,
        multiplier=base.multiplier,
        tiles_left=tiles_left,
        others_melds=base.others_melds,
        discarded=base.discarded,
        previous_winner=base.previous_winner,
        pizi=base.pizi,
        laid=base.laid,
    )


def _hint(
    base: WinSpec,
    ruleset: RuleSet,
    tile: int,
    *,
    how: WinHow,
    first_turn: bool,
    tiles_left: int,
    from_seat: int | None = None,
) -> Calculation:
    spec = _replace(base, tile, how, from_seat, first_turn=first_turn, tiles_left=max(tiles_left, 0))
    if tiles_left < 0:
        kind = WinKind.SELF_DRAWN if how is WinHow.SELF_DRAWN else WinKind.DISCARD
        return refused(spec, kind, "the wall runs out before that tile can come")
    return calculate(spec, ruleset, trusted=True)


def _draws_until(state: HandState, target: int, *, own: bool) -> int:
    """Draws from the wall until ``target`` holds its next tile to play (its own draw for a self-drawn
    win, or the draw before its discard), if nobody claims in between."""
    if state.phase in (Phase.CLAIM, Phase.ROB) and state.window is not None:
        discarder = state.window.discarder
        if target == discarder and not own:
            return 0  # its discard is the one open now
        return (target - discarder - 1) % SEATS + 1
    turn = state.turn
    if target == turn:
        return SEATS if own else 0  # it holds a tile now: its next draw comes after a round
    return (target - turn) % SEATS


def _unseen(state: HandState, seat: int, counts: Sequence[int], discarded: Sequence[int]) -> list[int]:
    unseen = [4 - counts[kind] for kind in range(NUM_KINDS)]
    for out in discarded:
        unseen[out] -= 1
    if state.pizi is not None:
        unseen[state.pizi] -= 1  # turned up for everyone to see
    for player in state.seats:
        for laid in player.laid:
            unseen[laid] -= 1
    for other, player in enumerate(state.seats):
        for meld in player.melds:
            if (
                other == seat
                or meld.kind is not MeldKind.CONCEALED_KONG
                or state.ruleset.concealed_kongs_public
            ):
                for tile in meld.tiles():  # as they lie: a 赖子 in a chow is a 赖子 seen
                    unseen[tile] -= 1
    return [max(count, 0) for count in unseen]


def _hint_ruleset(ruleset: RuleSet) -> RuleSet:
    """The rule set without its extras turned after the win (Nanning 摸码, 买马, 钓鱼): unknown before."""
    options = ruleset.options_dict()
    off = {"moma": 0, "maima": 0, "fishing": "off"}
    if all(options.get(key, value) == value for key, value in off.items()):
        return ruleset
    merged = {**options, **off}
    return load_ruleset(ruleset.preset, merged)
