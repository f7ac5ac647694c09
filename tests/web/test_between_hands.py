"""Between hands and after the match, as a player meets them: a whole four-hand Nanning match with
bots, pressing 继续 after each hand, the last hand's sheet before 大结算, the summary's statistics,
picture and text, a match dissolved at once (asked first; nobody ranked), and 战绩."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import ARTIFACTS, Watched
from .support import (
    NEXT_HAND_SECONDS,
    WIRE,
    create_room_with_bots,
    enter,
    play_hand_by_clicking,
    resize,
    settle,
    shoot,
)

HANDS = 4
PNG = b"\x89PNG\r\n\x1a\n"


def check_sheet(page: Page) -> None:
    """Every hand open; a win on a discard is never labelled as paid by each (每家)."""
    sheet = page.locator('[data-role="hand-end"]')
    expect(sheet).to_be_visible()
    expect(sheet.locator(".open-hand")).to_have_count(4)
    changes = [int(cell.inner_text()) for cell in sheet.locator(".deltas tbody tr td:nth-child(2)").all()]
    assert len(changes) == 4 and sum(changes) == 0
    for score in sheet.locator('[data-role="score-sheet"]').all():
        how = score.locator("h3").inner_text()
        paid = score.locator("tfoot th").inner_text()
        if "点炮" in how or "抢杠" in how:
            assert "每家" not in paid, (how, paid)
            # who pays: the discarder, or (Enshi) each loser's own line below
            assert "放炮者付" in paid or score.locator('[data-role="payers"]').count(), (how, paid)
        reading = score.locator('[data-role="reading"]')  # drawn as tiles, not written in notation
        assert reading.locator("svg.tile").count() >= 2
        assert not re.search(r"\d[mpsz]", reading.inner_text()), reading.inner_text()
        expect(sheet.locator(".open-hand.winner")).not_to_have_count(0)
        expect(sheet.locator("svg.win-tile")).not_to_have_count(0)


def sheet_fits_sideways(page: Page) -> None:
    """On a phone held sideways the hand's sheet is read without scrolling while its countdown runs:
    as played, and grown to the longest a sheet gets (three winners, a long list of payments, a
    比下胡 banner with every cause), whose long parts scroll by themselves."""
    resize(page, 844, 390)
    overlay = page.locator('[data-role="hand-end"]')
    as_played = sheet_scroll(overlay)
    overlay.evaluate(GROW_SHEET, LONGEST_BANNER)
    settle(page)
    longest = sheet_scroll(overlay)
    bar = overlay.locator('[data-role="next-in"]').bounding_box()
    resize(page, 1280, 800)
    for scroll, parts in (as_played, longest):
        assert scroll <= 2, f"the sheet needs {scroll} px of scrolling on a phone held sideways: {parts}"
    assert bar is not None and bar["y"] + bar["height"] <= 390, f"the countdown is out of view: {bar}"


CAUSES = ["杠上开花", "四家同打", "包牌", "暗杠", "明杠", "流局", "天胡", "连庄", "四风"]
LONGEST_BANNER = "下一局比下胡: " + "、".join(CAUSES * 2)

# Copies of what the sheet holds, where settlement.js puts them: the test's worst case of a real sheet.
GROW_SHEET = """(element, bannerText) => {
  const wins = element.querySelector(".sheet-columns > .wins");
  const win = wins.querySelector('[data-role="score-sheet"]');
  if (win) for (let copy = 0; copy < 2; copy++) wins.append(win.cloneNode(true));
  const money = element.querySelector(".money");
  let payments = money.querySelector("section");
  if (!payments) {
    payments = document.createElement("section");
    payments.innerHTML = "<h3>付款</h3><ul class='transfers'></ul>";
    money.append(payments);
  }
  const list = payments.querySelector("ul");
  while (list.children.length < 9) {
    const line = document.createElement("li");
    line.className = "transfer";
    line.innerHTML = "电脑 1 → 电脑 2 <b>10</b> <span class='muted'>硬花 软花 杠钱</span>";
    list.append(line);
  }
  if (!element.querySelector(".banner.bixiahu")) {
    const banner = document.createElement("p");
    banner.className = "banner bixiahu";
    banner.textContent = bannerText;
    element.querySelector(".sheet-columns").after(banner);
  }
}"""


def sheet_scroll(overlay: Locator) -> tuple[int, list[list[object]]]:
    """How far the sheet scrolls, and where each of its parts ends (to say what grew)."""
    scroll = overlay.evaluate("(element) => element.scrollHeight - element.clientHeight")
    parts = overlay.evaluate(
        "(element) => [...element.querySelectorAll('.sheet > *, .sheet-columns > *, .money > *')]"
        ".map((part) => [part.className, Math.round(part.getBoundingClientRect().bottom)])"
    )
    return scroll, parts


def play_match_pressing_continue(page: Page, preset: str) -> None:
    """Every hand played by clicking, 继续 pressed after each; the sheets' screenshots are named for
    ``preset`` (each match its own files, whichever test process writes them)."""
    for hand in range(HANDS):
        expect(page.locator('[data-role="hand-no"]')).to_have_text(f"第{hand + 1}/{HANDS}局")
        play_hand_by_clicking(page)
        check_sheet(page)
        sheet = page.locator('[data-role="hand-end"]')
        if hand == HANDS - 1:
            break
        expect(sheet.locator('[data-role="next-in"]')).to_contain_text("秒后自动开始下一局")
        if hand == 0:
            shoot(page, f"hand-end-{preset}")
            sheet_fits_sideways(page)
        sheet.locator('[data-role="continue"]').click()
        # the only person at the table has read it: the next hand comes at once, not after the room's
        # countdown (NEXT_HAND_SECONDS, 120 s: a busy machine's slowness is well inside it)
        expect(page.locator('[data-role="hand-no"]')).to_have_text(
            f"第{hand + 2}/{HANDS}局", timeout=NEXT_HAND_SECONDS * 1000 // 2
        )
        expect(sheet).to_have_count(0)
    # the last hand's sheet stays until it is closed, with 查看大结算 instead of 继续
    sheet = page.locator('[data-role="hand-end"]')
    expect(sheet.locator('[data-role="to-summary"]')).to_be_visible()
    expect(sheet.locator('[data-role="continue"]')).to_have_count(0)
    # match_end has come and the page has handled it (WIRE): the sheet is still shown
    page.wait_for_function("window.__heard.some((message) => message.type === 'match_end')")
    expect(page.locator('[data-role="summary"]')).to_have_count(0)
    expect(sheet).to_be_visible()
    shoot(page, f"hand-end-last-{preset}", sizes=("desktop",))
    sheet.locator('[data-role="to-summary"]').click()


def check_summary(page: Page, number: str) -> None:
    summary = page.locator('[data-role="summary"]')
    expect(summary).to_be_visible()
    facts = summary.locator('[data-role="summary-facts"]').inner_text()
    assert number in facts and "南宁麻将" in facts
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", facts)
    heads = summary.locator(".ranks thead th").all_inner_texts()
    assert {"名次", "总分", "胡", "自摸", "点炮", "杠", "最大"} <= set(heads)
    rows = summary.locator(".ranks tbody tr")
    expect(rows).to_have_count(4)
    totals = [int(row.locator("td").nth(1).inner_text()) for row in rows.all()]
    ranks = [int(row.locator('[data-role="rank"]').inner_text()) for row in rows.all()]
    assert sum(totals) == 0
    assert ranks == [1 + sum(other > total for other in totals) for total in totals]  # ties alike
    expect(summary.locator(".per-hand tbody tr")).to_have_count(HANDS)
    expect(summary.locator('.per-hand [data-role="replay"]')).to_have_count(HANDS)
    shoot(page, "summary")
    resize(page, 390, 844)  # upright: every player's column and every statistic shows
    for part in ("ranks", "per-hand"):
        hidden = summary.locator(f".scroll:has(.{part})").evaluate(
            "(box) => box.scrollWidth - box.clientWidth"
        )
        assert hidden <= 1, f"{hidden} px of the {part} table are hidden sideways on a phone held upright"
    labels = summary.locator(".ranks tbody tr >> nth=0 >> td.stat").evaluate_all(
        "(cells) => cells.map((cell) => getComputedStyle(cell, '::before').content)"
    )
    assert [label.strip('"').strip() for label in labels] == ["胡", "自摸", "点炮", "杠", "最大"], labels
    resize(page, 1280, 800)
    with page.expect_download() as waiting:
        summary.locator('[data-role="save-image"]').click()
    download = waiting.value
    assert download.suggested_filename == f"hupai-{number}.png"
    path = download.path()
    assert path is not None and path.read_bytes()[:8] == PNG
    download.save_as(ARTIFACTS / "summary-picture.png")
    summary.locator('[data-role="copy-text"]').click()
    expect(page.locator("#toast")).to_be_visible()
    page.click("#lang")  # bots are named in the reader's language
    expect(summary.locator("h1")).to_contain_text("Session summary")
    assert "Bot 2 · " in summary.inner_text() and "Nanning mahjong" in summary.inner_text()
    page.click("#lang")
    expect(summary.locator("h1")).to_contain_text("大结算")


def dissolve_at_once(page: Page, base_url: str) -> bool:
    """申请解散 with only bots at the table is asked first; ended before any points: no ranks.
    Returns whether points had moved all the same (the match is then ranked)."""
    page.goto(base_url)
    create_room_with_bots(page, "nanjing")
    page.click('[data-role="start"]')
    expect(page.locator(".table")).to_be_visible()
    page.click('[data-role="dissolve"]')
    confirm = page.locator('[data-role="confirm"]')
    expect(confirm).to_be_visible()
    assert "确定" in confirm.inner_text() and "取消" in confirm.inner_text()
    confirm.locator('[data-answer="no"]').click()
    expect(confirm).to_have_count(0)
    expect(page.locator(".table")).to_be_visible()  # nothing happened
    page.click('[data-role="dissolve"]')
    page.click('[data-role="confirm"] [data-answer="yes"]')
    summary = page.locator('[data-role="summary"]')
    expect(summary).to_be_visible()
    ranks = summary.locator('[data-role="rank"]').all_inner_texts()
    if summary.locator("tr[data-seat] td.plus, tr[data-seat] td.minus").count():
        # Money moved before the click landed (a Nanjing deal may pay for flowers at once): ranked.
        assert all(rank.isdigit() for rank in ranks), ranks
        return True
    assert ranks == ["—"] * 4
    return False


def test_a_whole_nanning_match_then_the_summary_and_history(pages: Watched, base_url: str) -> None:
    page = pages.page("desktop")
    page.add_init_script(WIRE)
    enter(page, base_url, "阿南")
    number = create_room_with_bots(page, "nanning")
    page.click('[data-role="start"]')
    play_match_pressing_continue(page, "nanning")
    check_summary(page, number)
    ranked = dissolve_at_once(page, base_url)

    page.click('header [data-i18n="nav.history"]')
    history = page.locator('[data-role="history"]')
    expect(history.locator(f'[data-room="{number}"] [data-role="rules"]')).to_have_text("南宁麻将")
    expect(history.locator('[data-role="my-stats"] .stat')).to_have_count(7)
    assert history.locator('[data-stat="history.games"] b').inner_text() == "2"
    # The dissolved game: no rank, unless points had moved before the vote (as its summary showed).
    expect(history.locator('[data-role="rank"]').first).to_have_text(re.compile(r"\d") if ranked else "—")
    shoot(page, "history")
    page.click("#lang")
    expect(page.locator('[data-role="history-title"]')).to_have_text("My games")
    expect(history.locator(f'[data-room="{number}"] [data-role="rules"]')).to_have_text("Nanning mahjong")
    page.click("#lang")
    expect(page.locator('[data-role="history-title"]')).to_have_text("我的战绩")


WATCH_MOTION = """() => {
  window.motion = { calls: 0, landings: 0 };
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (!(node instanceof Element)) continue;
      const own = node.matches('[data-role="callout"]') ? 1 : 0;
      window.motion.calls += node.querySelectorAll('[data-role="callout"]').length + own;
      window.motion.landings += node.querySelectorAll(".cell.fresh").length;
    }
  }).observe(document.getElementById("app"), { childList: true, subtree: true });
}"""


# One test a rule set: each is a whole match (about 25 s), and two can run side by side.
@pytest.mark.parametrize(("preset", "name"), [("nanjing", "南京麻将"), ("enshi", "恩施麻将")])
def test_a_whole_match_in_nanjing_and_enshi(pages: Watched, base_url: str, preset: str, name: str) -> None:
    """Four hands by clicking in each of the other two rule sets, to 大结算; discards land with a
    motion and every win or claim shows its word."""
    page = pages.page("desktop")
    page.add_init_script(WIRE)
    enter(page, base_url, f"打{preset[:2]}")
    number = create_room_with_bots(page, preset)
    page.evaluate(WATCH_MOTION)
    page.click('[data-role="start"]')
    play_match_pressing_continue(page, preset)
    summary = page.locator('[data-role="summary"]')
    expect(summary).to_be_visible()
    facts = summary.locator('[data-role="summary-facts"]').inner_text()
    assert number in facts and name in facts
    rows = summary.locator(".ranks tbody tr")
    expect(rows).to_have_count(4)
    assert sum(int(row.locator("td").nth(1).inner_text()) for row in rows.all()) == 0
    wins = sum(int(row.locator("td").nth(2).inner_text()) for row in rows.all())
    motion = page.evaluate("window.motion")
    assert motion["landings"] > 0
    assert wins == 0 or motion["calls"] > 0, motion


def test_a_language_switch_keeps_the_waiting_room_the_sheet_and_the_replay(
    pages: Watched, base_url: str
) -> None:
    page = pages.page("portrait")
    enter(page, base_url, "换语言")
    number = create_room_with_bots(page, "nanning")
    page.click("#lang")
    expect(page.locator('[data-role="number"]')).to_have_text(number)  # still the waiting room
    expect(page.locator(".seat-row.bot")).to_have_count(3)
    expect(page.locator('[data-role="invite"]')).to_be_visible()
    expect(page.locator('[data-role="start"]')).to_have_text("Start")
    page.click("#lang")
    page.click('[data-role="start"]')
    play_hand_by_clicking(page)
    sheet = page.locator('[data-role="hand-end"]')
    expect(sheet).to_be_visible()
    page.click("#lang")
    expect(sheet).to_contain_text("Hand settlement")
    expect(sheet.locator('[data-role="continue"]')).to_be_visible()
    page.click("#lang")
    expect(sheet).to_contain_text("本局结算")
    page.goto(f"{base_url}#/replay/{number}/0")
    page.click('[data-go="next"]')
    page.click('[data-go="next"]')
    step = page.locator('[data-role="step"]').inner_text()
    page.click("#lang")
    expect(page.locator('[data-role="replay"] h1')).to_contain_text("Replay")
    assert page.locator('[data-role="step"]').inner_text().startswith("Step 2 of")
    assert step.startswith("第2/")
