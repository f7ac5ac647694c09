"""Clubs (亲友圈, issue 49): a standing group of players with its owner (圈主), admins and members.

Who may do what: anyone registered opens a club (at most ``clubs_per_owner``); the invitation link's
token lets a player join (the club's number alone lets nobody in, as with rooms); the owner and the
admins see the link, make a new one (the old one stops working) or close joining; the owner names
admins and hands the club over; an admin removes members, the owner anyone but themself; a member
leaves (the owner hands the club over first, or closes it). To anyone who is not a member a club
does not exist: every answer is the same 404, whether there is no such club or it is not theirs.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session, object_session, selectinload

from hupai.server.errors import BadRequest, Conflict, Forbidden, NotFound
from hupai.server.schemas import ClubMemberOut, ClubOut, ClubRulesOut, RoomIn, RoomOut
from hupai.server.storage.admission import new_invite_token
from hupai.server.storage.models import (
    Club,
    ClubMember,
    ClubRemoval,
    ClubRules,
    Room,
    RoomSeat,
    User,
    utcnow,
)
from hupai.server.storage.outputs import room_out, rule_card
from hupai.server.storage.records import hands_played
from hupai.server.storage.rooms import checked_rules
from hupai.server.storage.transactions import Transactions

OWNER, ADMIN, MEMBER = "owner", "admin", "member"
LEADERS = (OWNER, ADMIN)
OPEN_TABLES = ("waiting", "playing")  # a club's tables its lobby shows


@dataclass(frozen=True)
class ClubBounds:
    """What one player or one club may have (settings ``clubs_per_owner`` and the rest)."""

    clubs_per_owner: int = 5
    members_per_club: int = 200
    rules_per_club: int = 20
    waiting_tables_per_club: int = 10


DEFAULT_CLUB_BOUNDS = ClubBounds()


@dataclass(frozen=True)
class ClubBoard:
    """A club's live lobby as read at one moment: who may see it, its open tables, and a number that
    changes whenever its members or 玩法 do."""

    members: frozenset[int]
    tables: list[RoomOut]
    club_version: int


class Clubs:
    def __init__(self, tx: Transactions, bounds: ClubBounds = DEFAULT_CLUB_BOUNDS) -> None:
        self.tx = tx
        self.bounds = bounds

    def create(self, user_id: int, name: str) -> ClubOut:
        with self.tx.writing() as db:
            user = db.get(User, user_id, with_for_update=True)  # one club at a time per owner
            if user is None or user.is_guest:
                raise Forbidden("register a name first: a club needs an owner who can log in again")
            owned = db.scalar(
                select(func.count())
                .select_from(Club)
                .where(Club.owner_id == user_id, Club.closed_at.is_(None))
            )
            if owned is not None and owned >= self.bounds.clubs_per_owner:
                raise Conflict(
                    f"you own {owned} clubs, the most one player may own",
                    code="too_many_clubs",
                    params={"n": self.bounds.clubs_per_owner},
                )
            club = Club(number=_free_number(db), name=name, owner_id=user_id, invite_token=new_invite_token())
            club.members.append(ClubMember(user_id=user_id, role=OWNER))
            db.add(club)
            db.flush()
            return club_out(club, user_id)

    def mine(self, user_id: int) -> list[ClubOut]:
        """The clubs the player belongs to, the newest first."""
        with self.tx.reading() as db:
            clubs = db.scalars(
                select(Club)
                .join(ClubMember, ClubMember.club_id == Club.id)
                .where(ClubMember.user_id == user_id, Club.closed_at.is_(None))
                .options(selectinload(Club.members).selectinload(ClubMember.user))
                .order_by(Club.id.desc())
            ).all()
            return [club_out(club, user_id) for club in clubs]

    def club(self, number: str, user_id: int) -> ClubOut:
        """The club as a member sees it: its members and its 玩法."""
        with self.tx.reading() as db:
            club, _member = membership(db, number, user_id)
            return club_out(club, user_id, _rules(db, club.id))

    def token(self, number: str, user_id: int) -> str | None:
        """The invitation token (the owner's and admins'); None while joining is closed."""
        with self.tx.reading() as db:
            club, member = membership(db, number, user_id)
            _require(member, LEADERS, "only the club's owner and admins hand out its link")
            return club.invite_token

    def set_joining(self, number: str, user_id: int, *, open_: bool) -> str | None:
        """A new link (the old one stops working), or joining closed (no link works)."""
        with self.tx.writing() as db:
            club, member = membership(db, number, user_id, lock=True)
            _require(member, LEADERS, "only the club's owner and admins change its link")
            club.invite_token = new_invite_token() if open_ else None
            if open_:
                club.invite_made_at = utcnow()  # lets back those removed before it
            return club.invite_token

    def join(self, number: str, user_id: int, invite: str) -> ClubOut:
        with self.tx.writing() as db:
            club = _club(db, number, lock=True)
            if _found(club, user_id) is not None:
                return club_out(club, user_id)  # joined already: the link opened twice
            if club.invite_token is None or not secrets.compare_digest(club.invite_token, invite):
                raise NotFound(f"no club {number} with this link", code="club_link")
            removal = db.get(ClubRemoval, (club.id, user_id))
            if removal is not None:
                if removal.removed_at >= (club.invite_made_at or club.created_at):
                    raise Forbidden(
                        "you were taken out of this club: only a link made since lets you back",
                        code="club_removed",
                    )
                db.delete(removal)  # re-invited
            if len(club.members) >= self.bounds.members_per_club:
                raise Conflict(
                    "the club is full",
                    code="club_full",
                    params={"n": self.bounds.members_per_club},
                )
            club.members.append(ClubMember(user_id=user_id, role=MEMBER))
            db.flush()
            return club_out(club, user_id)

    def leave(self, number: str, user_id: int) -> None:
        with self.tx.writing() as db:
            _club_row, member = membership(db, number, user_id, lock=True)
            if member.role == OWNER:
                raise BadRequest(
                    "hand the club over to another member first, or close it", code="owner_leaves"
                )
            db.delete(member)

    def remove(self, number: str, user_id: int, member_id: int) -> ClubOut:
        """Take a member out of the club (at once: the next thing they ask is refused)."""
        with self.tx.writing() as db:
            club, actor = membership(db, number, user_id, lock=True)
            target = _member(club, member_id)
            if target.role == OWNER or target.user_id == user_id:
                raise BadRequest("the owner cannot be removed, and nobody removes themself (leave instead)")
            if not (actor.role == OWNER or (actor.role == ADMIN and target.role == MEMBER)):
                raise Forbidden("only the owner removes admins; admins remove members")
            club.members.remove(target)
            db.merge(ClubRemoval(club_id=club.id, user_id=member_id, removed_at=utcnow()))
            db.flush()
            return club_out(club, user_id)

    def set_role(self, number: str, user_id: int, member_id: int, role: str) -> ClubOut:
        """Make a member an admin, or an admin a member again (the owner's)."""
        with self.tx.writing() as db:
            club, actor = membership(db, number, user_id, lock=True)
            _require(actor, (OWNER,), "only the owner names admins")
            target = _member(club, member_id)
            if target.role == OWNER:
                raise BadRequest("the owner stays the owner (hand the club over instead)")
            target.role = role
            db.flush()
            return club_out(club, user_id)

    def hand_over(self, number: str, user_id: int, member_id: int) -> ClubOut:
        """Make another member the owner; the owner becomes an admin."""
        with self.tx.writing() as db:
            club, actor = membership(db, number, user_id, lock=True)
            _require(actor, (OWNER,), "only the owner hands the club over")
            target = _member(club, member_id)
            if target.user_id == user_id:
                raise BadRequest("you own the club already")
            if target.user.is_guest:
                raise BadRequest("a guest cannot own a club: they register a name first")
            actor.role, target.role, club.owner_id = ADMIN, OWNER, target.user_id
            db.flush()
            return club_out(club, user_id)

    # --- 玩法: saved rule cards, and the tables opened from them -----------------------------------

    def save_rules(self, number: str, user_id: int, name: str, card: RoomIn) -> ClubOut:
        """Save a 玩法 (the owner's and admins'); a name already saved is replaced."""
        with self.tx.writing() as db:
            club, member = membership(db, number, user_id, lock=True)
            _require(member, LEADERS, "only the club's owner and admins save its 玩法")
            saved = db.scalar(select(ClubRules).where(ClubRules.club_id == club.id, ClubRules.name == name))
            if saved is None:
                count = db.scalar(
                    select(func.count()).select_from(ClubRules).where(ClubRules.club_id == club.id)
                )
                if (count or 0) >= self.bounds.rules_per_club:
                    raise Conflict(
                        "the club has as many 玩法 as it may keep; delete one first",
                        code="too_many_rules",
                        params={"n": self.bounds.rules_per_club},
                    )
                saved = ClubRules(club_id=club.id, name=name, created_by=user_id)
                db.add(saved)
            preset, options = checked_rules(card)  # a 玩法 that would open no table is refused now
            saved.card = card.model_copy(update={"preset": preset, "options": options}).model_dump(
                mode="json"
            )
            db.flush()
            return club_out(club, user_id, _rules(db, club.id))

    def drop_rules(self, number: str, user_id: int, rules_id: int) -> ClubOut:
        with self.tx.writing() as db:
            club, member = membership(db, number, user_id, lock=True)
            _require(member, LEADERS, "only the club's owner and admins delete its 玩法")
            db.delete(_one_rules(db, club, rules_id))
            db.flush()
            return club_out(club, user_id, _rules(db, club.id))

    def table_card(self, number: str, user_id: int, rules_id: int) -> tuple[int, str, RoomIn]:
        """For a member opening a table from a 玩法: the club's id, the 玩法's name and the room's
        settings."""
        with self.tx.reading() as db:
            club, _member = membership(db, number, user_id)
            saved = _one_rules(db, club, rules_id)
            return club.id, saved.name, RoomIn.model_validate(saved.card)

    def tables(self, number: str, user_id: int) -> list[RoomOut]:
        """The club's tables waiting and in play, the newest first (its members')."""
        with self.tx.reading() as db:
            club, _member = membership(db, number, user_id)
            return _open_tables(db, club.id)

    def club_id(self, number: str, user_id: int) -> int:
        """The club's id, for its members (anyone else: 404)."""
        with self.tx.reading() as db:
            return membership(db, number, user_id)[0].id

    def board(self, club_id: int) -> ClubBoard | None:
        """What the club's live lobby shows and whom to (None: the club was closed)."""
        with self.tx.reading() as db:
            club = db.scalar(
                select(Club)
                .where(Club.id == club_id, Club.closed_at.is_(None))
                .options(selectinload(Club.members))
            )
            if club is None:
                return None
            rules = _rules(db, club_id)
            # The members' page and the 玩法 change together rarely: one number says whether either did.
            said = (
                club.name,
                club.owner_id,
                club.invite_token is not None,
                tuple((member.user_id, member.role) for member in club.members),
                tuple((saved.id, saved.name, repr(saved.card)) for saved in rules),
            )
            return ClubBoard(
                members=frozenset(member.user_id for member in club.members),
                tables=_open_tables(db, club_id),
                club_version=hash(said),
            )

    def close(self, number: str, user_id: int) -> None:
        """Close the club (the owner's): it is gone for every member."""
        with self.tx.writing() as db:
            club, actor = membership(db, number, user_id, lock=True)
            _require(actor, (OWNER,), "only the owner closes the club")
            club.closed_at = utcnow()
            club.invite_token = None


def _open_tables(db: Session, club_id: int) -> list[RoomOut]:
    rooms = db.scalars(
        select(Room)
        .where(Room.club_id == club_id, Room.status.in_(OPEN_TABLES))
        .options(selectinload(Room.seats).selectinload(RoomSeat.user))
        .order_by(Room.id.desc())
    ).all()
    played = hands_played(db, [room.id for room in rooms if room.status == "playing"])
    # A dissolve vote is the table's own business (and its countdown would change every answer).
    return [
        room_out(room).model_copy(
            update={
                "dissolve_vote": None,
                "hands_played": played.get(room.id, 0) if room.status == "playing" else None,
            }
        )
        for room in rooms
    ]


def _club(db: Session, number: str, *, lock: bool = False) -> Club:
    query = select(Club).where(Club.number == number, Club.closed_at.is_(None))
    if lock:
        query = query.with_for_update()
    club = db.scalar(query.options(selectinload(Club.members).selectinload(ClubMember.user)))
    if club is None:
        raise NotFound(f"no club {number}", code="no_club")
    return club


def membership(db: Session, number: str, user_id: int, *, lock: bool = False) -> tuple[Club, ClubMember]:
    """The club and the asker's membership; to anyone else, no such club (404)."""
    club = _club(db, number, lock=lock)
    member = _found(club, user_id)
    if member is None:
        raise NotFound(f"no club {number}", code="no_club")
    return club, member


def _member(club: Club, user_id: int) -> ClubMember:
    """A member someone else names (a leader removing or promoting them)."""
    member = _found(club, user_id)
    if member is None:
        raise NotFound("no such member in this club", code="no_member")
    return member


def _found(club: Club, user_id: int) -> ClubMember | None:
    return next((member for member in club.members if member.user_id == user_id), None)


def _require(member: ClubMember, roles: tuple[str, ...], why: str) -> None:
    if member.role not in roles:
        raise Forbidden(why, code="club_role")


def _rules(db: Session, club_id: int) -> list[ClubRules]:
    return list(db.scalars(select(ClubRules).where(ClubRules.club_id == club_id).order_by(ClubRules.id)))


def _one_rules(db: Session, club: Club, rules_id: int) -> ClubRules:
    rules = db.get(ClubRules, rules_id)
    if rules is None or rules.club_id != club.id:
        raise NotFound("no such 玩法 in this club", code="no_rules")
    return rules


def _free_number(db: Session) -> str:
    for _ in range(100):
        number = f"{10000000 + secrets.randbelow(90000000)}"
        if db.scalar(select(Club.id).where(Club.number == number)) is None:
            return number
    raise Conflict("no free club number; try again")  # pragma: no cover - 90 million numbers


def club_out(club: Club, user_id: int, rules: list[ClubRules] | None = None) -> ClubOut:
    """The club as ``user_id`` (a member) sees it, with its 玩法 (read in the club's session unless
    given)."""
    role = _member(club, user_id).role
    db = object_session(club)
    if rules is None and db is not None and club.id is not None:
        rules = _rules(db, club.id)
    return ClubOut(
        number=club.number,
        name=club.name,
        role=role,
        owner_id=club.owner_id,
        joining_open=club.invite_token is not None,
        members=[
            ClubMemberOut(
                user_id=member.user_id,
                name=member.user.name,
                avatar=member.user.avatar,
                guest=member.user.is_guest,
                role=member.role,
                joined_at=member.joined_at,
            )
            for member in club.members
        ],
        rules=[
            ClubRulesOut(
                id=saved.id,
                name=saved.name,
                card=dict(saved.card),
                rules=rule_card(saved.card["preset"], saved.card["options"]),
            )
            for saved in rules or []
        ],
    )
