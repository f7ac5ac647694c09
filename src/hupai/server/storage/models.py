"""The stored data: players, their sessions, rooms, seats, every move of every hand, and results.

Moves are written one by one as they happen, so a table can be rebuilt exactly after a restart (the
deal comes from the room's deal secret and the players' stored contributions — or, in rooms made
before fair deals, from the room's seed); a finished hand also keeps its whole ``hupai-record/1``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Float, ForeignKey, Index, String, UniqueConstraint, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}  # noqa: RUF012


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    avatar: Mapped[str | None] = mapped_column(
        String(16)
    )  # chosen 头像 (schemas.Avatar); None: from the name
    # Registered players log in by name, so a name is theirs alone; guests may share one. ``login``
    # is the name's key (hupai.server.names.name_key): names that look alike share it.
    login: Mapped[str | None] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    seen_at: Mapped[datetime | None] = mapped_column(default=utcnow)  # last use of a session (hourly)

    @property
    def is_guest(self) -> bool:
        return self.login is None


class AuthSession(Base):
    __tablename__ = "auth_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the cookie
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime]

    user: Mapped[User] = relationship()


class Room(Base):
    __tablename__ = "rooms"
    __table_args__ = (
        Index("ix_rooms_number_status", "number", "status"),
        Index("ix_rooms_host_status", "host_id", "status"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(String(6))  # 房号: unique among rooms not yet closed
    preset: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]]  # the rule card's changes to the preset
    hands: Mapped[int]  # hands in the match (4/8/16)
    decision_seconds: Mapped[int]
    next_hand_seconds: Mapped[int] = mapped_column(default=15, server_default="15")  # the pause between hands
    # the pause after every discard, whether or not anyone may claim it
    claim_seconds: Mapped[float] = mapped_column(Float, default=0.6, server_default="0.6")
    # how long a dissolve vote (解散) waits for answers; silence then counts as agreement
    dissolve_seconds: Mapped[int] = mapped_column(default=60, server_default="60")
    bot_level: Mapped[str] = mapped_column(String(20))  # fills seats still empty at the start
    # how long bots seem to think (server.table.think.PACES)
    bot_pace: Mapped[str] = mapped_column(String(10), default="natural", server_default="natural")
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    # waiting/playing/finished/dissolved, or closed: a table that could not go on (closed_reason says why)
    status: Mapped[str] = mapped_column(String(12), default="waiting")
    closed_reason: Mapped[str | None] = mapped_column(String(200))
    seed: Mapped[int] = mapped_column(BigInteger)
    # Fair deals (hupai.game.fairness): each hand's secret is derived from this one. Never sent to a
    # client; NULL in rooms made before fair deals, which deal from their seed.
    deal_secret: Mapped[str | None] = mapped_column(String(64))
    # Who may come in (storage.invitations): the invitation link's token, needed to sit and (watchers
    # "invited") to watch or read the room; a locked room lets nobody new in. Never in a RoomOut.
    invite_token: Mapped[str | None] = mapped_column(String(32))
    locked: Mapped[bool] = mapped_column(default=False, server_default=false())
    watchers: Mapped[str] = mapped_column(String(8), default="invited", server_default="invited")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    active_at: Mapped[datetime | None] = mapped_column(default=utcnow)  # last change while waiting
    finished_at: Mapped[datetime | None]
    summary: Mapped[dict[str, Any] | None]  # the match's 大结算 once it has ended (match_end)
    # A club's table (opened from one of its 玩法): its members come in without a link, nobody else.
    club_id: Mapped[int | None] = mapped_column(ForeignKey("clubs.id"), index=True)
    club_rules_name: Mapped[str | None] = mapped_column(String(32))  # the 玩法 it was opened from
    club: Mapped[Club | None] = relationship()

    seats: Mapped[list[RoomSeat]] = relationship(order_by="RoomSeat.seat", cascade="all, delete-orphan")
    dissolve_votes: Mapped[list[DissolveVote]] = relationship(
        order_by="DissolveVote.id", cascade="all, delete-orphan"
    )


class RoomSeat(Base):
    __tablename__ = "room_seats"
    # A person holds at most one seat of a room, whatever two requests race for (NULLs — empty seats
    # and bots — are distinct, so they never clash). A seat is one row (room_id, seat), so two people
    # can never both hold it either.
    __table_args__ = (Index("uq_room_seats_room_user", "room_id", "user_id", unique=True),)

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    bot_level: Mapped[str | None] = mapped_column(String(20))
    ready: Mapped[bool] = mapped_column(default=False)
    left: Mapped[bool] = mapped_column(default=False)  # left the started game for good (逃跑)

    user: Mapped[User | None] = relationship()


class DissolveVote(Base):
    """A vote to end a match early (解散): who asked, where in the match, each seat's answer (``None``
    until given: silence counts as agreement once ``deadline`` passes), and how it ended. A room has
    at most one open vote (``result`` None); its room row is locked while a vote changes."""

    __tablename__ = "dissolve_votes"

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    asked_by: Mapped[int]  # the seat that asked
    hand_index: Mapped[int]  # asked in this hand (or in the pause before it) ...
    after_move: Mapped[int]  # ... after this many of its actions
    answers: Mapped[list[Any]]  # per seat: true (agree), false (refuse) or null (not yet, or a bot)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    deadline: Mapped[datetime]
    result: Mapped[str | None] = mapped_column(String(10))  # agreed, refused, timeout; null while open
    ended_at: Mapped[datetime | None]


class Move(Base):
    """One action of a hand in play, in order (the record's ``actions``)."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("room_id", "hand_index", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    hand_index: Mapped[int]
    number: Mapped[int]
    action: Mapped[dict[str, Any]]


class Contribution(Base):
    """A seat's random contribution to a hand's wall, stored before the deal uses it. One row per
    seat and hand, written once: the deal writes "" for every seat that sent nothing, so a hand with
    four rows is dealt (sealed) and a restarted table deals it again from the same four values."""

    __tablename__ = "contributions"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    hand_index: Mapped[int] = mapped_column(primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    value: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PlayedHand(Base):
    """A finished hand: its whole record (every tile) and its settlement."""

    __tablename__ = "played_hands"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    hand_index: Mapped[int] = mapped_column(primary_key=True)
    record: Mapped[dict[str, Any]]
    result: Mapped[dict[str, Any]]
    finished_at: Mapped[datetime] = mapped_column(default=utcnow)


class Result(Base):
    """A player's outcome of a whole match (大结算)."""

    __tablename__ = "results"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    total: Mapped[int]
    rank: Mapped[int]


class TableLease(Base):
    """Which server process owns a room's table (many processes on one database, issue 17).

    ``epoch`` grows by one each time the table changes owner: the owner's every write checks it
    (fencing), so a process that lost its lease — paused, cut off — can never write again."""

    __tablename__ = "table_leases"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(100))
    epoch: Mapped[int]
    expires_at: Mapped[datetime]


class Club(Base):
    """A 亲友圈: a standing group with its owner (圈主), admins and members (issue 49)."""

    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[str] = mapped_column(String(8), unique=True)  # 圈号: said aloud; lets nobody in
    name: Mapped[str] = mapped_column(String(32))
    owner_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    # The invitation link's token (a join needs it); None: the owner closed joining. Never sent to a
    # member who is not the owner or an admin.
    invite_token: Mapped[str | None] = mapped_column(String(32))
    invite_made_at: Mapped[datetime | None]  # when the link was made (None: when the club was)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None]  # a closed club is gone for everyone

    members: Mapped[list[ClubMember]] = relationship(
        order_by="ClubMember.joined_at", cascade="all, delete-orphan"
    )


class ClubMember(Base):
    __tablename__ = "club_members"

    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    role: Mapped[str] = mapped_column(String(8))  # owner / admin / member
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User] = relationship()


class ClubRemoval(Base):
    """A member taken out of a club: the link they joined by no longer lets them back, only a link
    made after it (the owner or an admin re-inviting them)."""

    __tablename__ = "club_removals"

    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    removed_at: Mapped[datetime] = mapped_column(default=utcnow)


class ClubRules(Base):
    """A club's 玩法: a named rule card (a room's settings) any member opens a table from."""

    __tablename__ = "club_rules"
    __table_args__ = (UniqueConstraint("club_id", "name", name="uq_club_rules_club_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(32))
    card: Mapped[dict[str, Any]]  # a RoomIn: preset, options, hands, seconds, bots, watchers
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Review(Base):
    """复盘 of one seat of a finished match (issue 50): under way on one process (``node``, which
    writes ``hands_done`` as each hand is reviewed), done (``result``: ``hupai-review/1``), or failed.
    One row per room, seat and budget: a review asked twice is made once."""

    __tablename__ = "reviews"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    worlds: Mapped[int] = mapped_column(primary_key=True)
    status: Mapped[str] = mapped_column(String(8))  # running / done / failed
    hands_done: Mapped[int]
    hands: Mapped[int]
    result: Mapped[dict[str, Any] | None]
    node: Mapped[str | None] = mapped_column(String(80))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
