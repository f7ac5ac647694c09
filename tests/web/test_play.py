"""The browser client, driven by Playwright in Debian's chromium: a person creates a room with three
bots, plays a whole hand by clicking, reads the score sheet, opens the replay and uses the score
calculator. Screenshots are kept in ``test-artifacts/web/``."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS, SIZES, Watched
from .support import create_room_with_bots, enter, play_hand_by_clicking, resize, shoot, touch_friendly


def test_a_whole_hand_by_clicking_then_its_replay(page: Page, base_url: str) -> None:
    enter(page, base_url, "小明")
    page.screenshot(path=ARTIFACTS / "lobby.png", full_page=True)
    number = create_room_with_bots(page)
    page.screenshot(path=ARTIFACTS / "waiting-room.png", full_page=True)
    page.click('[data-role="start"]')
    expect(page.locator(".table")).to_be_visible()
    expect(page.locator('[data-role="hand-no"]')).to_have_text("第1/4局")
    expect(page.locator(".hand-tile")).to_have_count(14)  # the dealer's fourteen
    page.check('[data-role="hints"]')  # hints: the dealer holds 14, so the best discards are shown
    expect(page.locator('[data-role="hints-panel"] .discard-hint').first).to_be_visible()
    page.reload()  # hints stay on after a reload while 提示 stays ticked (issue 32)
    expect(page.locator('[data-role="hints"]')).to_be_checked()
    expect(page.locator('[data-role="hints-panel"] .discard-hint').first).to_be_visible()
    page.screenshot(path=ARTIFACTS / "table.png")
    drawn = page.locator(".hand-tile.playable").last
    drawn.click()  # the first tap only picks the tile …
    expect(page.locator(".hand-tile.selected")).to_have_count(1)
    expect(page.locator(".hand-tile")).to_have_count(14)
    page.locator(".hand-tile.selected").click()  # … the second discards it
    expect(page.locator(".river-bottom svg.tile")).to_have_count(1)

    play_hand_by_clicking(page)
    sheet = page.locator('[data-role="hand-end"]')
    expect(sheet).to_be_visible()
    page.screenshot(path=ARTIFACTS / "hand-end.png", full_page=True)
    assert "本局结算" in sheet.inner_text()
    assert sheet.locator(".open-hand").count() == 4  # every hand open
    changes = [int(cell.inner_text()) for cell in sheet.locator(".deltas tbody tr td:nth-child(2)").all()]
    assert len(changes) == 4 and sum(changes) == 0  # money adds up
    for score in sheet.locator('[data-role="score-sheet"]').all():  # each win itemised in 中文
        assert score.locator(".item").count() >= 1
        assert int(score.locator('[data-role="share"]').inner_text()) > 0

    page.goto(f"{base_url}#/replay/{number}/0")
    replay = page.locator('[data-role="replay"]')
    expect(replay).to_be_visible()
    expect(replay.locator(".river")).to_have_count(4)
    assert replay.locator(".open-concealed svg.tile").count() >= 52  # all four hands open
    page.click('[data-go="next"]')
    page.click('[data-go="next"]')
    expect(page.locator('[data-role="frame-action"]')).not_to_be_empty()
    page.select_option('[data-role="viewpoint"]', "2")
    expect(page.locator(".corner-bottom")).to_have_attribute("data-seat", "2")
    page.click('[data-go="last"]')
    expect(page.locator('[data-role="replay-result"]')).to_be_visible()
    page.screenshot(path=ARTIFACTS / "replay.png", full_page=True)
    shoot(page, "replay")
    replay_fits(page)
    # On a phone held upright the bottom seat's hand is inside the screen's width.
    resize(page, 390, 844)
    bottom = page.locator(".side-bottom").bounding_box()
    assert bottom is not None and bottom["x"] >= 0 and bottom["x"] + bottom["width"] <= 391


def replay_fits(page: Page) -> None:
    """On a desktop and on a phone held sideways the replay's board fits the screen, its tiles big
    enough to read."""
    for size in ("desktop", "landscape"):
        width, height = SIZES[size]
        resize(page, width, height)
        board = page.locator('[data-role="replay"] [data-role="table"]').bounding_box()
        assert board is not None and board["y"] + board["height"] <= height + 1, (size, board)
        tile = page.locator('[data-role="replay"] .river svg.tile').first.bounding_box()
        assert tile is not None and tile["width"] >= 20, (size, tile)


def test_english_and_a_phone_held_sideways(pages: Watched, base_url: str) -> None:
    page = pages.page("landscape")
    enter(page, base_url, "Amy")
    page.click("#lang")
    expect(page.locator('header [data-i18n="nav.lobby"]')).to_have_text("Lobby")
    create_room_with_bots(page, "nanning")
    page.click('[data-role="start"]')
    expect(page.locator(".table")).to_be_visible()
    expect(page.locator('[data-role="hand-no"]')).to_have_text("Hand 1 of 4")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=ARTIFACTS / "phone-landscape.png")
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, "the table is wider than the phone"
    tall = page.evaluate("document.scrollingElement.scrollHeight - window.innerHeight")
    assert tall <= 40, f"the table is {tall} px taller than the phone held sideways"
    hand_box = page.locator('[data-role="hand"]').bounding_box()
    assert hand_box is not None and hand_box["x"] >= 0 and hand_box["x"] + hand_box["width"] <= 845
    touch_friendly(page)
    # The only person at the table proposes to end: everyone agrees, the session summary shows.
    page.click('[data-role="dissolve"]')
    page.click('[data-role="confirm"] [data-answer="yes"]')  # asked first, in the page
    summary = page.locator('[data-role="summary"]')
    expect(summary).to_be_visible()
    expect(summary.locator(".ranks tbody tr")).to_have_count(4)
    assert "Session summary" in summary.inner_text()
    page.screenshot(path=ARTIFACTS / "summary.png", full_page=True)


def test_the_score_calculator(page: Page, base_url: str) -> None:
    enter(page, base_url, "算分的人")
    page.click('header [data-i18n="nav.calc"]')
    form = page.locator('[data-role="calc-form"]')
    expect(form).to_be_visible()
    form.locator('select[name="preset"]').select_option("nanjing")
    # NJ-01 (seed 002): 门清混一色 with four hard flowers, self-drawn: 20 + 8 + 40 + 20 = 88 a share.
    form.locator('input[name="hand"]').click()
    for code in ["1m", "2m", "3m", "2m", "3m", "4m", "7m", "8m", "9m", "1z", "1z", "5m", "6m"]:
        page.click(f'[data-pick="{code}"]')  # the tile palette types into the chosen field
    expect(form.locator('input[name="hand"]')).to_have_value("1m2m3m2m3m4m7m8m9m1z1z5m6m")
    form.locator('input[name="win_tile"]').fill("7m")
    form.locator('input[name="flowers"]').fill("6z7z7z1f")
    form.locator('button[type="submit"]').click()
    sheet = page.locator('[data-role="calc-sheet"]')
    expect(sheet.locator('[data-role="share"]')).to_have_text("88")
    expect(sheet.locator('[data-role="total"]')).to_have_text("+264")
    assert {"跑20", "硬花", "混一色", "门清"} <= set(sheet.locator(".item th").all_inner_texts())
    page.screenshot(path=ARTIFACTS / "calculator.png", full_page=True)

    # A small hand on a discard with two hard flowers may not win in Nanjing: the reason is shown.
    form.locator('input[name="hand"]').fill("23m678p789s11s")
    form.locator('input[name="win_tile"]').fill("4m")
    form.locator('input[name="flowers"]').fill("1f2f")
    form.locator('select[name="how"]').select_option("discard")
    page.click('[data-role="add-meld"]')
    page.locator('.meld-row input[name="tile"]').fill("5p")
    form.locator('button[type="submit"]').click()
    expect(page.locator('[data-role="calc-refused"]')).to_contain_text("小胡需门清或4个硬花")


def test_an_enshi_hand_shows_the_pizi_and_laizi(page: Page, base_url: str) -> None:
    enter(page, base_url, "恩施人")
    number = create_room_with_bots(page, "enshi")
    page.click('[data-role="start"]')
    wild = page.locator('[data-role="wild"]')
    expect(wild).to_be_visible()  # 痞子 and 赖子 in the middle of the table
    expect(wild.locator("svg.tile")).to_have_count(2)
    assert "痞子" in wild.inner_text() and "赖子" in wild.inner_text()
    wild_codes = [tile.get_attribute("data-tile") for tile in wild.locator("svg.tile").all()]
    page.screenshot(path=ARTIFACTS / "enshi-table.png")
    play_hand_by_clicking(page)
    expect(page.locator('[data-role="hand-end"]')).to_be_visible()
    page.screenshot(path=ARTIFACTS / "enshi-hand-end.png", full_page=True)
    # The replay shows the same 痞子 and 赖子, and its controls are drawn, not font glyphs.
    page.goto(f"{base_url}#/replay/{number}/0")
    replay_wild = page.locator('[data-role="replay"] [data-role="wild"]')
    expect(replay_wild.locator("svg.tile")).to_have_count(2)
    assert [tile.get_attribute("data-tile") for tile in replay_wild.locator("svg.tile").all()] == wild_codes
    controls = page.locator('[data-role="replay"] .controls')
    expect(controls.locator("svg.icon")).to_have_count(5)
    assert not any(glyph in controls.inner_text() for glyph in "⏮⏭◀▶")
