"""The forms of the browser client: the lobby's create form and rule card, the nickname form and the
score calculator (算分器), in Chinese and English. A language switch re-translates a screen in place
and keeps what the player typed and chose; it never brings back a page the player has left."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS, SIZES, Watched
from .support import enter, resize, shoot

RAW_VALUES = ("own_pung", "others_pung", "dealer_win", "big_hand", "three_discarded", "kanchan_or_edge")
NN_HAND = ("123m456p789s1122z", "2z")  # 平胡 of Nanning, self-drawn on 2z


def page_text(page: Page) -> str:
    text: str = page.evaluate("document.body.textContent")
    return text


def switch_language(page: Page, to: str) -> None:
    page.click("#lang")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN" if to == "zh" else "en")


def fits_a_phone(page: Page, selector: str) -> None:
    """The element's right edge is on a 390 px wide screen (a phone's layout viewport grows with a
    too-wide page, so the page's own scroll width does not tell)."""
    original = page.viewport_size
    resize(page, 390, 844)
    right = page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().right")
    assert right <= 390, f"{selector} reaches {right} px on a 390 px phone"
    if original is not None:
        resize(page, original["width"], original["height"])


def open_calculator(page: Page, preset: str) -> None:
    page.click('header [data-i18n="nav.calc"]')
    form = page.locator('[data-role="calc-form"]')
    expect(form).to_be_visible()
    form.locator('select[name="preset"]').select_option(preset)


def test_a_language_switch_in_the_lobby_keeps_the_form(page: Page, base_url: str) -> None:
    page.goto(base_url)
    page.fill('[data-role="nickname"] input[name="name"]', "小红")
    switch_language(page, "en")  # the nickname form re-translates and keeps the name typed
    expect(page.locator('[data-role="nickname"] button')).to_have_text("Enter")
    expect(page.locator('[data-role="nickname"] input[name="name"]')).to_have_value("小红")
    switch_language(page, "zh")
    page.click('[data-role="nickname"] button')
    create = page.locator('[data-role="create"]')
    expect(create).to_be_visible()

    summary = create.locator('[data-role="rule-summary"]')
    expect(summary).to_contain_text("南京麻将")
    expect(summary).to_contain_text("8局")
    expect(summary).to_contain_text("跑20")
    expect(summary).not_to_contain_text("砸2")
    create.locator('input[name="kong_money_zar2"]').check()
    expect(summary).to_contain_text("砸2")  # the summary follows the options
    expect(summary).to_contain_text("已改1项")
    create.locator('[data-hands="16"]').click()
    expect(summary).to_contain_text("16局")
    create.locator('input[name="seconds"]').fill("30")
    page.fill('[data-role="join"] input[name="number"]', "12345")
    create.locator('[data-role="more-rules"] summary').click()
    create.locator('input[name="yajue_source"][value="three_discarded"]').check()

    switch_language(page, "en")
    expect(create.locator("h2")).to_have_text("Create a room")
    expect(summary).to_contain_text("16 hands")
    expect(summary).to_contain_text("kong money ×2")
    expect(summary).to_contain_text("2 changed")
    expect(create.locator('input[name="hands"][value="16"]')).to_be_checked()
    expect(create.locator('input[name="seconds"]')).to_have_value("30")
    expect(page.locator('[data-role="join"] input[name="number"]')).to_have_value("12345")
    expect(create.locator('input[name="kong_money_zar2"]')).to_be_checked()
    expect(create.locator('input[name="yajue_source"][value="three_discarded"]')).to_be_checked()
    expect(create.locator('[data-choices="yajue_source"]')).to_contain_text("Three discarded")
    expect(create.locator('select[name="bot"] option:checked')).to_have_text("Strong")
    switch_language(page, "zh")
    expect(create.locator('[data-choices="yajue_source"]')).to_contain_text("打出三张")

    # Elsewhere, a language switch re-translates that page and never brings the lobby back.
    open_calculator(page, "nanjing")
    switch_language(page, "en")
    expect(page.locator('[data-role="calc"] h1')).to_have_text("Score calculator")
    expect(page.locator('[data-role="create"]')).to_have_count(0)
    page.click('header [data-i18n="nav.history"]')
    expect(page.locator('[data-role="history-title"]')).to_have_text("My games")
    expect(page.locator('[data-role="calc"]')).to_have_count(0)
    switch_language(page, "zh")
    expect(page.locator('[data-role="history-title"]')).to_have_text("我的战绩")  # the switch, handled here
    page.wait_for_timeout(200)  # a lobby brought back would come after its fetches: a moment to look
    expect(page.locator('[data-role="create"]')).to_have_count(0)


