"""Build a deal and wall that play out a chosen situation (for scenario records, tests, the calculator).

>>> from hupai.rules import load_ruleset
>>> deal, wall = stack_wall(load_ruleset("nanjing"), dealer=0, hands={0: "11123456789m11p1z"}, draws="5p")
>>> len(deal[0]), len(deal[1]), wall[0]
(14, 13, 13)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from hupai.game.contract import RuleSet
from hupai.game.engine import DEALER_TILES, HAND_TILES, InvalidDeal
from hupai.game.model import SEATS
from hupai.tiles import format_tiles, parse_tiles

__all__ = ["stack_wall"]


def stack_wall(
    ruleset: RuleSet,
    *,
    dealer: int = 0,
    hands: Mapping[int, str] | None = None,
    draws: str = "",
    replacements: str = "",
    pizi: str = "",
    filler_seed: int = 0,
) -> tuple[list[list[int]], list[int]]:
    """A deal giving each listed seat exactly its ``hands`` tiles (14 for the dealer, 13 others), a wall
    whose front holds ``draws`` in order and whose back holds ``replacements`` in the order they will be
    taken (opening flower replacements first). ``pizi`` is the tile turned up after the deal where the
    rules turn one (Enshi 痞子). Seats not listed get remaining tiles other than flowers, and the middle
    of the wall the rest, shuffled by ``filler_seed``."""
    pool = Counter(ruleset.tile_set())
    chosen: dict[int, list[int]] = {}
    for seat, text in (hands or {}).items():
        chosen[seat] = parse_tiles(text)
    front = parse_tiles(draws)
    back = parse_tiles(replacements)
    if pizi:
        if ruleset.indicator is None:
            raise InvalidDeal(f"{ruleset.name} turns up no 痞子")
        turned = parse_tiles(pizi)
        front, back = (front, turned + back) if ruleset.indicator == "back" else (turned + front, back)
    wanted = Counter(tile for tiles in chosen.values() for tile in tiles)
    wanted.update(front)
    wanted.update(back)
    short = wanted - pool
    if short:
        raise InvalidDeal(f"more copies than the set holds: {format_tiles(sorted(short.elements()))}")
    rest = list((pool - wanted).elements())
    random.Random(filler_seed).shuffle(rest)
    # Seats left to chance get no flowers, so that scripted replacements go where they are meant to.
    plain = [tile for tile in rest if not ruleset.is_flower(tile)]
    flowers = [tile for tile in rest if ruleset.is_flower(tile)]
    deal: list[list[int]] = []
    for seat in range(SEATS):
        size = DEALER_TILES if seat == dealer else HAND_TILES
        tiles = chosen.get(seat)
        if tiles is None:
            tiles, plain = plain[:size], plain[size:]
        elif len(tiles) != size:
            raise InvalidDeal(f"seat {seat} needs {size} tiles, not {len(tiles)}")
        deal.append(tiles)
    middle = plain + flowers
    random.Random(filler_seed + 1).shuffle(middle)
    return deal, [*front, *middle, *reversed(back)]
