"""What was played, read back: a player's history with statistics, a room's settlements, and the
records of its finished hands (never a hand still in play)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from hupai.rules import load_ruleset
from hupai.server.errors import NotFound
from hupai.server.schemas import HistoryEntry
from hupai.server.stats import ranks, seat_stats
from hupai.server.storage.models import PlayedHand, Result, Room, RoomSeat
from hupai.server.storage.rooms import SEATS, room_by_number
from hupai.server.storage.transactions import Transactions
from hupai.server.storage.votes import votes_for_record


class Records:
    def __init__(self, tx: Transactions) -> None:
        self.tx = tx

    def history(self, user_id: int, *, limit: int = 50) -> list[HistoryEntry]:
        """My games, newest first, each with my result and my statistics over its hands."""
        with self.tx.reading() as db:
            query = (
                select(Room, RoomSeat.seat)
                .join(RoomSeat, RoomSeat.room_id == Room.id)
                .where(RoomSeat.user_id == user_id)
                .order_by(Room.id.desc())
                .limit(limit)
            )
            return [self._history_entry(db, room, seat) for room, seat in db.execute(query).all()]

    @staticmethod
    def _history_entry(db: Session, room: Room, seat: int) -> HistoryEntry:
        results = list(db.scalars(select(PlayedHand.result).where(PlayedHand.room_id == room.id)))
        totals = {row.seat: row.total for row in db.scalars(select(Result).where(Result.room_id == room.id))}
        rank: int | None = None
        if len(totals) == SEATS:
            rank = ranks([totals[place] for place in range(SEATS)], results)[seat]
        ruleset = load_ruleset(room.preset, room.options)
        stats = seat_stats(results, seat)
        return HistoryEntry(
            number=room.number,
            status=room.status,
            preset=room.preset,
            rules_zh=ruleset.zh,
            rules_en=ruleset.en,
            seat=seat,
            total=totals.get(seat),
            rank=rank,
            hands_played=len(results),
            created_at=room.created_at.isoformat(timespec="seconds") + "Z",
            wins=stats.wins,
            self_draws=stats.self_draws,
            deal_ins=stats.deal_ins,
            kongs=stats.kongs,
            biggest=stats.biggest,
        )

    def played_hands(self, number: str) -> list[dict[str, Any]]:
        """The settlements of the finished hands of a room (public to anyone who knows the number)."""
        with self.tx.reading() as db:
            room = room_by_number(db, number)
            rows = db.scalars(
                select(PlayedHand).where(PlayedHand.room_id == room.id).order_by(PlayedHand.hand_index)
            )
            return [row.result for row in rows]

    def hand_record(self, number: str, hand_index: int) -> dict[str, Any]:
        """A finished hand's record with every tile open; a hand still in play is not given out."""
        with self.tx.reading() as db:
            room = room_by_number(db, number)
            row = db.get(PlayedHand, (room.id, hand_index))
            if row is None:
                raise NotFound(f"hand {hand_index} of room {number} is not finished (or does not exist)")
            return row.record

    def match_record(self, number: str) -> dict[str, Any]:
        """Every finished hand of a room as one ``hupai-record/1``."""
        with self.tx.reading() as db:
            room = room_by_number(db, number)
            record = joined_record(db, room.id)
            if record is None:
                raise NotFound(f"room {number} has no finished hand yet")
            if room.dissolve_votes:
                record["dissolve_votes"] = votes_for_record(room)
            return record

    def results(self, room_id: int) -> list[Result]:
        with self.tx.reading() as db:
            return list(db.scalars(select(Result).where(Result.room_id == room_id).order_by(Result.seat)))


def joined_record(db: Session, room_id: int) -> dict[str, Any] | None:
    """A room's finished hands as one ``hupai-record/1`` (None: none finished yet)."""
    rows = db.scalars(
        select(PlayedHand).where(PlayedHand.room_id == room_id).order_by(PlayedHand.hand_index)
    ).all()
    if not rows:
        return None
    record = dict(rows[0].record)
    record["hands"] = [hand for row in rows for hand in row.record["hands"]]
    return record


def hands_played(db: Session, room_ids: Sequence[int]) -> dict[int, int]:
    """How many hands each of these rooms has finished (rooms with none are left out)."""
    if not room_ids:
        return {}
    rows = db.execute(
        select(PlayedHand.room_id, func.count())
        .where(PlayedHand.room_id.in_(room_ids))
        .group_by(PlayedHand.room_id)
    ).all()
    return {room_id: int(count) for room_id, count in rows}
