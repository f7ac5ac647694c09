"""Helpers for the server tests: an app on a fresh database, logged-in players, scripted clients.

``HUPAI_TEST_DATABASE_URL`` (set by ``.ci/run`` to a PostgreSQL server) runs the storage and server
tests on that database too; each test gets its own empty schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import itertools
import json
import os
import random
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError, ProgrammingError
from starlette.testclient import WebSocketTestSession

from hupai.server.app import create_app
from hupai.server.settings import Settings
from hupai.server.table.actor import Table

POSTGRES_ENV = "HUPAI_TEST_DATABASE_URL"

Message = dict[str, Any]


NO_POSTGRES = (
    f"no PostgreSQL: the PostgreSQL variants need {POSTGRES_ENV} (a server's URL; .ci/run starts one, "
    "docs/development.md)"
)


def database_urls() -> list[str]:
    """The database kinds to test on: SQLite, and PostgreSQL (skipped, and counted in the summary,
    when no server is given in ``HUPAI_TEST_DATABASE_URL``)."""
    return ["sqlite", "postgresql"]


@contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    """A URL for an empty database of ``kind``, dropped afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'hupai.sqlite3'}"
        return
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(NO_POSTGRES)
    with _postgresql_database(base) as url:
        yield url


RESTARTABLE_ENV = "HUPAI_TEST_RESTARTABLE_DATABASE_URL"
PG_CTL_ENV = "HUPAI_TEST_PG_CTL"
# Tests that stop and start PostgreSQL do it to a cluster of their own, never the one the other tests
# use at the same time, and one after the other: each holds a lock on the cluster (a file lock, so
# that it holds across pytest-xdist's workers and across test sessions on one machine).
RESTART_LOCK = Path(tempfile.gettempdir()) / "hupai-tests-restartable-postgresql.lock"


@contextmanager
def restartable_postgresql(tmp_path: Path) -> Iterator[tuple[str, list[str]]]:
    """An empty database on the PostgreSQL a test may stop and start (its URL in
    ``HUPAI_TEST_RESTARTABLE_DATABASE_URL``, its control command in ``HUPAI_TEST_PG_CTL``, e.g.
    ``pg_ctlcluster 15 restarts``; .ci/run sets both), and that command; skipped without them, except
    in CI, where it fails."""
    base, control = os.environ.get(RESTARTABLE_ENV), os.environ.get(PG_CTL_ENV)
    if not base or not control:
        named = ((RESTARTABLE_ENV, base), (PG_CTL_ENV, control))
        missing = " and ".join(name for name, value in named if not value)
        if os.environ.get("CI"):
            pytest.fail(f"CI restarts a PostgreSQL of its own here: set {missing} (.ci/run does)")
        pytest.skip(f"no PostgreSQL to restart: the restart tests need {missing} (.ci/run sets them)")
    with RESTART_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, or the process dies
        with _postgresql_database(base) as url:
            yield url, shlex.split(control)


@contextmanager
def _postgresql_database(base: str) -> Iterator[str]:
    name = f"hupai_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    head, _, _ = base.rpartition("/")
    try:
        yield f"{head}/{name}"
    finally:
        _drop(admin, name)
        admin.dispose()


def _drop(admin: Any, name: str) -> None:
    """Drop a test database. PostgreSQL's autovacuum may be working in it, and a non-superuser may
    not end that: try again a few times, then leave it (a spare empty database harms no test)."""
    for _ in range(20):
        try:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            return
        except (ProgrammingError, OperationalError):
            time.sleep(0.25)


def fast_settings(url: str, **overrides: Any) -> Settings:
    """No pauses for bots, after discards or between hands, and no wait for the players' contributions
    to a deal (these scripted players send none), so whole matches take a second (and the players,
    answering as fast as the bots, need a higher message rate than people do)."""
    values: dict[str, Any] = {
        "bot_delay_seconds": 0.0,
        "next_hand_seconds": 0.0,
        "claim_seconds": 0.0,
        "deal_wait_seconds": 0.0,
        "messages_per_second": 1000.0,
        "room_lookups_per_address_per_minute": 100_000,  # every test client comes from one address
    }
    values.update(overrides)
    return Settings(database_url=url, **values)


TEST_PROXY = ("testclient",)  # trusted_proxy for a TestClient server: its requests come from "testclient"


@contextmanager
def server(url: str, **overrides: Any) -> Iterator[TestClient]:
    with TestClient(create_app(fast_settings(url, **overrides))) as client:
        yield client


@contextmanager
def sqlite_server(folder: Path, **overrides: Any) -> Iterator[TestClient]:
    """A fast server on a fresh SQLite file in ``folder`` (tests that need no PostgreSQL run)."""
    with server(f"sqlite:///{folder / 'hupai.sqlite3'}", **overrides) as client:
        yield client


def guest(client: TestClient, name: str) -> dict[str, str]:
    """Log in a guest; the Authorization header that acts as them."""
    response = client.post("/api/guest", json={"name": name})
    assert response.status_code == 200, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def token_of(headers: dict[str, str]) -> str:
    return headers["Authorization"].removeprefix("Bearer ")


