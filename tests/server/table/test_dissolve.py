"""解散 at the table: a match the players end by vote in the middle of a hand leaves a record that
replays (``hupai replay --check``) and verifies (``hupai verify``): the hand stops with
``{"act": "dissolve"}`` where it was abandoned, and the record replays to the totals the server
stored and announced. A table rebuilt from the stored moves ends the match the same way."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from typer.testing import CliRunner

from hupai.cli import app as cli
from hupai.game.record import read_record
from hupai.replay import replay, verify_record

from ...schema_support import schema_error
from ...server_support import (
    Answers,
    Message,
    connect,
    guest,
    invited,
    new_room,
    paid,
    play_socket,
    randomly,
    rebuilt,
    server,
    token_of,
    with_invite,
    without_seat,
)


def play_prompts(socket: WebSocketTestSession, prompts: int) -> Message:
    """Answer the host's first ``prompts`` prompts at random; return the update that brings the next
    one, left unanswered, so that the hand is surely in play (the table waits for the host) and has
    stored moves (the host answered in it before: a hand dealt and not yet moved in is stored nowhere,
    and were the hand before won meanwhile, a rebuild would find the match between hands)."""
    answers = Answers(randomly(random.Random(5)))
    moved_in: set[int] = set()  # the hands the host answered a prompt in
    for _ in range(20_000):
        message: Message = socket.receive_json()
        assert message["type"] != "match_end"
        prompt = message.get("prompt") if message["type"] == "update" else None
        if not prompt or prompt["automatic"] or prompt["seq"] in answers.answered:
            continue
        if len(answers.answered) >= prompts and (message["hand"] in moved_in or not prompts):
            return message
        moved_in.add(message["hand"])
        act = answers.act(message)
        assert act is not None
        socket.send_json(act)
    raise AssertionError("the host was never asked again")


def started_with_a_friend(client: TestClient) -> tuple[dict[str, str], dict[str, str], str]:
    """A host and a friend at an eight-hand Nanjing room (bots in the other seats), started."""
    host = guest(client, "甲")
    friend = guest(client, "乙")
    number = new_room(client, host, preset="nanjing", hands=8)
    client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=friend)
    client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=friend)
    client.post(f"/api/rooms/{number}/start", json={}, headers=host)
    return host, friend, number


def check_record(client: TestClient, number: str, summary: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    """The room's record ends with the dissolve, matches the schema, replays to what the server
    stored and announced, and its fair deals verify; so do ``hupai replay --check`` and ``hupai
    verify``. Returns the record."""
    stored = client.get(f"/api/rooms/{number}/hands{with_invite(number)}").json()
    last = len(stored) - 1
    assert stored[last]["outcome"] == "abandoned"
    assert stored[last]["escaped"] == []
    for result in stored:
        assert paid(result) == result["deltas"]
    record: dict[str, Any] = client.get(f"/api/rooms/{number}/record{with_invite(number)}").json()
    assert record["hands"][last]["actions"][-1] == {"act": "dissolve"}
    assert schema_error(record, "record") is None
    hand = client.get(f"/api/rooms/{number}/hands/{last}/record{with_invite(number)}").json()
    assert hand["hands"][0]["actions"][-1] == {"act": "dissolve"}
    assert schema_error(hand, "record") is None

    replayed = replay(read_record(record))
    assert replayed.match.totals == summary["totals"]
    assert sum(replayed.match.totals) == 0
    settlement = replayed.as_dict()
    assert schema_error(settlement, "settlement") is None
    assert settlement["dissolved"] == last
    assert [line["deltas"] for line in settlement["hands"]] == [line["deltas"] for line in stored]
    assert [line["outcome"] for line in settlement["hands"]] == [line["outcome"] for line in stored]
    assert [line["transfers"] for line in settlement["hands"]] == [line["transfers"] for line in stored]
    assert [line["deltas"] for line in summary["hands"]] == [line["deltas"] for line in stored]
    verdicts = verify_record(read_record(record))  # every deal a fair one, verified, every action played
    assert [(v.verified, v.problems, v.caveats) for v in verdicts] == [(True, [], [])] * len(stored)

    path = tmp_path / f"hupai-{number}.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    checked = CliRunner().invoke(cli, ["replay", "--check", str(path)])
    assert checked.exit_code == 0, checked.stderr
    assert checked.stdout.startswith(f"ok: {len(stored)} hand")
    assert checked.stdout.rstrip().endswith(f"; dissolved (解散) in hand {last}")
    verified = CliRunner().invoke(cli, ["verify", str(path)])
    assert verified.exit_code == 0, verified.stdout

    frames = client.get(f"/api/rooms/{number}/hands/{last}/replay{with_invite(number)}").json()["frames"]
    assert frames[-1]["dissolve"] is True
    assert frames[-1]["view"]["phase"] == "ended"
    return record


def test_a_match_dissolved_by_vote_mid_hand_replays_to_its_totals(url: str, tmp_path: Path) -> None:
    with server(url) as client:
        host, friend, number = started_with_a_friend(client)
        with connect(client, number, host) as socket, connect(client, number, friend) as other:
            other.send_json({"type": "trustee", "on": True})  # 托管 plays the friend's seat
            play_prompts(socket, 12)
            one = client.post(f"/api/rooms/{number}/dissolve", json={"agree": True}, headers=host).json()
            assert one["status"] == "playing"  # the friend has not agreed yet
            both = client.post(f"/api/rooms/{number}/dissolve", json={"agree": True}, headers=friend)
            assert both.json()["status"] == "dissolved"
            messages = play_socket(socket, answer=False)
        summary = messages[-1]
        assert summary["status"] == "dissolved"
        ended = [message for message in messages if message["type"] == "update"][-1]
        assert ended["view"]["phase"] == "ended"  # the hand as it stopped, before 大结算
        check_record(client, number, summary, tmp_path)
        history = client.get("/api/me/history", headers=friend).json()
        assert history[0]["total"] == summary["totals"][1]  # stored as announced
        again = rebuilt(client, number)
        assert (again["status"], again["totals"], again["hands"]) == (
            "dissolved",
            summary["totals"],
            summary["hands"],
        )


def test_a_dissolve_while_a_discard_waits_for_its_release_replays_the_same(url: str, tmp_path: Path) -> None:
    """Every discard's window is held ``claim_seconds`` (hold_claims), whether anyone may claim or
    not; a record cannot say a window was held, and its replay moves on at once where nobody may
    claim. A dissolve in that pause closes such a window as its release would (the next seat draws),
    so the hand the server stored is the one the record replays to."""
    with server(url, claim_seconds=None) as client:  # the room's pause after a discard, not none
        host = guest(client, "甲")
        number = new_room(client, host, preset="nanjing", hands=4, claim_seconds=3)
        client.post(f"/api/rooms/{number}/start", json={}, headers=host)
        with connect(client, number, host) as socket:
            prompt = play_prompts(socket, 0)["prompt"]  # the dealer's first turn
            discard = next(action for action in prompt["legal"] if action["act"] == "discard")
            socket.send_json({"type": "act", "seq": prompt["seq"], "action": without_seat(discard)})
            while (update := socket.receive_json())["type"] != "update" or update.get("prompt"):
                pass  # until the discard is played: its window is held now, for 3 seconds
            client.post(f"/api/rooms/{number}/dissolve", json={"agree": True}, headers=host)
            messages = play_socket(socket, answer=False)
        summary = messages[-1]
        assert summary["status"] == "dissolved"
        ended = [message for message in messages if message["type"] == "update"][-1]["view"]
        record = check_record(client, number, summary, tmp_path)
        actions = record["hands"][-1]["actions"]
        at = max(index for index, action in enumerate(actions) if action["act"] == "discard")
        assert actions[at] == {"seat": 0, "act": "discard", "tile": discard["tile"]}
        # Between it and the dissolve: only the decisions on that discard stored ahead of the window's
        # release (bots that could claim: a pass, or a pong or kong on some deals), played before the
        # hand stopped, as the record's replay plays them.
        between = [action["act"] for action in actions[at + 1 :]]
        assert between[-1] == "dissolve"
        assert set(between[:-1]) <= {"pass", "pong", "kong"}
        assert all(action["seat"] != 0 for action in actions[at + 1 : -1])
        frames = client.get(f"/api/rooms/{number}/hands/0/replay{with_invite(number)}").json()["frames"]
        replayed = frames[-1]["view"]
        assert (replayed["live_tiles"], replayed["hands"]) == (ended["live_tiles"], ended["hands"])


def test_a_table_rebuilt_after_every_player_voted_ends_the_match(url: str, tmp_path: Path) -> None:
    """The last vote was stored but the table's process stopped before it heard it: the table
    rebuilt from storage dissolves the match, rather than play on with every vote still cast."""
    with server(url) as client:
        host, friend, number = started_with_a_friend(client)
        store = client.app.state.store  # type: ignore[attr-defined]
        with connect(client, number, host) as socket, connect(client, number, friend) as other:
            # 托管 plays the friend's seat: play does not wait on a friend who never answers
            other.send_json({"type": "trustee", "on": True})
            play_prompts(socket, 6)  # the table now waits for the host
            for headers in (host, friend):
                user = store.accounts.user_for_token(token_of(headers))
                store.votes.vote(number, user.id, True)  # stored; the table is never told
            summary = rebuilt(client, number)
        assert summary["status"] == "dissolved"
        assert client.get(f"/api/rooms/{number}{with_invite(number)}").json()["status"] == "dissolved"
        check_record(client, number, summary, tmp_path)
