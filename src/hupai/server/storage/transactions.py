"""The store's transactions: a read, a plain write, or a write that holds the database's write lock
from its first read and, for a table's owner, checks its fence (:mod:`hupai.server.storage.fencing`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from hupai.server.errors import Conflict
from hupai.server.storage.database import WRITE_LOCK
from hupai.server.storage.fencing import Fence, check_fence

CONFLICT = "someone else changed the room at the same moment; try again"


class Transactions:
    def __init__(self, sessions: sessionmaker[Session], fence: tuple[int, Fence] | None = None) -> None:
        self.sessions = sessions
        self.fence = fence

    def reading(self) -> Session:
        """A session to read in (``with tx.reading() as db``)."""
        return self.sessions()

    def plain(self) -> AbstractContextManager[Session]:
        """A writing transaction without the write lock, for rows no two requests race for."""
        return self.sessions.begin()

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """One writing transaction that holds the database's write lock from its first read (SQLite:
        BEGIN IMMEDIATE; PostgreSQL: the row locks each method takes), so concurrent changes to a room
        happen one after the other. A write the unique indexes refuse (one person in two seats of a
        room) is a lost race: 409."""
        try:
            with self.sessions.begin() as db:
                connection = db.connection(execution_options={WRITE_LOCK: True})
                if self.fence is not None:
                    check_fence(connection, *self.fence)
                yield db
        except IntegrityError:
            raise Conflict(CONFLICT) from None

    @contextmanager
    def writing_rows(self) -> Iterator[Connection]:
        """As :meth:`writing`, on a connection rather than a session, for statements that need no
        objects (the moves of many tables, at every move: the session's own bookkeeping cost more
        than the statements did, docs/speed.md step 14), with the same lock and fence."""
        engine: Engine = self.sessions.kw["bind"]
        try:
            with engine.connect() as connection:
                connection.execution_options(**{WRITE_LOCK: True})
                with connection.begin():
                    if self.fence is not None:
                        check_fence(connection, *self.fence)
                    yield connection
        except IntegrityError:
            raise Conflict(CONFLICT) from None
