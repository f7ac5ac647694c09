"""A finished hand as a replay: one frame per action, with every hand open.

The browser steps, plays and seeks through the frames and chooses whose seat is at the bottom; it
never runs the engine itself. The hand's record comes along, so that the browser verifies its fair
deal (js/fairness.js) as ``hupai verify`` does. Only hands that have ended are stored as records, so
nothing here can show a hand still in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hupai.game.actions import action_to_dict
from hupai.game.engine import abandon, new_hand, shuffled_deal
from hupai.game.record import Dissolve, Escape, RecordError, apply_action, close_open_window, read_record
from hupai.game.view import events_as_dicts, replay_view
from hupai.rules import load_ruleset


def replay_frames(
    record: dict[str, Any], result: dict[str, Any], *, previous_winner: int | None = None
) -> dict[str, Any]:
    """The frames of the one hand in ``record`` (as the server stores each finished hand) and its
    settlement ``result``. Frame 0 is the deal; each later frame follows one recorded action."""
    match = read_record(record)
    if len(match.hands) != 1:
        raise RecordError("a replay is of one hand")
    hand = match.hands[0]
    ruleset = load_ruleset(match.ruleset, match.options)
    deal: Sequence[Sequence[int]] | None = hand.deal
    wall: Sequence[int] | None = hand.wall
    if hand.seed is not None:
        deal, wall = shuffled_deal(ruleset, hand.dealer, hand.seed)
    state = new_hand(
        ruleset,
        dealer=hand.dealer,
        deal=deal,
        wall=wall,
        multiplier=int(result.get("multiplier", 1)),
        previous_winner=previous_winner,
    )

    def frame(action: dict[str, Any] | None, start: int) -> dict[str, Any]:
        shown = replay_view(state).as_dict()
        shown.pop("options", None)
        shown.pop("legal", None)
        return {"action": action, "events": events_as_dicts(state.events[start:]), "view": shown}

    frames = [frame(None, 0)]
    for action in hand.actions:
        if isinstance(action, Escape):  # the hand was abandoned when a player left: nobody plays on
            start = len(state.events)
            abandon(state)
            frames.append({**frame(None, start), "escape": action.seat})
            break
        if isinstance(action, Dissolve):  # the players ended the match (解散): the hand stops here
            start = len(state.events)
            abandon(state)
            frames.append({**frame(None, start), "dissolve": True})
            break
        start = len(state.events)
        apply_action(state, action)
        frames.append(frame(action_to_dict(action), start))
    start = len(state.events)
    close_open_window(state)
    if len(state.events) > start:
        frames.append(frame(None, start))
    return {
        "format": "hupai-replay/1",
        "ruleset": match.ruleset,
        "family": ruleset.name,  # the rule set (nanjing, nanning, enshi): its tile set, for verifying
        "record": record,  # the hand's hupai-record/1, with its fair deal for the browser to verify
        "seats": list(match.seats),
        "dealer": hand.dealer,
        "frames": frames,
        "result": result,
    }
