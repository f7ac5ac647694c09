"""Which clubs a committed transaction changed, told to whoever keeps their lobbies live
(:mod:`hupai.server.club_lobby`).

Heard from the session itself rather than from each method that writes: a club's lobby changes when
one of its tables is opened, sat at, left, started, ends a hand, ends or is closed, and when a member
or a 玩法 comes or goes — writes spread over rooms, play, votes and clubs. Every one of them flushes a
:class:`Room`, :class:`RoomSeat`, :class:`PlayedHand`, :class:`Club`, :class:`ClubMember` or
:class:`ClubRules`, so a write added later is heard too. Only commits are told (a rolled-back change
changed nothing). Statements that bypass the session (a table's moves, upkeep's bulk close of idle
rooms) are not heard: the lobbies also read their clubs again every little while.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker

from hupai.server.storage.models import Club, ClubMember, ClubRules, PlayedHand, Room, RoomSeat

CHANGED = "hupai.clubs_changed"  # the session's note of the clubs its flushes touched

Told = Callable[[set[int]], None]


def watch_club_changes(sessions: sessionmaker[Session], told: Told) -> Callable[[], None]:
    """Tell ``told`` (in the committing thread) the ids of the clubs each commit changed; returns
    the function that stops it."""

    def before_flush(db: Session, _context: Any, _instances: Any) -> None:
        clubs = _clubs_of(db, (*db.new, *db.dirty, *db.deleted))
        if clubs:
            db.info.setdefault(CHANGED, set()).update(clubs)

    def after_commit(db: Session) -> None:
        clubs = db.info.pop(CHANGED, None)
        if clubs:
            told(clubs)

    def after_rollback(db: Session) -> None:
        db.info.pop(CHANGED, None)

    listeners = (
        ("before_flush", before_flush),
        ("after_commit", after_commit),
        ("after_soft_rollback", lambda db, _previous: after_rollback(db)),
    )
    for name, listener in listeners:
        event.listen(sessions, name, listener)

    def stop() -> None:
        for name, listener in listeners:
            event.remove(sessions, name, listener)

    return stop


def _clubs_of(db: Session, objects: Iterable[object]) -> set[int]:
    clubs: set[int | None] = set()
    for changed in objects:
        if isinstance(changed, Room):
            clubs.add(changed.club_id)
        elif isinstance(changed, RoomSeat | PlayedHand):  # a seat, or a hand finished (第n局)
            # Its room is nearly always loaded already (seats are reached through it): no query then.
            room = db.get(Room, changed.room_id) if changed.room_id is not None else None
            clubs.add(room.club_id if room is not None else None)
        elif isinstance(changed, ClubMember | ClubRules):
            clubs.add(changed.club_id)
        elif isinstance(changed, Club):
            clubs.add(changed.id)
    clubs.discard(None)
    return {club for club in clubs if club is not None}
