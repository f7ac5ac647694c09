"""The table's state, shared by its parts, and the small facts they all read."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hupai.bots.base import Bot
from hupai.game.actions import Action
from hupai.game.match import Match
from hupai.game.model import ClaimWindow, HandState
from hupai.server.rates import TokenBucket
from hupai.server.schemas import RoomOut
from hupai.server.settings import Settings
from hupai.server.storage.rooms import Seating
from hupai.server.storage.store import Store
from hupai.server.table.messages import Connection, Inbox

log = logging.getLogger("hupai.table")
SEATS = 4


@dataclass
class Commitment:
    """A hand announced and not yet dealt: its secret (told to nobody until the hand ends), the
    commitment everyone was told, when, and the seats whose contributions are stored."""

    hand: int
    secret: str
    commitment: str
    announced: float
    contributed: set[int]


@dataclass
class Pending:
    """A decision a seat owes: its prompt number, legal actions and when it is due."""

    seq: int
    legal: list[Action]
    opened: float
    due: float  # a person's deadline, or when an automatic seat acts
    automatic: bool
    choice: Action | None = None  # an automatic seat's decision, made when the prompt opens
    answer: Action | None = None  # a person's answer given before the claim window's release: held
    answer_at: float = 0.0  # when the held answer is applied (the release)
    # A decision due at a claim window's release is stored before it (its move number here) and
    # only played at the release, so a window's outcome waits on no write (table.decisions).
    stored_as: int | None = None
    # A searching bot's turn waits for the pool's answer (table.searches) until then at the latest.
    thinking_until: float | None = None


class TableState:
    """Everything a table knows: its room and match, the hand in play, the prompts, the clocks, who is
    connected, and what it must tell them. The table's parts are functions over it; the actor
    (:class:`hupai.server.table.actor.Table`) is the one that runs them, one inbox message at a time."""

    _room: RoomOut  # loaded when the task starts

    def __init__(
        self,
        room_id: int,
        store: Store,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.room_id = room_id
        self.store = store
        self.settings = settings
        self.clock = clock
        self.connections: set[Connection] = set()
        self.seating: Seating | None = None
        self.match: Match | None = None
        self.state: HandState | None = None
        # The hand before, once over: a client that left it before its end hears the rest (views.send_update).
        self.last_ended: HandState | None = None
        self.moves_in_hand = 0
        # Prompt numbers start anywhere, so an answer to a prompt from before a restart never matches.
        self.seq = secrets.randbelow(1 << 30)
        self.pending: dict[int, Pending] = {}
        self.window: ClaimWindow | None = None  # the claim window the release time was set for
        self.release_at: float | None = None  # no decision on that window is applied before this
        self.trustee: set[int] = set()
        self.ting: set[int] = set()  # seats played on by 听 this hand (private to each seat)
        # Each seat's 听 waits and what they were found for (views.seat_waits).
        self.waits: list[tuple[int, ...]] = [()] * SEATS
        self.waits_key: list[bytes] = [b""] * SEATS
        self.facts: dict[str, Any] | None = None  # the table's facts last sent (views.table_facts)
        self.bank = [settings.time_bank_seconds] * SEATS
        self.bots: dict[int, Bot] = {}
        self.next_hand_at: float | None = None
        self.deal_secret: str | None = None  # the room's fair-deal secret (None: deals from the seed)
        self.commit: Commitment | None = None  # the next hand, announced and waiting for its deal
        self.continued: set[int] = set()  # seats that pressed 继续 since the last hand ended
        self.last_hand_end: dict[str, Any] | None = None  # resent to whoever joins between hands
        self.hand_results: list[dict[str, Any]] = []  # each hand's settlement as stored
        self.summary: dict[str, Any] | None = None
        self.chatter: dict[int, TokenBucket] = {}  # seat -> its 快捷语 allowance (table.social)
        self.voice: dict[int, Connection] = {}  # seat -> its connection in the table's voice (table.voice)
        self.voice_pace: dict[int, TokenBucket] = {}  # seat -> its joins and leaves allowance
        self.think_rng = random.Random(secrets.randbits(64))  # the bots' think times (table.think)
        self.searches: set[asyncio.Task[None]] = set()  # searching bots' turns in the pool (table.searches)
        self.room_read_at = 0.0  # when the room was last read (its vote's countdown counts from then)

    def post(self, message: Inbox) -> None:
        """Put ``message`` in the table's inbox (only a running table, the actor, has one)."""
        raise NotImplementedError("only a running table has an inbox")

    @property
    def room(self) -> RoomOut:
        return self._room

    @room.setter
    def room(self, room: RoomOut) -> None:
        self._room = room
        self.room_read_at = self.clock()

    @property
    def hand_index(self) -> int:
        return len(self.match.results) if self.match is not None else 0


def contributors(table: TableState) -> set[int]:
    """The seats a deal waits for: people connected and still in the game. Bots, empty seats and
    players not connected contribute nothing ("")."""
    present = {connection.seat for connection in table.connections if connection.seat is not None}
    return {seat for seat in present if seat not in table.bots and not table.room.seats[seat].left}


def readers(table: TableState) -> set[int]:
    """The people the table waits for between hands: connected, not in 托管, still in the game."""
    present = {connection.seat for connection in table.connections if connection.seat is not None}
    return {
        seat
        for seat in present
        if seat not in table.bots and seat not in table.trustee and not table.room.seats[seat].left
    }


def bot_levels(table: TableState) -> list[str | None]:
    return list(table.seating.bots) if table.seating is not None else [None] * SEATS


def due_at(pending: Pending) -> float:
    """When the table acts on a prompt: a held answer at the release, otherwise at its due time (or
    once its search has answered, when that is later)."""
    if pending.answer is not None:
        return pending.answer_at
    if pending.thinking_until is not None:
        return max(pending.due, pending.thinking_until)
    return pending.due


def vote_due(table: TableState) -> float | None:
    """When the room's open dissolve vote runs out (silence then counts as agreement); None: none open."""
    vote = table.room.dissolve_vote
    if table.room.status != "playing" or vote is None or vote.result is not None:
        return None
    return table.room_read_at + vote.ms_left / 1000


def room_or_override(room: float, override: float | None) -> float:
    """A room's timing setting, unless the server's settings override it for every room (tests)."""
    return float(room) if override is None else override
