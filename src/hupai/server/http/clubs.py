"""Clubs (亲友圈, issue 49): opening one, the members' page of it, its invitation link, joining by the
link, leaving, and the owner's and admins' say over members. What each may do is
:mod:`hupai.server.storage.clubs`'s; to anyone who is not a member a club does not exist (404)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from hupai.server.errors import NotFound
from hupai.server.http.deps import StoreDep, UserDep, count_room_opened, counted_try, limits_of
from hupai.server.http.invitations import link_base, qr_svg
from hupai.server.schemas import (
    ClubIn,
    ClubJoinIn,
    ClubJoiningIn,
    ClubOut,
    ClubOwnerIn,
    ClubRoleIn,
    ClubRulesIn,
    ClubStandingsOut,
    ClubTableIn,
    RoomOut,
)
from hupai.server.settings import Settings
from hupai.server.storage.standings import Period, standings_csv

router = APIRouter()


@router.post("/api/clubs")
async def open_club(body: ClubIn, user: UserDep, store: StoreDep) -> ClubOut:
    """A new club with its opener as owner (registered players only, a few clubs each)."""
    return await run_in_threadpool(store.clubs.create, user.id, body.name)


@router.get("/api/clubs")
async def my_clubs(user: UserDep, store: StoreDep) -> list[ClubOut]:
    return await run_in_threadpool(store.clubs.mine, user.id)


@router.get("/api/clubs/{number}")
async def club(number: str, user: UserDep, store: StoreDep) -> ClubOut:
    """The club and its members, for its members."""
    return await run_in_threadpool(store.clubs.club, number, user.id)


@router.get("/api/clubs/{number}/invite")
async def club_invite(number: str, request: Request, user: UserDep, store: StoreDep) -> dict[str, Any]:
    """The club's invitation link (its owner's and admins'); none while joining is closed."""
    token = await run_in_threadpool(store.clubs.token, number, user.id)
    return club_invitation(request, number, token)


@router.get("/api/clubs/{number}/qr.svg")
async def club_qr(number: str, request: Request, user: UserDep, store: StoreDep) -> Response:
    """The invitation link as a QR code (its owner's and admins'), drawn from this server's address
    as a room's is (never from a URL the caller names)."""
    token = await run_in_threadpool(store.clubs.token, number, user.id)
    link = club_invitation(request, number, token)["link"]
    if link is None:
        raise NotFound("joining this club is closed: there is no link to draw")
    return Response(
        await run_in_threadpool(qr_svg, link),
        media_type="image/svg+xml",
        headers={"Cache-Control": "private, no-store"},  # a new link draws a new code
    )


@router.post("/api/clubs/{number}/invite")
async def club_joining(
    number: str, body: ClubJoiningIn, request: Request, user: UserDep, store: StoreDep
) -> dict[str, Any]:
    """A new link, the old one no longer working (``open``: true), or joining closed (false)."""
    token = await run_in_threadpool(lambda: store.clubs.set_joining(number, user.id, open_=body.open))
    return club_invitation(request, number, token)


@router.post("/api/clubs/{number}/join")
async def join_club(
    number: str, body: ClubJoinIn, request: Request, user: UserDep, store: StoreDep
) -> ClubOut:
    """Join by the invitation link's token. Joins are counted per address, a wrong number or link
    five times: numbers and tokens cannot be tried at any speed (429 beyond)."""
    window = limits_of(request).club_joins_by_address
    refused = "too many club joins from your address; try again later"
    return await counted_try(request, lambda: store.clubs.join(number, user.id, body.invite), window, refused)


@router.post("/api/clubs/{number}/leave")
async def leave_club(number: str, user: UserDep, store: StoreDep) -> dict[str, bool]:
    await run_in_threadpool(store.clubs.leave, number, user.id)
    return {"left": True}


