"""The table as a player meets it: the board at every size in each rule set, nothing hidden shown, the
clock, the tile counter, keyboard play, the sound toggle, and a language switch that keeps the screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import Watched
from .support import create_room_with_bots, enter, resize, shoot

DECISION_SECONDS = 120  # the clock test's room: the longest decision a room may have


def start(page: Page, base_url: str, name: str, preset: str, *, decision_seconds: int | None = None) -> None:
    enter(page, base_url, name)
    create_room_with_bots(page, preset, decision_seconds=decision_seconds)
    page.click('[data-role="start"]')
    expect(page.locator('[data-role="board"]')).to_be_visible()
    expect(page.locator(".hand-tile")).to_have_count(14)  # the dealer's fourteen


@pytest.mark.parametrize("preset", ["nanjing", "nanning", "enshi"])
def test_the_table_at_every_size(page: Page, base_url: str, preset: str) -> None:
    start(page, base_url, f"看桌{preset[:3]}", preset)
    board = page.locator('[data-role="board"]')
    expect(board.locator(".river")).to_have_count(4)
    expect(board.locator('[data-role="plate"]')).to_have_count(4)
    expect(board.locator(".side")).to_have_count(3)  # the other three; the player's own hand is below
    # Nobody else's concealed tile is drawn face up: the edges hold backs and melds only.
    for side in board.locator(".side").all():
        assert side.locator(".concealed svg.tile:not(.back)").count() == 0
        assert side.locator(".concealed svg.tile.back").count() in (13, 14) or side.locator(".meld").count()
    expect(page.locator('[data-role="hand-no"]')).to_have_text("第1/4局")
    if preset == "enshi":
        expect(board.locator('[data-role="wild"] svg.tile')).to_have_count(2)
    if preset == "nanjing":  # flowers sit in their framed tray, apart from the rivers
        assert board.locator(".river .tray").count() == 0
    shoot(page, f"table-{preset}")
    # The own hand is whole and inside the screen at every size.
    for size in ("landscape", "portrait"):
        width, height = {"landscape": (844, 390), "portrait": (390, 844)}[size]
        resize(page, width, height)
        box = page.locator('[data-role="hand"]').bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
        assert box["y"] + box["height"] <= height + 1, f"the hand is cut off at {width}×{height}"
        board_box = board.bounding_box()
        assert (
            board_box is not None and board_box["y"] >= 0 and board_box["x"] + board_box["width"] <= width + 1
        )


def test_clock_counter_keyboard_and_sound(page: Page, base_url: str) -> None:
    start(page, base_url, "键盘手", "nanjing", decision_seconds=DECISION_SECONDS)
    # The clock: this decision's seconds and the time bank apart (a 120 s room with a 30 s bank). The
    # seconds count down from the room's 120 (not the 15 of a room that does not say): a busy machine
    # may take many of them to get here, so any above 60 are this room's.
    clock = page.locator('[data-role="clock"]')
    expect(clock).to_have_text(re.compile(r"^\d+″\+30″$"))
    decision = int(clock.inner_text().split("″")[0])
    assert DECISION_SECONDS // 2 < decision <= DECISION_SECONDS, clock.inner_text()
    # The tile counter: pointing at a tile tells how many copies are in sight.
    first = page.locator(".hand-tile").first
    first.hover()
    counter = page.locator('[data-role="counter"]')
    expect(counter).to_contain_text("已见")
    seen = int(re.search(r"已见 (\d)/4", counter.inner_text()).group(1))  # type: ignore[union-attr]
    code = first.get_attribute("data-discard")
    in_hand = page.locator(f'.hand-tile[data-discard="{code}"]').count()
    assert seen >= in_hand
    # The light follows the counter: exactly the copies of the tile it names, none of another.
    expect(page.locator(".hand-tile.counted")).to_have_count(in_hand)
    last = page.locator(f'.hand-tile:not([data-discard="{code}"])').last
    other = last.get_attribute("data-discard")
    last.hover()
    expect(counter.locator("svg.tile")).to_have_attribute("data-tile", str(other))
    expect(page.locator(f'.hand-tile.counted:not([data-discard="{other}"])')).to_have_count(0)
    copies = page.locator(f'.hand-tile[data-discard="{other}"]').count()
    expect(page.locator(".hand-tile.counted")).to_have_count(copies)
    # Tiles are named for screen readers.
    assert first.get_attribute("aria-label")
    # Keyboard: ← picks the last tile, Enter lets it go.
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".hand-tile.selected")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator(".river-bottom svg.tile")).to_have_count(1)
    # The sound toggle is remembered.
    sound = page.locator('[data-role="sound"]')
    expect(sound).to_have_attribute("aria-pressed", "true")
    sound.click()
    expect(page.locator('[data-role="sound"]')).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.locator('[data-role="sound"]')).to_have_attribute("aria-pressed", "false")


def test_a_language_switch_keeps_the_table_and_the_picked_tile(pages: Watched, base_url: str) -> None:
    page = pages.page("landscape")
    start(page, base_url, "Lang", "nanning")
    page.locator(".hand-tile.playable").nth(3).click()  # the first tap picks a tile
    expect(page.locator(".hand-tile.selected")).to_have_attribute("data-index", "3")
    page.click("#lang")
    expect(page.locator('[data-role="hand-no"]')).to_have_text("Hand 1 of 4")
    expect(page.locator(".hand-tile.selected")).to_have_attribute("data-index", "3")
    expect(page.locator('[data-role="status"]')).to_contain_text("Tap again")
    page.click("#lang")
    expect(page.locator('[data-role="hand-no"]')).to_have_text("第1/4局")
    expect(page.locator(".hand-tile.selected")).to_have_attribute("data-index", "3")
