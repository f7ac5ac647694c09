"""A club's standings (战绩统计, issue 49): per player over this week, this month or all time — matches,
total score, average a match, 1st places and 大赢家 — and the club's matches with their players and
totals. Computed from the stored results of each ended match (``results``, written once at the
match's end), never kept twice: nothing to drift.

A week starts on Monday and a month on its first day, at midnight China Standard Time (UTC+8: the
rule sets are Chinese, and so are most tables). 1st place is a rank of 1 (ties share it); 大赢家 is
the match's biggest winner, a 1st place with more than 0 points.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import case, func, select
from sqlalchemy.orm import aliased

from hupai.server.schemas import ClubMatchOut, ClubStandingOut, ClubStandingsOut, MatchSeatOut
from hupai.server.storage.clubs import membership
from hupai.server.storage.models import Result, Room, User, utcnow
from hupai.server.storage.records import hands_played
from hupai.server.storage.transactions import Transactions

Period = Literal["week", "month", "all"]
CHINA = timedelta(hours=8)
ENDED = ("finished", "dissolved")  # matches that count: played to the end, or ended by a vote
MATCHES_SHOWN = 50  # a page of the club's matches


def period_start(period: Period, now: datetime) -> datetime | None:
    """When ``period`` began (UTC, naive as stored), or None for all time."""
    if period == "all":
        return None
    local = now + CHINA
    midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
    start = midnight - timedelta(days=local.weekday()) if period == "week" else midnight.replace(day=1)
    return start - CHINA


class Standings:
    def __init__(self, tx: Transactions) -> None:
        self.tx = tx

    def of(self, number: str, user_id: int, period: Period, *, before: int | None = None) -> ClubStandingsOut:
        """The standings and a page of matches (``before``: matches older than that room id)."""
        with self.tx.reading() as db:
            club, _member = membership(db, number, user_id)
            since = period_start(period, utcnow())
            ended = [Room.club_id == club.id, Room.status.in_(ENDED)]
            if since is not None:
                ended.append(Room.finished_at >= since)
            best = aliased(Result)
            top = select(func.max(best.total)).where(best.room_id == Result.room_id).scalar_subquery()
            rows = db.execute(
                select(
                    Result.user_id,
                    User.name,
                    func.count(),
                    func.sum(Result.total),
                    func.sum(case((Result.rank == 1, 1), else_=0)),
                    func.sum(case(((Result.total == top) & (Result.total > 0), 1), else_=0)),
                )
                .join(Room, Room.id == Result.room_id)
                .join(User, User.id == Result.user_id)
                .where(*ended)
                .group_by(Result.user_id, User.name)
            ).all()
            standings = sorted(
                (
                    ClubStandingOut(
                        user_id=player,
                        name=name,
                        matches=matches,
                        total=int(total),
                        average=round(int(total) / matches, 1),
                        firsts=int(firsts),
                        big_wins=int(big_wins),
                    )
                    for player, name, matches, total, firsts, big_wins in rows
                ),
                key=lambda row: (-row.total, -row.matches, row.name),
            )
            page = select(Room).where(*ended)
            if before is not None:
                page = page.where(Room.id < before)
            rooms = db.scalars(page.order_by(Room.id.desc()).limit(MATCHES_SHOWN)).all()
            seats = db.scalars(select(Result).where(Result.room_id.in_([room.id for room in rooms]))).all()
            played = hands_played(db, [room.id for room in rooms])
            by_room: dict[int, list[Result]] = {}
            for seat in seats:
                by_room.setdefault(seat.room_id, []).append(seat)
            matches = [
                ClubMatchOut(
                    number=room.number,
                    room_id=room.id,
                    status=room.status,
                    ended_at=room.finished_at,
                    hands=room.hands,
                    hands_played=played.get(room.id, 0),
                    players=[
                        MatchSeatOut(
                            seat=seat.seat,
                            user_id=seat.user_id,
                            name=seat.name,
                            total=seat.total,
                            rank=seat.rank,
                        )
                        for seat in sorted(by_room.get(room.id, []), key=lambda seat: seat.seat)
                    ],
                )
                for room in rooms
            ]
            return ClubStandingsOut(period=period, since=since, standings=standings, matches=matches)


def standings_csv(out: ClubStandingsOut) -> str:
    """The standings as CSV (UTF-8 with a byte-order mark, so that spreadsheet programs read the
    Chinese names right), one row a player, then one row a match."""
    text = io.StringIO()
    text.write("\ufeff")
    writer = csv.writer(text)
    writer.writerow(["player", "matches", "total", "average", "1st places", "大赢家"])
    for row in out.standings:
        writer.writerow([_cell(row.name), row.matches, row.total, row.average, row.firsts, row.big_wins])
    writer.writerow([])
    writer.writerow(["room", "ended (UTC)", "hands", "players and totals"])
    for match in out.matches:
        players = _cell("; ".join(f"{seat.name} {seat.total:+d}" for seat in match.players))
        ended = match.ended_at.isoformat(timespec="minutes") if match.ended_at else ""
        writer.writerow([match.number, ended, match.hands, players])
    return text.getvalue()


def _cell(text: str) -> str:
    """A name as a spreadsheet shows it, never as a formula it runs (=, +, - or @ first)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text
