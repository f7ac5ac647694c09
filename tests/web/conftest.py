"""Browser tests: Playwright driving Debian's chromium against a real server on loopback.

Every page a test opens is watched: a console error or an uncaught page error fails the test.
Screenshots are kept in ``test-artifacts/web/`` (``shoot`` takes one screen at the three sizes a
player meets: desktop, a phone held sideways and a phone held upright).

In CI (``CI`` set) chromium must be there; elsewhere the browser tests are skipped without it, and the
summary at the end of the run says so.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from ..server_support import free_port, running_server

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
SIZES = {"desktop": (1280, 800), "landscape": (844, 390), "portrait": (390, 844)}


def chromium_path() -> str | None:
    for name in (os.environ.get("HUPAI_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and (found := shutil.which(name)):
            return found
    return None


CHROMIUM = chromium_path()
if CHROMIUM is None and os.environ.get("CI"):
    raise RuntimeError("CI needs chromium for the browser tests (.ci/run installs it)")
NO_CHROMIUM = "no chromium: the browser tests need Debian's chromium (apt install chromium)"
# What a page is expected to show it may show later on a busy machine (the suite runs on more workers
# than cores): Playwright's 5 s by default, here 15 s. A test that times how long something takes says so.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)  # before the server: a test without a browser needs none
    folder = tmp_path_factory.mktemp("web")
    port = free_port()
    # Bots answer at once; between hands each room's own countdown (15 s unless set) or 继续 counts;
    # a deal waits (at most 2 s, as by default) for the page's contribution to its wall. Every page of
    # this test process comes from one address: its guests and rooms are not counted against a
    # person's hourly quota, so that how many tests one process runs, and in which order, does not
    # matter (tests/server checks the quotas).
    url = f"sqlite:///{folder / 'web.sqlite3'}"
    quota = 100_000
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    with running_server(
        url,
        port,
        log=ARTIFACTS / f"server-{worker}.log",  # what the server said, kept for a failure's reader
        next_hand_seconds=None,
        deal_wait_seconds=2.0,
        guests_per_address_per_hour=quota,
        rooms_per_address_per_hour=quota,
        review_worlds=8,  # 复盘's figures are tests/test_review.py's; here the page shows them
    ):
        yield f"http://127.0.0.1:{port}/"


# One browser a test module, not a session: Playwright's sync API keeps an event loop running in the
# test process's thread while it is open, and a test of another module run by the same pytest-xdist
# worker in between (in any order) may call asyncio.run().
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        # Voice tests: a fake microphone (a beeping tone), granted without asking, heard without a click.
        media = [
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
            "--autoplay-policy=no-user-gesture-required",
        ]
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", *media])
        yield launched
        launched.close()


class Watched:
    """A browser context whose pages fail the test on any console error or page error."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def page(
        self,
        size: str = "desktop",
        *,
        locale: str = "zh-CN",
        refused: tuple[int, ...] = (),
        offline: bool = False,
    ) -> Page:
        """A page of its own context; ``refused``: HTTP statuses this page is expected to be answered
        with (the browser logs each as a console error; the test checks what the page says instead);
        ``offline``: the test takes the network away, and the requests that fail then are expected."""
        width, height = SIZES[size]
        phone = size != "desktop"
        context = self.browser.new_context(
            viewport={"width": width, "height": height},
            locale=locale,
            is_mobile=phone,
            has_touch=phone,
            permissions=["microphone"],
        )
        self.contexts.append(context)
        opened = context.new_page()
        opened.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        expected = tuple(f"the server responded with a status of {status}" for status in refused)
        if offline:
            expected += ("net::ERR_INTERNET_DISCONNECTED", "Failed to fetch")
        opened.on(
            "console",
            lambda message: (
                self.errors.append(f"console {message.type}: {message.text}")
                if message.type == "error" and not any(text in message.text for text in expected)
                else None
            ),
        )
        return opened

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Watched]:
    watched = Watched(browser)
    yield watched
    watched.close()
    assert not watched.errors, f"errors in the page: {watched.errors}"


@pytest.fixture
def page(pages: Watched) -> Page:
    return pages.page()
