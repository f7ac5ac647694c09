"""The web application: accounts, rooms, history and the table websocket (FastAPI).

Rooms live in the database; the only state in memory is the table tasks (:class:`Tables`), one per
room in play or with people connected. Every handler validates its input with pydantic and answers
a store error with ``{"error": {"code", "message"}}`` and its HTTP status.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import json
import logging
import math
import os
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import segno
from fastapi import Depends, FastAPI, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from hupai import __version__
from hupai.calculator import WinSpec, error_details, score_win
from hupai.rules import load_ruleset, presets
from hupai.rules.labels import option_labels
from hupai.rules.options import option_range
from hupai.server.cluster.leases import Leases
from hupai.server.cluster.relay import Cluster, RemoteRoom
from hupai.server.errors import BadRequest, Conflict, Forbidden, NotFound, StoreError, Unauthorized
from hupai.server.guards.bounds import BodyGuard, validation_details
from hupai.server.guards.edge import RequestGuard, client_address, foreign_origin, is_https, log_config
from hupai.server.guards.limits import Busy, Limits, RateLimited, SocketCounts
from hupai.server.guards.shared_limits import SharedSocketCounts
from hupai.server.names import name_key
from hupai.server.protocol import INCOMING, ClientMessageType, Sync
from hupai.server.replays import replay_frames
from hupai.server.schemas import (
    BotIn,
    GuestIn,
    HistoryEntry,
    LoginIn,
    LogoutIn,
    ReadyIn,
    RegisterIn,
    RoomIn,
    RoomOut,
    RuleCardOut,
    ScoreIn,
    SeatNumberIn,
    SessionOut,
    SitIn,
    UserOut,
    VoteIn,
)
from hupai.server.settings import DATABASE_ENV, REDIS_ENV, Settings
from hupai.server.storage.accounts import verify_password
from hupai.server.storage.database import connect, migrate, release
from hupai.server.storage.outputs import rule_card
from hupai.server.storage.store import Store
from hupai.server.storage.upkeep import Cleanup
from hupai.server.table import Connection, Dissolve, Escape, FromClient, Join, Leave, Message, RoomChanged
from hupai.server.tables import Tables

log = logging.getLogger("hupai.server")
WEB = Path(__file__).parent / "web"
COOKIE = "hupai_session"
CLOSE_UNAUTHORIZED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_POLICY = 1008
LOG_IN_FIRST = "log in first (a guest name is enough)"
CLOSE_TOO_MANY = 4429  # too many table sockets open for this user or address
AFTER_TABLE_SECONDS = 10.0
SYNC_TOO_SOON = "sync too soon; this one was dropped"
FLOOD_LIMIT = 200  # refused messages in a row before a flooding client is cut off
MAX_INVITE_HOST = 100  # characters of host[:port] in an invitation link (bounds the QR code's size)
HOST_PATTERN = re.compile(r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?")
QR_SCALE = 4  # pixels per module: about 130-200 px wide


STOP_REPORT_SECONDS = 10.0  # a stop still giving tables up after this long logs what it waits for


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
        )
        cluster = None
        if settings.redis_url:
            cluster = Cluster(settings.redis_url, alive_seconds=settings.lease_seconds)
        leases = None
        if cluster is not None:  # lease renewals on a connection of their own (never queued behind requests)
            own = connect(settings.database_url, connections=1)
            leases = Leases(own, seconds=settings.lease_seconds, reads=store.sessions)
        tables = Tables(store, settings, cluster=cluster, leases=leases)
        app.state.store = store
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
        watchdog = asyncio.get_running_loop().call_later(STOP_REPORT_SECONDS, _report_slow_stop)
        try:
            await tables.close()
        finally:
            watchdog.cancel()
        if leases is not None:
            release(leases.sessions)
        release(store.sessions)

    app = FastAPI(title="hupai 胡牌", version=__version__, lifespan=lifespan)
    app.state.settings = settings

    @app.exception_handler(StoreError)
    async def store_error(_request: Request, error: StoreError) -> JSONResponse:
        headers = {"Retry-After": str(error.retry_after)} if isinstance(error, RateLimited | Busy) else None
        return JSONResponse(
            {"error": {"code": error.code, "message": error.message}},
            status_code=error.status,
            headers=headers,
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, error: RequestValidationError) -> JSONResponse:
        # Where and what, never the input itself: a 42 MB field is not sent back.
        return JSONResponse({"detail": validation_details(error.errors())}, status_code=422)

    app.add_middleware(BodyGuard, limit=settings.max_body_bytes)
    _routes(app, settings)
    app.add_middleware(RequestGuard, settings=settings)
    app.mount("/static", StaticFiles(directory=WEB), name="static")
    return app


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
    # action latency of bench/server_load.py at 400 actions/s from ~300 ms to ~60 ms.
    gc.set_threshold(20_000, 50, 100)
    gc.freeze()


def app_from_env() -> FastAPI:
    """The application of one of ``hupai serve --workers N``'s processes (settings from the
    environment, which the parent filled in)."""
    _tune_gc()
    return create_app(Settings.from_env())


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
        migrate(settings.database_url)  # once, before the workers start
        application: Any = "hupai.server.app:app_from_env"
    else:
        _tune_gc()
        application = create_app(settings)
    uvicorn.run(
        application,
        factory=workers > 1,
        workers=workers if workers > 1 else None,
        host=host,
        port=port,
        log_level=log_level,
        log_config=log_config(),  # session tokens in websocket queries are blanked
        ws_max_size=65536,  # far above any valid message; the edge refuses what is over the limit
        # No per-message compression: updates are a kilobyte or two, and deflating every one of them
        # cost a fifth of the server's time under load (bench/server_load.py).
        ws_per_message_deflate=False,
        backlog=4096,
        # On a stop, clients get a moment to close their sockets, then the rest are cut: the tables
        # are let go only after that, and a client that never answers must not hold them.
        timeout_graceful_shutdown=STOP_GRACE_SECONDS,
    )


# --- dependencies ----------------------------------------------------------------------------------


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _limits(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


def _tables(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(COOKIE)


async def _maybe_user(request: Request) -> UserOut | None:
    return await run_in_threadpool(_store(request).accounts.user_for_token, _token(request))


async def _user(request: Request) -> UserOut:
    user = await _maybe_user(request)
    if user is None:
        raise Unauthorized("log in first (a guest name is enough)")
    return user


StoreDep = Annotated[Store, Depends(_store)]
TablesDep = Annotated[Tables, Depends(_tables)]
LimitsDep = Annotated[Limits, Depends(_limits)]
UserDep = Annotated[UserOut, Depends(_user)]


def _login_response(
    request: Request, response: Response, settings: Settings, user: UserOut, token: str
) -> dict[str, Any]:
    response.set_cookie(
        COOKIE,
        token,
        max_age=settings.session_days * 86400,
        httponly=True,
        samesite="lax",
        # Secure whenever the player came over HTTPS, so the cookie never leaks to plain HTTP later.
        secure=settings.secure_cookies or is_https(request.scope, settings),
    )
    return {"user": user.model_dump(), "token": token}


async def _count_attempt(limits: Limits, request: Request, settings: Settings) -> None:
    """A login or registration from this address (each may cost an argon2 hash)."""
    address = client_address(request.scope, settings)
    await limits.login_by_address.check(address, "too many login attempts from your address; try again later")


# --- routes ------------------------------------------------------------------------------------------


def _routes(app: FastAPI, settings: Settings) -> None:  # noqa: PLR0915 - one place lists every route
    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        """The browser client: one page of plain ES modules (no build step)."""
        return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__}

    @app.get("/api/rulesets")
    async def rulesets() -> list[RuleCardOut]:
        """Every preset's rule card: the options in force, their values, and their names in 中文 and
        English (``labels``: option -> zh, en, help, and names of the values where they are words)."""
        cards = [rule_card(name, {}) for name in presets()]
        return [card.model_copy(update={"labels": _labels_with_ranges(card)}) for card in cards]

    @app.post("/api/score", response_model=None)
    async def score(body: ScoreIn) -> dict[str, Any] | JSONResponse:
        """The score calculator (算分器): a win described as at a real table, scored and paid under any
        rule set, preset and options — the items, the payments with reasons, each player's change."""
        try:
            spec = WinSpec.from_dict(body.model_dump(by_alias=True))
            return score_win(spec).as_dict()
        except ValueError as error:
            # The field at fault and a code with its params: clients explain it in their own words.
            details = error_details(error)
            return JSONResponse({"error": {**details, "message": str(error)}}, status_code=BadRequest.status)

    # accounts

    @app.post("/api/guest")
    async def guest(
        body: GuestIn, request: Request, response: Response, store: StoreDep, limits: LimitsDep
    ) -> dict[str, Any]:
        address = client_address(request.scope, settings)
        await limits.guests_by_address.check(
            address, "too many guest accounts from your address; try again later"
        )
        user, token = await run_in_threadpool(store.accounts.create_guest, body.name)
        return _login_response(request, response, settings, user, token)

    @app.post("/api/register")
    async def register(
        body: RegisterIn, request: Request, response: Response, store: StoreDep, limits: LimitsDep
    ) -> dict[str, Any]:
        await _count_attempt(limits, request, settings)
        current = await _maybe_user(request)
        guest_id = current.id if current is not None and current.guest else None
        user, token = await limits.hashed(
            lambda: store.accounts.register(body.name, body.password, guest_id=guest_id)
        )
        return _login_response(request, response, settings, user, token)

    @app.post("/api/login")
    async def login(
        body: LoginIn, request: Request, response: Response, store: StoreDep, limits: LimitsDep
    ) -> dict[str, Any]:
        await _count_attempt(limits, request, settings)
        name = name_key(body.name)
        wait = await limits.login_by_name.wait(name)
        if wait > 0:
            raise RateLimited(f"too many wrong passwords for {body.name!r}; try again later", wait)
        try:
            user, token = await limits.hashed(lambda: store.accounts.login(body.name, body.password))
        except Unauthorized:
            await limits.login_by_name.record(name)  # only failures count: the owner may log in anywhere
            raise
        return _login_response(request, response, settings, user, token)

    @app.post("/api/logout")
    async def logout(
        request: Request, response: Response, store: StoreDep, body: LogoutIn | None = None
    ) -> dict[str, bool]:
        token = _token(request)
        everywhere = body is not None and body.everywhere
        if token:
            await run_in_threadpool(lambda: store.accounts.logout(token, everywhere=everywhere))
        response.delete_cookie(COOKIE)
        return {"ok": True}

    @app.get("/api/me")
    async def me(user: UserDep) -> UserOut:
        return user

    @app.get("/api/session")
    async def session(request: Request) -> SessionOut:
        # The page asks this first: nobody logged in is an answer, not an error (no 401 in its console).
        return SessionOut(user=await _maybe_user(request))

    @app.get("/api/me/history")
    async def history(user: UserDep, store: StoreDep) -> list[HistoryEntry]:
        return await run_in_threadpool(store.records.history, user.id)

    # rooms (each change is stored, then the room's table is told so it can tell everyone)

    async def changed(tables: Tables, store: Store, number: str) -> None:
        room_id = await run_in_threadpool(store.rooms.room_id, number)
        await tables.post(room_id, RoomChanged())

    @app.post("/api/rooms")
    async def create_room(
        body: RoomIn, request: Request, user: UserDep, store: StoreDep, limits: LimitsDep
    ) -> RoomOut:
        address = client_address(request.scope, settings)
        await limits.rooms_by_address.check(
            address, "too many rooms opened from your address; try again later"
        )
        return await run_in_threadpool(store.rooms.create_room, user.id, body)

    @app.get("/api/rooms/{number}")
    async def room(number: str, store: StoreDep) -> RoomOut:
        return await run_in_threadpool(store.rooms.room, number)

    @app.post("/api/rooms/{number}/sit")
    async def sit(number: str, body: SitIn, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
        out = await run_in_threadpool(store.rooms.sit, number, user.id, body.seat)
        await changed(tables, store, number)
        return out

    @app.post("/api/rooms/{number}/bots")
    async def bots(number: str, body: BotIn, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
        out = await run_in_threadpool(store.rooms.add_bots, number, user.id, body.seat, body.level)
        await changed(tables, store, number)
        return out

    @app.post("/api/rooms/{number}/remove")
    async def remove(
        number: str, body: SeatNumberIn, user: UserDep, store: StoreDep, tables: TablesDep
    ) -> RoomOut:
        out = await run_in_threadpool(store.rooms.remove, number, user.id, body.seat)
        await changed(tables, store, number)
        return out

    @app.post("/api/rooms/{number}/ready")
    async def ready(number: str, body: ReadyIn, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
        out = await run_in_threadpool(store.rooms.set_ready, number, user.id, body.ready)
        await changed(tables, store, number)
        return out

    @app.post("/api/rooms/{number}/start")
    async def start(number: str, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
        out = await run_in_threadpool(store.rooms.start, number, user.id)
        await changed(tables, store, number)
        return out

    @app.post("/api/rooms/{number}/leave")
    async def leave(number: str, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
        """Before the start: give up the seat (the host's leaving closes the room). In play: leave for
        good (逃跑), which ends the match with the rule set's penalty."""
        current = await run_in_threadpool(store.rooms.room, number)
        if current.status == "waiting":
            out = await run_in_threadpool(store.rooms.stand, number, user.id)
            await changed(tables, store, number)
            return out
        if current.status == "closed":
            raise Conflict(f"the room was closed: {current.closed_reason}")
        if current.status != "playing":
            raise Conflict("the game is over")
        seat = next((s.seat for s in current.seats if s.user_id == user.id and not s.left), None)
        if seat is None:
            raise Forbidden("you have no seat in this game")
        room_id = await run_in_threadpool(store.rooms.room_id, number)
        done = asyncio.get_running_loop().create_future()
        await tables.post(room_id, Escape(seat, done))
        return await _after_table(done, store, number)

    @app.post("/api/rooms/{number}/dissolve")
    async def dissolve(
        number: str, body: VoteIn, user: UserDep, store: StoreDep, tables: TablesDep
    ) -> RoomOut:
        """Vote to end a started game early; it ends when every player at the table agrees."""
        out, unanimous = await run_in_threadpool(store.rooms.vote_dissolve, number, user.id, body.agree)
        room_id = await run_in_threadpool(store.rooms.room_id, number)
        table = await tables.route(room_id)
        table.post(RoomChanged())
        if unanimous:
            done = asyncio.get_running_loop().create_future()
            table.post(Dissolve(done))
            return await _after_table(done, store, number)
        return out

    # finished hands and records

    @app.get("/api/rooms/{number}/qr.svg")
    async def room_qr(number: str, request: Request, store: StoreDep) -> Response:
        """The room's invitation link as a QR code (SVG). The link is built here from the address the
        page was served from — never from a URL the caller names, so the server cannot be made to
        draw someone else's link."""
        await run_in_threadpool(store.rooms.room, number)  # a room that exists, or 404
        link = _invite_link(request, number)
        return Response(
            _qr_svg(link),
            media_type="image/svg+xml",
            headers={"Cache-Control": "private, max-age=3600"},
        )

    @app.get("/api/rooms/{number}/hands")
    async def hands(number: str, store: StoreDep) -> list[dict[str, Any]]:
        """The settlement of every finished hand (scores itemised, payments with reasons)."""
        return await run_in_threadpool(store.records.played_hands, number)

    @app.get("/api/rooms/{number}/hands/{index}/record")
    async def hand_record(number: str, index: int, store: StoreDep, download: bool = False) -> Response:
        """A finished hand as ``hupai-record/1`` with every tile open (never a hand still in play)."""
        record = await run_in_threadpool(store.records.hand_record, number, index)
        return _json_file(record, f"hupai-{number}-{index + 1}.json" if download else None)

    @app.get("/api/rooms/{number}/hands/{index}/replay")
    async def hand_replay(number: str, index: int, store: StoreDep) -> dict[str, Any]:
        """A finished hand, frame by frame with every hand open, for the replay viewer."""

        def build() -> dict[str, Any]:
            record = store.records.hand_record(number, index)
            results = store.records.played_hands(number)
            previous = results[index - 1]["winners"] if 0 < index <= len(results) else []
            return replay_frames(
                record, results[index], previous_winner=previous[0] if len(previous) == 1 else None
            )

        return await run_in_threadpool(build)

    @app.get("/api/rooms/{number}/record")
    async def match_record(number: str, store: StoreDep, download: bool = False) -> Response:
        record = await run_in_threadpool(store.records.match_record, number)
        return _json_file(record, f"hupai-{number}.json" if download else None)

    # the table

    @app.websocket("/api/rooms/{number}/ws")
    async def table_socket(
        socket: WebSocket,
        number: str,
        hand: Annotated[int, Query(ge=-1)] = -1,
        since: Annotated[int, Query(ge=0)] = 0,
        token: str | None = None,
    ) -> None:
        await socket.accept()
        origin = foreign_origin(socket.scope, settings)
        if origin is not None:  # a page on another site must not play with its visitor's cookie
            refused = f"connections from {origin} are refused"
            await _refuse(socket, CLOSE_FORBIDDEN, "forbidden_origin", refused)
            return
        sockets: SocketCounts | SharedSocketCounts = socket.app.state.sockets
        limits: Limits = socket.app.state.limits
        address = ("address", socket.client.host if socket.client is not None else "")
        if not await _within_limit(socket, sockets, address, settings.max_sockets_per_address):
            return
        try:
            store: Store = socket.app.state.store
            user = await run_in_threadpool(store.accounts.user_for_token, token or socket.cookies.get(COOKIE))
            if user is None:
                await _refuse(socket, CLOSE_UNAUTHORIZED, "unauthorized", LOG_IN_FIRST)
                return
            if await limits.connects_by_user.wait(str(user.id)) > 0:
                message = f"at most {settings.connects_per_minute} table connections a minute per player"
                await _refuse(socket, CLOSE_TOO_MANY, "too_many_sockets", message)
                return
            await limits.connects_by_user.record(str(user.id))
            person = ("user", user.id)
            if not await _within_limit(socket, sockets, person, settings.max_sockets_per_user):
                return
            try:
                await play(socket, number, Connection(user.id, hand=hand, since=since))
            finally:
                await sockets.give_back(person)
        finally:
            await sockets.give_back(address)

    async def play(socket: WebSocket, number: str, connection: Connection) -> None:
        store: Store = socket.app.state.store
        tables: Tables = socket.app.state.tables
        try:
            room_id = await run_in_threadpool(store.rooms.room_id, number)
        except NotFound as error:
            await _refuse(socket, CLOSE_NOT_FOUND, "not_found", error.message)
            return
        route = await tables.route(room_id)

        def post(message: Message) -> None:
            if isinstance(route, RemoteRoom):
                route.post(message)
            elif (table := tables.local(room_id)) is not None:
                table.post(message)
            else:  # this process lost the table: the client reconnects and finds its new owner
                connection.close()

        post(Join(connection))
        writer = asyncio.create_task(_pump(socket, connection))
        try:
            await _read(socket, connection, post, settings)
        finally:
            if isinstance(route, RemoteRoom):
                route.post(Leave(connection))
            elif (current := tables.tables.get(room_id)) is not None:
                current.post(Leave(connection))
            connection.close()
            with contextlib.suppress(Exception):
                await writer


def _labels_with_ranges(card: RuleCardOut) -> dict[str, Any]:
    """The rule set's option labels, with ``min`` and ``max`` for every whole-number option (or list
    of them), so a client's number inputs refuse what the server would."""
    labels: dict[str, Any] = option_labels(card.ruleset)
    options_class = load_ruleset(card.preset).options_class
    for name, value in card.options.items():
        values = value if isinstance(value, list) else [value]
        if values and all(isinstance(item, int) and not isinstance(item, bool) for item in values):
            low, high = option_range(options_class, name)
            labels.setdefault(name, {}).update({"min": low, "max": high})
    return labels


async def _within_limit(
    socket: WebSocket, sockets: SocketCounts | SharedSocketCounts, key: tuple[str, object], limit: int
) -> bool:
    """Count this socket for ``key`` (a player or an address), or refuse it when ``limit`` are open."""
    if await sockets.take(key, limit):
        return True
    message = f"at most {limit} table connections per {'player' if key[0] == 'user' else 'address'} at once"
    await _refuse(socket, CLOSE_TOO_MANY, "too_many_sockets", message)
    return False


async def _after_table(done: asyncio.Future[None], store: Store, number: str) -> RoomOut:
    """Wait until the table has handled what was posted, then answer with the room."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done, AFTER_TABLE_SECONDS)
    return await run_in_threadpool(store.rooms.room, number)


def _invite_link(request: Request, number: str) -> str:
    """``{scheme}://{host}/#/join/{number}`` for the host the request came to (a host that is not a
    plain host name or address, or is too long for a small code, is refused)."""
    host = request.headers.get("host", "")
    scheme = request.url.scheme
    if scheme not in ("http", "https") or len(host) > MAX_INVITE_HOST or not HOST_PATTERN.fullmatch(host):
        raise BadRequest("this address cannot be put in an invitation")
    return f"{scheme}://{host}/#/join/{number}"


def _qr_svg(link: str) -> bytes:
    """A QR code drawn by segno: pure Python, well kept, no image library needed, and SVG out of the
    box. The link is at most ~130 characters (MAX_INVITE_HOST), so the code stays a small version
    (at most 8 at level M) and the drawing a few kilobytes."""
    code = segno.make_qr(link, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=QR_SCALE, border=2, xmldecl=False, dark="#000", light="#fff")
    return out.getvalue()


def _json_file(data: dict[str, Any], filename: str | None) -> Response:
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'} if filename else None
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1), media_type="application/json", headers=headers
    )


async def _refuse(socket: WebSocket, code: int, reason: str, message: str) -> None:
    with contextlib.suppress(Exception):
        await socket.send_json(_error(reason, message))
        await socket.close(code)


async def _pump(socket: WebSocket, connection: Connection) -> None:
    """Send the connection's queued messages in order; stop at the end marker or a broken socket."""
    try:
        while True:
            message = await connection.outbox.get()
            if message is None:
                break
            await socket.send_text(
                message if isinstance(message, str) else json.dumps(message, ensure_ascii=False)
            )
    except Exception:
        connection.close()
    with contextlib.suppress(Exception):
        await socket.close()


class _Bucket:
    """At most ``rate`` messages a second on average, bursts of twice that."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.capacity = 2 * rate
        self.tokens = self.capacity
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


async def _read(
    socket: WebSocket, connection: Connection, post: Callable[[Message], None], settings: Settings
) -> None:
    """Check every incoming message at the edge; only valid ones reach the table."""
    bucket = _Bucket(settings.messages_per_second)
    last_sync = -math.inf
    refused = 0
    while not connection.closed:
        try:
            frame = await socket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None:
            text = (frame.get("bytes") or b"").decode("utf-8", errors="replace")
        message, problem = _check_frame(text, settings, bucket)
        if isinstance(message, Sync):
            # A sync answers with the whole hand so far: a few bytes in, kilobytes out. One per
            # interval bounds what one connection can make the server send.
            now = time.monotonic()
            if now - last_sync < settings.sync_interval_seconds:
                message, problem = (
                    None,
                    _error("slow_down", f"{SYNC_TOO_SOON}: one every {settings.sync_interval_seconds:g} s"),
                )
            else:
                last_sync = now
        if problem is not None:
            refused += 1
            connection.send(problem)
            if refused >= FLOOD_LIMIT:
                connection.send(_error("flood", "too many bad messages; goodbye"))
                connection.close()
                return
            continue
        refused = 0
        assert message is not None
        post(FromClient(connection, message))


def _check_frame(
    text: str, settings: Settings, bucket: _Bucket
) -> tuple[ClientMessageType | None, dict[str, Any] | None]:
    """The validated message, or the error to send back."""
    limit = settings.max_message_bytes
    if len(text.encode("utf-8", errors="replace")) > limit:
        return None, _error("too_large", f"messages are at most {limit} bytes")
    if not bucket.take():
        return None, _error("slow_down", "too many messages; this one was dropped")
    try:
        data = json.loads(text)
    except ValueError:
        return None, _error("bad_json", "a message is one JSON object")
    except RecursionError:  # [[[…]]] deeper than the parser goes: refused like any bad JSON
        return None, _error("bad_json", "a message is one JSON object, not nested this deeply")
    try:
        return INCOMING.validate_python(data), None
    except RecursionError:
        return None, _error("bad_message", "a message is not nested this deeply")
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "message"
        return None, _error("bad_message", f"{where}: {first['msg']}")


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}
