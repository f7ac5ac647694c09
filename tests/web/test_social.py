"""快捷语 and emotes in the browser: a phrase chosen at one seat shows by that seat's plate at the other
seats, in each reader's language, and is spoken there when sound is on; an emote too; a reader who
mutes a player sees and hears nothing more from them."""

from __future__ import annotations

import re
import time

from playwright.sync_api import FloatRect, Page, expect

from hupai.server.table.social import BURST, EVERY_SECONDS

from .conftest import SIZES, Watched
from .support import WIRE, create_room_with_bots, enter, resize, shoot
from .test_dissolve_vote import room_with_friends

PHONES = (SIZES["portrait"], SIZES["landscape"])


def overlap(a: FloatRect, b: FloatRect) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


# The page's speech goes to a list the test reads (no audio device here).
SPEECH = """
window.__spoken = [];
Object.defineProperty(window, "speechSynthesis", {value: {
  speak: (utterance) => window.__spoken.push(utterance.text), cancel: () => {}, getVoices: () => [],
}});
"""


# The phrases this test sends: the table also speaks its calls (报听, 碰, …) as the random deal has them.
SENT = ("不要走，决战到天亮", "Hello everyone, nice to meet you", "今天手气不错")


def phrases_spoken(page: Page) -> list[str]:
    return [text for text in page.evaluate("window.__spoken") if text in SENT]


