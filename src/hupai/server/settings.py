"""Server settings: where the database lives and how long players may think."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from platformdirs import user_data_dir

DATABASE_ENV = "HUPAI_DATABASE_URL"
SECURE_COOKIES_ENV = "HUPAI_SECURE_COOKIES"  # "1" behind HTTPS


def default_database_url() -> str:
    """An SQLite file in the user's data directory (created when missing)."""
    folder = Path(user_data_dir("hupai", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'hupai.sqlite3'}"


@dataclass(frozen=True, kw_only=True)
class Settings:
    database_url: str
    time_bank_seconds: float = 30.0  # each player's extra time for a whole match
    bot_delay_seconds: float = 0.8  # bots and 托管 seats wait this long, so people can follow the play
    # The pause between hands is each room's own setting; tests may override it for every room.
    next_hand_seconds: float | None = None
    claim_seconds: float | None = None  # the pause after every discard: the room's unless set (tests)
    max_message_bytes: int = 4096
    messages_per_second: float = 20.0  # a client sending faster than this is told to slow down
    session_days: int = 30
    secure_cookies: bool = False  # cookies only over HTTPS

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        """Settings from ``HUPAI_DATABASE_URL`` and ``HUPAI_SECURE_COOKIES``, then ``overrides``."""
        settings = cls(
            database_url=os.environ.get(DATABASE_ENV) or default_database_url(),
            secure_cookies=os.environ.get(SECURE_COOKIES_ENV, "").strip().lower() in ("1", "true", "yes"),
        )
        return replace(settings, **overrides)  # type: ignore[arg-type]
