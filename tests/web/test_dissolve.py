"""解散 as the players see it: a match ended by agreement in the middle of a hand shows 大结算 with the
hand stopped, and the hand's replay ends where it was abandoned, saying why."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import Watched
from .support import create_room_with_bots, enter


def test_a_hand_dissolved_mid_play_replays_to_where_it_stopped(pages: Watched, base_url: str) -> None:
    page: Page = pages.page("desktop")
    enter(page, base_url, "解散者")
    number = create_room_with_bots(page, "nanjing")
    page.click('[data-role="start"]')
    expect(page.locator(".table")).to_be_visible()
    page.click('[data-role="dissolve"]')
    page.locator('[data-role="confirm"] [data-answer="yes"]').click()
    summary = page.locator('[data-role="summary"]')
    expect(summary).to_be_visible()
    expect(summary.locator('tr[data-hand="0"] .outcome')).to_have_text("中止")

    page.goto(f"{base_url}#/replay/{number}/0")
    replay = page.locator('[data-role="replay"]')
    expect(replay).to_be_visible()
    replay.locator('[data-go="last"]').click()
    expect(replay.locator('[data-role="frame-action"]')).to_have_text("全体同意解散，本局中止")
    expect(page.locator('[data-role="replay-result"] .abandoned')).to_have_text("本局中止")
    page.click("#lang")
    said = replay.locator('[data-role="frame-action"]')
    expect(said).to_have_text("Ended by agreement: the hand stops here")


def test_a_finished_room_opened_again_shows_its_result(pages: Watched, base_url: str) -> None:
    """Reloaded, or its link opened again, a room whose match ended shows its 大结算 and the way to its
    replays — not a waiting room whose 开始游戏 the server refuses."""
    page: Page = pages.page("portrait")
    enter(page, base_url, "看结果")
    number = create_room_with_bots(page, "enshi")
    page.click('[data-role="start"]')
    expect(page.locator(".table")).to_be_visible()
    page.click('[data-role="dissolve"]')
    page.locator('[data-role="confirm"] [data-answer="yes"]').click()
    expect(page.locator('[data-role="summary"]')).to_be_visible()
    for _ in range(2):
        page.reload()
        summary = page.locator('[data-role="summary"]')
        expect(summary).to_be_visible()
        expect(summary.locator('[data-role="replay"]').first).to_have_attribute(
            "href", f"#/replay/{number}/0"
        )
        expect(page.locator('[data-role="start"]')).to_have_count(0)
    page.goto(f"{base_url}#/")
    page.goto(f"{base_url}#/room/{number}")
    expect(page.locator('[data-role="summary"]')).to_be_visible()
