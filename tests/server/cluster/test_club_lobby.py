"""A club's live lobby across processes (issue 49): a member whose lobby socket is on one process hears
of a 玩法 saved, a table opened and a seat taken on another, through Redis, and is let go at once
when removed there. The lobbies read their clubs again only hourly here: what is heard came by Redis."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from ...cluster_support import cluster, redis_server
from ...server_support import call

HEARD_WITHIN = 15.0  # seconds: a busy machine's slowest hop, far above the usual tens of milliseconds


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with redis_server(tmp_path) as address:
        yield address


def heard(socket: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(socket.recv(timeout=HEARD_WITHIN))
    return message


def test_a_table_opened_on_one_process_appears_in_the_lobby_on_another(
    url: str, redis_url: str, tmp_path: Path
) -> None:
    with cluster(url, redis_url, tmp_path, count=2, club_lobby_refresh_seconds=3600) as servers:
        here, there = servers[0].port, servers[1].port
        owner = call(here, "/api/register", {"name": "圈主", "password": "club password"})["token"]
        number = call(here, "/api/clubs", {"name": "周五麻将"}, owner)["number"]
        link = call(here, f"/api/clubs/{number}/invite", None, owner)["link"]
        friends = [call(there, "/api/guest", {"name": name})["token"] for name in ("牌友", "旁人")]
        for friend in friends:
            call(there, f"/api/clubs/{number}/join", {"invite": link.rsplit("/", 1)[1]}, friend)
        lobby = f"ws://127.0.0.1:{there}/api/clubs/{number}/ws?token="
        with ws_connect(lobby + friends[0]) as socket, ws_connect(lobby + friends[1]) as removed:
            assert heard(socket) == {"type": "club_tables", "tables": []}
            assert heard(removed)["type"] == "club_tables"
            card = {"preset": "nanjing", "hands": 4}
            saved = call(here, f"/api/clubs/{number}/rules", {"name": "南京", "card": card}, owner)
            assert heard(socket) == {"type": "club_changed"}
            room = call(here, f"/api/clubs/{number}/tables", {"rules_id": saved["rules"][0]["id"]}, owner)
            tables = heard(socket)["tables"]
            assert [table["number"] for table in tables] == [room["number"]]
            call(here, f"/api/rooms/{room['number']}/sit", {}, friends[0])
            (table,) = heard(socket)["tables"]
            assert {"圈主", "牌友"} <= {seat["name"] for seat in table["seats"]}
            member_id = call(here, "/api/me", None, friends[1])["id"]
            call(here, f"/api/clubs/{number}/members/{member_id}/remove", {}, owner)
            while (said := heard(removed))["type"] != "error":  # what it heard before, as the other did
                assert said["type"] in ("club_tables", "club_changed"), said
            assert said["code"] == "not_found"
            with pytest.raises(ConnectionClosed) as closed:
                heard(removed)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
            assert heard(socket) == {"type": "club_changed"}
