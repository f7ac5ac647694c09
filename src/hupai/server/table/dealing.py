"""Dealing a hand: the commitment to its secret announced first, the players' contributions taken
until the deal (docs/fairness.md), then the wall dealt from both."""

from __future__ import annotations

from typing import Any

from hupai.game.fairness import (
    ALGORITHM_V2,
    FairDealError,
    commitment,
    contribution_or_error,
    hand_secret,
    room_algorithm,
)
from hupai.server.errors import AlreadyContributed, DealClosed
from hupai.server.protocol import Entropy, error_message
from hupai.server.table import decisions, persist, views
from hupai.server.table.core import SEATS, Commitment, TableState
from hupai.server.table.messages import Connection


def place(table: TableState, index: int) -> tuple[str | None, int | None]:
    """What ties hand ``index``'s deal to its table: the room number and the index, in a room that
    deals with ``hupai-fair/2``; nothing in a room made before it, which goes on with ``hupai-fair/1``
    (the room's secret says which: :func:`~hupai.game.fairness.room_algorithm`), so a table rebuilt
    mid-match deals and commits exactly as before."""
    assert table.deal_secret is not None
    if room_algorithm(table.deal_secret) == ALGORITHM_V2:
        return table.room.number, index
    return None, None


def deal_with(table: TableState, index: int, contributions: dict[int, str]) -> dict[str, Any]:
    """How hand ``index`` is dealt: from its secret and the seats' contributions in a fair room,
    from the seed (no arguments) in a room made before fair deals."""
    if table.deal_secret is None:
        return {}
    room, hand = place(table, index)
    return {
        "fair_secret": hand_secret(table.deal_secret, index),
        "contributions": [contributions.get(seat, "") for seat in range(SEATS)],
        "fair_room": room,
        "fair_hand": hand,
    }


def announce(table: TableState, contributed: set[int]) -> None:
    """Tell everyone the commitment to the next hand's secret; contributions are taken from now
    until its deal."""
    assert table.deal_secret is not None
    index = table.hand_index
    secret = hand_secret(table.deal_secret, index)
    room, hand = place(table, index)
    table.commit = Commitment(index, secret, commitment(secret, room, hand), table.clock(), contributed)
    views.broadcast(table, views.commitment_message(table))


async def deal_next(table: TableState) -> None:
    assert table.match is not None
    index = table.hand_index
    contributions: dict[int, str] = {}
    if table.deal_secret is not None:
        # Stored before the deal uses them, with "" for every seat that sent nothing: a rebuild
        # deals the very same wall, and no contribution is taken after this.
        sealed = await persist.stored(table, table.store.play.seal_contributions, table.room_id, index)
        contributions = dict(enumerate(sealed))
    table.commit = None
    table.last_ended = table.state
    table.state = table.match.start_hand(**deal_with(table, index, contributions))
    table.state.hold_claims = True  # every discard gets a window: who may claim is nobody's business
    table.moves_in_hand = 0
    table.next_hand_at = None
    table.ting.clear()  # 听 is for one hand
    table.continued = set()
    table.last_hand_end = None
    for connection in table.connections:
        if connection.hand_index == index:  # (the others catch up in views.send_update)
            connection.sent_events = 0
            connection.events_at = 0
    decisions.refresh_pending(table)
    views.broadcast_update(table)


async def take_entropy(table: TableState, connection: Connection, message: Entropy) -> None:
    """A player's contribution to the announced hand's wall: stored once (the first stands), and
    only between the hand's commitment and its deal."""
    seat = connection.seat
    if seat is None or seat in table.bots or table.room.seats[seat].left:
        connection.send(error_message("not_seated", "only a player at the table contributes to its walls"))
        return
    commit = table.commit
    if commit is None or message.hand != commit.hand:
        connection.send(
            error_message(
                "deal_closed",
                f"hand {message.hand + 1} takes no contributions now: they are taken between its "
                "deal_commitment and its deal",
            )
        )
        return
    if seat in commit.contributed:
        connection.send(
            error_message("already_contributed", f"your contribution to hand {commit.hand + 1} is in already")
        )
        return
    try:
        value = contribution_or_error(message.value)
    except FairDealError as error:
        connection.send(error_message("bad_message", str(error)))
        return
    try:
        await persist.stored(
            table, table.store.play.add_contribution, table.room_id, commit.hand, seat, value
        )
    except (AlreadyContributed, DealClosed) as error:
        connection.send(error_message(error.code, error.message))
        return
    commit.contributed.add(seat)
    views.broadcast(table, views.commitment_message(table))  # who has contributed (never what)
