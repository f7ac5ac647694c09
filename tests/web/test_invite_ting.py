"""Invitations in the browser: a friend opens the room's link in a browser of their own, picks a
nickname once and lands seated; the invitation block (js/invite.js) shows the link's QR code and its
copy buttons work; a started room opens for watching with a message; a bad link says so; the number
without the link's token lets nobody in; the host's lock keeps the link out too, and a new link ends
the old one.

The 听 button (js/ting.js) is drawn from the seat's update: its module is checked here on its own,
with updates shaped as the server sends them (the server side is tested in tests/server/table/test_ting.py).
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS, Watched
from .support import create_room_with_bots, enter, shoot


def create_room(page: Page) -> str:
    page.click('[data-role="create"] button[type="submit"]')
    number = page.locator('[data-role="number"]').inner_text().strip()
    assert number.isdigit() and len(number) == 6
    return number


def link_of(host: Page) -> str:
    """The invitation link the host's waiting room shows."""
    link = host.locator('[data-role="invite-link"]').input_value()
    assert re.fullmatch(r"http://[^/]+/#/join/\d{6}/[A-Za-z0-9_-]{22,}", link), link
    return link


def follow_link(page: Page, base_url: str, number: str, name: str, link: str) -> None:
    """A visitor with no session opens the link: one nickname, then straight on."""
    page.goto(link)
    form = page.locator('[data-role="nickname"]')
    expect(form).to_be_visible()
    form.locator('input[name="name"]').fill(name)
    form.locator("button").click()
    expect(page).to_have_url(f"{base_url}#/room/{number}")
    expect(page.locator('[data-role="nickname"]')).to_have_count(0)


def test_a_friend_follows_the_link_and_sits_down(pages: Watched, base_url: str) -> None:
    host = pages.page()
    enter(host, base_url, "房主")
    number = create_room(host)

    link = link_of(host)
    friend = pages.page("portrait")
    friend.goto(link)
    expect(friend.locator('[data-role="nickname"]')).to_be_visible()
    expect(friend.locator('[data-role="invited"]')).to_contain_text(number)
    shoot(friend, "join-nickname")
    follow_link(friend, base_url, number, "好友", link)
    mine = friend.locator('.seat-row[data-seat="1"]')
    expect(mine.locator(".tag.you")).to_be_visible()  # the first free seat
    expect(host.locator('.seat-row[data-seat="1"]')).to_contain_text("好友")

    # The waiting room's invitation: the link, its QR code and the copy buttons.
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url.rstrip("/"))
    invite = host.locator('[data-role="invite"]')
    expect(invite.locator('[data-role="invite-link"]')).to_have_value(link)
    qr = invite.locator('[data-role="invite-qr"]')
    expect(qr).to_be_visible()
    host.wait_for_function("document.querySelector('[data-role=\"invite-qr\"]').complete")
    assert host.evaluate("document.querySelector('[data-role=\"invite-qr\"]').naturalWidth") > 0
    # Each copy's toast (what was copied) comes once the copy is done: then the clipboard is read.
    toast = host.locator("#toast")
    invite.locator('[data-role="copy-link"]').click()
    expect(toast).to_have_text(f"已复制: {link}")
    assert host.evaluate("navigator.clipboard.readText()") == link
    invite.locator('[data-role="copy-number"]').click()
    expect(toast).to_have_text(f"已复制: {number}")
    assert host.evaluate("navigator.clipboard.readText()") == number
    # over plain http on a LAN address there is no clipboard API: the old copy command does it
    host.evaluate("Object.defineProperty(window, 'isSecureContext', {value: false})")
    host.evaluate("navigator.clipboard.writeText('')")
    invite.locator('[data-role="copy-link"]').click()
    expect(toast).to_have_text(f"已复制: {link}")
    assert host.evaluate("navigator.clipboard.readText()") == link
    shoot(host, "invite")


def test_a_started_room_opens_for_watching_and_a_bad_link_says_so(pages: Watched, base_url: str) -> None:
    host = pages.page()
    enter(host, base_url, "房主")
    number = create_room_with_bots(host, "nanning")
    link = link_of(host)
    host.click('[data-role="start"]')
    expect(host.locator(".table")).to_be_visible()

    late = pages.page("landscape")
    follow_link(late, base_url, number, "晚到", link)
    expect(late.locator("#toast")).to_contain_text("牌局已开始，你在观战")
    expect(late.locator(".table")).to_be_visible()
    expect(late.locator('[data-role="hand"]')).to_have_count(0)  # a spectator holds no tiles

    late.goto(f"{base_url}#/join/12ab")
    expect(late.locator('[data-role="join-missing"]')).to_contain_text("12ab")


