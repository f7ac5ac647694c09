"""Patches (``delta=1``): after a hand's first whole view, each update carries only what changed, and
a client that applies them has, update after update, the very view and table facts a client of whole
views is sent (docs/protocol.md)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from hupai.game.engine import legal_actions, new_hand, step
from hupai.game.model import Phase
from hupai.game.view import view_message
from hupai.rules import load_ruleset
from hupai.server.protocol import owned_copy, patch_in_place, patched_view, view_patch
from hupai.server.table.messages import Connection
from hupai.server.table.views import view_fields

from ...server_support import Message, connect, database, database_urls, guest, new_room, play_socket, server


@pytest.fixture(params=database_urls())
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    with database(request.param, tmp_path) as url, server(url) as test_client:
        yield test_client


@pytest.mark.parametrize("preset", ["nanjing", "nanning", "enshi"])
def test_a_patch_applied_to_the_view_before_gives_the_view_after(preset: str) -> None:
    ruleset = load_ruleset(preset)
    rng = random.Random(7)
    for seed in range(20):
        state = new_hand(ruleset, dealer=seed % 4, seed=seed)
        before: list[dict[str, object] | None] = [None] * 5
        while state.phase is not Phase.ENDED:
            for index, seat in enumerate((0, 1, 2, 3, None)):
                after = view_message(state, seat)
                was = before[index]
                if was is not None:
                    patch = view_patch(was, after)
                    assert patched_view(was, patch) == after
                    assert "seat" not in patch and "ruleset" not in patch  # only what changed
                before[index] = after
            choices = [legal for seat in range(4) if (legal := legal_actions(state, seat))]
            step(state, rng.choice(choices[0]))


# Views as updates carry them: fields of plain values or lists, and four seats' entries, each a dict
# that views of the same facts share (so some entries are the very same object, some only equal).
SEAT_ENTRIES = [{"discards": ["1m"]}, {"discards": ["1m"]}, {"discards": []}, {"discards": ["2p", "3s"]}]
FIELD_VALUES = st.one_of(
    st.none(), st.integers(0, 3), st.lists(st.sampled_from(["1m", "5z", "9s"]), max_size=3)
)
VIEWS = st.fixed_dictionaries(
    {
        "seats": st.lists(st.sampled_from(SEAT_ENTRIES), min_size=4, max_size=4),
        **dict.fromkeys(("hand", "drawn", "deltas", "phase"), FIELD_VALUES),
    }
)


@given(st.lists(VIEWS, min_size=2, max_size=8))
def test_a_view_kept_in_place_follows_the_views_and_never_takes_in_their_lists(
    views: list[dict[str, object]],
) -> None:
    sent = [orjson.dumps(view) for view in views]
    kept = owned_copy(views[0])
    told = views[0]
    for view in views[1:]:
        lists = {key: value for key, value in kept.items() if type(value) is list}
        patch = patch_in_place(kept, view)
        assert patch == view_patch(told, view)
        told = patched_view(told, patch)
        assert told == view == kept
        for key, value in kept.items():
            if type(value) is list:  # a list kept stays the same list, changed in place
                assert key not in lists or value is lists[key]
                assert all(value is not other for shown in views for other in shown.values())
    assert [orjson.dumps(view) for view in views] == sent  # the views sent were never changed


def test_a_connection_keeps_one_last_view_and_changes_it_in_place() -> None:
    # A new dict per connection and move would live until the next move, and every young garbage
    # collection (which stalls all tables) would scan thousands of them.
    connection = Connection(None, patches=True)
    state = new_hand(load_ruleset("nanning"), dealer=0, seed=5)
    rng = random.Random(5)
    facts = {"totals": [0, 0, 0, 0]}
    first = view_fields(connection, 0, view_message(state, 0), facts)
    sent_first = orjson.dumps(first)
    kept, told = connection.last_view, first["view"]
    assert kept == told and kept is not told  # the view sent is never changed afterwards
    assert kept is not None
    seats = kept["seats"]  # its lists are changed in place too
    while state.phase is not Phase.ENDED:
        choices = [legal for seat in range(4) if (legal := legal_actions(state, seat))]
        step(state, rng.choice(choices[0]))
        shown = view_message(state, 0)
        fields = view_fields(connection, 0, shown, facts)
        assert "view" not in fields and "table" not in fields  # the same facts are not sent again
        told = patched_view(told, fields["patch"])
        assert told == shown == kept and connection.last_view is kept and kept["seats"] is seats
    assert orjson.dumps(first) == sent_first
    assert "view" in view_fields(connection, 1, view_message(state, 0), facts)  # a new hand: whole


# Two sockets are sent one update one after the other: each prompt's time left is read then, so the
# two may differ by what the server did in between (on a busy machine, a few hundred ms at worst).
DEADLINE_TOLERANCE_MS = 2_000


def without_view_and_deadline(message: Message) -> Message:
    """An update as both kinds of client are told it alike: without the view (or the patch to it), the
    table's facts and the prompt's time left."""
    alike = {key: value for key, value in message.items() if key not in ("view", "patch", "table")}
    if "prompt" in alike:
        alike["prompt"] = {key: value for key, value in alike["prompt"].items() if key != "deadline_ms"}
    return alike


def test_a_client_of_patches_is_told_what_a_client_of_whole_views_is(client: TestClient) -> None:
    host = guest(client, "小明")
    number = new_room(client, host, preset="nanjing", hands=4, bot_level="efficiency")
    # Two sockets of the same seat, both there before the start: they are sent the same updates.
    with connect(client, number, host, delta=True) as patched, connect(client, number, host) as whole:
        for socket in (patched, whole):
            while socket.receive_json()["type"] != "room":
                pass
        assert client.post(f"/api/rooms/{number}/start", json={}, headers=host).status_code == 200
        told_whole = [message for message in play_socket(whole, seed=3) if message["type"] == "update"]
        told_patched: list[Message] = []
        while (message := patched.receive_json())["type"] != "match_end":
            if message["type"] == "update":
                told_patched.append(message)
    assert len(told_patched) == len(told_whole) > 40
    view: Message | None = None
    table: Message | None = None
    hand = -1
    sizes = {"whole": 0, "patched": 0}
    for sent, full in zip(told_patched, told_whole, strict=True):
        assert without_view_and_deadline(sent) == without_view_and_deadline(full)
        if "prompt" in full:  # the time left, read off the clock as each socket is sent the update
            assert abs(sent["prompt"]["deadline_ms"] - full["prompt"]["deadline_ms"]) <= DEADLINE_TOLERANCE_MS
        if sent["hand"] != hand:  # each hand starts with a whole view and the table's facts
            assert "view" in sent and "patch" not in sent and "table" in sent
            hand = sent["hand"]
        if "patch" in sent:
            assert view is not None and "view" not in sent
            view = patched_view(view, sent["patch"])
        else:
            view = sent["view"]
        table = sent.get("table", table)
        assert view == full["view"]
        assert table == full["table"]
        sizes["whole"] += len(orjson.dumps(full))
        sizes["patched"] += len(orjson.dumps(sent))
    assert sizes["patched"] < sizes["whole"] / 2
