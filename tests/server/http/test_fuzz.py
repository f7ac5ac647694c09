"""A hostile crowd: hypothesis drives several users at once through random API calls and websocket
frames — valid, half-valid and junk — and after every step checks that the server answers, never with
a 5xx, that no room in play is stuck, and that every table's state is the one its stored moves give.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from starlette.testclient import WebSocketTestSession

from hupai.game.actions import action_from_dict
from hupai.game.engine import step
from hupai.game.fairness import ALGORITHM_V2, hand_secret, room_algorithm
from hupai.game.match import Match
from hupai.game.model import Phase
from hupai.game.view import view
from hupai.rules import load_ruleset
from hupai.server.app import create_app
from hupai.server.table.actor import Table

from ...server_support import fast_settings

PRESETS = ["nanjing", "nanning", "enshi", "nanjing-002", "mars", ""]
NAMES = st.one_of(
    st.sampled_from(["小明", "Amy", "阿南", "bot", "a" * 17, "", "<b>", "\u202eevil", "ｆｕｌｌ"]),
    st.text(max_size=20),
)
JUNK_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.lists(st.integers(min_value=-5, max_value=50), max_size=20),
)
OPTION_NAMES = st.sampled_from(
    ["escape_penalty", "kong_points", "base", "bixiahu_triggers", "cap", "chow", "moma", "nonsense"]
)
ROOM_CALLS = ["sit", "bots", "remove", "ready", "start", "leave", "dissolve"]
ACTS = ["discard", "pong", "kong", "hu", "pass", "ready", "chow", "lay", "x"]


def junk_frame() -> st.SearchStrategy[str]:
    message = st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["act", "sync", "trustee", "ting", "hints", "continue", "entropy", "ping", "nope"]
            )
        },
        optional={
            "seq": st.integers(min_value=-1, max_value=2**40),
            "on": st.booleans(),
            "hand": st.integers(min_value=-2, max_value=40),
            "since": st.integers(min_value=-1, max_value=10**6),
            "value": st.sampled_from(["", "0f", "ab" * 32, "AB", "ab" * 33, "xyz"]),
            "action": st.fixed_dictionaries(
                {"act": st.sampled_from(ACTS)},
                optional={"tile": st.sampled_from(["1m", "5p", "9s", "7z", "1f", "0m", "xx"])},
            ),
        },
    )
    return st.one_of(
        message.map(json.dumps),
        st.text(max_size=40),
        st.just("[" * 2000 + "]" * 2000),
        st.just('{"type": "act", "seq": 1e999}'),
    )


class HostileCrowd(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder: Path | None = None
        self.client: TestClient | None = None
        self.users: list[dict[str, str]] = []
        self.rooms: list[str] = []
        self.invites: dict[str, str] = {}  # each room's invitation token, as its host was given it
        self.sockets: list[WebSocketTestSession] = []
        self.opened: list[WebSocketTestSession] = []  # every socket, to leave its context at the end

    @initialize()
    def open_server(self) -> None:
        import tempfile

        self.folder = Path(tempfile.mkdtemp(prefix="hupai-fuzz-"))
        self.client = TestClient(create_app(fast_settings(f"sqlite:///{self.folder / 'fuzz.sqlite3'}")))
        self.client.__enter__()
        for name in ("甲", "乙"):
            self.users.append(self.login(name))

    def teardown(self) -> None:
        for socket in self.opened:  # leaving each context ends its task (close() alone would not)
            with contextlib.suppress(Exception):  # the server may have closed it already
                socket.__exit__(None, None, None)
        if self.client is not None:
            self.client.__exit__(None, None, None)

    # --- helpers ------------------------------------------------------------------------------------

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        assert self.client is not None
        # sent as text, as an attacker would: NaN and Infinity go out as written
        content = None if body is None else json.dumps(body)
        response = self.client.request(
            method, path, content=content, headers={"Content-Type": "application/json", **(headers or {})}
        )
        assert response.status_code < 500, f"{method} {path} {body!r}: {response.status_code} {response.text}"
        return response

    def login(self, name: str) -> dict[str, str]:
        response = self.call("POST", "/api/guest", {"name": name})
        if response.status_code != 200:
            return {}
        return {"Authorization": f"Bearer {response.json()['token']}"}

    # --- what the crowd does ------------------------------------------------------------------------

    @precondition(lambda self: len(self.users) < 5)
    @rule(name=NAMES)
    def a_guest_arrives(self, name: str) -> None:
        user = self.login(name)
        if user:
            self.users.append(user)

    @precondition(lambda self: len(self.rooms) < 4)
    @rule(
        who=st.integers(min_value=0, max_value=4),
        preset=st.sampled_from(PRESETS),
        hands=st.sampled_from([1, 4, 8, 16, 0]),
        options=st.dictionaries(OPTION_NAMES, JUNK_VALUES, max_size=2),
    )
    def a_room_is_made(self, who: int, preset: str, hands: int, options: dict[str, Any]) -> None:
        user = self.users[who % len(self.users)]
        body = {"preset": preset, "hands": hands, "options": options}
        response = self.call("POST", "/api/rooms", body, user)
        if response.status_code == 200:
            self.rooms.append(response.json()["number"])
            self.invites[response.json()["number"]] = response.json()["invite"]

    @precondition(lambda self: bool(self.rooms))
    @rule(
        who=st.integers(min_value=0, max_value=4),
        room=st.integers(min_value=0, max_value=3),
        what=st.sampled_from(ROOM_CALLS),
        seat=st.one_of(st.none(), st.integers(min_value=-1, max_value=4)),
        flag=st.booleans(),
        guess=st.one_of(st.none(), st.text(max_size=70)),
    )
    def someone_acts_on_a_room(
        self, who: int, room: int, what: str, *, seat: int | None, flag: bool, guess: str | None
    ) -> None:
        user = self.users[who % len(self.users)]
        number = self.rooms[room % len(self.rooms)]
        body: dict[str, Any] = {}
        if what in ("sit", "bots", "remove") and seat is not None:
            body["seat"] = seat
        if what == "sit":  # with the room's invitation, or with whatever a stranger guesses
            body["invite"] = self.invites[number] if guess is None else guess
        if what == "ready":
            body["ready"] = flag
        if what == "dissolve":
            body["agree"] = flag
        self.call("POST", f"/api/rooms/{number}/{what}", body, user)

    @precondition(lambda self: bool(self.rooms) and len(self.sockets) < 6)
    @rule(who=st.integers(min_value=0, max_value=4), room=st.integers(min_value=0, max_value=3))
    def someone_opens_a_socket(self, who: int, room: int) -> None:
        assert self.client is not None
        user = self.users[who % len(self.users)]
        number = self.rooms[room % len(self.rooms)]
        token = user.get("Authorization", "").removeprefix("Bearer ")
        invite = self.invites[number]
        socket = self.client.websocket_connect(f"/api/rooms/{number}/ws?token={token}&invite={invite}")
        self.sockets.append(socket.__enter__())
        self.opened.append(socket)

    @precondition(lambda self: bool(self.sockets))
    @rule(index=st.integers(min_value=0, max_value=5), frame=junk_frame())
    def a_socket_sends_a_frame(self, index: int, frame: str) -> None:
        socket = self.sockets[index % len(self.sockets)]
        try:
            socket.send_text(frame)
            socket.send_text('{"type": "ping"}')  # the server always answers: read up to it
            while socket.receive_json().get("type") != "pong":
                pass
        except Exception:  # a socket the server closed (a refused frame may close it) is dropped
            self.sockets.remove(socket)

    # --- what must always hold -----------------------------------------------------------------------

    @invariant()
    def the_server_answers(self) -> None:
        if self.client is not None:
            assert self.call("GET", "/api/health").json()["ok"] is True

    @invariant()
    def no_room_is_stuck_and_every_table_is_its_stored_moves(self) -> None:
        if self.client is None:
            return
        app: Any = self.client.app
        tables = app.state.tables.tables
        store = app.state.store
        for table in list(tables.values()):
            # read the table in its own event loop, never while it is moving
            facts = self.client.portal.call(_table_facts, table)  # type: ignore[union-attr]
            if facts is None:
                continue
            stuck = f"room {table.room_id}: a hand in play waits on nobody"
            assert facts.pending or facts.next_hand_at is not None, stuck
            # Read after the table was: it may have stored more moves since (and played on), so the
            # hand in play is rebuilt from as many of its moves as it had played then.
            stored = store.play.moves(table.room_id)
            now = stored[facts.hand_index] if facts.hand_index < len(stored) else []
            assert len(now) >= facts.moves_stored, f"room {table.room_id}: a move it stored is missing"
            secret = store.rooms.deal_secret(table.room_id)
            contributions = store.play.contributions(table.room_id)
            match = Match(load_ruleset(facts.preset, facts.changed), seed=facts.seed, seats=facts.seats)
            for index in range(facts.hand_index + 1):  # a hand with no move yet has nothing stored
                if secret is None:  # a room made before fair deals: dealt from its seed
                    rebuilt = match.start_hand()
                else:  # dealt from the hand's secret and the contributions stored before the deal
                    given = contributions.get(index, {})
                    placed = room_algorithm(secret) == ALGORITHM_V2  # (hupai-fair/2: room and index)
                    rebuilt = match.start_hand(
                        fair_secret=hand_secret(secret, index),
                        contributions=[given.get(seat, "") for seat in range(4)],
                        fair_room=table.room.number if placed else None,
                        fair_hand=index if placed else None,
                    )
                played = stored[index] if index < facts.hand_index else now[: facts.moves_played]
                for data in played:
                    if data.get("act") == "escape":
                        return
                    step(rebuilt, action_from_dict(data))
                if index < facts.hand_index:
                    match.finish_hand(rebuilt)
            for seat, seen in zip((None, 0, 1, 2, 3), facts.views, strict=True):
                assert view(rebuilt, seat).as_dict() == seen


@dataclass(frozen=True)
class TableFacts:
    """A table at one moment of its event loop: what it showed and what rebuilds it."""

    views: list[dict[str, Any]]  # the hand as everyone (None) and each seat saw it
    pending: dict[int, Any]
    next_hand_at: float | None
    preset: str
    changed: Any
    seed: int
    seats: tuple[str, ...]
    hand_index: int
    moves_stored: int  # the hand's moves stored …
    moves_played: int  # … and played: less those stored ahead of a claim window's release


def _table_facts(table: Table) -> TableFacts | None:
    """A table's live state and what rebuilds it, or None when no hand is in play. Taken in the
    table's own event loop, so that it is of one moment: a move may be stored and not yet played
    (its write awaited), and the state changes in place as soon as the loop goes on."""
    state = table.state
    if table.match is None or state is None or state.phase is Phase.ENDED or table.task is None:
        return None
    assert not table.task.done(), f"room {table.room_id}: the table task died"
    seating = table.seating
    assert seating is not None
    ahead = sum(pending.stored_as is not None for pending in table.pending.values())
    return TableFacts(
        views=[view(state, seat).as_dict() for seat in (None, 0, 1, 2, 3)],
        pending=dict(table.pending),
        next_hand_at=table.next_hand_at,
        preset=table.room.rules.preset,
        changed=table.room.rules.changed,
        seed=table.match.seed,
        seats=tuple(seating.names),
        hand_index=len(table.match.results),
        moves_stored=table.moves_in_hand,
        moves_played=table.moves_in_hand - ahead,
    )


# The server moves on by itself between steps (bots play at once), so a run cannot be replayed step for
# step: no shrinking, and a small budget that keeps the suite quick.
HostileCrowd.TestCase.settings = settings(
    max_examples=5,
    stateful_step_count=20,
    deadline=None,
    database=None,
    phases=[Stage.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_a_hostile_crowd = HostileCrowd.TestCase
