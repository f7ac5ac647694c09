"""A server's stop ends even when giving its tables up hangs: after ``STOP_LIMIT_SECONDS`` it goes,
having said what it waited for (every move was stored before anyone was told of it: nothing is lost)."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import pytest

from hupai.server import app as app_module
from hupai.server.app import create_app
from hupai.server.tables import Tables

from ..server_support import fast_settings


def test_a_stop_whose_tables_never_let_go_ends_after_its_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def never(_tables: Tables) -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(Tables, "close", never)
    monkeypatch.setattr(app_module, "STOP_REPORT_SECONDS", 0.2)
    monkeypatch.setattr(app_module, "STOP_LIMIT_SECONDS", 0.5)
    application = create_app(fast_settings(f"sqlite:///{tmp_path / 'hupai.sqlite3'}"))

    async def start_and_stop() -> float:
        lifespan = application.router.lifespan_context(application)
        await lifespan.__aenter__()
        started = time.monotonic()
        await asyncio.wait_for(lifespan.__aexit__(None, None, None), timeout=10)
        return time.monotonic() - started

    with caplog.at_level(logging.INFO, logger="hupai"):
        seconds = asyncio.run(start_and_stop())
    assert 0.5 <= seconds < 5
    assert "still stopping after 0.2 s; tasks:" in caplog.text  # what it waited for, in the log
    assert "gave up stopping the tables after 0.5 s" in caplog.text
