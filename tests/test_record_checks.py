"""Records a careful reader can trust: every hand's dealer is the one the rules give, nothing follows
an escape or a dissolve (解散), escapes are paid as transfers in their hand, a dissolve abandons the hand
in play with what was paid standing, and ``hupai replay --check`` says so in one
line."""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hupai.cli import _check_schema, app
from hupai.game import Match, legal_actions, read_record, record_from_match, step, write_record
from hupai.game.model import Phase
from hupai.game.record import RecordError
from hupai.replay import replay
from hupai.rules import load_ruleset

from .conftest import DATA
from .record_play import Leaving, acting_seat, choose, play_match

RECORDS = DATA / "records"
ESCAPE = RECORDS / "nanjing" / "nj02-escape-60.json"
TWO_HANDS = RECORDS / "nanning" / "n4-29.json"  # the dealer wins hand 0 and deals hand 1 again


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as refused:
        replay(read_record(data))
    return str(refused.value)


def paid(transfers: list[dict[str, Any]]) -> list[int]:
    deltas = [0, 0, 0, 0]
    for transfer in transfers:
        deltas[transfer["from"]] -= transfer["amount"]
        deltas[transfer["to"]] += transfer["amount"]
    return deltas


def played_record(preset: str, *, seed: int, hands: int, leaving: Leaving | None = None) -> dict[str, Any]:
    match, states = play_match(load_ruleset(preset), seed=seed, hands=hands, leaving=leaving)
    return write_record(record_from_match(match, states))


# --- dealers ---------------------------------------------------------------------------------------


def test_a_dealer_the_rules_do_not_give_is_refused_with_the_one_they_give() -> None:
    data = load(TWO_HANDS)
    data["hands"][1]["dealer"] = 1
    assert refusal(data) == (
        "hand 1: the dealer is seat 1 in the record, but the rules give seat 0 "
        "(hand 0, dealt by seat 0, was won by seat 0: the dealer stays)"
    )


@pytest.mark.parametrize("preset", ["nanjing", "nanning", "enshi"])
def test_every_dealer_after_the_first_is_checked(preset: str) -> None:
    data = played_record(preset, seed=5, hands=4)
    results = replay(read_record(data)).results
    for index in range(1, len(data["hands"])):
        wrong = copy.deepcopy(data)
        given = results[index - 1].next_dealer
        wrong["hands"][index]["dealer"] = (given + 1) % 4
        message = refusal(wrong)
        assert message.startswith(
            f"hand {index}: the dealer is seat {(given + 1) % 4} in the record, "
            f"but the rules give seat {given} "
            f"(hand {index - 1}, dealt by seat {results[index - 1].dealer}, was "
        )
    first = copy.deepcopy(data)
    first["hands"][0]["dealer"] = 2  # the first hand's dealer is the record's to choose
    first["hands"] = first["hands"][:1]
    with pytest.raises(RecordError, match="hand 0: seat 0 is dealt 14 tiles"):  # … but its deal must fit it
        replay(read_record(first))


def test_a_nanjing_dealer_who_keeps_the_deal_by_bixiahu_is_checked_too() -> None:
    for seed in range(40):
        data = played_record("nanjing", seed=seed, hands=4)
        results = replay(read_record(data)).results
        kept = [result for result in results[:-1] if result.next_dealer == result.dealer]
        if kept:
            break
    else:
        pytest.fail("no dealer kept the deal in 40 matches")
    index = kept[0].index + 1
    data["hands"][index]["dealer"] = (kept[0].dealer + 1) % 4  # as if the deal had passed on
    assert f"but the rules give seat {kept[0].dealer}" in refusal(data)
    assert "比下胡" in refusal(data) and refusal(data).endswith("the dealer stays)")


# --- escapes ---------------------------------------------------------------------------------------


def test_an_escape_is_paid_as_transfers_in_its_hand() -> None:
    settlement = replay(read_record(load(ESCAPE))).as_dict()
    hand = settlement["hands"][0]
    assert hand["outcome"] == "abandoned"
    assert hand["escaped"] == [2]
    assert [(t["from"], t["to"], t["amount"], t["reason"], t["zh"]) for t in hand["transfers"]] == [
        (2, 3, 20, "escape", "逃跑"),
        (2, 0, 20, "escape", "逃跑"),
        (2, 1, 20, "escape", "逃跑"),
    ]
    assert paid(hand["transfers"]) == hand["deltas"] == settlement["totals"] == [20, 20, -60, 20]
    assert settlement["escapes"] == [{"seat": 2, "hand": 0, "transfers": hand["transfers"]}]