def test_each_bot_level_says_in_a_line_what_it_does(page: Page, base_url: str) -> None:
    enter(page, base_url, "小兰")
    create = page.locator('[data-role="create"]')
    about = create.locator('[data-role="bot-about"]')
    expect(create.locator('select[name="bot"] option:checked')).to_have_text("高手")  # the default
    expect(about).to_contain_text("危险")
    create.locator('select[name="bot"]').select_option("expert")
    expect(about).to_contain_text("推演")
    switch_language(page, "en")
    expect(create.locator('select[name="bot"] option:checked')).to_have_text("Expert")
    expect(about).to_contain_text("play several choices out")
    expect(about).to_contain_text("level with it in Nanning")  # what the ladder measured (docs/bots.md)
    switch_language(page, "zh")


def test_the_rule_card_shows_labels_not_raw_values(pages: Watched, base_url: str) -> None:
    for size in ("desktop", "landscape", "portrait"):
        page = pages.page(size)
        enter(page, base_url, f"规则{size[0]}")
        create = page.locator('[data-role="create"]')
        create.locator('select[name="preset"]').select_option("nanjing-002")
        triggers = create.locator('[data-choices="bixiahu_triggers"] input[type="checkbox"]')
        expect(triggers).to_have_count(9)  # every cause of 比下胡 as a labelled box
        expect(create.locator('[data-choices="bixiahu_triggers"]')).to_contain_text("庄家胡")
        expect(create.locator('[data-choices="bixiahu_triggers"] input:checked')).to_have_count(5)
        create.locator('[data-role="more-rules"] summary').click()
        expect(create.locator('[data-choices="yajue_source"] input[type="checkbox"]')).to_have_count(3)
        penalty = create.locator('input[type="number"][name="escape_penalty"]')  # the server's bounds
        expect(penalty).to_have_attribute("min", "0")
        expect(penalty).to_have_attribute("max", "1000")
        text = page_text(page)
        assert not [raw for raw in RAW_VALUES if raw in text], "a raw option value is shown"
        # The create button is in reach on the screen while the card is read.
        button = create.locator('.create-bar button[type="submit"]')
        create.locator('[data-role="rule-summary"]').scroll_into_view_if_needed()
        expect(button).to_be_in_viewport()
        create.locator('[data-role="more-rules"] summary').click()
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, "rulecard", sizes=(size,))
        number = page.locator('[data-role="join"] input[name="number"]').bounding_box()
        join = page.locator('[data-role="join"] button').bounding_box()
        assert number is not None and join is not None  # 房号 and 加入房间 on one line
        assert abs((number["y"] + number["height"] / 2) - (join["y"] + join["height"] / 2)) < 4, (
            size,
            number,
            join,
        )
    page = pages.page("portrait")
    enter(page, base_url, "规则看")
    shoot(page, "lobby")
    rows = page.locator('[data-role="create"] .rulecard tr.option')
    helps = page.locator('[data-role="create"] .rulecard tr.option .option-help')
    assert rows.count() > 10 and helps.count() == rows.count()  # every option says what it does
    plain = [text for text in helps.all_text_contents() if not re.search(r"[\u4e00-\u9fff]", text)]
    assert not plain, plain
    switch_language(page, "en")
    page.locator('[data-role="create"] select[name="preset"]').select_option("nanning")
    assert not [raw for raw in ("tsumo_only", "one_per_kong", "s004_count") if raw in page_text(page)]
    fenghu = page.locator('[data-role="create"] tr[data-option="fenghu"] .option-help')
    expect(fenghu).to_contain_text("cannot win this hand")
    shoot(page, "lobby-en")
    fits_a_phone(page, '[data-role="create"]')


