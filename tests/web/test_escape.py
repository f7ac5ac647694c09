"""逃跑 as the players see it: the hand's sheet names who left and lists the escape payments with their
reason, and 大结算 counts them in the hand where they happened — in Chinese and in English."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import Watched
from .support import create_room_with_bots, enter, shoot


def numbers(cells: list[str]) -> list[int]:
    return [int(cell) for cell in cells]


def test_leaving_shows_the_escape_payment_on_the_sheet_and_in_the_summary(
    pages: Watched, base_url: str
) -> None:
    page: Page = pages.page("desktop")
    enter(page, base_url, "逃兵")
    create_room_with_bots(page, "nanjing")
    page.click('[data-role="start"]')
    expect(page.locator(".table")).to_be_visible()
    page.click('[data-role="escape"]')
    confirm = page.locator('[data-role="confirm"]')  # the 逃跑 confirmation, in the page
    expect(confirm).to_contain_text("逃跑")
    confirm.locator('[data-answer="yes"]').click()

    sheet = page.locator('[data-role="hand-end"]')
    expect(sheet.locator('[data-role="escaped"]')).to_have_text("逃兵 逃跑，付 60 分（见付款），比赛结束")
    expect(sheet.locator(".abandoned")).to_have_text("本局中止")
    paid = sheet.locator('.transfer[data-reason="escape"]')
    expect(paid).to_have_count(3)
    assert all(row.startswith("逃兵 → ") and row.endswith("20 逃跑") for row in paid.all_inner_texts())
    changes = numbers(sheet.locator(".deltas tbody tr td:nth-child(2)").all_inner_texts())
    totals = numbers(sheet.locator(".deltas tbody tr td.total").all_inner_texts())
    assert changes == totals and sum(changes) == 0  # one hand: the escape is in its changes
    page.click("#lang")
    expect(sheet.locator('[data-role="escaped"]')).to_have_text(
        "逃兵 left the game for good and pays 60 (see the payments); the match ends"
    )
    expect(paid.first).to_contain_text("Left the game: escape penalty")
    page.click("#lang")
    shoot(page, "hand-end-escape", sizes=("desktop",))

    sheet.locator('[data-role="to-summary"]').click()
    summary = page.locator('[data-role="summary"]')
    escapes = summary.locator('[data-role="escapes"]')
    expect(escapes).to_contain_text("逃兵 在第1局逃跑，付 60 分（已计入该局得失）")
    expect(escapes.locator('.transfer[data-reason="escape"]')).to_have_count(3)
    hand = summary.locator('tr[data-hand="0"]')
    expect(hand.locator(".outcome")).to_have_text("中止；逃兵 逃跑")
    per_hand = numbers(hand.locator("td:not(.outcome)").all_inner_texts()[:4])
    assert per_hand == changes  # the hands add up to the totals, escape included
    page.click("#lang")
    expect(escapes).to_contain_text("逃兵 left in hand 1 and paid 60 (counted in that hand)")
    expect(hand.locator(".outcome")).to_have_text("Stopped；逃兵 left")
    page.click("#lang")
    shoot(page, "summary-escape", sizes=("desktop",))


# Whether what is drawn at the middle of an element is that element (or inside it): nothing covers it.
ON_TOP = """(element) => {
  const box = element.getBoundingClientRect();
  const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return found !== null && (found === element || element.contains(found));
}"""


def test_the_voice_bar_never_covers_the_way_to_the_summary_on_a_phone(pages: Watched, base_url: str) -> None:
    """Upright on a 390×844 phone in voice, the last hand's 查看大结算 is not under 按住说话: a tap there
    opens the summary, not the microphone."""
    page: Page = pages.page("portrait")
    enter(page, base_url, "说话人")
    create_room_with_bots(page, "nanjing")  # its escape penalty makes the sheet longer than the screen
    page.click('[data-role="start"]')
    expect(page.locator(".table")).to_be_visible()
    page.click('[data-role="voice"]')
    expect(page.locator('[data-role="voice-bar"]')).to_be_visible()
    page.click('[data-role="escape"]')
    page.locator('[data-role="confirm"] [data-answer="yes"]').click()
    to_summary = page.locator('[data-role="to-summary"]')
    expect(to_summary).to_be_visible()
    assert to_summary.evaluate(ON_TOP), "按住说话 covers 查看大结算"
    shoot(page, "voice-hand-end", sizes=("portrait",))
    to_summary.click()
    expect(page.locator('[data-role="summary"]')).to_be_visible()
    expect(page.locator('[data-role="talk"]')).to_have_attribute("aria-pressed", "false")
