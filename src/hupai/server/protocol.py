"""Messages a client sends over the table's websocket, validated at the edge (pydantic).

Everything the server sends is a JSON object with a ``type``; see ``docs/protocol.md``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator


def view_patch(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What changed from one view (as an ``update`` carries it) to the next: the fields whose values
    differ and, under ``seats``, each seat's whole entry where it changed (``null`` where not). A
    client that asked for patches (``delta=1``) gets this instead of the view; :func:`patched_view`
    applies it. ``before`` is left as it was."""
    return patch_in_place(owned_copy(before), after)


def owned_copy(view: dict[str, Any]) -> dict[str, Any]:
    """A copy of a view whose lists are its own, to be changed in place by :func:`patch_in_place`."""
    return {key: list(value) if type(value) is list else value for key, value in view.items()}


def patch_in_place(kept: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """:func:`view_patch` from the view ``kept``, which is made equal to ``after`` on the way, its lists
    changed in place rather than replaced (a server keeps one such view per connection: see
    ``table.views.view_fields``). ``kept`` must own its lists (:func:`owned_copy`); ``after``'s lists
    are copied, never taken in, for they go out in a message still to be sent. Each seat's entry is
    a dict shared by the views of the same facts (:func:`hupai.game.view.view_message`), so an
    unchanged seat is found without comparing it."""
    patch: dict[str, Any] = {}
    for key, value in after.items():
        was = kept.get(key, _ABSENT)
        if key == "seats":
            seats = [
                None if entry is old or entry == old else entry for entry, old in zip(value, was, strict=True)
            ]
            if any(entry is not None for entry in seats):
                patch["seats"] = seats
                was[:] = value
        elif was is not value and was != value:
            patch[key] = value
            if type(was) is list and type(value) is list:
                was[:] = value
            else:
                kept[key] = list(value) if type(value) is list else value
    if len(kept) != len(after):
        for gone in kept.keys() - after.keys():
            del kept[gone]
    return patch


_ABSENT = object()  # a field the view before did not have


def patched_view(before: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """The view ``patch`` (:func:`view_patch`) leads to from ``before`` (a new dict; ``before`` is
    left as it was)."""
    after = {**before, **patch}
    if "seats" in patch:
        after["seats"] = [
            was if entry is None else entry
            for entry, was in zip(patch["seats"], before["seats"], strict=True)
        ]
    return after


def encoded(message: dict[str, Any]) -> str:
    """A message as the JSON text a socket sends (UTF-8 as it is, no spaces). Keys that are not text
    are written as text, as the standard library does."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class ClientMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ActionIn(ClientMessage):
    act: Literal["discard", "pong", "kong", "hu", "pass", "ready", "chow", "lay"]
    tile: str | None = Field(default=None, max_length=4)


class Act(ClientMessage):
    """Answer the prompt numbered ``seq`` with one of its legal actions."""

    type: Literal["act"]
    seq: int
    action: ActionIn


class Sync(ClientMessage):
    """Send me the table again: the view and, of hand ``hand``, the events after the first ``since``."""

    type: Literal["sync"]
    hand: int = Field(default=-1, ge=-1)
    since: int = Field(default=0, ge=0)


class Trustee(ClientMessage):
    """托管 on or off (acting again also ends it)."""

    type: Literal["trustee"]
    on: bool


class Ting(ClientMessage):
    """听 on or off: a ready hand is played by the table (wins taken, the drawn tile let go, claims
    passed) until turned off; it changes nothing in the score."""

    type: Literal["ting"]
    on: bool


class Hints(ClientMessage):
    """Hints on or off for this connection: waits and their values, the best discards."""

    type: Literal["hints"]
    on: bool


class Continue(ClientMessage):
    """继续: I have read the settlement; deal the next hand (once everyone at the table has)."""

    type: Literal["continue"]


class Entropy(ClientMessage):
    """My random contribution to hand ``hand``'s wall (fair deals, docs/fairness.md): 0 to 64
    lowercase hex digits, sent after the hand's ``deal_commitment`` and before its deal."""

    type: Literal["entropy"]
    hand: int = Field(ge=0, le=10_000)
    value: str = Field(max_length=64, pattern=r"^[0-9a-f]*$")


class Ping(ClientMessage):
    type: Literal["ping"]


PHRASES = 12  # 快捷语: phrases 0-11, worded by each reader's client (web/js/social.js)
Emote = Literal["smile", "laugh", "cry", "angry", "cool", "shock"]


class Say(ClientMessage):
    """快捷语 by number, or an emote by name, for everyone at the table (never free text)."""

    type: Literal["say"]
    phrase: int | None = Field(default=None, ge=0, lt=PHRASES)
    emote: Emote | None = None

    @model_validator(mode="after")
    def one_thing(self) -> Say:
        if (self.phrase is None) == (self.emote is None):
            raise ValueError("say one phrase or one emote")
        return self


MAX_SDP = 7000  # an audio-only offer from a browser is 2-5 KB
MAX_CANDIDATE = 600  # one ICE candidate line


class Voice(ClientMessage):
    """Voice between the people at a table (WebRTC, peer to peer): this server only passes the
    signals on. ``join`` and ``leave`` the table's voice; ``offer``, ``answer`` and ``ice`` go to
    seat ``to`` alone, and only between seats that have joined."""

    type: Literal["voice"]
    kind: Literal["join", "leave", "offer", "answer", "ice"]
    to: int | None = Field(default=None, ge=0, le=3)
    sdp: str | None = Field(default=None, max_length=MAX_SDP)
    candidate: str | None = Field(default=None, max_length=MAX_CANDIDATE)
    mid: str | None = Field(default=None, max_length=32)
    line: int | None = Field(default=None, ge=0, le=64)

    @model_validator(mode="after")
    def complete(self) -> Voice:
        signal = self.kind in ("offer", "answer", "ice")
        if signal != (self.to is not None):
            raise ValueError("offer, answer and ice go to one seat (`to`); join and leave to none")
        if (self.kind in ("offer", "answer")) != (self.sdp is not None):
            raise ValueError("an offer or an answer carries its `sdp`, nothing else does")
        if (self.kind == "ice") != (self.candidate is not None):
            raise ValueError("an ice signal carries its `candidate`, nothing else does")
        return self


ClientMessageType = Act | Sync | Trustee | Ting | Hints | Continue | Entropy | Ping | Say | Voice
Incoming = Annotated[ClientMessageType, Field(discriminator="type")]
INCOMING: TypeAdapter[ClientMessageType] = TypeAdapter(Incoming)


def error_message(code: str, message: str, **extra: Any) -> dict[str, Any]:
    """What the server sends when it refuses a client's message (docs/protocol.md, Error codes)."""
    return {"type": "error", "code": code, "message": message, **extra}
