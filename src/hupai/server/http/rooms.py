"""Rooms: opening one, seats and bots, ready and start, leaving (逃跑 in play) and the dissolve vote.
Each change is stored, then the room's table is told, so it can tell everyone connected."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool

from hupai.server.errors import Conflict, Forbidden
from hupai.server.http.deps import (
    RoomDep,
    StoreDep,
    TablesDep,
    UserDep,
    count_room_opened,
    counted_lookup,
)
from hupai.server.schemas import BotIn, ReadyIn, RoomIn, RoomOut, SeatNumberIn, SitIn, VoteIn
from hupai.server.storage.store import Store
from hupai.server.table.messages import Dissolve, Escape, RoomChanged
from hupai.server.tables import Tables

AFTER_TABLE_SECONDS = 10.0

router = APIRouter()


async def changed(tables: Tables, store: Store, number: str, status: str) -> None:
    """Tell the room's table (here or on another process) that the room changed. A room in play needs
    its table running (it deals, bots play); a waiting room's table runs only while someone watches it,
    and starting one for nobody would only take a lease to give it up again."""
    room_id = await run_in_threadpool(store.rooms.room_id, number)
    if status == "playing":
        await tables.post(room_id, RoomChanged())
    else:
        await tables.tell(room_id, RoomChanged())


async def _after_table(done: asyncio.Future[None], store: Store, number: str) -> RoomOut:
    """Wait until the table has handled what was posted, then answer with the room."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done, AFTER_TABLE_SECONDS)
    return await run_in_threadpool(store.rooms.room, number)


@router.post("/api/rooms")
async def create_room(body: RoomIn, request: Request, user: UserDep, store: StoreDep) -> RoomOut:
    await count_room_opened(request)
    return await run_in_threadpool(store.rooms.create_room, user.id, body)


@router.get("/api/rooms/{number}")
async def room(found: RoomDep) -> RoomOut:
    return found


@router.post("/api/rooms/{number}/sit")
async def sit(
    number: str, body: SitIn, request: Request, *, user: UserDep, store: StoreDep, tables: TablesDep
) -> RoomOut:
    """A seat, for the room's players and whoever brings its invitation's token (a counted lookup)."""
    out = await counted_lookup(request, lambda: store.rooms.sit(number, user.id, body.seat, body.invite))
    await changed(tables, store, number, out.status)
    return out


@router.post("/api/rooms/{number}/bots")
async def bots(number: str, body: BotIn, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
    out = await run_in_threadpool(store.rooms.add_bots, number, user.id, body.seat, body.level)
    await changed(tables, store, number, out.status)
    return out


@router.post("/api/rooms/{number}/remove")
async def remove(
    number: str, body: SeatNumberIn, user: UserDep, store: StoreDep, tables: TablesDep
) -> RoomOut:
    out = await run_in_threadpool(store.rooms.remove, number, user.id, body.seat)
    await changed(tables, store, number, out.status)
    return out


@router.post("/api/rooms/{number}/ready")
async def ready(number: str, body: ReadyIn, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
    out = await run_in_threadpool(store.rooms.set_ready, number, user.id, body.ready)
    await changed(tables, store, number, out.status)
    return out


@router.post("/api/rooms/{number}/start")
async def start(number: str, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
    out = await run_in_threadpool(store.rooms.start, number, user.id)
    await changed(tables, store, number, out.status)
    return out


@router.post("/api/rooms/{number}/leave")
async def leave(number: str, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
    """Before the start: give up the seat (the host's leaving closes the room). In play: leave for
    good (逃跑), which ends the match with the rule set's penalty."""
    current = await run_in_threadpool(store.rooms.room, number)
    if current.status == "waiting":
        out = await run_in_threadpool(store.rooms.stand, number, user.id)
        await changed(tables, store, number, out.status)
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


@router.post("/api/rooms/{number}/dissolve")
async def dissolve(number: str, body: VoteIn, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
    """Ask to end a started game early (解散), or answer the open vote: it ends when every person at
    the table agrees or stays silent until the countdown ends; one refusal ends the vote."""
    out, outcome = await run_in_threadpool(store.votes.vote, number, user.id, body.agree)
    room_id = await run_in_threadpool(store.rooms.room_id, number)
    table = await tables.route(room_id)
    table.post(RoomChanged())
    if outcome == "agreed":
        done = asyncio.get_running_loop().create_future()
        table.post(Dissolve(done))
        return await _after_table(done, store, number)
    return out
