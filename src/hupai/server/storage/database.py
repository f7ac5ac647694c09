"""Connecting to the database and bringing its schema up to date (Alembic)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import NullPool

# An execution option a writing session sets on its connection (see ``Transactions.writing``): on SQLite
# its transaction then begins with BEGIN IMMEDIATE, taking the write lock before it reads, so two
# writers never both read the same seats and overwrite each other. PostgreSQL needs nothing more
# than its row locks (SELECT … FOR UPDATE) and the unique indexes.
WRITE_LOCK = "hupai_write_lock"
IDLE_IN_TRANSACTION_MS = 5000  # every transaction of the server takes milliseconds
MIGRATION_LOCK_KEY = 0x68757061  # "hupa": the PostgreSQL advisory lock processes migrate under

try:
    import fcntl
except ImportError:  # Windows: one process at a time is the user's business there
    fcntl = None  # type: ignore[assignment]


def outage(error: BaseException) -> bool:
    """Whether ``error`` says the database could not be reached or went away mid-call (worth trying
    again shortly), as opposed to one that refused the call (a constraint, a lost lease, a bug)."""
    if isinstance(error, OperationalError | InterfaceError | PoolTimeout):
        return True
    return isinstance(error, DBAPIError) and error.connection_invalidated


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(resources.files("hupai.server.storage") / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def migrate(url: str) -> None:
    """Create or upgrade every table to the newest migration. Processes starting together (``hupai
    serve --workers``, a cluster) take turns: the first migrates, the others then find nothing to do."""
    with _migration_lock(url):
        command.upgrade(alembic_config(url), "head")


@contextmanager
def _migration_lock(url: str) -> Iterator[None]:
    if url.startswith("postgresql"):
        engine = create_engine(url, poolclass=NullPool)
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
                try:
                    yield
                finally:
                    connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
        finally:
            engine.dispose()
        return
    path = make_url(url).database
    if not url.startswith("sqlite") or not path or path == ":memory:" or fcntl is None:
        yield
        return
    with open(f"{path}.migrating", "a+b") as lock:  # beside the database: same folder, same people
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def connect(url: str, *, connections: int = 20) -> sessionmaker[Session]:
    """A session factory for ``url`` with at most ``connections`` connections to PostgreSQL; SQLite
    is set up for many threads and concurrent readers."""
    engine = _engine(url, connections)
    return sessionmaker(engine, expire_on_commit=False)


def release(sessions: sessionmaker[Session]) -> None:
    """Close the pooled connections of a session factory from :func:`connect` (at shutdown)."""
    engine: Engine = sessions.kw["bind"]
    engine.dispose()


def _engine(url: str, connections: int) -> Engine:
    if not url.startswith("sqlite"):
        # A process paused or cut off inside a transaction must not hold its locks for ever: the
        # table leases it holds could then never be taken over. PostgreSQL ends such a session.
        options = f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}"
        # At most 20 connections a process for requests and tables (the thread pool does the
        # waiting), one for table leases and two for the relay's second way (cluster/notify.py):
        # PostgreSQL's default 100 connections then serve four processes (docs/deploy.md).
        kept = min(10, connections)
        return create_engine(
            url,
            pool_pre_ping=True,
            pool_size=kept,
            max_overflow=connections - kept,
            connect_args={"options": options},
        )
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(connection, _record):  # type: ignore[no-untyped-def]
        cursor = connection.cursor()
        if ":memory:" not in url:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        # The driver opens a transaction only at the first write, so a writer's reads ran outside any
        # transaction and two writers could both read a seat as free. A writing session begins with
        # the write lock instead; the driver then leaves that transaction alone.
        if connection.get_execution_options().get(WRITE_LOCK, False):
            connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine
