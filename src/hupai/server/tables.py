"""The tables this process plays, and — with Redis — its part in a cluster of processes.

Alone (no Redis, ``make run``), a process owns every table: a room's table task starts when it is
first needed and ends when idle; after a restart every room in play is rebuilt from storage.

In a cluster each table has one owner, the holder of the room's lease (:mod:`hupai.server.cluster.leases`).
:meth:`Tables.route` answers "where is this room's table?": here, or on another process
(a :class:`~hupai.server.cluster.RemoteRoom` that relays to it), taking the lease when nobody holds
it. Every ``lease_seconds / 3`` each process renews its leases (a table whose lease was taken is
stopped at once), says it is alive, and takes over rooms in play that nobody owns — those of a
process that died, once their leases run out, or at once when the process is seen to no longer
listen to Redis. A process that stops cleanly gives its leases up and says so, and the others take
its tables over at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from hupai.server.cluster.leases import Leases
from hupai.server.cluster.relay import Cluster
from hupai.server.cluster.remote import RemoteRoom
from hupai.server.settings import Settings
from hupai.server.storage.fencing import Fence
from hupai.server.storage.store import Store
from hupai.server.table.actor import Table
from hupai.server.table.messages import Dissolve, Escape, Join, Message, RoomChanged

log = logging.getLogger("hupai.tables")
HELD_BACK_LIMIT = 10_000  # messages kept while leases are in doubt (a Join beyond: closed)
TAKEOVER_BATCH = 100  # orphaned rooms one process takes in one pass (the others take the rest)
TAKEOVER_AT_ONCE = 8  # takes in flight at once in a pass
# A lease holder found not listening to Redis twice this far apart is gone: its leases are ended
# without waiting for them to run out (twice, so that a reconnection to Redis is not a death).
UNHEARD_SECONDS = 1.0
# A socket whose table's owner does not answer waits for a new owner this often, and at most a lease
# and this long (then it is relayed anyway, and the relay's own checks close it).
ROUTE_POLL_SECONDS = 0.25
ROUTE_PATIENCE_SECONDS = 5.0

Route = Table | RemoteRoom
T = TypeVar("T")


class RoomLocks:
    """One lock per room, kept only while someone holds or waits for it."""

    def __init__(self) -> None:
        self.locks: dict[int, tuple[asyncio.Lock, int]] = {}  # room id -> (its lock, users)

    @contextlib.asynccontextmanager
    async def hold(self, room_id: int) -> AsyncIterator[None]:
        lock, users = self.locks.get(room_id) or (asyncio.Lock(), 0)
        self.locks[room_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            _lock, users = self.locks[room_id]
            if users == 1:
                del self.locks[room_id]
            else:
                self.locks[room_id] = (lock, users - 1)


class Tables:
    """The table tasks of this process, by room id."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        *,
        cluster: Cluster | None = None,
        leases: Leases | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.cluster = cluster
        self.leases = leases
        self.tables: dict[int, Table] = {}
        self.fences: dict[int, Fence] = {}
        self.arriving: dict[int, list[Message]] = {}  # rooms being taken: their messages so far
        self.changing = RoomLocks()  # one lease change at a time per room
        self.maintaining = asyncio.Lock()
        self.wake = asyncio.Event()  # a table was let go elsewhere: look for orphans now
        self.maintainer: asyncio.Task[None] | None = None
        self.taking_over: asyncio.Task[None] | None = None
        self.renewed_at = -math.inf  # when this process last renewed its leases (monotonic)
        self.held_back: list[tuple[int, Message]] = []  # what arrived while the leases were in doubt
        self.unheard_since: dict[str, float] = {}  # lease holders not listening to Redis: since when
        self.looked_at = -math.inf  # when a socket last asked for a takeover pass
        self.keeper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hupai-leases")
        if cluster is not None:
            cluster.deliver = self._deliver
            cluster.on_owner_change = self._owner_changed
            cluster.on_unheard = self._unheard
            cluster.holds = self._holds

    async def _keeping(self, call: Callable[..., T], *args: Any) -> T:
        """A lease write or takeover query, on this process's own lease thread and connection: a
        storm of requests (hundreds of clients reconnecting after a takeover) must not delay the
        renewals that keep the tables here."""
        return await asyncio.get_running_loop().run_in_executor(self.keeper, call, *args)

    # --- one process -----------------------------------------------------------------------------

    def get(self, room_id: int) -> Table:
        """The room's table in this process, started if needed (alone: every table is here)."""
        table = self.tables.get(room_id)
        if table is None:
            table = Table(room_id, self.store, self.settings, on_idle=self._idle)
            self.tables[room_id] = table
            table.start()
        return table

    def local(self, room_id: int) -> Table | None:
        """The room's table in this process for a socket attached to it: alone, started again if it
        ended; in a cluster only while this process still owns it (never a table without a lease)."""
        if self.cluster is None:
            return self.get(room_id)
        table = self.tables.get(room_id)
        return table if table is not None and not table.lost else None

    def _idle(self, table: Table) -> bool:
        if self.tables.get(table.room_id) is table:
            del self.tables[table.room_id]
            if self.cluster is not None:
                asyncio.get_running_loop().create_task(self._let_go(table.room_id))
        return True

    async def start(self) -> int:
        """Alone: rebuild every room in play from storage (after a restart). In a cluster: join it
        and start looking after leases; rooms in play are taken over by the first pass."""
        if self.cluster is None:
            room_ids = await run_in_threadpool(self.store.rooms.playing_room_ids)
            for room_id in room_ids:
                self.get(room_id)
            return len(room_ids)
        await self.cluster.start()
        await self.maintain_once()
        self.maintainer = asyncio.create_task(self._maintain(), name="tables-maintain")
        return len(self.tables)

    async def close(self) -> None:
        """Stop every table; in a cluster give their leases up so others take them over at once."""
        for task in (self.maintainer, self.taking_over):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for room_id, table in list(self.tables.items()):
            await table.stop()
            if self.cluster is not None:
                await self._let_go(room_id, stopped=True)
        self.tables.clear()
        if self.cluster is not None:
            await self.cluster.stop()
        self.keeper.shutdown(wait=False)

    # --- where a room's table is -----------------------------------------------------------------

    async def route(self, room_id: int) -> Route:
        if self.cluster is not None and self._stale():
            await self.renew_once()
        table = self.tables.get(room_id)
        if table is not None and not table.lost:
            return table
        if self.cluster is None:
            return self.get(room_id)
        assert self.leases is not None
        # An owner that died or is paused still holds its lease for a while: a socket relayed to it
        # would hear nothing. Wait (the socket stays open) until the lease is ended or runs out and
        # the table has a live owner — this process, or the one that took it first.
        deadline = time.monotonic() + self.leases.seconds + ROUTE_PATIENCE_SECONDS
        while True:
            owner = await run_in_threadpool(self.leases.owner, room_id)
            if owner is None or owner == self.cluster.node:
                taken = await self._take(room_id)
                if taken is not None:
                    return taken
                owner = await run_in_threadpool(self.leases.owner, room_id)
            if owner is not None and owner != self.cluster.node:
                if time.monotonic() > deadline or await self.cluster.answers(owner):
                    return RemoteRoom(self.cluster, room_id, owner)
                self._look_for_the_gone()
            elif time.monotonic() > deadline:
                # Nobody took it in all this time (the database is away?): a relay to nobody is
                # unheard at once, and the client comes back.
                return RemoteRoom(self.cluster, room_id, "")
            await asyncio.sleep(ROUTE_POLL_SECONDS)

    def _look_for_the_gone(self) -> None:
        """Ask for a takeover pass now (at most once a second): an owner may have died."""
        now = time.monotonic()
        if now - self.looked_at >= UNHEARD_SECONDS:
            self.looked_at = now
            self.wake.set()

    async def post(self, room_id: int, message: Message) -> None:
        (await self.route(room_id)).post(message)

    async def tell(self, room_id: int, message: Message) -> None:
        """Post to the room's table where one runs (here or elsewhere); never start one."""
        table = self.tables.get(room_id)
        if table is not None:
            table.post(message)
        elif self.cluster is not None and self.leases is not None:
            owner = await run_in_threadpool(self.leases.owner, room_id)
            if owner is not None and owner != self.cluster.node:
                RemoteRoom(self.cluster, room_id, owner).post(message)

    async def _take(self, room_id: int) -> Table | None:
        assert self.cluster is not None and self.leases is not None
        async with self.changing.hold(room_id):
            table = self.tables.get(room_id)
            if table is not None and not table.lost:
                return table
            # Listen first: whoever sees this process's lease can count on being heard. What arrives
            # before the table exists waits for it.
            self.arriving[room_id] = []
            try:
                await self.cluster.own(room_id)
                fence = await self._keeping(self.leases.acquire, room_id, self.cluster.node)
                if fence is None:
                    await self.cluster.disown(room_id)
                    return None
                table = self._owned_table(room_id, fence)
                for message in self.arriving[room_id]:
                    table.post(message)
            finally:
                del self.arriving[room_id]
        await self.cluster.announce_owner(room_id)
        log.info("table %s: owned by %s (epoch %s)", room_id, self.cluster.node, fence.epoch)
        return table

    def _owned_table(self, room_id: int, fence: Fence) -> Table:
        table = Table(
            room_id,
            self.store.fenced(room_id, fence),
            self.settings,
            on_idle=self._idle,
            on_lost=self._lost,
        )
        self.tables[room_id] = table
        self.fences[room_id] = fence
        table.start()
        return table

    async def _let_go(self, room_id: int, *, stopped: bool = False) -> None:
        """Give up the room's lease (its table here ended or stopped) and say so."""
        assert self.cluster is not None and self.leases is not None
        released = False
        async with self.changing.hold(room_id):
            if room_id in self.tables and not stopped:
                return  # a new table started here meanwhile: it keeps the lease
            fence = self.fences.pop(room_id, None)
            # Released before the relayed sockets are closed: their clients, coming back, find the
            # room free to take rather than this process still holding it.
            if fence is not None:
                with contextlib.suppress(Exception):
                    released = await self._keeping(self.leases.release, room_id, fence)
            await self.cluster.disown(room_id)
        if released:  # (a lease another process ended or took is not this process's to announce)
            with contextlib.suppress(Exception):
                await self.cluster.announce_owner(room_id, released=True)

    def _lost(self, table: Table) -> None:
        """The table's write was refused: another process owns it now."""
        if self.tables.get(table.room_id) is table:
            del self.tables[table.room_id]
            self.fences.pop(table.room_id, None)
            assert self.cluster is not None
            asyncio.get_running_loop().create_task(self.cluster.disown(table.room_id))

    # --- the cluster's messages ------------------------------------------------------------------

    def _stale(self) -> bool:
        """Whether this process's leases may have run out unseen (it was paused, or the database was
        away): until it has renewed them, it must not answer for any table."""
        assert self.leases is not None
        return time.monotonic() - self.renewed_at > self.leases.seconds * 0.9

    def _holds(self, room_id: int) -> bool:
        """Whether this process owns the room's table now (not while its leases are in doubt)."""
        return room_id in self.fences and not self._stale()

    def _deliver(self, room_id: int, message: Message) -> None:
        """A message relayed to a table this process owns (or owned a moment ago)."""
        if self._stale():
            self._hold_back(room_id, message)
        elif (arriving := self.arriving.get(room_id)) is not None:
            arriving.append(message)  # the table is being taken: it hears these once it runs
        elif (table := self._held_table(room_id)) is not None:
            table.post(message)
        else:
            self._pass_on(room_id, message)

    def _hold_back(self, room_id: int, message: Message) -> None:
        """Messages that waited while this process was paused: another process may own the table now.
        They wait until the leases are renewed, then go to the tables still held here."""
        self.wake.set()
        if len(self.held_back) < HELD_BACK_LIMIT:
            self.held_back.append((room_id, message))
        elif isinstance(message, Join):
            message.connection.close()

    def _held_table(self, room_id: int) -> Table | None:
        """The room's table here while this process holds its lease: running, or started again when
        it ended a moment ago and the lease is still ours."""
        table = self.tables.get(room_id)
        if table is None and room_id in self.fences:
            table = self._owned_table(room_id, self.fences[room_id])
        return table if table is not None and not table.lost else None

    def _pass_on(self, room_id: int, message: Message) -> None:
        """A message for a table this process is letting go. A join is closed (the client reconnects
        and finds the new owner); a start, a leave or a vote goes to whoever owns the room now (or
        takes it again) rather than being lost; what a client sent to the old table is dropped."""
        if isinstance(message, Join):
            message.connection.close()
        elif isinstance(message, RoomChanged | Escape | Dissolve):
            asyncio.get_running_loop().create_task(self.post(room_id, message))

    def _unheard(self, room_id: int) -> None:
        """A message to the room's owner reached nobody: its relayed sockets here close (their
        clients reconnect), and the owner may be gone: look now rather than at the next pass."""
        assert self.cluster is not None
        self.cluster.close_relays(room_id)
        self.wake.set()

    async def _owner_changed(self, room_id: int, owner: str | None) -> None:
        if owner is None:
            self.wake.set()  # let go cleanly: take it over now if it is in play
            return
        table = self.tables.get(room_id)
        if table is not None and self.fences.get(room_id) is not None:
            # Another process says it owns a table this one still plays: the next renewal decides;
            # ask for it now rather than in a few seconds.
            self.wake.set()

    # --- leases ------------------------------------------------------------------------------------

    async def _maintain(self) -> None:
        assert self.leases is not None
        every = self.leases.seconds / 3
        failed = False
        while True:
            # Renewals keep their rhythm: the next is due a third of a lease after the last began.
            due = every if failed else min(max(self.renewed_at + every - time.monotonic(), 0.0), every)
            # (asyncio.timeout, not wait_for: Python 3.11's wait_for loses a cancellation that comes
            # as the event is set, and the stop then waited for this task for ever.)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(due):
                    await self.wake.wait()
            self.wake.clear()
            try:
                await self.renew_once()
                failed = False
            except asyncio.CancelledError:
                raise
            except Exception:  # the database or Redis is away for a moment: try again next time
                failed = True
                log.exception("tables: could not renew leases")
                # Still alive, whatever the database: the others must not take this process for dead
                # and drop the sockets relayed to and from it.
                if self.cluster is not None:
                    await self.cluster.heartbeat()
                continue
            # Takeovers run beside the renewals: however long rebuilding tables takes (or waiting for
            # a socket's own takeover of a room), the leases held and just taken are renewed in time.
            if self.taking_over is None or self.taking_over.done():
                self.taking_over = asyncio.create_task(self._take_over_logged(), name="tables-take-over")

    async def maintain_once(self) -> None:
        """Renew this process's leases, then take over orphaned rooms in play."""
        await self.renew_once()
        await self.take_over_once()

    async def renew_once(self) -> None:
        """Renew, drop what was lost, say this process is alive. One at a time: callers that find it
        running wait for it (two renewals of the same rows at once would only deadlock each other in
        the database)."""
        if self.maintaining.locked():
            async with self.maintaining:
                return
        async with self.maintaining:
            await self._renew_once()

    async def _renew_once(self) -> None:
        assert self.cluster is not None and self.leases is not None
        asked = time.monotonic()
        if asked - self.renewed_at > self.leases.seconds * 0.6 and self.fences:
            log.warning(
                "leases renewed %.1f s after the last renewal (they last %s s): this process is slow",
                asked - self.renewed_at,
                self.leases.seconds,
            )
        holding = dict(self.fences)  # tables taken while renewing are not judged by this renewal
        held = await self._keeping(self.leases.renew, self.cluster.node)
        for room_id, fence in holding.items():
            if held.get(room_id) != fence.epoch and self.fences.get(room_id) == fence:
                table = self.tables.pop(room_id, None)
                self.fences.pop(room_id, None)
                if table is not None:
                    log.warning("table %s: lease lost to another process; stopping", room_id)
                    await table.stop()
                await self.cluster.disown(room_id)
        self.renewed_at = asked  # every lease still held runs at least until then + lease_seconds
        held_back, self.held_back = self.held_back, []
        for room_id, message in held_back:
            self._deliver(room_id, message)
        await self.cluster.heartbeat()
        await self._check_relays()

    async def _check_relays(self) -> None:
        """Close this process's sockets relayed to a process that no longer holds their room's lease
        (a takeover or a release whose announcement was missed): a socket is never left open and
        silent while its room plays on elsewhere."""
        assert self.cluster is not None and self.leases is not None
        rooms = self.cluster.relayed_rooms()
        if not rooms:
            return
        owners = await self._keeping(self.leases.owners, sorted(rooms))
        for room_id, relayed_to in rooms.items():
            owner = owners.get(room_id)
            if relayed_to != {owner}:
                self.cluster.close_relays(room_id, except_owner=owner)

    async def _take_over_logged(self) -> None:
        try:
            await self.take_over_once()
        except Exception:
            log.exception("tables: could not take tables over")

    async def take_over_once(self) -> None:
        """End the leases of processes known to be gone, then take over rooms in play that nobody
        owns (at most ``TAKEOVER_BATCH``; more: the next pass comes at once)."""
        assert self.leases is not None
        await self._end_leases_of_the_gone()
        orphans = await self._keeping(self.leases.orphans, TAKEOVER_BATCH)
        random.shuffle(orphans)  # several processes taking over at once start at different rooms
        # A few at a time: each take is round trips to Redis and the database, which overlap.
        at_once = asyncio.Semaphore(TAKEOVER_AT_ONCE)

        async def take(room_id: int) -> None:
            async with at_once:
                if room_id not in self.tables:
                    await self._take(room_id)

        for failed in await asyncio.gather(*map(take, orphans), return_exceptions=True):
            if isinstance(failed, Exception):
                log.warning("tables: a takeover failed (%s); the next pass tries again", failed)
        if len(orphans) == TAKEOVER_BATCH:
            self.wake.set()  # more are waiting: the next pass at once

    async def _end_leases_of_the_gone(self) -> None:
        """A process that died stops listening to Redis at once: end its leases now (they are taken
        over in this pass) rather than when they run out. A paused one still listens; its leases
        run out."""
        assert self.cluster is not None and self.leases is not None
        holders = await self._keeping(self.leases.holders)
        holders.discard(self.cluster.node)
        unheard = await self.cluster.unheard_nodes(sorted(holders)) if holders else set()
        if unheard is None:  # this process is not heard either: Redis is the one in trouble
            self.unheard_since.clear()
            return
        now = time.monotonic()
        self.unheard_since = {node: self.unheard_since.get(node, now) for node in unheard}
        for node, since in self.unheard_since.items():
            if now - since < UNHEARD_SECONDS:
                if since == now:  # look again as soon as it may be judged
                    asyncio.get_running_loop().call_later(UNHEARD_SECONDS, self.wake.set)
                continue
            ended = await self._keeping(self.leases.expire_all, node)
            if ended:
                log.warning("process %s is gone (not listening): its %d lease(s) ended", node, ended)
