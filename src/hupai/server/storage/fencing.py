"""Fencing: a table's writes carry the lease they were made under, and the database refuses them once
that lease has passed to another process (:mod:`hupai.server.cluster.leases` grants and renews them).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from hupai.server.storage.models import TableLease


class LeaseLost(Exception):
    """This process no longer owns the table: its write was refused and it must let the table go."""


@dataclass(frozen=True, slots=True)
class Fence:
    """The owner and epoch a table's writes must still match."""

    owner: str
    epoch: int


def check_fence(db: Session, room_id: int, fence: Fence) -> None:
    """Inside a writing transaction: refuse it unless ``fence`` still holds the room's lease. The row
    is read with a lock that a taking-over process's update must wait for (SQLite: the transaction
    already holds the write lock)."""
    # Two columns, not an ORM object: this runs before every move a table stores.
    query = select(TableLease.owner, TableLease.epoch).where(TableLease.room_id == room_id)
    lease = db.execute(query.with_for_update(read=True)).first()
    if lease is None or lease.owner != fence.owner or lease.epoch != fence.epoch:
        raise LeaseLost(f"room #{room_id}: the table's lease passed to another process")