def test_an_escape_between_hands_is_paid_in_the_hand_before_it() -> None:
    data = played_record("nanjing", seed=3, hands=2, leaving=Leaving(seat=1, hand=1, steps=10_000))
    assert data["hands"][-1]["actions"][-1] == {"seat": 1, "act": "escape"}
    settlement = replay(read_record(data)).as_dict()
    last = settlement["hands"][-1]
    assert last["outcome"] in ("win", "draw")  # the hand ended as played
    assert last["escaped"] == [1]
    assert [t["reason"] for t in last["transfers"]][-3:] == ["escape"] * 3
    assert paid(last["transfers"]) == last["deltas"]
    columns = zip(*(hand["deltas"] for hand in settlement["hands"]), strict=True)
    assert [sum(column) for column in columns] == settlement["totals"]


def test_an_action_after_an_escape_is_refused() -> None:
    data = load(ESCAPE)
    data["hands"][0]["actions"].append({"seat": 3, "act": "discard", "tile": "1m"})
    assert refusal(data) == (
        'hand 0, action 2 ({"seat": 3, "act": "discard", "tile": "1m"}): the match ended when seat 2 left '
        "(逃跑) at hand 0, action 1; nothing may follow"
    )
    twice = load(ESCAPE)
    twice["hands"][0]["actions"].append({"seat": 1, "act": "escape"})
    assert refusal(twice).startswith('hand 0, action 2 ({"seat": 1, "act": "escape"}): the match ended')


def test_a_hand_after_an_escape_is_refused() -> None:
    data = load(ESCAPE)
    data["hands"].append({"dealer": 1, "seed": 4, "actions": []})
    assert (
        refusal(data)
        == "hand 1: the match ended when seat 2 left (逃跑) at hand 0, action 1; nothing may follow"
    )


# --- dissolves -------------------------------------------------------------------------------------

KONG = RECORDS / "nanjing" / "nj10-kuaizhao-two-pungs-and-a-concealed-kong.json"


def dissolved(path: Path = KONG, keep: int = 9) -> dict[str, Any]:
    """A record whose hand the players ended by agreement (解散) after its first ``keep`` actions
    (NJ-10's: after seat 1's concealed kong and the discard after it)."""
    data = load(path)
    data["hands"][0]["actions"] = [*data["hands"][0]["actions"][:keep], {"act": "dissolve"}]
    return data


def test_a_dissolve_mid_hand_abandons_it_and_the_money_paid_stands() -> None:
    data = dissolved()
    assert _check_schema(data) is True
    settlement = replay(read_record(data)).as_dict()
    hand = settlement["hands"][0]
    assert (hand["outcome"], hand["winners"], hand["escaped"], hand["scores"]) == ("abandoned", [], [], [])
    assert [(t["from"], t["to"], t["amount"], t["reason"]) for t in hand["transfers"]] == [
        (2, 1, 3, "concealed_kong"),
        (3, 1, 3, "concealed_kong"),
        (0, 1, 3, "concealed_kong"),
    ]  # the kong's money, and nothing for the dissolve
    assert paid(hand["transfers"]) == hand["deltas"] == settlement["totals"] == [-3, 9, -3, -3]
    assert (settlement["dissolved"], settlement["escapes"]) == (0, [])


def test_a_dissolve_may_come_while_a_discard_is_open() -> None:
    """Nobody passes for the others: the hand stops with seat 0's discard open to claims."""
    settlement = replay(read_record(dissolved(keep=1))).as_dict()
    assert (settlement["hands"][0]["outcome"], settlement["totals"]) == ("abandoned", [0, 0, 0, 0])


def test_an_action_after_a_dissolve_is_refused() -> None:
    data = dissolved()
    data["hands"][0]["actions"].append({"seat": 2, "act": "discard", "tile": "2m"})
    assert refusal(data) == (
        'hand 0, action 10 ({"seat": 2, "act": "discard", "tile": "2m"}): the match was dissolved (解散) '
        "at hand 0, action 9; nothing may follow"
    )
    twice = dissolved()
    twice["hands"][0]["actions"].append({"act": "dissolve"})
    assert refusal(twice).startswith('hand 0, action 10 ({"act": "dissolve"}): the match was dissolved')
    after = dissolved()
    after["hands"].append({"dealer": 1, "seed": 4, "actions": []})
    assert refusal(after) == "hand 1: the match was dissolved (解散) at hand 0, action 9; nothing may follow"


def test_a_dissolve_between_hands_ends_the_match_after_the_hand_played() -> None:
    data = load(TWO_HANDS)
    played = replay(read_record(data)).as_dict()
    data["hands"][0]["actions"].append({"act": "dissolve"})
    assert refusal(data).startswith("hand 1: the match was dissolved (解散) at hand 0, action ")
    del data["hands"][1]
    settlement = replay(read_record(data)).as_dict()
    assert settlement["hands"] == played["hands"][:1]  # the hand keeps its outcome and settlement
    assert settlement["dissolved"] == 0
    assert played["dissolved"] is None


