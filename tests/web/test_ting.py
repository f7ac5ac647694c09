"""听 in the browser: a ready hand shows its 听 mark with the waits and the copies left; pressing 听
lets the table play the hand on, and it wins by itself."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from .conftest import Watched
from .support import create_room_with_bots, enter, prepared_server, shoot


@pytest.fixture(scope="module")
def ready_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with prepared_server(
        tmp_path_factory.mktemp("ting"),
        "tests.web.deals:ready_first_hand",
        next_hand_seconds=120,  # time to read the sheet
        bot_delay_seconds=0.3,
    ) as url:
        yield url


def test_the_ting_button_plays_and_wins_by_itself(pages: Watched, ready_url: str) -> None:
    page = pages.page()
    enter(page, ready_url, "听牌人")
    create_room_with_bots(page, "nanning")
    page.click('[data-role="start"]')
    expect(page.locator(".hand-tile")).to_have_count(14)
    expect(page.locator('[data-role="ting"]')).to_have_count(0)  # not ready yet
    eight = page.locator('.hand-tile.playable[data-discard="8s"]')  # the turn is this player's
    eight.click()
    expect(page.locator('.hand-tile.selected[data-discard="8s"]')).to_be_visible()  # the first tap picks it
    eight.click()  # the second tap lets it go
    mark = page.locator('[data-role="ting-mark"]')
    expect(mark).to_be_visible()
    expect(mark.locator('li[data-tile="5p"]')).to_contain_text("剩3张")  # four 5p, one in the hand
    shoot(page, "table-ready")
    page.click('[data-role="ting"]')
    expect(page.locator('[data-role="ting"]')).to_have_attribute("aria-pressed", "true")
    sheet = page.locator('[data-role="hand-end"]')
    # The table plays two turns round (bots 0.3 s each): not timed here, a busy machine is slow.
    expect(sheet).to_be_visible(timeout=60_000)
    assert "听牌人" in sheet.locator('[data-role="score-sheet"]').first.inner_text()
    assert "自摸" in sheet.inner_text()
    # It let go only the tile it drew, never a tile of the ready hand.
    assert page.locator('.river-bottom svg.tile[data-tile="7z"]').count() == 1
