"""The deterministic table: dealing, flowers, draws, discards, claims, kongs, robbing, wins and draws.

The public functions follow the query / check / act pattern:

* :func:`legal_actions` lists what a seat may do now;
* :func:`verify` raises :class:`IllegalAction` with a reason a player understands;
* :func:`step` applies an action and returns the state with the events it produced.

Rules (what is worth what, who pays) come from the state's :class:`~hupai.game.contract.RuleSet`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import compress
from typing import Final

from hupai.game.actions import Action, Chow, DeclareReady, Discard, Kong, Lay, Pass, Pong, Win
from hupai.game.contract import RuleSet, ScoreSheet, Transfer, WinVerdict
from hupai.game.events import (
    Chowed,
    ConcealedKongDeclared,
    Event,
    FlowerRevealed,
    HandEnded,
    HandStarted,
    KongAdded,
    KongClaimed,
    KongRobbed,
    Passed,
    PaymentMade,
    PiziRevealed,
    Ponged,
    ReadyDeclared,
    TileDiscarded,
    TileDrawn,
    TileLaid,
    TilesDealt,
    Won,
)
from hupai.game.model import (
    SEATS,
    ClaimWindow,
    DrawSource,
    HandState,
    Meld,
    MeldKind,
    Phase,
    SeatState,
    WinContext,
    WinKind,
    WinResult,
    next_seat,
)
from hupai.game.refusal import NOT_COMPLETE, Refusal
from hupai.hand import waits
from hupai.tiles import NUM_KINDS, format_tiles, tile_name

ScoredWin = tuple[WinContext, ScoreSheet]
"""A win and its score."""

__all__ = [
    "IllegalAction",
    "InvalidDeal",
    "deal_in_order",
    "ended_refusal",
    "held_open",
    "legal_actions",
    "new_hand",
    "release_claims",
    "step",
    "verify",
    "win_refusal",
]

DEALER_TILES: Final = 14
HAND_TILES: Final = 13
# Actions are immutable values: the engine offers ones made once and shared.
_DISCARDS: Final = tuple(
    tuple(Discard(seat=seat, tile=kind) for kind in range(NUM_KINDS)) for seat in range(SEATS)
)
_OWN_KONGS: Final = tuple(
    tuple(Kong(seat=seat, tile=kind) for kind in range(NUM_KINDS)) for seat in range(SEATS)
)
_LAYS: Final = tuple(tuple(Lay(seat=seat, tile=kind) for kind in range(NUM_KINDS)) for seat in range(SEATS))
_CHOWS: Final = tuple(tuple(Chow(seat=seat, tile=kind) for kind in range(NUM_KINDS)) for seat in range(SEATS))
_WINS: Final = tuple(Win(seat=seat) for seat in range(SEATS))
_PASSES: Final = tuple(Pass(seat=seat) for seat in range(SEATS))
_PONGS: Final = tuple(Pong(seat=seat) for seat in range(SEATS))
_CLAIM_KONGS: Final = tuple(Kong(seat=seat) for seat in range(SEATS))
_READY: Final = tuple(DeclareReady(seat=seat) for seat in range(SEATS))


class IllegalAction(ValueError):
    """An action the table refuses, with a reason a player understands."""


class InvalidDeal(ValueError):
    """A deal and wall that are not exactly the rule set's tiles, or a malformed deal."""


# --- starting a hand -----------------------------------------------------------------------


def shuffle(tiles: list[int], rng: random.Random) -> None:
    """Shuffle ``tiles`` in place exactly as ``rng.shuffle`` does (Fisher-Yates, each index drawn by
    rejection from ``getrandbits``), written out so that the compiled build runs it compiled and a
    seed deals the same hand whatever Python's own shuffle becomes."""
    getrandbits = rng.getrandbits
    for last in range(len(tiles) - 1, 0, -1):
        size = last + 1
        bits = size.bit_length()
        pick = getrandbits(bits)
        while pick >= size:
            pick = getrandbits(bits)
        tiles[last], tiles[pick] = tiles[pick], tiles[last]


def shuffled_deal(ruleset: RuleSet, dealer: int, seed: int) -> tuple[list[list[int]], list[int]]:
    """The deal and wall a seed gives: shuffle the set, 14 to the dealer, 13 each in turn order."""
    tiles = ruleset.tile_set()
    shuffle(tiles, random.Random(seed))
    return deal_in_order(dealer, tiles)


