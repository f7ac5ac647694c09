"""The command line: output for real hands, and one-line errors with exit status 2."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from hupai.cli import app

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
