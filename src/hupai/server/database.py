"""Connecting to the database and bringing its schema up to date (Alembic)."""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

# An execution option a writing session sets on its connection (see ``Store._writing``): on SQLite
# its transaction then begins with BEGIN IMMEDIATE, taking the write lock before it reads, so two
# writers never both read the same seats and overwrite each other. PostgreSQL needs nothing more
# than its row locks (SELECT … FOR UPDATE) and the unique indexes.
WRITE_LOCK = "hupai_write_lock"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(resources.files("hupai.server") / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def migrate(url: str) -> None:
    """Create or upgrade every table to the newest migration."""
    command.upgrade(alembic_config(url), "head")


def connect(url: str) -> sessionmaker[Session]:
    """A session factory for ``url``; SQLite is set up for many threads and concurrent readers."""
    engine = _engine(url)
    return sessionmaker(engine, expire_on_commit=False)


def _engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)
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
