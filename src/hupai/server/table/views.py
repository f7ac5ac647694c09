"""What each connection is sent: the room, every seat's update (its view, the events it has not had,
its prompt, hints and 听 facts), the rest of a hand it left, the commitment and 继续 facts. Every seat
is told only what :func:`hupai.game.view.view` lets it see."""

from __future__ import annotations

from typing import Any

from hupai.bots.base import unseen_from
from hupai.game.actions import action_to_dict
from hupai.game.engine import win_refusal
from hupai.game.fairness import FairDeal, room_algorithm
from hupai.game.model import HandState, Phase
from hupai.game.refusal import Refusal
from hupai.game.view import event_position, events_as_dicts, events_for, view, view_message
from hupai.server.protocol import owned_copy, patch_in_place
from hupai.server.table import core
from hupai.server.table.core import SEATS, TableState
from hupai.server.table.hints import seat_hints, winning_tiles
from hupai.server.table.messages import Connection
from hupai.tiles import format_tiles


def commitment_message(table: TableState) -> dict[str, Any]:
    commit = table.commit
    assert commit is not None and table.deal_secret is not None  # (a commitment only in a fair room)
    return {
        "type": "deal_commitment",
        "hand": commit.hand,
        "algorithm": room_algorithm(table.deal_secret),
        "commitment": commit.commitment,
        "contributed": [seat in commit.contributed for seat in range(SEATS)],
    }


def continue_facts(table: TableState) -> dict[str, Any]:
    due = table.next_hand_at
    return {
        "pressed": sorted(table.continued),
        "waiting": sorted(core.readers(table) - table.continued),
        "next_in_ms": 0 if due is None else max(int((due - table.clock()) * 1000), 0),
    }


def with_continue(table: TableState, message: dict[str, Any]) -> dict[str, Any]:
    return {**message, **continue_facts(table)}


def broadcast(table: TableState, message: dict[str, Any]) -> None:
    for connection in table.connections:
        connection.send(message)


def broadcast_room(table: TableState) -> None:
    for connection in table.connections:
        send_room(table, connection)


def send_room(table: TableState, connection: Connection) -> None:
    room = table.room.model_dump()
    due = core.vote_due(table)
    if due is not None:  # the countdown as it stands now, not when the room was read
        room["dissolve_vote"]["ms_left"] = max(0, int((due - table.clock()) * 1000))
    connection.send({"type": "room", "room": room})


def broadcast_update(table: TableState) -> None:
    facts = table_facts(table)  # the same for every seat: built once per move
    for connection in table.connections:
        send_update(table, connection, facts)


def send_update(table: TableState, connection: Connection, facts: dict[str, Any] | None = None) -> None:
    """The seat's view, the hand's events it has not had yet, and its prompt if it owes one (``facts``:
    the table's, when already built for this move)."""
    state = table.state
    match = table.match
    if state is None or match is None:
        return
    hand = len(match.results) if match.current is state else len(match.results) - 1
    if connection.hand_index != hand:
        if connection.hand_index == hand - 1 and table.last_ended is not None:
            send_the_rest(table, connection, table.last_ended, hand - 1)
        connection.hand_index = hand
        connection.sent_events = 0
        connection.events_at = 0
    if connection.events_at is None:  # counted as this seat sees them (others' passes left out)
        connection.events_at, connection.sent_events = event_position(
            state, connection.seat, connection.sent_events
        )
    start = connection.sent_events
    events = events_for(state, connection.seat, start=connection.events_at)
    connection.sent_events += len(events)
    connection.events_at = len(state.events)
    message: dict[str, Any] = {
        "type": "update",
        "hand": hand,
        "from": start,
        "events": events_as_dicts(events),
    }
    shown = view_message(state, connection.seat)
    message.update(view_fields(connection, hand, shown, table_facts(table) if facts is None else facts))
    if start == 0 and state.fair is not None:  # the hand's first update for this connection
        message["fair"] = fair_facts(state.fair, connection.seat)
    if connection.seat is not None and state.phase is not Phase.ENDED:
        refusal = win_refusal(state, connection.seat)
        if refusal is not None:
            message["win_blocked"] = refusal  # a complete hand that may not win: say why
            if isinstance(refusal, Refusal) and refusal.code:
                message["win_blocked_why"] = refusal.said()  # for the client's own words
        message.update(ting_facts(table, connection.seat))
    if connection.hints and connection.seat is not None and state.phase is not Phase.ENDED:
        message["hints"] = seat_hints_for(table, connection, state, hand)
    pending = table.pending.get(connection.seat) if connection.seat is not None else None
    if pending is not None:
        message["prompt"] = {
            "seq": pending.seq,
            "legal": [action_to_dict(action) for action in pending.legal],
            "deadline_ms": max(int((pending.due - table.clock()) * 1000), 0),
            "automatic": pending.automatic,
        }
    connection.send(message)


def send_the_rest(table: TableState, connection: Connection, ended: HandState, hand: int) -> None:
    """The end of the hand before, to a client that had only part of it (it was away when the hand
    ended and the next one began), so that it misses no event of any hand."""
    if connection.events_at is None:
        connection.events_at, connection.sent_events = event_position(
            ended, connection.seat, connection.sent_events
        )
    events = events_for(ended, connection.seat, start=connection.events_at)
    connection.last_view = None  # the hand after this one starts with a whole view
    if events:
        connection.send(
            {
                "type": "update",
                "hand": hand,
                "from": connection.sent_events,
                "events": events_as_dicts(events),
                "view": view_message(ended, connection.seat),
                "table": table_facts(table),
            }
        )


def view_fields(
    connection: Connection, hand: int, shown: dict[str, Any], facts: dict[str, Any]
) -> dict[str, Any]:
    """An update's ``view`` and ``table``; for a client that asked for patches, after the first
    whole view of a hand, ``patch`` (what changed in the view) and ``table`` only when it changed."""
    if not connection.patches:
        return {"view": shown, "table": facts}
    before, facts_before = connection.last_view, connection.last_facts
    if before is None or connection.view_hand != hand:
        # A copy: ``shown`` goes out in this message, and the copy is changed in place from now on.
        connection.last_view, connection.last_facts, connection.view_hand = owned_copy(shown), facts, hand
        return {"view": shown, "table": facts}
    # The last view is changed in place, its lists too, and equal facts are not replaced: a new dict
    # or list per connection and move would live until the next move, and every young garbage
    # collection (which stalls all tables) would scan the thousands of them (docs/speed.md, steps 10
    # and 14).
    fields: dict[str, Any] = {"patch": patch_in_place(before, shown)}
    if facts is not facts_before and facts != facts_before:
        fields["table"] = facts
        connection.last_facts = facts
    return fields


def ting_facts(table: TableState, seat: int) -> dict[str, Any]:
    """For the seat's own update only: whether 听 plays it, and its waits with the copies it
    cannot see (for the 听 mark) when the hand is ready."""
    facts: dict[str, Any] = {"ting": seat in table.ting}
    waits = seat_waits(table, seat)
    if waits:
        assert table.state is not None
        unseen = unseen_from(view(table.state, seat, legal=()))
        facts["waits"] = [{"tile": format_tiles([tile]), "left": unseen[tile]} for tile in waits]
    return facts


def seat_waits(table: TableState, seat: int) -> tuple[int, ...]:
    """The seat's winning tiles (:func:`winning_tiles`), recomputed only when something they
    depend on changed: its tiles, melds, flowers and locks, or any seat's melds and lays."""
    state = table.state
    assert state is not None
    player = state.seats[seat]
    counts = list(player.counts)
    if state.phase is Phase.TURN and state.turn == seat and player.drawn is not None:
        # Holding a drawn tile, the waits are those of the hand without it: often the very hand
        # before the draw, whose waits are known already.
        counts[player.drawn] -= 1
    # One bytes object, and the waits as a tuple of ints, in lists changed in place: the cache
    # outlives the move, and every container made for it would be scanned by the next young garbage
    # collection, which stalls all tables (docs/speed.md, step 14).
    shape = [len(player.flowers), player.ready, player.passed_win]
    for other in state.seats:
        shape += (len(other.melds), len(other.laid))
    key = table.hand_index.to_bytes(4, "big", signed=True) + bytes(counts + shape)
    if table.waits_key[seat] != key:
        table.waits[seat] = tuple(winning_tiles(state, seat))
        table.waits_key[seat] = key
    return table.waits[seat]


def seat_hints_for(
    table: TableState, connection: Connection, state: HandState, hand: int
) -> dict[str, Any] | None:
    """The seat's hints, recomputed only when its tiles or the wall's length changed."""
    assert connection.seat is not None
    player = state.seats[connection.seat]
    key = (hand, tuple(player.counts), len(player.melds), len(player.flowers), state.live_tiles)
    if key != connection.hints_for:
        connection.hints_for = key
        try:
            connection.last_hints = seat_hints(state, connection.seat)
        except ValueError:  # nothing to hint at this moment (e.g. mid-kong)
            connection.last_hints = None
    return connection.last_hints


def table_facts(table: TableState) -> dict[str, Any]:
    """The table's facts, the same object as last time while they are equal: a connection that has
    them already is told nothing (:func:`view_fields`), found without comparing them, and no copy of
    them outlives the move. Shared: do not change what it returns."""
    facts, kept = _built_facts(table), table.facts
    if kept is None or kept != facts:
        table.facts = kept = facts
    return kept


def seats_present(table: TableState) -> list[bool]:
    """Per seat, whether a connection of its player is at the table now."""
    connected = [False] * SEATS
    for connection in table.connections:
        if connection.seat is not None:
            connected[connection.seat] = True
    return connected


def _built_facts(table: TableState) -> dict[str, Any]:
    match = table.match
    connected = seats_present(table)
    return {
        "names": list(match.seats) if match is not None else [],
        "totals": list(match.totals) if match is not None else [0] * SEATS,
        "hands_total": table.room.hands,
        "trustee": [seat in table.trustee for seat in range(SEATS)],
        "bots": [seat in table.bots for seat in range(SEATS)],
        "bot_levels": core.bot_levels(table),
        "avatars": [place.avatar for place in table.room.seats],  # chosen 头像 (None: drawn from the name)
        "connected": connected,
        "bank_ms": [int(bank * 1000) for bank in table.bank],
    }


def fair_facts(fair: FairDeal, seat: int | None) -> dict[str, Any]:
    """What a seat may know of its hand's fair deal while it is played: the commitment and the wall
    hash, which seats contributed, and its own contribution (never the secret or anyone else's)."""
    facts: dict[str, Any] = {
        "algorithm": fair.algorithm,
        "commitment": fair.commitment,
        "wall_hash": fair.wall_hash,
        "contributed": [value != "" for value in fair.contributions],
    }
    if seat is not None:
        facts["mine"] = fair.contributions[seat]
    return facts
