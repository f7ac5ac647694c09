"""Helpers to set up tables and wins for rule tests."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from hupai.bots import EfficiencyBot
from hupai.bots.selfplay import acting_seat
from hupai.game.contract import ScoreSheet, WinVerdict
from hupai.game.engine import legal_actions, new_hand, release_claims, step
from hupai.game.model import HandState, Meld, MeldKind, Phase, WinContext, WinKind
from hupai.game.scripting import run_moves
from hupai.game.stacking import stack_wall
from hupai.game.view import view
from hupai.rules import load_ruleset
from hupai.tiles import parse_counts, parse_tiles


def table(
    hands: dict[int, str],
    *,
    draws: str = "",
    replacements: str = "",
    pizi: str = "",
    dealer: int = 0,
    multiplier: int = 1,
    preset: str = "nanjing",
    **options: Any,
) -> HandState:
    ruleset = load_ruleset(preset, options)
    deal, wall = stack_wall(
        ruleset, dealer=dealer, hands=hands, draws=draws, replacements=replacements, pizi=pizi
    )
    return new_hand(ruleset, dealer=dealer, deal=deal, wall=wall, multiplier=multiplier)


def efficiency_turns(
    ruleset: str, seed: int, *, seat: int | None = None, dealer: int = 0, held: bool = False
) -> Iterator[HandState]:
    """Each turn of ``seat`` (None: of every seat) in a hand played by efficiency bots: a copy of the
    state as it stood. ``held``: claim windows held as a table holds them, and released at once when
    nobody may claim (as the table replays its moves)."""
    state = new_hand(load_ruleset(ruleset), seed=seed, dealer=dealer)
    state.hold_claims = held
    players = [EfficiencyBot(seed + other) for other in range(4)]
    while state.phase is not Phase.ENDED:
        actor = acting_seat(state)
        if state.phase is Phase.TURN and seat in (None, actor):
            yield state.copy()
        legal = legal_actions(state, actor)
        step(state, players[actor].choose(view(state, actor, legal=legal), legal))
        release_claims(state)


def moved_hidden_tiles(state: HandState, seed: int) -> HandState:
    """The same table to seat 0: the tiles it cannot see (the others' concealed tiles and the wall)
    dealt about anew, each seat keeping how many it holds."""
    moved = state.copy()
    hidden = moved.wall[moved.front : moved.back + 1]
    for other in (1, 2, 3):
        for kind, copies in enumerate(moved.seats[other].counts):
            hidden.extend([kind] * copies)
    flowers = [tile for tile in hidden if moved.ruleset.is_flower(tile)]
    tiles = [tile for tile in hidden if not moved.ruleset.is_flower(tile)]
    random.Random(seed).shuffle(tiles)
    for other in (1, 2, 3):
        size = sum(moved.seats[other].counts)
        hand, tiles = tiles[:size], tiles[size:]
        moved.seats[other].counts = [hand.count(kind) for kind in range(len(moved.seats[other].counts))]
        if moved.seats[other].drawn is not None:
            moved.seats[other].drawn = hand[0]
    moved.wall[moved.front : moved.back + 1] = tiles + flowers
    return moved


def play(state: HandState, *moves: str) -> HandState:
    return run_moves(state, list(moves))


_KINDS = {
    "pung": MeldKind.PUNG,
    "kong": MeldKind.EXPOSED_KONG,
    "added": MeldKind.ADDED_KONG,
    "concealed": MeldKind.CONCEALED_KONG,
}


def judge(
    hand: str,
    tile: str,
    *,
    how: str = "self_drawn",
    melds: Sequence[tuple[str, str, int | None]] = (),
    flowers: str = "",
    seat: int = 1,
    discarder: int | None = None,
    other_melds: Sequence[tuple[int, str, str, int | None]] = (),
    ready: bool = False,
    first_turn: bool = False,
    chain: tuple[tuple[str, int | None], ...] = (),
    live: int = 50,
    multiplier: int = 1,
    preset: str = "nanjing",
    **options: Any,
) -> WinVerdict:
    """Judge a win of ``hand`` (concealed tiles including the winning ``tile``) at an otherwise quiet
    table: melds as (kind, tile, feeder), flowers in notation."""
    state = new_hand(load_ruleset(preset, options), dealer=0, seed=1, multiplier=multiplier)
    for player in state.seats:
        player.counts = [0] * 34
        player.melds = []
        player.flowers = []
    player = state.seats[seat]
    player.counts = parse_counts(hand)
    player.flowers = parse_tiles(flowers)
    player.ready = ready
    for order, (meld_kind, meld_tile, feeder) in enumerate(melds):
        player.melds.append(Meld(_KINDS[meld_kind], parse_tiles(meld_tile)[0], feeder, order))
    for other, meld_kind, meld_tile, feeder in other_melds:
        others = state.seats[other].melds
        others.append(Meld(_KINDS[meld_kind], parse_tiles(meld_tile)[0], feeder, len(others)))
    kind = WinKind(how)
    if kind is not WinKind.SELF_DRAWN and discarder is None:
        discarder = (seat + 3) % 4
    context = WinContext(
        seat=seat,
        tile=parse_tiles(tile)[0],
        kind=kind,
        discarder=discarder,
        counts=tuple(player.counts),
        replacement_chain=chain,
        first_turn=first_turn,
        live_tiles=live,
    )
    return state.ruleset.judge_win(state, context)


def sheet_of(verdict: WinVerdict) -> ScoreSheet:
    assert verdict.allowed, verdict.reason
    assert verdict.sheet is not None
    return verdict.sheet


def items(verdict: WinVerdict) -> dict[str, int]:
    return {entry.key: entry.value for entry in sheet_of(verdict).items}


def win_items(state: HandState, index: int = 0) -> dict[str, int]:
    return {entry.key: entry.value for entry in state.wins[index].sheet.items}


def transfers(state: HandState) -> list[tuple[int, int, int, str]]:
    return [(t.payer, t.payee, t.amount, t.reason) for t in state.transfers]


def needs_train_extra() -> None:
    """Skip the test (counted in the run's summary) without scikit-learn, the ``train`` extra."""
    pytest.importorskip(
        "sklearn", reason="no scikit-learn: the train extra's tests need it (make test-extras)"
    )
