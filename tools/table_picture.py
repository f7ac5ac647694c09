"""The README's picture of the table: a real server, a player in the browser and three bots, some turns
into a hand, photographed as a player sees it.

    .venv/bin/python tools/table_picture.py                    # docs/img/table.png (1280×800)
    .venv/bin/python tools/table_picture.py --turns 12 --size 390x844 --out /tmp/portrait.png
    .venv/bin/python tools/table_picture.py --phone --size 844x390 --out docs/img/phone-sideways.png

Needs Debian's chromium (as the browser tests do). The committed picture was then made smaller with
Debian's pngquant (``pngquant --quality 70-90``: 400 kB to 90 kB, no visible change). The server runs in
this process on an SQLite file in a temporary folder, with the default timings but bots that answer
at once, so the picture comes in a few seconds.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, expect, sync_playwright

from hupai.server.app import create_app
from hupai.server.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
TURNS_SECONDS = 90.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def own_turns(page: Page, turns: int) -> None:
    """Play ``turns`` of the player's own discards (the tile furthest right, as drawn), passing on
    claims and taking no win, so the river and the others' melds fill in."""
    played = 0
    deadline = time.monotonic() + TURNS_SECONDS
    while played < turns and time.monotonic() < deadline:
        if page.locator('[data-role="hand-end"]').count():
            return
        let_go = page.locator('[data-action="pass"]')
        tiles = page.locator(".hand-tile.playable")
        try:
            if let_go.count():
                let_go.first.click(timeout=2000)
            elif tiles.count():
                tiles.last.dblclick(timeout=2000)
                played += 1
                page.wait_for_timeout(300)
        except Exception:  # the table moved on under the click (the page redraws on every update)
            pass
        page.wait_for_timeout(60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=9, help="own discards before the picture")
    parser.add_argument("--preset", default="nanjing")
    parser.add_argument("--size", default="1280x800", help="WIDTHxHEIGHT in CSS pixels")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "table.png")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument(
        "--phone",
        action="store_true",
        help="as a phone shows it: a touch screen (as installed: no browser bar)",
    )
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite:///{folder}/picture.sqlite3", bot_delay_seconds=0.05)
        port = free_port()
        server = uvicorn.Server(uvicorn.Config(create_app(settings), port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
                page = browser.new_page(
                    viewport={"width": width, "height": height},
                    locale="zh-CN",
                    is_mobile=args.phone,
                    has_touch=args.phone,
                )
                page.goto(f"http://127.0.0.1:{port}/")
                page.fill('[data-role="nickname"] input[name="name"]', "小明")
                page.click('[data-role="nickname"] button')
                page.select_option('[data-role="create"] select[name="preset"]', args.preset)
                page.click('[data-role="create"] button[type="submit"]')
                page.click('[data-role="fill"]')
                expect(page.locator(".seat-row.bot")).to_have_count(3)
                page.click('[data-role="start"]')
                expect(page.locator(".hand-tile").first).to_be_visible(timeout=20000)
                own_turns(page, args.turns)
                page.wait_for_timeout(400)
                args.out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=args.out)
                browser.close()
        finally:
            server.should_exit = True
            thread.join(10)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
