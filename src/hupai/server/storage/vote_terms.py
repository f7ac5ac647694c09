"""The dissolve vote's terms, read by the vote (storage.votes) and by what a room shows of it
(storage.outputs): who answers, and how often a vote may be asked for."""

from __future__ import annotations

from datetime import datetime, timedelta

from hupai.server.storage.models import DissolveVote, Room

# After a refusal nobody may ask again for this long, and one seat asks at most this often in a
# match: a vote interrupts every other player, so one player cannot keep a dialog in their faces.
QUIET_AFTER_REFUSAL = timedelta(seconds=30)
ASKS_PER_SEAT = 3


def last_vote(room: Room) -> DissolveVote | None:
    """The room's open vote, or else its last one (None: never asked)."""
    return room.dissolve_votes[-1] if room.dissolve_votes else None


def quiet_left(vote: DissolveVote, now: datetime) -> timedelta:
    """After a refused vote: how long until anyone may ask again (zero or less: they may now)."""
    if vote.result != "refused" or vote.ended_at is None:
        return timedelta(0)
    return vote.ended_at + QUIET_AFTER_REFUSAL - now


def voters(room: Room) -> list[int]:
    """The seats whose answer a dissolve vote needs: the people still at the table (bots agree)."""
    return [place.seat for place in room.seats if place.user_id is not None and not place.left]


def asks_left(room: Room) -> list[int]:
    """Per seat, how many more times it may ask for a vote in this match."""
    return [
        max(0, ASKS_PER_SEAT - sum(1 for vote in room.dissolve_votes if vote.asked_by == place.seat))
        for place in room.seats
    ]
