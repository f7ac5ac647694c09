"""Who may come into a room: its players and host always; anyone else only with the room's invitation
token (in the invitation link and its QR code) — to sit, and, unless the host let anyone with the
number watch, to watch the table or read its records; nobody new at all while the host keeps the room
locked. The number stays short, for saying aloud; the token is what keeps strangers out. A club's
table (issue 49) lets in the club's members, link or not, and nobody else.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import object_session

from hupai.server.errors import Forbidden
from hupai.server.storage.models import Club, ClubMember, Room

Purpose = Literal["sit", "watch"]
TOKEN_BYTES = 16  # 128 bits, 22 characters in the link

INVITE_NEEDED = "this room is for invited players: open the invitation link (or QR code) its host shared"
ROOM_LOCKED = "the host has locked this room: nobody new may come in"
CLUB_MEMBERS_ONLY = "this is a club's table (亲友圈): for the club's members only"


class InviteNeeded(Forbidden):
    code = "invite_needed"


class RoomLocked(Forbidden):
    code = "room_locked"


class ClubMembersOnly(InviteNeeded):
    code = "club_members_only"


def new_invite_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_member(room: Room, user_id: int | None) -> bool:
    """The host, or someone who holds (or held, and left in play) one of its seats."""
    return user_id is not None and (
        room.host_id == user_id or any(place.user_id == user_id for place in room.seats)
    )


def admit(room: Room, user_id: int | None, invite: str | None, purpose: Purpose) -> None:
    """Let ``user_id`` (``None``: nobody logged in) sit or watch, or raise :class:`InviteNeeded` or
    :class:`RoomLocked`. The token is compared in constant time."""
    if is_member(room, user_id):
        return
    if room.locked:
        raise RoomLocked(ROOM_LOCKED)
    if room.club_id is not None:
        if is_club_member(room, user_id):
            return
        raise ClubMembersOnly(CLUB_MEMBERS_ONLY)
    if purpose == "watch" and room.watchers == "anyone":
        return
    if not invite_matches(room, invite):
        raise InviteNeeded(INVITE_NEEDED)


def is_club_member(room: Room, user_id: int | None) -> bool:
    """Whether ``user_id`` belongs to the (open) club whose table ``room`` is (read in its session)."""
    db = object_session(room)
    if user_id is None or room.club_id is None or db is None:
        return False
    found = db.scalar(
        select(ClubMember.user_id)
        .join(Club, Club.id == ClubMember.club_id)
        .where(ClubMember.club_id == room.club_id, ClubMember.user_id == user_id, Club.closed_at.is_(None))
    )
    return found is not None


def invite_matches(room: Room, invite: str | None) -> bool:
    """Compared as UTF-8 bytes: ``compare_digest`` refuses a str with other than ASCII in it, and an
    invitation is whatever a client sent."""
    token = room.invite_token
    return bool(invite) and token is not None and hmac.compare_digest(str(invite).encode(), token.encode())
