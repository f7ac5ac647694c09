"""The web application, assembled: settings, the lifespan (database, tables, limits, cleanup), error
answers, middleware and the routers of :mod:`hupai.server.http`, and ``serve`` under uvicorn.

Rooms live in the database; the only state in memory is the table tasks (:class:`Tables`), one per
room in play or with people connected. Every handler validates its input with pydantic and answers
a store error with ``{"error": {"code", "message"}}`` and its HTTP status.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError
from starlette.concurrency import run_in_threadpool

from hupai import __version__
from hupai.server.club_lobby import ClubLobbies
from hupai.server.cluster.leases import Leases
from hupai.server.cluster.relay import Cluster
from hupai.server.cluster.remote import CLUBS, new_node_id
from hupai.server.errors import Busy, RateLimited, StoreError
from hupai.server.guards.bounds import BodyGuard, validation_details
from hupai.server.guards.edge import RequestGuard, log_config
from hupai.server.guards.limits import Limits
from hupai.server.guards.slow_clients import HeadDeadline
from hupai.server.http import (
    accounts,
    app_shell,
    club_socket,
    clubs,
    invitations,
    records,
    rooms,
    site,
    socket,
)
from hupai.server.review_runs import ReviewRuns
from hupai.server.settings import (
    ALLOWED_HOSTS_ENV,
    DATABASE_ENV,
    LISTEN_HOST_ENV,
    PUBLIC_URL_ENV,
    REDIS_ENV,
    TRUSTED_PROXY_ENV,
    Settings,
    default_allowed_hosts,
)
from hupai.server.storage.accounts import verify_password
from hupai.server.storage.club_changes import watch_club_changes
from hupai.server.storage.clubs import ClubBounds
from hupai.server.storage.database import connect, migrate, outage, release
from hupai.server.storage.store import Store
from hupai.server.storage.upkeep import Cleanup
from hupai.server.table.messages import RoomChanged
from hupai.server.table.searches import close_pools, pool_for
from hupai.server.tables import Tables

STORAGE_RETRY_SECONDS = 2
ROUTERS = (
    app_shell.router,
    site.router,
    accounts.router,
    rooms.router,
    invitations.router,
    clubs.router,
    records.router,
    socket.router,
    club_socket.router,
)
log = logging.getLogger("hupai.server")


WS_PING_SECONDS = 4.0  # the server pings every socket this often and waits this long for its pong
STOP_REPORT_SECONDS = 10.0  # a stop still giving tables up after this long logs what it waits for
# ... and after this long gives up waiting: every move was stored before anyone was told of it, so
# nothing is lost, and the leases not handed over run out for the other processes to take.
STOP_LIMIT_SECONDS = 20.0


async def _stop_tables(tables: Tables) -> None:
    """Give every table up (in a cluster, hand its lease over), within :data:`STOP_LIMIT_SECONDS`."""
    watchdog = asyncio.get_running_loop().call_later(STOP_REPORT_SECONDS, _report_slow_stop)
    try:
        async with asyncio.timeout(STOP_LIMIT_SECONDS):
            await tables.close()
    except TimeoutError:
        log.error(
            "gave up stopping the tables after %s s; their leases run out for others", STOP_LIMIT_SECONDS
        )
    finally:
        watchdog.cancel()
        close_pools()  # searching bots' processes (table.searches)


def _report_slow_stop() -> None:
    """What a stop that takes too long is waiting for: every task's chain of awaits, in the log."""
    lines = [f"  {task.get_name()}: {_awaiting(task)}" for task in asyncio.all_tasks()]
    log.warning("still stopping after %s s; tasks:\n%s", STOP_REPORT_SECONDS, "\n".join(lines))


