"""The page's heartbeat: a table socket whose server stops answering (paused, cut off) is given up
within seconds and a new one opened, instead of a table that stays silent (issue 31)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from ..server_support import free_port, running_server
from .conftest import Watched
from .support import create_room_with_bots, enter

PING_AFTER_SECONDS = 2.5  # room.js: PING_AFTER_MS
PONG_WITHIN_SECONDS = 2.0  # room.js: PONG_WITHIN_MS


def test_a_silent_server_is_given_up_and_the_table_comes_back(pages: Watched, tmp_path: Path) -> None:
    port = free_port()
    url = f"sqlite:///{tmp_path / 'heartbeat.sqlite3'}"
    # Bots that think a long while: the table is quiet, as when a person thinks.
    with running_server(url, port, bot_delay_seconds=60, deal_wait_seconds=0) as server:
        page: Page = pages.page("desktop")
        sockets: list[float] = []
        page.on("websocket", lambda _socket: sockets.append(time.monotonic()))
        enter(page, f"http://127.0.0.1:{port}/", "心跳")
        create_room_with_bots(page, "nanjing")
        page.click('[data-role="start"]')
        expect(page.locator(".table")).to_be_visible()
        time.sleep(PING_AFTER_SECONDS + 1)  # a quiet table pings, and its own server answers
        assert len(sockets) == 1, "a quiet table that its server answers keeps its socket"
        os.kill(server.pid, signal.SIGSTOP)
        stopped = time.monotonic()
        try:
            deadline = stopped + PING_AFTER_SECONDS + PONG_WITHIN_SECONDS + 3
            while len(sockets) < 2 and time.monotonic() < deadline:
                page.wait_for_timeout(200)
            assert len(sockets) >= 2, "the page kept a socket its server no longer answers"
            assert sockets[1] - stopped <= PING_AFTER_SECONDS + PONG_WITHIN_SECONDS + 1
            expect(page.locator(".banner.offline")).to_be_visible()
        finally:
            os.kill(server.pid, signal.SIGCONT)
        expect(page.locator(".banner.offline")).to_have_count(0, timeout=10_000)
        expect(page.locator(".table")).to_be_visible()
