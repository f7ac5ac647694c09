"""Everything the server keeps, behind one small API (synchronous SQLAlchemy sessions).

Web handlers call it from the thread pool; table tasks call it through ``asyncio.to_thread``. Each
method is one transaction. Errors are :class:`StoreError` subclasses carrying an HTTP status and a
message a player understands.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from hupai.game.fairness import new_room_secret
from hupai.rules import RuleError, find_preset, load_ruleset
from hupai.server.database import WRITE_LOCK
from hupai.server.leases import Fence, check_fence
from hupai.server.models import (
    AuthSession,
    Contribution,
    Move,
    PlayedHand,
    Result,
    Room,
    RoomSeat,
    User,
    utcnow,
)
from hupai.server.names import name_key
from hupai.server.schemas import EscapeOut, HistoryEntry, RoomIn, RoomOut, RuleCardOut, SeatOut, UserOut
from hupai.server.stats import ranks, seat_stats

SEATS = 4
OPEN_STATUSES = ("waiting", "playing")
SEEN_EVERY = timedelta(hours=1)  # how often a player's last-seen time is written
CLEANUP_BATCH = 1000  # stale guests deleted per cleanup (the next one takes the rest)
_hasher = PasswordHasher()


class StoreError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(StoreError):
    """A request that cannot be carried out as asked (the message says why)."""


class NotFound(StoreError):
    status = 404
    code = "not_found"


class Forbidden(StoreError):
    status = 403
    code = "forbidden"


class Conflict(StoreError):
    status = 409
    code = "conflict"


class Unauthorized(StoreError):
    status = 401
    code = "unauthorized"


class AlreadyContributed(Conflict):
    """A seat's contribution to a hand is taken once: the first one stands."""

    code = "already_contributed"


class DealClosed(Conflict):
    """The hand is dealt: its contributions are sealed."""

    code = "deal_closed"


@dataclass(frozen=True)
class Seating:
    """Who sits where when a match runs: names, humans (user ids) and bot levels."""

    names: tuple[str, ...]
    users: tuple[int | None, ...]
    bots: tuple[str | None, ...]
    left: tuple[bool, ...]


