"""The dissolve vote (解散) as players know it from 房卡 apps: one player asks, every other person at
the table answers 同意 or 拒绝 within the room's countdown, silence counts as agreement, and one
refusal ends the vote for everyone (play goes on). Bots agree. Each vote is a row: who asked, where
in the match, every answer and how it ended; the room's record lists them (``dissolve_votes``).

Every change locks the room's row, so two players asking at once make one vote (the second asks is
an agreement), and an answer racing the countdown's end is either counted or refused, never both."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from hupai.server.errors import Conflict, Forbidden, NotFound
from hupai.server.schemas import RoomOut
from hupai.server.storage.models import DissolveVote, Move, PlayedHand, Room, utcnow
from hupai.server.storage.outputs import room_out
from hupai.server.storage.rooms import SEATS, room_by_number
from hupai.server.storage.transactions import Transactions
from hupai.server.storage.vote_terms import ASKS_PER_SEAT, asks_left, last_vote, quiet_left, voters

Outcome = Literal["open", "agreed", "refused"]
ENDED_IN_AGREEMENT = ("agreed", "timeout")  # timeout: silence counted as agreement


class Votes:
    def __init__(self, tx: Transactions) -> None:
        self.tx = tx

    def vote(self, number: str, user_id: int, agree: bool) -> tuple[RoomOut, Outcome]:
        """Ask for a dissolve (``agree`` with no vote open) or answer the open vote. Returns the room
        and how the vote stands: still ``open``, ``agreed`` by everyone (the match ends now) or
        ``refused``."""
        with self.tx.writing() as db:
            room = room_by_number(db, number, lock=True)
            if room.status == "closed":
                raise Conflict(
                    f"the room was closed: {room.closed_reason}; there is nothing to dissolve",
                    code="dissolve_not_playing",
                )
            if room.status != "playing":
                raise Conflict("only a game in play is dissolved by vote", code="dissolve_not_playing")
            seat = next(
                (place.seat for place in room.seats if place.user_id == user_id and not place.left), None
            )
            if seat is None:
                raise Forbidden("you have no seat in this game")
            last = last_vote(room)
            if last is not None and last.result in ENDED_IN_AGREEMENT:  # the table is ending the match
                if not agree:
                    raise Conflict("the game is being dissolved: everyone agreed", code="dissolve_ending")
                return room_out(room), "agreed"
            vote = open_vote(room)
            if vote is None:
                if not agree:
                    raise Conflict(
                        "nobody has asked to dissolve the game; there is nothing to refuse",
                        code="dissolve_no_vote",
                    )
                vote = self._ask(db, room, seat)
            elif vote.answers[seat] is not None:
                if vote.answers[seat] != agree:
                    raise Conflict(
                        "you have answered this vote already; an answer cannot be changed",
                        code="dissolve_answered",
                    )
            else:
                vote.answers = [agree if place == seat else given for place, given in enumerate(vote.answers)]
            outcome = _outcome(room, vote)
            if outcome != "open":
                vote.result = outcome
                vote.ended_at = utcnow()
            db.flush()
            return room_out(room), outcome

    def _ask(self, db: Session, room: Room, seat: int) -> DissolveVote:
        now = utcnow()
        last = last_vote(room)
        wait = quiet_left(last, now) if last is not None else timedelta(0)
        if wait > timedelta(0):
            seconds = int(wait.total_seconds()) + 1
            raise Conflict(
                f"a vote to dissolve was just refused; ask again in {seconds} s",
                code="dissolve_refused_recently",
                params={"seconds": seconds},
            )
        if asks_left(room)[seat] == 0:
            raise Conflict(
                f"you have asked to dissolve this game {ASKS_PER_SEAT} times; play on",
                code="dissolve_asked_enough",
                params={"times": ASKS_PER_SEAT},
            )
        hand = db.scalar(select(func.count()).select_from(PlayedHand).where(PlayedHand.room_id == room.id))
        moves = db.scalar(
            select(func.count()).select_from(Move).where(Move.room_id == room.id, Move.hand_index == hand)
        )
        vote = DissolveVote(
            asked_by=seat,
            hand_index=hand or 0,
            after_move=moves or 0,
            answers=[True if place == seat else None for place in range(SEATS)],
            started_at=now,
            deadline=now + timedelta(seconds=room.dissolve_seconds),
        )
        room.dissolve_votes.append(vote)
        return vote

    def lapse(self, room_id: int, number: int) -> bool:
        """The countdown of the room's vote ``number`` ran out: whoever has not answered agrees by
        silence, and the match ends. False when that vote is no longer open (refused or agreed just
        before), or the room no longer in play."""
        with self.tx.writing() as db:
            room = db.get(Room, room_id, with_for_update=True)
            if room is None or room.status != "playing" or len(room.dissolve_votes) != number:
                return False
            vote = open_vote(room)
            if vote is None:
                return False
            vote.result = "timeout"
            vote.ended_at = utcnow()
            return True

    def agreed(self, room_id: int) -> bool:
        """Whether the room's last vote ended in agreement while the match is still in play: a table
        whose process stopped before it heard so (rebuilt from storage) ends the match then."""
        with self.tx.reading() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            last = last_vote(room)
            return room.status == "playing" and last is not None and last.result in ENDED_IN_AGREEMENT


def open_vote(room: Room) -> DissolveVote | None:
    last = last_vote(room)
    return last if last is not None and last.result is None else None


def _outcome(room: Room, vote: DissolveVote) -> Outcome:
    if any(answer is False for answer in vote.answers):
        return "refused"
    if all(vote.answers[seat] is True for seat in voters(room)):
        return "agreed"
    return "open"


def votes_for_record(room: Room) -> list[dict[str, Any]]:
    """The room's votes as its record lists them (docs/record-format.md, Dissolve votes)."""
    return [
        {
            "hand": vote.hand_index,
            "after": vote.after_move,
            "asked_by": vote.asked_by,
            "answers": list(vote.answers),
            "result": vote.result,
        }
        for vote in room.dissolve_votes
    ]