def test_the_calculator_keeps_its_input_and_result_across_a_language_switch(
    page: Page, base_url: str
) -> None:
    enter(page, base_url, "算分二")
    open_calculator(page, "nanjing")
    form = page.locator('[data-role="calc-form"]')
    # NJ-01: 门清混一色 with four hard flowers, self-drawn: 88 a share.
    form.locator('input[name="hand"]').fill("123m234m789m11z56m")
    form.locator('input[name="win_tile"]').fill("7m")
    form.locator('input[name="flowers"]').fill("6z7z7z1f")
    form.locator('select[name="dealer"]').select_option("2")
    form.locator('button[type="submit"]').click()
    sheet = page.locator('[data-role="calc-sheet"]')
    expect(sheet.locator('[data-role="share"]')).to_have_text("88")
    expect(sheet.locator('[data-role="won-hand"] svg.tile:not(.small)')).to_have_count(14)
    expect(sheet.locator('[data-role="won-hand"] .flowers svg.tile')).to_have_count(4)
    expect(sheet.locator('[data-role="won-hand"] svg.tile.winning')).to_have_attribute("data-tile", "7m")
    assert "混一色" in sheet.inner_text()
    switch_language(page, "en")
    expect(page.locator('[data-role="calc"] h1')).to_have_text("Score calculator")
    expect(form.locator('input[name="hand"]')).to_have_value("123m234m789m11z56m")
    expect(form.locator('input[name="flowers"]')).to_have_value("6z7z7z1f")
    expect(form.locator('select[name="dealer"]')).to_have_value("2")
    expect(form.locator('select[name="dealer"] option:checked')).to_have_text("Across")
    expect(sheet.locator('[data-role="share"]')).to_have_text("88")
    assert "混一色" not in sheet.inner_text()  # the items in English too
    expect(page.locator('[data-role="calc-sheet"] h3').first).to_have_text("The winning hand")
    sheet.scroll_into_view_if_needed()
    shoot(page, "calculator")
    fits_a_phone(page, '[data-role="calc"]')
    resize(page, 390, 844)  # the palette's tiles take a fingertip
    pick = page.locator(".palette .pick svg.tile").first.bounding_box()
    assert pick is not None and pick["width"] >= 24 and pick["height"] >= 32, pick
    page.set_viewport_size({"width": 1280, "height": 800})


def test_a_nanning_calculator_asks_only_what_nanning_scores(page: Page, base_url: str) -> None:
    enter(page, base_url, "南宁人")
    open_calculator(page, "nanning")
    form = page.locator('[data-role="calc-form"]')
    for hidden in ("flowers", "ready", "multiplier", "enshi", "code_tiles", "horse_tiles", "fish_tiles"):
        expect(form.locator(f'[data-field="{hidden}"]')).to_be_hidden()
    assert not re.search("比下胡|报听|硬花", form.inner_text())
    form.locator('input[name="hand"]').fill(NN_HAND[0])
    form.locator('input[name="win_tile"]').fill(NN_HAND[1])
    form.locator('button[type="submit"]').click()
    sheet = page.locator('[data-role="calc-sheet"]')
    expect(sheet.locator('[data-role="won-hand"] svg.tile')).to_have_count(14)
    assert int(sheet.locator('[data-role="share"]').inner_text()) > 0

    # 摸码 on: the code tiles are asked for (after a self-drawn win) and score.
    form.locator("details.rules > summary").click()
    form.locator('input[name="moma"]').fill("2")
    expect(form.locator('[data-field="code_tiles"]')).to_be_visible()
    form.locator('input[name="code_tiles"]').fill("1m5m")
    form.locator('button[type="submit"]').click()
    expect(sheet.locator('[data-item="moma"]')).to_be_visible()
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    shoot(page, "calculator-nanning")
    fits_a_phone(page, '[data-role="calc"]')
    form.locator('select[name="how"]').select_option("discard")
    expect(form.locator('[data-field="code_tiles"]')).to_be_hidden()  # none are turned on a discard


