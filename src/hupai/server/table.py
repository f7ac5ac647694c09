"""One table: an asyncio task that owns a room's match and hand, and talks to its players.

Everything that changes a table arrives in its inbox and is handled one at a time, so the game state
needs no locks. Each move is stored before anyone hears of it; after a restart the table is rebuilt
from the room's deal secret, the stored contributions and the stored moves (:meth:`Table.resume`).
Every seat is told only what :func:`hupai.game.view.view` lets it see.

Fair deals (docs/fairness.md): before each hand the table announces the commitment to that hand's
secret (``deal_commitment``); each connected player's client then sends a random contribution
(``entropy``), stored before the deal uses it. The hand is dealt once every connected player has
contributed, or ``deal_wait_seconds`` after the announcement; later hands are announced as soon as
the hand before ends, so the contributions come in during the pause between hands. The secret and
the contributions are revealed with the hand's end (``hand_end`` and the stored record). Rooms made
before fair deals (no deal secret) deal from their seed, as they always did.

Decisions: every seat that must decide gets a prompt with a sequence number; an answer quoting an
old number is ignored. A person has the room's seconds per decision plus a time bank for the match;
when both run out the seat plays by 托管 until they act again. A disconnected player is treated the
same: the seat is kept and the clock runs on.
Bots, 托管 seats and seats locked by 报听 act by themselves after a short pause, as do seats whose
player pressed 听 (a ready hand played on by the table). 听 is private to its seat: nothing any other
seat or a spectator receives depends on it. It lives in memory only: a restart drops it.

Between hands everyone reads the settlement: the next hand is dealt when every person still at the
table has pressed 继续 (``continue``), or when the room's countdown runs out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from hupai.bots import make_bot, ting_action, trustee_action
from hupai.bots.base import Bot, unseen_from
from hupai.game.actions import Action, ActionParseError, Pass, action_from_dict, action_to_dict
from hupai.game.engine import (
    IllegalAction,
    held_open,
    legal_actions,
    release_claims,
    step,
    verify,
    win_refusal,
)
from hupai.game.fairness import (
    ALGORITHM,
    FairDeal,
    FairDealError,
    commitment,
    contribution_or_error,
    hand_secret,
)
from hupai.game.match import Match
from hupai.game.model import ClaimWindow, HandState, Phase
from hupai.game.record import DISSOLVE, ESCAPE, HandRecord, MatchRecord, RecordAction, write_record
from hupai.game.record import Dissolve as DissolveAct
from hupai.game.record import Escape as EscapeAct
from hupai.game.view import SeatView, event_position, events_as_dicts, events_for, full_view, view
from hupai.rules import load_ruleset
from hupai.server.errors import AlreadyContributed, DealClosed
from hupai.server.hints import seat_hints, winning_tiles
from hupai.server.protocol import Act, ClientMessageType, Continue, Entropy, Hints, Ping, Sync, Ting, Trustee
from hupai.server.schemas import RoomOut
from hupai.server.settings import Settings
from hupai.server.stats import how_won, kongs_made, ranks, seat_stats
from hupai.server.storage.fencing import LeaseLost
from hupai.server.storage.rooms import Seating
from hupai.server.storage.store import Store
from hupai.tiles import format_tiles

log = logging.getLogger("hupai.table")
SEATS = 4
OUTBOX_LIMIT = 500  # a client this far behind is cut off rather than slowing the table
# Why a room was closed (its closed_reason): what went wrong, and that the hands played are kept.
REBUILD_FAILED = (
    "the server could not go on with this game (its table could not be rebuilt); the hands played are kept"
)
ENDING_FAILED = "the server could not end this game normally; the hands played are kept"


class Connection:
    """One client's socket as the table sees it: messages are queued, never awaited."""

    def __init__(self, user_id: int | None, *, hand: int = -1, since: int = 0) -> None:
        self.user_id = user_id
        self.seat: int | None = None
        self.hand_index = hand  # the hand this client has events of
        self.sent_events = since  # how many of that hand's events it has, as its seat sees them
        self.events_at: int | None = None  # where they end among all the hand's events (None: find it)
        # Messages, or their JSON text when it came ready-made (relayed from a table elsewhere).
        self.outbox: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue()
        self.closed = False
        self.hints = False  # the player asked for hints
        self.hints_for: tuple[Any, ...] | None = None  # what the last hints were computed for
        self.last_hints: dict[str, Any] | None = None

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put_nowait(message)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


# --- what arrives in a table's inbox ---------------------------------------------------------------


@dataclass(frozen=True)
class Join:
    connection: Connection


@dataclass(frozen=True)
class Leave:
    connection: Connection


@dataclass(frozen=True)
class FromClient:
    connection: Connection
    message: ClientMessageType


@dataclass(frozen=True)
class RoomChanged:
    """The room's row changed (seats, ready, start, votes): reload it and tell everyone."""


@dataclass(frozen=True)
class Escape:
    """A player leaves the started game for good (逃跑)."""

    seat: int
    done: asyncio.Future[None] | None = None  # set once handled, for the request that asked


@dataclass(frozen=True)
class Dissolve:
    """Everyone agreed to end the game now (解散)."""

    done: asyncio.Future[None] | None = None


Message = Join | Leave | FromClient | RoomChanged | Escape | Dissolve


@dataclass
class Commitment:
    """A hand announced and not yet dealt: its secret (told to nobody until the hand ends), the
    commitment everyone was told, when, and the seats whose contributions are stored."""

    hand: int
    secret: str
    commitment: str
    announced: float
    contributed: set[int]


