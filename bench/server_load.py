"""Server load: N tables of four network players on loopback, with action latency and message rate.

    python bench/server_load.py                   # 250 tables (1,000 connections) for 60 s
    python bench/server_load.py --quick           # 10 tables for 10 s, to check that it runs
    python bench/server_load.py --server http://127.0.0.1:8000 --tables 50   # against a running server
    python bench/server_load.py --servers 3 --tables 750 --database-url postgresql+psycopg://…
                                                   # three processes on PostgreSQL and Redis, then kill -9

It starts ``hupai``'s server (uvicorn, SQLite in a temporary folder) in its own process, opens the
rooms over the HTTP API (four guests, three sit and get ready; once every player is at its table,
the host starts a 16-hand match), and plays every seat from this process over websockets: each
player answers its prompt after a think time drawn from 0.5-1.5 × ``--think`` seconds (a win when
it may, otherwise any legal action).

Action latency is the time from sending an answer to receiving the update that shows it applied (the
prompt with that number gone): the server's whole path — edge checks, the table's inbox, the engine,
the stored move, and the updates to all four seats. An answer to a claim before the room's
``claim_seconds`` have run is held by the table until then; its latency counts from that moment.
Figures are taken after a warm-up. The players' process collects no garbage while measuring (its
own pauses would count as latency); ``players_lag_ms`` says how late its event loop woke. Target
(issue 6): 250 tables at once with p99 under 100 ms on a 2-core machine.

With ``--servers N`` it starts a Redis (Debian's ``redis-server``) and N server processes on the
database of ``--database-url`` (PostgreSQL), opens the rooms at the processes in turn and connects
each table's four players to different processes, so most sockets are relayed to their table's
owner (docs/deploy.md). It reports each process's CPU, then kills one process (kill -9) and measures
the failover: for every table that process owned, the time from the kill to the first action its
players see applied afterwards. Targets (issue 17): p99 under 100 ms at 750 tables over three
processes; failover under 10 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

SERVE = """
import json, resource, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
from hupai.server.app import serve
from hupai.server.settings import Settings
# Hundreds of guests and rooms from this one address: lift the per-address quotas.
quotas = {"guests_per_address_per_hour": 10**9, "rooms_per_address_per_hour": 10**9,
          "room_lookups_per_address_per_minute": 10**9,
          "max_sockets_per_address": 10**9}
settings = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}  # other settings (bench/window_timing.py)
serve(Settings.from_env(database_url=sys.argv[1], **quotas, **settings), port=int(sys.argv[2]),
      log_level="warning")
