"""hupai on a phone as an installed app (issue 47), upright and sideways: the manifest is linked and
valid with its icons, a service worker controls the page after one reload, a reload with the network
gone shows the app saying it is offline (and the lobby comes back with the network), a new build
replaces the kept shell as a whole, the screen is kept awake while a match is played, and a hidden
page tells its player that their turn has come."""

from __future__ import annotations

import json
import shutil
import struct
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from hupai.server.http.app_shell import WEB

from ..server_support import free_port, running_server
from .conftest import Watched
from .support import create_room_with_bots, enter, shoot

SIZES = ("portrait", "landscape")  # 390×844 and 844×390

# The Screen Wake Lock as the page sees it, counted (headless chromium has none to give).
WAKE_LOCK = """
window.wake = { taken: 0, released: 0, held: false };
Object.defineProperty(navigator, "wakeLock", {
  configurable: true,
  value: {
    request: async () => {
      wake.taken += 1;
      wake.held = true;
      const sentinel = new EventTarget();
      sentinel.release = async () => {
        if (!wake.held) return;
        wake.held = false;
        wake.released += 1;
        sentinel.dispatchEvent(new Event("release"));
      };
      return sentinel;
    },
  },
});
"""

# A page the test can hide and show (as a phone does when another app comes to the front), and a
# vibration motor that counts.
HIDEABLE = """
let hidden = false;
Object.defineProperty(Document.prototype, "visibilityState", {
  configurable: true,
  get: () => (hidden ? "hidden" : "visible"),
});
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
window.setHidden = (value) => {
  hidden = value;
  document.dispatchEvent(new Event("visibilitychange"));
};
window.vibrations = 0;
navigator.vibrate = () => {
  window.vibrations += 1;
  return true;
};
"""


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def until(page: Page, expression: str, seconds: float = 15) -> None:
    """Wait until ``expression`` (which may be a promise: evaluate awaits it) is true in the page."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"never true: {expression}"
        page.wait_for_timeout(100)


def controlled(page: Page) -> None:
    """Wait for the service worker to be ready, reload once, and see it control the page."""
    until(page, "navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    until(page, "navigator.serviceWorker.controller !== null")


@pytest.mark.parametrize("size", SIZES)
def test_the_app_is_installable(pages: Watched, base_url: str, size: str) -> None:
    page = pages.page(size)
    page.goto(base_url)
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/manifest.webmanifest"
    answer = page.request.get(base_url.rstrip("/") + href)
    assert answer.ok and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert (manifest["name"].startswith("胡牌"), manifest["short_name"]) == (True, "胡牌")
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert manifest["theme_color"] and manifest["background_color"]
    pngs = {
        (icon["sizes"], icon["purpose"]): icon["src"]
        for icon in manifest["icons"]
        if icon["type"] == "image/png"
    }
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(pngs)
    for (sizes, _purpose), src in pngs.items():
        drawn = page.request.get(base_url.rstrip("/") + src)
        assert drawn.ok
        assert "x".join(map(str, png_size(drawn.body()))) == sizes
    touch = page.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    assert png_size(page.request.get(base_url.rstrip("/") + str(touch)).body()) == (180, 180)
    assert page.locator('meta[name="theme-color"]').get_attribute("content") == manifest["theme_color"]
    controlled(page)
    expect(page.locator('[data-role="nickname"]')).to_be_visible()  # the page itself, served through it
    # The worker keeps this build's shell: the page, the manifest, every script, the styles, the icons.
    kept = page.evaluate(
        "caches.keys().then((keys) => caches.open(keys[0]).then((cache) => cache.keys()))"
        ".then((requests) => requests.map((request) => new URL(request.url).pathname))"
    )
    assert {"/", "/manifest.webmanifest", "/static/js/main.js", "/static/style.css"} <= set(kept)
    assert "/static/icons/icon-192.png" in kept


@pytest.mark.parametrize("size", SIZES)
def test_with_the_network_gone_the_app_opens_and_says_so(pages: Watched, base_url: str, size: str) -> None:
    page = pages.page(size, offline=True)
    enter(page, base_url, "离线者")
    controlled(page)
    page.context.set_offline(True)
    shell = page.reload()
    assert shell is not None and shell.from_service_worker  # the worker's copy, the network being gone
    expect(page.locator("header .brand")).to_be_visible()  # the shell, from the worker's copy
    expect(page.locator('[data-role="offline"]')).to_contain_text("离线")
    expect(page.locator("#offline")).to_be_visible()
    shoot(page, "offline", sizes=(size,))
    page.context.set_offline(False)  # the network is back: the lobby opens by itself
    expect(page.locator('[data-role="create"]')).to_be_visible()
    expect(page.locator("#offline")).to_be_hidden()


@pytest.fixture
def own_build(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A server of its own, serving a copy of the page's files that the test can change: a release."""
    web = tmp_path / "web"
    shutil.copytree(WEB, web)
    port = free_port()
    with running_server(f"sqlite:///{tmp_path / 'build.sqlite3'}", port, web_dir=str(web)):
        yield f"http://127.0.0.1:{port}/", web


