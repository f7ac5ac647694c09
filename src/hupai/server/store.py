"""Everything the server keeps, behind one small API (synchronous SQLAlchemy sessions).

Web handlers call it from the thread pool; table tasks call it through ``asyncio.to_thread``. Each
method is one transaction. Errors are :class:`StoreError` subclasses carrying an HTTP status and a
message a player understands.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from hupai.rules import RuleError, find_preset, load_ruleset
from hupai.server.models import AuthSession, Move, PlayedHand, Result, Room, RoomSeat, User, utcnow
from hupai.server.schemas import EscapeOut, HistoryEntry, RoomIn, RoomOut, RuleCardOut, SeatOut, UserOut
from hupai.server.stats import ranks, seat_stats

SEATS = 4
OPEN_STATUSES = ("waiting", "playing")
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


@dataclass(frozen=True)
class Seating:
    """Who sits where when a match runs: names, humans (user ids) and bot levels."""

    names: tuple[str, ...]
    users: tuple[int | None, ...]
    bots: tuple[str | None, ...]
    left: tuple[bool, ...]


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


class Store:
    def __init__(self, sessions: sessionmaker[Session], *, session_days: int = 30) -> None:
        self.sessions = sessions
        self.session_days = session_days

    # --- accounts ------------------------------------------------------------------------------

    def _new_session(self, db: Session, user: User) -> str:
        token = secrets.token_urlsafe(32)
        expires = utcnow() + timedelta(days=self.session_days)
        db.add(AuthSession(token_hash=token_hash(token), user_id=user.id, expires_at=expires))
        return token

    def create_guest(self, name: str) -> tuple[UserOut, str]:
        with self.sessions.begin() as db:
            user = User(name=name)
            db.add(user)
            db.flush()
            return user_out(user), self._new_session(db, user)

    def register(self, name: str, password: str, *, guest_id: int | None = None) -> tuple[UserOut, str]:
        """A named account; a guest who registers keeps their games (``guest_id``)."""
        with self.sessions.begin() as db:
            if db.scalar(select(User).where(User.login == name.casefold())) is not None:
                raise Conflict(f"the name {name!r} is taken")
            user = db.get(User, guest_id) if guest_id is not None else None
            if user is None or not user.is_guest:
                user = User(name=name)
                db.add(user)
            user.name = name
            user.login = name.casefold()
            user.password_hash = _hasher.hash(password)
            db.flush()
            return user_out(user), self._new_session(db, user)

    def login(self, name: str, password: str) -> tuple[UserOut, str]:
        with self.sessions.begin() as db:
            user = db.scalar(select(User).where(User.login == name.casefold()))
            try:
                if user is None or user.password_hash is None:
                    raise VerificationError
                _hasher.verify(user.password_hash, password)
            except (VerificationError, InvalidHashError):
                raise Unauthorized("wrong name or password") from None
            if _hasher.check_needs_rehash(user.password_hash):
                user.password_hash = _hasher.hash(password)
            return user_out(user), self._new_session(db, user)

    def logout(self, token: str) -> None:
        with self.sessions.begin() as db:
            db.execute(delete(AuthSession).where(AuthSession.token_hash == token_hash(token)))

    def user_for_token(self, token: str | None) -> UserOut | None:
        if not token:
            return None
        with self.sessions() as db:
            found = db.get(AuthSession, token_hash(token))
            if found is None or found.expires_at < utcnow():
                return None
            return user_out(found.user)

    # --- rooms ---------------------------------------------------------------------------------

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
        with self.sessions.begin() as db:
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
            )
            room.seats = [RoomSeat(seat=seat) for seat in range(SEATS)]
            room.seats[0].user_id = host_id
            db.add(room)
            db.flush()
            db.refresh(room)
            return room_out(room)

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
        return room

    def sit(self, number: str, user_id: int, seat: int | None = None) -> RoomOut:
        with self.sessions.begin() as db:
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
        with self.sessions.begin() as db:
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
        with self.sessions.begin() as db:
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
        with self.sessions.begin() as db:
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
        with self.sessions.begin() as db:
            room = self._waiting(db, number)
            self._seat_of(room, user_id).ready = ready
            return room_out(room)

    def start(self, number: str, user_id: int) -> RoomOut:
        """The host starts: empty seats get the room's bot level; every player must be ready."""
        with self.sessions.begin() as db:
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
        with self.sessions.begin() as db:
            room = self._room(db, number, lock=True)
            if room.status != "playing":
                raise Conflict("only a game in play is dissolved by vote")
            self._seat_of(room, user_id).wants_dissolve = agree
            players = [place for place in room.seats if place.user_id is not None and not place.left]
            unanimous = all(place.wants_dissolve for place in players)
            return room_out(room), unanimous

    def mark_left(self, room_id: int, seat: int) -> None:
        with self.sessions.begin() as db:
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

    def playing_room_ids(self) -> list[int]:
        with self.sessions() as db:
            return list(db.scalars(select(Room.id).where(Room.status == "playing")))

    # --- play ------------------------------------------------------------------------------------

    def add_move(self, room_id: int, hand_index: int, number: int, action: dict[str, Any]) -> None:
        with self.sessions.begin() as db:
            db.add(Move(room_id=room_id, hand_index=hand_index, number=number, action=action))

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
        with self.sessions.begin() as db:
            db.merge(PlayedHand(room_id=room_id, hand_index=hand_index, record=record, result=result))

    def finish_match(self, room_id: int, status: str, totals: Sequence[int]) -> None:
        with self.sessions.begin() as db:
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