"""


@dataclass
class Stats:
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    own_lag: list[float] = field(default_factory=list)  # the players' loop, late by (see own_lag)
    received: int = 0
    sent: int = 0
    # Error or ignored messages while measuring (should stay none), by kind: "error: <code>",
    # "ignored: <reason>". Not before: 1,000 rooms started at once deal their first hands before
    # some of the contributions to their walls arrive (refused as deal_closed: harmless, a missing
    # contribution counts as empty), which no real table sees.
    refusals: Counter[str] = field(default_factory=Counter)
    dropped: int = 0  # connections lost
    matches_ended: int = 0
    joined: int = 0  # players welcomed at their table at least once
    join_seconds: float = 0.0  # from the first socket opened to the last player welcomed
    server_cpu: float = float("nan")  # CPU seconds the server used while measuring
    server_cpus: list[float] = field(default_factory=list)  # per process, with --servers
    server_memory_mb: list[float] = field(default_factory=list)  # each process's peak resident memory
    client_cpu: float = 0.0  # and these players (this process)
    pool_cpu: float = 0.0  # the server's child processes: the searching bots' pool (--bots expert)
    killed_at: float | None = None  # failover: when the owner was killed
    failover_tables: int = 0  # tables the killed process owned
    failover_seconds: list[float] = field(default_factory=list)  # each one's time to its next action
    failover_missing: int = 0  # tables that had not moved on within a minute
    recovered: dict[str, float] = field(default_factory=dict)  # room → first action seen after it
    reached: dict[str, tuple[int, int]] = field(default_factory=dict)  # room → (hand, events) seen


# --- the server --------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(
    folder: Path, url: str | None = None, redis_url: str | None = None, settings: dict[str, Any] | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    url = url or f"sqlite:///{folder / 'load.sqlite3'}"
    env = {**os.environ, **({"HUPAI_REDIS_URL": redis_url} if redis_url else {})}
    command = [sys.executable, "-c", SERVE, url, str(port), json.dumps(settings or {})]
    process = subprocess.Popen(command, start_new_session=True, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/health", timeout=2).close()
            return process, base
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)


def start_redis(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("--servers needs redis-server (Debian: apt install redis-server)")
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen([*command, "--dir", str(folder)], stdout=subprocess.DEVNULL)
    for _ in range(100):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return process, f"redis://127.0.0.1:{port}/0"
        time.sleep(0.05)
    raise SystemExit("redis-server did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (Linux): the searching bots' pool and its forkserver."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, queue = [], [pid]
    while queue:
        below = children.get(queue.pop(), [])
        found.extend(below)
        queue.extend(below)
    return found


def family_cpu_seconds(pid: int) -> float:
    """CPU time of the processes below ``pid`` that are alive now."""
    total = 0.0
    for child in descendants(pid):
        with contextlib.suppress(OSError):
            total += cpu_seconds(child)
    return total


def peak_memory_mb(pid: int) -> float:
    """The most resident memory a process has held (VmHWM, Linux), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# --- rooms over the HTTP API -------------------------------------------------------------------------


def call(base: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers=headers,
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def open_room(base: str, index: int, bots: str | None = None) -> tuple[str, list[str]]:
    """A 16-hand room with four guests in it, ready to start (``bots``: one guest, and bots of that
    level fill the other seats at the start); returns its number and the guests' tokens."""
    people = 1 if bots else 4
    tokens = [call(base, "/api/guest", {"name": f"玩家{index}-{seat}"})["token"] for seat in range(people)]
    room: dict[str, Any] = {"preset": "nanjing", "hands": 16, "claim_seconds": CLAIM_SECONDS}
    if bots:
        room.update(preset="nanning", bot_level=bots)
    opened = call(base, "/api/rooms", room, tokens[0])
    number, invite = opened["number"], opened["invite"]
    for token in tokens[1:]:
        call(base, f"/api/rooms/{number}/sit", {"invite": invite}, token)
        call(base, f"/api/rooms/{number}/ready", {"ready": True}, token)
    return number, tokens


def start_rooms(bases: list[str], rooms: list[tuple[str, list[str]]], spread: float) -> None:
    """The hosts start their matches, once everyone is at the table (a room started before its
    players arrive plays their first prompts by 托管, and their late answers are then refused), one
    after another over ``spread`` seconds: tables started at the same moment would end their hands
    together, a burst no real server sees."""
    began = time.perf_counter()

    def start(index: int) -> None:
        time.sleep(max(0.0, began + spread * index / len(rooms) - time.perf_counter()))
        number, tokens = rooms[index]
        call(bases[index % len(bases)], f"/api/rooms/{number}/start", {}, tokens[0])

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(start, range(len(rooms))))


# A claim window is never released sooner than this after the discard (the rooms' setting).
CLAIM_SECONDS = 0.6
LAG_PROBE_SECONDS = 0.005
JOIN_LIMIT_SECONDS = 600  # how long the players may take to reach their tables


# --- the players -------------------------------------------------------------------------------------