def test_a_bad_hand_is_explained_in_the_players_language(pages: Watched, base_url: str) -> None:
    page = pages.page()
    enter(page, base_url, "错手")
    open_calculator(page, "nanning")
    form = page.locator('[data-role="calc-form"]')
    form.locator('input[name="hand"]').fill("123m456p")
    form.locator('input[name="win_tile"]').fill("2z")
    form.locator('button[type="submit"]').click()
    error = page.locator('[data-role="calc-error"]')
    expect(error).to_contain_text("手牌：填了6张")
    assert "hand" not in error.inner_text() and "win_tile" not in error.inner_text()
    expect(form.locator('[data-field="hand"]')).to_have_class(re.compile("invalid"))
    switch_language(page, "en")
    expect(error).to_contain_text("Hand: 6 tiles given")
    form.locator('input[name="hand"]').fill(NN_HAND[0])
    form.locator('input[name="win_tile"]').fill("1f")
    form.locator('button[type="submit"]').click()
    expect(error).to_contain_text("Winning tile: these rules have no Spring")
    switch_language(page, "zh")
    expect(error).to_contain_text("胡的牌：这套规则没有春")
    # A refusal is an answer, not a failed request: nothing in the console (the fixture checks).


def test_an_enshi_calculator_asks_for_the_pizi_and_scores_a_chow(page: Page, base_url: str) -> None:
    enter(page, base_url, "恩施算")
    open_calculator(page, "enshi")
    form = page.locator('[data-role="calc-form"]')
    for hidden in ("flowers", "ready", "multiplier", "nanning"):
        expect(form.locator(f'[data-field="{hidden}"]')).to_be_hidden()
    expect(form.locator('[data-field="enshi"]')).to_be_visible()
    # ES-11 from the winner's seat: it laid the 痞子 5m, the player across laid a 赖子 6m; 杠开 on the lay.
    form.locator('input[name="pizi"]').fill("5m")
    expect(form.locator('[data-role="laizi"] svg.tile')).to_have_attribute("data-tile", "6m")
    form.locator('input[name="laid-0"]').fill("5m")
    form.locator('input[name="laid-2"]').fill("6m")
    form.locator('input[name="hand"]').fill("12m6m345p678p4s")
    form.locator('input[name="win_tile"]').fill("4s")
    form.locator('select[name="how"]').select_option("kong_replacement")
    form.locator('select[name="lays_before"]').select_option("1")
    page.click('[data-role="add-meld"]')
    row = page.locator(".meld-row")
    expect(row.locator('option[value="chow"]')).to_be_enabled()  # Enshi chows
    row.locator('input[name="tile"]').fill("7s")
    form.locator('button[type="submit"]').click()
    sheet = page.locator('[data-role="calc-sheet"]')
    expect(sheet.locator('[data-role="payers"]')).to_be_visible()
    assert {"小斜", "下痞子", "杠开"} <= set(sheet.locator(".item th").all_inner_texts())
    expect(sheet.locator('[data-role="won-hand"] .meld svg.tile')).to_have_count(3)


def test_log_out_everywhere_ends_every_session(pages: Watched, base_url: str) -> None:
    """A registered player on two devices: 所有设备都退出 on the phone ends the desktop's session too."""
    phone = pages.page("portrait")
    name = f"两台设备{uuid.uuid4().hex[:8]}"  # a name of its own: the server is the whole session's
    enter(phone, base_url, name)
    account = {"name": name, "password": "correct horse battery"}
    assert phone.request.post(f"{base_url}api/register", data=account).ok  # keeps the guest's games
    desk = pages.page("desktop")
    assert desk.request.post(f"{base_url}api/login", data=account).ok  # a second session
    desk.goto(base_url)
    expect(desk.locator('[data-role="create"]')).to_be_visible()
    phone.reload()
    phone.click('[data-role="logout-everywhere"]')
    expect(phone.locator('[data-role="nickname"]')).to_be_visible()
    desk.reload()
    expect(desk.locator('[data-role="nickname"]')).to_be_visible()