def test_a_new_build_replaces_the_kept_shell_whole(pages: Watched, own_build: tuple[str, Path]) -> None:
    url, web = own_build
    page = pages.page("portrait")
    page.goto(url)
    controlled(page)
    first = page.evaluate("caches.keys()")
    assert len(first) == 1 and first[0].startswith("hupai-shell-")
    worker = urllib.request.urlopen(url + "sw.js").read().decode()
    assert json.dumps(first[0].removeprefix("hupai-shell-")) in worker

    with (web / "style.css").open("a", encoding="utf-8") as styles:
        styles.write("\n/* the next release */\n")
    page.reload()  # the browser finds a new worker, which keeps the new shell and drops the old
    until(page, f"caches.keys().then((keys) => keys.length === 1 && keys[0] !== {json.dumps(first[0])})")
    kept = page.evaluate(
        "caches.keys().then((keys) => caches.open(keys[0])).then((cache) => cache.match('/static/style.css'))"
        ".then((answer) => answer.text())"
    )
    assert kept.endswith("/* the next release */\n")


def test_the_screen_stays_awake_while_a_match_is_played(pages: Watched, base_url: str) -> None:
    page = pages.page("portrait")
    page.add_init_script(WAKE_LOCK)
    enter(page, base_url, "醒着")
    create_room_with_bots(page, "nanning")
    assert page.evaluate("wake.taken") == 0  # the waiting room: no lock yet
    page.click('[data-role="start"]')
    expect(page.locator(".table")).to_be_visible()
    until(page, "wake.held")
    page.click('[data-role="dissolve"]')  # the match ends (with bots only, at once)
    page.locator('[data-role="confirm"] [data-answer="yes"]').click()
    expect(page.locator('[data-role="summary"]')).to_be_visible()
    until(page, "!wake.held && wake.released >= 1")


def test_a_hidden_page_says_the_turn_has_come(pages: Watched, base_url: str) -> None:
    page = pages.page("landscape")
    page.add_init_script(HIDEABLE)
    enter(page, base_url, "后台")
    create_room_with_bots(page, "nanjing")
    title = page.title()
    page.click('[data-role="start"]')
    expect(page.locator(".hand-tile.playable").first).to_be_visible()  # the dealer's first discard
    assert page.title() == title  # in front: the table shows the turn, the title stays
    page.evaluate("setHidden(true)")
    expect(page).to_have_title(f"轮到你出牌 · {title}")
    assert page.locator('link[rel="icon"]').get_attribute("href") == "/static/favicon-turn.svg"
    assert page.evaluate("vibrations") == 1
    page.evaluate("setHidden(true)")  # hidden again, the same decision: no second vibration
    assert page.evaluate("vibrations") == 1
    page.evaluate("setHidden(false)")
    expect(page).to_have_title(title)
    assert page.locator('link[rel="icon"]').get_attribute("href") == "/static/favicon.svg"


# A screen that can be turned by the page (as Android's browsers allow in fullscreen): each lock and
# unlock noted; ``refuse`` makes the lock fail (as iOS, or a browser that cannot, does).
TURNABLE = """
window.turns = [];
window.refuse = false;
Element.prototype.requestFullscreen = async function () { turns.push("fullscreen"); };
Object.defineProperty(document, "fullscreenEnabled", { configurable: true, get: () => true });
screen.orientation.lock = async (how) => {
  if (refuse) throw new DOMException("not here", "NotSupportedError");
  turns.push(`lock ${how}`);
};
screen.orientation.unlock = () => turns.push("unlock");
"""


def test_held_upright_the_table_asks_to_be_turned_and_locks_nobody_out(pages: Watched, base_url: str) -> None:
    page = pages.page("portrait")
    page.add_init_script(TURNABLE)
    enter(page, base_url, "竖着")
    create_room_with_bots(page, "nanjing")
    page.click('[data-role="start"]')
    expect(page.locator(".hand-tile.playable").first).to_be_visible()  # the table plays upright too
    hint = page.locator('[data-role="orientation-hint"]')
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("横过来玩")
    page.evaluate("refuse = true")  # a browser that cannot turn the screen says how to do it by hand
    hint.locator('[data-role="turn-sideways"]').click()
    toast = page.locator("#toast")
    expect(toast).to_contain_text("把手机横过来")
    box = toast.bounding_box()
    assert box is not None
    for tile in page.locator(".hand-tile").all():  # a toast never covers the hand
        hand = tile.bounding_box()
        assert hand is not None and (
            box["y"] + box["height"] <= hand["y"] or box["y"] >= hand["y"] + hand["height"]
        )
    page.evaluate("refuse = false; turns.length = 0")
    hint.locator('[data-role="turn-sideways"]').click()
    until(page, "turns.join() === 'fullscreen,lock landscape'")
    page.set_viewport_size({"width": 844, "height": 390})  # turned: the hint is gone, nothing redrawn
    expect(hint).to_be_hidden()
    page.set_viewport_size({"width": 390, "height": 844})
    expect(hint).to_be_visible()
    page.click('header [data-i18n="nav.lobby"]')  # leaving the table gives the screen back as it was
    until(page, "turns.join() === 'fullscreen,lock landscape,unlock'")
    page.go_back()  # back at the table, the hint is put away for good
    page.locator('[data-role="orientation-hint"] [data-role="hint-away"]').click()
    expect(page.locator('[data-role="orientation-hint"]')).to_have_count(0)
    page.reload()
    expect(page.locator(".hand-tile").first).to_be_visible()
    expect(page.locator('[data-role="orientation-hint"]')).to_have_count(0)
