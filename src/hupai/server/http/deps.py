"""What the routes are given: the process's store, tables, limits and settings, and who is asking."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, TypeVar

from fastapi import Depends, Query, Request
from starlette.concurrency import run_in_threadpool

from hupai.server.errors import NotFound, Unauthorized
from hupai.server.guards.edge import client_address
from hupai.server.guards.limits import Limits, Window
from hupai.server.schemas import RoomOut, UserOut
from hupai.server.settings import Settings
from hupai.server.storage.admission import InviteNeeded, RoomLocked
from hupai.server.storage.store import Store
from hupai.server.tables import Tables

COOKIE = "hupai_session"
# A lookup of a number that is no room counts this many times: someone trying numbers runs out fast,
# someone who mistyped one has plenty left.
FAILED_LOOKUP_WEIGHT = 5
LOG_IN_FIRST = "log in first (a guest name is enough)"
T = TypeVar("T")
# The token of a room's invitation link, where a request names a room.
InviteQuery = Annotated[str | None, Query(max_length=64)]


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def limits_of(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


def tables_of(request: Request) -> Tables:
    tables: Tables = request.app.state.tables
    return tables


def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def token_of(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(COOKIE)


async def maybe_user(request: Request) -> UserOut | None:
    return await run_in_threadpool(store_of(request).accounts.user_for_token, token_of(request))


async def current_user(request: Request) -> UserOut:
    user = await maybe_user(request)
    if user is None:
        raise Unauthorized(LOG_IN_FIRST)
    return user


async def counted_lookup(request: Request, look: Callable[[], T]) -> T:
    """``look`` (a store call, run in the thread pool) counted as a room lookup against the asker's
    address; one that finds no room, or a room the asker may not enter, counts
    :data:`FAILED_LOOKUP_WEIGHT` times: numbers and tokens cannot be tried at any speed (429 beyond)."""
    window = limits_of(request).lookups_by_address
    return await counted_try(
        request, look, window, "too many room lookups from your address; try again later"
    )


async def counted_try(request: Request, look: Callable[[], T], window: Window, refused: str) -> T:
    """``look`` counted once in ``window`` against the asker's address (429 with ``refused`` beyond),
    and :data:`FAILED_LOOKUP_WEIGHT` times when it finds nothing the asker may enter: a room lookup,
    a club's join."""
    address = client_address(request.scope, settings_of(request))
    await window.check(address, refused)
    try:
        return await run_in_threadpool(look)
    except (NotFound, InviteNeeded, RoomLocked):
        for _ in range(FAILED_LOOKUP_WEIGHT - 1):
            await window.record(address)
        raise


async def count_room_opened(request: Request) -> None:
    """A room opened (from the lobby or a club's 玩法), counted against the asker's address (429)."""
    address = client_address(request.scope, settings_of(request))
    await limits_of(request).rooms_by_address.check(
        address, "too many rooms opened from your address; try again later"
    )


async def visible_room(number: str, request: Request, invite: InviteQuery = None) -> RoomOut:
    """The room the path names, for someone who may watch it (its players and host; with the
    invitation's token; anyone, where its host let anyone with the number watch)."""
    user = await maybe_user(request)
    user_id = user.id if user is not None else None
    return await counted_lookup(
        request, lambda: store_of(request).invitations.visible(number, user_id, invite)
    )


StoreDep = Annotated[Store, Depends(store_of)]
TablesDep = Annotated[Tables, Depends(tables_of)]
LimitsDep = Annotated[Limits, Depends(limits_of)]
SettingsDep = Annotated[Settings, Depends(settings_of)]
UserDep = Annotated[UserOut, Depends(current_user)]
RoomDep = Annotated[RoomOut, Depends(visible_room)]