# The invitation token of every room the tests opened (its host's answer carries it), by number: the
# tests' friends and spectators come in with it, as a friend opens the invitation link.
INVITES: dict[str, str] = {}


def new_room(client: TestClient, host: dict[str, str], **spec: Any) -> str:
    response = client.post("/api/rooms", json=spec, headers=host)
    assert response.status_code == 200, response.text
    return opened(response.json())


def opened(room: dict[str, Any]) -> str:
    """The number of a room just opened (the host's answer), its invitation remembered."""
    number: str = room["number"]
    INVITES[number] = room["invite"]
    return number


def invited(number: str) -> dict[str, str]:
    """What a request body adds to come in with the room's invitation."""
    return {"invite": INVITES[number]}


def with_invite(number: str) -> str:
    """The query that lets a stranger read the room (its invitation's token)."""
    return f"?invite={INVITES[number]}"


def join_link(base: str, number: str) -> str:
    """The room's invitation link, as its host shares it."""
    return f"{base}/#/join/{number}/{INVITES[number]}"


def connect(
    client: TestClient,
    number: str,
    headers: dict[str, str] | None,
    *,
    hand: int = -1,
    since: int = 0,
    invite: bool = True,
    delta: bool = False,
) -> WebSocketTestSession:
    """A table socket, by default with the room's invitation (``invite=False``: as a stranger);
    ``delta``: asking for patches instead of whole views (docs/protocol.md)."""
    query = f"?hand={hand}&since={since}" + (f"&token={token_of(headers)}" if headers else "")
    if delta:
        query += "&delta=1"
    if invite and number in INVITES:
        query += f"&invite={INVITES[number]}"
    return client.websocket_connect(f"/api/rooms/{number}/ws{query}")


def pick(legal: list[Message], rng: random.Random) -> Message:
    """A player who always wins when they can and otherwise plays at random."""
    wins = [action for action in legal if action["act"] == "hu"]
    return without_seat(wins[0] if wins else rng.choice(legal))


class Answers:
    """A seat that answers each of its prompts once. A prompt stays open, and is repeated in every
    update, until it is answered: a second answer would be ignored (``ignored``) or, worse, taken as
    the answer to the next prompt in a slow test, so each prompt number is answered once."""

    def __init__(self, choose: Callable[[list[Message]], Message]) -> None:
        self.choose = choose  # the legal actions offered → the one to play (without its seat)
        self.answered: set[int] = set()

    def act(self, message: Message) -> Message | None:
        """The ``act`` message that answers ``message``'s prompt, or None when it has none to answer
        (no prompt, an automatic one, or one answered already)."""
        prompt = message.get("prompt") if message.get("type") == "update" else None
        if not prompt or prompt["automatic"] or prompt["seq"] in self.answered:
            return None
        self.answered.add(prompt["seq"])
        return {"type": "act", "seq": prompt["seq"], "action": self.choose(prompt["legal"])}


def randomly(rng: random.Random) -> Callable[[list[Message]], Message]:
    """Win when possible, otherwise any legal action (:func:`pick`)."""
    return lambda legal: pick(legal, rng)


def passing(legal: list[Message]) -> Message:
    """Pass when possible, otherwise the last action offered: play moves on without claims."""
    return without_seat(next((action for action in legal if action["act"] == "pass"), legal[-1]))


def winning_or_last(legal: list[Message]) -> Message:
    """Win when possible, otherwise the last action offered (a pass, or a discard)."""
    return without_seat(next((action for action in legal if action["act"] == "hu"), legal[-1]))


def without_seat(action: Message) -> Message:
    return {key: value for key, value in action.items() if key != "seat"}


def play_socket(
    socket: WebSocketTestSession,
    *,
    seed: int = 0,
    until: str = "match_end",
    on_message: Callable[[Message], None] | None = None,
    answer: bool = True,
) -> list[Message]:
    """Read messages, answering every prompt, until a message of type ``until``; all are returned."""
    answers = Answers(randomly(random.Random(seed)))
    received: list[Message] = []
    while True:
        message = socket.receive_json()
        received.append(message)
        if on_message is not None:
            on_message(message)
        if message["type"] == until:
            return received
        if answer and (act := answers.act(message)) is not None:
            socket.send_json(act)


class PlayerThread(threading.Thread):
    """One human at the table, playing on its own thread until the match ends."""

    def __init__(self, socket: WebSocketTestSession, seed: int) -> None:
        super().__init__(daemon=True)
        self.socket = socket
        self.seed = seed
        self.messages: list[Message] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.messages = play_socket(self.socket, seed=self.seed)
        except BaseException as error:  # reported by the test
            self.error = error


# --- a real server process (uvicorn on a free port) -------------------------------------------------