def _awaiting(task: asyncio.Task[Any]) -> str:
    """A task's chain of awaits, outermost first (``function:line -> …``)."""
    steps = []
    step: Any = task.get_coro()
    while step is not None:
        frame = getattr(step, "cr_frame", None) or getattr(step, "gi_frame", None)
        if frame is not None:
            steps.append(f"{frame.f_code.co_name}:{frame.f_lineno}")
        step = getattr(step, "cr_await", None) or getattr(step, "gi_yieldfrom", None)
    return " -> ".join(steps) or "done"


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(migrate, settings.database_url)
        store = Store(
            connect(settings.database_url),
            session_days=settings.session_days,
            waiting_rooms_per_user=settings.waiting_rooms_per_user,
            club_bounds=ClubBounds(
                clubs_per_owner=settings.clubs_per_owner,
                members_per_club=settings.members_per_club,
                rules_per_club=settings.rules_per_club,
                waiting_tables_per_club=settings.waiting_tables_per_club,
            ),
        )
        cluster = None
        if settings.redis_url:
            cluster = Cluster(
                settings.redis_url, alive_seconds=settings.lease_seconds, database_url=settings.database_url
            )
        leases = None
        if cluster is not None:  # lease renewals on a connection of their own (never queued behind requests)
            own = connect(settings.database_url, connections=1)
            leases = Leases(own, seconds=settings.lease_seconds, reads=store.sessions)
        tables = Tables(store, settings, cluster=cluster, leases=leases)
        app.state.store = store
        club_lobbies = app.state.club_lobbies = _club_lobbies(store, cluster, settings)
        unwatch_clubs = watch_club_changes(store.sessions, club_lobbies.written)
        reviews = app.state.reviews = ReviewRuns(
            store,
            lambda: pool_for(settings.search_workers),
            node=cluster.node if cluster is not None else new_node_id(),
            at_once=settings.reviews_at_once,
            worlds=settings.review_worlds,
        )
        limits = Limits(settings, cluster.redis if cluster is not None else None)
        app.state.limits = limits
        app.state.sockets = limits.sockets
        await run_in_threadpool(verify_password, None, "")  # make the dummy hash before anyone logs in
        app.state.tables = tables
        resumed = await tables.start()
        if resumed:
            log.info("resumed %d table(s) from storage", resumed)
        cleaner = asyncio.create_task(_clean_periodically(tables, settings))
        yield
        cleaner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await cleaner
        await reviews.close()
        await _stop_tables(tables)
        unwatch_clubs()
        await club_lobbies.close()
        if leases is not None:
            release(leases.sessions)
        release(store.sessions)

    app = FastAPI(title="hupai 胡牌", version=__version__, lifespan=lifespan)
    app.state.settings = settings

    @app.exception_handler(StoreError)
    async def store_error(_request: Request, error: StoreError) -> JSONResponse:
        headers = {"Retry-After": str(error.retry_after)} if isinstance(error, RateLimited | Busy) else None
        return JSONResponse(
            {"error": error.said()},
            status_code=error.status,
            headers=headers,
        )

    @app.exception_handler(DBAPIError)
    async def storage_error(_request: Request, error: DBAPIError) -> JSONResponse:
        if not outage(error):
            raise error  # a bug, not the weather: a 500 with its traceback in the log
        # The database is away for a moment (a restart, a failover): nothing was changed; ask again.
        message = "the server cannot reach its database just now; nothing was changed, try again shortly"
        return JSONResponse(
            {"error": {"code": "storage_away", "message": message}},
            status_code=503,
            headers={"Retry-After": str(STORAGE_RETRY_SECONDS)},
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, error: RequestValidationError) -> JSONResponse:
        # Where and what, never the input itself: a 42 MB field is not sent back.
        return JSONResponse({"detail": validation_details(error.errors())}, status_code=422)

    app.add_middleware(BodyGuard, limit=settings.max_body_bytes)
    for router in ROUTERS:
        app.include_router(router)
    app.add_middleware(RequestGuard, settings=settings)
    app.state.web = Path(settings.web_dir) if settings.web_dir else app_shell.WEB
    app.mount("/static", StaticFiles(directory=app.state.web), name="static")
    return app


def _club_lobbies(store: Store, cluster: Cluster | None, settings: Settings) -> ClubLobbies:
    """The clubs' live lobbies of this process, told of changes made on the others (and telling them
    of its own) through the cluster."""
    lobbies = ClubLobbies(store, refresh_seconds=settings.club_lobby_refresh_seconds)
    lobbies.start()
    if cluster is not None:
        node = cluster.node
        cluster.on_clubs_changed = lobbies.heard
        lobbies.tell_others = lambda clubs: cluster.publish(CLUBS, {"clubs": sorted(clubs), "node": node})
    return lobbies


