"""Shared test helpers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server_support import database, database_urls

DATA = Path(__file__).parent / "data"


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(params=database_urls())
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database for a server test, once on SQLite and once on PostgreSQL where CI gives one
    (``HUPAI_TEST_DATABASE_URL``), dropped afterwards."""
    with database(request.param, tmp_path) as database_url:
        yield database_url
