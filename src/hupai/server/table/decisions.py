"""Who must decide now, and when: prompts with their numbers and deadlines, the claim window's
release (the same pause whether or not anyone could claim), and the choices of seats that act by
themselves (bots, 托管, 报听, 听)."""

from __future__ import annotations

from hupai.bots import ting_action, trustee_action
from hupai.game.actions import Action, Pass
from hupai.game.engine import legal_actions
from hupai.game.model import Phase
from hupai.game.view import view
from hupai.server.table import core, think
from hupai.server.table.core import Pending, TableState, log


def deal_time(table: TableState) -> float | None:
    """When the next hand is dealt (None: no deal is due). After the pause between hands (cut
    short once every reader pressed 继续); in a fair room also not before every connected player
    has contributed, unless ``deal_wait_seconds`` have passed since the commitment (also when
    nobody is connected: after a restart the players are still reconnecting)."""
    commit = table.commit
    if commit is None:
        return table.next_hand_at
    start = table.next_hand_at if table.next_hand_at is not None else commit.announced
    waiting_for = core.contributors(table)
    if waiting_for and waiting_for <= commit.contributed:
        return start
    return max(start, commit.announced + table.settings.deal_wait_seconds)


def deciding_seats(table: TableState) -> list[int]:
    state = table.state
    if state is None or state.phase is Phase.ENDED:
        return []
    if state.phase is Phase.TURN:
        return [state.turn]
    assert state.window is not None
    return [seat for seat in sorted(state.window.options) if seat not in state.window.decisions]


def is_automatic(table: TableState, seat: int) -> bool:
    assert table.state is not None
    return seat in table.bots or seat in table.trustee or seat in table.ting or table.state.seats[seat].ready


def refresh_pending(table: TableState) -> None:
    """Open a prompt for every seat that must decide now, keeping prompts that still stand."""
    now = table.clock()
    track_window(table, now)
    release = table.release_at if table.release_at is not None else now
    deciding = deciding_seats(table)
    kept: dict[int, Pending] = {}
    for seat in deciding:
        assert table.state is not None
        legal = legal_actions(table.state, seat)
        if seat in table.ting and ting_action(view(table.state, seat, legal=legal), legal) is None:
            table.ting.discard(seat)  # nothing 听 may do here (e.g. a forced lay): the player decides
        old = table.pending.get(seat)
        automatic = is_automatic(table, seat)
        # A prompt stands while its decision does (the same legal actions); a held answer stays
        # with it, but never outlives it: applied to another decision it would be illegal.
        if old is not None and old.legal == legal and (old.answer is not None or old.automatic == automatic):
            kept[seat] = old
            continue
        table.seq += 1
        if automatic:
            choice = automatic_choice(table, seat, legal)
            # A pass waits for the window's release like any decision (an early one would tell
            # who could claim); other moves wait as a person would seem to.
            pause = 0.0 if isinstance(choice, Pass) else automatic_pause(table, seat, legal, choice)
            due = max(now + pause, release)
            kept[seat] = Pending(table.seq, legal, now, due, automatic=True, choice=choice)
        else:
            allowed = table.room.decision_seconds + max(table.bank[seat], 0.0)
            kept[seat] = Pending(table.seq, legal, now, now + allowed, automatic=False)
    table.pending = kept


def automatic_pause(table: TableState, seat: int, legal: list[Action], choice: Action) -> float:
    """How long an automatic seat waits before it moves: a bot thinks as its room's pace has it (drawn
    per decision), a seat played by the table (托管, 听, 报听) moves after a short fixed pause; a
    server's ``bot_delay_seconds``, when set (tests, benchmarks), is every such pause."""
    if table.settings.bot_delay_seconds is not None:
        return table.settings.bot_delay_seconds
    if seat in table.bots:
        return think.think_seconds(table.room.bot_pace, legal, choice, table.think_rng)
    return think.TRUSTEE_SECONDS


def track_window(table: TableState, now: float) -> None:
    """A new claim or robbing window is released ``claim_seconds`` from now: no decision on it is
    applied before then, so that the pause is the same whether or not anyone could claim."""
    state = table.state
    window = state.window if state is not None and state.phase in (Phase.CLAIM, Phase.ROB) else None
    if window is not table.window:
        table.window = window
        table.release_at = None if window is None else now + claim_seconds(table)


def claim_seconds(table: TableState) -> float:
    """The pause after every discard."""
    return core.room_or_override(table.room.claim_seconds, table.settings.claim_seconds)


def automatic_choice(table: TableState, seat: int, legal: list[Action]) -> Action:
    assert table.state is not None
    seen = view(table.state, seat, legal=legal)
    if seat in table.ting:
        chosen = ting_action(seen, legal)
        if chosen is not None:
            return chosen
    bot = table.bots.get(seat)
    if bot is not None:
        try:
            action = bot.choose(seen, legal)
            if action in legal:
                return action
        except Exception:
            log.exception("table %s: bot at seat %s failed; 托管 plays instead", table.room_id, seat)
    return trustee_action(seen, legal)


def next_due(table: TableState) -> float | None:
    times = [core.due_at(pending) for pending in table.pending.values()]
    deal_at = deal_time(table)
    if deal_at is not None:
        times.append(deal_at)
    if table.release_at is not None:
        times.append(table.release_at)
    vote_at = core.vote_due(table)
    if vote_at is not None:
        times.append(vote_at)
    return min(times) if times else None
