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
# The pause between hands (a room's setting) in the rooms tests create: long enough for a test to read
# a hand's sheet on a busy machine before the next hand takes it away; no browser test times it.
NEXT_HAND_SECONDS = 120

# Two frames of the page: a resize is handled by then (the page hears of it at its next frame, before
# that frame's callbacks, and the table and the replay redraw on it).
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
STILL = "() => document.getAnimations().every((motion) => motion.playState !== 'running')"

# What a page's table sockets do, in the page (an init script): ``window.__sockets``, when each was
# opened (performance.now(), ms); ``window.__heard``, each message received, once the page has handled it.
WIRE = """
window.__sockets = [];
window.__heard = [];
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    window.__sockets.push(performance.now());
    // A listener added here runs before the page's own: the message is noted in a task after them.
    this.addEventListener("message", (event) => {
      setTimeout(() => window.__heard.push(JSON.parse(event.data)));
    });
  }
};
"""


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


def create_room_with_bots(
    page: Page, preset: str = "nanjing", hands: str = "4", *, decision_seconds: int | None = None
) -> str:
    """A room of ``preset`` (its decision clock ``decision_seconds``, the form's 15 unless given) with
    three bots, from the lobby's form; returns its number."""
    create = page.locator('[data-role="create"]')
    create.locator('select[name="preset"]').select_option(preset)
    create.locator(f'[data-hands="{hands}"]').click()
    create.locator('input[name="next_hand"]').fill(str(NEXT_HAND_SECONDS))
    if decision_seconds is not None:
        create.locator('input[name="seconds"]').fill(str(decision_seconds))
    page.click('[data-role="create"] button[type="submit"]')
    number = page.locator('[data-role="number"]').inner_text().strip()
    assert number.isdigit() and len(number) == 6
    page.click('[data-role="fill"]')
    expect(page.locator(".seat-row.bot")).to_have_count(3)
    return number


# What a player at the table may do now, read in one round trip to the page: the hand is over, a win
# is offered, a claim may be let go, or a tile may be discarded (None: nothing, wait for the table).
NEXT_CLICK = """() => {
  if (document.querySelector('[data-role="hand-end"]')) return "ended";
  if (document.querySelector('[data-action="hu"]')) return "hu";
  if (document.querySelector('[data-action="pass"]')) return "pass";
  if (document.querySelector(".hand-tile.playable")) return "tile";
  return null;
}"""


CLICKED = {"hu": '[data-action="hu"] >> nth=0', "pass": '[data-action="pass"] >> nth=0'}
PLAYABLE = ".hand-tile.playable >> nth=-1"  # the tile just drawn


def play_hand_by_clicking(page: Page) -> None:
    """Win when offered, otherwise pass claims and discard the tile just drawn (double-click); after
    each click, until the page has redrawn what was clicked (it redraws on every update)."""
    deadline = time.monotonic() + HAND_SECONDS
    while (what := page.evaluate(NEXT_CLICK)) != "ended":
        assert time.monotonic() < deadline, "the hand did not end"
        if what is None:
            page.wait_for_timeout(40)
            continue
        try:
            clicked = page.locator(CLICKED.get(what, PLAYABLE)).element_handle(timeout=2000)
            if what == "tile":
                clicked.dblclick(timeout=2000)
            else:
                clicked.click(timeout=2000)
            clicked.wait_for_element_state("hidden", timeout=10_000)  # a detached element is hidden
        except Exception:  # the table moved on under the click
            pass


def no_horizontal_overflow(page: Page) -> int:
    overflow: int = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    return overflow


def settle(page: Page) -> None:
    """Wait until the page has handled a change of its size and no motion is running (a discard
    landing, a call, a bubble), so that what is measured or shot is where it stays."""
    page.evaluate(TWO_FRAMES)
    page.wait_for_function(STILL)


def resize(page: Page, width: int, height: int) -> None:
    """The screen at another size, once the page has redrawn for it."""
    page.set_viewport_size({"width": width, "height": height})
    settle(page)


def shoot(page: Page, name: str, *, sizes: tuple[str, ...] = tuple(SIZES)) -> None:
    """Screenshots of the screen as it is, at each size (the page reflows; nothing reloads); at each
    size the page must not be wider than the screen."""
    original = page.viewport_size
    for size in sizes:
        width, height = SIZES[size]
        resize(page, width, height)
        page.screenshot(path=ARTIFACTS / f"{name}-{size}.png")
        assert no_horizontal_overflow(page) <= 1, f"{name} is wider than the screen at {width}×{height}"
    if original is not None:
        resize(page, original["width"], original["height"])


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
