"""The dissolve vote's terms, read by the vote (storage.votes) and by what a room shows of it
(storage.outputs): who answers, and how often a vote may be asked for."""

from __future__ import annotations

from datetime import timedelta

from hupai.server.storage.models import Room

# After a refusal nobody may ask again for this long, and one seat asks at most this often in a
# match: a vote interrupts every other player, so one player cannot keep a dialog in their faces.
QUIET_AFTER_REFUSAL = timedelta(seconds=30)
ASKS_PER_SEAT = 3


def voters(room: Room) -> list[int]:
    """The seats whose answer a dissolve vote needs: the people still at the table (bots agree)."""
    return [place.seat for place in room.seats if place.user_id is not None and not place.left]


def asks_left(room: Room) -> list[int]:
    """Per seat, how many more times it may ask for a vote in this match."""
    return [
        max(0, ASKS_PER_SEAT - sum(1 for vote in room.dissolve_votes if vote.asked_by == place.seat))
        for place in room.seats
    ]
