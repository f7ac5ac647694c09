"""The invitation of a room (:mod:`~hupai.server.storage.admission` says who it lets in): seeing a room,
the token its players share, a new token, and the host's lock."""

from __future__ import annotations

from sqlalchemy.orm import Session

from hupai.server.errors import Forbidden
from hupai.server.schemas import RoomOut
from hupai.server.storage.admission import admit, is_member, new_invite_token
from hupai.server.storage.outputs import room_out
from hupai.server.storage.rooms import require_host, room_by_number
from hupai.server.storage.transactions import Transactions


class Invitations:
    def __init__(self, tx: Transactions) -> None:
        self.tx = tx

    def visible(self, number: str, user_id: int | None, invite: str | None) -> RoomOut:
        """The room, for someone who may watch it."""
        with self.tx.reading() as db:
            room = room_by_number(db, number)
            admit(room, user_id, invite, "watch")
            return room_out(room)

    def admitted(self, number: str, user_id: int | None, invite: str | None) -> int:
        """The room's id, for someone who may watch it (a socket's admission: one read, and none of
        the room's output, which every socket of a table would otherwise build again)."""
        with self.tx.reading() as db:
            room = room_by_number(db, number)
            admit(room, user_id, invite, "watch")
            return room.id

    def token(self, number: str, user_id: int) -> str:
        """The invitation token, for the room's host and players (who share it)."""
        with self.tx.reading() as db:
            return _token_for_member(db, number, user_id)

    def renew(self, number: str, user_id: int) -> str:
        """A new token (the host's): the old link stops working, for sitting and for watching."""
        with self.tx.writing() as db:
            room = room_by_number(db, number, lock=True)
            require_host(room, user_id)
            room.invite_token = new_invite_token()
            return room.invite_token

    def lock(self, number: str, user_id: int, locked: bool) -> RoomOut:
        """Lock the room to everyone who is not in it yet (the host's), or open it again."""
        with self.tx.writing() as db:
            room = room_by_number(db, number, lock=True)
            require_host(room, user_id)
            room.locked = locked
            return room_out(room)


def _token_for_member(db: Session, number: str, user_id: int) -> str:
    room = room_by_number(db, number)
    if not is_member(room, user_id):
        raise Forbidden("only the room's players may hand out its invitation")
    if room.invite_token is None:  # pragma: no cover - every room has one since migration 0012
        raise Forbidden("this room has no invitation")
    return room.invite_token
