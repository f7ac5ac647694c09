"""A complete hupai bot in its own process, using only the standard library.

    hupai simulate --bots "cmd:python examples/bot_example.py,efficiency,efficiency,efficiency"

It speaks the JSON-lines protocol of docs/bot-protocol.md: one message per line on stdin, one answer
per request on stdout. Its play is simple on purpose: win when it may, otherwise let claims go and
discard the loneliest tile (one with no neighbour or twin in hand), honours first.
"""

from __future__ import annotations

import json
import sys


def parse(notation: str) -> list[tuple[int, str]]:
    """ "123m11z" -> [(1, "m"), (2, "m"), (3, "m"), (1, "z"), (1, "z")]"""
    tiles: list[tuple[int, str]] = []
    digits = ""
    for char in notation or "":
        if char.isdigit():
            digits += char
        else:
            tiles.extend((int(digit), char) for digit in digits)
            digits = ""
    return tiles


def loneliness(tile: tuple[int, str], hand: list[tuple[int, str]]) -> int:
    rank, suit = tile
    twins = hand.count(tile) - 1
    if suit == "z":
        return 10 - 5 * twins
    near = sum(1 for other in hand if other[1] == suit and 0 < abs(other[0] - rank) <= 2)
    edge = 1 if rank in (1, 9) else 0
    return 8 - 4 * twins - 2 * near + edge


def decide(view: dict, legal: list[dict]) -> dict:
    for action in legal:
        if action["act"] == "hu":
            return action
    discards = [action for action in legal if action["act"] == "discard"]
    if not discards:
        return next((action for action in legal if action["act"] == "pass"), legal[0])
    hand = parse(view["hand"])
    return max(discards, key=lambda action: loneliness(parse(action["tile"])[0], hand))


def main() -> int:
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "request":
            answer = {"id": message["id"], "action": decide(message["view"], message["legal"])}
            print(json.dumps(answer), flush=True)
        elif message.get("type") == "bye":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
