"""What a seated player's messages do: ping and sync, 托管, 听, hints, 继续, a contribution, 快捷语
and emotes, voice signals, and an action answering a prompt."""

from __future__ import annotations

from hupai.game.actions import ActionParseError, action_from_dict
from hupai.game.engine import IllegalAction, verify
from hupai.game.model import Phase
from hupai.game.refusal import Refusal
from hupai.server.protocol import (
    Act,
    ClientMessageType,
    Continue,
    Entropy,
    Hints,
    Ping,
    Say,
    Sync,
    Ting,
    Trustee,
    Voice,
    error_message,
)
from hupai.server.table import dealing, decisions, match_flow, moves, social, views, voice
from hupai.server.table.core import TableState
from hupai.server.table.messages import Connection


async def from_client(table: TableState, connection: Connection, message: ClientMessageType) -> None:
    if isinstance(message, Ping):
        connection.send({"type": "pong"})
    elif isinstance(message, Sync):
        connection.hand_index = message.hand
        connection.sent_events = message.since
        connection.events_at = None
        connection.last_view = None  # a sync is answered with the whole view
        views.send_update(table, connection)
    elif isinstance(message, Trustee):
        await set_trustee(table, connection, message.on)
    elif isinstance(message, Ting):
        set_ting(table, connection, message.on)
    elif isinstance(message, Hints):
        connection.hints = message.on
        views.send_update(table, connection)
    elif isinstance(message, Continue):
        match_flow.press_continue(table, connection)
    elif isinstance(message, Entropy):
        await dealing.take_entropy(table, connection, message)
    elif isinstance(message, Say):
        social.say(table, connection, message)
    elif isinstance(message, Voice):
        voice.handle(table, connection, message)
    else:
        await act(table, connection, message)


async def set_trustee(table: TableState, connection: Connection, on: bool) -> None:
    seat = connection.seat
    if seat is None:
        connection.send(error_message("not_seated", "spectators have no seat to hand over"))
        return
    if table.match is None:
        connection.send(error_message("no_game", "no game is in play"))
        return
    if on:
        table.trustee.add(seat)
    else:
        table.trustee.discard(seat)
    decisions.refresh_pending(table)
    views.broadcast_update(table)


def set_ting(table: TableState, connection: Connection, on: bool) -> None:
    """听 on or off. Only this seat's own connections hear of it: another seat would learn that the
    hand is ready."""
    seat = connection.seat
    if seat is None:
        connection.send(error_message("not_seated", "spectators have no hand to play"))
        return
    state = table.state
    if table.match is None or state is None or state.phase is Phase.ENDED:
        connection.send(error_message("no_game", "no hand is in play"))
        return
    if on and not views.seat_waits(table, seat):
        connection.send(
            error_message("not_ready", "听 needs a ready hand (one tile from a win the rules allow)")
        )
        return
    if on:
        table.ting.add(seat)
    else:
        table.ting.discard(seat)
    decisions.refresh_pending(table)
    for other in table.connections:
        if other.seat == seat:
            views.send_update(table, other)


async def act(table: TableState, connection: Connection, message: Act) -> None:
    seat = connection.seat
    if seat is None or table.state is None:
        connection.send(error_message("not_your_turn", "you have no decision to make"))
        return
    pending = table.pending.get(seat)
    if (
        pending is None
        or pending.seq != message.seq
        or pending.answer is not None
        or pending.stored_as is not None
    ):
        connection.send({"type": "ignored", "seq": message.seq, "reason": "stale or duplicate prompt number"})
        return
    try:
        action = action_from_dict({"seat": seat, **message.action.model_dump(exclude_none=True)})
    except ActionParseError as error:
        connection.send(error_message("bad_action", str(error)))
        return
    if action not in pending.legal:
        why: dict[str, object] = {}
        try:
            verify(table.state, action)
            reason = "not one of the actions offered in this prompt"
        except IllegalAction as error:
            reason = str(error)
            if error.args and isinstance(error.args[0], Refusal) and error.args[0].code:
                why = {"why": error.args[0].said()}  # e.g. 过胡不胡, for the client's own words
        connection.send(error_message("illegal", reason, seq=message.seq, **why))
        return
    if not pending.automatic:
        used = table.clock() - pending.opened
        table.bank[seat] = max(table.bank[seat] - max(used - table.room.decision_seconds, 0.0), 0.0)
    table.trustee.discard(seat)
    table.ting.discard(seat)  # playing by hand ends 听 as it ends 托管
    if table.release_at is not None and table.release_at > table.clock():
        # Too early: stored now and held, unchanged, until the release (then heard as if answered
        # at that time).
        await decisions.store_answer(table, pending, action)
        return
    await moves.apply(table, action)
