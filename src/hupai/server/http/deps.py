"""What the routes are given: the process's store, tables, limits and settings, and who is asking."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

from hupai.server.errors import Unauthorized
from hupai.server.guards.limits import Limits
from hupai.server.schemas import UserOut
from hupai.server.settings import Settings
from hupai.server.storage.store import Store
from hupai.server.tables import Tables

COOKIE = "hupai_session"
LOG_IN_FIRST = "log in first (a guest name is enough)"


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


StoreDep = Annotated[Store, Depends(store_of)]
TablesDep = Annotated[Tables, Depends(tables_of)]
LimitsDep = Annotated[Limits, Depends(limits_of)]
SettingsDep = Annotated[Settings, Depends(settings_of)]
UserDep = Annotated[UserOut, Depends(current_user)]