@functools.cache
def _dummy_hash() -> str:
    """A hash no password matches, for names with no account (made once per process)."""
    return _hasher.hash(secrets.token_urlsafe(32))


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored``. A missing account is checked against a dummy hash, so
    an unknown name costs the same ~0.1 s as a known one and answers no faster (no enumeration)."""
    try:
        return _hasher.verify(stored or _dummy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def user_out(user: User) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest)


def rule_card(preset_name: str, changed: dict[str, Any]) -> RuleCardOut:
    preset = find_preset(preset_name)
    ruleset = load_ruleset(preset.name, changed)
    return RuleCardOut(
        preset=preset.name,
        ruleset=preset.ruleset,
        zh=preset.zh,
        en=preset.en,
        options=dict(ruleset.options_dict()),
        changed=dict(changed),
        escape=EscapeOut(**asdict(ruleset.escape_terms())),
    )


def room_out(room: Room) -> RoomOut:
    return RoomOut(
        number=room.number,
        status=room.status,
        host_id=room.host_id,
        hands=room.hands,
        decision_seconds=room.decision_seconds,
        next_hand_seconds=room.next_hand_seconds,
        claim_seconds=room.claim_seconds,
        bot_level=room.bot_level,
        closed_reason=room.closed_reason,
        rules=rule_card(room.preset, room.options),
        seats=[
            SeatOut(
                seat=seat.seat,
                user_id=seat.user_id,
                name=seat.user.name if seat.user is not None else _bot_name(seat.bot_level, seat.seat),
                bot=seat.bot_level,
                ready=seat.ready,
                wants_dissolve=seat.wants_dissolve,
                left=seat.left,
            )
            for seat in room.seats
        ],
    )


def _bot_name(level: str | None, seat: int) -> str | None:
    """A bot's name at the table: numbered by seat, so three bots are told apart (winds move with the
    dealer; seat numbers do not)."""
    if level is None:
        return None
    from hupai.bots import LEVELS

    bot = LEVELS[level]
    return f"电脑{seat + 1}·{getattr(bot, 'zh', level)}"


def _all_agree_to_dissolve(room: Room) -> bool:
    players = [place for place in room.seats if place.user_id is not None and not place.left]
    return all(place.wants_dissolve for place in players)


@dataclass(frozen=True)
class Cleanup:
    """What one cleanup did: the waiting rooms it closed, and how many stale guests it deleted."""

    rooms: list[int]
    guests: int


class Store:
    def __init__(
        self, sessions: sessionmaker[Session], *, session_days: int = 30, waiting_rooms_per_user: int = 3
    ) -> None:
        self.sessions = sessions
        self.session_days = session_days
        self.waiting_rooms_per_user = waiting_rooms_per_user
        self.fence: tuple[int, Fence] | None = None

    def fenced(self, room_id: int, fence: Fence) -> Store:
        """This store for the owner of a room's table: each write first checks that the owner still
        holds the room's lease (:func:`~hupai.server.leases.check_fence`), or raises ``LeaseLost``."""
        store = copy.copy(self)
        store.fence = (room_id, fence)
        return store

    # --- accounts ------------------------------------------------------------------------------

    def _new_session(self, db: Session, user: User) -> str:
        token = secrets.token_urlsafe(32)
        expires = utcnow() + timedelta(days=self.session_days)
        db.add(AuthSession(token_hash=token_hash(token), user_id=user.id, expires_at=expires))
        return token

    def create_guest(self, name: str) -> tuple[UserOut, str]:
        """A guest: any name but a registered player's (or one that looks like it)."""
        with self.sessions.begin() as db:
            if db.scalar(select(User.id).where(User.login == name_key(name))) is not None:
                raise Conflict(f"the name {name!r} belongs to a registered player; pick another")
            user = User(name=name)
            db.add(user)
            db.flush()
            return user_out(user), self._new_session(db, user)

    def register(self, name: str, password: str, *, guest_id: int | None = None) -> tuple[UserOut, str]:
        """A named account; a guest who registers keeps their games (``guest_id``)."""
        login = name_key(name)
        with self.sessions() as db:  # a taken name is refused before the costly hash
            if db.scalar(select(User.id).where(User.login == login)) is not None:
                raise Conflict(f"the name {name!r} is taken")
        password_hash = _hasher.hash(password)  # outside the transaction: it takes ~0.1 s
        try:
            with self.sessions.begin() as db:
                user = db.get(User, guest_id) if guest_id is not None else None
                if user is None or not user.is_guest:
                    user = User(name=name)
                    db.add(user)
                user.name = name
                user.login = login
                user.password_hash = password_hash
                db.flush()  # the unique login refuses a name registered meanwhile (IntegrityError)
                # The guest's old tokens die with the guest: whoever copied one must not own the account.
                db.execute(delete(AuthSession).where(AuthSession.user_id == user.id))
                return user_out(user), self._new_session(db, user)
        except IntegrityError:
            raise Conflict(f"the name {name!r} is taken") from None

    def login(self, name: str, password: str) -> tuple[UserOut, str]:
        with self.sessions.begin() as db:
            user = db.scalar(select(User).where(User.login == name_key(name)))
            stored = None if user is None else user.password_hash
            if not verify_password(stored, password) or user is None or stored is None:
                raise Unauthorized("wrong name or password")
            if _hasher.check_needs_rehash(stored):
                user.password_hash = _hasher.hash(password)
            return user_out(user), self._new_session(db, user)

    def logout(self, token: str, *, everywhere: bool = False) -> None:
        """End this session, or (``everywhere``) every session of its user."""
        with self.sessions.begin() as db:
            found = db.get(AuthSession, token_hash(token))
            if found is None:
                return
            if everywhere:
                db.execute(delete(AuthSession).where(AuthSession.user_id == found.user_id))
            else:
                db.delete(found)

    def user_for_token(self, token: str | None) -> UserOut | None:
        if not token:
            return None
        with self.sessions() as db:
            found = db.get(AuthSession, token_hash(token))
            if found is None or found.expires_at < utcnow():
                return None
            user = found.user
            seen = user.seen_at
        if seen is None or seen < utcnow() - SEEN_EVERY:  # written hourly, not on every request
            with self.sessions.begin() as db:
                db.execute(update(User).where(User.id == user.id).values(seen_at=utcnow()))
        return user_out(user)

    # --- rooms ---------------------------------------------------------------------------------

    @contextmanager
    def _writing(self) -> Iterator[Session]:
        """One writing transaction that holds the database's write lock from its first read (SQLite:
        BEGIN IMMEDIATE; PostgreSQL: the row locks each method takes), so concurrent changes to a room
        happen one after the other. A write the unique indexes refuse (one person in two seats of a
        room) is a lost race: 409."""
        try:
            with self.sessions.begin() as db:
                db.connection(execution_options={WRITE_LOCK: True})
                if self.fence is not None:
                    check_fence(db, *self.fence)
                yield db
        except IntegrityError:
            raise Conflict("someone else changed the room at the same moment; try again") from None

    def _room(self, db: Session, number: str, *, lock: bool = False) -> Room:
        query = select(Room).where(Room.number == number).order_by(Room.id.desc()).limit(1)
        if lock:
            query = query.with_for_update()
        room = db.scalar(query)
        if room is None:
            raise NotFound(f"no room {number}")
        return room

    def create_room(self, host_id: int, spec: RoomIn) -> RoomOut:
        try:
            preset = find_preset(spec.preset)
            load_ruleset(preset.name, spec.options)
        except RuleError as error:
            raise StoreError(str(error)) from None
        with self._writing() as db:
            self._check_waiting_rooms(db, host_id)
            number = self._free_number(db)
            room = Room(
                number=number,
                preset=preset.name,
                options=dict(spec.options),
                hands=spec.hands,
                decision_seconds=spec.decision_seconds,
                next_hand_seconds=spec.next_hand_seconds,
                claim_seconds=spec.claim_seconds,
                bot_level=spec.bot_level,
                host_id=host_id,
                status="waiting",
                seed=secrets.randbits(62),
                deal_secret=new_room_secret(),
            )
            room.seats = [RoomSeat(seat=seat) for seat in range(SEATS)]
            room.seats[0].user_id = host_id
            db.add(room)
            db.flush()
            db.refresh(room)
            return room_out(room)

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

    @staticmethod
    def _free_number(db: Session) -> str:
        for _ in range(100):
            number = f"{100000 + secrets.randbelow(900000)}"
            taken = db.scalar(select(Room.id).where(Room.number == number, Room.status.in_(OPEN_STATUSES)))
            if taken is None:
                return number
        raise Conflict("no free room number; try again")  # pragma: no cover - 900,000 numbers

    def room(self, number: str) -> RoomOut:
        with self.sessions() as db:
            return room_out(self._room(db, number))

    def room_id(self, number: str) -> int:
        with self.sessions() as db:
            return self._room(db, number).id

    def room_by_id(self, room_id: int) -> RoomOut:
        with self.sessions() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            return room_out(room)

    def _waiting(self, db: Session, number: str) -> Room:
        room = self._room(db, number, lock=True)
        if room.status != "waiting":
            raise Conflict(
                "the game has already started" if room.status == "playing" else "the room is closed"
            )
        room.active_at = utcnow()  # every change to a waiting room keeps it from expiring
        return room

    def sit(self, number: str, user_id: int, seat: int | None = None) -> RoomOut:
        with self._writing() as db:
            room = self._waiting(db, number)
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
        with self._writing() as db:
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
        with self._writing() as db:
            room = self._waiting(db, number)
            self._require_host(room, user_id)
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
        with self._writing() as db:
            room = self._waiting(db, number)
            self._require_host(room, user_id)
            place = room.seats[seat]
            if place.user_id == room.host_id:
                raise StoreError("the host cannot remove themself; leave the room instead")
            place.user_id = None
            place.bot_level = None
            place.ready = False
            return room_out(room)

    def set_ready(self, number: str, user_id: int, ready: bool) -> RoomOut:
        with self._writing() as db:
            room = self._waiting(db, number)
            self._seat_of(room, user_id).ready = ready
            return room_out(room)

    def start(self, number: str, user_id: int) -> RoomOut:
        """The host starts: empty seats get the room's bot level; every player must be ready."""
        with self._writing() as db:
            room = self._waiting(db, number)
            self._require_host(room, user_id)
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

    def vote_dissolve(self, number: str, user_id: int, agree: bool) -> tuple[RoomOut, bool]:
        """A vote to end a started game; it ends when every player still at the table agrees."""
        with self._writing() as db:
            room = self._room(db, number, lock=True)
            if room.status == "closed":
                raise Conflict(f"the room was closed: {room.closed_reason}; there is nothing to dissolve")
            if room.status != "playing":
                raise Conflict("only a game in play is dissolved by vote")
            self._seat_of(room, user_id).wants_dissolve = agree
            return room_out(room), _all_agree_to_dissolve(room)

    def dissolve_agreed(self, room_id: int) -> bool:
        """Whether every player still at the table voted to dissolve (a rebuilt table whose process
        stopped before it heard the last vote ends the match then)."""
        with self.sessions() as db:
            room = db.get(Room, room_id)
            return room is not None and room.status == "playing" and _all_agree_to_dissolve(room)

    def close_room(self, room_id: int, reason: str) -> None:
        """Close a room whose table cannot go on (status ``closed``, with the reason); a room that
        already ended keeps its end."""
        with self._writing() as db:
            room = db.get(Room, room_id, with_for_update=True)
            if room is None or room.status not in OPEN_STATUSES:
                return
            room.status = "closed"
            room.closed_reason = reason[:200]
            room.finished_at = utcnow()

    def mark_left(self, room_id: int, seat: int) -> None:
        with self._writing() as db:
            place = db.get(RoomSeat, (room_id, seat))
            if place is not None:
                place.left = True

    @staticmethod
    def _require_host(room: Room, user_id: int) -> None:
        if room.host_id != user_id:
            raise Forbidden("only the host (房主) may do that")

    @staticmethod
    def _seat_of(room: Room, user_id: int) -> RoomSeat:
        for place in room.seats:
            if place.user_id == user_id:
                return place
        raise Forbidden("you have no seat in this room")

    def seating(self, room_id: int) -> Seating:
        with self.sessions() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            names = []
            for place in room.seats:
                if place.user is not None:
                    names.append(place.user.name)
                else:
                    names.append(_bot_name(place.bot_level, place.seat) or f"座位{place.seat}")
            return Seating(
                names=tuple(names),
                users=tuple(place.user_id for place in room.seats),
                bots=tuple(place.bot_level for place in room.seats),
                left=tuple(place.left for place in room.seats),
            )

    def seed(self, room_id: int) -> int:
        with self.sessions() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            return room.seed

    def deal_secret(self, room_id: int) -> str | None:
        """The room's fair-deal secret (``None``: a room made before fair deals, dealt from its seed).
        For the table only: it is never sent to anyone."""
        with self.sessions() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            return room.deal_secret

    def playing_room_ids(self) -> list[int]:
        with self.sessions() as db:
            return list(db.scalars(select(Room.id).where(Room.status == "playing")))

    # --- cleanup -------------------------------------------------------------------------------

    def cleanup(
        self, *, idle_room_hours: float, stale_guest_days: float, now: datetime | None = None
    ) -> Cleanup:
        """Close waiting rooms nobody touched for ``idle_room_hours`` (their numbers are free again),
        and delete guests who have not used a session for ``stale_guest_days`` and never played."""
        now = now or utcnow()
        with self.sessions.begin() as db:
            rooms = self._close_idle_rooms(db, now - timedelta(hours=idle_room_hours))
            guests = self._delete_stale_guests(db, now - timedelta(days=stale_guest_days))
        return Cleanup(rooms=rooms, guests=guests)

    @staticmethod
    def _close_idle_rooms(db: Session, before: datetime) -> list[int]:
        idle = list(
            db.scalars(
                select(Room.id).where(
                    Room.status == "waiting", func.coalesce(Room.active_at, Room.created_at) < before
                )
            )
        )
        if idle:
            db.execute(update(Room).where(Room.id.in_(idle)).values(status="dissolved", finished_at=utcnow()))
        return idle

    @staticmethod
    def _delete_stale_guests(db: Session, before: datetime) -> int:
        """Guests unseen since ``before`` with no result and no seat in a game in play. Rooms they host
        never started (a host who played has results), so those rooms go with them."""
        in_play = select(RoomSeat.user_id).join(Room, Room.id == RoomSeat.room_id)
        in_play = in_play.where(Room.status == "playing", RoomSeat.user_id.is_not(None))
        played = select(Result.user_id).where(Result.user_id.is_not(None))
        # A host whose room has results keeps it (and so cannot go): belt and braces, as such a host
        # has a result of their own.
        hosts_of_played = select(Room.host_id).where(Room.id.in_(select(Result.room_id)))
        stale = list(
            db.scalars(
                select(User.id)
                .where(
                    User.login.is_(None),
                    func.coalesce(User.seen_at, User.created_at) < before,
                    User.id.not_in(in_play),
                    User.id.not_in(played),
                    User.id.not_in(hosts_of_played),
                )
                .limit(CLEANUP_BATCH)
            )
        )
        if not stale:
            return 0
        hosted = select(Room.id).where(Room.host_id.in_(stale), Room.status != "playing")
        db.execute(delete(RoomSeat).where(RoomSeat.room_id.in_(hosted)))
        db.execute(delete(Room).where(Room.host_id.in_(stale), Room.status != "playing"))
        db.execute(update(RoomSeat).where(RoomSeat.user_id.in_(stale)).values(user_id=None, ready=False))
        db.execute(delete(AuthSession).where(AuthSession.user_id.in_(stale)))
        db.execute(delete(User).where(User.id.in_(stale)))
        return len(stale)

    # --- play ------------------------------------------------------------------------------------

    def add_move(self, room_id: int, hand_index: int, number: int, action: dict[str, Any]) -> None:
        with self._writing() as db:
            db.add(Move(room_id=room_id, hand_index=hand_index, number=number, action=action))

    def add_contribution(self, room_id: int, hand_index: int, seat: int, value: str) -> None:
        """Store a seat's contribution to a hand's wall: once per seat and hand (the first stands,
        :class:`AlreadyContributed`), and never once the hand is dealt (:class:`DealClosed`)."""
        with self._writing() as db:
            db.get(Room, room_id, with_for_update=True)  # one room's contributions queue up (PostgreSQL)
            stored = self._contributions_of(db, room_id, hand_index)
            if len(stored) == SEATS:
                raise DealClosed(f"hand {hand_index + 1} is dealt: its contributions are sealed")
            if seat in stored:
                raise AlreadyContributed(f"seat {seat} has contributed to hand {hand_index + 1} already")
            db.add(Contribution(room_id=room_id, hand_index=hand_index, seat=seat, value=value))
            try:
                db.flush()
            except IntegrityError:  # the same seat at the same moment: the other write stands
                raise AlreadyContributed(
                    f"seat {seat} has contributed to hand {hand_index + 1} already"
                ) from None

    def seal_contributions(self, room_id: int, hand_index: int) -> tuple[str, str, str, str]:
        """The four contributions a hand is dealt with, stored before the deal: "" is written for
        every seat that sent none, so nothing more is taken and a rebuild deals the same wall."""
        with self._writing() as db:
            db.get(Room, room_id, with_for_update=True)
            stored = self._contributions_of(db, room_id, hand_index)
            for seat in range(SEATS):
                if seat not in stored:
                    db.add(Contribution(room_id=room_id, hand_index=hand_index, seat=seat, value=""))
                    stored[seat] = ""
            return stored[0], stored[1], stored[2], stored[3]

    def contributions(self, room_id: int) -> dict[int, dict[int, str]]:
        """Every stored contribution of a room: hand index → seat → value."""
        with self.sessions() as db:
            found: dict[int, dict[int, str]] = {}
            for row in db.scalars(select(Contribution).where(Contribution.room_id == room_id)):
                found.setdefault(row.hand_index, {})[row.seat] = row.value
            return found

    @staticmethod
    def _contributions_of(db: Session, room_id: int, hand_index: int) -> dict[int, str]:
        rows = db.scalars(
            select(Contribution).where(Contribution.room_id == room_id, Contribution.hand_index == hand_index)
        )
        return {row.seat: row.value for row in rows}

    def moves(self, room_id: int) -> list[list[dict[str, Any]]]:
        """Every stored move, per hand, in order."""
        with self.sessions() as db:
            rows = db.scalars(
                select(Move).where(Move.room_id == room_id).order_by(Move.hand_index, Move.number)
            )
            hands: list[list[dict[str, Any]]] = []
            for row in rows:
                while len(hands) <= row.hand_index:
                    hands.append([])
                hands[row.hand_index].append(row.action)
            return hands

    def finish_hand(
        self, room_id: int, hand_index: int, record: dict[str, Any], result: dict[str, Any]
    ) -> None:
        with self._writing() as db:
            db.merge(PlayedHand(room_id=room_id, hand_index=hand_index, record=record, result=result))

    def finish_match(self, room_id: int, status: str, totals: Sequence[int]) -> None:
        with self._writing() as db:
            room = db.get(Room, room_id)
            if room is None:
                raise NotFound(f"no room #{room_id}")
            room.status = status
            room.finished_at = utcnow()
            order = sorted(range(SEATS), key=lambda seat: -totals[seat])
            for place in room.seats:
                bot = _bot_name(place.bot_level, place.seat) or ""
                name = place.user.name if place.user is not None else bot
                db.merge(
                    Result(
                        room_id=room_id,
                        seat=place.seat,
                        user_id=place.user_id,
                        name=name,
                        total=totals[place.seat],
                        rank=1 + sum(1 for other in order if totals[other] > totals[place.seat]),
                    )
                )

    # --- history -------------------------------------------------------------------------------

    def history(self, user_id: int, *, limit: int = 50) -> list[HistoryEntry]:
        """My games, newest first, each with my result and my statistics over its hands."""
        with self.sessions() as db:
            query = (
                select(Room, RoomSeat.seat)
                .join(RoomSeat, RoomSeat.room_id == Room.id)
                .where(RoomSeat.user_id == user_id)
                .order_by(Room.id.desc())
                .limit(limit)
            )
            return [self._history_entry(db, room, seat) for room, seat in db.execute(query).all()]

    @staticmethod
    def _history_entry(db: Session, room: Room, seat: int) -> HistoryEntry:
        results = list(db.scalars(select(PlayedHand.result).where(PlayedHand.room_id == room.id)))
        totals = {row.seat: row.total for row in db.scalars(select(Result).where(Result.room_id == room.id))}
        rank: int | None = None
        if len(totals) == SEATS:
            rank = ranks([totals[place] for place in range(SEATS)], results)[seat]
        ruleset = load_ruleset(room.preset, room.options)
        stats = seat_stats(results, seat)
        return HistoryEntry(
            number=room.number,
            status=room.status,
            preset=room.preset,
            rules_zh=ruleset.zh,
            rules_en=ruleset.en,
            seat=seat,
            total=totals.get(seat),
            rank=rank,
            hands_played=len(results),
            created_at=room.created_at.isoformat(timespec="seconds") + "Z",
            wins=stats.wins,
            self_draws=stats.self_draws,
            deal_ins=stats.deal_ins,
            kongs=stats.kongs,
            biggest=stats.biggest,
        )

    def played_hands(self, number: str) -> list[dict[str, Any]]:
        """The settlements of the finished hands of a room (public to anyone who knows the number)."""
        with self.sessions() as db:
            room = self._room(db, number)
            rows = db.scalars(
                select(PlayedHand).where(PlayedHand.room_id == room.id).order_by(PlayedHand.hand_index)
            )
            return [row.result for row in rows]

    def hand_record(self, number: str, hand_index: int) -> dict[str, Any]:
        """A finished hand's record with every tile open; a hand still in play is not given out."""
        with self.sessions() as db:
            room = self._room(db, number)
            row = db.get(PlayedHand, (room.id, hand_index))
            if row is None:
                raise NotFound(f"hand {hand_index} of room {number} is not finished (or does not exist)")
            return row.record

    def match_record(self, number: str) -> dict[str, Any]:
        """Every finished hand of a room as one ``hupai-record/1``."""
        with self.sessions() as db:
            room = self._room(db, number)
            rows = list(
                db.scalars(
                    select(PlayedHand).where(PlayedHand.room_id == room.id).order_by(PlayedHand.hand_index)
                )
            )
            if not rows:
                raise NotFound(f"room {number} has no finished hand yet")
            record = dict(rows[0].record)
            record["hands"] = [hand for row in rows for hand in row.record["hands"]]
            return record

    def results(self, room_id: int) -> list[Result]:
        with self.sessions() as db:
            return list(db.scalars(select(Result).where(Result.room_id == room_id).order_by(Result.seat)))
