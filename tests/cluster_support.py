"""Helpers for the cluster tests: a real Redis, several real server processes, players on threads.

Redis is Debian's ``redis-server`` (``.ci/run`` installs it); without it these tests are skipped,
except in CI, where they fail.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect as ws_connect

from .server_support import INVITES, Answers, free_port, randomly, running_server

LEASE_SECONDS = 2.0  # short leases: takeovers within seconds
RECV_SECONDS = 10.0  # a socket silent this long is given up and opened again (elsewhere)


NO_REDIS = "no redis-server: the tests of many server processes need Debian's redis-server"


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A fresh Redis on a free port, for this test only; its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is missing (.ci/run installs Debian's redis-server)")
        pytest.skip(NO_REDIS)
    port = free_port()
    process = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait(timeout=10)


@contextmanager
def cluster(
    url: str, redis_url: str, folder: Path, count: int = 3, **settings: Any
) -> Iterator[list[Server]]:
    """``count`` server processes on one database and one Redis (started together)."""
    with ExitStack() as stack:
        servers = []
        for index in range(count):
            port = free_port()
            log = folder / f"server-{index}.log"
            process = stack.enter_context(
                running_server(
                    url,
                    port,
                    log=log,
                    redis_url=redis_url,
                    log_level="info",
                    **{"lease_seconds": LEASE_SECONDS, **settings},
                )
            )
            servers.append(Server(port, process, log))
        yield servers


class Server:
    def __init__(self, port: int, process: subprocess.Popen[bytes], log: Path) -> None:
        self.port = port
        self.process = process
        self.log = log

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace")


def owner_pid(url: str, number: str) -> int | None:
    """The process id of the server holding the room's lease (node names end in ``-<pid>-<hex>``)."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            owner = connection.execute(
                text(
                    "SELECT l.owner FROM table_leases l JOIN rooms r ON r.id = l.room_id "
                    "WHERE r.number = :number ORDER BY r.id DESC"
                ),
                {"number": number},
            ).scalar()
    finally:
        engine.dispose()
    return None if owner is None else int(str(owner).rsplit("-", 2)[1])


class Player(threading.Thread):
    """One person at the table over a real socket: answers every prompt (a win when it may, else at
    random), checks that every update continues exactly where the last one ended (nothing missed,
    nothing twice), and when its socket closes or falls silent opens it again — on the next server
    of ``ports`` — with ``hand``/``since``, as the browser does."""

    def __init__(self, ports: list[int], number: str, token: str, *, seed: int, first: int = 0) -> None:
        super().__init__(daemon=True)
        self.ports = ports
        self.number = number
        self.token = token
        self.rng = random.Random(seed)
        self.turn = first
        self.events: dict[int, list[dict[str, Any]]] = {}
        self.summary: dict[str, Any] | None = None
        self.reconnects = 0
        self.drops: list[str] = []  # why each connection ended early
        self.problems: list[str] = []
        self.updates = 0
        self.hints_seen = 0
        self.want_hints = False
        self.answer = True
        self.stop = threading.Event()
        self.dead_ports: set[int] = set()

    def run(self) -> None:
        deadline = time.monotonic() + 240
        while self.summary is None and not self.stop.is_set() and time.monotonic() < deadline:
            port = self._next_port()
            hand = max(self.events, default=-1)
            since = len(self.events.get(hand, []))
            address = (
                f"ws://127.0.0.1:{port}/api/rooms/{self.number}/ws?token={self.token}&hand={hand}&since={since}"
                + (
                    f"&invite={INVITES[self.number]}" if self.number in INVITES else ""
                )  # a spectator's way in
            )
            try:
                with ws_connect(address, open_timeout=10) as connection:  # a busy machine answers slowly
                    if self.want_hints:
                        connection.send(json.dumps({"type": "hints", "on": True}))
                    self._play(connection)
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
                self.drops.append(f"{time.strftime('%X')} port {port}: {error!r}")
            if self.summary is None:
                self.reconnects += 1
                self.turn += 1
                time.sleep(0.2)

    def _next_port(self) -> int:
        for _ in range(len(self.ports)):
            port = self.ports[self.turn % len(self.ports)]
            if port not in self.dead_ports:
                return port
            self.turn += 1
        return self.ports[self.turn % len(self.ports)]

    def _play(self, connection: Any) -> None:
        # Answered per connection: an answer sent just before a connection dropped may be lost, and
        # the prompt, repeated on the next connection, is answered again.
        answers = Answers(randomly(self.rng))
        while not self.stop.is_set():
            message = json.loads(connection.recv(timeout=RECV_SECONDS))
            kind = message["type"]
            if kind == "match_end":
                self.summary = message
                return
            if kind == "error":
                self.problems.append(f"error: {message}")
            if kind != "update":
                continue
            self.updates += 1
            if message.get("hints"):
                self.hints_seen += 1
            events = self.events.setdefault(message["hand"], [])
            if message["from"] != len(events):
                self.problems.append(
                    f"hand {message['hand']}: update from {message['from']}, had {len(events)}"
                )
                events[message["from"] :] = []
            events.extend(message["events"])
            if self.answer and (act := answers.act(message)) is not None:
                connection.send(json.dumps(act))
