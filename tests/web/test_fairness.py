"""Fair deals in the browser (js/fairness.js): the page contributes to each hand's wall, shows the
commitment's fingerprint at the table with its details, and verifies the hand once it ends — on the
hand's sheet and in its replay — with Web Crypto. Its verifier agrees with ``hupai verify`` on
recorded games (``hupai-fair/2`` and ``/1``) and on tampered copies of them: word for word on the deals
and what ties a hand to its room and place, and on the action it refuses (tileflow.js follows the
tiles; the engine judges the play)."""

from __future__ import annotations

import copy
import json
import re
import secrets
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect
from typer.testing import CliRunner

from hupai.bots import make_bot
from hupai.cli import app as cli
from hupai.game.actions import action_from_dict
from hupai.game.engine import new_hand
from hupai.game.fairness import V1_CAVEAT
from hupai.game.match import Match
from hupai.game.record import apply_action, close_open_window, read_record, record_from_match, write_record
from hupai.replay import HandVerdict, verify_record
from hupai.rules import load_ruleset
from hupai.sim import play_hand
from hupai.tiles import format_tiles, parse_tiles

from .conftest import Watched
from .support import create_room_with_bots, enter, play_hand_by_clicking, resize, shoot

HEX64 = re.compile(r"[0-9a-f]{64}")


def fetch_json(page: Page, url: str) -> Any:
    """JSON the server gives the page's player (a room's records are for its players)."""
    return page.evaluate("async (url) => (await fetch(url)).json()", url)


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
    record = fetch_json(page, f"{base_url}api/rooms/{number}/hands/0/record")
    fair = record["hands"][0]["fair"]
    assert fair["commitment"] == commitment and fair["contributions"][0] == mine
    assert [verdict.verified for verdict in verify_record(read_record(record))] == [True]

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
    resize(page, 844, 390)  # on a phone held sideways: read from the top
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
    insecure = page.context.new_page()  # the same player (the replay is for the room's people)
    insecure.add_init_script("Object.defineProperty(window, 'isSecureContext', { get: () => false })")
    insecure.goto(f"{base_url}#/replay/{number}/0")
    said = insecure.locator('[data-role="fair-verdict"]')
    expect(said).to_have_attribute("data-verdict", "insecure")
    expect(said).to_contain_text("hupai verify")


# --- the page's verifier against hupai verify -------------------------------------------------------


ROOM = "200358"


def fair_record(preset: str, hands: int = 3, *, v2: bool = True, **options: Any) -> dict[str, Any]:
    """A record of fairly dealt hands, as a server's room deals them — ``hupai-fair/2`` for room ROOM
    (or ``/1``, as rooms made before it) — each with a fresh secret and random contributions (some
    ""), played out by random bots; written as GET /api/rooms/<n>/record gives it."""
    match = Match(load_ruleset(preset, options), seed=0, seats=("甲", "乙", "丙", "丁"))
    states = []
    for index in range(hands):
        contributions = [secrets.token_hex(32), "", secrets.token_hex(5), secrets.token_hex(32)[: index * 7]]
        state = match.start_hand(
            fair_secret=secrets.token_hex(32),
            contributions=contributions,
            fair_room=ROOM if v2 else None,
            fair_hand=index if v2 else None,
        )
        play_hand(state, [make_bot("random", index * 4 + seat) for seat in range(4)])
        match.finish_hand(state)
        states.append(state)
    data = write_record(record_from_match(match, states))
    data["room"], data["hand_index"] = ROOM, 0
    return data


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


def misplaced(record: dict[str, Any]) -> list[tuple[str, dict[str, Any], bool]]:
    """Copies of a record whose hands are not where they were dealt, or whose play is not what the
    tiles allow; each with whether the action the page refuses must be the one the engine refuses."""
    copies = []

    def changed(name: str, change: Any, *, exact: bool = False) -> None:
        twin = copy.deepcopy(record)
        change(twin)
        copies.append((name, twin, exact))

    def swap(twin: dict[str, Any]) -> None:
        twin["hands"][0], twin["hands"][1] = twin["hands"][1], twin["hands"][0]

    def never_held(twin: dict[str, Any]) -> None:
        hand = twin["hands"][1]
        at = next(index for index, action in enumerate(hand["actions"]) if action["act"] == "discard")
        state = new_hand(
            load_ruleset(twin["ruleset"], twin["options"]),
            dealer=hand["dealer"],
            deal=[parse_tiles(tiles) for tiles in hand["deal"]],
            wall=parse_tiles(hand["wall"]),
        )
        for action in hand["actions"][:at]:
            apply_action(state, action_from_dict(action))
        close_open_window(state)  # as the discard finds the table: every seat still undecided passed
        held = state.seats[hand["actions"][at]["seat"]].counts
        hand["actions"][at]["tile"] = format_tiles([next(kind for kind in range(27) if not held[kind])])

    changed("another room", lambda twin: twin.update(room="999999"))
    changed("no room", lambda twin: twin.pop("room"))
    changed("another index", lambda twin: twin.update(hand_index=1))
    changed("an index that is none", lambda twin: twin.update(hand_index="0"))
    changed("hands swapped", swap)
    changed("a hand duplicated", lambda twin: twin["hands"].__setitem__(2, copy.deepcopy(twin["hands"][1])))
    changed("a hand left out", lambda twin: twin["hands"].pop(1))
    changed("a hand's fair data removed", lambda twin: twin["hands"][1].pop("fair"))
    changed("one hand, at its index", lambda twin: twin.update(hands=twin["hands"][2:], hand_index=2))
    changed("one hand, not at its index", lambda twin: twin.update(hands=twin["hands"][2:], hand_index=1))
    changed("a discard of a tile never held", never_held, exact=True)
    return copies


