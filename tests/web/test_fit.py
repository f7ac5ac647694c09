"""Every screen fits every size: the own hand row of an Enshi player who has laid every 痞子 and 赖子
(seven laid tiles, ×2^3·4^4) stays inside the screen at the three sizes, in both languages; and the
hints of that player, waiting on the 赖子, say why nobody wins on it in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS, SIZES, Watched
from .support import create_room_with_bots, enter, no_horizontal_overflow, prepared_server, resize


@pytest.fixture(scope="module")
def laying_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("fit")
    with prepared_server(folder, "tests.web.deals:laying_first_hand", bot_delay_seconds=0.3) as url:
        yield url


def outside(page: Page, selector: str) -> list[str]:
    """The elements of ``selector`` not wholly inside the screen's width."""
    found: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .map((element) => [element, element.getBoundingClientRect()])
            .filter(([, box]) => box.left < -0.5 || box.right > window.innerWidth + 0.5)
            .map(([element, box]) => `${element.getAttribute("class")} ${box.left}-${box.right}`)""",
        selector,
    )
    return found


def test_an_enshi_hand_with_everything_laid_fits_every_size(pages: Watched, laying_url: str) -> None:
    page = pages.page("portrait")
    enter(page, laying_url, "下痞子")
    create_room_with_bots(page, "enshi")
    lay_everything(page)
    expect(page.locator('.mine [data-role="multiplier"]')).to_have_text("×2048")
    for language in ("zh", "en"):
        for size, (width, height) in SIZES.items():
            resize(page, width, height)
            page.screenshot(path=ARTIFACTS / f"table-enshi-laid-{language}-{size}.png")
            assert no_horizontal_overflow(page) <= 1, (language, size)
            crossing = outside(page, '.hand-tile, [data-role="laid"], [data-role="multiplier"], .mine .meld')
            assert not crossing, (language, size, crossing)
            tile = page.locator(".hand-tile").first.bounding_box()
            assert tile is not None and tile["width"] >= 20, (language, size, tile)
        page.click("#lang")


def lay_everything(page: Page) -> None:
    page.click('[data-role="start"]')
    expect(page.locator(".hand-tile")).to_have_count(14)
    for laid in range(1, 8):
        page.locator('[data-action="lay"]').first.click()
        expect(page.locator('.mine [data-role="laid"] svg.tile')).to_have_count(laid)


def test_the_hints_say_why_nobody_wins_on_the_laizi_in_the_readers_language(
    pages: Watched, laying_url: str
) -> None:
    page = pages.page("landscape")
    enter(page, laying_url, "看提示")
    create_room_with_bots(page, "enshi")
    lay_everything(page)
    page.check('[data-role="hints"]')
    page.locator('.hand-tile[data-discard="7p"]').dblclick()  # ready: waiting on 8m and 5m (the 赖子)
    refusal = page.locator('[data-role="hints-panel"] .wait[data-tile="5m"] [data-role="wait-refusal"]')
    expect(refusal).to_contain_text("赖子只能下，不能打")
    assert not re.search(r"[A-Za-z]", refusal.inner_text()), refusal.inner_text()  # no English in 中文
    page.click("#lang")
    expect(refusal).to_contain_text("laid, never discarded")
