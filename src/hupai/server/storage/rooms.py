"""Rooms: opening one (its number, rule card and fair-deal secret), seats and bots before the start,
the start, closing, and what a table reads of its room (seating, seed, secret)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from hupai.game.fairness import new_room_secret
from hupai.rules import RuleError, find_preset, load_ruleset
from hupai.server.errors import Conflict, Forbidden, NotFound, StoreError
from hupai.server.schemas import RoomIn, RoomOut
from hupai.server.storage.admission import admit, new_invite_token
from hupai.server.storage.models import Room, RoomSeat, User, utcnow
from hupai.server.storage.outputs import bot_name, room_out
from hupai.server.storage.transactions import Transactions

SEATS = 4
OPEN_STATUSES = ("waiting", "playing")


@dataclass(frozen=True)
class Seating:
    """Who sits where when a match runs: names, humans (user ids) and bot levels."""

    names: tuple[str, ...]
    users: tuple[int | None, ...]
    bots: tuple[str | None, ...]
    left: tuple[bool, ...]


def room_by_number(db: Session, number: str, *, lock: bool = False) -> Room:
    """The newest room with that number (numbers are reused once a room ends)."""
    query = select(Room).where(Room.number == number).order_by(Room.id.desc()).limit(1)
    if lock:
        query = query.with_for_update()
    room = db.scalar(query)
    if room is None:
        raise NotFound(f"no room {number}")
    return room


def require_host(room: Room, user_id: int) -> None:
    if room.host_id != user_id:
        raise Forbidden("only the host (房主) may do that")


def checked_rules(spec: RoomIn) -> tuple[str, dict[str, object]]:
    """The preset's name and the options as the rules read them ("own_pung,others_pung" is a list),
    or a 400 naming what is wrong with them."""
    try:
        preset = find_preset(spec.preset)
        card = load_ruleset(preset.name, spec.options).options_dict()
    except RuleError as error:
        raise StoreError(str(error)) from None
    return preset.name, {name: card[name] for name in spec.options}


class Rooms:
    def __init__(
        self, tx: Transactions, *, waiting_rooms_per_user: int = 3, waiting_tables_per_club: int = 10
    ) -> None:
        self.tx = tx
        self.waiting_rooms_per_user = waiting_rooms_per_user
        self.waiting_tables_per_club = waiting_tables_per_club

    def create_room(
        self, host_id: int, spec: RoomIn, *, club_id: int | None = None, club_rules_name: str | None = None
    ) -> RoomOut:
        """The new room, with its invitation token (``invite``): only its host is ever answered with it.
        ``club_id``: a club's table, for its members (at most ``waiting_tables_per_club`` waiting),
        opened from the 玩法 ``club_rules_name``."""
        preset_name, changed = checked_rules(spec)
        with self.tx.writing() as db:
            self._check_waiting_rooms(db, host_id)
            if club_id is not None:
                self._check_waiting_tables(db, club_id)
            number = self._free_number(db)
            room = Room(
                number=number,
                preset=preset_name,
                options=changed,
                hands=spec.hands,
                decision_seconds=spec.decision_seconds,
                next_hand_seconds=spec.next_hand_seconds,
                claim_seconds=spec.claim_seconds,
                dissolve_seconds=spec.dissolve_seconds,
                bot_level=spec.bot_level,
                bot_pace=spec.bot_pace,
                host_id=host_id,
                status="waiting",
                seed=secrets.randbits(62),
                deal_secret=new_room_secret(),
                invite_token=new_invite_token(),
                watchers=spec.watchers,
                club_id=club_id,
                club_rules_name=club_rules_name,
            )
            room.seats = [RoomSeat(seat=seat) for seat in range(SEATS)]
            room.seats[0].user_id = host_id
            db.add(room)
            db.flush()
            db.refresh(room)
            return room_out(room).model_copy(update={"invite": room.invite_token})

    def _check_waiting_rooms(self, db: Session, host_id: int) -> None:
        """A host has at most ``waiting_rooms_per_user`` rooms waiting (the 900,000 numbers are shared)."""
        db.get(User, host_id, with_for_update=True)  # one host's creations queue up (PostgreSQL)
        waiting = db.scalar(
            select(func.count(Room.id)).where(Room.host_id == host_id, Room.status == "waiting")
        )
        if (waiting or 0) >= self.waiting_rooms_per_user:
            raise Conflict(
                f"you already have {waiting} rooms waiting; start or leave one before opening another"
            )

    def _check_waiting_tables(self, db: Session, club_id: int) -> None:
        waiting = db.scalar(
            select(func.count(Room.id)).where(Room.club_id == club_id, Room.status == "waiting")
        )
        if (waiting or 0) >= self.waiting_tables_per_club:
            raise Conflict(
                f"the club already has {waiting} tables waiting; sit at one of them",
                code="club_tables_waiting",
                params={"n": self.waiting_tables_per_club},
            )

    @staticmethod
    def _free_number(db: Session) -> str:
        for _ in range(100):
            number = f"{100000 + secrets.randbelow(900000)}"
            taken = db.scalar(select(Room.id).where(Room.number == number, Room.status.in_(OPEN_STATUSES)))
            if taken is None:
                return number
        raise Conflict("no free room number; try again")  # pragma: no cover - 900,000 numbers

    def room(self, number: str) -> RoomOut:
        with self.tx.reading() as db:
            return room_out(room_by_number(db, number))

    def room_id(self, number: str) -> int:
        with self.tx.reading() as db:
            return room_by_number(db, number).id

    def room_by_id(self, room_id: int) -> RoomOut:
        with self.tx.reading() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            return room_out(room)

    def _waiting(self, db: Session, number: str) -> Room:
        return self._still_waiting(room_by_number(db, number, lock=True))

    @staticmethod
    def _still_waiting(room: Room) -> Room:
        if room.status != "waiting":
            raise Conflict(
                "the game has already started" if room.status == "playing" else "the room is closed"
            )
        room.active_at = utcnow()  # every change to a waiting room keeps it from expiring
        return room

    def sit(self, number: str, user_id: int, seat: int | None = None, invite: str | None = None) -> RoomOut:
        """A seat for a player let in (:func:`~hupai.server.storage.admission.admit`): the first free
        one, or ``seat``."""
        with self.tx.writing() as db:
            room = room_by_number(db, number, lock=True)
            admit(room, user_id, invite, "sit")  # before saying anything else about the room
            self._still_waiting(room)
            if any(place.user_id == user_id for place in room.seats):
                return room_out(room)
            free = [place for place in room.seats if place.user_id is None and place.bot_level is None]
            if seat is not None:
                free = [place for place in free if place.seat == seat]
            if not free:
                raise Conflict("that seat is taken" if seat is not None else "the room is full")
            free[0].user_id = user_id
            free[0].ready = False
            return room_out(room)

    def stand(self, number: str, user_id: int) -> RoomOut:
        """Leave a room before its game starts (the host's leaving closes it)."""
        with self.tx.writing() as db:
            room = self._waiting(db, number)
            if room.host_id == user_id:
                room.status = "dissolved"
                room.finished_at = utcnow()
                return room_out(room)
            for place in room.seats:
                if place.user_id == user_id:
                    place.user_id = None
                    place.ready = False
            return room_out(room)

    def add_bots(self, number: str, user_id: int, seat: int | None, level: str) -> RoomOut:
        with self.tx.writing() as db:
            room = self._waiting(db, number)
            require_host(room, user_id)
            free = [place for place in room.seats if place.user_id is None and place.bot_level is None]
            if seat is not None:
                free = [place for place in free if place.seat == seat]
                if not free:
                    raise Conflict(f"seat {seat} is taken")
            for place in free:
                place.bot_level = level
                place.ready = True
            return room_out(room)

    def remove(self, number: str, user_id: int, seat: int) -> RoomOut:
        """The host removes a player or a bot before the start."""
        with self.tx.writing() as db:
            room = self._waiting(db, number)
            require_host(room, user_id)
            place = room.seats[seat]
            if place.user_id == room.host_id:
                raise StoreError("the host cannot remove themself; leave the room instead")
            place.user_id = None
            place.bot_level = None
            place.ready = False
            return room_out(room)

    def set_ready(self, number: str, user_id: int, ready: bool) -> RoomOut:
        with self.tx.writing() as db:
            room = self._waiting(db, number)
            self._seat_of(room, user_id).ready = ready
            return room_out(room)

    def start(self, number: str, user_id: int) -> RoomOut:
        """The host starts: empty seats get the room's bot level; every player must be ready."""
        with self.tx.writing() as db:
            room = self._waiting(db, number)
            require_host(room, user_id)
            waiting = [
                place.seat
                for place in room.seats
                if place.user_id is not None and place.user_id != room.host_id and not place.ready
            ]
            if waiting:
                raise Conflict(f"not everyone is ready (seat {', '.join(map(str, waiting))})")
            for place in room.seats:
                if place.user_id is None and place.bot_level is None:
                    place.bot_level = room.bot_level
                place.ready = True
            room.status = "playing"
            return room_out(room)

    def close_room(self, room_id: int, reason: str) -> None:
        """Close a room whose table cannot go on (status ``closed``, with the reason); a room that
        already ended keeps its end."""
        with self.tx.writing() as db:
            room = db.get(Room, room_id, with_for_update=True)
            if room is None or room.status not in OPEN_STATUSES:
                return
            room.status = "closed"
            room.closed_reason = reason[:200]
            room.finished_at = utcnow()

    def mark_left(self, room_id: int, seat: int) -> None:
        with self.tx.writing() as db:
            place = db.get(RoomSeat, (room_id, seat))
            if place is not None:
                place.left = True

    @staticmethod
    def _seat_of(room: Room, user_id: int) -> RoomSeat:
        for place in room.seats:
            if place.user_id == user_id:
                return place
        raise Forbidden("you have no seat in this room")

    def seating(self, room_id: int) -> Seating:
        with self.tx.reading() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            names = []
            for place in room.seats:
                if place.user is not None:
                    names.append(place.user.name)
                else:
                    names.append(bot_name(place.bot_level, place.seat) or f"座位{place.seat}")
            return Seating(
                names=tuple(names),
                users=tuple(place.user_id for place in room.seats),
                bots=tuple(place.bot_level for place in room.seats),
                left=tuple(place.left for place in room.seats),
            )

    def seed(self, room_id: int) -> int:
        with self.tx.reading() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            return room.seed

    def deal_secret(self, room_id: int) -> str | None:
        """The room's fair-deal secret (``None``: a room made before fair deals, dealt from its seed).
        For the table only: it is never sent to anyone."""
        with self.tx.reading() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            return room.deal_secret

    def playing_room_ids(self) -> list[int]:
        with self.tx.reading() as db:
            return list(db.scalars(select(Room.id).where(Room.status == "playing")))
