"""Hints for a seat at the table (a player's toggle): its waits with how many copies it cannot see and
what each would score, and the discards that keep the best shanten with the most accepting tiles.

Everything is computed from what the seat may know — its own tiles and the public table — so hints
never leak a hidden tile; the values come from :func:`hupai.calculator.win_values`.
"""

from __future__ import annotations

from typing import Any

from hupai.bots.base import unseen_from
from hupai.calculator import Calculation, win_values
from hupai.game.model import HandState, Phase
from hupai.game.refusal import Refusal
from hupai.game.view import view
from hupai.hand import shanten
from hupai.hand.efficiency import discard_options
from hupai.tiles import format_tiles

DISCARDS_SHOWN = 6


def seat_hints(state: HandState, seat: int) -> dict[str, Any]:
    """``shanten`` now; ``discards`` (when the seat holds a drawn tile): the best few, each with the
    shanten it leaves and the unseen copies that would improve it; ``waits`` (when ready, or ready
    after the best discard): each winning tile with the copies left and the winner's gain
    self-drawn and on the next seat's discard, or the rules' reason when such a win is refused."""
    counts = list(state.seats[seat].counts)
    jokers = 0
    if state.laizi is not None:  # Enshi: the 赖子 are wild, and neither they nor a 痞子 are discards
        jokers, counts[state.laizi] = counts[state.laizi], 0
    unseen = unseen_from(view(state, seat))
    out: dict[str, Any] = {"shanten": shanten(counts, jokers=jokers), "discards": [], "waits": []}
    discard: int | None = None
    if (sum(counts) + jokers) % 3 == 2:
        options = discard_options(counts, unseen=unseen, jokers=jokers)
        options = [option for option in options if option.discard != state.pizi]
        out["discards"] = [
            {
                "tile": format_tiles([option.discard]),
                "shanten": option.shanten,
                "accepting": option.accepting_count,
                "tiles": format_tiles([kind for kind, _ in option.accepting]),
            }
            for option in options[:DISCARDS_SHOWN]
        ]
        if not options or options[0].shanten != 0:
            return out
        discard = options[0].discard
        out["after_discard"] = format_tiles([discard])
    elif out["shanten"] != 0:
        return out
    for tile, value in sorted(win_values(state, seat, discard=discard).items()):
        refusal = _refusal(value.self_drawn, value.discard)
        wait: dict[str, Any] = {
            "tile": format_tiles([tile]),
            "left": value.unseen,
            "self_drawn": _gain(value.self_drawn),
            "discard": _gain(value.discard),
            "refusal": refusal,
        }
        if isinstance(refusal, Refusal) and refusal.code:
            wait["refusal_why"] = refusal.said()  # for the page to say in its reader's words
        out["waits"].append(wait)
    return out


def _gain(calculation: Calculation) -> int | None:
    return calculation.total if calculation.allowed else None


def _refusal(self_drawn: Calculation, discard: Calculation) -> str | None:
    """The rules' reason when a wait cannot win on a discard (or at all)."""
    if not discard.allowed:
        return discard.reason or self_drawn.reason or None
    return None


def winning_tiles(state: HandState, seat: int) -> list[int]:
    """The tiles that would win for ``seat`` with its hand as it stands (听 and its mark): 13 tiles less
    3 per meld, or on its turn with the tile just drawn let go again. A tile counts when the rules allow
    a win on it self-drawn or on a discard (a shape that may never win is no wait). Empty when the hand
    is not ready, or holds more tiles than that (after a claim, before its discard).

    Only the seat's own hand and the public table are read (as for :func:`seat_hints`)."""
    player = state.seats[seat]
    if state.phase is Phase.ENDED:
        return []
    held = sum(player.counts)
    discard: int | None = None
    if held % 3 == 2:
        if state.phase is not Phase.TURN or state.turn != seat or player.drawn is None:
            return []
        discard = player.drawn
    elif held % 3 != 1:
        return []
    try:
        values = win_values(state, seat, discard=discard)
    except ValueError:  # a hand the calculator cannot read now (e.g. mid-kong)
        return []
    return [tile for tile, value in values.items() if value.self_drawn.allowed or value.discard.allowed]
