"""头像: a guest may choose one of the twelve when entering or later; an unknown one is refused at the
edge; rooms and the table carry each seat's choice (None where the page draws one from the name)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import WebSocketTestSession

from ...server_support import connect, guest, invited, new_room, server, with_invite


def table_facts(socket: WebSocketTestSession) -> dict[str, Any]:
    for _ in range(500):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == "update":
            facts: dict[str, Any] = message["table"]
            return facts
    raise AssertionError("no update")


def test_an_avatar_is_chosen_kept_and_shown_at_the_table(url: str) -> None:
    with server(url) as client:
        chosen = client.post("/api/guest", json={"name": "小明", "avatar": "bamboo"})
        assert chosen.status_code == 200, chosen.text
        assert chosen.json()["user"]["avatar"] == "bamboo"
        host = {"Authorization": f"Bearer {chosen.json()['token']}"}
        friend = guest(client, "小红")
        assert client.get("/api/me", headers=friend).json()["avatar"] is None  # drawn from the name
        changed = client.put("/api/me/avatar", json={"avatar": "winter"}, headers=friend)
        assert changed.status_code == 200 and changed.json()["avatar"] == "winter"
        assert client.get("/api/session", headers=friend).json()["user"]["avatar"] == "winter"

        number = new_room(client, host, preset="nanjing", hands=4)
        client.post(f"/api/rooms/{number}/sit", json=invited(number), headers=friend)
        client.post(f"/api/rooms/{number}/bots", json={"level": "strong"}, headers=host)
        seats = client.get(f"/api/rooms/{number}{with_invite(number)}", headers=host).json()["seats"]
        assert [seat["avatar"] for seat in seats] == ["bamboo", "winter", None, None]
        assert (
            client.post(f"/api/rooms/{number}/ready", json={"ready": True}, headers=friend).status_code == 200
        )
        assert client.post(f"/api/rooms/{number}/start", json={}, headers=host).status_code == 200
        with connect(client, number, host) as socket:
            facts = table_facts(socket)
        assert facts["avatars"] == ["bamboo", "winter", None, None]
        assert facts["bot_levels"][2:] == ["strong", "strong"]

        back = client.put("/api/me/avatar", json={"avatar": None}, headers=friend)
        assert back.status_code == 200 and back.json()["avatar"] is None


def test_an_unknown_or_malformed_avatar_is_refused(url: str) -> None:
    with server(url) as client:
        assert client.post("/api/guest", json={"name": "甲", "avatar": "skull"}).status_code == 422
        headers = guest(client, "乙")
        for bad in ({"avatar": "<script>"}, {"avatar": 3}, {}, {"avatar": "plum", "extra": 1}):
            response = client.put("/api/me/avatar", json=bad, headers=headers)
            assert response.status_code == 422, (bad, response.text)
        assert client.get("/api/me", headers=headers).json()["avatar"] is None
        client.cookies.clear()
        assert client.put("/api/me/avatar", json={"avatar": "plum"}).status_code == 401
