"""Clubs (亲友圈, issue 49), through the API on SQLite and on PostgreSQL: a registered player opens one;
its link lets a friend join, the number alone nobody; to a stranger, a removed member or after the
club closed it does not exist (404); a new link ends the old one, closed joining lets nobody in;
the owner names admins, admins remove members, the owner hands the club over; and the bounds hold:
clubs per owner, members per club, joins tried per address."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from hupai.server.http.deps import FAILED_LOOKUP_WEIGHT
from hupai.server.storage.models import Club, PlayedHand, Result, Room, User, utcnow

from ...server_support import guest, server

BOUNDS = {
    "clubs_per_owner": 2,
    "members_per_club": 4,
    "club_joins_per_address_per_hour": 40,
    "rules_per_club": 2,
    "waiting_tables_per_club": 2,
}
CARD = {"preset": "nanjing", "options": {}, "hands": 4, "decision_seconds": 20}


@pytest.fixture
def client(url: str) -> Iterator[TestClient]:
    with server(url, **BOUNDS) as test_client:
        yield test_client


def registered(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/register", json={"name": name, "password": "club password"})
    assert answer.status_code == 200, answer.text
    client.cookies.clear()  # each person acts by their own header
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def code(answer: object) -> str:
    return str(answer.json()["error"]["code"])  # type: ignore[attr-defined]


def token_in(link: str) -> str:
    return link.rsplit("/", 1)[1]


def opened(client: TestClient, owner: dict[str, str], name: str = "周五麻将") -> tuple[str, str]:
    """A new club's number and its link's token."""
    answer = client.post("/api/clubs", json={"name": name}, headers=owner)
    assert answer.status_code == 200, answer.text
    number = answer.json()["number"]
    link = client.get(f"/api/clubs/{number}/invite", headers=owner).json()["link"]
    assert f"/#/club/{number}/" in link
    return number, token_in(link)


def members(client: TestClient, number: str, asker: dict[str, str]) -> dict[str, str]:
    return {
        member["name"]: member["role"]
        for member in client.get(f"/api/clubs/{number}", headers=asker).json()["members"]
    }


def test_a_friend_joins_by_the_link_and_a_stranger_finds_nothing(client: TestClient) -> None:
    owner = registered(client, "圈主")
    number, token = opened(client, owner)
    friend, stranger = guest(client, "牌友"), guest(client, "路人")
    for asked in (
        client.get(f"/api/clubs/{number}", headers=stranger),
        client.get("/api/clubs/99999999", headers=stranger),
    ):
        assert asked.status_code == 404 and code(asked) == "no_club"  # none, or not theirs: the same
    assert (
        code(client.post(f"/api/clubs/{number}/join", json={"invite": "wrong"}, headers=stranger))
        == "club_link"
    )
    joined = client.post(f"/api/clubs/{number}/join", json={"invite": token}, headers=friend)
    assert joined.status_code == 200 and joined.json()["role"] == "member"
    again = client.post(f"/api/clubs/{number}/join", json={"invite": token}, headers=friend)  # the link twice
    assert again.status_code == 200
    assert members(client, number, friend) == {"圈主": "owner", "牌友": "member"}
    assert [club["number"] for club in client.get("/api/clubs", headers=friend).json()] == [number]
    assert client.get(f"/api/clubs/{number}/invite", headers=friend).status_code == 403  # members: no link
    assert client.get("/api/clubs", headers=stranger).json() == []


def test_a_new_link_ends_the_old_one_and_closed_joining_lets_nobody_in(client: TestClient) -> None:
    owner = registered(client, "圈主")
    number, old = opened(client, owner)
    new = token_in(
        client.post(f"/api/clubs/{number}/invite", json={"open": True}, headers=owner).json()["link"]
    )
    assert new != old
    drawn = client.get(f"/api/clubs/{number}/qr.svg", headers=owner)
    assert drawn.status_code == 200 and drawn.headers["content-type"] == "image/svg+xml"
    late = guest(client, "迟到")
    assert code(client.post(f"/api/clubs/{number}/join", json={"invite": old}, headers=late)) == "club_link"
    closed = client.post(f"/api/clubs/{number}/invite", json={"open": False}, headers=owner).json()
    assert closed["link"] is None and closed["open"] is False
    assert client.get(f"/api/clubs/{number}/qr.svg", headers=owner).status_code == 404  # no link to draw
    assert code(client.post(f"/api/clubs/{number}/join", json={"invite": new}, headers=late)) == "club_link"
    assert client.get(f"/api/clubs/{number}", headers=owner).json()["joining_open"] is False


def test_roles_removal_hand_over_and_close(client: TestClient) -> None:
    owner = registered(client, "圈主")
    number, token = opened(client, owner)
    admin, member, other = registered(client, "管理"), guest(client, "成员"), guest(client, "另一个")
    ids = {}
    for person in (admin, member, other):
        ids[id(person)] = client.post(
            f"/api/clubs/{number}/join", json={"invite": token}, headers=person
        ).json()
    by_name = {
        m["name"]: m["user_id"] for m in client.get(f"/api/clubs/{number}", headers=owner).json()["members"]
    }
    # only the owner names admins; an admin removes members, not the owner or other admins
    refused = client.post(
        f"/api/clubs/{number}/members/{by_name['成员']}/role", json={"role": "admin"}, headers=admin
    )
    assert refused.status_code == 403 and code(refused) == "club_role"
    named = client.post(
        f"/api/clubs/{number}/members/{by_name['管理']}/role", json={"role": "admin"}, headers=owner
    )
    assert named.status_code == 200
    assert (
        client.get(f"/api/clubs/{number}/invite", headers=admin).status_code == 200
    )  # admins hand out the link
    assert (
        client.post(
            f"/api/clubs/{number}/members/{by_name['圈主']}/remove", json={}, headers=admin
        ).status_code
        == 400
    )
    removed = client.post(f"/api/clubs/{number}/members/{by_name['成员']}/remove", json={}, headers=admin)
    assert removed.status_code == 200
    # removed: at once, the club is gone for them, and it is not in their list
    assert client.get(f"/api/clubs/{number}", headers=member).status_code == 404
    assert client.get("/api/clubs", headers=member).json() == []
    # the link they joined by does not let them back; a link made since does (re-invited)
    back = client.post(f"/api/clubs/{number}/join", json={"invite": token}, headers=member)
    assert back.status_code == 403 and code(back) == "club_removed"
    renewed = client.post(f"/api/clubs/{number}/invite", json={"open": True}, headers=admin).json()
    again = client.post(
        f"/api/clubs/{number}/join", json={"invite": token_in(renewed["link"])}, headers=member
    )
    assert again.status_code == 200, again.text
    assert (
        client.post(
            f"/api/clubs/{number}/members/{by_name['成员']}/remove", json={}, headers=admin
        ).status_code
        == 200
    )
    # a member leaves; the owner cannot, but hands the club over (not to a guest) and stays an admin
    assert client.post(f"/api/clubs/{number}/leave", json={}, headers=other).status_code == 200
    assert code(client.post(f"/api/clubs/{number}/leave", json={}, headers=owner)) == "owner_leaves"
    assert (
        client.post(
            f"/api/clubs/{number}/owner", json={"user_id": by_name["管理"]}, headers=owner
        ).status_code
        == 200
    )
    assert members(client, number, owner) == {"圈主": "admin", "管理": "owner"}
    assert (
        client.post(f"/api/clubs/{number}/close", json={}, headers=owner).status_code == 403
    )  # not the owner now
    assert client.post(f"/api/clubs/{number}/close", json={}, headers=admin).status_code == 200
    assert client.get(f"/api/clubs/{number}", headers=admin).status_code == 404  # closed: gone for all


def test_the_bounds_hold(client: TestClient) -> None:
    owner = registered(client, "圈主")
    opened(client, owner, "一")
    number, token = opened(client, owner, "二")
    third = client.post("/api/clubs", json={"name": "三"}, headers=owner)
    assert third.status_code == 409 and third.json()["error"]["params"] == {"n": 2}  # clubs per owner
    assert client.post("/api/clubs", json={"name": "客"}, headers=guest(client, "游客")).status_code == 403
    for index in range(3):  # four members at most, the owner one of them
        joined = client.post(
            f"/api/clubs/{number}/join", json={"invite": token}, headers=guest(client, f"友{index}")
        )
        assert joined.status_code == 200
    full = client.post(f"/api/clubs/{number}/join", json={"invite": token}, headers=guest(client, "满"))
    assert full.status_code == 409 and code(full) == "club_full"
    # joins tried per address: a wrong link counts five times; then even the right one waits (429)
    trier = guest(client, "试号")
    tries = 0
    while (
        answer := client.post(f"/api/clubs/{number}/join", json={"invite": "guess"}, headers=trier)
    ).status_code == 404:
        tries += 1
        assert tries <= 40
    assert answer.status_code == 429
    assert tries <= 40 // FAILED_LOOKUP_WEIGHT + 1


def test_a_club_name_is_cleaned_and_bounded(tmp_path: Path) -> None:
    with server(f"sqlite:///{tmp_path / 'clubs.sqlite3'}") as client:
        owner = registered(client, "圈主")
        assert client.post("/api/clubs", json={"name": "x" * 65}, headers=owner).status_code == 422
        assert client.post("/api/clubs", json={"name": "   "}, headers=owner).status_code == 422
        assert client.post("/api/clubs", json={"name": "ok", "owner_id": 1}, headers=owner).status_code == 422


def test_a_members_table_from_a_saved_rule_card(client: TestClient) -> None:
    """玩法: the owner and admins save rule cards; any member opens a table from one; the club's
    members sit without a link, anyone else not even with the room's own link; a removed member at
    once no more."""
    owner = registered(client, "圈主")
    number, token = opened(client, owner)
    first, second, leaving = guest(client, "甲"), guest(client, "乙"), guest(client, "丙")
    for person in (first, second, leaving):
        client.post(f"/api/clubs/{number}/join", json={"invite": token}, headers=person)
    refused = client.post(f"/api/clubs/{number}/rules", json={"name": "南京", "card": CARD}, headers=first)
    assert refused.status_code == 403  # members do not save 玩法
    bad = client.post(
        f"/api/clubs/{number}/rules",
        json={"name": "乱", "card": {**CARD, "preset": "nowhere"}},
        headers=owner,
    )
    assert bad.status_code == 400  # a card that would open no table is refused when saved
    saved = client.post(
        f"/api/clubs/{number}/rules", json={"name": "南京", "card": CARD}, headers=owner
    ).json()
    (rules,) = saved["rules"]
    assert rules["name"] == "南京" and rules["rules"]["preset"] == "nanjing" and rules["card"]["hands"] == 4
    table = client.post(f"/api/clubs/{number}/tables", json={"rules_id": rules["id"]}, headers=first)
    assert table.status_code == 200, table.text
    room = table.json()
    assert room["hands"] == 4 and room["decision_seconds"] == 20
    assert room["club"] == number and room["club_rules"] == "南京"  # whose table, from which 玩法
    # every answer about the club carries its 玩法, not only its page
    assert [
        r["name"]
        for r in client.post(f"/api/clubs/{number}/join", json={"invite": token}, headers=second).json()[
            "rules"
        ]
    ] == ["南京"]
    sat = client.post(f"/api/rooms/{room['number']}/sit", json={}, headers=second)  # no link: a member
    assert sat.status_code == 200, sat.text
    listed = client.get(f"/api/clubs/{number}/tables", headers=second).json()
    assert [(t["number"], [s["name"] for s in t["seats"] if s["user_id"]]) for t in listed] == [
        (room["number"], ["甲", "乙"])
    ]
    stranger = guest(client, "路人")
    with_link = client.post(
        f"/api/rooms/{room['number']}/sit", json={"invite": room["invite"]}, headers=stranger
    )
    assert with_link.status_code == 403 and code(with_link) == "club_members_only"
    assert client.get(f"/api/rooms/{room['number']}", headers=stranger).status_code == 403  # nor watch
    assert client.get(f"/api/clubs/{number}/tables", headers=stranger).status_code == 404
    by_name = {
        m["name"]: m["user_id"] for m in client.get(f"/api/clubs/{number}", headers=owner).json()["members"]
    }
    client.post(f"/api/clubs/{number}/members/{by_name['丙']}/remove", json={}, headers=owner)
    gone = client.post(f"/api/rooms/{room['number']}/sit", json={}, headers=leaving)
    assert gone.status_code == 403 and code(gone) == "club_members_only"


def test_the_club_bounds_on_rule_cards_and_waiting_tables(client: TestClient) -> None:
    owner = registered(client, "圈主")
    number, _token = opened(client, owner)
    ids = []
    for name in ("一", "二"):
        ids.append(
            client.post(f"/api/clubs/{number}/rules", json={"name": name, "card": CARD}, headers=owner).json()
        )
    replaced = client.post(
        f"/api/clubs/{number}/rules", json={"name": "二", "card": {**CARD, "hands": 8}}, headers=owner
    )
    assert [r["card"]["hands"] for r in replaced.json()["rules"]] == [4, 8]  # the same name: replaced
    third = client.post(f"/api/clubs/{number}/rules", json={"name": "三", "card": CARD}, headers=owner)
    assert third.status_code == 409 and code(third) == "too_many_rules"
    rules_id = replaced.json()["rules"][0]["id"]
    hosts = [owner, registered(client, "副")]
    for host in hosts:  # each host opens one (a host has a few rooms waiting; the club, two)
        if host is not owner:
            token = client.get(f"/api/clubs/{number}/invite", headers=owner).json()["link"].rsplit("/", 1)[1]
            client.post(f"/api/clubs/{number}/join", json={"invite": token}, headers=host)
        assert (
            client.post(f"/api/clubs/{number}/tables", json={"rules_id": rules_id}, headers=host).status_code
            == 200
        )
    full = client.post(f"/api/clubs/{number}/tables", json={"rules_id": rules_id}, headers=owner)
    assert full.status_code == 409 and code(full) == "club_tables_waiting"
    dropped = client.post(f"/api/clubs/{number}/rules/{rules_id}/delete", json={}, headers=owner)
    assert [r["name"] for r in dropped.json()["rules"]] == ["二"]
    assert (
        client.post(f"/api/clubs/{number}/tables", json={"rules_id": rules_id}, headers=owner).status_code
        == 404
    )


def finished_match(
    client: TestClient, club: str, totals: dict[int | str, int], days_ago: float, played: int = 4
) -> int:
    """A club match ended ``days_ago`` days ago after ``played`` hands, stored as a match's end stores
    it (a room, its hands and its results): ``totals`` per player id, or per bot name. Returns the
    room's id."""
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.sessions.begin() as db:
        club_id = db.scalar(select(Club.id).where(Club.number == club))
        host = next(player for player in totals if isinstance(player, int))
        room = Room(
            number="123456",
            preset="nanjing",
            options={},
            hands=4,
            decision_seconds=15,
            bot_level="strong",
            host_id=host,
            status="finished",
            seed=1,
            club_id=club_id,
            finished_at=utcnow() - timedelta(days=days_ago),
        )
        db.add(room)
        db.flush()
        for hand in range(played):
            db.add(PlayedHand(room_id=room.id, hand_index=hand, record={}, result={}))
        for seat, (player, total) in enumerate(totals.items()):
            rank = 1 + sum(other > total for other in totals.values())
            name = player if isinstance(player, str) else db.get(User, player).name
            user_id = player if isinstance(player, int) else None
            db.add(Result(room_id=room.id, seat=seat, user_id=user_id, name=name, total=total, rank=rank))
        return room.id


