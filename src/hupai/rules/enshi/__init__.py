"""恩施麻将 (Enshi mahjong, 一痞二赖): 108 tiles, a 痞子 turned up and its 赖子 wildcard, lays and kongs
that multiply each player's stake, and per-loser payments capped at 400 (金顶 500).

The rules in words, with the seed each comes from and every option: ``docs/rules/enshi.md``.

>>> from hupai.rules import load_ruleset
>>> ruleset = load_ruleset("enshi")
>>> ruleset.options.cap, len(ruleset.tile_set()), ruleset.indicator
(400, 108, 'back')
>>> from hupai.tiles import parse_tiles, tile_notation
>>> [tile_notation(ruleset.wild_of(tile)) for tile in parse_tiles("5m9m9p9s")]
['6m', '1m', '1p', '1s']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from hupai.game.contract import HandOutcome, RuleSet, ScoreSheet, Transfer, WinVerdict
from hupai.game.model import SEATS, HandState, MeldKind, WinContext, WinKind, next_seat
from hupai.rules.enshi.items import transfer
from hupai.rules.enshi.options import EnshiOptions
from hupai.rules.enshi.scoring import (
    complete_shape,
    losers,
    payer_lines,
    pizi_refusal,
    player_multiplier,
    score,
    tile_set_kinds,
)
from hupai.tiles import tile_name, tile_notation

__all__ = ["EnshiOptions", "EnshiRuleSet"]

# The 赖子 after an honour 痞子 (only with the ``honours`` option), by ``honour_successor``.
# 1z-4z = 东南西北 (27-30), 5z 白 (31), 6z 发 (32), 7z 中 (33).
_WINDS = {27: 28, 28: 29, 29: 30, 30: 27}
HONOUR_SUCCESSORS: dict[str, dict[int, int]] = {
    "winds_dragons": {**_WINDS, 33: 32, 32: 31, 31: 33},  # 中→发→白→中
    "riichi": {**_WINDS, 31: 32, 32: 33, 33: 31},  # 白→发→中→白
    "single_cycle": {27: 28, 28: 29, 29: 30, 30: 33, 33: 32, 32: 31, 31: 27},  # 东南西北中发白
}


class EnshiRuleSet(RuleSet):
    name: ClassVar[str] = "enshi"
    zh: ClassVar[str] = "恩施麻将"
    en: ClassVar[str] = "Enshi mahjong"
    options_class: ClassVar[type[EnshiOptions]] = EnshiOptions
    options: EnshiOptions
    ready_declaration = False
    concealed_kongs_public = False  # shown face down; that a kong was made is public (§3.4)
    pass_win_until = "discard"  # 过水不胡 until one's own next discard (X-ES; a lay does not count)
    set_aside_tiles = 0  # the 痞子 is turned up by the indicator hook, not set aside as a gap

    def __init__(self, options: EnshiOptions, preset: str) -> None:
        super().__init__(options, preset)
        self.multi_ron = options.multi_ron
        self.pass_win_restriction = options.pass_win_restriction
        self.pass_pung_restriction = options.pass_pung_restriction
        self.indicator = options.pizi_flip
        self.chow = options.chow

    # --- tiles ------------------------------------------------------------------------------

    def tile_set(self) -> list[int]:
        """108 tiles, four of each suited kind (X-ES "筒、条、万共108张"); 136 with ``honours``."""
        return [kind for kind in tile_set_kinds(self.options) for _ in range(4)]

    def is_flower(self, tile: int) -> bool:
        return False

    @property
    def reserved_tiles(self) -> int:
        return self.options.reserved_tiles

    def wild_of(self, indicator: int) -> int:
        """The 赖子 a 痞子 names: the next tile of its suit, 9 → 1 (S003b); honours by
        ``honour_successor``."""
        if indicator < 27:
            return indicator - indicator % 9 + (indicator % 9 + 1) % 9
        return HONOUR_SUCCESSORS[self.options.honour_successor][indicator]

    # --- the 痞子 and 赖子 in play ----------------------------------------------------------------

    def multiplier(self, state: HandState, seat: int) -> int:
        """``seat``'s multiplier this hand: ×2 per 痞子 laid, ×4 per 赖子 laid, ×2 per exposed (or
        added) kong, ×4 per concealed kong (§6). A winner's 杠开 is not included: it belongs to the
        win (its score sheet shows it)."""
        return player_multiplier(state, seat, self.options)

    def seat_multiplier(self, state: HandState, seat: int) -> int:
        """The engine's and view's name for :meth:`multiplier`."""
        return self.multiplier(state, seat)

    def is_complete(self, state: HandState, seat: int, counts: Sequence[int]) -> bool:
        """A winning shape with the 赖子 as wildcards; never while a 痞子 is held (有痞子不能胡)."""
        if self._pizi_held(state, counts):
            return False
        return complete_shape(counts, state.laizi)

    def shape_refusal(self, state: HandState, seat: int, counts: Sequence[int]) -> str:
        """有痞子不能胡, when the hand would be complete were its 痞子 ordinary tiles."""
        if self._pizi_held(state, counts) and complete_shape(counts, state.laizi):
            return pizi_refusal(seat, state.pizi)
        return ""

    def _pizi_held(self, state: HandState, counts: Sequence[int]) -> bool:
        pizi = state.pizi
        return self.options.pizi_blocks_win and pizi is not None and counts[pizi] > 0

    @staticmethod
    def _special(state: HandState) -> tuple[int | None, int | None]:
        return state.pizi, state.laizi  # asked for every tile of every turn: kept cheap

    def layable(self, state: HandState, seat: int) -> list[int]:
        """The 痞子 and 赖子 kinds ``seat`` holds, while a live tile remains to replace a lay (§3.2)."""
        if state.live_tiles <= 0:
            return []
        counts = state.seats[seat].counts
        return [kind for kind in self._special(state) if kind is not None and counts[kind]]

    def must_lay(self, state: HandState, seat: int) -> bool:
        """禁止养痞: a held 痞子 must be laid before anything else (while a live tile remains)."""
        pizi = state.pizi
        return (
            self.options.forbid_keeping_pizi
            and pizi is not None
            and state.seats[seat].counts[pizi] > 0
            and state.live_tiles > 0
        )

    def may_kong(self, state: HandState, seat: int, tile: int) -> bool:
        """No kong of the 赖子 (four 赖子 are laid one by one) nor of the 痞子 kind (X-ES "赖子不可碰杠赖子");
        fixed, whatever ``laizi_in_melds`` says (that option never reaches a kong)."""
        return tile not in self._special(state)

    def discard_refusal(self, state: HandState, seat: int, tile: int) -> str:
        """A 痞子 or 赖子 leaves the hand only by being laid; at the end of the wall (no lay possible) it
        may be discarded only when nothing else is left to discard (§3.2 item 8)."""
        if self.may_discard(state, seat, tile):
            return ""
        word = "痞子" if tile == state.pizi else "赖子"
        if state.live_tiles > 0:
            return (
                f"{word}不能打: a {word} ({tile_name(tile)}, {tile_notation(tile)}) leaves the hand only "
                'by laying it (act "lay")'
            )
        return (
            f"{word}不能打: no lay at the end of the wall, but a {word} is discarded only when "
            "nothing else is left to discard"
        )

    def may_discard(self, state: HandState, seat: int, tile: int) -> bool:
        special = self._special(state)
        if tile not in special:
            return True
        if state.live_tiles > 0:
            return False
        counts = state.seats[seat].counts
        return not any(count for kind, count in enumerate(counts) if kind not in special)

    def chow_options(self, state: HandState, seat: int, tile: int) -> list[int]:
        """The runs ``seat`` can make with ``tile`` from natural tiles; no 痞子 in a run, and a 赖子 only
        with ``laizi_in_melds`` (one, for a missing tile)."""
        special = self._special(state)
        if tile >= 27 or tile in special:
            return []
        counts = state.seats[seat].counts
        spare = self.options.laizi_in_melds and state.laizi is not None and counts[state.laizi] > 0
        found: list[int] = []
        rank = tile % 9
        for low in (tile - 2, tile - 1, tile):
            if low < tile - rank or low + 2 >= tile - rank + 9:
                continue  # the run leaves the suit
            needed = [kind for kind in (low, low + 1, low + 2) if kind != tile]
            missing = sum(1 for kind in needed if kind in special or not counts[kind])
            if missing == 0 or (missing == 1 and spare):
                found.append(low)
        return found

    def kong_can_be_robbed(self, state: HandState, seat: int, tile: int) -> bool:
        return self.options.rob_kong

    # --- money during play ---------------------------------------------------------------

    def kong_transfers(self, state: HandState, seat: int, meld_index: int) -> list[Transfer]:
        """Kongs multiply and are not paid on the spot (S003b, X-ES); with ``kong_money`` the feeder of
        an exposed kong (the pung's feeder for an added one) pays it, or each player for a concealed one."""
        money = self.options.kong_money
        if not money:
            return []
        meld = state.seats[seat].melds[meld_index]
        if meld.kind is MeldKind.CONCEALED_KONG or meld.feeder is None:
            return [transfer(other, seat, money, "kong_money") for other in losers(seat)]
        return [transfer(meld.feeder, seat, money, "kong_money")]

    # --- wins ---------------------------------------------------------------------------------

    def judge_win(self, state: HandState, context: WinContext) -> WinVerdict:
        return score(state, context, self.options)

    def win_transfers(self, state: HandState, context: WinContext, sheet: ScoreSheet) -> list[Transfer]:
        """One payment per loser, its payer line's capped amount (§7)."""
        lines = sheet.payers or payer_lines(
            state,
            context,
            sheet.share,
            pihu=any(entry.key == "pihu" for entry in sheet.items),
            options=self.options,
        )
        out: list[Transfer] = []
        for line in lines:
            if line.paid <= 0:
                continue
            if context.kind is WinKind.SELF_DRAWN:
                reason = "win_self_drawn"
            elif line.seat != context.discarder:
                reason = "win_discard_other"
            elif context.kind is WinKind.ROBBED_KONG:
                reason = "robbed_kong"
            else:
                reason = "win_discard"
            out.append(transfer(line.seat, context.seat, line.paid, reason))
        return out

    def instant_win_on_claim(self, state: HandState, seat: int, tile: int) -> bool:
        return False

    def hand_outcome(self, state: HandState) -> HandOutcome:
        """The winner deals next (with several winners the first in turn order after the discarder);
        after 荒庄 the dealer stays (X-ES). ``next_seat`` options pass the deal on instead."""
        if state.outcome == "win" and state.wins:
            if self.options.next_dealer == "winner":
                return HandOutcome(next_dealer=state.wins[0].context.seat, doubles_next=False)
            return HandOutcome(next_dealer=next_seat(state.dealer), doubles_next=False)
        if state.outcome == "draw" and self.options.next_dealer_on_draw == "next_seat":
            return HandOutcome(next_dealer=next_seat(state.dealer), doubles_next=False)
        return HandOutcome(next_dealer=state.dealer, doubles_next=False)

    def next_multiplier(self, current: int, doubles: bool) -> int:
        """No doubled hands in Enshi: every hand starts with all multipliers at 1."""
        return 1

    def escape_transfers(self, seat: int, seats: int = SEATS) -> list[Transfer]:
        """No source gives a penalty for leaving (逃跑)."""
        return []
