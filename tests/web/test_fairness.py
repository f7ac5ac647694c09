"""Fair deals in the browser (js/fairness.js): the page contributes to each hand's wall, shows the
commitment's fingerprint at the table with its details, and verifies the hand once it ends — on the
hand's sheet and in its replay — with Web Crypto. Its verifier agrees with ``hupai verify`` on
recorded games and on tampered copies of them, word for word."""

from __future__ import annotations

import copy
import json
import re
import secrets
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from typer.testing import CliRunner

from hupai.cli import app as cli
from hupai.game.engine import abandon
from hupai.game.match import Match
from hupai.game.record import read_record, record_from_match, write_record
from hupai.replay import verify_record
from hupai.rules import load_ruleset
from hupai.tiles import format_tiles, parse_tiles

from .conftest import Watched
from .support import create_room_with_bots, enter, play_hand_by_clicking, shoot

HEX64 = re.compile(r"[0-9a-f]{64}")


def fetch_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def details_while_playing(page: Page) -> tuple[str, str]:
    """The fingerprint at the table and its details while the hand is played: the commitment and the
    wall hash, this player's contribution, no secret. Returns the commitment and the contribution."""
    badge = page.locator('[data-role="fair-badge"]')
    expect(badge).to_be_visible()
    assert re.fullmatch(r"[0-9a-f]{8}", badge.inner_text().strip())
    shoot(page, "fairness-table")
    badge.click()
    dialog = page.locator('[data-role="fair-dialog"]')
    expect(dialog).to_be_visible()
    commitment = dialog.locator('[data-role="fair-commitment"]').inner_text().strip()
    mine = dialog.locator('[data-role="fair-mine"]').inner_text().strip()
    assert HEX64.fullmatch(commitment) and commitment.startswith(badge.inner_text().strip())
    assert HEX64.fullmatch(mine)
    assert HEX64.fullmatch(dialog.locator('[data-role="fair-wall-hash"]').inner_text().strip())
    expect(dialog.locator('[data-role="fair-secret"]')).to_have_count(0)
    shoot(page, "fairness-playing", sizes=("portrait",))
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    return commitment, mine


def test_a_hand_is_contributed_to_fingerprinted_and_verified_in_the_page(
    pages: Watched, base_url: str
) -> None:
    page = pages.page()
    enter(page, base_url, "公平")
    page.fill('[data-role="create"] input[name="next_hand"]', "120")  # time to read the sheet
    number = create_room_with_bots(page)
    page.click('[data-role="start"]')
    commitment, mine = details_while_playing(page)
    dialog = page.locator('[data-role="fair-dialog"]')

    play_hand_by_clicking(page)
    sheet = page.locator('[data-role="hand-end"]')
    verdict = sheet.locator('[data-role="fair-verdict"]')
    expect(verdict).to_have_attribute("data-verdict", "verified")
    expect(verdict).to_contain_text("牌墙已验证")
    expect(verdict).to_contain_text("你的随机数在牌谱里")
    record = fetch_json(f"{base_url}api/rooms/{number}/hands/0/record")
    fair = record["hands"][0]["fair"]
    assert fair["commitment"] == commitment and fair["contributions"][0] == mine
    assert verify_record(read_record(record)) == [[]]

    # After the hand: the secret and every contribution, and the page's own verdict.
    sheet.locator('[data-role="fair-details"]').click()
    expect(dialog.locator('[data-role="fair-secret"]')).to_have_text(fair["secret"])
    expect(dialog.locator('[data-role="fair-check"] [data-role="fair-verdict"]')).to_have_attribute(
        "data-verdict", "verified"
    )
    shoot(page, "fairness")
    dialog.locator('[data-role="close"]').click()
    page.click("#lang")
    sheet.locator('[data-role="fair-details"]').click()
    expect(dialog).to_contain_text("Fair deal")
    expect(dialog.locator('[data-role="fair-check"]')).to_contain_text("Wall verified")
    shoot(page, "fairness-en")
    page.keyboard.press("Escape")
    page.click("#lang")
    page.set_viewport_size({"width": 844, "height": 390})  # on a phone held sideways: read from the top
    sheet.locator('[data-role="fair-details"]').click()
    expect(dialog.locator('[data-role="fair-secret"]')).to_have_text(fair["secret"])
    assert dialog.locator(".modal-box").evaluate("(box) => box.scrollHeight > box.clientHeight")
    assert dialog.locator(".modal-box").evaluate("(box) => box.scrollTop") == 0
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 1280, "height": 800})

    # The replay says the same.
    page.goto(f"{base_url}#/replay/{number}/0")
    line = page.locator('[data-role="replay"] [data-role="fair-verdict"]')
    expect(line).to_have_attribute("data-verdict", "verified")
    expect(line).to_contain_text("你的随机数在牌谱里")
    shoot(page, "fairness-replay", sizes=("desktop", "portrait"))

    # Without Web Crypto (plain http on a LAN address) the page says so and points to hupai verify.
    insecure = pages.page()
    insecure.add_init_script("Object.defineProperty(window, 'isSecureContext', { get: () => false })")
    insecure.goto(f"{base_url}#/replay/{number}/0")
    said = insecure.locator('[data-role="fair-verdict"]')
    expect(said).to_have_attribute("data-verdict", "insecure")
    expect(said).to_contain_text("hupai verify")


