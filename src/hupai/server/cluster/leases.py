"""Table leases: which server process owns each room's table, in the database the moves go to.

Many ``hupai serve`` processes share one database. A table is played by exactly one of them at a
time: the one holding the room's lease. A lease runs out unless its owner renews it, so the tables
of a process that died are taken over once their leases expire.

The lease is a row beside the moves (not a Redis key) so that fencing is one transaction: the
owner's every write checks, under the row's lock, that the lease still carries the owner's name and
epoch (:func:`hupai.server.storage.fencing.check_fence`). A process that was paused or cut off past
its lease, and whose table another process took, has its late writes refused by the very database
that would store them — there is no moment between checking a token elsewhere and writing here.

Expiry times are the processes' own UTC clocks, so machines should keep time (NTP); a skew of a
second is nothing next to a lease of ten.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from hupai.server.storage.database import WRITE_LOCK
from hupai.server.storage.fencing import Fence
from hupai.server.storage.models import Room, TableLease, utcnow


class Leases:
    def __init__(
        self, sessions: sessionmaker[Session], *, seconds: float, reads: sessionmaker[Session] | None = None
    ) -> None:
        """``sessions``: for the writes and takeover queries (a server gives them a connection of their
        own); ``reads``: for :meth:`owner`, asked by every socket (by default ``sessions``)."""
        self.sessions = sessions
        self.reads = reads or sessions
        self.seconds = seconds

    @contextmanager
    def _writing(self) -> Iterator[Session]:
        with self.sessions.begin() as db:
            db.connection(execution_options={WRITE_LOCK: True})
            yield db

    def acquire(self, room_id: int, owner: str) -> Fence | None:
        """Take the room's lease if nobody holds it or it ran out (a new epoch), or renew it if
        ``owner`` holds it; None when another process holds it."""
        now = utcnow()
        expires = now + timedelta(seconds=self.seconds)
        try:
            with self._writing() as db:
                lease = db.scalar(select(TableLease).where(TableLease.room_id == room_id).with_for_update())
                if lease is None:
                    db.add(TableLease(room_id=room_id, owner=owner, epoch=1, expires_at=expires))
                    return Fence(owner, 1)
                if lease.owner == owner and lease.expires_at > now:
                    lease.expires_at = expires
                    return Fence(owner, lease.epoch)
                if lease.expires_at > now:
                    return None
                lease.owner, lease.epoch, lease.expires_at = owner, lease.epoch + 1, expires
                return Fence(owner, lease.epoch)
        except IntegrityError:  # another process inserted the first lease at the same moment
            return None

    def renew(self, owner: str) -> dict[int, int]:
        """Extend every lease ``owner`` still holds; returns them (room id → epoch). A table of this
        process missing here, or with another epoch, was taken over."""
        now = utcnow()
        with self._writing() as db:
            rows = db.execute(
                update(TableLease)
                .where(TableLease.owner == owner)
                .values(expires_at=now + timedelta(seconds=self.seconds))
                .returning(TableLease.room_id, TableLease.epoch)
            ).all()
        return {room_id: epoch for room_id, epoch in rows}  # noqa: C416 - rows are Row objects

    def release(self, room_id: int, fence: Fence) -> bool:
        """Give the lease up now (a clean stop, an idle table), so another process need not wait.
        The row stays, run out, so the next owner's epoch is still a new one. False when the lease
        was no longer this fence's (another process ended it, or owns the table now)."""
        now = utcnow()
        with self._writing() as db:
            released = db.execute(
                update(TableLease)
                .where(
                    TableLease.room_id == room_id,
                    TableLease.owner == fence.owner,
                    TableLease.epoch == fence.epoch,
                    TableLease.expires_at > now,
                )
                .values(expires_at=now - timedelta(seconds=1))
                .returning(TableLease.room_id)
            ).all()
        return bool(released)

    def owner(self, room_id: int) -> str | None:
        """The process holding the room's lease now, if any."""
        with self.reads() as db:
            lease = db.get(TableLease, room_id)
            if lease is None or lease.expires_at <= utcnow():
                return None
            return lease.owner

    def owners(self, room_ids: list[int]) -> dict[int, str]:
        """The processes holding these rooms' leases now (rooms nobody holds are missing)."""
        with self.reads() as db:
            query = select(TableLease.room_id, TableLease.owner).where(
                TableLease.room_id.in_(room_ids), TableLease.expires_at > utcnow()
            )
            return {room_id: owner for room_id, owner in db.execute(query)}  # noqa: C416 - Row objects

    def holders(self) -> set[str]:
        """The processes holding a lease that has not run out."""
        with self.sessions() as db:
            query = select(TableLease.owner).where(TableLease.expires_at > utcnow()).distinct()
            return set(db.scalars(query))

    def expire_all(self, owner: str) -> int:
        """End every lease ``owner`` holds now (it is known to be gone), so that its tables are
        taken over without waiting for the leases to run out. Safe even if the process lives on:
        fencing refuses its writes to any table another process takes; one not taken yet it renews.
        Returns how many leases were ended."""
        now = utcnow()
        with self._writing() as db:
            ended = db.execute(
                update(TableLease)
                .where(TableLease.owner == owner, TableLease.expires_at > now)
                .values(expires_at=now - timedelta(seconds=1))
                .returning(TableLease.room_id)
            ).all()
        return len(ended)

    def orphans(self, limit: int = 100) -> list[int]:
        """Rooms in play whose table nobody owns (never leased, released, or its owner's lease ran
        out): each must be taken over and rebuilt from its moves."""
        with self.sessions() as db:
            query = (
                select(Room.id)
                .outerjoin(TableLease, TableLease.room_id == Room.id)
                .where(Room.status == "playing")
                .where(or_(TableLease.room_id.is_(None), TableLease.expires_at <= utcnow()))
                .order_by(Room.id)
                .limit(limit)
            )
            return list(db.scalars(query))
