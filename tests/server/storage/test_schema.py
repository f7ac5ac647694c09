"""The database schema comes from the Alembic migrations and matches the models exactly."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from hupai.server.storage.database import alembic_config, migrate
from hupai.server.storage.models import Base


def test_the_migrations_build_exactly_the_models(url: str) -> None:
    migrate(url)
    engine = create_engine(url)
    with engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    assert differences == []


def test_migrating_is_repeatable_and_reversible(url: str) -> None:
    migrate(url)
    migrate(url)  # a second start changes nothing
    engine = create_engine(url)
    assert {"users", "rooms", "room_seats", "moves", "played_hands", "results"} <= set(
        inspect(engine).get_table_names()
    )
    command.downgrade(alembic_config(url), "base")
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    migrate(url)
    assert "moves" in inspect(engine).get_table_names()
    engine.dispose()
