"""Upkeep: waiting rooms nobody touches are closed (their numbers free again) and guests who never
played and stopped coming are deleted; the server runs it periodically."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from hupai.server.storage.models import AuthSession, Result, Room, RoomSeat, User, utcnow
from hupai.server.storage.transactions import Transactions

CLEANUP_BATCH = 1000  # stale guests deleted per cleanup (the next one takes the rest)


@dataclass(frozen=True)
class Cleanup:
    """What one cleanup did: the waiting rooms it closed, and how many stale guests it deleted."""

    rooms: list[int]
    guests: int


class Upkeep:
    def __init__(self, tx: Transactions) -> None:
        self.tx = tx

    def cleanup(
        self, *, idle_room_hours: float, stale_guest_days: float, now: datetime | None = None
    ) -> Cleanup:
        """Close waiting rooms nobody touched for ``idle_room_hours`` (their numbers are free again),
        and delete guests who have not used a session for ``stale_guest_days`` and never played."""
        now = now or utcnow()
        with self.tx.plain() as db:
            rooms = self._close_idle_rooms(db, now - timedelta(hours=idle_room_hours))
            guests = self._delete_stale_guests(db, now - timedelta(days=stale_guest_days))
        return Cleanup(rooms=rooms, guests=guests)

    @staticmethod
    def _close_idle_rooms(db: Session, before: datetime) -> list[int]:
        idle = list(
            db.scalars(
                select(Room.id).where(
                    Room.status == "waiting", func.coalesce(Room.active_at, Room.created_at) < before
                )
            )
        )
        if idle:
            db.execute(update(Room).where(Room.id.in_(idle)).values(status="dissolved", finished_at=utcnow()))
        return idle

    @staticmethod
    def _delete_stale_guests(db: Session, before: datetime) -> int:
        """Guests unseen since ``before`` with no result and no seat in a game in play. Rooms they host
        never started (a host who played has results), so those rooms go with them."""
        in_play = select(RoomSeat.user_id).join(Room, Room.id == RoomSeat.room_id)
        in_play = in_play.where(Room.status == "playing", RoomSeat.user_id.is_not(None))
        played = select(Result.user_id).where(Result.user_id.is_not(None))
        # A host whose room has results keeps it (and so cannot go): belt and braces, as such a host
        # has a result of their own.
        hosts_of_played = select(Room.host_id).where(Room.id.in_(select(Result.room_id)))
        stale = list(
            db.scalars(
                select(User.id)
                .where(
                    User.login.is_(None),
                    func.coalesce(User.seen_at, User.created_at) < before,
                    User.id.not_in(in_play),
                    User.id.not_in(played),
                    User.id.not_in(hosts_of_played),
                )
                .limit(CLEANUP_BATCH)
            )
        )
        if not stale:
            return 0
        hosted = select(Room.id).where(Room.host_id.in_(stale), Room.status != "playing")
        db.execute(delete(RoomSeat).where(RoomSeat.room_id.in_(hosted)))
        db.execute(delete(Room).where(Room.host_id.in_(stale), Room.status != "playing"))
        db.execute(update(RoomSeat).where(RoomSeat.user_id.in_(stale)).values(user_id=None, ready=False))
        db.execute(delete(AuthSession).where(AuthSession.user_id.in_(stale)))
        db.execute(delete(User).where(User.id.in_(stale)))
        return len(stale)
