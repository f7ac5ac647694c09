"""Server load: N tables of four network players on loopback, with action latency and message rate.

    python bench/server_load.py                   # 250 tables (1,000 connections) for 60 s
    python bench/server_load.py --quick           # 10 tables for 10 s, to check that it runs
    python bench/server_load.py --server http://127.0.0.1:8000 --tables 50   # against a running server

It starts ``hupai``'s server (uvicorn, SQLite in a temporary folder) in its own process, opens the
rooms over the HTTP API (four guests, three sit and get ready, the host starts a 16-hand match), and
plays every seat from this process over websockets: each player answers its prompt after a think
time drawn from 0.5-1.5 × ``--think`` seconds (a win when it may, otherwise any legal action).

Action latency is the time from sending an answer to receiving the update that shows it applied (the
prompt with that number gone): the server's whole path — edge checks, the table's inbox, the engine,
the stored move, and the updates to all four seats. An answer to a claim before the room's
``claim_seconds`` have run is held by the table until then; its latency counts from that moment.
Figures are taken after a warm-up. Target
(issue 6): 250 tables at once with p99 under 100 ms on a 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

SERVE = """
import resource, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
from hupai.server.app import serve
from hupai.server.settings import Settings
# Hundreds of guests and rooms from this one address: lift the per-address quotas.
quotas = {"guests_per_address_per_hour": 10**9, "rooms_per_address_per_hour": 10**9}
serve(Settings.from_env(database_url=sys.argv[1], **quotas), port=int(sys.argv[2]), log_level="warning")
"""


@dataclass
class Stats:
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    received: int = 0
    sent: int = 0
    refused: int = 0  # error or ignored messages: should stay 0
    dropped: int = 0  # connections lost
    matches_ended: int = 0
    server_cpu: float = float("nan")  # CPU seconds the server used while measuring
    client_cpu: float = 0.0  # and these players (this process)


# --- the server --------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    url = f"sqlite:///{folder / 'load.sqlite3'}"
    process = subprocess.Popen([sys.executable, "-c", SERVE, url, str(port)], start_new_session=True)
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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


def open_room(base: str, index: int) -> tuple[str, list[str]]:
    """A started 16-hand room with four guests in it; returns its number and their tokens."""
    tokens = [call(base, "/api/guest", {"name": f"玩家{index}-{seat}"})["token"] for seat in range(4)]
    room = {"preset": "nanjing", "hands": 16, "claim_seconds": CLAIM_SECONDS}
    number = call(base, "/api/rooms", room, tokens[0])["number"]
    for token in tokens[1:]:
        call(base, f"/api/rooms/{number}/sit", {}, token)
        call(base, f"/api/rooms/{number}/ready", {"ready": True}, token)
    call(base, f"/api/rooms/{number}/start", {}, tokens[0])
    return number, tokens


# A claim window is never released sooner than this after the discard (the rooms' setting).
CLAIM_SECONDS = 0.6


# --- the players -------------------------------------------------------------------------------------


class Player:
    """One seat's client: answers each prompt once, after a think time, and times the answers."""

    def __init__(self, socket_url: str, stats: Stats, think: float, rng: random.Random) -> None:
        self.socket_url = socket_url
        self.stats = stats
        self.think = think
        self.rng = rng
        self.answered: set[int] = set()
        self.seat: int | None = None
        self.contributed: set[int] = set()  # the hands this player sent a contribution for
        self.waiting: dict[int, float] = {}  # prompt number → when its answer was sent
        self.prompted: dict[int, float] = {}  # prompt number → when it arrived

    async def play(self, stop: asyncio.Event) -> None:
        try:
            async with connect(self.socket_url, max_size=1 << 20, open_timeout=120) as ws:
                reader = asyncio.create_task(self._read(ws))
                stopped = asyncio.create_task(stop.wait())
                await asyncio.wait({reader, stopped}, return_when=asyncio.FIRST_COMPLETED)
                reader.cancel()
                stopped.cancel()
        except (ConnectionClosed, OSError, TimeoutError):
            if not stop.is_set():
                self.stats.dropped += 1

    async def _read(self, ws: ClientConnection) -> None:
        stats = self.stats
        async for text in ws:
            now = time.perf_counter()
            message = json.loads(text)
            if stats.measuring:
                stats.received += 1
            kind = message["type"]
            if kind in ("error", "ignored"):
                stats.refused += 1
            elif kind == "match_end":
                stats.matches_ended += 1
                return
            elif kind == "welcome":
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
    base: str, rooms: list[tuple[str, list[str]]], args: argparse.Namespace, server_pid: int | None
) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    ws_base = base.replace("http", "ws", 1)
    rng = random.Random(args.seed)
    tasks = []
    for number, tokens in rooms:
        for token in tokens:
            seat = Player(f"{ws_base}/api/rooms/{number}/ws?token={token}", stats, args.think, rng_for(rng))
            tasks.append(asyncio.create_task(seat.play(stop)))
            await asyncio.sleep(0.002)  # a gentle ramp, as people arrive
    await asyncio.sleep(args.warmup)
    cpu_before = cpu_seconds(server_pid) if server_pid else 0.0
    own_before = time.process_time()
    stats.measuring = True
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    stats.client_cpu = time.process_time() - own_before
    if server_pid:
        stats.server_cpu = cpu_seconds(server_pid) - cpu_before
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def rng_for(parent: random.Random) -> random.Random:
    return random.Random(parent.random())


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(fraction * len(ordered)), len(ordered) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring time")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a player takes to answer")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--server", help="a running server's address (default: start one)")
    parser.add_argument("--quick", action="store_true", help="10 tables for 10 s")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.quick:
        args.tables, args.seconds, args.warmup = 10, 10.0, 3.0
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # a thousand sockets in this process

    with tempfile.TemporaryDirectory() as folder:
        process: subprocess.Popen[bytes] | None = None
        if args.server:
            base = args.server.rstrip("/")
        else:
            process, base = start_server(Path(folder))
        try:
            started = time.perf_counter()
            with ThreadPoolExecutor(8) as pool:
                rooms = list(pool.map(lambda index: open_room(base, index), range(args.tables)))
            setup = time.perf_counter() - started
            stats = asyncio.run(load(base, rooms, args, process.pid if process else None))
        finally:
            if process is not None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)

    if not stats.latencies:
        raise SystemExit("no action completed while measuring")
    window = args.seconds
    figures = {
        "tables": args.tables,
        "connections": 4 * args.tables,
        "think_seconds": args.think,
        "measured_seconds": window,
        "room_setup_seconds": round(setup, 1),
        "actions": len(stats.latencies),
        "actions_per_second": round(len(stats.latencies) / window, 1),
        "latency_ms": {
            "p50": round(1000 * statistics.median(stats.latencies), 1),
            "p90": round(1000 * percentile(stats.latencies, 0.90), 1),
            "p99": round(1000 * percentile(stats.latencies, 0.99), 1),
            "max": round(1000 * max(stats.latencies), 1),
        },
        "messages_per_second": round((stats.received + stats.sent) / window, 1),
        "server_cpu_percent": round(100 * stats.server_cpu / window, 1),
        "players_cpu_percent": round(100 * stats.client_cpu / window, 1),
        "refused": stats.refused,
        "dropped": stats.dropped,
    }
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        latency = figures["latency_ms"]
        print(
            f"{args.tables} tables, {4 * args.tables} connections, think {args.think} s, "
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
            f"players {figures['players_cpu_percent']}% of one core"
        )
        print(f"  refused messages: {stats.refused}, dropped connections: {stats.dropped}")
        verdict = "met" if latency["p99"] < 100 and args.tables >= 250 else "not met"
        print(f"  target (250 tables, p99 < 100 ms): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