def deal_in_order(dealer: int, tiles: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """Deal tiles in the order given: 14 to the dealer, 13 each in turn order, the rest the wall."""
    deal: list[list[int]] = [[] for _ in range(SEATS)]
    position = 0
    for offset in range(SEATS):
        seat = next_seat(dealer, offset)
        size = DEALER_TILES if seat == dealer else HAND_TILES
        deal[seat] = list(tiles[position : position + size])
        position += size
    return deal, list(tiles[position:])


def new_hand(
    ruleset: RuleSet,
    *,
    dealer: int = 0,
    seed: int | None = None,
    deal: Sequence[Sequence[int]] | None = None,
    wall: Sequence[int] | None = None,
    multiplier: int = 1,
    previous_winner: int | None = None,
) -> HandState:
    """Deal a hand from a seed, or from an explicit deal and wall (as a record gives them).

    Flowers are then replaced from the back of the wall in rounds, dealer first and then in turn
    order, until nobody holds a flower.
    """
    if not 0 <= dealer < SEATS:
        raise InvalidDeal(f"the dealer is seat 0-3, not {dealer}")
    if deal is None or wall is None:
        if deal is not None or wall is not None:
            raise InvalidDeal("give both a deal and a wall, or a seed")
        deal, wall = shuffled_deal(ruleset, dealer, 0 if seed is None else seed)
    _check_deal(ruleset, dealer, deal, wall)
    seats = [SeatState() for _ in range(SEATS)]
    state = HandState(
        ruleset=ruleset,
        dealer=dealer,
        wall=list(wall),
        front=0,
        back=len(wall) - 1 - ruleset.set_aside_tiles,
        seats=seats,
        phase=Phase.TURN,
        turn=dealer,
        multiplier=multiplier,
        deal=tuple(tuple(tiles) for tiles in deal),
        previous_winner=previous_winner,
    )
    events: list[Event] = [HandStarted(dealer, multiplier, len(wall))]
    held_flowers: list[list[int]] = [[] for _ in range(SEATS)]
    for seat, tiles in enumerate(deal):
        events.append(TilesDealt(seat, tuple(tiles), len(tiles)))
        for tile in tiles:
            if ruleset.is_flower(tile):
                held_flowers[seat].append(tile)
            else:
                seats[seat].counts[tile] += 1
    if ruleset.indicator is not None:
        # Enshi: a tile is turned up (痞子) and set aside for the hand; its successor is wild (赖子).
        state.pizi = _take(state, replacement=ruleset.indicator == "back")
        state.laizi = ruleset.wild_of(state.pizi)
        events.append(PiziRevealed(state.pizi, state.laizi))
    # Opening flower replacement, round by round.
    while any(held_flowers):
        for offset in range(SEATS):
            seat = next_seat(dealer, offset)
            pending, held_flowers[seat] = held_flowers[seat], []
            for flower in pending:
                _reveal_flower(state, seat, flower, events)
                if state.live_tiles <= 0:
                    _end_draw(state, events)
                    state.events.extend(events)
                    return state
                tile = _take(state, replacement=True)
                events.append(TileDrawn(seat, tile, True))
                if ruleset.is_flower(tile):
                    held_flowers[seat].append(tile)
                else:
                    seats[seat].counts[tile] += 1
    state.events.extend(events)
    state.replacement_chain.clear()  # opening replacements are not a 杠开
    if ruleset.ready_declaration:
        options: dict[int, list[Action]] = {
            seat: [_READY[seat], _PASSES[seat]]
            for seat in range(SEATS)
            if seat != dealer and waits(seats[seat].counts)
        }
        if options:
            state.phase = Phase.DECLARE
            state.window = ClaimWindow(discarder=dealer, tile=-1, options=options)
    return state


def _check_deal(ruleset: RuleSet, dealer: int, deal: Sequence[Sequence[int]], wall: Sequence[int]) -> None:
    if len(deal) != SEATS:
        raise InvalidDeal(f"a deal has {SEATS} hands, not {len(deal)}")
    for seat, tiles in enumerate(deal):
        expected = DEALER_TILES if seat == dealer else HAND_TILES
        if len(tiles) != expected:
            raise InvalidDeal(f"seat {seat} is dealt {len(tiles)} tiles; it should have {expected}")
    every = [tile for hand in deal for tile in hand]
    every.extend(wall)
    every.sort()
    if every == sorted(ruleset.tile_set()):
        return
    given = Counter(every)
    expected_set = Counter(ruleset.tile_set())
    if given != expected_set:
        missing = expected_set - given
        extra = given - expected_set
        parts = []
        if missing:
            parts.append("missing " + format_tiles(sorted(missing.elements())))
        if extra:
            parts.append("extra " + format_tiles(sorted(extra.elements())))
        raise InvalidDeal(f"deal + wall must be exactly the {ruleset.name} set of tiles: {'; '.join(parts)}")


# --- the wall and flowers ------------------------------------------------------------------


def _take(state: HandState, *, replacement: bool) -> int:
    if replacement:
        tile = state.wall[state.back]
        state.back -= 1
    else:
        tile = state.wall[state.front]
        state.front += 1
    return tile


def _reveal_flower(state: HandState, seat: int, flower: int, events: list[Event]) -> None:
    flowers = state.seats[seat].flowers
    before = len(state.ruleset.flower_kongs(flowers))
    flowers.append(flower)
    events.append(FlowerRevealed(seat, flower))
    if len(state.ruleset.flower_kongs(flowers)) > before:
        state.flower_kongs += 1
        state.replacement_chain.append(("flower_kong", None))
        _pay(state, state.ruleset.flower_kong_transfers(state, seat, flowers), events)
    else:
        state.replacement_chain.append(("flower", None))


def _pay(state: HandState, transfers: Sequence[Transfer], events: list[Event]) -> None:
    for transfer in transfers:
        if not transfer.amount:
            continue  # a house option set to 0 (杠钱 0, 杠分 0): nothing is paid, nothing shown
        state.transfers.append(transfer)
        events.append(PaymentMade(transfer))


def _draw(state: HandState, seat: int, *, replacement: bool, events: list[Event]) -> None:
    """Draw for ``seat`` (flowers revealed and replaced); ends the hand as a draw when the wall is out."""
    if not replacement:
        state.replacement_chain.clear()
    player = state.seats[seat]
    while True:
        if state.live_tiles <= 0:
            _end_draw(state, events)
            return
        tile = _take(state, replacement=replacement)
        events.append(TileDrawn(seat, tile, replacement))
        if not state.ruleset.is_flower(tile):
            break
        _reveal_flower(state, seat, tile, events)
        replacement = True
    player.counts[tile] += 1
    player.drawn = tile
    if state.ruleset.pass_win_until == "draw":
        player.passed_win = False  # 卖胡 lasts until the seat's own next draw
    state.last_drawer = seat
    state.turn = seat
    state.phase = Phase.TURN
    state.window = None
    state.draw_source = DrawSource.REPLACEMENT if replacement else DrawSource.WALL


# --- what a seat may do ----------------------------------------------------------------------


def legal_actions(state: HandState, seat: int) -> list[Action]:
    """Everything ``seat`` may do now (an empty list when it has nothing to decide)."""
    if state.phase in (Phase.CLAIM, Phase.ROB, Phase.DECLARE):
        window = state.window
        if window is None or seat not in window.options or seat in window.decisions:
            return []
        return list(window.options[seat])
    if state.phase is not Phase.TURN or seat != state.turn:
        return []
    return _turn_actions(state, seat)


def _turn_actions(state: HandState, seat: int) -> list[Action]:
    player = state.seats[seat]
    ruleset = state.ruleset
    counts = player.counts
    wild = state.pizi is not None  # Enshi: 痞子 and 赖子 leave the hand only by laying
    lays: list[Action] = [_LAYS[seat][kind] for kind in ruleset.layable(state, seat)] if wild else []
    if lays and ruleset.must_lay(state, seat):
        return lays
    actions: list[Action] = []
    if _may_win_on_turn(state) and _complete(state, seat) and _judge_self_drawn(state, seat).allowed:
        actions.append(_WINS[seat])
    discards = _DISCARDS[seat]
    if player.ready and player.drawn is not None:
        actions.append(discards[player.drawn])
    elif wild:  # only the 痞子 and 赖子 kinds can be refused as discards
        allowed = list(compress(discards, counts))
        for kind in (state.pizi, state.laizi):
            if kind is not None and counts[kind] and not ruleset.may_discard(state, seat, kind):
                allowed.remove(discards[kind])
        actions.extend(allowed)
    else:
        actions.extend(compress(discards, counts))  # one discard per kind held
    if state.live_tiles > 0:
        kongs = [kind for kind in range(NUM_KINDS) if counts[kind] == 4] if 4 in counts else []
        kongs += [meld.tile for meld in player.melds if meld.kind is MeldKind.PUNG and counts[meld.tile]]
        if kongs:
            if player.ready:
                kongs = [kind for kind in kongs if ruleset.ready_kong_allowed(state, seat, kind)]
            if wild:
                kongs = [kind for kind in kongs if ruleset.may_kong(state, seat, kind)]
            own_kongs = _OWN_KONGS[seat]
            actions.extend(own_kongs[kind] for kind in kongs)
    actions.extend(lays)
    return actions


def _may_win_on_turn(state: HandState) -> bool:
    """A self-drawn win needs a draw, except the dealer's very first turn (天胡)."""
    return state.draw_source is not DrawSource.NONE or _is_first_turn(state)


def _is_first_turn(state: HandState) -> bool:
    return (
        state.turn == state.dealer
        and state.discards_made == 0
        and state.claims_made == 0
        and (state.draw_source is DrawSource.NONE)
    )


def _judge_self_drawn(state: HandState, seat: int) -> WinVerdict:
    """The verdict on a self-drawn win now, remembered until the next event: listing the legal actions
    scores a complete hand, and the win itself, if taken, is that score."""
    context = _self_drawn_context(state, seat)
    remembered = state.turn_win
    if remembered is not None and remembered[0] == len(state.events) and remembered[1] == context:
        return remembered[2]
    verdict = state.ruleset.judge_win(state, context)
    state.turn_win = (len(state.events), context, verdict)
    return verdict


def _self_drawn_context(state: HandState, seat: int) -> WinContext:
    player = state.seats[seat]
    return WinContext(
        seat=seat,
        tile=player.drawn if player.drawn is not None else _any_tile(player.counts),
        kind=WinKind.SELF_DRAWN,
        discarder=None,
        counts=tuple(player.counts),
        replacement_chain=tuple(state.replacement_chain)
        if state.draw_source is DrawSource.REPLACEMENT
        else (),
        first_turn=_is_first_turn(state),
        live_tiles=state.live_tiles,
    )


def _any_tile(counts: Sequence[int]) -> int:
    return next(kind for kind in range(NUM_KINDS) if counts[kind])


def _claim_context(state: HandState, seat: int, tile: int, discarder: int, kind: WinKind) -> WinContext:
    counts = list(state.seats[seat].counts)
    if kind is not WinKind.INSTANT:
        counts[tile] += 1
    return WinContext(
        seat=seat,
        tile=tile,
        kind=kind,
        discarder=discarder,
        counts=tuple(counts),
        replacement_chain=tuple(state.replacement_chain),  # the discarder's (or robbed player's) kongs
        live_tiles=state.live_tiles,
    )


def _claim_options(
    state: HandState, discarder: int, tile: int, completes: Sequence[bool], wins: dict[int, ScoredWin]
) -> dict[int, list[Action]]:
    """Each seat's decisions on a discard; ``completes[seat]``: whether the tile completes its hand.
    The win each seat is offered goes into ``wins``."""
    ruleset = state.ruleset
    options: dict[int, list[Action]] = {}
    for offset in range(1, SEATS):
        seat = next_seat(discarder, offset)
        player = state.seats[seat]
        held = player.counts[tile]
        seat_options: list[Action] = []
        may_win = not (ruleset.pass_win_restriction and player.passed_win)
        instant = _instant(state, seat, tile)
        if may_win and (instant or completes[seat]):
            best = _best_claim_win(state, seat, tile, discarder, instant=instant, completes=completes[seat])
            if best is not None:
                wins[seat] = best
                seat_options.append(_WINS[seat])
        if held >= 2 and not player.ready and not instant and ruleset.may_kong(state, seat, tile):
            if not (ruleset.pass_pung_restriction and tile in player.passed_pungs):
                seat_options.append(_PONGS[seat])
            if held == 3 and state.live_tiles > 0:
                seat_options.append(_CLAIM_KONGS[seat])
        if ruleset.chow and offset == 1 and not player.ready and not instant:
            chows = _CHOWS[seat]
            seat_options.extend(chows[low] for low in ruleset.chow_options(state, seat, tile))
        if seat_options:
            seat_options.append(_PASSES[seat])
            options[seat] = seat_options
    return options


def _best_claim_win(
    state: HandState, seat: int, tile: int, discarder: int, *, instant: bool, completes: bool | None = None
) -> ScoredWin | None:
    """The win a discard gives ``seat``, if any, with its score: an ordinary win on it, or a claim that
    wins at once (Nanjing 快照 / 三清) — whichever pays the winner more when both are possible.
    ``completes``: whether the tile completes the hand, when the caller knows."""
    best: tuple[int, ScoredWin] | None = None
    if completes is None:
        completes = _completes(state, seat, tile)
    kinds = [WinKind.DISCARD] if completes else []
    if instant:
        kinds.append(WinKind.INSTANT)
    for kind in kinds:
        context = _claim_context(state, seat, tile, discarder, kind)
        verdict = state.ruleset.judge_win(state, context)
        if not verdict.allowed or verdict.sheet is None:
            continue
        if len(kinds) > 1:
            paid = sum(
                t.amount
                for t in state.ruleset.win_transfers(state, context, verdict.sheet)
                if t.payee == seat
            )
        else:
            paid = 0
        if best is None or paid > best[0]:
            best = (paid, (context, verdict.sheet))
    return best[1] if best is not None else None


def _instant(state: HandState, seat: int, tile: int) -> bool:
    """Whether a claim of ``tile`` by ``seat`` is itself a win (Nanjing 快照 / 三清)."""
    return not state.seats[seat].ready and state.ruleset.instant_win_on_claim(state, seat, tile)


def _completes(state: HandState, seat: int, tile: int) -> bool:
    """Whether ``tile`` would complete ``seat``'s hand (the rule set judges wildcards)."""
    counts = state.seats[seat].counts
    if counts[tile] >= 4:
        return False
    counts[tile] += 1
    try:
        return state.ruleset.is_complete(state, seat, counts)
    finally:
        counts[tile] -= 1


def _complete(state: HandState, seat: int) -> bool:
    return state.ruleset.is_complete(state, seat, state.seats[seat].counts)


# --- checking --------------------------------------------------------------------------------


def verify(state: HandState, action: Action) -> None:
    """Raise :class:`IllegalAction` unless ``action`` is legal now."""
    if _plainly_legal(state, action) or action in legal_actions(state, action.seat):
        return
    raise IllegalAction(_refusal(state, action))


def _plainly_legal(state: HandState, action: Action) -> bool:
    """The common cases, checked without listing every legal action: a decision on an open window,
    and an ordinary discard on one's turn."""
    window = state.window
    if window is not None and state.phase is not Phase.TURN:
        options = window.options.get(action.seat)
        return options is not None and action.seat not in window.decisions and action in options
    if isinstance(action, Discard) and state.phase is Phase.TURN and action.seat == state.turn:
        player = state.seats[action.seat]
        if not 0 <= action.tile < NUM_KINDS or not player.counts[action.tile]:
            return False
        if player.ready:
            return action.tile == player.drawn
        if state.pizi is not None:  # 痞子/赖子: a lay may come first, and they are not discarded
            ruleset = state.ruleset
            return not ruleset.must_lay(state, action.seat) and ruleset.may_discard(
                state, action.seat, action.tile
            )
        return True
    return False


def ended_refusal(state: HandState) -> str:
    """Why nothing more can be done in an ended hand, naming the rule that ended a draw early."""
    if state.outcome != "draw":
        return "the hand is over"
    reserved = state.ruleset.reserved_tiles
    kept = f", its last {reserved} tiles reserved and never drawn (留牌 reserved_tiles)" if reserved else ""
    return f"the hand is over: the wall ran out (荒庄){kept}"


def _refusal(state: HandState, action: Action) -> str:
    seat = action.seat
    if state.phase is Phase.ENDED:
        return ended_refusal(state)
    if isinstance(action, Chow) and not state.ruleset.chow:
        return "不能吃: this table plays without chows (option chow is off)"
    if state.phase in (Phase.CLAIM, Phase.ROB, Phase.DECLARE):
        window = state.window
        assert window is not None
        if seat in window.decisions:
            return f"seat {seat} has already decided"
        if isinstance(action, Win) and state.phase is not Phase.DECLARE and seat != window.discarder:
            reason = _win_refusal(state, seat, window.tile, claim=True)
            if reason:
                return reason
        if (
            isinstance(action, Pong)
            and state.phase is Phase.CLAIM
            and window.tile in state.seats[seat].passed_pungs
        ):
            return passed_pong_refusal(seat, window.tile)
        if seat not in window.options:
            what = {Phase.CLAIM: "this discard", Phase.ROB: "this kong", Phase.DECLARE: "报听 now"}[
                state.phase
            ]
            return f"seat {seat} has no decision to make on {what}"
        allowed = ", ".join(sorted({option.act for option in window.options[seat]}))
        return f"seat {seat} may only: {allowed}"
    if seat != state.turn:
        return f"it is seat {state.turn}'s turn, not seat {seat}'s"
    player = state.seats[seat]
    if state.pizi is not None and state.ruleset.must_lay(state, seat) and not isinstance(action, Lay):
        return "禁止养痞: lay your 痞子 first"
    if isinstance(action, Discard):
        if not player.counts[action.tile]:
            return f"seat {seat} does not hold {tile_name(action.tile)} ({format_tiles([action.tile])})"
        refusal = state.ruleset.discard_refusal(state, seat, action.tile)
        if refusal:
            return refusal
        if player.ready:
            return (
                "after 报听 the hand is locked: discard the tile just drawn "
                f"({format_tiles([player.drawn]) if player.drawn is not None else '-'})"
            )
    if isinstance(action, Win):
        return _win_refusal(state, seat, None, claim=False) or "no win here"
    if isinstance(action, Kong):
        if action.tile is None:
            return "on your own turn a kong names its tile"
        if player.ready:
            return state.ruleset.ready_kong_refusal(state, seat, action.tile)
        if state.live_tiles <= 0:
            return "no kong at the end of the wall: there is no tile left to replace it (海底不能杠)"
        return f"seat {seat} cannot kong {tile_name(action.tile)}: it needs four in hand or a pung plus one"
    if isinstance(action, Lay):
        if state.pizi is None:
            return "only Enshi tables lay 痞子 or 赖子"
        if action.tile not in (state.pizi, state.laizi):
            return f"only a 痞子 ({tile_name(state.pizi)}) or 赖子 ({tile_name(state.laizi or 0)}) is laid"
        if not player.counts[action.tile]:
            return f"seat {seat} does not hold {tile_name(action.tile)}"
        if state.live_tiles <= 0:
            return "no lay at the end of the wall: there is no tile left to replace it"
        return f"seat {seat} may not lay {tile_name(action.tile)} now"
    if isinstance(action, Pong | Pass | Chow):
        return "there is no discard to claim or pass on"
    if isinstance(action, DeclareReady):
        return "报听 is declared before play, by a non-dealer whose first 13 tiles are ready"
    return "not allowed now"


def passed_pong_refusal(seat: int, tile: int) -> str:
    """Why ``seat`` may not pong ``tile`` now: it passed a pong of it (过碰不碰)."""
    return (
        f"seat {seat} passed a pong of {tile_name(tile)} and may not pong it "
        "until after its own next discard (过碰不碰)"
    )


def _win_refusal(
    state: HandState, seat: int, tile: int | None, *, claim: bool, discarder: int | None = None
) -> str:
    player = state.seats[seat]
    if claim and tile is not None:
        if state.ruleset.pass_win_restriction and player.passed_win:
            until = state.ruleset.pass_win_until
            return Refusal(
                f"seat {seat} passed a win and may not win on a discard until its own next "
                f"{until} (过胡不胡)",
                f"passed_win_until_{until}",
            )
        if not _completes(state, seat, tile):
            counts = list(player.counts)
            counts[tile] += 1
            shape = state.ruleset.shape_refusal(state, seat, counts)  # e.g. 有痞子不能胡, not 诈胡
            return shape or Refusal(
                f"诈胡: {tile_name(tile)} does not complete seat {seat}'s hand",
                "tile_does_not_complete",
                tile=format_tiles([tile]),
            )
        verdict = state.ruleset.judge_win(
            state,
            _claim_context(
                state,
                seat,
                tile,
                discarder if discarder is not None else state.window.discarder if state.window else 0,
                WinKind.DISCARD,
            ),
        )
        return verdict.reason
    if not _may_win_on_turn(state):
        return Refusal("a win on your own turn needs a tile you drew (not a claimed one)", "claimed_tile")
    if not _complete(state, seat):
        shape = state.ruleset.shape_refusal(state, seat, list(player.counts))
        return shape or NOT_COMPLETE
    return _judge_self_drawn(state, seat).reason


def win_refusal(state: HandState, seat: int) -> str | None:
    """Why ``seat`` may not win now although its hand is complete — on its own turn, with the tile
    open to claims, or with the last discard when play moved straight on — e.g. Nanjing's
    小胡需门清或4个硬花 or 过胡不胡. None when the hand is not complete or the win is allowed. Players
    are shown this instead of a missing 胡 button."""
    window = state.window
    counts = state.seats[seat].counts
    if state.phase is Phase.TURN:
        if seat != state.turn or not _complete(state, seat):
            shape = state.ruleset.shape_refusal(state, seat, counts) if seat == state.turn else ""
            # else: the discard just let go completed this hand, but nobody could claim it
            return shape or state.refused_wins.get(seat)
        if Win(seat=seat) in legal_actions(state, seat):
            return None
        return _win_refusal(state, seat, None, claim=False)
    if state.phase in (Phase.CLAIM, Phase.ROB) and window is not None and seat != window.discarder:
        if not _completes(state, seat, window.tile):
            if counts[window.tile] >= 4:
                return None
            counts[window.tile] += 1
            try:
                return state.ruleset.shape_refusal(state, seat, counts) or None
            finally:
                counts[window.tile] -= 1
        if Win(seat=seat) in window.options.get(seat, ()):
            return None
        return _win_refusal(state, seat, window.tile, claim=True) or None
    return None


# --- acting ------------------------------------------------------------------------------------


def step(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """Apply ``action`` (after :func:`verify`) and return the state and the events it produced."""
    verify(state, action)
    state.actions.append(action)
    events: list[Event] = []
    if state.phase in (Phase.CLAIM, Phase.ROB, Phase.DECLARE):
        window = state.window
        assert window is not None
        window.decisions[action.seat] = action
        if isinstance(action, Pass):
            events.append(Passed(action.seat))
        if len(window.decisions) == len(window.options):
            if state.phase is Phase.DECLARE:
                _resolve_declarations(state, window, events)
            elif state.phase is Phase.ROB:
                _resolve_rob(state, window, events)
            else:
                _resolve_claims(state, window, events)
    elif isinstance(action, Discard):
        _discard(state, action.seat, action.tile, events)
    elif isinstance(action, Win):
        _win_self_drawn(state, action.seat, events)
    elif isinstance(action, Kong):
        assert action.tile is not None
        _own_kong(state, action.seat, action.tile, events)
    elif isinstance(action, Lay):
        _lay(state, action.seat, action.tile, events)
    state.events.extend(events)
    return state, events


def _lay(state: HandState, seat: int, tile: int, events: list[Event]) -> None:
    """下痞子/下赖子: the tile goes face up beside the melds (nobody may claim it), a replacement comes
    from the back, and the turn goes on — a win on it is a 杠开."""
    player = state.seats[seat]
    player.counts[tile] -= 1
    player.laid.append(tile)
    player.drawn = None
    kind = "pizi" if tile == state.pizi else "laizi"
    events.append(TileLaid(seat, tile, kind, state.ruleset.seat_multiplier(state, seat)))
    state.replacement_chain.append(("lay", None))
    _draw(state, seat, replacement=True, events=events)


def _resolve_declarations(state: HandState, window: ClaimWindow, events: list[Event]) -> None:
    for seat in sorted(window.decisions):
        if isinstance(window.decisions[seat], DeclareReady):
            state.seats[seat].ready = True
            events.append(ReadyDeclared(seat))
    state.window = None
    state.phase = Phase.TURN
    state.turn = state.dealer


def _discard(state: HandState, seat: int, tile: int, events: list[Event]) -> None:
    player = state.seats[seat]
    player.counts[tile] -= 1
    player.discards.append(tile)
    player.discard_claimed.append(False)
    player.discard_from_draw.append(player.drawn == tile)
    player.discard_order.append(state.discards_made)
    player.discarded_kinds[tile] += 1
    player.turns += 1
    if state.ruleset.pass_win_until == "discard":
        player.passed_win = False
    player.passed_pungs.clear()
    player.drawn = None
    state.discards_made += 1
    events.append(TileDiscarded(seat, tile))
    chain = state.follow_chain
    if chain is not None and chain[0] == tile and seat == next_seat(chain[3]):
        state.follow_chain = (tile, chain[1], chain[2] + 1, seat)
    else:
        state.follow_chain = (tile, seat, 1, seat)
    _pay(state, state.ruleset.discard_transfers(state, seat, tile), events)
    if state.follow_chain[2] >= SEATS:
        state.follow_chain = None  # a completed run of four starts afresh
    # A 痞子/赖子 let go at the end of the wall (Enshi) is no discard anyone may take.
    wild = state.pizi is not None and tile in (state.pizi, state.laizi)
    if wild:
        options: dict[int, list[Action]] = {}
        state.refused_wins = {}
    else:
        completes = [seat != other and _completes(state, other, tile) for other in range(SEATS)]
        wins: dict[int, ScoredWin] = {}
        options = _claim_options(state, seat, tile, completes, wins)
        # Seats the tile completes but who are offered no win are told why (and a record that has
        # them win here is refused with that rule), whether or not a window opens for others.
        refused = any(complete and other not in wins for other, complete in enumerate(completes))
        state.refused_wins = _refused_wins(state, seat, tile, completes, wins) if refused else {}
    if options or state.hold_claims:
        state.phase = Phase.CLAIM
        state.window = ClaimWindow(discarder=seat, tile=tile, options=options, wins=wins if options else {})
        return
    _draw(state, next_seat(seat), replacement=False, events=events)


def held_open(state: HandState) -> bool:
    """Whether a claim (or robbing) window is open that waits on nobody: one ``hold_claims`` keeps
    open until :func:`release_claims`."""
    window = state.window
    return state.phase in (Phase.CLAIM, Phase.ROB) and window is not None and not window.options


def release_claims(state: HandState) -> list[Event]:
    """Close a held window that waits on nobody, exactly as if everyone had passed: the next seat
    draws (a held added kong is completed). Does nothing otherwise; returns the events."""
    if not held_open(state):
        return []
    window = state.window
    assert window is not None
    events: list[Event] = []
    if state.phase is Phase.ROB:
        _resolve_rob(state, window, events)
    else:
        _resolve_claims(state, window, events)
    state.events.extend(events)
    return events


def _refused_wins(
    state: HandState, discarder: int, tile: int, completes: Sequence[bool], offered: Mapping[int, object]
) -> dict[int, str]:
    """Seats whose hands ``tile`` completes (``completes[seat]``) but who may not win on it (not among
    ``offered``), with the rules' reasons — kept so each can be told why."""
    refused: dict[int, str] = {}
    for offset in range(1, SEATS):
        seat = next_seat(discarder, offset)
        if completes[seat] and seat not in offered:
            reason = _win_refusal(state, seat, tile, claim=True, discarder=discarder)
            if reason:
                refused[seat] = reason
    return refused


def _resolve_claims(state: HandState, window: ClaimWindow, events: list[Event]) -> None:
    discarder, tile = window.discarder, window.tile
    order = [next_seat(discarder, offset) for offset in range(1, SEATS)]
    winners = [seat for seat in order if isinstance(window.decisions.get(seat), Win)]
    for seat in order:
        decision = window.decisions.get(seat)
        offered = window.options.get(seat, [])
        # Taking anything but an offered win (a pass, a pong, a kong) lets the win go.
        if (
            decision is not None
            and not isinstance(decision, Win)
            and any(isinstance(o, Win) for o in offered)
        ):
            state.seats[seat].passed_win = True
        if isinstance(decision, Pass) and any(isinstance(option, Pong) for option in offered):
            state.seats[seat].passed_pungs.add(tile)
    state.window = None
    if winners:
        if not state.ruleset.multi_ron:
            winners = winners[:1]
        results: list[tuple[WinContext, ScoreSheet | None]] = []
        for seat in winners:
            # Scored when the window opened; nothing a score depends on has changed since.
            best = window.wins.get(seat) or _best_claim_win(
                state, seat, tile, discarder, instant=_instant(state, seat, tile)
            )
            assert best is not None
            results.append(best)
        _finish_wins(state, results, events)
        return
    claimer = next((seat for seat in order if isinstance(window.decisions.get(seat), Pong | Kong)), None)
    if claimer is None:
        claimer = next((seat for seat in order if isinstance(window.decisions.get(seat), Chow)), None)
    if claimer is None:
        _draw(state, next_seat(discarder), replacement=False, events=events)
        return
    _take_claim(state, window, claimer, events)


def _take_claim(state: HandState, window: ClaimWindow, claimer: int, events: list[Event]) -> None:
    """The open discard becomes ``claimer``'s pung, chow or kong."""
    discarder, tile, decision = window.discarder, window.tile, window.decisions[claimer]
    player = state.seats[claimer]
    state.seats[discarder].discard_claimed[-1] = True
    state.claims_made += 1
    state.follow_chain = None
    if isinstance(decision, Pong | Chow):
        if isinstance(decision, Chow):
            run = list(MeldKind.CHOW.tiles(decision.tile))
            run.remove(tile)
            laizi, laizi_for = state.laizi, None
            for kind in run:
                # A missing tile is filled by a 赖子 where the rules let wildcards into melds (the rule
                # set offered the chow only then); a held 痞子 or 赖子 is no natural tile of the run,
                # so the 赖子 stands in for it too, and the meld records which kind it stands for.
                if laizi is None or (player.counts[kind] and kind not in (laizi, state.pizi)):
                    player.counts[kind] -= 1
                else:
                    player.counts[laizi] -= 1
                    laizi_for = kind
            used = laizi if laizi_for is not None else None
            order = len(player.melds)
            player.melds.append(Meld(MeldKind.CHOW, decision.tile, discarder, order, tile, laizi_for, used))
            events.append(Chowed(claimer, decision.tile, tile, discarder, laizi_for, used))
        else:
            player.counts[tile] -= 2
            player.melds.append(Meld(MeldKind.PUNG, tile, discarder, len(player.melds)))
            events.append(Ponged(claimer, tile, discarder))
        state.turn = claimer
        state.phase = Phase.TURN
        state.draw_source = DrawSource.NONE
        state.replacement_chain.clear()
        player.drawn = None
        return
    player.counts[tile] -= 3
    player.melds.append(Meld(MeldKind.EXPOSED_KONG, tile, discarder, len(player.melds)))
    events.append(KongClaimed(claimer, tile, discarder))
    # A kong on a discard starts the claimer's own row: the discarder's kongs before it are not the
    # claimer's, so they must not decide who pays this kong (the discarder does).
    state.replacement_chain.clear()
    _pay(state, state.ruleset.kong_transfers(state, claimer, len(player.melds) - 1), events)
    state.replacement_chain.append(("kong", discarder))
    _draw(state, claimer, replacement=True, events=events)


def _own_kong(state: HandState, seat: int, tile: int, events: list[Event]) -> None:
    player = state.seats[seat]
    if player.counts[tile] == 4:
        player.counts[tile] = 0
        player.melds.append(Meld(MeldKind.CONCEALED_KONG, tile, None, len(player.melds)))
        events.append(ConcealedKongDeclared(seat, tile))
        _pay(state, state.ruleset.kong_transfers(state, seat, len(player.melds) - 1), events)
        state.replacement_chain.append(("kong", None))
        _draw(state, seat, replacement=True, events=events)
        return
    # An added kong may be robbed by anyone it completes (抢杠), where the rules allow it.
    robbers: dict[int, list[Action]] = {}
    # Who the kong's tile completes but may not rob it is kept with the rule's reason, as for a
    # discard (a record that has them win here is refused with that rule).
    state.refused_wins = {}
    robbable = state.ruleset.kong_can_be_robbed(state, seat, tile)
    for offset in range(1, SEATS):
        other = next_seat(seat, offset)
        if not _completes(state, other, tile):
            continue
        if not robbable:
            state.refused_wins[other] = Refusal(
                f"抢杠: seat {seat}'s added kong of {tile_name(tile)} may not be robbed here",
                "kong_not_robbable",
            )
        elif state.ruleset.pass_win_restriction and state.seats[other].passed_win:
            state.refused_wins[other] = _win_refusal(state, other, tile, claim=True, discarder=seat)
        else:
            context = _claim_context(state, other, tile, seat, WinKind.ROBBED_KONG)
            verdict = state.ruleset.judge_win(state, context)
            if verdict.allowed:
                robbers[other] = [_WINS[other], _PASSES[other]]
            else:
                state.refused_wins[other] = verdict.reason
    if robbers or state.hold_claims:
        events.append(KongAdded(seat, tile, completed=False))
        state.phase = Phase.ROB
        state.pending_kong = (seat, tile)
        state.window = ClaimWindow(discarder=seat, tile=tile, options=robbers, robbing=True)
        return
    _complete_added_kong(state, seat, tile, events)


def _complete_added_kong(state: HandState, seat: int, tile: int, events: list[Event]) -> None:
    player = state.seats[seat]
    player.counts[tile] -= 1
    meld_index = next(
        index for index, meld in enumerate(player.melds) if meld.kind is MeldKind.PUNG and meld.tile == tile
    )
    meld = player.melds[meld_index]
    meld.kind = MeldKind.ADDED_KONG
    events.append(KongAdded(seat, tile, completed=True))
    _pay(state, state.ruleset.kong_transfers(state, seat, meld_index), events)
    state.replacement_chain.append(("kong", meld.feeder))
    _draw(state, seat, replacement=True, events=events)


def _resolve_rob(state: HandState, window: ClaimWindow, events: list[Event]) -> None:
    seat, tile = window.discarder, window.tile
    order = [next_seat(seat, offset) for offset in range(1, SEATS)]
    robbers = [other for other in order if isinstance(window.decisions.get(other), Win)]
    for other in order:
        if isinstance(window.decisions.get(other), Pass):
            state.seats[other].passed_win = True
    state.window = None
    state.pending_kong = None
    if not robbers:
        state.phase = Phase.TURN
        _complete_added_kong(state, seat, tile, events)
        return
    if not state.ruleset.multi_ron:
        robbers = robbers[:1]
    events.append(KongRobbed(seat, tile))  # the pung stays a pung; the fourth tile goes to the robber
    contexts = [_claim_context(state, other, tile, seat, WinKind.ROBBED_KONG) for other in robbers]
    _finish_wins(state, [(context, None) for context in contexts], events)


def _win_self_drawn(state: HandState, seat: int, events: list[Event]) -> None:
    verdict = _judge_self_drawn(state, seat)
    context = _self_drawn_context(state, seat)
    _finish_wins(state, [(context, verdict.sheet if verdict.allowed else None)], events)


def _finish_wins(
    state: HandState, wins: Sequence[tuple[WinContext, ScoreSheet | None]], events: list[Event]
) -> None:
    """Pay every win (each scored against the table as it stands, where no score is given) and end
    the hand."""
    scored: list[ScoredWin] = []
    for context, given in wins:
        if given is not None:
            scored.append((context, given))
            continue
        verdict = state.ruleset.judge_win(state, context)
        if not verdict.allowed or verdict.sheet is None:
            raise IllegalAction(verdict.reason or "no win")
        scored.append((context, verdict.sheet))
    contexts = [context for context, _ in scored]
    for context, sheet in scored:
        transfers = state.ruleset.win_transfers(state, context, sheet)
        state.wins.append(WinResult(context, sheet, tuple(transfers)))
        hand = tuple(kind for kind in range(NUM_KINDS) for _ in range(context.counts[kind]))
        events.append(
            Won(
                context.seat,
                context.tile,
                context.kind.value,
                context.discarder,
                sheet.share,
                tuple(item.as_dict() for item in sheet.items),
                hand,
            )
        )
        _pay(state, transfers, events)
    first = contexts[0]
    if first.kind is not WinKind.SELF_DRAWN:
        # The claimed tile goes to the first winner in turn order (the others' hands are in their Won events).
        state.seats[first.seat].counts[first.tile] += 1
        assert first.discarder is not None
        if first.kind is WinKind.ROBBED_KONG:
            state.seats[first.discarder].counts[first.tile] -= 1
        else:
            state.seats[first.discarder].discard_claimed[-1] = True
    _end(state, "win", tuple(context.seat for context in contexts), events)


def _end_draw(state: HandState, events: list[Event]) -> None:
    _end(state, "draw", (), events)


def _end(state: HandState, outcome: str, winners: tuple[int, ...], events: list[Event]) -> None:
    state.phase = Phase.ENDED
    state.window = None
    state.outcome = outcome
    hands = tuple(
        tuple(kind for kind in range(NUM_KINDS) for _ in range(player.counts[kind])) for player in state.seats
    )
    events.append(HandEnded(outcome, winners, tuple(state.deltas()), hands))


def abandon(state: HandState) -> list[Event]:
    """End a hand that cannot go on (a player left for good): what was paid stands, nothing else."""
    events: list[Event] = []
    if state.phase is not Phase.ENDED:
        _end(state, "abandoned", (), events)
        state.events.extend(events)
    return events