def test_a_phrase_and_an_emote_reach_the_other_player_until_muted(pages: Watched, base_url: str) -> None:
    host = pages.page("desktop")
    friend = pages.page("portrait")
    friend.add_init_script(SPEECH)
    friend.add_init_script(WIRE)  # what the friend's page hears, once it has handled it
    enter(host, base_url, "甲")
    room_with_friends(host, [friend], base_url, 60)

    host.click('[data-role="chat"]')
    panel = host.locator('[data-role="chat-panel"]')
    expect(panel.locator("[data-phrase]")).to_have_count(12)
    shoot(host, "chat-panel")
    for width, height in PHONES:  # on a phone the panel leaves the board's centre in sight
        resize(host, width, height)
        shown, centre = panel.bounding_box(), host.locator('[data-role="centre"]').bounding_box()
        assert shown is not None and centre is not None and not overlap(shown, centre), (width, height)
    resize(host, *SIZES["desktop"])
    host.locator('[data-role="centre"]').click(position={"x": 3, "y": 3})  # a tap beside the panel: away
    expect(panel).to_have_count(0)
    host.click('[data-role="chat"]')
    panel.locator('[data-phrase="5"]').click()
    expect(panel).to_have_count(0)
    bubble = friend.locator('[data-role="bubble"][data-seat="0"]')
    expect(bubble).to_have_text("不要走，决战到天亮")
    first_said = time.monotonic()  # (after the server took it)
    # The speaker sees it too (each bubble shows for a few seconds: looked at first).
    expect(host.locator('[data-role="bubble"][data-seat="0"]')).to_have_text("不要走，决战到天亮")
    bubble.evaluate("(element) => Promise.all(element.getAnimations().map((motion) => motion.finished))")
    box, plate = (  # where the bubble stays, once it has come in (it grows from its middle)
        bubble.bounding_box(),
        friend.locator('.corner[data-seat="0"] [data-role="plate"]').bounding_box(),
    )
    assert box is not None and plate is not None and abs(box["y"] - (plate["y"] + plate["height"])) < 12
    friend.wait_for_function("window.__spoken.length > 0")
    assert phrases_spoken(friend) == ["不要走，决战到天亮"]

    friend.click("#lang")  # a reader in English reads the same phrase in English
    host.click('[data-role="chat"]')
    host.locator('[data-role="chat-panel"] [data-phrase="1"]').click()
    expect(friend.locator('[data-role="bubble"][data-seat="0"]')).to_have_text(
        "Hello everyone, nice to meet you"
    )
    host.click('[data-role="chat"]')
    host.locator('[data-role="chat-panel"] [data-emote="cool"]').click()
    expect(friend.locator('[data-role="bubble"][data-seat="0"]')).to_have_text("😎")

    friend.click('[data-role="chat"]')  # the friend mutes the host
    mute = friend.locator('[data-role="chat-panel"] [data-role="mute"][data-seat="0"]')
    mute.click()
    expect(friend.locator('[data-role="chat-panel"] [data-role="mute"][data-seat="0"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    friend.click('[data-role="chat"]')
    expect(friend.locator('[data-role="bubble"]')).to_have_count(0)  # the last bubble has gone
    spoken = len(phrases_spoken(friend))
    # Three things said in a burst empty the seat's allowance: the next is taken once one is back,
    # EVERY_SECONDS after the first (sooner, as on a fast machine, it is refused with slow_down).
    assert BURST == 3
    host.wait_for_timeout(max(first_said + EVERY_SECONDS + 0.2 - time.monotonic(), 0) * 1000)
    host.click('[data-role="chat"]')
    host.locator('[data-role="chat-panel"] [data-phrase="6"]').click()
    expect(host.locator('[data-role="bubble"][data-seat="0"]')).to_have_text("今天手气不错")
    # The friend's page has had it (and handled it): no bubble, nothing spoken.
    friend.wait_for_function(
        "window.__heard.some((message) => message.type === 'said' && message.phrase === 6)"
    )
    expect(friend.locator('[data-role="bubble"]')).to_have_count(0)
    assert len(phrases_spoken(friend)) == spoken


def test_avatars_are_chosen_on_entering_changed_in_the_lobby_and_shown_at_the_table(
    pages: Watched, base_url: str
) -> None:
    host = pages.page("desktop")
    host.goto(base_url)
    form = host.locator('[data-role="nickname"]')
    form.locator('input[name="name"]').fill("甲")
    expect(form.locator('.avatar-choice [data-avatar=""]')).to_have_text("甲")  # drawn from the name typed
    expect(form.locator(".avatar-choice")).to_have_count(13)
    shoot(host, "avatar-picker", sizes=("desktop", "portrait"))
    form.locator('.avatar-choice:has(input[value="plum"])').click()
    form.locator("button").click()
    player = host.locator('[data-role="player"]')
    expect(player.locator('[data-role="avatar"]')).to_have_attribute("data-avatar", "plum")

    player.locator('button.link[data-role="change-avatar"]').click()  # changed in the lobby, kept at once
    dialog = host.locator('[data-role="avatar-dialog"]')
    expect(dialog.locator('input[value="plum"]')).to_be_checked()
    dialog.locator('.avatar-choice:has(input[value="east"])').click()
    expect(dialog).to_have_count(0)
    expect(player.locator('[data-role="avatar"]')).to_have_attribute("data-avatar", "east")
    shoot(host, "lobby-avatar")
    host.reload()
    expect(host.locator('[data-role="player"] [data-role="avatar"]')).to_have_attribute("data-avatar", "east")

    friend = pages.page("portrait")
    room_with_friends(host, [friend], base_url, 60)  # the friend keeps the one drawn from the name
    for page in (host, friend):
        plates = [page.locator(f'.corner[data-seat="{seat}"] [data-role="avatar"]') for seat in range(4)]
        expect(plates[0]).to_have_attribute("data-avatar", "east")
        expect(plates[1]).to_have_text("乙")
        for bot in plates[2:]:
            expect(bot).to_have_attribute("data-avatar", "bot")
    shoot(friend, "table-avatars", sizes=("portrait", "landscape"))


def in_voice(page: Page) -> None:
    page.click('[data-role="voice"]')
    expect(page.locator('[data-role="voice-bar"]')).to_be_visible()


def test_voice_connects_two_players_and_their_sound_flows_while_talk_is_held(
    pages: Watched, base_url: str
) -> None:
    host = pages.page("desktop")
    friend = pages.page("landscape")
    far = pages.page("portrait")  # on plain HTTP over a LAN: the page is no secure context
    far.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false});")
    enter(host, base_url, "甲")
    room_with_friends(host, [friend, far], base_url, 60)

    button = far.locator('[data-role="voice"]')
    expect(button).to_have_attribute("aria-disabled", "true")
    expect(button).to_have_attribute("title", re.compile("HTTPS"))
    button.click(force=True)  # a tap on it says why (aria-disabled: Playwright would wait for it)
    expect(far.locator("#toast")).to_contain_text("HTTPS")

    in_voice(host)
    in_voice(friend)
    for page in (host, friend, far):  # everyone at the table sees who is in the voice
        for seat in (0, 1):
            expect(page.locator(f'.corner[data-seat="{seat}"] [data-role="in-voice"]')).to_be_visible()
    line = friend.locator('[data-role="voice-peer"][data-seat="0"]')
    expect(line).to_have_attribute("data-state", "connected", timeout=15_000)
    expect(host.locator('[data-role="voice-peer"][data-seat="1"]')).to_have_attribute(
        "data-state", "connected"
    )

    talk = host.locator('[data-role="talk"]')
    talk.hover()
    host.mouse.down()  # held: the host's (fake, beeping) microphone is heard at the friend's
    expect(talk).to_have_attribute("aria-pressed", "true")
    heard = (
        """() => Number(document.querySelector('[data-role="voice-peer"][data-seat="0"]').dataset.level)"""
    )
    friend.wait_for_function(f"({heard})() > 0.01")
    assert int(line.get_attribute("data-bytes") or 0) > 0
    shoot(friend, "voice", sizes=("landscape", "portrait"))
    host.mouse.up()  # let go: silence
    expect(talk).to_have_attribute("aria-pressed", "false")
    # The silence has reached the friend once the line has been quiet for longer than a beep's second,
    # on end (what was said just before letting go is on its way for a while: longer on a busy machine).
    friend.evaluate("window.__loudAt = performance.now()")
    friend.wait_for_function(
        f"""() => {{
          if (({heard})() >= 0.01) window.__loudAt = performance.now();
          return performance.now() - window.__loudAt > 2000;
        }}""",
        polling=50,
    )
    levels = []
    for _ in range(8):  # the fake microphone beeps each second: two seconds of it, all silent now
        friend.wait_for_timeout(250)
        levels.append(float(line.get_attribute("data-level") or 1))
    assert max(levels) < 0.01, levels

    friend.click('[data-role="voice-mute"]')  # the friend silences the others in their page
    assert friend.evaluate("document.querySelector('audio[data-seat=\"0\"]').muted")
    friend.click('[data-role="voice"]')  # and leaves: the host's line and mark go
    expect(friend.locator('[data-role="voice-bar"]')).to_have_count(0)
    expect(host.locator('[data-role="voice-peer"]')).to_have_count(0)
    expect(host.locator('.corner[data-seat="1"] [data-role="in-voice"]')).to_have_count(0)
    expect(far.locator('.corner[data-seat="0"] [data-role="in-voice"]')).to_be_visible()