def test_the_number_alone_lets_nobody_in_and_the_hosts_lock_and_new_link_keep_people_out(
    pages: Watched, base_url: str
) -> None:
    host = pages.page()
    enter(host, base_url, "房主")
    number = create_room(host)
    expect(host.locator('[data-role="invite"] .invite-private')).to_contain_text("只知道房号进不来")
    first = link_of(host)

    stranger = pages.page("portrait", refused=(403,))  # refusals the page explains in words
    enter(stranger, base_url, "路人")
    stranger.fill('[data-role="join"] input[name="number"]', number)
    stranger.click('[data-role="join"] button[type="submit"]')
    expect(stranger.locator("#toast")).to_contain_text("私人房间")
    stranger.goto(f"{base_url}#/join/{number}")
    expect(stranger.locator('[data-role="join-refused"]')).to_contain_text("邀请链接")
    shoot(stranger, "join-private", sizes=("portrait",))

    host.click('[data-role="invite"] [data-role="lock"]')
    expect(host.locator('[data-role="locked"]')).to_be_visible()
    expect(host.locator('[data-role="invite"] [data-role="lock"]')).to_have_attribute("aria-pressed", "true")
    stranger.goto(first)
    expect(stranger.locator('[data-role="join-refused"]')).to_contain_text("锁定")
    host.click('[data-role="invite"] [data-role="lock"]')
    expect(host.locator('[data-role="locked"]')).to_have_count(0)

    host.click('[data-role="invite"] [data-role="new-link"]')
    expect(host.locator('[data-role="invite-link"]')).not_to_have_value(first)
    second = link_of(host)
    stranger.goto(f"{base_url}#/")
    stranger.goto(first)
    expect(stranger.locator('[data-role="join-refused"]')).to_contain_text("邀请链接")
    stranger.goto(f"{base_url}#/")
    stranger.goto(second)
    expect(stranger).to_have_url(f"{base_url}#/room/{number}")
    expect(host.locator('.seat-row[data-seat="1"]')).to_contain_text("路人")
    shoot(host, "invite-host")


def test_the_ting_module_draws_the_mark_the_waits_and_the_button(page: Page, base_url: str) -> None:
    page.goto(base_url)
    expect(page.locator('[data-role="nickname"]')).to_be_visible()
    drawn = page.evaluate(
        """async () => {
          const ting = await import("/static/js/ting.js");
          const sent = [];
          const ready = {type: "update", ting: false, waits: [{tile: "3m", left: 2}, {tile: "6m", left: 0}]};
          const box = document.createElement("div");
          box.innerHTML = ting.tingHtml(ready);
          document.body.append(box);
          ting.wireTing(box, ready, (message) => sent.push(message));
          box.querySelector('[data-role="ting"]').click();
          const on = ting.tingHtml({...ready, ting: true});
          const drawn = {
            tiles: [...box.querySelectorAll(".ting-wait")].map((li) => li.dataset.tile),
            left: box.querySelector(".ting-left").textContent,
            button: box.querySelector('[data-role="ting"]').textContent,
            sent,
            cancel: on.includes("取消听"),
            notReady: ting.tingHtml({type: "update", ting: false}),
            spectator: ting.tingHtml({type: "update"}),
          };
          box.insertAdjacentHTML("beforeend", on);  // both states, for the demo picture
          box.id = "ting-demo";
          box.style.cssText = "display: flex; flex-direction: column; gap: 8px; background: #fff";
          return drawn;
        }"""
    )
    assert drawn["tiles"] == ["3m", "6m"]
    assert drawn["left"] == "剩2张"
    assert drawn["button"] == "听"
    assert drawn["sent"] == [{"type": "ting", "on": True}]
    assert drawn["cancel"] is True
    assert drawn["notReady"] == "" and drawn["spectator"] == ""
    page.locator("#ting-demo").screenshot(path=ARTIFACTS / "ting-demo.png")


def test_the_escape_warning_names_each_rule_set_s_own_cost(page: Page, base_url: str) -> None:
    page.goto(base_url)
    expect(page.locator('[data-role="nickname"]')).to_be_visible()
    warnings = page.evaluate(
        """async () => {
          const {escapeWarning} = await import("/static/js/escape.js");
          const cards = await (await fetch("/api/rulesets")).json();
          return Object.fromEntries(cards.map((card) => [card.preset, escapeWarning({rules: card})]));
        }"""
    )
    assert warnings["nanjing"].startswith("逃跑扣60分")
    assert warnings["nanning"].startswith("本规则逃跑不扣分")
    assert warnings["enshi"].startswith("本规则逃跑不扣分")
    assert all(text.endswith("确定离开？") for text in warnings.values())


def test_an_invitation_from_a_server_on_this_machine_only_says_so(pages: Watched, base_url: str) -> None:
    """The test server listens on loopback with no public address: a friend on a phone could not open
    its link, and the invitation warns, at every size and in both languages (issue 32)."""
    host = pages.page()
    enter(host, base_url, "房主")
    create_room(host)
    warning = host.locator('[data-role="invite"] [data-role="invite-warning"]')
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("make run-lan")
    expect(warning).to_contain_text("只在这台电脑上")
    host.click("#lang")
    expect(warning).to_contain_text("friends on other devices cannot open this link")
    shoot(host, "invite-local-only")


def test_the_invitation_link_pasted_in_the_lobby_lets_a_friend_in(pages: Watched, base_url: str) -> None:
    """The lobby's field takes what a friend actually sends — the link — as well as one's own number."""
    host = pages.page()
    enter(host, base_url, "房主甲")
    number = create_room(host)
    link = link_of(host)
    friend = pages.page("portrait")
    enter(friend, base_url, "粘贴者")
    field = friend.locator('[data-role="join"] input[name="number"]')
    field.fill("不是链接")
    friend.click('[data-role="join"] button[type="submit"]')
    expect(friend.locator("#toast")).to_contain_text("请粘贴邀请链接")
    field.fill(f"快来打麻将 {link} 房号{number}")  # a message pasted whole
    friend.click('[data-role="join"] button[type="submit"]')
    expect(friend.locator('[data-role="number"]')).to_have_text(number)
    expect(host.locator(".seat-row", has_text="粘贴者")).to_be_visible()
