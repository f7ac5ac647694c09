"""Accounts and sessions: guests, registered players, passwords (argon2) and session tokens (kept
only as their hashes)."""

from __future__ import annotations

import functools
import hashlib
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from hupai.server.errors import Conflict, Unauthorized
from hupai.server.names import name_key
from hupai.server.schemas import UserOut
from hupai.server.storage.models import AuthSession, User, utcnow
from hupai.server.storage.outputs import user_out

SEEN_EVERY = timedelta(hours=1)  # how often a player's last-seen time is written
_hasher = PasswordHasher()


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


class Accounts:
    def __init__(self, sessions: sessionmaker[Session], *, session_days: int = 30) -> None:
        self.sessions = sessions
        self.session_days = session_days

    def _new_session(self, db: Session, user: User) -> str:
        token = secrets.token_urlsafe(32)
        expires = utcnow() + timedelta(days=self.session_days)
        db.add(AuthSession(token_hash=token_hash(token), user_id=user.id, expires_at=expires))
        return token

    def create_guest(self, name: str, avatar: str | None = None) -> tuple[UserOut, str]:
        """A guest: any name but a registered player's (or one that looks like it)."""
        with self.sessions.begin() as db:
            if db.scalar(select(User.id).where(User.login == name_key(name))) is not None:
                raise Conflict(f"the name {name!r} belongs to a registered player; pick another")
            user = User(name=name, avatar=avatar)
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

    def set_avatar(self, user_id: int, avatar: str | None) -> UserOut:
        """Choose a 头像 (None: the one drawn from the name); rooms show it from their next update."""
        with self.sessions.begin() as db:
            user = db.get(User, user_id)
            if user is None:
                raise Unauthorized("no such player")
            user.avatar = avatar
            return user_out(user)

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
