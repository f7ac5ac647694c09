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
table has pressed 继续 (``continue``), or when the room's countdown runs out."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from hupai.bots import make_bot, trustee_action
from hupai.game.actions import action_from_dict
from hupai.game.engine import held_open, release_claims
from hupai.game.match import Match
from hupai.game.model import Phase
from hupai.game.record import DISSOLVE, ESCAPE
from hupai.game.view import view
from hupai.rules import load_ruleset
from hupai.server.mailbox import Mailbox
from hupai.server.settings import Settings
from hupai.server.storage.fencing import LeaseLost
from hupai.server.storage.store import Store
from hupai.server.table import (
    core,
    dealing,
    decisions,
    match_flow,
    moves,
    persist,
    players,
    searches,
    views,
    voice,
)
from hupai.server.table.core import SEATS, TableState, log
from hupai.server.table.messages import (
    Connection,
    Dissolve,
    Escape,
    FromClient,
    Inbox,
    Join,
    Leave,
    RoomChanged,
    Searched,
)

# Why a room was closed (its closed_reason): what went wrong, and that the hands played are kept.
REBUILD_FAILED = (
    "the server could not go on with this game (its table could not be rebuilt); the hands played are kept"
)
ENDING_FAILED = "the server could not end this game normally; the hands played are kept"
ENDED = ("finished", "dissolved")  # a room whose match ended, with its 大结算