async def clean_up(tables: Tables, settings: Settings) -> Cleanup:
    """Close idle waiting rooms (telling anyone connected) and delete stale guests, once."""
    done = await run_in_threadpool(
        lambda: tables.store.upkeep.cleanup(
            idle_room_hours=settings.idle_room_hours, stale_guest_days=settings.stale_guest_days
        )
    )
    for room_id in done.rooms:
        await tables.tell(room_id, RoomChanged())
    if done.rooms or done.guests:
        log.info("cleanup: closed %d idle room(s), deleted %d stale guest(s)", len(done.rooms), done.guests)
    return done


async def _clean_periodically(tables: Tables, settings: Settings) -> None:
    while True:
        await asyncio.sleep(settings.cleanup_seconds)
        try:
            await clean_up(tables, settings)
        except Exception:  # a failed cleanup is tried again next time; the server goes on
            log.exception("cleanup failed")


def _tune_gc() -> None:
    # Every table lives in this process, so a long garbage-collection pause stalls all of them.
    # Collecting young objects less often (and never rescanning what exists at start) cut the p99
    # action latency of bench/server_load.py at 400 actions/s from ~300 ms to ~60 ms. The middle
    # generation is collected ten times as often as by default, so each of its pauses scans a tenth
    # of the live state a move replaces (docs/speed.md, step 12); the oldest one as rarely as before.
    gc.set_threshold(20_000, 5, 1000)
    gc.freeze()


def app_from_env() -> FastAPI:
    """The application of one of ``hupai serve --workers N``'s processes (settings from the
    environment, which the parent filled in)."""
    _tune_gc()
    return create_app(with_allowed_hosts(Settings.from_env()))


def with_allowed_hosts(settings: Settings) -> Settings:
    """The settings with the host names a served server answers to, when none were given."""
    if settings.allowed_hosts:
        return settings
    return replace(settings, allowed_hosts=default_allowed_hosts(settings.listen_host, settings.public_url))


STOP_GRACE_SECONDS = 3


def serve(
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    workers: int = 1,
) -> None:
    """Run the server under uvicorn until it is stopped (``hupai serve``). With ``workers`` > 1 (which
    needs Redis) uvicorn starts that many processes on the one port; they share the tables."""
    import uvicorn

    if workers > 1:
        if not settings.redis_url:
            raise ValueError("several processes need Redis to share tables (--redis-url or HUPAI_REDIS_URL)")
        os.environ[DATABASE_ENV] = settings.database_url
        os.environ[REDIS_ENV] = settings.redis_url
        os.environ[LISTEN_HOST_ENV] = host
        if settings.public_url is not None:
            os.environ[PUBLIC_URL_ENV] = settings.public_url
        if settings.allowed_hosts:
            os.environ[ALLOWED_HOSTS_ENV] = ",".join(settings.allowed_hosts)
        if settings.trusted_proxy:
            os.environ[TRUSTED_PROXY_ENV] = ",".join(settings.trusted_proxy)
        migrate(settings.database_url)  # once, before the workers start
        application: Any = "hupai.server.app:app_from_env"
    else:
        _tune_gc()
        application = create_app(with_allowed_hosts(replace(settings, listen_host=host)))
    uvicorn.run(
        application,
        factory=workers > 1,
        workers=workers if workers > 1 else None,
        host=host,
        port=port,
        log_level=log_level,
        log_config=log_config(),  # session tokens in websocket queries are blanked
        # Proxy headers are the edge's to believe, from the proxies the settings name (guards.edge):
        # uvicorn's own default believes X-Forwarded-For from any program on this machine.
        proxy_headers=False,
        http=HeadDeadline,  # a request's head must arrive within seconds (guards.slow_clients)
        ws_max_size=65536,  # far above any valid message; the edge refuses what is over the limit
        # A phone gone from the network answers no ping: its socket is closed within seconds (uvicorn's
        # own 20 + 20 s hid it for most of a minute), and the table shows the others it is away.
        ws_ping_interval=WS_PING_SECONDS,
        ws_ping_timeout=WS_PING_SECONDS,
        # No per-message compression: updates are a kilobyte or two, and deflating every one of them
        # cost a fifth of the server's time under load (bench/server_load.py).
        ws_per_message_deflate=False,
        backlog=4096,
        # On a stop, clients get a moment to close their sockets, then the rest are cut: the tables
        # are let go only after that, and a client that never answers must not hold them.
        timeout_graceful_shutdown=STOP_GRACE_SECONDS,
    )