def test_a_dissolve_names_no_seat() -> None:
    data = dissolved()
    data["hands"][0]["actions"][-1]["seat"] = 1
    with pytest.raises(RecordError) as refused:
        read_record(data)
    assert str(refused.value) == 'hand 0, action 9: unknown field(s) seat (a dissolve is {"act": "dissolve"})'
    with pytest.raises(RecordError, match=r"^hand 0, action 9: "):
        _check_schema(data)
    seatless = load(KONG)
    seatless["hands"][0]["actions"][0] = {"act": "discard", "tile": "5p"}
    with pytest.raises(RecordError, match=r"^hand 0, action 0: 'seat' is a required property"):
        _check_schema(seatless)


@pytest.mark.parametrize("preset", ["nanjing", "nanning", "enshi"])
def test_a_dissolved_match_is_written_and_replayed_the_same(preset: str) -> None:
    match = Match(load_ruleset(preset), seed=11)
    state = match.start_hand()
    rng = random.Random(11)
    for _ in range(30):
        if state.phase is Phase.ENDED:
            break
        step(state, choose(rng, legal_actions(state, acting_seat(state))))
    match.dissolve()
    data = write_record(record_from_match(match, [state]))
    assert data["hands"][0]["actions"][-1] == {"act": "dissolve"}
    assert _check_schema(data) is True
    again = replay(read_record(data))
    assert again.match.totals == match.totals
    for replayed, result in zip(again.as_dict()["hands"], match.results, strict=True):
        assert replayed.items() >= result.as_dict().items()  # Enshi adds the 痞子 and more


# --- reading ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"dealr": 1}, "hand 0: unknown field(s) dealr (a hand has dealer, deal, wall, seed, fair, actions)"),
        ({"seed": 3}, "hand 0: give 'deal' and 'wall', or a 'seed', not both"),
        ({"dealer": True}, "hand 0: 'dealer' is a seat 0-3"),
        ({"dealer": 4}, "hand 0: 'dealer' is a seat 0-3"),
    ],
)
def test_every_field_of_a_hand_is_checked(change: dict[str, Any], message: str) -> None:
    data = load(ESCAPE)
    data["hands"][0].update(change)
    with pytest.raises(RecordError) as refused:
        read_record(data)
    assert str(refused.value) == message


def test_an_escape_takes_no_other_field() -> None:
    data = load(ESCAPE)
    data["hands"][0]["actions"][1]["tile"] = "1m"
    with pytest.raises(RecordError, match=r"hand 0, action 1: unknown field\(s\) tile"):
        read_record(data)


# --- hupai replay --check ---------------------------------------------------------------------------

runner = CliRunner()


def check(path: Path, *more: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["replay", "--check", str(path), *more])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("path", "line"),
    [
        (
            ESCAPE,
            "ok: 1 hand, 2 actions; schema, tiles, every action and dealer checked; "
            "ended by seat 2's escape (逃跑)",
        ),
        (TWO_HANDS, "ok: 2 hands, 7 actions; schema, tiles, every action and dealer checked"),
    ],
)
def test_check_says_ok_in_one_line(path: Path, line: str) -> None:
    assert check(path) == (0, line + "\n", "")


def test_check_says_a_match_was_dissolved(tmp_path: Path) -> None:
    path = tmp_path / "dissolved.json"
    path.write_text(json.dumps(dissolved(), ensure_ascii=False), encoding="utf-8")
    assert check(path) == (
        0,
        "ok: 1 hand, 10 actions; schema, tiles, every action and dealer checked; "
        "dissolved (解散) in hand 0\n",
        "",
    )


def test_check_refuses_a_wrong_dealer_in_one_line(tmp_path: Path) -> None:
    data = load(TWO_HANDS)
    data["hands"][1]["dealer"] = 3
    path = tmp_path / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = check(path)
    assert (code, out) == (2, "")
    assert err.strip() == (
        f"error: {path}: hand 1: the dealer is seat 3 in the record, but the rules give seat 0 "
        "(hand 0, dealt by seat 0, was won by seat 0: the dealer stays)"
    )


def test_check_prints_no_settlement() -> None:
    code, _, err = check(ESCAPE, "--json")
    assert code == 2
    assert "--check prints one line" in err


def test_check_names_where_a_record_departs_from_the_schema() -> None:
    data = load(ESCAPE)
    assert _check_schema(data) is True
    data["hands"][0]["actions"][0] = {"seat": 0, "act": "discard"}
    with pytest.raises(RecordError) as refused:
        _check_schema(data)
    assert str(refused.value) == "hand 0, action 0: 'tile' is a required property (record.schema.json)"
    data["hands"][0]["dealer"] = 9
    with pytest.raises(RecordError, match=r"^hand 0: 'dealer': 9 is greater than the maximum of 3"):
        _check_schema(data)


def test_check_without_jsonschema_still_does_every_engine_check(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("jsonschema", "jsonschema.exceptions"):
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed: importing it fails
    code, out, _ = check(TWO_HANDS)
    assert (code, out) == (
        0,
        "ok: 2 hands, 7 actions; tiles, every action and dealer checked "
        "(schema not checked: pip install jsonschema)\n",
    )
