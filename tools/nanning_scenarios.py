"""Building blocks for Nanning scenario records: a turn-by-turn script of one hand.

A :class:`Script` follows the table's turn order while a scenario is written: who draws what, who
discards, claims and kongs. Seats that only pass the time draw harmless tiles and discard them.
``finish()`` turns the script into a deal, a wall and the moves, ready for a record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from hupai.game.engine import DEALER_TILES, HAND_TILES, InvalidDeal
from hupai.rules import load_ruleset
from hupai.tiles import format_tiles, parse_tiles

FILL = -1
SEATS = 4


def tiles(text: str) -> list[int]:
    return parse_tiles(text)


@dataclass
class Script:
    """A hand written turn by turn. Seat 0 deals and plays first."""

    avoid: set[int] = field(default_factory=set)  # tiles no filler may be (the winner's waits)
    hands: dict[int, list[int]] = field(default_factory=lambda: {seat: [] for seat in range(SEATS)})
    complete: set[int] = field(default_factory=set)  # seats whose hand is given in full
    draws: list[int] = field(default_factory=list)
    replacements: list[int] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    turn: int = 0
    holding: bool = True  # the seat to act holds 3n+2 tiles (the dealer starts so)

    # --- hands -----------------------------------------------------------------------------

    def hand(self, seat: int, text: str) -> Script:
        """Give ``seat`` exactly these tiles (13, or 14 for the dealer)."""
        self.hands[seat] = tiles(text)
        self.complete.add(seat)
        return self

    def give(self, seat: int, text: str) -> Script:
        """Put these tiles in ``seat``'s hand; the rest is filled with harmless tiles."""
        self.hands[seat].extend(tiles(text))
        return self

    # --- turns -----------------------------------------------------------------------------

    def _next(self, seat: int) -> None:
        self.turn = (seat + 1) % SEATS
        self.holding = False

    def discard(self, seat: int, tile: str) -> Script:
        self._check(seat, holding=True)
        self.moves.append(f"{seat} d {tile}")
        self._next(seat)
        return self

    def draw(self, seat: int, tile: str | None = None) -> Script:
        self._check(seat, holding=False)
        self.draws.append(FILL if tile is None else tiles(tile)[0])
        self.holding = True
        return self

    def tsumogiri(self, seat: int, tile: str | None = None) -> Script:
        """Draw (a given tile, or a harmless one) and discard it."""
        self.draw(seat, tile)
        self.moves.append(f"{seat} t")
        self._next(seat)
        return self

    def until(self, seat: int) -> Script:
        """The seats before ``seat`` draw harmless tiles and let them go; ``seat`` is then to draw."""
        if self.holding:
            raise ValueError(f"seat {self.turn} still has to discard")
        while self.turn != seat:
            self.tsumogiri(self.turn)
        return self

    def pong(self, seat: int) -> Script:
        self.moves.append(f"{seat} pong")
        self.turn, self.holding = seat, True
        return self

    def kong_claim(self, seat: int, replacement: str) -> Script:
        self.moves.append(f"{seat} kong")
        self.replacements.append(tiles(replacement)[0])
        self.turn, self.holding = seat, True
        return self

    def kong(self, seat: int, tile: str, replacement: str | None = None) -> Script:
        """A concealed or added kong on one's own turn; ``replacement`` is the tile drawn after it
        (None when the kong is robbed)."""
        self._check(seat, holding=True)
        self.moves.append(f"{seat} kong {tile}")
        if replacement is not None:
            self.replacements.append(tiles(replacement)[0])
        return self

    def until_end(self, wall_size: int) -> Script:
        """Everyone draws harmless tiles and lets them go until the wall is empty (the hand is drawn)."""
        while len(self.draws) + len(self.replacements) < wall_size:
            if self.holding:
                raise ValueError(f"seat {self.turn} still has to discard")
            self.tsumogiri(self.turn)
        return self

    def then_wall(self, text: str) -> Script:
        """Tiles that follow in the wall without being drawn (摸码 codes, say)."""
        self.draws.extend(tiles(text))
        return self

    def hu(self, seat: int) -> Script:
        self.moves.append(f"{seat} hu")
        return self

    def after(self, seat: int, tile: str) -> Script:
        """``seat`` discards ``tile`` after a claim or a kong replacement (it is still its turn)."""
        return self.discard(seat, tile)

    def _check(self, seat: int, *, holding: bool) -> None:
        if seat != self.turn or self.holding != holding:
            state = "discard" if self.holding else "draw"
            raise ValueError(f"script out of turn: seat {seat} acts, but seat {self.turn} is to {state}")

    # --- the record --------------------------------------------------------------------------

    def finish(
        self, preset: str = "nanning", options: Mapping[str, object] | None = None, *, fish: str = ""
    ) -> tuple[list[list[int]], list[int], list[str]]:
        """The deal, the wall and the moves. Given tiles keep their places; harmless tiles (honours
        first, never one the winner waits on) fill the rest; the middle of the wall holds what is left."""
        ruleset = load_ruleset(preset, options or {})
        pool = Counter(ruleset.tile_set())
        used = Counter(tile for hand in self.hands.values() for tile in hand)
        used.update(tile for tile in self.draws if tile != FILL)
        used.update(self.replacements)
        set_aside = tiles(fish)
        used.update(set_aside)
        short = used - pool
        if short:
            raise InvalidDeal(f"more copies than the set holds: {format_tiles(sorted(short.elements()))}")
        free = pool - used

        def take(*, drawn: bool) -> int:
            # Honours first, then high suited tiles; a drawn (and discarded) tile never one the winner
            # waits on — those may only sit in other players' hands or deep in the wall.
            for tile in sorted(free, key=lambda kind: (kind < 27, -kind)):
                if free[tile] and not (drawn and tile in self.avoid):
                    free[tile] -= 1
                    return tile
            raise InvalidDeal("ran out of harmless tiles")

        draws = [take(drawn=True) if tile == FILL else tile for tile in self.draws]
        deal: list[list[int]] = []
        for seat in range(SEATS):
            size = DEALER_TILES if seat == 0 else HAND_TILES
            hand = list(self.hands[seat])
            if len(hand) > size or (seat in self.complete and len(hand) != size):
                raise InvalidDeal(f"seat {seat} is given {len(hand)} tiles; it holds {size}")
            while len(hand) < size:
                hand.append(take(drawn=False))
            deal.append(hand)
        rest = list((+free).elements())
        return deal, [*draws, *rest, *reversed(self.replacements), *set_aside], self.moves
