"""Voice signalling at the table (WebRTC; the server passes signals on, never sound): everyone at the
table hears who is in the voice; an offer, an answer or a candidate reaches only the seat addressed,
and only between members; spectators and seats out of the voice get nothing; a member whose socket
closes is out; joining is paced; malformed signals are refused at the edge."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from hupai.server.settings import ice_servers
from hupai.server.table import voice

from ...server_support import connect, guest, invited, new_room, next_of, server
from .test_social import still_tables

OFFER = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"


def voice_until_pong(socket: WebSocketTestSession) -> list[dict[str, Any]]:
    """The voice messages a socket has been sent so far (a ping's pong marks the end)."""
    socket.send_json({"type": "ping"})
    heard = []
    while (message := socket.receive_json())["type"] != "pong":
        if message["type"] == "voice":
            heard.append(message)
    return heard


def friends(client: TestClient) -> tuple[dict[str, str], dict[str, str], dict[str, str], str]:
    host, friend, stranger = guest(client, "甲"), guest(client, "乙"), guest(client, "丙")
    number = new_room(client, host, preset="nanjing", hands=4)
    client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=friend)
    client.post(f"/api/rooms/{number}/bots", json={"seat": 2, "level": "strong"}, headers=host)
    return host, friend, stranger, number


def test_signals_reach_only_the_seat_addressed_between_members(url: str) -> None:
    with server(url) as client:
        host, friend, stranger, number = friends(client)
        with (
            connect(client, number, host) as mine,
            connect(client, number, friend) as theirs,
            connect(client, number, stranger) as watching,
        ):
            for socket in (mine, theirs, watching):
                next_of(socket, "welcome")
            mine.send_json({"type": "voice", "kind": "join"})
            for socket in (mine, theirs, watching):
                assert next_of(socket, "voice") == {"type": "voice", "kind": "roster", "seats": [0]}
            theirs.send_json({"type": "voice", "kind": "offer", "to": 0, "sdp": OFFER})  # not joined yet
            assert next_of(theirs, "error")["code"] == "not_in_voice"
            theirs.send_json({"type": "voice", "kind": "join"})
            for socket in (mine, theirs, watching):
                assert next_of(socket, "voice")["seats"] == [0, 1]

            mine.send_json({"type": "voice", "kind": "offer", "to": 1, "sdp": OFFER})
            assert next_of(theirs, "voice") == {"type": "voice", "kind": "offer", "from": 0, "sdp": OFFER}
            theirs.send_json({"type": "voice", "kind": "answer", "to": 0, "sdp": OFFER})
            assert next_of(mine, "voice") == {"type": "voice", "kind": "answer", "from": 1, "sdp": OFFER}
            candidate = "candidate:1 1 udp 2122260223 192.168.1.5 50000 typ host"
            theirs.send_json(
                {"type": "voice", "kind": "ice", "to": 0, "candidate": candidate, "mid": "0", "line": 0}
            )
            assert next_of(mine, "voice") == {
                "type": "voice", "kind": "ice", "from": 1, "candidate": candidate, "mid": "0", "line": 0,
            }  # fmt: skip
            mine.send_json({"type": "voice", "kind": "offer", "to": 2, "sdp": OFFER})  # a bot: no voice
            assert next_of(mine, "error")["code"] == "not_in_voice"
            assert voice_until_pong(watching) == []  # the spectator heard none of the signals
            watching.send_json({"type": "voice", "kind": "join"})
            assert next_of(watching, "error")["code"] == "not_seated"


def test_a_member_whose_socket_closes_is_out_and_the_others_are_told(url: str) -> None:
    with server(url) as client:
        host, friend, _, number = friends(client)
        with connect(client, number, host) as mine:
            next_of(mine, "welcome")
            mine.send_json({"type": "voice", "kind": "join"})
            next_of(mine, "voice")
            with connect(client, number, friend) as theirs:
                assert next_of(theirs, "voice") == {"type": "voice", "kind": "roster", "seats": [0]}
                theirs.send_json({"type": "voice", "kind": "join"})
                assert next_of(mine, "voice")["seats"] == [0, 1]
            assert next_of(mine, "voice")["seats"] == [0]
            mine.send_json({"type": "voice", "kind": "leave"})
            assert next_of(mine, "voice")["seats"] == []


def test_joining_is_paced_and_malformed_signals_are_refused(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = still_tables(monkeypatch)
    with server(url) as client:
        host, _, _, number = friends(client)
        with connect(client, number, host) as mine:
            next_of(mine, "welcome")
            for kind in ("join", "leave", "join", "leave"):
                mine.send_json({"type": "voice", "kind": kind})
                next_of(mine, "voice")
            mine.send_json({"type": "voice", "kind": "join"})
            refused = next_of(mine, "error")
            assert refused["code"] == "slow_down" and "again in 3 s" in refused["message"]
            clock.now += voice.JOIN_EVERY_SECONDS  # one more, once the pause has passed
            mine.send_json({"type": "voice", "kind": "join"})
            assert next_of(mine, "voice") == {"type": "voice", "kind": "roster", "seats": [0]}
            for bad in (
                {"type": "voice", "kind": "offer", "sdp": OFFER},  # to nobody
                {"type": "voice", "kind": "offer", "to": 1},  # no sdp
                {"type": "voice", "kind": "offer", "to": 4, "sdp": OFFER},
                {"type": "voice", "kind": "answer", "to": 1, "sdp": "x" * 7001},
                {"type": "voice", "kind": "ice", "to": 1},
                {"type": "voice", "kind": "join", "to": 1},
                {"type": "voice", "kind": "shout"},
                {"type": "voice", "kind": "ice", "to": 1, "candidate": "c", "sdp": OFFER},
            ):
                mine.send_json(bad)
                assert next_of(mine, "error")["code"] == "bad_message", bad


def test_the_servers_stun_and_turn_addresses_reach_the_players(url: str) -> None:
    stun = "stun:stun.example.org:3478"
    with server(url, ice_servers=(stun,)) as client:
        host, _, _, number = friends(client)
        with connect(client, number, host) as mine:
            assert next_of(mine, "welcome")["ice_servers"] == [stun]
    assert ice_servers(f" {stun}, turn:turn.example.org?transport=tcp ") == (
        stun,
        "turn:turn.example.org?transport=tcp",
    )
    for bad in ("https://stun.example.org", "stun:", 'stun:"><script>'):
        with pytest.raises(ValueError, match="HUPAI_ICE_SERVERS"):
            ice_servers(bad)