# --- the page's verifier against hupai verify -------------------------------------------------------


def fair_record(preset: str, hands: int = 3, **options: Any) -> dict[str, Any]:
    """A record of fairly dealt hands, each with a fresh secret and random contributions (some "")
    and abandoned at once (the verifier looks at the deal and the wall only)."""
    match = Match(load_ruleset(preset, options), seed=0, seats=("甲", "乙", "丙", "丁"))
    states = []
    for index in range(hands):
        contributions = [secrets.token_hex(32), "", secrets.token_hex(5), secrets.token_hex(32)[: index * 7]]
        state = match.start_hand(fair_secret=secrets.token_hex(32), contributions=contributions)
        abandon(state)
        match.finish_hand(state)
        states.append(state)
    return write_record(record_from_match(match, states))


def tampered(record: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Copies of a record with one thing changed in its first hand."""
    copies = []

    def changed(name: str, change: Any) -> None:
        twin = copy.deepcopy(record)
        change(twin["hands"][0])
        copies.append((name, twin))

    def swap_wall(hand: dict[str, Any]) -> None:
        wall = parse_tiles(hand["wall"])
        other = next(index for index, tile in enumerate(wall) if tile != wall[10])
        wall[10], wall[other] = wall[other], wall[10]
        hand["wall"] = format_tiles(wall)

    def swap_deal(hand: dict[str, Any]) -> None:
        first, second = parse_tiles(hand["deal"][0]), parse_tiles(hand["deal"][2])
        at = next(index for index, tile in enumerate(second) if tile != first[3])
        first[3], second[at] = second[at], first[3]
        hand["deal"][0], hand["deal"][2] = format_tiles(first), format_tiles(second)

    def flip(text: str) -> str:
        return text[:-1] + ("0" if text[-1] != "0" else "1")

    changed("a swapped wall tile", swap_wall)
    changed("tiles swapped between two hands", swap_deal)
    changed("a changed secret", lambda hand: hand["fair"].update(secret=flip(hand["fair"]["secret"])))
    changed(
        "a changed commitment", lambda hand: hand["fair"].update(commitment=flip(hand["fair"]["commitment"]))
    )
    changed(
        "a changed wall hash", lambda hand: hand["fair"].update(wall_hash=flip(hand["fair"]["wall_hash"]))
    )
    changed(
        "a changed contribution",
        lambda hand: hand["fair"]["contributions"].__setitem__(1, "00"),
    )
    return copies


PAGE_VERDICTS = """async ([records, families]) => {
  const fairness = await import("/static/js/fairness.js");
  const i18n = await import("/static/js/i18n.js");
  const before = i18n.language();
  i18n.setLanguage("en");
  const out = [];
  for (const [index, record] of records.entries()) {
    const verdicts = await fairness.verifyRecord(record, families[index]);
    const words = (verdict) => verdict.problems.map(fairness.describeProblem);
    out.push(verdicts.map((verdict) => (verdict.verified === null ? null : words(verdict))));
  }
  i18n.setLanguage(before);
  return out;
}"""


def test_the_page_verifier_agrees_with_hupai_verify(page: Page, base_url: str, tmp_path: Path) -> None:
    enter(page, base_url, "核对")
    number = create_room_with_bots(page, preset="nanning")
    page.click('[data-role="start"]')
    play_hand_by_clicking(page)
    played = fetch_json(f"{base_url}api/rooms/{number}/record")  # as recorded by the server
    assert "fair" in played["hands"][0]
    originals = [
        ("nanning", played),
        ("nanjing", fair_record("nanjing")),  # with flowers
        ("enshi", fair_record("enshi")),  # 108 tiles
        ("enshi", fair_record("enshi", honours=True)),  # 136
    ]
    seeded = json.loads(json.dumps(played))  # a hand dealt from a seed carries no fair deal
    del seeded["hands"][0]["fair"]
    cases = [(family, "as recorded", record) for family, record in originals]
    cases += [(family, name, copied) for family, record in originals[:2] for name, copied in tampered(record)]
    cases.append(("nanning", "from a seed", seeded))
    records = [record for _, _, record in cases]
    families = [family for family, _, _ in cases]
    in_page = page.evaluate(PAGE_VERDICTS, [records, families])
    for (family, name, record), verdicts in zip(cases, in_page, strict=True):
        expected = verify_record(read_record(record))
        assert verdicts == expected, (family, name)
        if name == "as recorded":
            assert verdicts == [[]] * len(record["hands"])
        elif name != "from a seed":
            assert verdicts[0], (family, name)  # the tampered hand fails, with the same reasons …
            assert all(later == [] for later in verdicts[1:])  # … and only that hand

    # `hupai verify` on a tampered copy says what is wrong, as the page does.
    name, broken = tampered(played)[0]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1
    assert "positions differ, the first at position" in " ".join(result.output.split())