class Player:
    """One seat's client: answers each prompt once, after a think time, and times the answers.
    When its socket closes it reconnects, to the next server, with ``hand``/``since``."""

    def __init__(
        self, socket_urls: list[str], room: str, stats: Stats, think: float, rng: random.Random
    ) -> None:
        self.socket_urls = socket_urls
        self.room = room
        self.stats = stats
        self.think = think
        self.rng = rng
        self.answered: set[int] = set()
        self.seat: int | None = None
        self.contributed: set[int] = set()  # the hands this player sent a contribution for
        self.waiting: dict[int, float] = {}  # prompt number → when its answer was sent
        self.prompted: dict[int, float] = {}  # prompt number → when it arrived
        self.hand = -1
        self.events = 0
        self.done = False

    async def play(self, stop: asyncio.Event) -> None:
        turn = 0
        while not stop.is_set() and not self.done:
            url = self.socket_urls[turn % len(self.socket_urls)]
            try:
                async with connect(
                    f"{url}&hand={self.hand}&since={self.events}", max_size=1 << 20, open_timeout=120
                ) as ws:
                    # An answer sent as the last socket closed may be lost: a prompt repeated on
                    # this one is answered again (a second answer that did arrive is ignored).
                    self.answered = set()
                    reader = asyncio.create_task(self._read(ws))
                    stopped = asyncio.create_task(stop.wait())
                    await asyncio.wait({reader, stopped}, return_when=asyncio.FIRST_COMPLETED)
                    reader.cancel()
                    stopped.cancel()
            except (ConnectionClosed, OSError, TimeoutError):
                pass
            if not stop.is_set() and not self.done:
                self.stats.dropped += 1
                turn += 1
                await asyncio.sleep(0.2)

    async def _read(self, ws: ClientConnection) -> None:
        stats = self.stats
        async for text in ws:
            now = time.perf_counter()
            message = json.loads(text)
            if message["type"] == "update":
                self.hand, self.events = message["hand"], message["from"] + len(message["events"])
                reached = (self.hand, self.events)
                if stats.killed_at is None:
                    stats.reached[self.room] = max(stats.reached.get(self.room, (-1, 0)), reached)
                elif reached > stats.reached.get(self.room, (-1, 0)):  # play went on past the kill
                    stats.recovered.setdefault(self.room, now)
            if stats.measuring:
                stats.received += 1
            kind = message["type"]
            if kind in ("error", "ignored") and stats.measuring:
                stats.refusals[f"{kind}: {message.get('code') or message.get('reason')}"] += 1
            elif kind == "match_end":
                stats.matches_ended += 1
                self.done = True
                return
            elif kind == "welcome":
                if self.seat is None:
                    stats.joined += 1
                self.seat = message["seat"]
            elif kind == "deal_commitment" and self.seat is not None:
                self._contribute(ws, message)
            elif kind == "update":
                prompt = message.get("prompt")
                for seq, sent_at in list(self.waiting.items()):
                    if prompt is None or prompt["seq"] != seq:
                        del self.waiting[seq]
                        if stats.measuring:
                            stats.latencies.append(now - sent_at)
                if prompt is not None and not prompt["automatic"] and prompt["seq"] not in self.answered:
                    self.answered.add(prompt["seq"])
                    self.prompted[prompt["seq"]] = now
                    asyncio.get_running_loop().create_task(self._answer(ws, prompt))

    def _contribute(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        """As a browser does: a random contribution to the next hand's wall (fair deals)."""
        assert self.seat is not None
        if not message["contributed"][self.seat] and message["hand"] not in self.contributed:
            self.contributed.add(message["hand"])
            value = secrets.token_hex(32)
            entropy = json.dumps({"type": "entropy", "hand": message["hand"], "value": value})
            asyncio.get_running_loop().create_task(self._send(ws, entropy))

    @staticmethod
    async def _send(ws: ClientConnection, text: str) -> None:
        with contextlib.suppress(ConnectionClosed):
            await ws.send(text)

    async def _answer(self, ws: ClientConnection, prompt: dict[str, Any]) -> None:
        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        legal = prompt["legal"]
        wins = [action for action in legal if action["act"] == "hu"]
        choice = wins[0] if wins else self.rng.choice(legal)
        action = {key: value for key, value in choice.items() if key != "seat"}
        sent = time.perf_counter()
        opened = self.prompted.pop(prompt["seq"], sent)
        if any(option["act"] == "pass" for option in legal):  # held until the window's release
            sent = max(sent, opened + CLAIM_SECONDS)
        self.waiting[prompt["seq"]] = sent
        if self.stats.measuring:
            self.stats.sent += 1
        try:
            await ws.send(json.dumps({"type": "act", "seq": prompt["seq"], "action": action}))
        except ConnectionClosed:
            self.waiting.pop(prompt["seq"], None)


# --- the run -------------------------------------------------------------------------------------


async def load(
    bases: list[str], rooms: list[tuple[str, list[str]]], args: argparse.Namespace, pids: list[int]
) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    ws_bases = [base.replace("http", "ws", 1) for base in bases]
    rng = random.Random(args.seed)
    tasks = []
    for index, (number, tokens) in enumerate(rooms):
        for seat, token in enumerate(tokens):
            # Each seat at another process than the one before: most sockets are relayed to the owner.
            order = [ws_bases[(index + seat + turn) % len(ws_bases)] for turn in range(len(ws_bases))]
            # delta=1 as the browser and the network bot ask: patches after a hand's first view.
            urls = [f"{base}/api/rooms/{number}/ws?token={token}&delta=1" for base in order]
            player = Player(urls, number, stats, args.think, rng_for(rng))
            tasks.append(asyncio.create_task(player.play(stop)))
            await asyncio.sleep(0.002)  # a gentle ramp, as people arrive
    # Every player seated before the warm-up: sockets still joining while measuring would count
    # their admission (a few database reads each) as the tables' cost.
    joining = time.perf_counter()
    while stats.joined < len(tasks) and time.perf_counter() - joining < JOIN_LIMIT_SECONDS:
        await asyncio.sleep(0.1)
    stats.join_seconds = time.perf_counter() - joining
    await asyncio.to_thread(start_rooms, bases, rooms, args.ramp)
    await asyncio.sleep(args.warmup)
    # The players are 4,000 devices in one process: their own garbage collections (a full one of
    # the 4,000 sockets takes ~0.3 s) would be counted as the server's latency. None while measuring.
    gc.collect()
    gc.freeze()
    gc.disable()
    lag = asyncio.create_task(own_lag(stats))
    cpu_before = [cpu_seconds(pid) for pid in pids]
    pools_before = [family_cpu_seconds(pid) for pid in pids]
    own_before = time.process_time()
    stats.measuring = True
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    lag.cancel()
    gc.enable()
    gc.unfreeze()
    stats.client_cpu = time.process_time() - own_before
    stats.server_cpus = [cpu_seconds(pid) - before for pid, before in zip(pids, cpu_before, strict=True)]
    stats.server_cpu = sum(stats.server_cpus)
    stats.pool_cpu = sum(
        family_cpu_seconds(pid) - before for pid, before in zip(pids, pools_before, strict=True)
    )
    stats.server_memory_mb = [peak_memory_mb(pid) for pid in pids]
    if args.servers > 1 and args.failover:
        await failover(stats, args, pids[0])
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


async def own_lag(stats: Stats) -> None:
    """How late the players' event loop wakes (a sleep of 5 ms): their delays count as latency."""
    while True:
        started = time.perf_counter()
        await asyncio.sleep(LAG_PROBE_SECONDS)
        stats.own_lag.append(time.perf_counter() - started - LAG_PROBE_SECONDS)


async def failover(stats: Stats, args: argparse.Namespace, victim: int) -> None:
    """Kill -9 the first process and wait until every table it owned has moved on elsewhere."""
    owned = await asyncio.to_thread(rooms_owned_by, args.database_url, victim)
    stats.failover_tables = len(owned)
    stats.killed_at = time.perf_counter()
    os.killpg(victim, signal.SIGKILL)
    deadline = stats.killed_at + 60
    while time.perf_counter() < deadline and not owned <= set(stats.recovered):
        await asyncio.sleep(0.1)
    stats.failover_seconds = sorted(
        stats.recovered[room] - stats.killed_at for room in owned & set(stats.recovered)
    )
    stats.failover_missing = len(owned - set(stats.recovered))


def rooms_owned_by(url: str, pid: int) -> set[str]:
    """The rooms whose table lease a process holds (node names end in ``-<pid>-<hex>``)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT r.number, l.owner FROM table_leases l JOIN rooms r ON r.id = l.room_id")
            ).all()
    finally:
        engine.dispose()
    return {number for number, owner in rows if int(str(owner).rsplit("-", 2)[1]) == pid}


def rng_for(parent: random.Random) -> random.Random:
    return random.Random(parent.random())


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(fraction * len(ordered)), len(ordered) - 1)]


def fill_in_defaults(args: argparse.Namespace) -> None:
    if args.quick:
        args.tables, args.seconds, args.warmup = 10, 10.0, 3.0
    if args.ramp is None:
        args.ramp = min(0.06 * args.tables, 60.0)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring time")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before measuring")
    parser.add_argument(
        "--ramp",
        type=float,
        help="seconds over which the rooms are started (default: 0.06 a table, at most 60)",
    )
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player takes to answer")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--server", help="a running server's address (default: start one)")
    parser.add_argument("--quick", action="store_true", help="10 tables for 10 s")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--servers", type=int, default=1, help="server processes (more than 1: Redis)")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("HUPAI_BENCH_DATABASE_URL"),
        help="the servers' database (default: SQLite in a temporary folder; --servers needs PostgreSQL)",
    )
    parser.add_argument("--no-failover", dest="failover", action="store_false", help="skip the kill -9")
    parser.add_argument(
        "--bots",
        choices=["random", "efficiency", "strong", "expert"],
        help="one player a table (Nanning) and bots of this level in the other seats, thinking as people do",
    )
    args = parser.parse_args()
    if args.servers > 1 and not (args.database_url or "").startswith("postgresql"):
        parser.error(
            "--servers above 1 needs --database-url postgresql+psycopg://… (or HUPAI_BENCH_DATABASE_URL)"
        )
    fill_in_defaults(args)
    # Stopped from outside (timeout, Ctrl-C): still stop the servers this run started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a thousand sockets in this process

    with tempfile.TemporaryDirectory() as folder:
        processes: list[subprocess.Popen[bytes]] = []
        redis: subprocess.Popen[bytes] | None = None
        try:
            if args.server:
                bases = [args.server.rstrip("/")]
            else:
                redis_url = None
                if args.servers > 1:
                    redis, redis_url = start_redis(Path(folder))
                bases = []
                for _ in range(args.servers):
                    process, base = start_server(Path(folder), args.database_url, redis_url)
                    processes.append(process)
                    bases.append(base)
            started = time.perf_counter()
            with ThreadPoolExecutor(8) as pool:
                rooms = list(
                    pool.map(
                        lambda index: open_room(bases[index % len(bases)], index, args.bots),
                        range(args.tables),
                    )
                )
            setup = time.perf_counter() - started
            stats = asyncio.run(load(bases, rooms, args, [process.pid for process in processes]))
        finally:
            stop_servers(processes)
            if redis is not None:
                redis.kill()
                redis.wait(timeout=10)

    if not stats.latencies:
        raise SystemExit("no action completed while measuring")
    report(stats, args, setup)
    return 0


def stop_servers(processes: list[subprocess.Popen[bytes]]) -> None:
    """Ask every server to stop (each lets its tables go), and kill any still running after 30 s: a
    process left behind would hold its port and its tables' leases in the next run."""
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    for process in processes:
        try:
            process.wait(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            print(f"server {process.pid} did not stop within 30 s: killed", file=sys.stderr)
            show_stacks(process.pid)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def show_stacks(pid: int) -> None:
    """What a server that will not stop is doing (py-spy, when installed), before it is killed."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if Path(spy).exists():
        subprocess.run([spy, "dump", "--pid", str(pid)], stdout=sys.stderr, check=False, timeout=30)


def report(stats: Stats, args: argparse.Namespace, setup: float) -> None:
    window = args.seconds
    figures = {
        "tables": args.tables,
        "connections": (1 if args.bots else 4) * args.tables,
        "bots": args.bots,
        "think_seconds": args.think,
        "measured_seconds": window,
        "room_setup_seconds": round(setup, 1),
        "join_seconds": round(stats.join_seconds, 1),  # until every player was at its table
        "ramp_seconds": args.ramp,  # the rooms started one after another over this
        "actions": len(stats.latencies),
        "actions_per_second": round(len(stats.latencies) / window, 1),
        "latency_ms": {
            "p50": round(1000 * statistics.median(stats.latencies), 1),
            "p90": round(1000 * percentile(stats.latencies, 0.90), 1),
            "p99": round(1000 * percentile(stats.latencies, 0.99), 1),
            "max": round(1000 * max(stats.latencies), 1),
        },
        "messages_per_second": round((stats.received + stats.sent) / window, 1),
        "servers": max(len(stats.server_cpus), 1),
        "server_cpu_percent": round(100 * stats.server_cpu / window, 1),
        "server_cpu_percent_each": [round(100 * cpu / window, 1) for cpu in stats.server_cpus],
        # what a host pays for (issue 34): one core's percent per table, and the memory it takes
        "server_cpu_percent_per_table": round(100 * stats.server_cpu / window / args.tables, 3),
        "server_memory_mb": [round(mb) for mb in stats.server_memory_mb],
        "search_pool_cpu_percent": round(100 * stats.pool_cpu / window, 1),  # beside the server's own
        "players_cpu_percent": round(100 * stats.client_cpu / window, 1),
        # the players' own delays, counted in every latency above: they should stay small
        "players_lag_ms": {
            "p99": round(1000 * percentile(stats.own_lag, 0.99), 1) if stats.own_lag else None,
            "max": round(1000 * max(stats.own_lag), 1) if stats.own_lag else None,
        },
        "refused": stats.refusals.total(),
        "refusals": dict(stats.refusals.most_common()),
        "dropped": stats.dropped,
    }
    if stats.killed_at is not None:
        seconds = stats.failover_seconds
        figures["failover"] = {
            "tables": stats.failover_tables,
            "recovered": len(seconds),
            "missing": stats.failover_missing,
            "median_s": round(statistics.median(seconds), 2) if seconds else None,
            "max_s": round(max(seconds), 2) if seconds else None,
        }
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        latency = figures["latency_ms"]
        print(
            f"{args.tables} tables, {figures['connections']} connections, think {args.think} s, "
            f"{window:.0f} s measured"
        )
        print(f"  actions: {figures['actions']} ({figures['actions_per_second']}/s)")
        print(
            f"  action latency: p50 {latency['p50']} ms, p90 {latency['p90']} ms, "
            f"p99 {latency['p99']} ms, max {latency['max']} ms"
        )
        print(f"  messages: {figures['messages_per_second']}/s (both ways)")
        print(
            f"  CPU: server {figures['server_cpu_percent']}%, "
            f"players {figures['players_cpu_percent']}% of one core (late by p99 "
            f"{figures['players_lag_ms']['p99']} ms); "
            f"{figures['server_cpu_percent_per_table']}% a table"
        )
        print(f"  server memory (peak): {', '.join(f'{mb} MiB' for mb in figures['server_memory_mb'])}")
        if args.bots:
            print(
                f"  bots: {args.bots} in three seats a table; "
                f"their search pool {figures['search_pool_cpu_percent']}% of one core"
            )
        if len(stats.server_cpus) > 1:
            each = ", ".join(f"{cpu}%" for cpu in figures["server_cpu_percent_each"])
            print(f"  CPU per server process: {each}")
        refused = f"{figures['refused']} {figures['refusals']}"
        print(f"  refused messages: {refused}, dropped connections: {stats.dropped}")
        wanted = 250 * max(args.servers, 1)
        verdict = "met" if latency["p99"] < 100 and args.tables >= wanted else "not met"
        print(f"  target ({wanted} tables, p99 < 100 ms): {verdict}")
        if "failover" in figures:
            fail = figures["failover"]
            print(
                f"  failover after kill -9: {fail['recovered']}/{fail['tables']} tables moved on, "
                f"median {fail['median_s']} s, max {fail['max_s']} s (target < 10 s)"
            )


if __name__ == "__main__":
    sys.exit(main())