def test_standings_come_from_the_stored_results(client: TestClient) -> None:
    owner = registered(client, "圈主")
    number, token = opened(client, owner)
    friend = guest(client, "牌友")
    client.post(f"/api/clubs/{number}/join", json={"invite": token}, headers=friend)
    ids = {
        m["name"]: m["user_id"] for m in client.get(f"/api/clubs/{number}", headers=owner).json()["members"]
    }
    me, you = ids["圈主"], ids["牌友"]
    old = finished_match(client, number, {me: 30, you: -10, "电脑1": -10, "电脑2": -10}, days_ago=40)
    tied = finished_match(client, number, {"=SUM(A1)": -8, me: 8, you: 8, "电脑1": -8}, days_ago=0.01)
    even = finished_match(client, number, {me: 0, you: 0, "电脑1": 0, "电脑2": 0}, days_ago=0.02, played=2)
    everything = client.get(f"/api/clubs/{number}/standings", headers=friend).json()
    rows = {row["name"]: row for row in everything["standings"]}
    assert [row["name"] for row in everything["standings"]] == ["圈主", "牌友"]  # by total; bots are no one
    assert rows["圈主"] == {
        **rows["圈主"],
        "matches": 3,
        "total": 38,
        "average": 12.7,
        "firsts": 3,
        "big_wins": 2,
    }
    assert rows["牌友"] == {
        **rows["牌友"],
        "matches": 3,
        "total": -2,
        "average": -0.7,
        "firsts": 2,
        "big_wins": 1,
    }
    assert [match["room_id"] for match in everything["matches"]] == [even, tied, old]  # the newest first
    assert [match["hands_played"] for match in everything["matches"]] == [2, 4, 4]  # a vote ended one early
    assert everything["matches"][1]["players"][0] == {
        "seat": 0,
        "user_id": None,
        "name": "=SUM(A1)",
        "total": -8,
        "rank": 3,
    }
    week = client.get(f"/api/clubs/{number}/standings?period=week", headers=friend).json()
    assert {row["name"]: row["matches"] for row in week["standings"]} == {"圈主": 2, "牌友": 2}
    assert week["since"] is not None and len(week["matches"]) == 2
    paged = client.get(f"/api/clubs/{number}/standings?before={tied}", headers=friend).json()
    assert [match["room_id"] for match in paged["matches"]] == [old]
    sheet = client.get(f"/api/clubs/{number}/standings.csv", headers=friend)
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/csv")
    text = sheet.content.decode("utf-8")
    assert text.startswith("\ufeffplayer,") and "圈主,3,38,12.7,3,2" in text
    assert "'=SUM(A1)" in text  # a name is never a formula in a spreadsheet
    stranger = guest(client, "路人")
    assert client.get(f"/api/clubs/{number}/standings", headers=stranger).status_code == 404
    assert client.get(f"/api/clubs/{number}/standings.csv", headers=stranger).status_code == 404
    assert client.get(f"/api/clubs/{number}/standings?period=year", headers=friend).status_code == 422
