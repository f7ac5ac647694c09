"""The table's small talk: 快捷语 (quick phrases) and emotes, as 房卡 apps have them. A seated player
sends a phrase's number or an emote's name — never free text, so there is nothing to moderate —
and everyone at the table, spectators too, hears who said it. Each seat may say a few things in a
burst and then one every few seconds (the rest is refused with ``slow_down``); each reader mutes
whom they like in their own page."""

from __future__ import annotations

from hupai.server.protocol import Say, error_message
from hupai.server.rates import take_from
from hupai.server.table import views
from hupai.server.table.core import TableState
from hupai.server.table.messages import Connection

BURST = 3  # things a seat may say at once ...
EVERY_SECONDS = 4.0  # ... and then one this often


def say(table: TableState, connection: Connection, message: Say) -> None:
    seat = connection.seat
    if seat is None:
        connection.send(error_message("not_seated", "spectators watch in silence"))
        return
    empty = take_from(table.chatter, seat, 1 / EVERY_SECONDS, BURST, table.clock)
    if empty is not None:
        connection.send(error_message("slow_down", f"say something again in {empty.wait():.0f} s"))
        return
    said: dict[str, object] = {"type": "said", "seat": seat}
    if message.phrase is not None:
        said["phrase"] = message.phrase
    else:
        said["emote"] = message.emote
    views.broadcast(table, said)