@router.post("/api/clubs/{number}/members/{member_id}/remove")
async def remove_member(number: str, member_id: int, user: UserDep, store: StoreDep) -> ClubOut:
    """Take a member out (the owner: anyone; an admin: members); refused to them at once."""
    return await run_in_threadpool(store.clubs.remove, number, user.id, member_id)


@router.post("/api/clubs/{number}/members/{member_id}/role")
async def member_role(
    number: str, member_id: int, body: ClubRoleIn, user: UserDep, store: StoreDep
) -> ClubOut:
    """Make a member an admin, or an admin a member (the owner's)."""
    return await run_in_threadpool(store.clubs.set_role, number, user.id, member_id, body.role)


@router.post("/api/clubs/{number}/owner")
async def hand_over(number: str, body: ClubOwnerIn, user: UserDep, store: StoreDep) -> ClubOut:
    """Hand the club over to another (registered) member; the owner stays on as an admin."""
    return await run_in_threadpool(store.clubs.hand_over, number, user.id, body.user_id)


@router.post("/api/clubs/{number}/close")
async def close_club(number: str, user: UserDep, store: StoreDep) -> dict[str, bool]:
    """Close the club (the owner's): gone for every member."""
    await run_in_threadpool(store.clubs.close, number, user.id)
    return {"closed": True}


@router.post("/api/clubs/{number}/rules")
async def save_rules(number: str, body: ClubRulesIn, user: UserDep, store: StoreDep) -> ClubOut:
    """Save a 玩法 (the owner's and admins'): a named rule card; the same name replaces it."""
    return await run_in_threadpool(store.clubs.save_rules, number, user.id, body.name, body.card)


@router.post("/api/clubs/{number}/rules/{rules_id}/delete")
async def drop_rules(number: str, rules_id: int, user: UserDep, store: StoreDep) -> ClubOut:
    return await run_in_threadpool(store.clubs.drop_rules, number, user.id, rules_id)


@router.get("/api/clubs/{number}/tables")
async def club_tables(number: str, user: UserDep, store: StoreDep) -> list[RoomOut]:
    """The club's tables waiting and in play, with who sits where (its members')."""
    return await run_in_threadpool(store.clubs.tables, number, user.id)


@router.post("/api/clubs/{number}/tables")
async def open_table(
    number: str, body: ClubTableIn, request: Request, user: UserDep, store: StoreDep
) -> RoomOut:
    """A member opens a table from a 玩法: a room of the club, which its members enter without a
    link and nobody else enters at all. Counted as any room opened from the asker's address."""
    await count_room_opened(request)
    club_id, name, card = await run_in_threadpool(store.clubs.table_card, number, user.id, body.rules_id)
    return await run_in_threadpool(
        lambda: store.rooms.create_room(user.id, card, club_id=club_id, club_rules_name=name)
    )


@router.get("/api/clubs/{number}/standings")
async def standings(
    number: str, user: UserDep, store: StoreDep, period: Period = "all", before: int | None = None
) -> ClubStandingsOut:
    """战绩统计 (its members'): per player over ``period`` (week, month, all), and the club's matches,
    newest first, a page at a time (``before``: the last page's oldest ``room_id``)."""
    return await run_in_threadpool(lambda: store.standings.of(number, user.id, period, before=before))


@router.get("/api/clubs/{number}/standings.csv")
async def standings_file(number: str, user: UserDep, store: StoreDep, period: Period = "all") -> Response:
    """The same as a CSV file to download."""
    out = await run_in_threadpool(lambda: store.standings.of(number, user.id, period))
    return Response(
        standings_csv(out),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="club-{number}-{period}.csv"'},
    )


def club_invitation(request: Request, number: str, token: str | None) -> dict[str, Any]:
    """``{"link": …/#/club/{number}/{token}}`` (None while joining is closed), as a room's link is
    built; ``reachable``: whether a friend on another device can open it."""
    settings: Settings = request.app.state.settings
    link = None if token is None else f"{link_base(request)}/#/club/{number}/{token}"
    return {"link": link, "open": token is not None, "reachable": settings.reachable_by_friends}
