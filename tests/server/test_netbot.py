"""``hupai bot``: a bot joins a room over the network like a person and plays the whole match."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect as ws_connect

from hupai.bots import BotError
from hupai.cli import app
from hupai.game.record import read_record
from hupai.replay import replay
from hupai.server.netbot import NetworkBotError, run

from ..server_support import call, free_port, join_link, opened, running_server, with_invite


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    path: Path = tmp_path_factory.mktemp("netbot") / "hupai.sqlite3"
    chosen = free_port()
    with running_server(f"sqlite:///{path}", chosen):
        yield chosen


class BotThread(threading.Thread):
    def __init__(self, port: int, number: str, level: str, seat: int | None) -> None:
        super().__init__(daemon=True)
        self.args = (
            f"http://127.0.0.1:{port}",
            join_link(f"http://127.0.0.1:{port}", number),
            level,
        )  # as shared
        self.seat = seat
        self.seated = threading.Event()
        self.connected = threading.Event()  # its socket is open: the table's first message came
        self.prompts = 0
        self.summary: dict[str, Any] | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        def on_message(message: dict[str, Any]) -> None:
            self.connected.set()
            prompt = message.get("prompt")
            if prompt is not None and not prompt["automatic"]:
                self.prompts += 1

        try:
            self.summary = run(
                *self.args, seat=self.seat, on_seated=lambda *_: self.seated.set(), on_message=on_message
            )
        except BaseException as error:  # reported by the test
            self.error = error
            self.seated.set()


def wait_until(condition: Any, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.mark.parametrize("preset", ["nanning", "enshi"])
def test_a_network_bot_plays_a_whole_match(port: int, preset: str) -> None:
    host = call(port, "/api/guest", {"name": "房主"})["token"]
    number = opened(call(port, "/api/rooms", {"preset": preset, "hands": 4}, host))
    call(port, f"/api/rooms/{number}/bots", {"seat": 2, "level": "efficiency"}, host)
    call(port, f"/api/rooms/{number}/bots", {"seat": 3, "level": "random"}, host)
    bot = BotThread(port, number, "strong", seat=1)
    bot.start()
    assert bot.seated.wait(20) and bot.error is None
    seats = call(port, f"/api/rooms/{number}{with_invite(number)}")["seats"]
    assert seats[1]["name"] == "电脑·高手" and seats[1]["ready"] and seats[1]["bot"] is None
    call(port, f"/api/rooms/{number}/start", {}, host)

    with ws_connect(f"ws://127.0.0.1:{port}/api/rooms/{number}/ws?token={host}") as socket:
        handed_over = False
        while True:
            message = json.loads(socket.recv(timeout=60))
            if message["type"] == "update" and not handed_over:
                socket.send(json.dumps({"type": "trustee", "on": True}))  # the host lets 托管 play
                handed_over = True
            if message["type"] == "match_end":
                break
    bot.join(60)
    assert bot.error is None
    assert bot.summary is not None and bot.summary["totals"] == message["totals"]
    assert bot.prompts > 0  # it made its own decisions, over the network
    record = call(port, f"/api/rooms/{number}/record{with_invite(number)}")
    assert replay(read_record(record)).match.totals == message["totals"]
    assert record["seats"][1] == "电脑·高手"


def test_a_bot_the_host_removes_stops_with_a_reason(port: int) -> None:
    host = call(port, "/api/guest", {"name": "房主"})["token"]
    number = opened(call(port, "/api/rooms", {"preset": "nanjing"}, host))
    bot = BotThread(port, number, "efficiency", seat=None)
    bot.start()
    assert bot.seated.wait(20) and bot.error is None
    seat = next(
        s["seat"]
        for s in call(port, f"/api/rooms/{number}{with_invite(number)}")["seats"]
        if s["name"] == "电脑·牌效"
    )
    assert bot.connected.wait(20) and bot.error is None  # removed while it listens at the table
    call(port, f"/api/rooms/{number}/remove", {"seat": seat}, host)
    bot.join(20)
    assert isinstance(bot.error, NetworkBotError)
    assert "removed" in str(bot.error)


def test_refusals_are_plain_sentences(port: int) -> None:
    with pytest.raises(NetworkBotError, match="no room 999999"):
        run(f"http://127.0.0.1:{port}", "999999", "strong")
    with pytest.raises(NetworkBotError, match="cannot reach"):
        run(f"http://127.0.0.1:{free_port()}", "123456", "strong")
    with pytest.raises(NetworkBotError, match="not a server address"):
        run("ftp://example", "123456", "strong")
    with pytest.raises(BotError, match="searches with the table's state"):
        run(f"http://127.0.0.1:{port}", "123456", "expert")
    host = call(port, "/api/guest", {"name": "房主"})["token"]
    number = opened(call(port, "/api/rooms", {"preset": "nanjing"}, host))
    call(port, f"/api/rooms/{number}/bots", {}, host)
    with pytest.raises(NetworkBotError, match="for invited players"):  # the number alone does not do
        run(f"http://127.0.0.1:{port}", number, "strong")
    with pytest.raises(NetworkBotError, match="full"):
        run(f"http://127.0.0.1:{port}", join_link(f"http://127.0.0.1:{port}", number), "strong")


def test_the_command_line_reports_a_refusal_in_one_line(port: int) -> None:
    result = CliRunner().invoke(
        app, ["bot", "--server", f"http://127.0.0.1:{port}", "--room", "999999", "--level", "strong"]
    )
    assert result.exit_code == 2
    assert "no room 999999" in result.output
    result = CliRunner().invoke(
        app, ["bot", "--server", f"http://127.0.0.1:{port}", "--room", "999999", "--level", "genius"]
    )
    assert result.exit_code == 2
    assert "unknown bot" in result.output