class Table(TableState):
    """A room's table task. Create it with :meth:`start`; feed it with :meth:`post`."""

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
        super().__init__(room_id, store, settings, clock=clock)
        self.on_idle = on_idle  # asked when nobody is left; True ends the task
        self.on_lost = on_lost  # told when another process took the table over (its lease)
        self.lost = False
        self.inbox: Mailbox[Inbox] = Mailbox()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> asyncio.Task[None]:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.room_id}")
        return self.task

    def post(self, message: Inbox) -> None:
        self.inbox.put(message)

    async def stop(self) -> None:
        for search in list(self.searches):
            search.cancel()
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
        self.room = await persist.stored(self, self.store.rooms.room_by_id, self.room_id)
        if self.room.status == "playing":
            await self._guard(self.resume())
        elif self.room.status in ENDED:
            # A room whose match ended shows its 大结算 to whoever opens it, however much later.
            self.summary = await persist.stored(self, self.store.play.summary, self.room_id)
        inbox = self.inbox
        while True:
            due = decisions.next_due(self)
            # A wait that times out leaves what arrives meanwhile in the inbox: nothing is lost.
            handled = await inbox.wait(None if due is None else due - self.clock())
            if handled:
                message = inbox.take()
                await self._guard(self._handle(message))
                done = getattr(message, "done", None)
                if done is not None and not done.done():
                    done.set_result(None)
                del message  # not kept alive while waiting for the next one (see app._tune_gc)
            await self._guard(self._run_due())
            if handled and self._idle() and self.on_idle is not None and self.on_idle(self):
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
        return not self.connections and not self.inbox and self.match is None

    async def _rebuild(self) -> None:
        try:
            self.room = await persist.stored(self, self.store.rooms.room_by_id, self.room_id)
            self.match = None
            self.state = None
            self.commit = None
            self.pending.clear()
            self.ting.clear()
            if self.room.status == "playing":
                await self.resume()
            views.broadcast_update(self)
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
            await persist.stored(self, self.store.rooms.close_room, self.room_id, reason)
            self.room = await persist.stored(self, self.store.rooms.room_by_id, self.room_id)
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
        views.broadcast_room(self)

    async def resume(self) -> None:
        """Rebuild the match from storage — each hand dealt again from the room's deal secret and the
        contributions stored for it (or from the seed), then its stored moves — and play on."""
        seating = await persist.stored(self, self.store.rooms.seating, self.room_id)
        seed = await persist.stored(self, self.store.rooms.seed, self.room_id)
        self.deal_secret = await persist.stored(self, self.store.rooms.deal_secret, self.room_id)
        hands = await persist.stored(self, self.store.play.moves, self.room_id)
        stored: dict[int, dict[int, str]] = {}
        if self.deal_secret is not None:
            stored = await persist.stored(self, self.store.play.contributions, self.room_id)
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
            state = self.match.start_hand(**dealing.deal_with(self, index, stored.get(index, {})))
            state.hold_claims = True  # replayed as it was played (moves.replay)
            self.last_ended = self.state
            self.state = state
            self.moves_in_hand = len(actions)
            for data in actions:
                if data.get("act") == ESCAPE:
                    await match_flow.escape(self, int(data["seat"]), stored=True)
                    return
                if data.get("act") == DISSOLVE:
                    await match_flow.dissolve(self, stored=True)
                    return
                moves.replay(state, action_from_dict(data))
            if state.phase is Phase.ENDED:
                await match_flow.settle(self, state, index, replaying=True)
                if self.match is None:
                    return
        if await persist.stored(self, self.store.votes.agreed, self.room_id):
            await match_flow.dissolve(self)  # every player agreed, but the table stopped before it heard so
            return
        if self.state is None or self.state.phase is Phase.ENDED:
            following = stored.get(self.hand_index, {})
            if self.deal_secret is None or len(following) == SEATS:
                # Dealt before the restart (its contributions sealed): deal it again.
                await dealing.deal_next(self)
            else:
                dealing.announce(self, set(following))
        else:
            # A window that waited on nobody at the stop was released in the replay, as the table
            # would have released it: play goes on from there.
            decisions.refresh_pending(self)

    async def _run_due(self) -> None:
        """Act for every seat whose time has come, and deal the next hand when it is due."""
        while True:
            now = self.clock()
            deal_at = decisions.deal_time(self)
            if deal_at is not None and deal_at <= now:
                await dealing.deal_next(self)
                continue
            vote_at = core.vote_due(self)
            if vote_at is not None and vote_at <= now:
                if await match_flow.vote_lapsed(self):
                    await self._ending(match_flow.dissolve(self))
                continue
            if self.release_at is not None and self.release_at <= now:
                self.release_at = None  # from now on the window's decisions apply as they come
                if self.state is not None and held_open(self.state):
                    release_claims(self.state)  # nobody could claim: play moves on
                    await moves.moved(self, self.state)
                    continue
            # Decisions stored ahead of a release are played in the order they were stored.
            due = [
                (core.due_at(pending), math.inf if pending.stored_as is None else pending.stored_as, seat)
                for seat, pending in self.pending.items()
                if core.due_at(pending) <= now
            ]
            if not due:
                return
            *_, seat = min(due)
            pending = self.pending[seat]
            if pending.automatic and pending.choice is None:  # not decided on yet (a rebuilt window)
                decisions.decide(self, seat, pending)
                continue
            if pending.stored_as is not None:
                await moves.apply(self, decisions.stored_decision(pending), stored=True)
                continue
            if pending.answer is not None:
                action = pending.answer
            elif not pending.automatic:
                self.bank[seat] = 0.0
                self.trustee.add(seat)  # 托管 until the player acts again
                assert self.state is not None
                action = trustee_action(view(self.state, seat, legal=pending.legal), pending.legal)
            else:
                action = pending.choice or pending.legal[0]
            await moves.apply(self, action)

    async def _handle(self, message: Inbox) -> None:
        if isinstance(message, Join):
            connection = message.connection
            present = views.seats_present(self)
            self.connections.add(connection)
            self._seat(connection)
            welcome: dict[str, Any] = {
                "type": "welcome",
                "seat": connection.seat,
                "user_id": connection.user_id,
            }
            if self.settings.ice_servers:
                welcome["ice_servers"] = list(self.settings.ice_servers)  # for voice beyond the LAN
            connection.send(welcome)
            if self.voice:
                connection.send(voice.roster(self))
            views.send_room(self, connection)
            views.send_update(self, connection)
            if self.last_hand_end is not None and (self.next_hand_at is not None or self.summary is not None):
                connection.send(views.with_continue(self, self.last_hand_end))  # the sheet being read now
            if self.summary is not None:
                connection.send(self.summary)
            if self.commit is not None:
                connection.send(views.commitment_message(self))  # the deal waits for contributions
            self._tell_presence(present)
        elif isinstance(message, Leave):
            present = views.seats_present(self)
            self.connections.discard(message.connection)
            voice.forget(self)
            self._tell_presence(present)
            if self.next_hand_at is not None:
                match_flow.deal_or_report(self)  # the others may be waiting only for whoever left
        elif isinstance(message, FromClient):
            await players.from_client(self, message.connection, message.message)
        elif isinstance(message, RoomChanged):
            await self._room_changed()
        elif isinstance(message, Escape):
            await self._ending(match_flow.escape(self, message.seat))
        elif isinstance(message, Dissolve):
            await self._ending(match_flow.dissolve(self))
        elif isinstance(message, Searched):
            searches.searched(self, message)

    def _tell_presence(self, before: list[bool]) -> None:
        """Everyone sees at once who has come back or gone away (离线), as they see 托管 — not only with
        the table's next move, which may be the absent player's own (a ``presence`` message)."""
        now = views.seats_present(self)
        if now != before and self.match is not None:
            views.broadcast(self, {"type": "presence", "connected": now})

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
        self.room = await persist.stored(self, self.store.rooms.room_by_id, self.room_id)
        for connection in self.connections:
            self._seat(connection)
        voice.forget(self)
        views.broadcast_room(self)
        if self.room.status == "playing" and self.match is None and self.summary is None:
            await self.resume()
            views.broadcast_update(self)
