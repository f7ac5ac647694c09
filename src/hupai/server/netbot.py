"""A bot that plays in a room over the network, as any player would (``hupai bot``).

It logs in as a guest, takes a free seat (or the one asked for), says it is ready, and then answers
every prompt its table sends with the chosen bot's decision. It sees exactly what a person in that
seat sees: the view in each ``update`` (see ``docs/protocol.md``; it asks for patches, ``delta=1``,
and applies them to the view before), rebuilt with
:meth:`hupai.game.view.SeatView.from_dict`. A dropped connection is reopened and the table resent
from the last event it had, so a network blip costs nothing but time.
"""

from __future__ import annotations

import json
import re
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from hupai.bots import Bot, BotError, make_bot, trustee_action
from hupai.bots.base import is_searcher
from hupai.game.actions import action_from_dict, action_to_dict
from hupai.game.view import SeatView
from hupai.server.protocol import patched_view

HEARTBEAT_SECONDS = 3.0
# A bare room number, or an invitation link's "#/join/<number>/<token>".
INVITATION = re.compile(r"(?:^|#/join/)(?P<number>\d{6})(?:/(?P<token>[A-Za-z0-9_-]{1,64}))?$")
RECONNECT_TRIES = 10
SLOW_DOWN_SECONDS = 0.2


class NetworkBotError(RuntimeError):
    """The server refused or could not be reached; the message says why, for a person."""


@dataclass
class Progress:
    """Where the bot is in the match, so a reconnect asks for exactly what it missed."""

    me: int = 0  # this bot's user id
    hand: int = -1
    events: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    answered: set[int] = field(default_factory=set)
    decisions: int = 0
    last_answer: str = ""
    contributed: int = -1  # the last hand this bot sent its contribution to the wall for
    view: dict[str, Any] | None = None  # the view as last sent or patched (the socket asks for patches)