@dataclass
class Pending:
    """A decision a seat owes: its prompt number, legal actions and when it is due."""

    seq: int
    legal: list[Action]
    opened: float
    due: float  # a person's deadline, or when an automatic seat acts
    automatic: bool
    choice: Action | None = None  # an automatic seat's decision, made when the prompt opens
    answer: Action | None = None  # a person's answer given before the claim window's release: held
    answer_at: float = 0.0  # when the held answer is applied (the release)


class Table:
    """A room's table task. Create it with :meth:`start`; feed it with :meth:`post`."""

    room: RoomOut  # loaded when the task starts

    def __init__(
        self,
        room_id: int,
        store: Store,
        settings: Settings,
        *,
        on_idle: Callable[[Table], bool] | None = None,
        on_lost: Callable[[Table], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.room_id = room_id
        self.store = store
        self.settings = settings
        self.on_idle = on_idle  # asked when nobody is left; True ends the task
        self.on_lost = on_lost  # told when another process took the table over (its lease)
        self.lost = False
        self.clock = clock
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.connections: set[Connection] = set()
        self.seating: Seating | None = None
        self.match: Match | None = None
        self.state: HandState | None = None
        # The hand before, once over: a client that left it before its end hears the rest (_send_update).
        self.last_ended: HandState | None = None
        self.moves_in_hand = 0
        # Prompt numbers start anywhere, so an answer to a prompt from before a restart never matches.
        self.seq = secrets.randbelow(1 << 30)
        self.pending: dict[int, Pending] = {}
        self.window: ClaimWindow | None = None  # the claim window the release time was set for
        self.release_at: float | None = None  # no decision on that window is applied before this
        self.trustee: set[int] = set()
        self.ting: set[int] = set()  # seats played on by 听 this hand (private to each seat)
        self.waits_for: dict[int, tuple[tuple[Any, ...], list[int]]] = {}  # seat -> (hand key, waits)
        self.bank = [settings.time_bank_seconds] * SEATS
        self.bots: dict[int, Bot] = {}
        self.next_hand_at: float | None = None
        self.deal_secret: str | None = None  # the room's fair-deal secret (None: deals from the seed)
        self.commit: Commitment | None = None  # the next hand, announced and waiting for its deal
        self.continued: set[int] = set()  # seats that pressed 继续 since the last hand ended
        self.last_hand_end: dict[str, Any] | None = None  # resent to whoever joins between hands
        self.hand_results: list[dict[str, Any]] = []  # each hand's settlement as stored
        self.summary: dict[str, Any] | None = None
        self.task: asyncio.Task[None] | None = None

    # --- running -------------------------------------------------------------------------------

    def start(self) -> asyncio.Task[None]:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.room_id}")
        return self.task

    def post(self, message: Message) -> None:
        self.inbox.put_nowait(message)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for connection in list(self.connections):
            connection.close()

    async def _run(self) -> None:
        try:
            await self._play()
        except LeaseLost:
            # Another process owns the table now (this one was paused or cut off past its lease):
            # stop at once; the sockets close and their clients reconnect to the new owner.
            log.warning("table %s: the lease passed to another process; letting the table go", self.room_id)
            self.lost = True
            for connection in list(self.connections):
                connection.close()
            if self.on_lost is not None:
                self.on_lost(self)

    async def _play(self) -> None:
        self.room = await asyncio.to_thread(self.store.rooms.room_by_id, self.room_id)
        if self.room.status == "playing":
            await self._guard(self.resume())
        # One getter outlives the waits: cancelling a queue get on timeout (asyncio.wait_for) can
        # drop a message that arrived at the same moment, and a lost answer would stall the table.
        getter: asyncio.Task[Message] | None = None
        while True:
            if getter is None:
                getter = asyncio.ensure_future(self.inbox.get())
            due = self._next_due()
            timeout = None if due is None else max(due - self.clock(), 0)
            try:
                await asyncio.wait({getter}, timeout=timeout)
            except asyncio.CancelledError:
                getter.cancel()
                raise
            message: Message | None = None
            if getter.done():
                message = getter.result()
                getter = None
            if message is not None:
                await self._guard(self._handle(message))
                done = getattr(message, "done", None)
                if done is not None and not done.done():
                    done.set_result(None)
            await self._guard(self._run_due())
            if getter is None and self._idle() and self.on_idle is not None and self.on_idle(self):
                return

    async def _guard(self, work: Any) -> None:
        """A table never dies of one bad message or one failed write: log it and rebuild from storage."""
        try:
            await work
        except (asyncio.CancelledError, LeaseLost):
            raise
        except Exception:
            log.exception("table %s: rebuilding from storage after an error", self.room_id)
            await self._rebuild()

    def _idle(self) -> bool:
        return not self.connections and self.inbox.empty() and self.match is None

    async def _rebuild(self) -> None:
        try:
            self.room = await asyncio.to_thread(self.store.rooms.room_by_id, self.room_id)
            self.match = None
            self.state = None
            self.commit = None
            self.pending.clear()
            self.ting.clear()
            if self.room.status == "playing":
                await self.resume()
            self._broadcast_update()
        except LeaseLost:
            raise
        except Exception:
            # Retrying would fail the same way and leave the room in play for ever: close it instead.
            log.exception("table %s: could not rebuild; closing the room", self.room_id)
            await self._close(REBUILD_FAILED)

    async def _ending(self, work: Awaitable[None]) -> None:
        """Ending the match on request (逃跑, 解散). If that fails, the room is closed with the reason
        rather than left in play with nobody able to end it."""
        try:
            await work
        except LeaseLost:
            raise
        except Exception:
            log.exception("table %s: could not end the match; closing the room", self.room_id)
            await self._close(ENDING_FAILED)

    async def _close(self, reason: str) -> None:
        """Close the room (status ``closed``, ``closed_reason``) and tell everyone at the table."""
        try:
            await asyncio.to_thread(self.store.rooms.close_room, self.room_id, reason)
            self.room = await asyncio.to_thread(self.store.rooms.room_by_id, self.room_id)
        except LeaseLost:
            raise
        except Exception:
            log.exception("table %s: could not close the room", self.room_id)
            return
        self.match = None
        self.state = None
        self.pending = {}
        self.next_hand_at = None
        self.commit = None
        self._broadcast_room()

    # --- building the match ------------------------------------------------------------------------

    async def resume(self) -> None:
        """Rebuild the match from storage — each hand dealt again from the room's deal secret and the
        contributions stored for it (or from the seed), then its stored moves — and play on."""
        seating = await asyncio.to_thread(self.store.rooms.seating, self.room_id)
        seed = await asyncio.to_thread(self.store.rooms.seed, self.room_id)
        self.deal_secret = await asyncio.to_thread(self.store.rooms.deal_secret, self.room_id)
        hands = await asyncio.to_thread(self.store.play.moves, self.room_id)
        stored: dict[int, dict[int, str]] = {}
        if self.deal_secret is not None:
            stored = await asyncio.to_thread(self.store.play.contributions, self.room_id)
        self.seating = seating
        self.commit = None
        self.hand_results = []
        self.bots = {
            seat: make_bot(level, seed + seat) for seat, level in enumerate(seating.bots) if level is not None
        }
        self.match = Match(
            load_ruleset(self.room.rules.preset, self.room.rules.changed), seed=seed, seats=seating.names
        )
        self.last_ended = None
        for index, actions in enumerate(hands):
            state = self.match.start_hand(**self._deal_with(index, stored.get(index, {})))
            self.last_ended = self.state
            self.state = state
            self.moves_in_hand = len(actions)
            for data in actions:
                if data.get("act") == ESCAPE:
                    await self._escape(int(data["seat"]), stored=True)
                    return
                if data.get("act") == DISSOLVE:
                    await self._dissolve(stored=True)
                    return
                step(state, action_from_dict(data))
            if state.phase is Phase.ENDED:
                await self._settle(state, index, replaying=True)
                if self.match is None:
                    return
        if await asyncio.to_thread(self.store.rooms.dissolve_agreed, self.room_id):
            await self._dissolve()  # every player agreed, but the table stopped before it heard so
            return
        if self.state is None or self.state.phase is Phase.ENDED:
            following = stored.get(self.hand_index, {})
            if self.deal_secret is None or len(following) == SEATS:
                await self._deal()  # dealt before the restart (its contributions sealed): deal it again
            else:
                self._announce(set(following))
        else:
            # Replayed without holding (a window open at a crash is not held again); held from here on.
            self.state.hold_claims = True
            self._refresh_pending()

    def _deal_with(self, index: int, contributions: dict[int, str]) -> dict[str, Any]:
        """How hand ``index`` is dealt: from its secret and the seats' contributions in a fair room,
        from the seed (no arguments) in a room made before fair deals."""
        if self.deal_secret is None:
            return {}
        return {
            "fair_secret": hand_secret(self.deal_secret, index),
            "contributions": [contributions.get(seat, "") for seat in range(SEATS)],
        }

    def _announce(self, contributed: set[int]) -> None:
        """Tell everyone the commitment to the next hand's secret; contributions are taken from now
        until its deal."""
        assert self.deal_secret is not None
        index = self.hand_index
        secret = hand_secret(self.deal_secret, index)
        self.commit = Commitment(index, secret, commitment(secret), self.clock(), contributed)
        self._broadcast(self._commitment_message())

    def _commitment_message(self) -> dict[str, Any]:
        commit = self.commit
        assert commit is not None
        return {
            "type": "deal_commitment",
            "hand": commit.hand,
            "algorithm": ALGORITHM,
            "commitment": commit.commitment,
            "contributed": [seat in commit.contributed for seat in range(SEATS)],
        }

    def _contributors(self) -> set[int]:
        """The seats a deal waits for: people connected and still in the game. Bots, empty seats and
        players not connected contribute nothing ("")."""
        present = {connection.seat for connection in self.connections if connection.seat is not None}
        return {seat for seat in present if seat not in self.bots and not self.room.seats[seat].left}

    def _deal_at(self) -> float | None:
        """When the next hand is dealt (None: no deal is due). After the pause between hands (cut
        short once every reader pressed 继续); in a fair room also not before every connected player
        has contributed, unless ``deal_wait_seconds`` have passed since the commitment (also when
        nobody is connected: after a restart the players are still reconnecting)."""
        commit = self.commit
        if commit is None:
            return self.next_hand_at
        start = self.next_hand_at if self.next_hand_at is not None else commit.announced
        waiting_for = self._contributors()
        if waiting_for and waiting_for <= commit.contributed:
            return start
        return max(start, commit.announced + self.settings.deal_wait_seconds)

    async def _deal(self) -> None:
        assert self.match is not None
        index = self.hand_index
        contributions: dict[int, str] = {}
        if self.deal_secret is not None:
            # Stored before the deal uses them, with "" for every seat that sent nothing: a rebuild
            # deals the very same wall, and no contribution is taken after this.
            sealed = await asyncio.to_thread(self.store.play.seal_contributions, self.room_id, index)
            contributions = dict(enumerate(sealed))
        self.commit = None
        self.last_ended = self.state
        self.state = self.match.start_hand(**self._deal_with(index, contributions))
        self.state.hold_claims = True  # every discard gets a window: who may claim is nobody's business
        self.moves_in_hand = 0
        self.next_hand_at = None
        self.ting.clear()  # 听 is for one hand
        self.continued = set()
        self.last_hand_end = None
        for connection in self.connections:
            if connection.hand_index == index:  # (the others catch up in _send_update)
                connection.sent_events = 0
                connection.events_at = 0
        self._refresh_pending()
        self._broadcast_update()

    @property
    def hand_index(self) -> int:
        return len(self.match.results) if self.match is not None else 0

    # --- decisions ---------------------------------------------------------------------------------

    def _deciding(self) -> list[int]:
        state = self.state
        if state is None or state.phase is Phase.ENDED:
            return []
        if state.phase is Phase.TURN:
            return [state.turn]
        assert state.window is not None
        return [seat for seat in sorted(state.window.options) if seat not in state.window.decisions]

    def _automatic(self, seat: int) -> bool:
        assert self.state is not None
        return seat in self.bots or seat in self.trustee or seat in self.ting or self.state.seats[seat].ready

    def _refresh_pending(self) -> None:
        """Open a prompt for every seat that must decide now, keeping prompts that still stand."""
        now = self.clock()
        self._track_window(now)
        release = self.release_at if self.release_at is not None else now
        deciding = self._deciding()
        kept: dict[int, Pending] = {}
        for seat in deciding:
            assert self.state is not None
            legal = legal_actions(self.state, seat)
            if seat in self.ting and ting_action(view(self.state, seat, legal=legal), legal) is None:
                self.ting.discard(seat)  # nothing 听 may do here (e.g. a forced lay): the player decides
            old = self.pending.get(seat)
            automatic = self._automatic(seat)
            # A prompt stands while its decision does (the same legal actions); a held answer stays
            # with it, but never outlives it: applied to another decision it would be illegal.
            if (
                old is not None
                and old.legal == legal
                and (old.answer is not None or old.automatic == automatic)
            ):
                kept[seat] = old
                continue
            self.seq += 1
            if automatic:
                choice = self._automatic_choice(seat, legal)
                # A pass waits for the window's release like any decision (an early one would tell
                # who could claim); other moves wait as a person would seem to.
                pause = 0.0 if isinstance(choice, Pass) else self.settings.bot_delay_seconds
                due = max(now + pause, release)
                kept[seat] = Pending(self.seq, legal, now, due, automatic=True, choice=choice)
            else:
                allowed = self.room.decision_seconds + max(self.bank[seat], 0.0)
                kept[seat] = Pending(self.seq, legal, now, now + allowed, automatic=False)
        self.pending = kept

    def _track_window(self, now: float) -> None:
        """A new claim or robbing window is released ``claim_seconds`` from now: no decision on it is
        applied before then, so that the pause is the same whether or not anyone could claim."""
        state = self.state
        window = state.window if state is not None and state.phase in (Phase.CLAIM, Phase.ROB) else None
        if window is not self.window:
            self.window = window
            self.release_at = None if window is None else now + self._claim_seconds()

    def _claim_seconds(self) -> float:
        """The pause after every discard."""
        return _room_or_override(self.room.claim_seconds, self.settings.claim_seconds)

    def _automatic_choice(self, seat: int, legal: list[Action]) -> Action:
        assert self.state is not None
        seen = view(self.state, seat, legal=legal)
        if seat in self.ting:
            chosen = ting_action(seen, legal)
            if chosen is not None:
                return chosen
        bot = self.bots.get(seat)
        if bot is not None:
            try:
                action = bot.choose(seen, legal)
                if action in legal:
                    return action
            except Exception:
                log.exception("table %s: bot at seat %s failed; 托管 plays instead", self.room_id, seat)
        return trustee_action(seen, legal)

    def _next_due(self) -> float | None:
        times = [_due(pending) for pending in self.pending.values()]
        deal_at = self._deal_at()
        if deal_at is not None:
            times.append(deal_at)
        if self.release_at is not None:
            times.append(self.release_at)
        return min(times) if times else None

    async def _run_due(self) -> None:
        """Act for every seat whose time has come, and deal the next hand when it is due."""
        while True:
            now = self.clock()
            deal_at = self._deal_at()
            if deal_at is not None and deal_at <= now:
                await self._deal()
                continue
            if self.release_at is not None and self.release_at <= now:
                self.release_at = None  # from now on the window's decisions apply as they come
                if self.state is not None and held_open(self.state):
                    release_claims(self.state)  # nobody could claim: play moves on
                    await self._moved(self.state)
                    continue
            due = [(_due(pending), seat) for seat, pending in self.pending.items() if _due(pending) <= now]
            if not due:
                return
            _, seat = min(due)
            pending = self.pending[seat]
            if pending.answer is not None:
                action = pending.answer
            elif not pending.automatic:
                self.bank[seat] = 0.0
                self.trustee.add(seat)  # 托管 until the player acts again
                assert self.state is not None
                action = trustee_action(view(self.state, seat, legal=pending.legal), pending.legal)
            else:
                action = pending.choice or pending.legal[0]
            await self._apply(action)

    # --- applying ----------------------------------------------------------------------------------

    async def _apply(self, action: Action) -> None:
        state = self.state
        assert state is not None
        window = state.window
        step(state, action)
        number = self.moves_in_hand
        self.moves_in_hand += 1
        await asyncio.to_thread(
            self.store.play.add_move, self.room_id, self.hand_index, number, action_to_dict(action)
        )
        # A decision on a window still open changes nothing the others may see: only its seat hears.
        await self._moved(state, only=action.seat if window is not None and state.window is window else None)

    async def _moved(self, state: HandState, *, only: int | None = None) -> None:
        """Tell the table (or only seat ``only``) what changed, and settle the hand if it ended."""
        if state.phase is Phase.ENDED:
            self.pending = {}
            self._broadcast_update()
            await self._settle(state, self.hand_index)
            return
        self._refresh_pending()
        if only is None:
            self._broadcast_update()
            return
        for connection in self.connections:
            if connection.seat == only:
                self._send_update(connection)

    async def _settle(self, state: HandState, index: int, *, replaying: bool = False) -> None:
        """Settle an ended hand: store it, tell everyone, and deal the next one or end the match."""
        match = self.match
        assert match is not None
        match.finish_hand(state)
        result = self._keep_result(state, index)
        record = self._hand_record(state, index, escaped=())
        await asyncio.to_thread(self.store.play.finish_hand, self.room_id, index, record, result)
        last = match.over or len(match.results) >= self.room.hands
        if not replaying:
            self.next_hand_at = None if last else self.clock() + self._pause()
            self.continued = set()
            self.last_hand_end = self._hand_end_message(state, result, last=last)
            self._broadcast(self._with_continue(self.last_hand_end))
            if not last and self.deal_secret is not None:
                self._announce(set())  # the next hand's contributions come in while this one is read
        if last:
            await self._finish_match("finished")

    def _keep_result(self, state: HandState, index: int) -> dict[str, Any]:
        """The hand's settlement as stored and summed up in 大结算: the match's result plus the
        kongs each seat made (an escape rewrites the last hand's result, so it replaces it)."""
        assert self.match is not None
        result = {**self.match.results[index].as_dict(), "kongs": kongs_made(state)}
        del self.hand_results[index:]
        self.hand_results.append(result)
        return result

    def _pause(self) -> float:
        """Seconds between hands."""
        return _room_or_override(self.room.next_hand_seconds, self.settings.next_hand_seconds)

    def _hand_record(
        self, state: HandState, index: int, *, escaped: tuple[int, ...], dissolved: bool = False
    ) -> dict[str, Any]:
        assert self.match is not None
        actions: list[RecordAction] = list(state.actions)
        actions.extend(EscapeAct(seat) for seat in escaped)
        if dissolved:
            actions.append(DissolveAct())
        record = MatchRecord(
            ruleset=self.match.ruleset.preset,
            options=self.match.ruleset.options_dict(),
            seats=tuple(self.match.seats),
            hands=(
                HandRecord(
                    dealer=state.dealer,
                    actions=tuple(actions),
                    deal=state.deal,
                    wall=tuple(state.wall),
                    fair=state.fair,  # the secret and the contributions, revealed with the hand
                ),
            ),
            seed=None,
            extra={"room": self.room.number, "hand_index": index},
        )
        return write_record(record)

    def _hand_end_message(self, state: HandState, result: dict[str, Any], *, last: bool) -> dict[str, Any]:
        assert self.match is not None
        message = {
            "type": "hand_end",
            "hand": result["hand"],
            "result": result,
            "view": full_view(state).as_dict(),
            "totals": list(self.match.totals),
            "last": last,  # the match ends with this hand: 大结算 follows
        }
        if state.fair is not None:
            message["fair"] = state.fair.as_dict()  # the secret and every contribution, revealed
        return message

    # --- between hands (继续) -----------------------------------------------------------------------

    def _readers(self) -> set[int]:
        """The people the table waits for between hands: connected, not in 托管, still in the game."""
        present = {connection.seat for connection in self.connections if connection.seat is not None}
        return {
            seat
            for seat in present
            if seat not in self.bots and seat not in self.trustee and not self.room.seats[seat].left
        }

    def _continue_facts(self) -> dict[str, Any]:
        due = self.next_hand_at
        return {
            "pressed": sorted(self.continued),
            "waiting": sorted(self._readers() - self.continued),
            "next_in_ms": 0 if due is None else max(int((due - self.clock()) * 1000), 0),
        }

    def _with_continue(self, message: dict[str, Any]) -> dict[str, Any]:
        return {**message, **self._continue_facts()}

    def _continue(self, connection: Connection) -> None:
        seat = connection.seat
        if seat is None:
            connection.send(_error("not_seated", "spectators do not deal the next hand"))
            return
        if self.next_hand_at is None:
            connection.send(_error("not_between_hands", "继续 is only for the pause after a hand"))
            return
        self.continued.add(seat)  # a second press changes nothing
        self._deal_or_report()

    def _deal_or_report(self) -> None:
        """End the pause once every reader has pressed 继续 (the table then deals, once the
        contributions are in); otherwise tell everyone who has."""
        if self.continued and self._readers() <= self.continued and self.next_hand_at is not None:
            self.next_hand_at = min(self.next_hand_at, self.clock())
            deal_at = self._deal_at()
            if deal_at is not None and deal_at <= self.clock():
                return  # dealt by _run_due straight after this message
        self._broadcast({"type": "continue", **self._continue_facts()})

    async def _finish_match(self, status: str) -> None:
        match = self.match
        assert match is not None
        await asyncio.to_thread(self.store.play.finish_match, self.room_id, status, match.totals)
        self.summary = self._summary(status)
        self.room = await asyncio.to_thread(self.store.rooms.room_by_id, self.room_id)
        self.pending = {}
        self.next_hand_at = None
        self.commit = None
        self.continued = set()
        self._broadcast(self.summary)
        self._broadcast_room()
        self.match = None

    def _summary(self, status: str) -> dict[str, Any]:
        """大结算: where and what was played, totals and ranks, each player's statistics, each hand's
        winners and score changes, the biggest win."""
        match = self.match
        assert match is not None
        totals = list(match.totals)
        results = self.hand_results
        rules = self.room.rules
        return {
            "type": "match_end",
            "status": status,
            "room": self.room.number,
            "rules": {
                "preset": rules.preset,
                "ruleset": rules.ruleset,
                "zh": match.ruleset.zh,  # the rule set's name (南宁麻将); the preset's below
                "en": match.ruleset.en,
                "preset_zh": rules.zh,
                "preset_en": rules.en,
            },
            "ended_at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
            "names": list(match.seats),
            "bot_levels": self._bot_levels(),
            "totals": totals,
            "ranks": ranks(totals, results),
            "stats": [seat_stats(results, seat).as_dict() for seat in range(SEATS)],
            "hands": [_hand_line(result) for result in results],
            "biggest_win": self._biggest_win(),
            "escapes": [
                {"seat": seat, "hand": len(match.results) - 1, "transfers": [t.as_dict() for t in ts]}
                for seat, ts in match.escapes
            ],
        }

    def _biggest_win(self) -> dict[str, Any] | None:
        assert self.match is not None
        biggest: dict[str, Any] | None = None
        for result in self.match.results:
            for seat in result.winners:
                amount = result.deltas[seat] - result.escape_money(seat)  # the win, not who left after it
                if biggest is None or amount > biggest["amount"]:
                    items = [item for score in result.scores for item in score[3].as_dict()["items"]]
                    biggest = {"hand": result.index, "seat": seat, "amount": amount, "items": items}
        return biggest

    def _bot_levels(self) -> list[str | None]:
        return list(self.seating.bots) if self.seating is not None else [None] * SEATS

    async def _escape(self, seat: int, *, stored: bool = False) -> None:
        """逃跑: the hand in play is abandoned, the ruleset's penalty paid, and the match ends. Between
        hands the escape is written after the last hand's moves, so a rebuild settles it the same way."""
        match = self.match
        state = self.state
        if match is None or state is None:
            return
        index = len(match.results) if match.current is not None else len(match.results) - 1
        if not stored:
            escape = {"seat": seat, "act": ESCAPE}
            await asyncio.to_thread(self.store.play.add_move, self.room_id, index, self.moves_in_hand, escape)
            await asyncio.to_thread(self.store.rooms.mark_left, self.room_id, seat)
        if match.current is not None:
            release_claims(match.current)  # see _dissolve: as the record's replay has it
        match.escape(seat)  # paid in this hand: its result now holds the escape's transfers
        result = self._keep_result(state, index)
        record = self._hand_record(state, index, escaped=(seat,))
        await asyncio.to_thread(self.store.play.finish_hand, self.room_id, index, record, result)
        if not stored:
            self._broadcast_update()
            # The hand's sheet again, with the escape's payments, before 大结算.
            self.next_hand_at = None
            self.last_hand_end = self._hand_end_message(state, result, last=True)
            self._broadcast(self._with_continue(self.last_hand_end))
        await self._finish_match("finished")

    async def _dissolve(self, *, stored: bool = False) -> None:
        """解散: every player agreed to end the match now. A hand in play is abandoned where it stands
        (what was paid stands; nobody pays for the dissolve) and its record ends with
        ``{"act": "dissolve"}``, stored among its moves first, so that a rebuild ends the match the same
        way and the room's record replays. Between hands the match just ends after the hand played."""
        match = self.match
        if match is None:
            return
        state = match.current
        if state is not None:
            index = len(match.results)
            if not stored:
                move = {"act": DISSOLVE}
                await asyncio.to_thread(
                    self.store.play.add_move, self.room_id, index, self.moves_in_hand, move
                )
            # A window held open for nobody (hold_claims) closes as it would have: a record cannot say
            # that a window was held, and its replay (like a rebuild) has play moved on at once.
            release_claims(state)
            match.dissolve()
            result = self._keep_result(state, index)
            record = self._hand_record(state, index, escaped=(), dissolved=True)
            await asyncio.to_thread(self.store.play.finish_hand, self.room_id, index, record, result)
            if not stored:
                self.pending = {}
                self._broadcast_update()  # the hand as it stopped, before 大结算
        else:
            match.dissolve()
        await self._finish_match("dissolved")

    # --- messages ----------------------------------------------------------------------------------

    async def _handle(self, message: Message) -> None:
        if isinstance(message, Join):
            connection = message.connection
            self.connections.add(connection)
            self._seat(connection)
            connection.send({"type": "welcome", "seat": connection.seat, "user_id": connection.user_id})
            self._send_room(connection)
            self._send_update(connection)
            if self.last_hand_end is not None and (self.next_hand_at is not None or self.summary is not None):
                connection.send(self._with_continue(self.last_hand_end))  # the sheet being read now
            if self.summary is not None:
                connection.send(self.summary)
            if self.commit is not None:
                connection.send(self._commitment_message())  # the deal waits for contributions
        elif isinstance(message, Leave):
            self.connections.discard(message.connection)
            if self.next_hand_at is not None:
                self._deal_or_report()  # the others may be waiting only for whoever left
        elif isinstance(message, FromClient):
            await self._from_client(message.connection, message.message)
        elif isinstance(message, RoomChanged):
            await self._room_changed()
        elif isinstance(message, Escape):
            await self._ending(self._escape(message.seat))
        elif isinstance(message, Dissolve):
            await self._ending(self._dissolve())

    def _seat(self, connection: Connection) -> None:
        connection.seat = next(
            (
                seat.seat
                for seat in self.room.seats
                if seat.user_id is not None and seat.user_id == connection.user_id
            ),
            None,
        )

    async def _room_changed(self) -> None:
        self.room = await asyncio.to_thread(self.store.rooms.room_by_id, self.room_id)
        for connection in self.connections:
            self._seat(connection)
        self._broadcast_room()
        if self.room.status == "playing" and self.match is None and self.summary is None:
            await self.resume()
            self._broadcast_update()

    async def _from_client(self, connection: Connection, message: ClientMessageType) -> None:
        if isinstance(message, Ping):
            connection.send({"type": "pong"})
        elif isinstance(message, Sync):
            connection.hand_index = message.hand
            connection.sent_events = message.since
            connection.events_at = None
            self._send_update(connection)
        elif isinstance(message, Trustee):
            await self._trustee(connection, message.on)
        elif isinstance(message, Ting):
            self._ting(connection, message.on)
        elif isinstance(message, Hints):
            connection.hints = message.on
            self._send_update(connection)
        elif isinstance(message, Continue):
            self._continue(connection)
        elif isinstance(message, Entropy):
            await self._entropy(connection, message)
        else:
            await self._act(connection, message)

    async def _trustee(self, connection: Connection, on: bool) -> None:
        seat = connection.seat
        if seat is None:
            connection.send(_error("not_seated", "spectators have no seat to hand over"))
            return
        if self.match is None:
            connection.send(_error("no_game", "no game is in play"))
            return
        if on:
            self.trustee.add(seat)
        else:
            self.trustee.discard(seat)
        self._refresh_pending()
        self._broadcast_update()

    def _ting(self, connection: Connection, on: bool) -> None:
        """听 on or off. Only this seat's own connections hear of it: another seat would learn that the
        hand is ready."""
        seat = connection.seat
        if seat is None:
            connection.send(_error("not_seated", "spectators have no hand to play"))
            return
        state = self.state
        if self.match is None or state is None or state.phase is Phase.ENDED:
            connection.send(_error("no_game", "no hand is in play"))
            return
        if on and not self._waits(seat):
            connection.send(
                _error("not_ready", "听 needs a ready hand (one tile from a win the rules allow)")
            )
            return
        if on:
            self.ting.add(seat)
        else:
            self.ting.discard(seat)
        self._refresh_pending()
        for other in self.connections:
            if other.seat == seat:
                self._send_update(other)

    async def _entropy(self, connection: Connection, message: Entropy) -> None:
        """A player's contribution to the announced hand's wall: stored once (the first stands), and
        only between the hand's commitment and its deal."""
        seat = connection.seat
        if seat is None or seat in self.bots or self.room.seats[seat].left:
            connection.send(_error("not_seated", "only a player at the table contributes to its walls"))
            return
        commit = self.commit
        if commit is None or message.hand != commit.hand:
            connection.send(
                _error(
                    "deal_closed",
                    f"hand {message.hand + 1} takes no contributions now: they are taken between its "
                    "deal_commitment and its deal",
                )
            )
            return
        if seat in commit.contributed:
            connection.send(
                _error("already_contributed", f"your contribution to hand {commit.hand + 1} is in already")
            )
            return
        try:
            value = contribution_or_error(message.value)
        except FairDealError as error:
            connection.send(_error("bad_message", str(error)))
            return
        try:
            await asyncio.to_thread(self.store.play.add_contribution, self.room_id, commit.hand, seat, value)
        except (AlreadyContributed, DealClosed) as error:
            connection.send(_error(error.code, error.message))
            return
        commit.contributed.add(seat)
        self._broadcast(self._commitment_message())  # who has contributed (never what)

    async def _act(self, connection: Connection, message: Act) -> None:
        seat = connection.seat
        if seat is None or self.state is None:
            connection.send(_error("not_your_turn", "you have no decision to make"))
            return
        pending = self.pending.get(seat)
        if pending is None or pending.seq != message.seq or pending.answer is not None:
            connection.send(
                {"type": "ignored", "seq": message.seq, "reason": "stale or duplicate prompt number"}
            )
            return
        try:
            action = action_from_dict({"seat": seat, **message.action.model_dump(exclude_none=True)})
        except ActionParseError as error:
            connection.send(_error("bad_action", str(error)))
            return
        if action not in pending.legal:
            try:
                verify(self.state, action)
                reason = "not one of the actions offered in this prompt"
            except IllegalAction as error:
                reason = str(error)
            connection.send(_error("illegal", reason, seq=message.seq))
            return
        if not pending.automatic:
            used = self.clock() - pending.opened
            self.bank[seat] = max(self.bank[seat] - max(used - self.room.decision_seconds, 0.0), 0.0)
        self.trustee.discard(seat)
        self.ting.discard(seat)  # playing by hand ends 听 as it ends 托管
        if self.release_at is not None and self.release_at > self.clock():
            # Too early: held, unchanged, until the release (then heard as if answered at that time).
            pending.answer, pending.answer_at = action, self.release_at
            return
        await self._apply(action)

    # --- telling people ------------------------------------------------------------------------------

    def _broadcast(self, message: dict[str, Any]) -> None:
        for connection in self.connections:
            connection.send(message)

    def _broadcast_room(self) -> None:
        for connection in self.connections:
            self._send_room(connection)

    def _send_room(self, connection: Connection) -> None:
        connection.send({"type": "room", "room": self.room.model_dump()})

    def _broadcast_update(self) -> None:
        for connection in self.connections:
            self._send_update(connection)

    def _send_update(self, connection: Connection) -> None:
        """The seat's view, the hand's events it has not had yet, and its prompt if it owes one."""
        state = self.state
        match = self.match
        if state is None or match is None:
            return
        hand = len(match.results) if match.current is state else len(match.results) - 1
        if connection.hand_index != hand:
            if connection.hand_index == hand - 1 and self.last_ended is not None:
                self._send_the_rest(connection, self.last_ended, hand - 1)
            connection.hand_index = hand
            connection.sent_events = 0
            connection.events_at = 0
        if connection.events_at is None:  # counted as this seat sees them (others' passes left out)
            connection.events_at, connection.sent_events = event_position(
                state, connection.seat, connection.sent_events
            )
        start = connection.sent_events
        events = events_for(state, connection.seat, start=connection.events_at)
        connection.sent_events += len(events)
        connection.events_at = len(state.events)
        seen = view(state, connection.seat)
        message: dict[str, Any] = {
            "type": "update",
            "hand": hand,
            "from": start,
            "events": events_as_dicts(events),
            "view": _compact(seen.as_dict()),
            "table": self._table_facts(),
        }
        if start == 0 and state.fair is not None:  # the hand's first update for this connection
            message["fair"] = _fair_facts(state.fair, connection.seat)
        if connection.seat is not None and state.phase is not Phase.ENDED:
            refusal = win_refusal(state, connection.seat)
            if refusal is not None:
                message["win_blocked"] = refusal  # a complete hand that may not win: say why
            message.update(self._ting_facts(connection.seat, seen))
        if connection.hints and connection.seat is not None and state.phase is not Phase.ENDED:
            message["hints"] = self._hints(connection, state, hand)
        pending = self.pending.get(connection.seat) if connection.seat is not None else None
        if pending is not None:
            message["prompt"] = {
                "seq": pending.seq,
                "legal": [action_to_dict(action) for action in pending.legal],
                "deadline_ms": max(int((pending.due - self.clock()) * 1000), 0),
                "automatic": pending.automatic,
            }
        connection.send(message)

    def _send_the_rest(self, connection: Connection, ended: HandState, hand: int) -> None:
        """The end of the hand before, to a client that had only part of it (it was away when the hand
        ended and the next one began), so that it misses no event of any hand."""
        if connection.events_at is None:
            connection.events_at, connection.sent_events = event_position(
                ended, connection.seat, connection.sent_events
            )
        events = events_for(ended, connection.seat, start=connection.events_at)
        if events:
            seen = view(ended, connection.seat)
            connection.send(
                {
                    "type": "update",
                    "hand": hand,
                    "from": connection.sent_events,
                    "events": events_as_dicts(events),
                    "view": _compact(seen.as_dict()),
                    "table": self._table_facts(),
                }
            )

    def _ting_facts(self, seat: int, seen: SeatView) -> dict[str, Any]:
        """For the seat's own update only: whether 听 plays it, and its waits with the copies it
        cannot see (for the 听 mark) when the hand is ready."""
        facts: dict[str, Any] = {"ting": seat in self.ting}
        waits = self._waits(seat)
        if waits:
            unseen = unseen_from(seen)
            facts["waits"] = [{"tile": format_tiles([tile]), "left": unseen[tile]} for tile in waits]
        return facts

    def _waits(self, seat: int) -> list[int]:
        """The seat's winning tiles (:func:`winning_tiles`), recomputed only when something they
        depend on changed: its tiles, melds, flowers and locks, or any seat's melds and lays."""
        state = self.state
        assert state is not None
        player = state.seats[seat]
        holding_draw = state.phase is Phase.TURN and state.turn == seat
        key = (
            self.hand_index,
            tuple(player.counts),
            player.drawn if holding_draw else None,
            len(player.flowers),
            player.ready,
            player.passed_win,
            tuple((len(other.melds), len(other.laid)) for other in state.seats),
        )
        cached = self.waits_for.get(seat)
        if cached is None or cached[0] != key:
            cached = (key, winning_tiles(state, seat))
            self.waits_for[seat] = cached
        return cached[1]

    def _hints(self, connection: Connection, state: HandState, hand: int) -> dict[str, Any] | None:
        """The seat's hints, recomputed only when its tiles or the wall's length changed."""
        assert connection.seat is not None
        player = state.seats[connection.seat]
        key = (hand, tuple(player.counts), len(player.melds), len(player.flowers), state.live_tiles)
        if key != connection.hints_for:
            connection.hints_for = key
            try:
                connection.last_hints = seat_hints(state, connection.seat)
            except ValueError:  # nothing to hint at this moment (e.g. mid-kong)
                connection.last_hints = None
        return connection.last_hints

    def _table_facts(self) -> dict[str, Any]:
        match = self.match
        connected = [False] * SEATS
        for connection in self.connections:
            if connection.seat is not None:
                connected[connection.seat] = True
        return {
            "names": list(match.seats) if match is not None else [],
            "totals": list(match.totals) if match is not None else [0] * SEATS,
            "hands_total": self.room.hands,
            "trustee": [seat in self.trustee for seat in range(SEATS)],
            "bots": [seat in self.bots for seat in range(SEATS)],
            "bot_levels": self._bot_levels(),
            "connected": connected,
            "bank_ms": [int(bank * 1000) for bank in self.bank],
        }


def _due(pending: Pending) -> float:
    """When the table acts on a prompt: a held answer at the release, otherwise at its due time."""
    return pending.answer_at if pending.answer is not None else pending.due


def _hand_line(result: dict[str, Any]) -> dict[str, Any]:
    """One hand in 大结算: how it ended, who won how (and on whose discard), the score changes."""
    return {
        "index": result["hand"],
        "outcome": result["outcome"],
        "deltas": result["deltas"],  # escape payments included: the hands add up to the totals
        "escaped": result.get("escaped", []),
        "wins": [
            {"seat": score["seat"], "how": how_won(score), "from": score["from"]}
            for score in result["scores"]
        ],
    }


def _fair_facts(fair: FairDeal, seat: int | None) -> dict[str, Any]:
    """What a seat may know of its hand's fair deal while it is played: the commitment and the wall
    hash, which seats contributed, and its own contribution (never the secret or anyone else's)."""
    facts: dict[str, Any] = {
        "algorithm": fair.algorithm,
        "commitment": fair.commitment,
        "wall_hash": fair.wall_hash,
        "contributed": [value != "" for value in fair.contributions],
    }
    if seat is not None:
        facts["mine"] = fair.contributions[seat]
    return facts


def _room_or_override(room: float, override: float | None) -> float:
    """A room's timing setting, unless the server's settings override it for every room (tests)."""
    return float(room) if override is None else override


def _compact(seen: dict[str, Any]) -> dict[str, Any]:
    """A view without what the client has elsewhere: the options (in the room's rule card) and the
    legal actions (in the prompt). Keeps each update small, as every move sends one to every seat."""
    return {key: value for key, value in seen.items() if key not in ("options", "legal")}


def _error(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, **extra}
