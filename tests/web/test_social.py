"""快捷语 and emotes in the browser: a phrase chosen at one seat shows by that seat's plate at the other
seats, in each reader's language, and is spoken there when sound is on; an emote too; a reader who
mutes a player sees and hears nothing more from them."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import Watched
from .support import enter, shoot
from .test_dissolve_vote import room_with_friends

# The page's speech goes to a list the test reads (no audio device here).
SPEECH = """
window.__spoken = [];
Object.defineProperty(window, "speechSynthesis", {value: {
  speak: (utterance) => window.__spoken.push(utterance.text), cancel: () => {}, getVoices: () => [],
}});
"""


def test_a_phrase_and_an_emote_reach_the_other_player_until_muted(pages: Watched, base_url: str) -> None:
    host = pages.page("desktop")
    friend = pages.page("portrait")
    friend.add_init_script(SPEECH)
    enter(host, base_url, "甲")
    room_with_friends(host, [friend], base_url, 60)

    host.click('[data-role="chat"]')
    panel = host.locator('[data-role="chat-panel"]')
    expect(panel.locator("[data-phrase]")).to_have_count(12)
    shoot(host, "chat-panel", sizes=("desktop", "portrait"))
    panel.locator('[data-phrase="5"]').click()
    expect(panel).to_have_count(0)
    bubble = friend.locator('[data-role="bubble"][data-seat="0"]')
    expect(bubble).to_have_text("不要走，决战到天亮")
    box, plate = (
        bubble.bounding_box(),
        friend.locator('.corner[data-seat="0"] [data-role="plate"]').bounding_box(),
    )
    assert box is not None and plate is not None and abs(box["y"] - (plate["y"] + plate["height"])) < 12
    friend.wait_for_function("window.__spoken.length > 0")
    assert friend.evaluate("window.__spoken") == ["不要走，决战到天亮"]
    expect(host.locator('[data-role="bubble"][data-seat="0"]')).to_be_visible()  # the speaker sees it too

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
    friend.wait_for_timeout(3600)  # the last bubble has gone
    spoken = friend.evaluate("window.__spoken.length")
    host.click('[data-role="chat"]')
    host.locator('[data-role="chat-panel"] [data-phrase="6"]').click()
    expect(host.locator('[data-role="bubble"][data-seat="0"]')).to_have_text("今天手气不错")
    friend.wait_for_timeout(500)
    expect(friend.locator('[data-role="bubble"]')).to_have_count(0)
    assert friend.evaluate("window.__spoken.length") == spoken
