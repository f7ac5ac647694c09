"""Short move notation for writing scenarios by hand: ``"0 discard 5p"``, ``"1 pong"``, ``"2 hu"``,
``"3 pass"``, ``"0 kong 9m"``, ``"1 kong"``, ``"2 ready"``, ``"3 tsumogiri"`` (discard the tile just
drawn), and in Enshi ``"1 chow 4m"`` (the run's lowest tile) and ``"0 lay 5m"``. ``d`` and ``t``
abbreviate discard and tsumogiri.

>>> from hupai.rules import load_ruleset
>>> from hupai.game.engine import new_hand
>>> state = new_hand(load_ruleset("nanjing"), seed=1)
>>> parse_move("0 d 1m", state)
Discard(seat=0, tile=0)
"""

from __future__ import annotations

from hupai.game.actions import Action, Chow, DeclareReady, Discard, Kong, Lay, Pass, Pong, Win
from hupai.game.model import HandState
from hupai.tiles import parse_tiles

__all__ = ["MoveError", "parse_move", "run_moves"]


class MoveError(ValueError):
    """A move in short notation that cannot be read."""


def parse_move(text: str, state: HandState) -> Action:
    parts = text.split()
    if len(parts) < 2 or not parts[0].isdigit():
        raise MoveError(f"{text!r}: write '<seat> <act> [tile]'")
    seat, act = int(parts[0]), parts[1]
    tile = parse_tiles(parts[2])[0] if len(parts) > 2 else None
    if act in ("t", "tsumogiri"):
        drawn = state.seats[seat].drawn
        if drawn is None:
            raise MoveError(f"{text!r}: seat {seat} has not just drawn a tile")
        return Discard(seat=seat, tile=drawn)
    if act in ("d", "discard", "chow", "lay"):
        if tile is None:
            raise MoveError(f"{text!r}: a {act} names its tile")
        kinds: dict[str, type[Discard | Chow | Lay]] = {"chow": Chow, "lay": Lay}
        return kinds.get(act, Discard)(seat=seat, tile=tile)
    if act == "kong":
        return Kong(seat=seat, tile=tile)
    simples: dict[str, type[Pong | Win | Pass | DeclareReady]] = {
        "pong": Pong,
        "hu": Win,
        "pass": Pass,
        "ready": DeclareReady,
    }
    simple = simples.get(act)
    if simple is None:
        raise MoveError(f"{text!r}: unknown act {act!r}")
    return simple(seat=seat)


def run_moves(state: HandState, moves: list[str] | tuple[str, ...]) -> HandState:
    """Apply moves in short notation the way a record is read: a move that is not a decision on the
    open discard first passes every seat still undecided (so ``t`` then names the new draw)."""
    from hupai.game.engine import legal_actions
    from hupai.game.record import apply_action, close_open_window

    for move in moves:
        if state.window is not None:
            try:
                action: Action | None = parse_move(move, state)
            except MoveError:
                action = None
            if action is None or action not in legal_actions(state, action.seat):
                close_open_window(state)
        apply_action(state, parse_move(move, state))
    return state
