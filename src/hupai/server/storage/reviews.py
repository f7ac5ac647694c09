"""复盘 (issue 50): a player's review of their own seat in a finished match, kept once made.

One row per room, seat and budget. Asking claims it: a review done is answered as it is; one under way
elsewhere (its process wrote within ``stale_seconds``) is answered with its progress; otherwise the
asker's process takes it on (a process that died mid-review stops writing, and the next ask takes its
review over). Only the room's players review, and only their own seat: the review weighs what that
seat saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from hupai.server.errors import Conflict, Forbidden, NotFound
from hupai.server.storage.models import Review, utcnow
from hupai.server.storage.records import hands_played, joined_record
from hupai.server.storage.rooms import room_by_number
from hupai.server.storage.transactions import Transactions

ENDED = ("finished", "dissolved", "closed")
NONE, RUNNING, DONE, FAILED = "none", "running", "done", "failed"


@dataclass(frozen=True)
class ReviewState:
    """Where a review stands; ``taken``: the asker's process is to make it now."""

    room_id: int
    seat: int
    worlds: int
    status: str
    hands_done: int
    hands: int
    result: dict[str, Any] | None
    taken: bool = False

    def said(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "seat": self.seat, "hands_done": self.hands_done}
        out["hands"] = self.hands
        if self.result is not None:
            out["review"] = self.result
        return out


class Reviews:
    def __init__(self, tx: Transactions) -> None:
        self.tx = tx

    def ask(self, number: str, user_id: int, worlds: int, node: str, *, stale_seconds: float) -> ReviewState:
        """The asker's review of their seat in room ``number``: as it stands, or taken on here."""
        with self.tx.writing() as db:
            room = room_by_number(db, number, lock=True)
            seat = _own_seat(room, user_id)
            if room.status not in ENDED:
                raise Conflict("a match is reviewed once it has ended", code="review_not_ended")
            hands = hands_played(db, [room.id]).get(room.id, 0)
            if hands == 0:
                raise NotFound(f"room {number} has no finished hand to review", code="review_nothing")
            row = db.get(Review, (room.id, seat, worlds))
            fresh = row is not None and utcnow() - row.updated_at < timedelta(seconds=stale_seconds)
            if row is not None and (row.status == DONE or (row.status == RUNNING and fresh)):
                return _state(row)
            if row is None:
                row = Review(room_id=room.id, seat=seat, worlds=worlds)
                db.add(row)
            row.status = RUNNING
            row.hands_done = 0
            row.hands = hands
            row.result = None
            row.node = node
            row.updated_at = utcnow()
            db.flush()
            return _state(row, taken=True)

    def seen(self, number: str, user_id: int, worlds: int) -> ReviewState:
        """The asker's review as it stands (status ``none`` when never asked for)."""
        with self.tx.reading() as db:
            room = room_by_number(db, number)
            seat = _own_seat(room, user_id)
            row = db.get(Review, (room.id, seat, worlds))
            if row is None:
                return ReviewState(room.id, seat, worlds, NONE, 0, 0, None)
            return _state(row)

    def record_of(self, room_id: int) -> dict[str, Any]:
        """The room's match as one ``hupai-record/1`` (its finished hands)."""
        with self.tx.reading() as db:
            record = joined_record(db, room_id)
            if record is None:
                raise NotFound(f"room #{room_id} has no finished hand", code="review_nothing")
            return record

    def progress(self, state: ReviewState, node: str, hands_done: int) -> bool:
        """A hand more reviewed; False when another process has taken the review over meanwhile."""
        with self.tx.writing() as db:
            row = db.get(Review, (state.room_id, state.seat, state.worlds), with_for_update=True)
            if row is None or row.node != node or row.status != RUNNING:
                return False
            row.hands_done, row.updated_at = hands_done, utcnow()
            return True

    def finish(self, state: ReviewState, node: str, result: dict[str, Any] | None) -> None:
        """Done (``result``), or failed (None), unless another process took the review over."""
        with self.tx.writing() as db:
            row = db.get(Review, (state.room_id, state.seat, state.worlds), with_for_update=True)
            if row is None or row.node != node or row.status != RUNNING:
                return
            row.status, row.result, row.updated_at = (
                (DONE if result is not None else FAILED),
                result,
                utcnow(),
            )
            if result is not None:
                row.hands_done = row.hands


def _own_seat(room: Any, user_id: int) -> int:
    seat = next((place.seat for place in room.seats if place.user_id == user_id), None)
    if seat is None:
        raise Forbidden("only the match's players review it, each their own seat", code="review_players_only")
    return int(seat)


def _state(row: Review, *, taken: bool = False) -> ReviewState:
    return ReviewState(
        room_id=row.room_id,
        seat=row.seat,
        worlds=row.worlds,
        status=row.status,
        hands_done=row.hands_done,
        hands=row.hands,
        result=row.result,
        taken=taken,
    )
