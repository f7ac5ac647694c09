"""The page's heartbeat: a table socket whose server stops answering (paused, cut off) is given up
within seconds and a new one opened, instead of a table that stays silent (issue 31)."""

from __future__ import annotations

import json
import os
import re
import signal
from pathlib import Path

from playwright.sync_api import Page, WebSocketRoute, expect

from ..server_support import free_port, running_server
from .conftest import Watched
from .support import WIRE, create_room_with_bots, enter

PING_AFTER_SECONDS = 2.5  # room.js: PING_AFTER_MS
PONG_WITHIN_SECONDS = 2.0  # room.js: PONG_WITHIN_MS
TICK_SECONDS = 0.25  # room.js: the client's timer, which looks at the heartbeat
# The page's timers run late on a busy machine (the suite runs on more workers than cores): the new
# socket may come this much after the heartbeat's own bound and still be the heartbeat's doing. A
# socket kept until the browser noticed the dead connection by itself would take minutes.
LATE_SECONDS = 2.0


def test_a_silent_server_is_given_up_and_the_table_comes_back(pages: Watched, tmp_path: Path) -> None:
    port = free_port()
    url = f"sqlite:///{tmp_path / 'heartbeat.sqlite3'}"
    # Bots that think a long while: the table is quiet, as when a person thinks.
    with running_server(url, port, bot_delay_seconds=60, deal_wait_seconds=0) as server:
        page: Page = pages.page("desktop")
        page.add_init_script(WIRE)  # the page's clock at each socket it opens, and what it hears
        enter(page, f"http://127.0.0.1:{port}/", "心跳")
        create_room_with_bots(page, "nanjing")
        page.click('[data-role="start"]')
        expect(page.locator(".table")).to_be_visible()
        # A quiet table pings, and its own server answers: it keeps its socket.
        page.wait_for_function("window.__heard.some((message) => message.type === 'pong')")
        assert page.evaluate("window.__sockets.length") == 1, "a table its server answers kept its socket"
        stopped = page.evaluate("performance.now()")  # taken before the stop: the interval is no shorter
        os.kill(server.pid, signal.SIGSTOP)
        try:
            page.wait_for_function("window.__sockets.length >= 2", timeout=60_000)
            given_up = (page.evaluate("window.__sockets[1]") - stopped) / 1000
            # The last message may have come just before the stop: a ping once the socket has been
            # quiet PING_AFTER, given up PONG_WITHIN after it, each looked at on the next tick.
            bound = PING_AFTER_SECONDS + PONG_WITHIN_SECONDS + 2 * TICK_SECONDS
            assert given_up <= bound + LATE_SECONDS, f"the page kept its silent socket {given_up:.1f} s"
            expect(page.locator(".banner.offline")).to_be_visible()
        finally:
            os.kill(server.pid, signal.SIGCONT)
        expect(page.locator(".banner.offline")).to_have_count(0)
        expect(page.locator(".table")).to_be_visible()


def test_a_broken_relay_says_the_servers_switch_lines_until_the_table_is_back(
    pages: Watched, base_url: str
) -> None:
    """In a cluster, a socket whose process lost Redis is told so (a ``relay`` message) and closed; the
    page says why while it comes back (issue 48). The socket here passes through the test, which says
    what such a process says and then refuses the page's sockets for a while."""
    page: Page = pages.page("portrait")
    state = {"refuse": False}
    routes: list[WebSocketRoute] = []

    def route(socket: WebSocketRoute) -> None:
        if state["refuse"]:
            socket.close()
            return
        socket.connect_to_server()
        routes.append(socket)

    page.route_web_socket(re.compile(r"/api/rooms/\d+/ws"), route)
    enter(page, base_url, "换线")
    create_room_with_bots(page, "nanning")
    page.click('[data-role="start"]')
    expect(page.locator(".hand-tile").first).to_be_visible()
    state["refuse"] = True
    routes[-1].send(json.dumps({"type": "relay", "state": "away"}))
    routes[-1].close()
    banner = page.locator('[data-role="reconnecting"]')
    expect(banner).to_contain_text("服务器之间换线路")
    page.click("#lang")
    expect(banner).to_contain_text("The servers are switching lines")
    state["refuse"] = False  # relayed the other way: the table is back, and the banner gone
    expect(banner).to_have_count(0)
    expect(page.locator(".hand-tile").first).to_be_visible()
