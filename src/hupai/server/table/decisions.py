"""Who must decide now, and when: prompts with their numbers and deadlines, the claim window's
release (the same pause whether or not anyone could claim), and the choices of seats that act by
themselves (bots, 托管, 报听, 听).

A window's outcome is sent at its release whatever the window held: the decisions due then (the
bots' passes, the answers people gave before it) are stored as they are made, ahead of the release,
and only played at it — so a window where everyone passed waits on no write, exactly like one where
nobody could claim (the red team could tell them apart by 1.9 ms, issue 33)."""

from __future__ import annotations

import asyncio

from hupai.bots import ting_action, trustee_action
from hupai.game.actions import Action, Pass, action_to_dict
from hupai.game.engine import legal_actions, step
from hupai.game.model import Phase
from hupai.game.view import view
from hupai.server.table import core, persist, searches, think
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
        # A decision stored ahead of the release stands whatever happens meanwhile (托管 turned off).
        if (
            old is not None
            and old.legal == legal
            and (old.answer is not None or old.stored_as is not None or old.automatic == automatic)
        ):
            kept[seat] = old
            continue
        table.seq += 1
        if automatic and table.release_at is not None and table.release_at > now:
            # In a claim window the seat decides after the discard is sent (window_opened): were
            # it to think first, the discard would reach everyone later just when someone could
            # claim it.
            kept[seat] = Pending(table.seq, legal, now, release, automatic=True)
        elif automatic:
            choice = automatic_choice(table, seat, legal)
            # A pass waits for the window's release like any decision (an early one would tell
            # who could claim); other moves wait as a person would seem to.
            pause = 0.0 if isinstance(choice, Pass) else automatic_pause(table, seat, legal, choice)
            due = max(now + pause, release)
            kept[seat] = Pending(table.seq, legal, now, due, automatic=True, choice=choice)
            if searches.wants_search(table, seat):  # choice stands unless the search finds better
                searches.start(table, seat, kept[seat])
        else:
            allowed = table.room.decision_seconds + max(table.bank[seat], 0.0)
            kept[seat] = Pending(table.seq, legal, now, now + allowed, automatic=False)
    table.pending = kept


def decide(table: TableState, seat: int, pending: Pending) -> None:
    """An automatic seat's decision on a window, made once the discard is on its way: a pass stays
    due at the release, anything else when the seat would seem to have thought it over."""
    choice = automatic_choice(table, seat, pending.legal)
    pending.choice = choice
    if not isinstance(choice, Pass):
        pending.due = max(pending.due, table.clock() + automatic_pause(table, seat, pending.legal, choice))


async def window_opened(table: TableState) -> None:
    """After a discard (or an added kong) has been sent: the automatic seats decide on its window,
    and the decisions due at the release are stored ahead of it."""
    if not any(pending.automatic and pending.choice is None for pending in table.pending.values()):
        return
    await asyncio.sleep(0)  # the discard's messages go out before anyone thinks or writes
    for seat, pending in sorted(table.pending.items()):
        if pending.automatic and pending.choice is None:
            decide(table, seat, pending)
    await store_ahead(table)


async def store_ahead(table: TableState) -> None:
    """Store, in one transaction, the automatic decisions due at the open window's release (the
    bots' passes), so that the release itself writes nothing."""
    if table.release_at is None:
        return
    ahead = [
        (seat, pending)
        for seat, pending in sorted(table.pending.items())
        if pending.automatic
        and pending.choice is not None
        and pending.stored_as is None
        and pending.due <= table.release_at
    ]
    if not ahead:
        return
    first = table.moves_in_hand
    await persist.add_moves(table, [action_to_dict(stored_decision(pending)) for _, pending in ahead])
    for offset, (_, pending) in enumerate(ahead):
        pending.stored_as = first + offset


async def store_answer(table: TableState, pending: Pending, action: Action) -> None:
    """Store a person's answer given before the window's release; it is played at the release."""
    pending.stored_as = await persist.add_move(table, action)
    pending.answer, pending.answer_at = action, table.release_at or table.clock()


def stored_decision(pending: Pending) -> Action:
    action = pending.answer or pending.choice
    assert action is not None
    return action


def step_stored(table: TableState) -> None:
    """Play the decisions stored ahead of the release, in their order, now (the hand is abandoned
    mid-window: its record holds them, so the hand must have them too)."""
    held = sorted(
        (pending for pending in table.pending.values() if pending.stored_as is not None),
        key=lambda pending: pending.stored_as or 0,
    )
    if table.state is not None:
        for pending in held:
            step(table.state, stored_decision(pending))
    table.pending = {seat: pending for seat, pending in table.pending.items() if pending.stored_as is None}


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
