"""What the browser tests do as a person would: enter, create a room, play by clicking, look."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from ..server_support import free_port, running_server
from .conftest import ARTIFACTS, SIZES

HAND_SECONDS = 120


@contextmanager
def prepared_server(folder: Path, prepare: str, **settings: Any) -> Iterator[str]:
    """A server of its own whose deals are prepared (``prepare``: a function of tests/web/deals.py);
    yields its address."""
    port = free_port()
    with running_server(f"sqlite:///{folder / 'prepared.sqlite3'}", port, prepare=prepare, **settings):
        yield f"http://127.0.0.1:{port}/"


def enter(page: Page, base_url: str, name: str) -> None:
    page.goto(base_url)
    page.fill('[data-role="nickname"] input[name="name"]', name)
    page.click('[data-role="nickname"] button')
    expect(page.locator('[data-role="create"]')).to_be_visible()


def create_room_with_bots(page: Page, preset: str = "nanjing", hands: str = "4") -> str:
    page.select_option('[data-role="create"] select[name="preset"]', preset)
    page.click(f'[data-role="create"] [data-hands="{hands}"]')
    page.click('[data-role="create"] button[type="submit"]')
    number = page.locator('[data-role="number"]').inner_text().strip()
    assert number.isdigit() and len(number) == 6
    page.click('[data-role="fill"]')
    expect(page.locator(".seat-row.bot")).to_have_count(3)
    return number


def play_hand_by_clicking(page: Page) -> None:
    """Win when offered, otherwise pass claims and discard the tile just drawn (double-click)."""
    deadline = time.monotonic() + HAND_SECONDS
    while not page.locator('[data-role="hand-end"]').count():
        assert time.monotonic() < deadline, "the hand did not end"
        win = page.locator('[data-action="hu"]')
        let_go = page.locator('[data-action="pass"]')
        tiles = page.locator(".hand-tile.playable")
        try:
            if win.count():
                win.first.click(timeout=2000)
            elif let_go.count():
                let_go.first.click(timeout=2000)
            elif tiles.count():
                tiles.last.dblclick(timeout=2000)
        except Exception:  # the table moved on under the click (the page redraws on every update)
            pass
        page.wait_for_timeout(40)


def no_horizontal_overflow(page: Page) -> int:
    overflow: int = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    return overflow


def shoot(page: Page, name: str, *, sizes: tuple[str, ...] = tuple(SIZES)) -> None:
    """Screenshots of the screen as it is, at each size (the page reflows; nothing reloads); at each
    size the page must not be wider than the screen."""
    original = page.viewport_size
    for size in sizes:
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        page.screenshot(path=ARTIFACTS / f"{name}-{size}.png")
        assert no_horizontal_overflow(page) <= 1, f"{name} is wider than the screen at {width}×{height}"
    if original is not None:
        page.set_viewport_size(original)


def touch_friendly(page: Page) -> None:
    """On a touch screen: no keyboard hints shown, and every button at least 32 CSS px tall."""
    assert page.locator("kbd:visible").count() == 0
    small = page.evaluate(
        """() => [...document.querySelectorAll("button, select")]
            .filter((element) => element.offsetParent !== null)
            .map((element) => [element.dataset.role || element.dataset.action || element.textContent.trim(),
                               element.getBoundingClientRect().height])
            .filter(([, height]) => height < 31.5)"""
    )
    assert not small, small