class Api:
    """The server's HTTP API, for one logged-in client."""

    def __init__(self, server: str, timeout: float = 15.0) -> None:
        parsed = urllib.parse.urlsplit(server if "://" in server else f"http://{server}")
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise NetworkBotError(f"{server!r} is not a server address (e.g. http://127.0.0.1:8000)")
        self.base = f"{parsed.scheme}://{parsed.netloc}"
        self.timeout = timeout
        self.token: str | None = None
        self.invite: str | None = None  # the room's invitation token, from its link

    def invite_query(self) -> str:
        return f"?{urllib.parse.urlencode({'invite': self.invite})}" if self.invite else ""

    def call(self, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(
            self.base + path,
            data=None if body is None else json.dumps(body).encode(),
            headers=headers,
            method="GET" if body is None else "POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            raise NetworkBotError(_server_message(error)) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise NetworkBotError(f"cannot reach {self.base}: {reason}") from None

    def socket_url(self, number: str, progress: Progress) -> str:
        scheme = "wss" if self.base.startswith("https") else "ws"
        fields = {"token": self.token, "hand": progress.hand, "since": progress.events, "delta": 1}
        query = urllib.parse.urlencode({**fields, **({"invite": self.invite} if self.invite else {})})
        return f"{scheme}://{self.base.split('://', 1)[1]}/api/rooms/{number}/ws?{query}"


def _server_message(error: urllib.error.HTTPError) -> str:
    try:
        detail = json.loads(error.read())
    except ValueError:
        return f"the server answered {error.code}"
    if isinstance(detail.get("error"), dict):
        return str(detail["error"].get("message", error.code))
    if "detail" in detail:  # pydantic's refusal of a request body
        return f"the server refused the request: {detail['detail']}"
    return f"the server answered {error.code}"


def room_and_invite(room: str) -> tuple[str, str | None]:
    """The room number and the invitation's token from an invitation link
    (``http://host/#/join/200358/<token>``), or a bare number (for a room its host opened to anyone
    with the number, or one this bot already sits in)."""
    found = INVITATION.search(room.strip())
    if found is None:
        raise NetworkBotError(f"{room!r} is neither a room number nor an invitation link")
    return found["number"], found["token"]


def join_room(
    api: Api, number: str, *, name: str, seat: int | None, invite: str | None = None
) -> tuple[int, int, dict[str, Any]]:
    """Log in as a guest, sit and say ready. Returns the user id, the seat and the room."""
    api.token = api.call("/api/guest", {"name": name})["token"]
    api.invite = invite
    room = api.call(f"/api/rooms/{number}{api.invite_query()}")
    if room["status"] != "waiting":
        raise NetworkBotError(f"room {number} is not waiting for players (it is {room['status']})")
    room = api.call(f"/api/rooms/{number}/sit", {"seat": seat, "invite": invite})
    me = api.call("/api/me")["id"]
    taken = next(s["seat"] for s in room["seats"] if s["user_id"] == me)
    room = api.call(f"/api/rooms/{number}/ready", {"ready": True})
    return me, taken, room


def play(
    api: Api,
    number: str,
    bot: Bot,
    me: int,
    *,
    on_message: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play the room's match to its end as user ``me``; the ``match_end`` summary (大结算) is returned."""
    progress = Progress(me=me)
    tries = 0
    while True:
        try:
            with ws_connect(
                api.socket_url(number, progress),
                open_timeout=api.timeout,
                # A heartbeat: a server that does not answer a ping within a few seconds (a paused
                # process) is given up, and the bot reconnects to whichever process holds the table.
                ping_interval=HEARTBEAT_SECONDS,
                ping_timeout=HEARTBEAT_SECONDS,
            ) as socket:
                tries = 0
                summary = _play_connected(socket, bot, progress, on_message)
                if summary is not None:
                    return summary
        except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake) as error:
            tries += 1
            if tries > RECONNECT_TRIES:
                raise NetworkBotError(f"lost the connection to the table: {error}") from None
            time.sleep(min(0.5 * 2**tries, 10.0))
        except InvalidURI as error:
            raise NetworkBotError(str(error)) from None


def _play_connected(
    socket: ClientConnection,
    bot: Bot,
    progress: Progress,
    on_message: Callable[[dict[str, Any]], None] | None,
) -> dict[str, Any] | None:
    for text in socket:
        message: dict[str, Any] = json.loads(text)
        if message.get("type") == "update" and not _whole_view(message, progress):
            socket.send(json.dumps({"type": "sync", "hand": progress.hand, "since": progress.events}))
            continue
        if on_message is not None:
            on_message(message)
        kind = message.get("type")
        if kind == "room":
            _check_room(message["room"], progress)
        elif kind == "match_end":
            return message
        elif kind == "error" and message.get("code") in ("unauthorized", "not_found"):
            raise NetworkBotError(message["message"])
        elif kind == "error" and message.get("code") == "slow_down" and progress.last_answer:
            time.sleep(SLOW_DOWN_SECONDS)  # the answer was dropped unread: send it again
            socket.send(progress.last_answer)
        elif kind == "deal_commitment" and message["hand"] > progress.contributed:
            # Fair deals: like a person's browser, contribute a random value to the next hand's wall.
            progress.contributed = message["hand"]
            socket.send(
                json.dumps({"type": "entropy", "hand": message["hand"], "value": secrets.token_hex(32)})
            )
        elif kind == "update":
            _follow(message, progress)
            answer = _answer(message, bot, progress)
            if answer is not None:
                progress.last_answer = json.dumps(answer)
                socket.send(progress.last_answer)
    return None  # the server closed the socket: reconnect


def _check_room(room: dict[str, Any], progress: Progress) -> None:
    progress.options = room["rules"]["options"]
    if room["status"] == "dissolved":
        raise NetworkBotError("the room was closed before its game started")
    if room["status"] == "waiting" and all(seat["user_id"] != progress.me for seat in room["seats"]):
        raise NetworkBotError("the host removed this bot from the room")


def _whole_view(update: dict[str, Any], progress: Progress) -> bool:
    """Give the update its whole view, from the view before and its ``patch``; False when there is
    no view of the hand before it to patch (then ask for the table again)."""
    if "patch" in update:
        if progress.view is None or update["hand"] != progress.hand:
            return False
        update["view"] = patched_view(progress.view, update["patch"])
    progress.view = update["view"]
    return True


def _follow(update: dict[str, Any], progress: Progress) -> None:
    if update["hand"] != progress.hand:
        progress.hand = update["hand"]
        progress.answered.clear()
    progress.events = update["from"] + len(update["events"])


def _answer(update: dict[str, Any], bot: Bot, progress: Progress) -> dict[str, Any] | None:
    """The reply to the update's prompt, if it is one this bot still owes."""
    prompt = update.get("prompt")
    if prompt is None or prompt["automatic"] or prompt["seq"] in progress.answered:
        return None
    progress.answered.add(prompt["seq"])
    seen = SeatView.from_dict(update["view"], options=progress.options)
    legal = [action_from_dict(action) for action in prompt["legal"]]
    try:
        action = bot.choose(seen, legal)
        if action not in legal:
            action = trustee_action(seen, legal)
    except Exception:  # a bot's mistake must not stall the table: 托管 plays this decision
        action = trustee_action(seen, legal)
    progress.decisions += 1
    chosen = {key: value for key, value in action_to_dict(action).items() if key != "seat"}
    return {"type": "act", "seq": prompt["seq"], "action": chosen}


def run(
    server: str,
    number: str,
    level: str,
    *,
    name: str | None = None,
    seat: int | None = None,
    seed: int = 0,
    on_seated: Callable[[int, dict[str, Any]], None] | None = None,
    on_message: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Join room ``number`` (its invitation link, or its number) on ``server`` as a ``level`` bot and
    play its match to the end."""
    number, invite = room_and_invite(number)
    bot = make_bot(level, seed)
    if is_searcher(bot):  # it deals its worlds from the table's state
        raise BotError(f"{level!r} searches with the table's state, which a network player never has")
    api = Api(server)
    me, taken, room = join_room(api, number, name=name or f"电脑·{bot.zh}", seat=seat, invite=invite)
    if on_seated is not None:
        on_seated(taken, room)
    try:
        return play(api, number, bot, me, on_message=on_message)
    finally:
        close = getattr(bot, "close", None)  # an external bot's process
        if close is not None:
            close()
