"""A room's invitation: the link (``#/join/{number}/{token}``) and its QR code, which only the room's
players are given, a new link that ends the old one, and the host's lock (nobody new comes in).
Who the invitation lets in is :mod:`hupai.server.storage.admission`'s."""

from __future__ import annotations

import functools
import io
import re
from typing import Any

import segno
from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from hupai.server.errors import BadRequest
from hupai.server.http.deps import StoreDep, TablesDep, UserDep, counted_lookup
from hupai.server.http.rooms import changed
from hupai.server.schemas import LockIn, RoomOut
from hupai.server.settings import Settings

MAX_INVITE_HOST = 100  # characters of host[:port] in an invitation link (bounds the QR code's size)
HOST_PATTERN = re.compile(r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?")
QR_SCALE = 4  # pixels per module: about 130-200 px wide

router = APIRouter()


@router.get("/api/rooms/{number}/qr.svg")
async def room_qr(number: str, request: Request, user: UserDep, store: StoreDep) -> Response:
    """The room's invitation link as a QR code (SVG), for its players. The link is built here from the
    address the page was served from — never from a URL the caller names, so the server cannot be
    made to draw someone else's link. Drawn once per link, in a worker thread (it costs ~15 ms of
    CPU), and each call is a counted room lookup."""
    token = await counted_lookup(request, lambda: store.invitations.token(number, user.id))
    return Response(
        await run_in_threadpool(qr_svg, invite_link(request, number, token)),
        media_type="image/svg+xml",
        headers={"Cache-Control": "private, no-store"},  # a new link draws a new code
    )


@router.get("/api/rooms/{number}/invite")
async def room_invite(number: str, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    """The room's invitation, for its players: the link its QR code draws, and whether a friend on
    another device can open it (not when the server listens on this machine only and knows no
    public address)."""
    token = await counted_lookup(request, lambda: store.invitations.token(number, user.id))
    return invitation(request, number, token)


@router.post("/api/rooms/{number}/invite")
async def new_invite(number: str, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    """A new link (the host's): the old link and QR code no longer let anyone in."""
    token = await run_in_threadpool(store.invitations.renew, number, user.id)
    return invitation(request, number, token)


@router.post("/api/rooms/{number}/lock")
async def lock(number: str, body: LockIn, user: UserDep, store: StoreDep, tables: TablesDep) -> RoomOut:
    """Lock the room (the host's): nobody who is not in it yet may sit or watch, link or not."""
    out = await run_in_threadpool(store.invitations.lock, number, user.id, body.locked)
    await changed(tables, store, number, out.status)
    return out


def invitation(request: Request, number: str, token: str) -> dict[str, Any]:
    settings: Settings = request.app.state.settings
    return {"link": invite_link(request, number, token), "reachable": settings.reachable_by_friends}


def invite_link(request: Request, number: str, token: str) -> str:
    """``{link_base}/#/join/{number}/{token}``."""
    return f"{link_base(request)}/#/join/{number}/{token}"


def link_base(request: Request) -> str:
    """Where an invitation link starts: the server's public address when it was given one, else
    ``{scheme}://{host}`` for the host the request came to (a host that is not a plain host name or
    address, or is too long for a small code, is refused)."""
    settings: Settings = request.app.state.settings
    if settings.public_url is not None:
        return settings.public_url
    host = request.headers.get("host", "")
    scheme = request.url.scheme
    if scheme not in ("http", "https") or len(host) > MAX_INVITE_HOST or not HOST_PATTERN.fullmatch(host):
        raise BadRequest("this address cannot be put in an invitation")
    return f"{scheme}://{host}"


@functools.lru_cache(maxsize=1024)
def qr_svg(link: str) -> bytes:
    """A QR code drawn by segno: pure Python, well kept, no image library needed, and SVG out of the
    box. The link is at most ~160 characters (MAX_INVITE_HOST and the token), so the code stays a
    small version (at most 10 at level M) and the drawing a few kilobytes."""
    code = segno.make_qr(link, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=QR_SCALE, border=2, xmldecl=False, dark="#000", light="#fff")
    return out.getvalue()