SERVE = """
import importlib, json, sys
from hupai.server.app import serve
from hupai.server.settings import Settings
settings = {
    "bot_delay_seconds": 0,
    "next_hand_seconds": 0,
    "claim_seconds": 0,
    "deal_wait_seconds": 0,
    "messages_per_second": 1000,
    "room_lookups_per_address_per_minute": 100_000,  # every test client comes from this machine
}
settings.update(json.loads(sys.argv[3]))
log_level = settings.pop("log_level", "warning")
prepare = settings.pop("prepare", None)  # "module:function" run first, e.g. to deal a prepared hand
if prepare:
    module, name = prepare.split(":")
    getattr(importlib.import_module(module), name)()
serve(Settings(database_url=sys.argv[1], **settings), port=int(sys.argv[2]), log_level=log_level)
"""


def discards_told(events: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """The discards among a hand's events as a client was told them: (seat, tile), in order."""
    return [(event["seat"], event["tile"]) for event in events if event["event"] == "tile_discarded"]


def discards_stored(hand: dict[str, Any]) -> list[tuple[int, str]]:
    """The discards among a recorded hand's actions: (seat, tile), in order."""
    return [(action["seat"], action["tile"]) for action in hand["actions"] if action["act"] == "discard"]


def paid(result: dict[str, Any]) -> list[int]:
    """A settlement's transfers summed per seat (payee +, payer −)."""
    deltas = [0, 0, 0, 0]
    for transfer in result["transfers"]:
        deltas[transfer["from"]] -= transfer["amount"]
        deltas[transfer["to"]] += transfer["amount"]
    return deltas


def rebuilt(client: TestClient, number: str) -> dict[str, Any]:
    """大结算 of a table rebuilt from the room's stored moves, as after a restart."""
    app: Any = client.app
    store = app.state.store
    table = Table(store.rooms.room_id(number), store, app.state.settings)

    async def rebuild() -> None:
        table.room = store.rooms.room_by_id(table.room_id)
        await table.resume()

    asyncio.run(rebuild())
    assert table.summary is not None
    return table.summary


FIXED_ROOM_SECRET = "5eed" * 16
FIXED_ROOM_SEED = 2027


def fixed_rooms() -> None:
    """``prepare=`` of :func:`running_server`: every room has the same secret and seed, so that a
    test's fair deal (with fixed contributions) and the bots' play are known in advance."""
    import hupai.server.storage.rooms

    setattr(hupai.server.storage.rooms, "new_room_secret", lambda: FIXED_ROOM_SECRET)  # noqa: B010
    setattr(hupai.server.storage.rooms.Rooms, "seed", lambda self, room_id: FIXED_ROOM_SEED)  # noqa: B010


# Each test process takes the ports for its servers from a range of its own, below the ports Linux
# gives to outgoing connections (32768 and up): a port the system hands out (bind to 0) is free only
# until the server binds it, and meanwhile another pytest-xdist worker or any connection may take it.
PORTS_PER_WORKER = 400
FIRST_PORT = 20_000
# Each process starts at a place of its own in its range: two pytest sessions on one machine (whose
# workers share the ranges) then step through different ports.
_next_port = itertools.count(os.getpid())


def _worker_number() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")  # "gw0", "gw1" … (none: one process)
    return int(worker.removeprefix("gw")) if worker.removeprefix("gw").isdigit() else 0


def free_port() -> int:
    """A port nobody listens on, from this test process's own range (taken in turn, so that a port is
    not reused until the range has gone round: a server just killed may leave its port in TIME_WAIT)."""
    first = FIRST_PORT + (_worker_number() % 30) * PORTS_PER_WORKER
    for _ in range(PORTS_PER_WORKER):
        port = first + next(_next_port) % PORTS_PER_WORKER
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use by something else on this machine
            return port
    raise RuntimeError(f"no free port from {first} to {first + PORTS_PER_WORKER - 1}")


@contextmanager
def running_server(
    url: str, port: int, *, log: Path | None = None, **settings: Any
) -> Iterator[subprocess.Popen[bytes]]:
    """The server in its own process (fast settings unless ``settings`` say otherwise; ``prepare``,
    "module:function", is called in that process before it serves; ``log_level`` is uvicorn's, and
    its output goes to the file ``log`` when given)."""
    output = None if log is None else log.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, url, str(port), json.dumps(settings)],
        start_new_session=True,
        stdout=output,
        stderr=output,
    )
    try:
        deadline = time.monotonic() + 90  # a busy machine starts a Python process slowly
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1).close()
                if not listens(process.pid, port):  # another process's server answered there
                    raise RuntimeError(f"port {port} is another process's: the server did not start")
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.1)
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        if output is not None:
            output.close()


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds the socket listening on loopback's ``port`` (read from Linux's
    /proc; elsewhere assumed): a test must talk to the server it started, never to another test
    session's that happens to listen there."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
        table = Path("/proc/net/tcp").read_text().splitlines()[1:]
    except OSError:
        return True
    held = set()
    for fd in fds:
        with contextlib.suppress(OSError):  # closed meanwhile
            held.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
    for row in table:
        fields = row.split()
        local, state, inode = fields[1], fields[3], fields[9]
        if state == "0A" and int(local.split(":")[1], 16) == port and f"socket:[{inode}]" in held:
            return True  # 0A: LISTEN
    return False


def call(port: int, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Bearer {token}"} if token else {}),
        },
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def next_of(socket: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` on a test socket (the others before it are skipped)."""
    for _ in range(500):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")
