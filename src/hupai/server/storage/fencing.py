"""Fencing: a table's writes carry the lease they were made under, and the database refuses them once
that lease has passed to another process (:mod:`hupai.server.cluster.leases` grants and renews them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Connection, Table, bindparam, select

from hupai.server.storage.models import TableLease

_LEASES = cast(Table, TableLease.__table__)
# Built once and run on the connection, not through the ORM: this runs before every group of moves
# stored, and the ORM's way cost 2.5 times as much (0.28 ms against 0.11 ms on PostgreSQL).
_FENCES_QUERY = (
    select(_LEASES.c.room_id, _LEASES.c.owner, _LEASES.c.epoch)
    .where(_LEASES.c.room_id.in_(bindparam("rooms", expanding=True)))
    .with_for_update(read=True)
)


class LeaseLost(Exception):
    """This process no longer owns the table: its write was refused and it must let the table go."""


@dataclass(frozen=True, slots=True)
class Fence:
    """The owner and epoch a table's writes must still match."""

    owner: str
    epoch: int


def check_fence(connection: Connection, room_id: int, fence: Fence) -> None:
    """Inside a writing transaction: refuse it unless ``fence`` still holds the room's lease. The row
    is read with a lock that a taking-over process's update must wait for (SQLite: the transaction
    already holds the write lock)."""
    if room_id not in fences_held(connection, {room_id: fence}):
        raise lease_lost(room_id)


def fences_held(connection: Connection, fences: Mapping[int, Fence]) -> set[int]:
    """Inside a writing transaction: the rooms (of ``fences``, room → fence) whose fence still holds
    their lease, read in one query with that lock (a group of tables' moves checks all at once)."""
    if not fences:
        return set()
    leases = connection.execute(_FENCES_QUERY, {"rooms": sorted(fences)})
    return {room_id for room_id, owner, epoch in leases if Fence(owner, epoch) == fences[room_id]}


def lease_lost(room_id: int) -> LeaseLost:
    return LeaseLost(f"room #{room_id}: the table's lease passed to another process")