def test_the_rule_card_offers_only_options_that_agree(page: Page, base_url: str) -> None:
    """Options that contradict each other (docs/rules/enshi.md): the card turns off and greys out what
    needs an option turned off, will not send a 金顶 below the cap, and the room keeps what was sent."""
    enter(page, base_url, f"规则{uuid.uuid4().hex[:4]}")
    create = page.locator('[data-role="create"]')
    create.locator('select[name="preset"]').select_option("enshi")
    create.locator('[data-role="more-rules"] summary').click()
    cap, gold, diamond = (
        create.locator(f'input[name="{name}"]') for name in ("cap", "gold_cap", "diamond_cap")
    )
    laizi_in_melds = create.locator('input[name="laizi_in_melds"]')

    laizi_in_melds.check()
    create.locator('input[name="chow"]').uncheck()  # a 赖子 stands in only for a tile of a chow
    expect(laizi_in_melds).not_to_be_checked()
    expect(laizi_in_melds).to_be_disabled()
    expect(create.locator('tr.option[data-option="laizi_in_melds"]')).to_have_class(re.compile("unavailable"))
    create.locator('input[name="chow"]').check()
    expect(laizi_in_melds).to_be_enabled()

    cap.fill("0")  # no cap: no 金顶 either, nor 钻石顶
    expect(gold).to_be_disabled()
    expect(gold).to_have_value("0")
    expect(diamond).to_be_disabled()
    resize(page, *SIZES["portrait"])
    create.locator('[data-role="more-rules"]').screenshot(path=ARTIFACTS / "rulecard-conflicts-portrait.png")
    cap.fill("400")
    expect(gold).to_be_enabled()
    gold.fill("300")  # a 金顶 below the cap is no 金顶: the form will not send it
    assert not gold.evaluate("input => input.checkValidity()")
    page.click('[data-role="create"] button[type="submit"]')
    expect(page.locator('[data-role="number"]')).to_have_count(0)
    gold.fill("600")
    assert gold.evaluate("input => input.checkValidity()")
    page.click('[data-role="create"] button[type="submit"]')
    number = page.locator('[data-role="number"]').inner_text().strip()
    room = page.evaluate(f"fetch('/api/rooms/{number}').then((answer) => answer.json())")
    assert room["rules"]["changed"] == {"gold_cap": 600}


# The page's fetch, held for one path until the test lets it go (``window.__release()``); then
# ``window.__released`` once the page has had what it asked for.
HOLD_FETCH = """(path) => {
  const native = window.fetch;
  window.__released = false;
  window.fetch = (url, ...rest) => {
    if (!String(url).startsWith(path)) return native(url, ...rest);
    return new Promise((done) => { window.__release = done; })
      .then(() => native(url, ...rest))
      .then((answer) => { setTimeout(() => { window.__released = true; }, 50); return answer; });
  };
}"""


def test_a_view_still_loading_never_paints_over_the_next(page: Page, base_url: str) -> None:
    """亲友圈 opened, its list still on its way, then 算分器: when the list comes, the calculator stays."""
    enter(page, base_url, "小快")
    page.evaluate(HOLD_FETCH, "/api/clubs")
    page.evaluate("location.hash = '#/clubs'")
    page.wait_for_function("typeof window.__release === 'function'")
    page.evaluate("location.hash = '#/calc'")
    expect(page.locator('[data-role="calc"]')).to_be_visible()
    page.evaluate("window.__release()")
    page.wait_for_function("window.__released")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    expect(page.locator('[data-role="calc"]')).to_be_visible()
    expect(page.locator('[data-role="no-clubs"], [data-role="club-list"]')).to_have_count(0)
