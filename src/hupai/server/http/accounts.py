"""Accounts and sessions: guests, registering, logging in and out, who I am, my history."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from hupai.server.errors import RateLimited, Unauthorized
from hupai.server.guards.edge import client_address, is_https
from hupai.server.guards.limits import Limits
from hupai.server.http.deps import (
    COOKIE,
    LimitsDep,
    SettingsDep,
    StoreDep,
    UserDep,
    maybe_user,
    token_of,
)
from hupai.server.names import name_key
from hupai.server.schemas import (
    AvatarIn,
    GuestIn,
    HistoryEntry,
    LoginIn,
    LogoutIn,
    RegisterIn,
    SessionOut,
    UserOut,
)
from hupai.server.settings import Settings

router = APIRouter()


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


@router.post("/api/guest")
async def guest(
    body: GuestIn,
    request: Request,
    *,
    response: Response,
    store: StoreDep,
    limits: LimitsDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    address = client_address(request.scope, settings)
    await limits.guests_by_address.check(
        address, "too many guest accounts from your address; try again later"
    )
    user, token = await run_in_threadpool(store.accounts.create_guest, body.name, body.avatar)
    return _login_response(request, response, settings, user, token)


@router.post("/api/register")
async def register(
    body: RegisterIn,
    request: Request,
    *,
    response: Response,
    store: StoreDep,
    limits: LimitsDep,
    settings: SettingsDep,
) -> dict[str, Any]:
    await _count_attempt(limits, request, settings)
    current = await maybe_user(request)
    guest_id = current.id if current is not None and current.guest else None
    user, token = await limits.hashed(
        lambda: store.accounts.register(body.name, body.password, guest_id=guest_id)
    )
    return _login_response(request, response, settings, user, token)


@router.post("/api/login")
async def login(
    body: LoginIn,
    request: Request,
    *,
    response: Response,
    store: StoreDep,
    limits: LimitsDep,
    settings: SettingsDep,
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


@router.post("/api/logout")
async def logout(
    request: Request, response: Response, store: StoreDep, body: LogoutIn | None = None
) -> dict[str, bool]:
    token = token_of(request)
    everywhere = body is not None and body.everywhere
    if token:
        await run_in_threadpool(lambda: store.accounts.logout(token, everywhere=everywhere))
    response.delete_cookie(COOKIE)
    return {"ok": True}


@router.get("/api/me")
async def me(user: UserDep) -> UserOut:
    return user


@router.put("/api/me/avatar")
async def choose_avatar(body: AvatarIn, user: UserDep, store: StoreDep) -> UserOut:
    return await run_in_threadpool(store.accounts.set_avatar, user.id, body.avatar)


@router.get("/api/session")
async def session(request: Request) -> SessionOut:
    # The page asks this first: nobody logged in is an answer, not an error (no 401 in its console).
    return SessionOut(user=await maybe_user(request))


@router.get("/api/me/history")
async def history(user: UserDep, store: StoreDep) -> list[HistoryEntry]:
    return await run_in_threadpool(store.records.history, user.id)