PAGE_VERDICTS = """async ([records, families]) => {
  const fairness = await import("/static/js/fairness.js");
  const i18n = await import("/static/js/i18n.js");
  const before = i18n.language();
  i18n.setLanguage("en");
  const out = [];
  for (const [index, record] of records.entries()) {
    const verdicts = await fairness.verifyRecord(record, families[index]);
    out.push(verdicts.map((verdict) => verdict.verified === null ? null : {
      verified: verdict.verified,
      fair: verdict.problems.filter((problem) => problem.code !== "flow").map(fairness.describeProblem),
      actions: verdict.problems.filter((problem) => problem.code === "flow" && problem.flow.action !== null)
        .map((problem) => problem.flow.action),
      words: verdict.problems.map(fairness.describeProblem),
      caveats: verdict.caveats.map(fairness.describeCaveat),
    }));
  }
  i18n.setLanguage(before);
  return out;
}"""

# What `hupai verify` says of a hand's play (the engine's), as against its deal and its place.
PLAY = re.compile(
    r"(action \d+ \(|the record stops before the hand is over|the dealer is seat|the hand follows the end"
    r"|deal \+ wall must be|seat \d is dealt)"
)
ACTION = re.compile(r"action (\d+) \(")


def agree(verdict: HandVerdict, in_page: dict[str, Any] | None, *, exact: bool, where: Any) -> None:
    """The page's verdict on a hand is hupai verify's: verified or not, the same words on the deal and
    the hand's place, the same caveats; and its play refused where the engine refuses it — at the same
    action (``exact``), or never before the engine (the page judges no win: it may let a 胡 pass that
    the engine refuses, and then refuse what follows it) — but for the dealer of a hand after the
    first, which only the engine checks."""
    if verdict.verified is None:
        assert in_page is None, where
        return
    assert in_page is not None, where
    # Which seat deals next follows from how the hand before was won (Nanjing's 比下胡 from its score):
    # the page does not judge it.
    judged = [problem for problem in verdict.problems if not problem.startswith("the dealer is seat")]
    assert in_page["verified"] is not judged, (where, in_page["words"], verdict.problems)
    assert in_page["fair"] == [problem for problem in verdict.problems if not PLAY.match(problem)], where
    assert in_page["caveats"] == verdict.caveats, where
    engine = [int(found.group(1)) for problem in verdict.problems if (found := ACTION.match(problem))]
    if exact:
        assert in_page["actions"] == engine, (where, in_page["words"], verdict.problems)
    elif in_page["actions"]:
        assert engine and engine[0] <= in_page["actions"][0], (where, in_page["words"], verdict.problems)


def test_the_page_verifier_agrees_with_hupai_verify(page: Page, base_url: str, tmp_path: Path) -> None:
    enter(page, base_url, "核对")
    number = create_room_with_bots(page, preset="nanning")
    page.click('[data-role="start"]')
    play_hand_by_clicking(page)
    played = fetch_json(page, f"{base_url}api/rooms/{number}/record")  # as recorded by the server
    assert "fair" in played["hands"][0]
    originals = [
        ("nanning", played),
        ("nanjing", fair_record("nanjing")),  # with flowers
        ("enshi", fair_record("enshi")),  # 108 tiles
        ("enshi", fair_record("enshi", honours=True)),  # 136
    ]
    seeded = json.loads(json.dumps(played))  # a hand dealt from a seed carries no fair deal
    del seeded["hands"][0]["fair"]
    old = fair_record("nanning", v2=False)  # a room from before hupai-fair/2
    cases = [(family, "as recorded", record, False) for family, record in originals]
    cases.append(("nanning", "hupai-fair/1", old, False))
    cases += [
        (family, name, copied, False) for family, record in originals[:2] for name, copied in tampered(record)
    ]
    cases += [
        (family, name, copied, exact)
        for family, record in originals[1:]
        for name, copied, exact in misplaced(record)
    ]
    cases += [("nanning", name, copied, exact) for name, copied, exact in misplaced(old)]
    cases.append(("nanning", "from a seed", seeded, False))
    records = [record for _, _, record, _ in cases]
    families = [family for family, _, _, _ in cases]
    in_page = page.evaluate(PAGE_VERDICTS, [records, families])
    for (family, name, record, exact), verdicts in zip(cases, in_page, strict=True):
        expected = verify_record(read_record(record))
        assert len(verdicts) == len(expected), (family, name)
        for hand, (verdict, seen) in enumerate(zip(expected, verdicts, strict=True)):
            agree(verdict, seen, exact=exact, where=(family, name, hand))
        fails = [seen is not None and not seen["verified"] for seen in verdicts]
        if name in ("as recorded", "hupai-fair/1", "one hand, at its index"):
            assert not any(fails), (family, name)
            caveats = [V1_CAVEAT] if record["hands"][0]["fair"]["algorithm"] == "hupai-fair/1" else []
            assert all(seen["caveats"] == caveats for seen in verdicts), (family, name)
        elif name == "from a seed":
            assert verdicts == [None]
        elif name in {name for name, _ in tampered(old)}:
            assert fails == [True] + [False] * (len(fails) - 1), (family, name)  # that hand, and only it
        elif (
            record["hands"][0]["fair"]["algorithm"] == "hupai-fair/2"
            or name == "a discard of a tile never held"
        ):
            assert any(fails), (family, name)
        else:  # hupai-fair/1 cannot tell where a hand belongs: the caveat says so
            assert not any(fails), (family, name)

    # `hupai verify` on a tampered copy says what is wrong, as the page does.
    name, broken = tampered(played)[0]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1
    assert "positions differ, the first at position" in " ".join(result.output.split())
