"""Everything the server keeps, behind one small API (synchronous SQLAlchemy sessions), in parts by
concern: ``accounts`` (guests, players, sessions), ``rooms`` (before and around a match),
``invitations`` (who may come in), ``clubs`` (亲友圈) and their ``standings``, ``votes``
(the dissolve vote), ``play`` (a match's moves, contributions and ends), ``records`` (history and
records read back), ``reviews`` (复盘) and ``upkeep``.

Web handlers call it from the thread pool; table tasks call it through ``asyncio.to_thread``, and
store their moves through ``moves`` (:mod:`~hupai.server.storage.group_commit`). Each method is one
transaction. Errors are :class:`~hupai.server.errors.StoreError` subclasses carrying an
HTTP status and a message a player understands.
"""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from hupai.server.storage.accounts import Accounts
from hupai.server.storage.clubs import DEFAULT_CLUB_BOUNDS, ClubBounds, Clubs
from hupai.server.storage.fencing import Fence
from hupai.server.storage.group_commit import MoveWriter
from hupai.server.storage.invitations import Invitations
from hupai.server.storage.play import Play
from hupai.server.storage.records import Records
from hupai.server.storage.reviews import Reviews
from hupai.server.storage.rooms import Rooms
from hupai.server.storage.standings import Standings
from hupai.server.storage.transactions import Transactions
from hupai.server.storage.upkeep import Upkeep
from hupai.server.storage.votes import Votes


class Store:
    def __init__(
        self,
        sessions: sessionmaker[Session],
        *,
        session_days: int = 30,
        waiting_rooms_per_user: int = 3,
        club_bounds: ClubBounds = DEFAULT_CLUB_BOUNDS,
        fence: tuple[int, Fence] | None = None,
        moves: MoveWriter | None = None,
    ) -> None:
        self.sessions = sessions
        self.fence = fence  # (room id, fence) for a table's owner
        self.session_days = session_days
        self.waiting_rooms_per_user = waiting_rooms_per_user
        tx = Transactions(sessions, fence)
        self.accounts = Accounts(sessions, session_days=session_days)
        self.club_bounds = club_bounds
        self.rooms = Rooms(
            tx,
            waiting_rooms_per_user=waiting_rooms_per_user,
            waiting_tables_per_club=club_bounds.waiting_tables_per_club,
        )
        self.invitations = Invitations(tx)
        self.clubs = Clubs(tx, club_bounds)
        self.standings = Standings(tx)
        self.play = Play(tx)
        self.records = Records(tx)
        self.reviews = Reviews(tx)
        self.upkeep = Upkeep(tx)
        self.votes = Votes(tx)
        # A table's moves, grouped with other tables' in one transaction: one writer per process,
        # shared by every table's fenced store.
        self.moves = MoveWriter(Play(Transactions(sessions))) if moves is None else moves

    def fenced(self, room_id: int, fence: Fence) -> Store:
        """This store for the owner of a room's table: each write first checks that the owner still
        holds the room's lease (:func:`~hupai.server.storage.fencing.check_fence`), or raises
        ``LeaseLost``."""
        return Store(
            self.sessions,
            session_days=self.session_days,
            waiting_rooms_per_user=self.waiting_rooms_per_user,
            club_bounds=self.club_bounds,
            fence=(room_id, fence),
            moves=self.moves,
        )