def test_on_a_phone_each_emote_shows_at_its_own_players_plate(pages: Watched, base_url: str) -> None:
    """Upright and sideways, an emote from the player at the phone's right shows at that player's name
    plate (it showed at the left-hand player's)."""
    for size in ("portrait", "landscape"):
        phone = pages.page(size)
        friend = pages.page("desktop")
        enter(phone, base_url, "甲")
        room_with_friends(phone, [friend], base_url, 60)  # the friend sits at seat 1: the phone's right
        friend.click('[data-role="chat"]')
        friend.locator('[data-role="chat-panel"] [data-emote="cool"]').click()
        bubble = phone.locator('[data-role="bubble"][data-seat="1"]')
        expect(bubble).to_have_text("😎")
        bubble.evaluate("(element) => Promise.all(element.getAnimations().map((motion) => motion.finished))")
        box = bubble.bounding_box()
        plate = phone.locator('.corner[data-seat="1"] [data-role="plate"]').bounding_box()
        assert box is not None and plate is not None
        middle = box["x"] + box["width"] / 2
        assert plate["x"] - 8 <= middle <= plate["x"] + plate["width"] + 8, (size, box, plate)


def test_a_reload_at_the_table_comes_back_to_the_voice(pages: Watched, base_url: str) -> None:
    """A player talking at a table who reloads the page (or comes back to it) is in the voice again;
    one who left the voice on purpose stays out."""
    page = pages.page("portrait")
    enter(page, base_url, "回来说话")
    create_room_with_bots(page, "enshi")
    page.click('[data-role="start"]')
    expect(page.locator(".table")).to_be_visible()
    in_voice(page)
    mine = page.locator('.corner[data-seat="0"] [data-role="in-voice"]')
    expect(mine).to_be_visible()
    page.reload()
    expect(page.locator('[data-role="voice-bar"]')).to_be_visible()
    expect(mine).to_be_visible()  # the server has it in the voice again, not only the page
    page.click('[data-role="voice"]')  # leaves on purpose
    expect(page.locator('[data-role="voice-bar"]')).to_have_count(0)
    page.reload()
    expect(page.locator(".table")).to_be_visible()
    expect(page.locator('[data-role="voice-bar"]')).to_have_count(0)
    expect(mine).to_have_count(0)


def test_a_tap_on_a_phone_flashes_no_box_over_round_avatars(pages: Watched, base_url: str) -> None:
    """Tapping a round 头像 (or any control) on a phone showed the browser's blue square over it."""
    phone = pages.page("portrait")
    phone.goto(base_url)
    choice = phone.locator('[data-role="nickname"] .avatar-choice').first
    expect(choice).to_be_visible()
    highlight = choice.evaluate("(element) => getComputedStyle(element).webkitTapHighlightColor")
    assert highlight in ("rgba(0, 0, 0, 0)", "transparent"), highlight
