"""A match in play: its moves, the seats' contributions to each hand's wall, and each hand's and the
match's end. The table's owner writes these through a fenced store (every write checks the lease)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Connection, Table, bindparam, insert, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from hupai.server.errors import AlreadyContributed, Conflict, DealClosed, NotFound
from hupai.server.storage.fencing import Fence, fences_held, lease_lost
from hupai.server.storage.models import Contribution, Move, PlayedHand, Result, Room, utcnow
from hupai.server.storage.outputs import bot_name
from hupai.server.storage.rooms import SEATS
from hupai.server.storage.transactions import Transactions

MOVES = cast(Table, Move.__table__)
# A group's rows as parameters of one statement (sent as one multi-row INSERT), skipping moves there
# already; RETURNING tells how many went in. Built once (SQLite's, PostgreSQL's) and run on the
# connection: it runs for every group of moves stored.
_INSERT_NEW_MOVES = {
    "sqlite": sqlite_insert(MOVES).on_conflict_do_nothing().returning(MOVES.c.id),
    "postgresql": postgresql_insert(MOVES).on_conflict_do_nothing().returning(MOVES.c.id),
}

_INSERT_CONTRIBUTION = insert(cast(Table, Contribution.__table__))
# The room's row locked first, so that one room's contributions queue up (PostgreSQL; SQLite's write
# lock is the database's).
_LOCK_ROOM = select(Room.id).where(Room.id == bindparam("room_id")).with_for_update()
_CONTRIBUTIONS = select(Contribution.seat, Contribution.value).where(
    Contribution.room_id == bindparam("room_id"), Contribution.hand_index == bindparam("hand_index")
)


@dataclass(frozen=True, slots=True)
class MoveGroup:
    """One table's moves to store: moves ``first``, ``first + 1``, … of a hand, under the table's
    ``fence`` (None: a single process, which holds no leases)."""

    room_id: int
    hand_index: int
    first: int
    actions: list[dict[str, Any]]
    fence: Fence | None = None

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "room_id": self.room_id,
                "hand_index": self.hand_index,
                "number": self.first + offset,
                "action": action,
            }
            for offset, action in enumerate(self.actions)
        ]


class Play:
    def __init__(self, tx: Transactions) -> None:
        self.tx = tx

    def add_move(self, room_id: int, hand_index: int, number: int, action: dict[str, Any]) -> None:
        """Store move ``number`` of a hand. Storing the same move again is no error: a table retries a
        write whose answer it lost (the database went away just after the commit)."""
        self.add_moves(room_id, hand_index, number, [action])

    def add_moves(self, room_id: int, hand_index: int, first: int, actions: list[dict[str, Any]]) -> None:
        """Store moves ``first``, ``first + 1``, … of a hand in one transaction (a claim window's
        decisions, written together before its release). Stored already, the same moves are no error."""
        group = MoveGroup(room_id, hand_index, first, actions)
        try:
            with self.tx.writing() as db:
                # A Core insert: the ORM's unit of work cost more than the rest of a move's write.
                db.execute(insert(MOVES), group.rows())
        except Conflict:
            if self._stored_actions(group) != actions:
                raise

    def add_move_groups(self, groups: Sequence[MoveGroup]) -> list[Exception | None]:
        """Store the moves of many tables in one transaction (group commit: one lock, one fence
        query and one commit for all of them): per group, None once stored, or why it was not —
        :class:`LeaseLost` when its fence no longer holds the room's lease, :class:`Conflict` when
        other moves hold its numbers. Moves stored already, the same, are no error (a write retried
        after its answer was lost). Raises only for the whole transaction (the database away)."""
        outcomes: list[Exception | None] = [None] * len(groups)
        with self.tx.writing_rows() as connection:
            fences = {group.room_id: group.fence for group in groups if group.fence is not None}
            held = fences_held(connection, fences)
            for index, group in enumerate(groups):
                if group.fence is not None and group.room_id not in held:
                    outcomes[index] = lease_lost(group.room_id)
            writing = [group for group, outcome in zip(groups, outcomes, strict=True) if outcome is None]
            rows = [row for group in writing for row in group.rows()]
            if not rows:
                return outcomes
            statement = _INSERT_NEW_MOVES[connection.dialect.name]
            inserted = len(connection.execute(statement, rows).all())
            if inserted != len(rows):  # some were there already: the same moves, or a conflict
                for index, group in enumerate(groups):
                    if outcomes[index] is None and self._stored_actions(group, connection) != group.actions:
                        outcomes[index] = Conflict(f"room #{group.room_id}: other moves hold these numbers")
        return outcomes

    def _stored_actions(
        self, group: MoveGroup, connection: Connection | None = None
    ) -> list[dict[str, Any] | None]:
        numbers = range(group.first, group.first + len(group.actions))
        query = select(Move.number, Move.action).where(
            Move.room_id == group.room_id, Move.hand_index == group.hand_index, Move.number.in_(numbers)
        )
        found: dict[int, dict[str, Any]]
        if connection is None:
            with self.tx.reading() as reader:
                found = dict(reader.execute(query).all())
        else:
            found = dict(connection.execute(query).all())
        return [found.get(number) for number in numbers]

    def add_contribution(self, room_id: int, hand_index: int, seat: int, value: str) -> None:
        """Store a seat's contribution to a hand's wall: once per seat and hand (the first stands,
        :class:`AlreadyContributed`), and never once the hand is dealt (:class:`DealClosed`)."""
        # Statements on a connection, as the moves are: four a hand for every table, and an ORM
        # session's bookkeeping cost more than they do (docs/speed.md, step 15).
        with self.tx.writing_rows() as connection:
            stored = _locked_contributions(connection, room_id, hand_index)
            if len(stored) == SEATS:
                raise DealClosed(f"hand {hand_index + 1} is dealt: its contributions are sealed")
            if seat in stored:
                raise AlreadyContributed(f"seat {seat} has contributed to hand {hand_index + 1} already")
            try:
                connection.execute(_INSERT_CONTRIBUTION, [_contribution(room_id, hand_index, seat, value)])
            except IntegrityError:  # the same seat at the same moment: the other write stands
                raise AlreadyContributed(
                    f"seat {seat} has contributed to hand {hand_index + 1} already"
                ) from None

    def seal_contributions(self, room_id: int, hand_index: int) -> tuple[str, str, str, str]:
        """The four contributions a hand is dealt with, stored before the deal: "" is written for
        every seat that sent none, so nothing more is taken and a rebuild deals the same wall."""
        with self.tx.writing_rows() as connection:
            stored = _locked_contributions(connection, room_id, hand_index)
            missing = [seat for seat in range(SEATS) if seat not in stored]
            if missing:
                rows = [_contribution(room_id, hand_index, seat, "") for seat in missing]
                connection.execute(_INSERT_CONTRIBUTION, rows)
                stored.update(dict.fromkeys(missing, ""))
            return stored[0], stored[1], stored[2], stored[3]

    def contributions(self, room_id: int) -> dict[int, dict[int, str]]:
        """Every stored contribution of a room: hand index → seat → value."""
        with self.tx.reading() as db:
            found: dict[int, dict[int, str]] = {}
            for row in db.scalars(select(Contribution).where(Contribution.room_id == room_id)):
                found.setdefault(row.hand_index, {})[row.seat] = row.value
            return found

    def moves(self, room_id: int) -> list[list[dict[str, Any]]]:
        """Every stored move, per hand, in order."""
        with self.tx.reading() as db:
            rows = db.scalars(
                select(Move).where(Move.room_id == room_id).order_by(Move.hand_index, Move.number)
            )
            hands: list[list[dict[str, Any]]] = []
            for row in rows:
                while len(hands) <= row.hand_index:
                    hands.append([])
                hands[row.hand_index].append(row.action)
            return hands

    def finish_hand(
        self, room_id: int, hand_index: int, record: dict[str, Any], result: dict[str, Any]
    ) -> None:
        with self.tx.writing() as db:
            db.merge(PlayedHand(room_id=room_id, hand_index=hand_index, record=record, result=result))

    def finish_match(
        self, room_id: int, status: str, totals: Sequence[int], summary: dict[str, Any] | None = None
    ) -> None:
        """The match's end: the room's status, each seat's result and the 大结算 (``summary``), which a
        page opening the room later is shown."""
        with self.tx.writing() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            room.status = status
            room.finished_at = utcnow()
            room.summary = summary
            order = sorted(range(SEATS), key=lambda seat: -totals[seat])
            for place in room.seats:
                bot = bot_name(place.bot_level, place.seat) or ""
                name = place.user.name if place.user is not None else bot
                db.merge(
                    Result(
                        room_id=room_id,
                        seat=place.seat,
                        user_id=place.user_id,
                        name=name,
                        total=totals[place.seat],
                        rank=1 + sum(1 for other in order if totals[other] > totals[place.seat]),
                    )
                )

    def summary(self, room_id: int) -> dict[str, Any] | None:
        """The 大结算 of the room's ended match, if it has one."""
        with self.tx.reading() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            return room.summary


def _locked_contributions(connection: Connection, room_id: int, hand_index: int) -> dict[int, str]:
    """A hand's contributions stored so far (seat → value), its room locked until the transaction ends."""
    connection.execute(_LOCK_ROOM, {"room_id": room_id})
    found: dict[int, str] = dict(
        connection.execute(_CONTRIBUTIONS, {"room_id": room_id, "hand_index": hand_index}).all()
    )
    return found


def _contribution(room_id: int, hand_index: int, seat: int, value: str) -> dict[str, Any]:
    return {"room_id": room_id, "hand_index": hand_index, "seat": seat, "value": value}
