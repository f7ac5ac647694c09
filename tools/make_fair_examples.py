"""Write tests/data/fairness/examples.json: fair deals (hupai-fair/1) worked out from fixed inputs.

Run once when the algorithm is new; the tests then hold every later change to these figures
(docs/fairness.md's worked example is the first entry).
"""

from __future__ import annotations

import json
from pathlib import Path

from hupai.game.engine import deal_in_order
from hupai.game.fairness import commitment, fair_order, hand_secret, shuffle_key, wall_hash
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
    }
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(CASES)} examples to {OUT}")


if __name__ == "__main__":
    main()
