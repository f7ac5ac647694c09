"""A table's prompts (``Table.pending``): a prompt stands while its decision does, and an answer held
until the claim window's release is applied to that decision only."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

from hupai.bots.autoplay import trustee_action
from hupai.bots.selfplay import acting_seat
from hupai.game.actions import Pass, Pong
from hupai.game.engine import held_open, legal_actions, release_claims, step
from hupai.game.model import Phase
from hupai.game.view import view
from hupai.server.schemas import RoomOut
from hupai.server.settings import Settings
from hupai.server.storage.store import Store
from hupai.server.table import decisions
from hupai.server.table.actor import Table

from ...helpers import play
from ...test_hold_claims import CLAIM, held


def idle_table() -> Table:
    """A table task that is never started: only its prompt bookkeeping is used."""
    table = Table(
        1, cast(Store, None), Settings(database_url="sqlite://", claim_seconds=0.6, bot_delay_seconds=0.0)
    )
    table.room = cast(RoomOut, SimpleNamespace(decision_seconds=15, claim_seconds=0.6))
    return table


def test_a_held_answer_stays_with_its_prompt() -> None:
    table = idle_table()
    table.state = play(held(CLAIM), "0 d 1z")
    decisions.refresh_pending(table)
    prompt = table.pending[2]
    prompt.answer, prompt.answer_at = Pong(seat=2), 1.0
    decisions.refresh_pending(table)  # nothing changed: the prompt and its answer stand
    assert table.pending[2] is prompt
    assert table.pending[2].answer == Pong(seat=2)


def test_a_held_answer_never_outlives_its_decision() -> None:
    """Seat 2 answered a claim window that has closed since; it now owes another decision (its turn):
    the old answer is dropped and a new prompt opened, rather than the pong applied to a discard
    turn (an illegal action, which would make the table rebuild itself)."""
    table = idle_table()
    state = play(held(CLAIM), "0 d 1z")
    table.state = state
    decisions.refresh_pending(table)
    stale = table.pending[2]
    stale.answer, stale.answer_at = Pong(seat=2), 1.0
    step(state, Pass(seat=2))  # the window closes without the held answer being applied
    table.pending = {2: stale}
    while state.phase is not Phase.TURN or state.turn != 2:
        if held_open(state):
            release_claims(state)
            continue
        seat = acting_seat(state)
        legal = legal_actions(state, seat)
        step(state, trustee_action(view(state, seat, legal=legal), legal))
    decisions.refresh_pending(table)
    fresh = table.pending[2]
    assert fresh is not stale
    assert fresh.answer is None
    assert fresh.seq > stale.seq
    assert fresh.legal == legal_actions(state, 2)
