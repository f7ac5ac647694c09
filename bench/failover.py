"""Failover: the faults a cluster of servers meets every week, and what each one costs its players.

    python bench/failover.py --database-url postgresql+psycopg://… --pg-ctl "pg_ctlcluster 15 main"
    python bench/failover.py --database-url … --rooms 30 --faults kill,stop --json

It starts a Redis (Debian's ``redis-server``) and three ``hupai`` server processes on the PostgreSQL
of ``--database-url``, then runs one phase per fault. Each phase opens ``--rooms`` fresh rooms (four
network players each, every seat at another process, so most sockets are relayed to the table's
owner), waits until every room is in the middle of its first hand, and then:

* ``kill``: kill -9 of the process that owns the most of these tables;
* ``term``: SIGTERM of that process (a clean stop, as a deploy does);
* ``stop``: SIGSTOP of it (a paused or cut-off process) until its tables are taken over, then SIGCONT;
* ``postgres``: PostgreSQL stopped for ``--outage`` seconds and started again (``--pg-ctl``);
* ``redis``: Redis killed, and started again on its port after ``--outage`` seconds; the players
  play on through it (relays go over PostgreSQL meanwhile).

A fault may carry its own outage: ``redis:30`` is Redis away for 30 s (``--faults redis:10,redis:30``).

A process killed or stopped is started again on its port (as a supervisor would) once its tables
have moved on. Every match is played to its end; then, for each room, the stored record is replayed
here and compared with what the players were told.

Figures per fault: **failover**, the time from the fault (kill, SIGTERM, Redis killed), from the
moment the paused owner's leases ran out (SIGSTOP), or from the moment the database was back, to the
first action the players of each affected table see applied; **clocks run out**, seats whose
decision clock ran out (托管) while their player was answering every prompt (the fault's doing);
**reconnects** per client (sockets opened again after the first); **silent sockets**, open and
hearing nothing for ``--silent`` seconds (``--silent-redis`` through a Redis outage: 3 s) while
their room moved on. Checks per fault, any of which
fails the run (exit status 1): every match finished all its hands; its totals equal the replay of
its stored record; every client heard the events of the record's replay, as its seat sees them, one
by one (no update that does not continue where the last ended; no event missing, none twice); no
silent socket; no clock run out; at most ``--max-reconnects`` reconnects per client.
tests/server/cluster/test_chaos.py runs this in CI with a few rooms per fault.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from hupai.game.record import read_record
from hupai.game.view import events_as_dicts, events_for
from hupai.replay import replay
from server_load import call, free_port, start_redis, stop_servers

# The browser's heartbeat (src/hupai/server/web/js/room.js): quiet this long, it pings; no answer
# this long after, it opens a new socket.
PING_AFTER_SECONDS = 2.5
PONG_WITHIN_SECONDS = 2.0
OPEN_SECONDS = 3.0  # a handshake not done in this time: the process is away
DOWN_SECONDS = 10.0  # how long the balancer sends no new socket to a process found away

FAULTS = ("kill", "term", "stop", "postgres", "redis")
PROCESS_FAULTS = ("kill", "term", "stop")
STRUCK_FAULTS = (*PROCESS_FAULTS, "redis")  # failover counted from the fault itself


def fault_and_outage(spec: str, outage: float) -> tuple[str, float]:
    """``redis:30`` → ("redis", 30.0); a fault without its own outage takes ``outage``."""
    fault, _, seconds = spec.partition(":")
    return fault, float(seconds) if seconds else outage


HANDS = 4  # a match's hands
LAST_HAND = HANDS - 1

SERVE = """
import faulthandler, json, logging, signal, sys
faulthandler.register(signal.SIGUSR1, all_threads=True)  # every thread's stack into the log
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
from hupai.server.app import serve
from hupai.server.settings import Settings
settings = json.loads(sys.argv[3])
serve(Settings(database_url=sys.argv[1], **settings), port=int(sys.argv[2]), log_level="info")
"""

# The servers: quick tables (no pause between hands, claims released at once, bots that do not
# think), short leases, and no per-address quotas (every client is on this one address).
SETTINGS: dict[str, Any] = {
    "bot_delay_seconds": 0,
    "next_hand_seconds": 0,
    "claim_seconds": 0,
    "deal_wait_seconds": 0,
    "messages_per_second": 1000,
    "guests_per_address_per_hour": 10**9,
    "rooms_per_address_per_hour": 10**9,
    "room_lookups_per_address_per_minute": 10**9,
    "max_sockets_per_address": 10**9,
    "connects_per_minute": 10**6,
}


# --- the parts: servers, Redis, PostgreSQL ---------------------------------------------------------


class Server:
    """One ``hupai`` server process on a fixed port (started again on it after a fault)."""

    def __init__(self, port: int, url: str, settings: dict[str, Any], log: Path) -> None:
        self.port, self.url, self.settings, self.log = port, url, settings, log
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        with self.log.open("ab") as output:
            output.write(f"\n--- start {self.starts} at {time.strftime('%X')} ---\n".encode())
            self.process = subprocess.Popen(
                [sys.executable, "-c", SERVE, self.url, str(self.port), json.dumps(self.settings)],
                start_new_session=True,
                stdout=output,
                stderr=output,
            )

    def wait_ready(self, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                call(f"http://127.0.0.1:{self.port}", "/api/health")
                return
            except OSError:
                assert self.process is not None
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise SystemExit(f"server on port {self.port} did not start; see {self.log}") from None
                time.sleep(0.1)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def signal(self, number: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, number)

    def wait_exit(self, seconds: float = 30) -> None:
        assert self.process is not None
        try:
            self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.process.wait(timeout=10)


class RedisServer:
    """Debian's redis-server on one port, which can be killed and started again on that port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.process, self.url = start_redis(folder)
        self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)

    def start_again(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        self.process = subprocess.Popen(
            [*command, "--appendonly", "no", "--dir", str(self.folder)], stdout=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while True:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe,
            ):
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    return
            if time.monotonic() > deadline:
                raise SystemExit("redis-server did not start again")
            time.sleep(0.05)


@contextlib.contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """An empty database beside the one ``url`` names, for this run only (dropped afterwards): rooms
    left in play by another run would be taken over by these servers and skew the figures."""
    name = f"hupai_failover_{secrets.token_hex(6)}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{url.rpartition('/')[0]}/{name}"
    finally:
        for _ in range(20):  # autovacuum may be in it for a moment
            try:
                with admin.connect() as connection:
                    connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                break
            except Exception:
                time.sleep(0.25)
        admin.dispose()


def leases(url: str) -> list[tuple[str, int, datetime]]:
    """Every table lease: (room number, owner's process id, when it runs out, UTC)."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT r.number, l.owner, l.expires_at"
                    " FROM table_leases l JOIN rooms r ON r.id = l.room_id"
                )
            ).all()
    finally:
        engine.dispose()
    # Owners are "<host>-<pid>-<hex>" (docs/deploy.md).
    return [(number, int(str(owner).rsplit("-", 2)[1]), expires) for number, owner, expires in rows]


# --- the players ---------------------------------------------------------------------------------


@dataclass
class Room:
    number: str
    tokens: list[str]
    clients: list[Client] = field(default_factory=list)
    moved_at: float = 0.0  # when a client of the room last heard a new event
    reached: tuple[int, int] = (-1, 0)  # the furthest (hand, events) a client heard
    frozen: tuple[int, int] | None = None  # ``reached`` at the fault
    recovered_at: float | None = None  # the first new event heard after the fault

    @property
    def ended(self) -> bool:
        """Whether a client of the room was told the match is over."""
        return any(client.summary is not None for client in self.clients)

    def progressed(self, now: float) -> None:
        """A client heard the table go on (a new event, or the match's end): after a fault, the
        first such moment is the room's recovery."""
        if self.frozen is not None and self.recovered_at is None:
            self.recovered_at = now

    def held_kong(self) -> bool:
        """Whether the hand in play had an added kong announced and held open (a robbing window):
        the event a rebuilt hand must number exactly as the table did."""
        hand = self.reached[0]
        return any(
            event["event"] == "kong_added" and not event.get("completed", True)
            for client in self.clients
            for event in client.events.get(hand, [])
        )


class Balancer:
    """What a load balancer's passive health check does: a process that refused a connection, did not
    finish a handshake or stopped answering pings gets no new sockets for a while."""

    def __init__(self) -> None:
        self.down_until: dict[str, float] = {}  # process address -> until when

    @staticmethod
    def _process(url: str) -> str:
        return url.split("/api", 1)[0]

    def mark_down(self, url: str) -> None:
        self.down_until[self._process(url)] = time.monotonic() + DOWN_SECONDS

    def up(self, url: str) -> bool:
        return self.down_until.get(self._process(url), 0.0) <= time.monotonic()


class Client:
    """One seat's player over a real socket, as the browser plays: answers every prompt (a win when it
    may, a kong when it may, otherwise any legal action), checks that each update continues where the
    last one ended, and when its socket closes opens it again at the next process with
    ``hand``/``since``."""

    def __init__(
        self, room: Room, urls: list[str], balancer: Balancer, rng: random.Random, silent: float
    ) -> None:
        self.room, self.urls, self.balancer, self.rng, self.silent = room, urls, balancer, rng, silent
        self.events: dict[int, list[dict[str, Any]]] = {}
        self.summary: dict[str, Any] | None = None
        self.opened = 0
        self.problems: list[str] = []
        self.silences: list[str] = []
        self.drops: list[str] = []
        self.last: str = ""  # the last message heard, in short (for a stuck room)
        self.seat: int | None = None
        self.stop = False
        self.clock_ran_out = False  # the table played for this seat (托管): it answers every prompt

    @property
    def reconnects(self) -> int:
        return max(self.opened - 1, 0)

    async def play(self) -> None:
        turn = 0
        while self.summary is None and not self.stop:
            url = self._next_url(turn)
            hand = max(self.events, default=-1)
            since = len(self.events.get(hand, []))
            try:
                async with connect(f"{url}&hand={hand}&since={since}", open_timeout=OPEN_SECONDS) as ws:
                    self.opened += 1
                    if not await self._listen(ws, url):
                        self.balancer.mark_down(url)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                if not isinstance(error, ConnectionClosed):  # refused, or no handshake: the process is away
                    self.balancer.mark_down(url)
                self.drops.append(f"{time.strftime('%X')} {url.split('/api', 1)[0]}: {error!r}")
            if self.summary is None:
                turn += 1
                await asyncio.sleep(0.2)

    def _next_url(self, turn: int) -> str:
        """The next process in this client's order that the balancer has not marked down."""
        for step in range(len(self.urls)):
            url = self.urls[(turn + step) % len(self.urls)]
            if self.balancer.up(url):
                return url
        return self.urls[turn % len(self.urls)]

    async def _listen(self, ws: ClientConnection, url: str) -> bool:
        """Play over one socket until it closes; False when its process stopped answering."""
        heard = alive = time.monotonic()  # the table's last message; any message (a pong too)
        pinged: float | None = None
        answered: set[int] = set()  # per socket: a prompt repeated after a reconnect is answered again
        while not self.stop:
            try:
                text = await asyncio.wait_for(ws.recv(), 0.25)
            except TimeoutError:
                now = time.monotonic()
                if now - heard > self.silent and self.room.moved_at > heard:
                    where = url.split("/api", 1)[0]
                    self.silences.append(f"{where} silent {now - heard:.1f} s while the room moved on")
                    return True
                # The browser's heartbeat (room.js): a ping after a quiet spell; no answer, a new socket.
                if pinged is None and now - alive > PING_AFTER_SECONDS:
                    pinged = now
                    await ws.send(json.dumps({"type": "ping"}))
                elif pinged is not None and now - pinged > PONG_WITHIN_SECONDS:
                    self.drops.append(f"{time.strftime('%X')} {url.split('/api', 1)[0]}: no pong")
                    ws.transport.abort()  # no closing handshake with a process that does not answer
                    return False
                continue
            alive, pinged = time.monotonic(), None
            message = json.loads(text)
            kind = message["type"]
            if kind != "pong":  # a pong says the process lives, not that the table talks to this socket
                heard = alive
            if kind == "match_end":
                self.summary = message
                # The end of the match is the table going on too: a fault that struck after a last
                # hand's final event is recovered by the match's end, which no new event follows.
                self.room.progressed(heard)
                return True
            if kind == "error":
                self.problems.append(f"error: {message}")
            elif kind == "welcome":
                self.seat = message["seat"]
            elif kind == "update":
                self._update(message, heard)
                trustee = (message.get("table") or {}).get("trustee") or []
                if self.seat is not None and self.seat < len(trustee) and trustee[self.seat]:
                    self.clock_ran_out = True
                prompt = message.get("prompt")
                self.last = f"{time.strftime('%X')} hand {message['hand']}, event {message['from']}"
                if prompt is not None and not prompt["automatic"] and prompt["seq"] not in answered:
                    answered.add(prompt["seq"])
                    asyncio.get_running_loop().create_task(self._answer(ws, prompt))
        return True

    def _update(self, message: dict[str, Any], now: float) -> None:
        hand, start = message["hand"], message["from"]
        events = self.events.setdefault(hand, [])
        if start != len(events):
            self.problems.append(f"hand {hand}: an update from event {start}, after {len(events)}")
            events[start:] = []
        events.extend(message["events"])
        room = self.room
        if message["events"] and (hand, len(events)) > room.reached:
            room.reached, room.moved_at = (hand, len(events)), now
            if room.frozen is not None and room.reached > room.frozen:
                room.progressed(now)

    async def _answer(self, ws: ClientConnection, prompt: dict[str, Any]) -> None:
        await asyncio.sleep(self.rng.uniform(0.01, 0.08))
        legal = prompt["legal"]
        # A win when it may; a kong whenever it may (kongs, added ones above all, are what a rebuilt
        # hand must number exactly as the table did); otherwise any legal action.
        wins = [action for action in legal if action["act"] == "hu"]
        kongs = [action for action in legal if action["act"] == "kong"]
        choice = (wins or kongs or [self.rng.choice(legal)])[0]
        action = {key: value for key, value in choice.items() if key != "seat"}
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps({"type": "act", "seq": prompt["seq"], "action": action}))


# --- one fault -------------------------------------------------------------------------------------


@dataclass
class Phase:
    fault: str
    rooms: list[Room]
    outage: float = 0.0  # seconds PostgreSQL or Redis is away
    affected: list[Room] = field(default_factory=list)
    reference: str = "fault"  # what the failover is measured from
    failover: list[float] = field(default_factory=list)
    not_recovered: int = 0
    stalled: list[str] = field(default_factory=list)  # what the players of each unrecovered room last heard
    after_kong: int = 0  # affected tables whose hand had a held added kong before the fault
    checks: list[str] = field(default_factory=list)  # what went wrong


class Chaos:
    def __init__(self, args: argparse.Namespace, folder: Path) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.balancer = Balancer()
        self.redis = RedisServer(folder)
        settings = {**SETTINGS, "lease_seconds": args.lease, "redis_url": self.redis.url}
        self.servers = [
            Server(free_port(), args.database_url, settings, folder / f"server-{index}.log")
            for index in range(3)
        ]

    def start(self) -> None:
        for server in self.servers:
            server.start()
        for server in self.servers:
            server.wait_ready()

    def close(self) -> None:
        stop_servers([server.process for server in self.servers if server.process is not None])
        with contextlib.suppress(Exception):
            self.redis.kill()

    def open_rooms(self) -> list[Room]:
        rooms = []
        for index in range(self.args.rooms):
            base = f"http://127.0.0.1:{self.servers[index % 3].port}"
            tokens = [call(base, "/api/guest", {"name": f"玩家{index}-{seat}"})["token"] for seat in range(4)]
            room = {"preset": self.args.preset, "hands": HANDS, "claim_seconds": 0.2}
            opened = call(base, "/api/rooms", room, tokens[0])
            number, invite = opened["number"], opened["invite"]
            for token in tokens[1:]:
                call(base, f"/api/rooms/{number}/sit", {"invite": invite}, token)
                call(base, f"/api/rooms/{number}/ready", {"ready": True}, token)
            call(base, f"/api/rooms/{number}/start", {}, tokens[0])
            rooms.append(Room(number, tokens))
        return rooms

    async def run_phase(self, spec: str) -> Phase:
        fault, outage = fault_and_outage(spec, self.args.outage)
        phase = Phase(fault, await asyncio.to_thread(self.open_rooms), outage)
        tasks = []
        for index, room in enumerate(phase.rooms):
            for seat, token in enumerate(room.tokens):
                order = [self.servers[(index + seat + turn) % 3].port for turn in range(3)]
                urls = [f"ws://127.0.0.1:{port}/api/rooms/{room.number}/ws?token={token}" for port in order]
                # Through Redis's outage every socket is served (relayed over PostgreSQL): 3 s. A socket
                # on a process that dies or pauses is given up by the browser's heartbeat after 4.5 s.
                silent = self.args.silent_redis if fault == "redis" else self.args.silent
                client = Client(room, urls, self.balancer, random.Random(self.rng.random()), silent)
                room.clients.append(client)
                tasks.append(asyncio.create_task(client.play()))
        try:
            await self._until(
                lambda: all(room.reached >= (0, self.args.events) for room in phase.rooms), 60, "mid-hand"
            )
            if fault in PROCESS_FAULTS:
                # Where it comes within a while, strike a table just after a held added kong: the
                # takeover then rebuilds a hand whose numbering is easy to get wrong.
                # (Not past the start of a match's last hand: the fault must find every table in play.)
                await self._until(
                    lambda: any(room.held_kong() or room.reached[0] >= LAST_HAND for room in phase.rooms),
                    self.args.kong_wait,
                    "a held kong",
                )
            await self._inject(phase)
            ended = await self._until(
                lambda: all(c.summary for r in phase.rooms for c in r.clients), 180, "the end"
            )
            if not ended:  # what the servers are doing: their threads' stacks go to their logs
                for server in self.servers:
                    server.signal(signal.SIGUSR1)
                if self.args.verbose:
                    for room in phase.rooms:
                        for seat, client in enumerate(room.clients):
                            if client.summary is None:
                                print(f"stuck {room.number}/{seat}: {client.last}", file=sys.stderr)
        finally:
            for room in phase.rooms:
                for client in room.clients:
                    client.stop = True
            await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(self._check, phase)
        return phase

    @staticmethod
    async def _until(done: Any, seconds: float, what: str) -> bool:
        deadline = time.monotonic() + seconds
        while not done():
            if time.monotonic() > deadline:
                print(f"failover: not {what} within {seconds:.0f} s", file=sys.stderr)
                return False
            await asyncio.sleep(0.05)
        return True

    async def _inject(self, phase: Phase) -> None:
        fault = phase.fault
        victim, runs_out = await self._choose(phase)
        if fault in STRUCK_FAULTS:  # from the fault: the tables stop at it, or play on through it
            # (No await from here to the signal: a room found in play here is in play when struck.)
            phase.affected = [room for room in phase.affected if not room.ended]
            for room in phase.affected:
                room.frozen = room.reached
        if self.args.verbose:
            print(f"failover: {fault} at {time.strftime('%X')}", file=sys.stderr)
        reference = await self._strike(phase, victim, runs_out)
        if fault not in STRUCK_FAULTS:
            # From the moment it is back, the first action after it (through a Redis outage a table
            # plays on for the sockets of its own process). A match that ended meanwhile went on.
            phase.affected = [room for room in phase.affected if not room.ended]
            for room in phase.affected:
                room.frozen = room.reached
        await self._until(lambda: all(room.recovered_at for room in phase.affected), 60, "recovered")
        for room in phase.affected:
            if room.recovered_at is None:
                phase.not_recovered += 1
                # What its players last heard, for whoever reads why (the servers' logs say the rest).
                heard = "; ".join(
                    f"seat {seat}: {client.last or '-'}" for seat, client in enumerate(room.clients)
                )
                phase.stalled.append(f"room {room.number}, stopped at {room.frozen}: {heard}")
            else:
                phase.failover.append(max(room.recovered_at - reference, 0.0))
        if victim is None:
            return
        if fault == "stop":
            victim.signal(signal.SIGCONT)
            await asyncio.sleep(self.args.lease)  # it gives up what it lost while the players play on
        else:
            await asyncio.to_thread(victim.wait_exit)
            victim.start()
            await asyncio.to_thread(victim.wait_ready)

    async def _choose(self, phase: Phase) -> tuple[Server | None, datetime | None]:
        """For a process fault, the process owning most of the phase's tables (and when its leases
        run out), whose tables are the affected ones; otherwise every table is affected."""
        # A match that ended already is not struck (its lease may not be given back yet): the fault
        # must find the affected tables in play.
        numbers = {room.number for room in phase.rooms if not room.ended}
        owned = [
            lease for lease in await asyncio.to_thread(leases, self.args.database_url) if lease[0] in numbers
        ]
        if phase.fault not in PROCESS_FAULTS:
            phase.affected = list(phase.rooms)
            return None, None
        counts = {server.pid: 0 for server in self.servers}
        for _number, pid, _expires in owned:
            counts[pid] = counts.get(pid, 0) + 1
        kongs = {room.number for room in phase.rooms if room.held_kong()}
        for number, pid, _expires in owned:
            counts[pid] += 1000 * (number in kongs)  # the owner of a table after a held kong first
        victim = next(s for s in self.servers if s.pid == max(counts, key=lambda pid: counts[pid]))
        mine = {number for number, pid, _expires in owned if pid == victim.pid}
        phase.affected = [room for room in phase.rooms if room.number in mine]
        phase.after_kong = len(mine & kongs)
        return victim, max((expires for _n, pid, expires in owned if pid == victim.pid), default=None)

    async def _strike(self, phase: Phase, victim: Server | None, runs_out: datetime | None) -> float:
        """Cause the fault; returns the moment the failover is measured from."""
        fault = phase.fault
        if victim is not None:
            victim.signal({"kill": signal.SIGKILL, "term": signal.SIGTERM, "stop": signal.SIGSTOP}[fault])
            if fault == "stop" and runs_out is not None:
                # From the moment its leases ran out (the processes' clocks are this machine's).
                phase.reference = "lease expiry"
                left = (runs_out - datetime.now(UTC).replace(tzinfo=None)).total_seconds()
                return time.monotonic() + max(left, 0.0)
            return time.monotonic()
        if fault == "postgres":
            phase.reference = "back"
            control = shlex.split(self.args.pg_ctl)
            await asyncio.to_thread(subprocess.run, [*control, "stop", "-m", "fast"], check=True)
            await asyncio.sleep(phase.outage)
            await asyncio.to_thread(subprocess.run, [*control, "start"], check=True)
            return time.monotonic()
        # Redis: the players play on through it, so the failover counts from the fault.
        phase.reference = "fault"
        self.redis.kill()
        struck = time.monotonic()
        await asyncio.sleep(phase.outage)
        await asyncio.to_thread(self.redis.start_again)
        return struck

    def _check(self, phase: Phase) -> None:
        base = f"http://127.0.0.1:{self.servers[0].port}"
        for room in phase.rooms:
            label = f"room {room.number}"
            for index, client in enumerate(room.clients):
                who = f"{label} player {index}"
                phase.checks += [f"{who}: {problem}" for problem in client.problems]
                phase.checks += [f"{who}: {silence}" for silence in client.silences]
                if client.reconnects > self.args.max_reconnects:
                    phase.checks.append(f"{who}: {client.reconnects} reconnects; {client.drops}")
            if any(client.summary is None for client in room.clients):
                phase.checks.append(f"{label}: a match did not end for every client")
                continue
            record = call(base, f"/api/rooms/{room.number}/record", token=room.tokens[0])  # the host reads it
            phase.checks += self._check_against_record(room, record)

    @staticmethod
    def _check_against_record(room: Room, record: dict[str, Any]) -> list[str]:
        """The stored record, replayed here, against what every client was told: the totals, and each
        hand's events as the client's seat sees them, one by one (kind and seat), none missing and
        none twice."""
        label = f"room {room.number}"
        replayed = replay(read_record(record))
        problems = []
        if len(record["hands"]) != len(replayed.states) or len(replayed.states) != HANDS:
            problems.append(f"{label}: {len(record['hands'])} hands stored, {HANDS} played")
        for client in room.clients:
            who = f"{label} seat {client.seat}"
            assert client.summary is not None
            if client.summary["totals"] != replayed.match.totals:
                problems.append(f"{who}: totals {client.summary['totals']}, replayed {replayed.match.totals}")
            for index, state in enumerate(replayed.states):
                told = kinds(client.events.get(index, []))
                stored = kinds(events_as_dicts(events_for(state, client.seat)))
                if told != stored:
                    first = next(
                        (n for n, pair in enumerate(zip(told, stored, strict=False)) if pair[0] != pair[1]),
                        None,
                    )
                    problems.append(
                        f"{who} hand {index}: told {len(told)} events, the record has {len(stored)}"
                        f" (first difference at {first})"
                    )
        return problems


def kinds(events: list[dict[str, Any]]) -> list[tuple[str, int | None]]:
    """A hand's events as (kind, seat), what every view of them shares. A held added kong is told as
    announced and then completed, and replayed here as completed only: the announcement is left out."""
    return [
        (event["event"], event.get("seat"))
        for event in events
        if not (event["event"] == "kong_added" and not event.get("completed", True))
    ]


def summarise(phase: Phase) -> dict[str, Any]:
    clients = [client for room in phase.rooms for client in room.clients]
    reconnects = [client.reconnects for client in clients]
    seconds = phase.failover
    return {
        "rooms": len(phase.rooms),
        "affected": len(phase.affected),
        "failover_from": phase.reference,
        "failover_s": {
            "median": round(statistics.median(seconds), 2) if seconds else None,
            "max": round(max(seconds), 2) if seconds else None,
        },
        "not_recovered": phase.not_recovered,
        "stalled": phase.stalled,
        "taken_over_after_a_held_kong": phase.after_kong,
        "reconnects_per_client": {"max": max(reconnects), "mean": round(statistics.mean(reconnects), 2)},
        "silent_sockets": sum(len(client.silences) for client in clients),
        "silences": [silence for client in clients for silence in client.silences][:10],
        "clocks_run_out": sum(client.clock_ran_out for client in clients),
        "matches_finished": sum(all(c.summary for c in room.clients) for room in phase.rooms),
        "problems": phase.checks,
        "drops": {
            f"{room.number}/{seat}": client.drops
            for room in phase.affected
            for seat, client in enumerate(room.clients)
            if client.drops
        },
    }


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    chaos = Chaos(args, folder)
    try:
        await asyncio.to_thread(chaos.start)
        figures = {}
        for fault in args.faults:
            started = time.monotonic()
            figures[fault] = summarise(await chaos.run_phase(fault))
            figures[fault]["phase_seconds"] = round(time.monotonic() - started, 1)
            if args.verbose:
                print(f"failover: {fault}: {json.dumps(figures[fault], ensure_ascii=False)}", file=sys.stderr)
            figures[fault].pop("drops")
    finally:
        await asyncio.to_thread(chaos.close)
    return {"lease_seconds": args.lease, "outage_seconds": args.outage, "faults": figures}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default=os.environ.get("HUPAI_BENCH_DATABASE_URL"))
    parser.add_argument(
        "--pg-ctl", default=os.environ.get("HUPAI_TEST_PG_CTL"), help="e.g. 'pg_ctlcluster 15 main'"
    )
    parser.add_argument("--faults", default=",".join(FAULTS), help=f"some of {','.join(FAULTS)}")
    parser.add_argument("--rooms", type=int, default=6, help="rooms per fault (4-hand matches)")
    parser.add_argument("--preset", default="nanjing")
    parser.add_argument("--lease", type=float, default=5.0, help="the servers' lease seconds (their default)")
    parser.add_argument("--outage", type=float, default=3.0, help="seconds PostgreSQL or Redis is away")
    parser.add_argument("--events", type=int, default=20, help="events into the first hand before the fault")
    parser.add_argument("--silent", type=float, default=10.0, help="seconds a socket may hear nothing")
    parser.add_argument(
        "--silent-redis",
        type=float,
        default=3.0,
        help="the same, through a Redis outage (nobody waits on it)",
    )
    parser.add_argument("--max-reconnects", type=int, default=2, help="per client per fault")
    parser.add_argument(
        "--kong-wait", type=float, default=20.0, help="seconds a process fault waits for a held added kong"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--logs", type=Path, help="keep the servers' logs in this folder")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--verbose", action="store_true", help="each phase's figures and drops as it ends")
    args = parser.parse_args()
    args.faults = [fault for fault in args.faults.split(",") if fault]
    if unknown := {fault_and_outage(spec, 0)[0] for spec in args.faults} - set(FAULTS):
        parser.error(f"unknown faults: {', '.join(sorted(unknown))}")
    if not (args.database_url or "").startswith("postgresql"):
        parser.error("--database-url postgresql+psycopg://… is needed (many processes share PostgreSQL)")
    if any(spec.startswith("postgres") for spec in args.faults) and not args.pg_ctl:
        parser.error("the postgres fault needs --pg-ctl (e.g. 'pg_ctlcluster 15 main')")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.logs or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        with fresh_database(args.database_url) as url:
            args.database_url = url
            figures = asyncio.run(run(args, folder))
    ok = all(
        not fault["problems"] and not fault["not_recovered"] and not fault["clocks_run_out"]
        for fault in figures["faults"].values()
    )
    figures["ok"] = ok
    if args.json:
        print(json.dumps(figures, indent=1, ensure_ascii=False))
    else:
        for fault, each in figures["faults"].items():
            failover = each["failover_s"]
            print(
                f"{fault:9} {each['affected']}/{each['rooms']} tables: "
                f"failover (from {each['failover_from']}) "
                f"median {failover['median']} s, slowest {failover['max']} s; reconnects per client "
                f"max {each['reconnects_per_client']['max']}, mean {each['reconnects_per_client']['mean']}; "
                f"silent sockets {each['silent_sockets']}; {each['matches_finished']} matches finished"
            )
            for problem in each["problems"]:
                print(f"    {problem}")
        print("all checks passed" if ok else "CHECKS FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
