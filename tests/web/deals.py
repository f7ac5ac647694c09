"""Prepared deals for browser tests, installed in the server's own process (``prepare=`` of
running_server)."""

from __future__ import annotations

import hupai.game.match
import hupai.server.storage.rooms
from hupai.game.contract import RuleSet
from hupai.game.engine import shuffled_deal
from hupai.game.stacking import stack_wall

# Whenever seat 0 deals: seat 0 (the host, dealing) lets 8s go and is then ready on a 5p 单钓; the bots hold
# thirteen single tiles (nothing to claim); seat 0 draws 7z and then the 5p.
BOTS = "1s3s5s7s9s1z2z3z4z5z6z9p7p"
READY_DEAL = {0: "123456789m123p5p8s", 1: BOTS, 2: BOTS, 3: BOTS}
READY_DRAWS = "2s4s6p7z8p6s4p5p"


def ready_first_hand() -> None:
    original = shuffled_deal

    def deal(ruleset: RuleSet, dealer: int, seed: int) -> tuple[list[list[int]], list[int]]:
        if dealer != 0:  # the same prepared hand whenever seat 0 deals (a rebuild deals it again alike)
            return original(ruleset, dealer, seed)
        return stack_wall(ruleset, dealer=0, hands=READY_DEAL, draws=READY_DRAWS)

    setattr(hupai.game.match, "shuffled_deal", deal)  # noqa: B010 (the module does not export it)
    # Rooms dealt from their seed, as before fair deals, so that the prepared deal is the one played.
    setattr(hupai.server.storage.rooms, "new_room_secret", lambda: None)  # noqa: B010


# Enshi, whenever seat 0 deals: the 痞子 turned up is 4m (so 5m is the 赖子), and seat 0 holds the other
# three 痞子 and all four 赖子 — seven tiles to lay, each followed by a tile from the back of the wall.
# Laid, the hand is 1234567p 1235s5s 67m: letting 7p go, it waits on 8m and on 5m, the 赖子.
LAYING_DEAL = {0: "444m5555m1357p135s"}
LAYING_PIZI = "4m"
LAYING_REPLACEMENTS = "2p4p6p2s5s6m7m"


def laying_first_hand() -> None:
    original = shuffled_deal

    def deal(ruleset: RuleSet, dealer: int, seed: int) -> tuple[list[list[int]], list[int]]:
        if dealer != 0 or ruleset.indicator is None:
            return original(ruleset, dealer, seed)
        return stack_wall(
            ruleset, dealer=0, hands=LAYING_DEAL, pizi=LAYING_PIZI, replacements=LAYING_REPLACEMENTS
        )

    setattr(hupai.game.match, "shuffled_deal", deal)  # noqa: B010 (the module does not export it)
    setattr(hupai.server.storage.rooms, "new_room_secret", lambda: None)  # noqa: B010
