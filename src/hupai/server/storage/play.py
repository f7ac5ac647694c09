"""A match in play: its moves, the seats' contributions to each hand's wall, and each hand's and the
match's end. The table's owner writes these through a fenced store (every write checks the lease)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import Table, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from hupai.server.errors import AlreadyContributed, Conflict, DealClosed, NotFound
from hupai.server.storage.models import Contribution, Move, PlayedHand, Result, Room, utcnow
from hupai.server.storage.outputs import bot_name
from hupai.server.storage.rooms import SEATS
from hupai.server.storage.transactions import Transactions

MOVES = cast(Table, Move.__table__)


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
        rows = [
            {"room_id": room_id, "hand_index": hand_index, "number": first + offset, "action": action}
            for offset, action in enumerate(actions)
        ]
        try:
            with self.tx.writing() as db:
                # A Core insert: the ORM's unit of work cost more than the rest of a move's write.
                db.execute(insert(MOVES), rows)
        except Conflict:
            if [self._move(room_id, hand_index, first + offset) for offset in range(len(actions))] != actions:
                raise

    def _move(self, room_id: int, hand_index: int, number: int) -> dict[str, Any] | None:
        with self.tx.reading() as db:
            query = select(Move.action).where(
                Move.room_id == room_id, Move.hand_index == hand_index, Move.number == number
            )
            return db.scalar(query)

    def add_contribution(self, room_id: int, hand_index: int, seat: int, value: str) -> None:
        """Store a seat's contribution to a hand's wall: once per seat and hand (the first stands,
        :class:`AlreadyContributed`), and never once the hand is dealt (:class:`DealClosed`)."""
        with self.tx.writing() as db:
            db.get(Room, room_id, with_for_update=True)  # one room's contributions queue up (PostgreSQL)
            stored = self._contributions_of(db, room_id, hand_index)
            if len(stored) == SEATS:
                raise DealClosed(f"hand {hand_index + 1} is dealt: its contributions are sealed")
            if seat in stored:
                raise AlreadyContributed(f"seat {seat} has contributed to hand {hand_index + 1} already")
            db.add(Contribution(room_id=room_id, hand_index=hand_index, seat=seat, value=value))
            try:
                db.flush()
            except IntegrityError:  # the same seat at the same moment: the other write stands
                raise AlreadyContributed(
                    f"seat {seat} has contributed to hand {hand_index + 1} already"
                ) from None

    def seal_contributions(self, room_id: int, hand_index: int) -> tuple[str, str, str, str]:
        """The four contributions a hand is dealt with, stored before the deal: "" is written for
        every seat that sent none, so nothing more is taken and a rebuild deals the same wall."""
        with self.tx.writing() as db:
            db.get(Room, room_id, with_for_update=True)
            stored = self._contributions_of(db, room_id, hand_index)
            for seat in range(SEATS):
                if seat not in stored:
                    db.add(Contribution(room_id=room_id, hand_index=hand_index, seat=seat, value=""))
                    stored[seat] = ""
            return stored[0], stored[1], stored[2], stored[3]

    def contributions(self, room_id: int) -> dict[int, dict[int, str]]:
        """Every stored contribution of a room: hand index → seat → value."""
        with self.tx.reading() as db:
            found: dict[int, dict[int, str]] = {}
            for row in db.scalars(select(Contribution).where(Contribution.room_id == room_id)):
                found.setdefault(row.hand_index, {})[row.seat] = row.value
            return found

    @staticmethod
    def _contributions_of(db: Session, room_id: int, hand_index: int) -> dict[int, str]:
        rows = db.scalars(
            select(Contribution).where(Contribution.room_id == room_id, Contribution.hand_index == hand_index)
        )
        return {row.seat: row.value for row in rows}

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

    def finish_match(self, room_id: int, status: str, totals: Sequence[int]) -> None:
        with self.tx.writing() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            room.status = status
            room.finished_at = utcnow()
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
