"""The relay's second way between processes, for when Redis is away: PostgreSQL's LISTEN/NOTIFY.

A cluster already runs on PostgreSQL, so this needs nothing more. Each process listens on the same
channels here as on Redis (its own, the owners', the rooms it owns) all the time; what it sends goes
by Redis while Redis answers, and by PostgreSQL while it does not (:mod:`hupai.server.cluster.relay`
chooses, per relay). Redis stays the fast path: a NOTIFY is a transaction, a publish is not.

PostgreSQL's way differs from Redis's in three things this module hides:

* a channel is an identifier of at most 63 bytes: each of the relay's channels is listened to under
  a name made from its digest;
* a payload is at most 8000 bytes: a longer message (a hand's events after a reconnect) goes in
  parts, sent in one transaction (delivered together and in order) and put together on arrival;
* identical payloads sent in one transaction are delivered once: each part carries its sender and a
  number of its own, so that no two are alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

log = logging.getLogger("hupai.cluster")
PART_CHARACTERS = 1900  # at most 4 bytes each in UTF-8: a part and its header stay under 8000 bytes
RETRY_SECONDS = 0.5  # how often a listener whose PostgreSQL is away tries again
POLL_SECONDS = 0.05  # the longest a LISTEN or UNLISTEN waits for the listener when all is quiet
COMMAND_SECONDS = 5.0  # the longest a LISTEN is waited for (PostgreSQL away: listened to once back)

Received = Callable[[str, bytes], Awaitable[None]]


def pg_channel(channel: str) -> str:
    """The PostgreSQL name of one of the relay's channels (an identifier of at most 63 bytes)."""
    return "hupai_" + hashlib.blake2b(channel.encode(), digest_size=12).hexdigest()


def libpq_url(database_url: str) -> str:
    """The SQLAlchemy URL (``postgresql+psycopg://…``) as psycopg takes it."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def framed(sender: str, numbers: itertools.count[int], data: bytes) -> list[str]:
    """``data`` as the payloads of one message: ``<sender>:<number>:<part>:<parts>|<text>``."""
    text = data.decode()
    parts = [text[at : at + PART_CHARACTERS] for at in range(0, len(text), PART_CHARACTERS)] or [""]
    number = next(numbers)
    return [f"{sender}:{number}:{index}:{len(parts)}|{part}" for index, part in enumerate(parts)]


class Reassembly:
    """Puts the parts of each message back together, per sender and message number."""

    def __init__(self) -> None:
        self.pending: dict[tuple[str, str], list[str]] = {}

    def add(self, payload: str) -> bytes | None:
        """The whole message once its last part has come; None until then (or for a bad payload)."""
        header, separator, text = payload.partition("|")
        fields = header.split(":")
        if not separator or len(fields) != 4:
            return None
        sender, number, index, count = fields
        if count == "1":  # the usual case: one part
            return text.encode()
        key = (sender, number)
        parts = self.pending.setdefault(key, [])
        if index != str(len(parts)):  # a part missing (it cannot be: one transaction): start again
            self.pending.pop(key, None)
            return None
        parts.append(text)
        if len(parts) < int(count):
            return None
        del self.pending[key]
        return "".join(parts).encode()


class PostgresChannel:
    """This process's end of the relay over PostgreSQL: a connection that listens and one that sends."""

    def __init__(self, database_url: str, received: Received) -> None:
        self.url = libpq_url(database_url)
        self.received = received
        self.sender = secrets.token_hex(4)
        self.numbers = itertools.count(1)
        self.channels: dict[str, str] = {}  # PostgreSQL name -> the relay's channel, listened to
        # LISTEN or UNLISTEN, a channel's name, and what is told once the listener has run it.
        self.commands: asyncio.Queue[tuple[str, str, asyncio.Future[None]]] = asyncio.Queue()
        self.sending: psycopg.AsyncConnection[tuple[object, ...]] | None = None
        self.send_lock = asyncio.Lock()
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()  # listening (set again after each reconnect)

    async def start(self, channels: list[str]) -> None:
        for channel in channels:
            self.channels[pg_channel(channel)] = channel
        self.task = asyncio.create_task(self._listen_forever(), name="cluster-notify-listen")
        with contextlib.suppress(TimeoutError):  # PostgreSQL away at the start: it listens once back
            await asyncio.wait_for(self.ready.wait(), 10)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        if self.sending is not None:
            with contextlib.suppress(Exception):
                await self.sending.close()

    async def listen(self, channel: str) -> None:
        """From now on, what is sent on ``channel`` arrives here: returns once the listener has run
        the LISTEN (or, PostgreSQL away, after a few seconds: it listens to it when back)."""
        name = pg_channel(channel)
        self.channels[name] = channel
        await self._command("LISTEN", name)

    async def unlisten(self, channel: str) -> None:
        name = pg_channel(channel)
        if self.channels.pop(name, None) is not None:
            await self._command("UNLISTEN", name)

    async def _command(self, command: str, name: str) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.commands.put_nowait((command, name, done))
        with contextlib.suppress(TimeoutError, Exception):
            await asyncio.wait_for(asyncio.shield(done), COMMAND_SECONDS)

    async def send(self, batch: list[tuple[str, bytes]]) -> None:
        """Send ``batch`` (channel, message) in one transaction: delivered in this order. Raises when
        PostgreSQL does not answer (the caller breaks the relays that went this way)."""
        async with self.send_lock:
            try:
                if self.sending is None or self.sending.closed:
                    self.sending = await psycopg.AsyncConnection.connect(self.url, connect_timeout=5)
                rows = [
                    (pg_channel(channel), payload)
                    for channel, data in batch
                    for payload in framed(self.sender, self.numbers, data)
                ]
                async with self.sending.transaction(), self.sending.cursor() as cursor:
                    await cursor.executemany("SELECT pg_notify(%s, %s)", rows)
            except Exception:
                if self.sending is not None:
                    with contextlib.suppress(Exception):
                        await self.sending.close()
                self.sending = None
                raise

    async def _listen_forever(self) -> None:
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # PostgreSQL restarted or is away: listen anew once it answers
                self.ready.clear()
                log.warning("cluster: the PostgreSQL relay is away (%s); trying again", error)
                await asyncio.sleep(RETRY_SECONDS)

    async def _listen(self) -> None:
        connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=5)
        async with connection:
            waiting = []
            while not self.commands.empty():  # (all listened to below, whatever they said)
                waiting.append(self.commands.get_nowait()[2])
            for name in list(self.channels):
                await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(name)))
            for done in waiting:
                if not done.done():
                    done.set_result(None)
            self.ready.set()
            parts = Reassembly()
            while True:
                while not self.commands.empty():
                    command, name, done = self.commands.get_nowait()
                    await connection.execute(sql.SQL(command + " {}").format(sql.Identifier(name)))
                    if not done.done():
                        done.set_result(None)
                # Never left early: what psycopg has read but not yet given out would be lost. It
                # ends after the batch read when the time is up, and the commands waiting run then.
                async for note in connection.notifies(timeout=POLL_SECONDS):
                    channel = self.channels.get(note.channel)
                    message = parts.add(note.payload)
                    if channel is None or message is None:
                        continue
                    try:
                        await self.received(channel, message)
                    except Exception:  # one bad message never stops the relay
                        log.exception("cluster: could not handle a message from PostgreSQL")
