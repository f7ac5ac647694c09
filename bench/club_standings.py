"""How long a club's standings (战绩统计, issue 49) take to answer for a club of many stored matches.

    python bench/club_standings.py                         # 1,000 matches on SQLite, 12 members
    python bench/club_standings.py --database-url postgresql+psycopg://…/db --matches 1000

It stores a club and ``--matches`` ended matches of its members (four seats each, results as a match's
end stores them, spread over the last 90 days, and as many other rooms outside the club), then times
``Standings.of`` — the standings and the first page of matches, as ``GET /api/clubs/{number}/standings``
answers — for each period, ``--runs`` times, by the wall clock. Goal: under 100 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from hupai.server.storage.database import connect, migrate
from hupai.server.storage.models import Club, ClubMember, Result, Room, User, utcnow
from hupai.server.storage.standings import Standings
from hupai.server.storage.transactions import Transactions

GOAL_MS = 100.0


def stored_club(url: str, matches: int, members: int, rng: random.Random) -> tuple[Transactions, str, int]:
    """The club's number and a member's id, with its matches stored (and as many rooms elsewhere)."""
    sessions = connect(url)
    tx = Transactions(sessions)
    with sessions.begin() as db:
        players = [
            User(name=f"牌友{index}", login=f"member{index}-{rng.random()}") for index in range(members)
        ]
        db.add_all(players)
        db.flush()
        club = Club(number=f"{rng.randrange(10**7, 10**8)}", name="周五麻将", owner_id=players[0].id)
        club.members = [ClubMember(user_id=player.id, role="member") for player in players]
        club.members[0].role = "owner"
        db.add(club)
        db.flush()
        for index in range(2 * matches):
            seated = rng.sample(players, 4)
            room = Room(
                number=f"{100000 + index % 900000}",
                preset="nanjing",
                options={},
                hands=8,
                decision_seconds=15,
                bot_level="strong",
                host_id=seated[0].id,
                status="finished",
                seed=index,
                club_id=club.id if index % 2 == 0 else None,
                finished_at=utcnow() - timedelta(days=rng.uniform(0, 90)),
            )
            db.add(room)
            db.flush()
            totals = [rng.randrange(-60, 61) for _ in range(3)]
            totals.append(-sum(totals))
            for seat, (player, total) in enumerate(zip(seated, totals, strict=True)):
                rank = 1 + sum(other > total for other in totals)
                db.add(
                    Result(
                        room_id=room.id,
                        seat=seat,
                        user_id=player.id,
                        name=player.name,
                        total=total,
                        rank=rank,
                    )
                )
        return tx, club.number, players[0].id


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", help="default: a fresh SQLite file")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--members", type=int, default=12)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(0)
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'standings.sqlite3'}"
        migrate(url)
        tx, number, member = stored_club(url, args.matches, args.members, rng)
        standings = Standings(tx)
        worst = 0.0
        for period in ("week", "month", "all"):
            seconds = []
            for _ in range(args.runs):
                started = time.perf_counter()
                out = standings.of(number, member, period)
                seconds.append(time.perf_counter() - started)
            median, slowest = statistics.median(seconds) * 1000, max(seconds) * 1000
            worst = max(worst, median)
            played = sum(row.matches for row in out.standings) // 4
            print(f"{period:5} {played:5} matches counted: median {median:.1f} ms, slowest {slowest:.1f} ms")
        print(f"goal: under {GOAL_MS:.0f} ms — {'met' if worst < GOAL_MS else 'NOT MET'}")
    return 0 if worst < GOAL_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
