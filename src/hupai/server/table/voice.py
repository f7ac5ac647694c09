"""Voice at the table: WebRTC audio between the people seated, peer to peer. The server carries only
the signals (offers, answers, ICE candidates), never a sound. A seated person joins the table's
voice; everyone at the table is told who is in it (a roster), and each pair of members connects, the
lower seat making the offer. A signal goes to the one connection of its seat that joined (a second
tab that joins takes over), and only between members: nobody else — a spectator, a seat that did not
join — ever receives one. Joining and leaving are paced per seat, so a client cannot make the table
broadcast rosters in a loop."""

from __future__ import annotations

from typing import Any

from hupai.server.protocol import Voice, error_message
from hupai.server.rates import take_from
from hupai.server.table import views
from hupai.server.table.core import TableState
from hupai.server.table.messages import Connection

JOINS_AT_ONCE = 4  # joins and leaves a seat may make at once ...
JOIN_EVERY_SECONDS = 3.0  # ... and then one this often


def handle(table: TableState, connection: Connection, message: Voice) -> None:
    seat = connection.seat
    if seat is None or seat in table.bots:
        connection.send(error_message("not_seated", "only the people seated talk"))
        return
    if message.kind in ("join", "leave"):
        _join_or_leave(table, connection, seat, message.kind == "join")
        return
    if table.voice.get(seat) is not connection:
        connection.send(error_message("not_in_voice", "join the table's voice first"))
        return
    assert message.to is not None  # the message's validator: a signal has its seat
    peer = table.voice.get(message.to)
    if peer is None or message.to == seat:
        connection.send(error_message("not_in_voice", f"seat {message.to} is not in the voice"))
        return
    signal: dict[str, Any] = {"type": "voice", "kind": message.kind, "from": seat}
    if message.sdp is not None:
        signal["sdp"] = message.sdp
    if message.candidate is not None:
        signal.update(candidate=message.candidate, mid=message.mid, line=message.line)
    peer.send(signal)


def _join_or_leave(table: TableState, connection: Connection, seat: int, join: bool) -> None:
    empty = take_from(table.voice_pace, seat, 1 / JOIN_EVERY_SECONDS, JOINS_AT_ONCE, table.clock)
    if empty is not None:
        connection.send(error_message("slow_down", f"try again in {empty.wait():.0f} s"))
        return
    before = table.voice.get(seat)
    if join:
        if before is not None and before is not connection:
            before.send({"type": "voice", "kind": "taken"})  # another tab of this seat joined
        table.voice[seat] = connection
    elif before is connection:
        del table.voice[seat]
    else:
        return  # not in the voice: nothing changes, nobody is told
    broadcast_roster(table)


def forget(table: TableState) -> None:
    """Drop members whose connection left the table or no longer sits in the seat they joined from
    (called when a connection leaves and when the room's seats change)."""
    gone = [
        seat
        for seat, connection in table.voice.items()
        if connection not in table.connections or connection.seat != seat or seat in table.bots
    ]
    for seat in gone:
        del table.voice[seat]
    if gone:
        broadcast_roster(table)


def broadcast_roster(table: TableState) -> None:
    views.broadcast(table, roster(table))


def roster(table: TableState) -> dict[str, Any]:
    return {"type": "voice", "kind": "roster", "seats": sorted(table.voice)}
