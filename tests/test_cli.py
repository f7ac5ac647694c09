"""The command line: output for real hands, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hupai.cli import app

from .server_support import free_port

runner = CliRunner()


def run(*arguments: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(arguments))
    return result.exit_code, result.stdout, result.stderr


def test_ready_hand_shows_waits_with_unseen_counts() -> None:
    code, out, _ = run("hand", "1233m456p789s111z")
    assert code == 0
    assert "听牌 ready (0)" in out
    assert "3m 三万" in out
    assert "一万 二万 三万 三万" in out
    # 3m: two in hand, so two unseen
    assert "1 kind(s), 2 tile(s) unseen" in out


def test_seen_tiles_reduce_unseen_counts() -> None:
    _, out, _ = run("hand", "123m456p789s1122z", "--seen", "1z1z2z")
    assert "2 kind(s), 1 tile(s) unseen" in out


def test_fourteen_tiles_list_every_discard() -> None:
    code, out, _ = run("hand", "123m456p789s11357z")
    assert code == 0
    assert "1向听 1 away" in out
    lines = [line for line in out.splitlines() if "│" in line]
    assert lines[0].split("│")[1].strip() == "3z 西"
    assert "1z×2 5z×3 7z×3" in lines[0]
    assert len(lines) == 13  # one row per distinct tile held


def test_complete_hand_shows_readings() -> None:
    code, out, _ = run("hand", "11223344556677m")
    assert code == 0
    assert "和牌 complete" in out
    assert "七对 seven pairs" in out and "四组一对 sets + pair" in out


def test_not_ready_thirteen_shows_improving_tiles() -> None:
    _, out, _ = run("hand", "19m19p19s1234567z")
    assert "6向听 6 away" in out
    assert "进张 improving tiles" in out


def test_wildcards_option() -> None:
    code, out, _ = run("hand", "1123m", "--jokers", "1")
    assert code == 0
    assert "23m(4m)" in out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("hand", "12x"), "position 3: 'x' is not a suit letter"),
        (("hand", "11111m"), "a fifth 1m"),
        (("hand", "1233m456p789s11z"), "12 tiles is not a hand"),
        (("hand", "1234m", "--melds", "1"), "4 concealed tiles go with 3 melds, not 1"),
        (("hand", "123m", "--seen", "9q"), "'q' is not a suit letter"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(arguments: tuple[str, ...], message: str) -> None:
    code, out, err = run(*arguments)
    assert code == 2
    assert out == ""
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_demo_plays_to_the_end_deterministically() -> None:
    first = run("demo", "--seed", "7")
    second = run("demo", "--seed", "7")
    assert first[0] == 0
    assert first[1] == second[1]
    assert "自摸 win!" in first[1] or "荒庄" in first[1]


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("hupai ")


RECORDS = Path(__file__).parent / "data" / "records" / "nanjing"


def test_replay_prints_each_hand_and_the_totals() -> None:
    code, out, _ = run("replay", str(RECORDS / "nj01-menqing-hunyise-88.json"))
    assert code == 0
    assert "混一色" in out and "Half flush" in out
    assert "88" in out
    assert "总计 totals" in out


def test_replay_json_has_the_settlement() -> None:
    code, out, _ = run("replay", str(RECORDS / "nj06-big-kong-bloom-first-feeder-pays.json"), "--json")
    assert code == 0
    data = json.loads(out)
    hand = data["hands"][0]
    assert hand["outcome"] == "win"
    assert hand["winners"] == [1]
    assert hand["deltas"] == [-444, 450, -6, 0]
    assert hand["scores"][0]["share"] == 146
    assert {"from": 0, "to": 1, "amount": 438}.items() <= hand["transfers"][2].items()
    assert data["totals"] == [-444, 450, -6, 0]


def test_replay_rescores_under_another_rule_card() -> None:
    path = str(RECORDS / "nj06-big-kong-bloom-first-feeder-pays.json")
    _, out, _ = run("replay", path, "--json", "--ruleset", "nanjing-002")
    # Seed 002: kong money 20, 大杠开 doubles the share: (20 + 4 + 2 + 40 + 40) × 2 = 212.
    assert json.loads(out)["hands"][0]["scores"][0]["share"] == 212
    _, out, _ = run("replay", path, "--json", "--option", "big_kong_bloom_bonus=20")
    assert json.loads(out)["hands"][0]["scores"][0]["share"] == 126


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not JSON"),
        ('{"format": "other"}', "'format' must be 'hupai-record/1'"),
        (
            '{"format": "hupai-record/1", "ruleset": "nanjing", "hands": [{"dealer": 0, "seed": 1,'
            ' "actions": [{"seat": 1, "act": "discard", "tile": "1m"}]}]}',
            "hand 0, action 0",
        ),
        ('{"format": "hupai-record/1", "ruleset": "mars", "hands": [{"seed": 1}]}', "unknown rule set"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"format": "hupai-record/1", "seed": ' + "9" * 5000 + "}", "a number of thousands of digits"),
        (
            '{"format": "hupai-record/1", "ruleset": "nanjing", "options": {"base": Infinity},'
            ' "hands": [{"seed": 1}]}',
            "Infinity is not a number a record may hold",
        ),
        (
            '{"format": "hupai-record/1", "ruleset": "nanjing", "options": {"base": ' + "9" * 4000 + "},"
            ' "hands": [{"seed": 1}]}',
            "option 'base' is a whole number from 1 to 1000, not a 4000-digit number",
        ),
    ],
)
def test_bad_records_are_one_line_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run("replay", str(path))
    assert out == ""
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_a_record_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(b"\xff\xfe{}")
    code, out, err = run("replay", str(path))
    assert (code, out) == (2, "")
    assert "not UTF-8 text" in err and len(err.strip().splitlines()) == 1


def test_replay_of_a_missing_file() -> None:
    code, _, err = run("replay", "/no/such/record.json")
    assert code == 2
    assert "cannot read" in err


def test_unknown_option_is_refused() -> None:
    code, _, err = run("replay", str(RECORDS / "nj01-menqing-hunyise-88.json"), "--option", "nonsense=1")
    assert code == 2
    assert "unknown option 'nonsense'" in err


def test_serve_with_workers_needs_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HUPAI_REDIS_URL", raising=False)  # a developer's own Redis is not this test's
    result = runner.invoke(app, ["serve", "--workers", "2", "--database-url", "sqlite:///unused.sqlite3"])
    assert result.exit_code == 2
    assert "--workers above 1 needs Redis" in result.output


def test_serve_lan_listens_where_friends_reach_it_and_invites_with_that_address(tmp_path: Path) -> None:
    """``hupai serve --lan`` (``make run-lan``) prints the machine's addresses on the local network,
    answers on them, and its invitations carry the first one (issue 32)."""
    port = free_port()
    command = [sys.executable, "-m", "hupai", "serve", "--lan", "--port", str(port)]
    command += ["--database-url", f"sqlite:///{tmp_path / 'lan.sqlite3'}"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        urls: list[str] = []
        for line in server.stdout:
            if line.startswith("friends on the local network open: "):
                urls.append(line.split(": ", 1)[1].strip())
            assert "0.0.0.0" not in line, line  # an address nobody can open is never shown
            if line.startswith("database:"):
                break
        if not urls:
            pytest.skip("this machine has no address on a local network")
        assert not urls[0].startswith("http://127.")
        deadline = time.monotonic() + 90  # a busy machine starts a Python process slowly
        while True:
            try:
                health = json.loads(urllib.request.urlopen(f"{urls[0]}api/health", timeout=2).read())
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.2)
        assert health["ok"] is True
        request = urllib.request.Request(
            f"{urls[0]}api/guest",
            data=b'{"name": "\\u5c0f\\u660e"}',
            headers={"Content-Type": "application/json"},
        )
        token = json.loads(urllib.request.urlopen(request, timeout=30).read())["token"]
        request = urllib.request.Request(
            f"{urls[0]}api/rooms",
            data=b'{"preset": "nanjing"}',
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        opened = json.loads(urllib.request.urlopen(request, timeout=30).read())
        number, invite = opened["number"], opened["invite"]
        asked = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/rooms/{number}/invite", headers={"Authorization": f"Bearer {token}"}
        )
        local = json.loads(urllib.request.urlopen(asked, timeout=30).read())
        assert local == {"link": f"{urls[0]}#/join/{number}/{invite}", "reachable": True}
    finally:
        server.terminate()
        server.wait(timeout=60)  # its stop gives its tables up to 20 s


def test_simulate_fair_writes_records_that_verify(tmp_path: Path) -> None:
    code, out, err = run(
        "simulate", "--ruleset", "enshi", "--option", "laizi_in_melds=true", "--hands", "16", "--seed", "3",
        "--bots", "efficiency", "--records", str(tmp_path), "--fair",
    )  # fmt: skip
    assert code == 0, err
    records = sorted(tmp_path.glob("match-*.json"))
    assert len(records) == 2
    for path in records:
        code, out, err = run("verify", str(path))
        assert code == 0, out + err
        assert out.count("已验证 verified (hupai-fair/2)") == 8
    code, _, err = run("simulate", "--hands", "4", "--fair", "--duplicate", "rotations")
    assert code == 2 and "choose one" in err
