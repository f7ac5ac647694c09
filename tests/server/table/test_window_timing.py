"""Claim windows say nothing by their timing (issue 33). After every discard play moves on at the
window's release; a window where someone could claim and everyone passed must not take longer than
one where nobody could. The cause of the leak that was found: each pass was stored at the release, so
such a window waited on writes. Now the passes of the seats that decide by themselves (bots, 托管)
are stored ahead, while the window is open, and the release plays stored decisions only
(server/table/decisions.py).

That is checked here on a table whose clock the test moves: every write is watched, and a window's
release writes nothing, whether somebody could claim or nobody could. How long the two kinds of
window take on a real server is a measurement, made by ``bench/window_timing.py`` (medians within
1 ms, a threshold on the delay no better than chance): on a machine running the rest of the suite
beside it, a millisecond is noise.
"""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest

from hupai.game.actions import Action, Pass
from hupai.game.model import Phase
from hupai.game.view import SeatView
from hupai.server.schemas import RoomOut, RuleCardOut, SeatOut
from hupai.server.settings import Settings
from hupai.server.storage.store import Store
from hupai.server.table import moves, persist
from hupai.server.table.actor import Table
from hupai.server.table.core import TableState

from ...helpers import play
from ...test_hold_claims import CLAIM, QUIET, held

CLAIM_SECONDS = 0.6
SEATS = range(4)


class PassingBot:
    """A bot that lets every discard go (and would discard its first tile)."""

    def choose(self, seen: SeatView, legal: list[Action]) -> Action:
        return next((action for action in legal if isinstance(action, Pass)), legal[0])


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def table_after_a_discard(hands: dict[int, str], clock: Clock) -> Table:
    """Seat 0 has let 1z go; bots sit in seats 2 and 3, people in 0 and 1 (so the table waits for
    seat 1 once the window is released)."""
    settings = Settings(database_url="sqlite://", claim_seconds=CLAIM_SECONDS, bot_delay_seconds=0.0)
    table = Table(1, cast(Store, None), settings, clock=clock)
    seats = [
        SeatOut(seat=seat, user_id=None, name=None, bot=None, ready=True, left=False) for seat in range(4)
    ]
    rules = RuleCardOut.model_construct(preset="nanjing", ruleset="nanjing", options={}, changed={})
    table.room = RoomOut.model_construct(
        number="100000", status="playing", host_id=1, hands=4, decision_seconds=15, next_hand_seconds=15,
        claim_seconds=CLAIM_SECONDS, bot_level="efficiency", bot_pace="normal", dissolve_seconds=60,
        rules=rules, seats=seats,
    )  # fmt: skip
    table.bots = {seat: PassingBot() for seat in (2, 3)}  # type: ignore[misc]
    table.state = play(held(hands), "0 d 1z")
    return table


@pytest.mark.parametrize(("hands", "claimable"), [(CLAIM, True), (QUIET, False)], ids=["claim", "quiet"])
def test_a_window_s_release_writes_nothing(
    hands: dict[int, str], claimable: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 2 may pong 1z (``claim``) or nobody may claim it (``quiet``). While the window is open the
    bots decide, and whatever they decided is written; at the release nothing is."""
    writes: list[tuple[float, list[dict[str, Any]]]] = []
    clock = Clock()

    async def write(table: TableState, actions: list[dict[str, Any]]) -> None:
        writes.append((table.clock(), actions))
        table.moves_in_hand += len(actions)

    monkeypatch.setattr(persist, "add_moves", write)
    table = table_after_a_discard(hands, clock)

    async def discard_then_release() -> int:
        assert table.state is not None
        await moves.moved(table, table.state)  # the discard is told; the bots decide on its window
        release = table.release_at
        assert release == clock.now + CLAIM_SECONDS
        ahead = len(writes)
        clock.now = release
        await table._run_due()  # the release
        return ahead

    ahead = asyncio.run(discard_then_release())
    state = table.state
    assert state is not None
    assert (state.phase, state.turn) == (Phase.TURN, 1)  # released: seat 1 has drawn
    assert len(writes) == ahead, f"the release wrote {writes[ahead:]}"
    if claimable:  # seat 2's pass: one write, made before the release
        assert writes == [(clock.now - CLAIM_SECONDS, [{"seat": 2, "act": "pass"}])]
    else:
        assert writes == []
