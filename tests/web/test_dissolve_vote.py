"""The dissolve vote (解散) in the browser, with two and three people at the table: everyone else gets
the vote at once (who asked, 同意 and 拒绝 buttons a finger can hit, the answers so far, the
countdown), the one who asked sees how many are awaited; one refusal ends it for everyone and play
goes on; everyone agreeing ends the match at once; silence until the countdown ends counts as
agreement."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import Watched
from .support import enter, shoot

VOTE = '[data-role="dissolve-vote"]'


def room_with_friends(host: Page, friends: list[Page], base_url: str, dissolve_seconds: int) -> str:
    """The host opens a Nanjing room (with the countdown), the friends follow its link and get ready,
    a bot takes the last seats and the host starts."""
    number: str = host.evaluate(
        """async (seconds) => {
            const answer = await fetch("/api/rooms", {
              method: "POST",
              headers: {"Content-Type": "application/json"},
              body: JSON.stringify({preset: "nanjing", hands: 4, dissolve_seconds: seconds}),
            });
            return (await answer.json()).number;
        }""",
        dissolve_seconds,
    )
    host.goto(f"{base_url}#/room/{number}")
    link = host.locator('[data-role="invite-link"]').input_value()
    for index, friend in enumerate(friends):
        friend.goto(link)
        form = friend.locator('[data-role="nickname"]')
        form.locator('input[name="name"]').fill(["乙", "丙"][index])
        form.locator("button").click()
        friend.click('[data-role="ready"]')
        # the server has it (the host's start refuses a player not ready): the button turns to 取消准备
        expect(friend.locator('[data-role="ready"]')).to_have_text("取消准备")
    host.click('[data-role="fill"]')
    expect(host.locator(".seat-row.bot")).to_have_count(3 - len(friends))
    host.click('[data-role="start"]')
    for page in (host, *friends):
        expect(page.locator(".table")).to_be_visible()
    return number


def ask(page: Page) -> None:
    page.click('[data-role="dissolve"]')
    page.click('[data-role="confirm"] [data-answer="yes"]')


def buttons_fit_a_finger(page: Page) -> None:
    for role in ("dissolve-agree", "dissolve-refuse"):
        box = page.locator(f'[data-role="{role}"]').bounding_box()
        assert box is not None and box["height"] >= 40, (role, box)


def test_one_refusal_ends_the_vote_for_everyone(pages: Watched, base_url: str) -> None:
    host = pages.page("desktop")
    first = pages.page("portrait")
    second = pages.page("landscape")
    enter(host, base_url, "甲")
    room_with_friends(host, [first, second], base_url, 60)
    first.click("#lang")  # this one reads English

    ask(first)
    mine = first.locator(VOTE)
    expect(mine.locator('[data-role="dissolve-waiting"]')).to_have_text("Waiting for 2 to answer")
    expect(mine.locator('[data-role="dissolve-agree"]')).to_have_count(0)
    for page in (host, second):
        vote = page.locator(VOTE)
        expect(vote.locator("h2")).to_have_text("乙 申请解散对局")
        expect(vote.locator('[data-role="dissolve-countdown"]')).to_contain_text("秒后未表态视为同意")
        buttons_fit_a_finger(page)
    expect(host.locator('[data-role="dissolve"]')).to_be_disabled()  # one vote at a time
    shoot(second, "dissolve-vote")
    shoot(first, "dissolve-vote-asked", sizes=("portrait",))

    host.click('[data-role="dissolve-agree"]')
    expect(host.locator(f'{VOTE} [data-role="dissolve-waiting"]')).to_have_text("等待 1 人表态")
    expect(first.locator(f'{VOTE} [data-role="dissolve-waiting"]')).to_have_text("Waiting for 1 to answer")
    expect(second.locator(f"{VOTE} li.yes")).to_have_count(3)  # the asker, the host and the bot

    second.click('[data-role="dissolve-refuse"]')
    for page in (host, first, second):
        expect(page.locator(VOTE)).to_have_count(0)
        expect(page.locator(".table")).to_be_visible()  # play goes on
    expect(host.locator("#toast")).to_have_text("丙 拒绝解散，对局继续")
    expect(first.locator("#toast")).to_have_text("丙 refused: the game goes on")

    again = first.locator('[data-role="dissolve"]')  # nobody may ask again for a while
    expect(again).to_be_disabled()
    expect(again).to_contain_text("Ask to end again in")
    expect(host.locator('[data-role="dissolve"]')).to_contain_text("秒后可再申请解散")


def test_everyone_agreeing_ends_the_match_at_once(pages: Watched, base_url: str) -> None:
    host = pages.page("desktop")
    friend = pages.page("portrait")
    enter(host, base_url, "甲")
    room_with_friends(host, [friend], base_url, 60)
    ask(host)
    expect(friend.locator(f"{VOTE} h2")).to_have_text("甲 申请解散对局")
    friend.click('[data-role="dissolve-agree"]')
    for page in (host, friend):
        expect(page.locator('[data-role="summary"]')).to_be_visible()
        expect(page.locator(VOTE)).to_have_count(0)
    expect(friend.locator("#toast")).to_have_text("全体同意，对局解散")


def test_silence_until_the_countdown_ends_counts_as_agreement(pages: Watched, base_url: str) -> None:
    host = pages.page("desktop")
    friend = pages.page("landscape")
    enter(host, base_url, "甲")
    room_with_friends(host, [friend], base_url, 10)
    friend.click("#lang")
    ask(host)
    countdown = friend.locator(f'{VOTE} [data-role="dissolve-countdown"]')
    expect(countdown).to_contain_text("Silence counts as agreement in")
    # The room's 10 s (not the default 60), counting down: a busy machine may have used any of them
    # before the friend's page is read.
    seconds = int("".join(ch for ch in countdown.inner_text() if ch.isdigit()))
    assert 0 <= seconds <= 10, seconds
    for page in (host, friend):  # the vote ends with its countdown (not timed here: a busy machine is slow)
        expect(page.locator('[data-role="summary"]')).to_be_visible(timeout=30_000)
    expect(friend.locator("#toast")).to_have_text("Time is up: silence counts as agreement, the game ends")
