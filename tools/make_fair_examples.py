"""Write tests/data/fairness/examples.json: fair deals (hupai-fair/1 and hupai-fair/2) worked out from
fixed inputs.

Run once when an algorithm is new; the tests then hold every later change to these figures
(docs/fairness.md's worked example is the first hupai-fair/2 entry; its hupai-fair/1 differences use
the first hupai-fair/1 entry).
"""

from __future__ import annotations

import json
from pathlib import Path

from hupai.game.engine import deal_in_order
from hupai.game.fairness import _stream, commitment, fair_order, hand_secret, shuffle_key, wall_hash
from hupai.rules import load_ruleset
from hupai.tiles import format_tiles

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "fairness" / "examples.json"
ROOM_SECRET = "5eed" * 16

CASES = [
    ("nanning", 0, bytes(range(32)).hex(), ["a1b2", "", "c0ffee", ""]),
    ("nanning", 2, bytes(range(32)).hex(), ["a1b2", "", "c0ffee", ""]),
    ("nanning", 0, bytes(range(32)).hex(), ["a1b3", "", "c0ffee", ""]),
    ("nanjing", 1, hand_secret(ROOM_SECRET, 0), ["", "", "", ""]),
    ("nanjing", 3, hand_secret(ROOM_SECRET, 1), ["ff" * 32, "00" * 32, "", "7"]),
    ("enshi", 0, hand_secret(ROOM_SECRET, 2), ["0123456789abcdef", "", "", ""]),
    ("enshi", 3, "ff" * 32, ["", "", "", "deadbeef"]),
]

# (rule set, options, dealer, room, hand index, secret, contributions)
CaseV2 = tuple[str, dict[str, object], int, str, int, str, list[str]]
CASES_V2: list[CaseV2] = [
    ("nanning", {}, 0, "200358", 2, bytes(range(32)).hex(), ["a1b2", "", "c0ffee", ""]),
    ("nanning", {}, 0, "200358", 3, bytes(range(32)).hex(), ["a1b2", "", "c0ffee", ""]),
    ("nanning", {}, 0, "200359", 2, bytes(range(32)).hex(), ["a1b2", "", "c0ffee", ""]),
    ("nanjing", {}, 1, "000042", 0, hand_secret(ROOM_SECRET, 0), ["", "", "", ""]),
    ("nanjing", {}, 3, "731904", 11, hand_secret(ROOM_SECRET, 1), ["ff" * 32, "00" * 32, "", "7"]),
    ("enshi", {}, 2, "100000", 5, hand_secret(ROOM_SECRET, 2), ["0123456789abcdef", "", "", ""]),
    ("enshi", {"honours": True}, 3, "999999", 15, "ff" * 32, ["", "", "", "deadbeef"]),
]


def example_v2(case: CaseV2) -> dict[str, object]:
    ruleset, options, dealer, room, hand, secret, contributions = case
    order = fair_order(load_ruleset(ruleset, options).tile_set(), secret, contributions, room, hand)
    deal, wall = deal_in_order(dealer, order)
    key = shuffle_key(secret, contributions, room, hand)
    numbers = _stream(key)
    return {
        "ruleset": ruleset,
        "options": options,
        "dealer": dealer,
        "room": room,
        "hand": hand,
        "secret": secret,
        "contributions": contributions,
        "commitment_text": f"hupai-fair/2|{room}|{hand}|{secret}",
        "commitment": commitment(secret, room, hand),
        "key_text": "|".join(["hupai-fair/2", room, str(hand), secret, *contributions]),
        "key": key.hex(),
        "first_numbers": [next(numbers) for _ in range(3)],
        "order": format_tiles(order),
        "deal": [format_tiles(tiles) for tiles in deal],
        "wall": format_tiles(wall),
        "wall_hash": wall_hash(secret, order),
    }


def example(ruleset: str, dealer: int, secret: str, contributions: list[str]) -> dict[str, object]:
    order = fair_order(load_ruleset(ruleset).tile_set(), secret, contributions)
    deal, wall = deal_in_order(dealer, order)
    return {
        "ruleset": ruleset,
        "dealer": dealer,
        "secret": secret,
        "contributions": contributions,
        "commitment": commitment(secret),
        "key": shuffle_key(secret, contributions).hex(),
        "order": format_tiles(order),
        "deal": [format_tiles(tiles) for tiles in deal],
        "wall": format_tiles(wall),
        "wall_hash": wall_hash(secret, order),
    }


def main() -> None:
    data = {
        "algorithm": "hupai-fair/1",
        "room_secret": ROOM_SECRET,
        "hand_secrets": [hand_secret(ROOM_SECRET, index) for index in range(3)],
        "examples": [example(*case) for case in CASES],
        "examples_v2": [example_v2(case) for case in CASES_V2],
    }
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(CASES)} + {len(CASES_V2)} examples to {OUT}")


if __name__ == "__main__":
    main()
