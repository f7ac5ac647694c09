"""Table leases: one owner at a time, taken over when they run out, and fencing of late writes."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from hupai.server.cluster import leases as leases_module
from hupai.server.cluster.leases import Leases
from hupai.server.errors import Conflict
from hupai.server.schemas import RoomIn
from hupai.server.storage.database import connect, migrate
from hupai.server.storage.fencing import Fence, LeaseLost
from hupai.server.storage.group_commit import MoveWriter
from hupai.server.storage.play import MoveGroup, Play
from hupai.server.storage.store import Store

from ...server_support import database, database_urls


@pytest.fixture(params=database_urls())
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with database(request.param, tmp_path) as url:
        migrate(url)
        sessions = connect(url)
        yield Store(sessions)
        engine = sessions.kw["bind"]
        engine.dispose()


class Clock:
    """The leases' clock, moved on by the test: a lease runs out when the test says so, not when a
    busy machine happens to take longer than the lease between two calls."""

    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(leases_module, "utcnow", fake)
    return fake


def playing_room(store: Store) -> int:
    host, _token = store.accounts.create_guest("房主")
    room = store.rooms.create_room(host.id, RoomIn(preset="nanjing", hands=4, bot_level="efficiency"))
    store.rooms.start(room.number, host.id)
    return store.rooms.room_id(room.number)


def test_one_owner_until_the_lease_runs_out(store: Store, clock: Clock) -> None:
    leases = Leases(store.sessions, seconds=10)
    room_id = playing_room(store)
    assert leases.orphans() == [room_id]  # in play, owned by nobody
    first = leases.acquire(room_id, "a")
    assert first == Fence("a", 1)
    assert leases.acquire(room_id, "b") is None
    assert leases.acquire(room_id, "a") == first  # the owner renews; the epoch stays
    assert leases.owner(room_id) == "a"
    assert leases.orphans() == []
    clock.advance(9.9)
    assert leases.owner(room_id) == "a"  # still within the lease
    clock.advance(0.2)
    assert leases.owner(room_id) is None
    assert leases.orphans() == [room_id]
    assert leases.acquire(room_id, "b") == Fence("b", 2)  # taken over: a new epoch
    assert leases.renew("a") == {}
    assert leases.renew("b") == {room_id: 2}


def test_a_released_lease_is_free_at_once(store: Store) -> None:
    leases = Leases(store.sessions, seconds=60)
    room_id = playing_room(store)
    fence = leases.acquire(room_id, "a")
    assert fence is not None
    leases.release(room_id, Fence("a", 99))  # not the holder's epoch: nothing happens
    assert leases.owner(room_id) == "a"
    leases.release(room_id, fence)
    assert leases.owner(room_id) is None
    assert leases.acquire(room_id, "b") == Fence("b", 2)
    assert leases.acquire(room_id, "a") is None


def test_the_leases_of_a_process_known_gone_end_at_once(store: Store) -> None:
    leases = Leases(store.sessions, seconds=60)
    rooms = [playing_room(store) for _ in range(3)]
    fences = [
        leases.acquire(rooms[0], "gone"),
        leases.acquire(rooms[1], "gone"),
        leases.acquire(rooms[2], "b"),
    ]
    assert leases.holders() == {"gone", "b"}
    assert leases.expire_all("gone") == 2
    assert leases.expire_all("gone") == 0  # nothing left to end
    assert leases.holders() == {"b"}
    assert sorted(leases.orphans()) == sorted(rooms[:2])
    assert leases.acquire(rooms[0], "b") == Fence("b", 2)  # taken over: a new epoch
    stale = fences[0]
    assert stale is not None
    with pytest.raises(LeaseLost):  # were the process alive after all, its writes are refused
        store.fenced(rooms[0], stale).play.add_move(
            rooms[0], 0, 0, {"seat": 0, "act": "discard", "tile": "1m"}
        )
    assert leases.renew("gone") == {rooms[1]: 1}  # one not taken yet it may renew


def test_a_stale_owner_cannot_write(store: Store, clock: Clock) -> None:
    leases = Leases(store.sessions, seconds=10)
    room_id = playing_room(store)
    old = leases.acquire(room_id, "old")
    assert old is not None
    stale = store.fenced(room_id, old)
    stale.play.add_move(room_id, 0, 0, {"seat": 0, "act": "discard", "tile": "1m"})  # still the owner
    clock.advance(11)  # paused past its lease …
    new = leases.acquire(room_id, "new")
    assert new is not None
    with pytest.raises(LeaseLost):  # … and woken after the takeover
        stale.play.add_move(room_id, 0, 1, {"seat": 1, "act": "discard", "tile": "2m"})
    with pytest.raises(LeaseLost):
        stale.play.finish_match(room_id, "finished", [0, 0, 0, 0])
    with pytest.raises(LeaseLost), stale.play.tx.writing_rows():  # a write without a session too
        pass
    store.fenced(room_id, new).play.add_move(room_id, 0, 1, {"seat": 1, "act": "discard", "tile": "3m"})
    assert store.play.moves(room_id) == [
        [{"seat": 0, "act": "discard", "tile": "1m"}, {"seat": 1, "act": "discard", "tile": "3m"}]
    ]
    assert store.rooms.room_by_id(room_id).status == "playing"


def test_processes_racing_for_a_lease_get_one_owner(store: Store) -> None:
    leases = Leases(store.sessions, seconds=60)
    room_id = playing_room(store)
    won: list[Fence] = []
    start = threading.Barrier(6)

    def race(name: str) -> None:
        start.wait()
        fence = leases.acquire(room_id, name)
        if fence is not None:
            won.append(fence)

    threads = [threading.Thread(target=race, args=(f"p{i}",)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1
    assert leases.owner(room_id) == won[0].owner


def move(seat: int, tile: str) -> dict[str, Any]:
    return {"seat": seat, "act": "discard", "tile": tile}


def test_moves_grouped_in_one_transaction_are_fenced_and_refused_one_table_at_a_time(store: Store) -> None:
    """Group commit (storage.group_commit): each table's moves in a group are judged on their own —
    a stale fence or numbers taken by other moves fail that table only; the same moves again are no
    error (a write retried after its answer was lost)."""
    leases = Leases(store.sessions, seconds=60)
    rooms = [playing_room(store) for _ in range(4)]
    fences = [leases.acquire(room_id, "a") for room_id in rooms]
    assert None not in fences
    store.play.add_move(rooms[2], 0, 0, move(0, "9p"))  # moves 0 of room 2 and 3 are stored already
    store.play.add_move(rooms[3], 0, 0, move(0, "1s"))
    stale = Fence("a", 0)
    outcomes = store.play.add_move_groups(
        [
            MoveGroup(rooms[0], 0, 0, [move(0, "1m"), move(1, "2m")], fences[0]),
            MoveGroup(rooms[1], 0, 0, [move(0, "3m")], stale),
            MoveGroup(rooms[2], 0, 0, [move(0, "9p"), move(1, "8p")], fences[2]),  # retried: same move 0
            MoveGroup(rooms[3], 0, 0, [move(0, "2s")], fences[3]),  # another move 0 is stored
        ]
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], LeaseLost)
    assert isinstance(outcomes[3], Conflict)
    assert store.play.moves(rooms[0]) == [[move(0, "1m"), move(1, "2m")]]
    assert store.play.moves(rooms[1]) == []
    assert store.play.moves(rooms[2]) == [[move(0, "9p"), move(1, "8p")]]
    assert store.play.moves(rooms[3]) == [[move(0, "1s")]]


def test_the_move_writer_groups_what_arrives_while_it_writes(store: Store) -> None:
    """Tables that store moves at the same moment share transactions, and each hears only its own
    outcome: the one whose lease passed to another process gets LeaseLost."""
    leases = Leases(store.sessions, seconds=60)
    rooms = [playing_room(store) for _ in range(6)]
    fences = [leases.acquire(room_id, "a") for room_id in rooms]
    writes: list[int] = []
    real = store.play.add_move_groups

    def counted(groups: list[MoveGroup]) -> list[Exception | None]:
        writes.append(len(groups))
        return real(groups)

    writer = MoveWriter(store.play)
    writer.play = cast(Play, SimpleNamespace(add_move_groups=counted))

    async def table(index: int) -> BaseException | None:
        fence = fences[index] if index != 5 else Fence("a", 0)
        for number in range(3):
            try:
                await writer.store(rooms[index], 0, number, [move(index % 4, f"{number + 1}m")], fence)
            except LeaseLost as lost:
                return lost
        return None

    async def all_tables() -> list[BaseException | None]:
        return await asyncio.gather(*(table(index) for index in range(6)))

    outcomes = asyncio.run(all_tables())
    assert outcomes[:5] == [None] * 5 and isinstance(outcomes[5], LeaseLost)
    for index in range(5):
        assert store.play.moves(rooms[index]) == [[move(index % 4, f"{n + 1}m") for n in range(3)]]
    assert store.play.moves(rooms[5]) == []
    # Six first moves at once, one transaction; then the five tables still owned, twice.
    assert writes == [6, 5, 5]
