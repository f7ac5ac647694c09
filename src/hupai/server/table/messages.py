"""What a table talks with: the connections of its clients, and what arrives in its inbox (a client's
message, a join or leave, a changed room, an escape or a dissolve; and its own searching bots'
choices). The relays of a cluster carry the first kind between processes."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from hupai.game.actions import Action
from hupai.server.mailbox import Mailbox
from hupai.server.protocol import ClientMessageType

OUTBOX_LIMIT = 500  # a client this far behind is cut off rather than slowing the table


class Connection:
    """One client's socket as the table sees it: messages are queued, never awaited."""

    def __init__(self, user_id: int | None, *, hand: int = -1, since: int = 0, patches: bool = False) -> None:
        self.user_id = user_id
        self.seat: int | None = None
        self.hand_index = hand  # the hand this client has events of
        self.sent_events = since  # how many of that hand's events it has, as its seat sees them
        self.events_at: int | None = None  # where they end among all the hand's events (None: find it)
        # Messages, or their JSON text when it came ready-made (relayed from a table elsewhere).
        self.outbox: Mailbox[dict[str, Any] | str | None] = Mailbox()
        self.closed = False
        self.hints = False  # the player asked for hints
        self.hints_for: tuple[Any, ...] | None = None  # what the last hints were computed for
        self.last_hints: dict[str, Any] | None = None
        # The client asked for patches (``delta=1``): after a first whole view, each update carries
        # what changed since the view and table facts it was sent last (docs/protocol.md).
        self.patches = patches
        self.last_view: dict[str, Any] | None = None  # None: the next update carries the whole view
        self.last_facts: dict[str, Any] | None = None
        self.view_hand = -1  # the hand of last_view

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            self.close()
            return
        self.outbox.put(message)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put(None)


# --- what arrives in a table's inbox ---------------------------------------------------------------


@dataclass(frozen=True)
class Join:
    connection: Connection


@dataclass(frozen=True)
class Leave:
    connection: Connection


@dataclass(frozen=True)
class FromClient:
    connection: Connection
    message: ClientMessageType


@dataclass(frozen=True)
class RoomChanged:
    """The room's row changed (seats, ready, start, votes): reload it and tell everyone."""


@dataclass(frozen=True)
class Escape:
    """A player leaves the started game for good (逃跑)."""

    seat: int
    done: asyncio.Future[None] | None = None  # set once handled, for the request that asked


@dataclass(frozen=True)
class Dissolve:
    """Everyone agreed to end the game now (解散)."""

    done: asyncio.Future[None] | None = None


@dataclass(frozen=True)
class Searched:
    """A searching bot's choice, back from the pool (table.searches): for prompt ``seq`` of ``seat``
    (None: the search gave none; the heuristic's choice stands)."""

    seat: int
    seq: int
    action: Action | None


Message = Join | Leave | FromClient | RoomChanged | Escape | Dissolve  # what may come from another process
Inbox = Message | Searched  # what a table's inbox holds
