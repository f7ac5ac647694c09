"""The published schemas (docs/record.schema.json, docs/settlement.schema.json) hold for everything the
project writes or ships: the records in tests/data, records written by write_record and by self-play,
and ``hupai replay --json``; malformed records fail with a message that says where and why. (The
server's stored records and settlements: tests/server/table/test_escape.py.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hupai.cli import app
from hupai.game import read_record, record_from_match, write_record
from hupai.replay import replay
from hupai.rules import load_ruleset
from hupai.sim import SimConfig, simulate

from .conftest import DATA
from .record_play import Leaving, play_match
from .schema_support import DOCS, schema_error

ROOT = Path(__file__).resolve().parents[1]
RECORDS = sorted((DATA / "records").rglob("*.json"))
ESCAPE = DATA / "records" / "nanjing" / "nj02-escape-60.json"


def test_the_package_carries_the_published_schemas() -> None:
    """``hupai replay --check`` reads the copies in the package: they must be the ones in docs/."""
    for name in ("record.schema.json", "settlement.schema.json"):
        shipped = ROOT / "src" / "hupai" / "schemas" / name
        assert shipped.read_bytes() == (DOCS / name).read_bytes(), f"copy docs/{name} to {shipped}"


def test_there_are_shipped_records_of_every_rule_set() -> None:
    assert {path.parent.name for path in RECORDS} == {"nanjing", "nanning", "enshi"}
    assert len(RECORDS) > 200


@pytest.mark.parametrize("path", RECORDS, ids=[path.stem for path in RECORDS])
def test_every_shipped_record_and_its_settlement_match_the_schemas(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert schema_error(data, "record") is None
    settlement = json.loads(json.dumps(replay(read_record(data)).as_dict()))
    assert schema_error(settlement, "settlement") is None


@pytest.mark.parametrize(
    "path",
    [
        ESCAPE,
        *(
            DATA / "records" / name / first
            for name, first in (("nanning", "n4-29.json"), ("enshi", "es-11-lay-bloom-loser-multiplier.json"))
        ),
    ],
    ids=lambda path: path.stem,
)
def test_replay_json_prints_what_the_settlement_schema_says(path: Path) -> None:
    result = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.stderr
    assert schema_error(json.loads(result.stdout), "settlement") is None


@pytest.mark.parametrize("preset", ["nanjing", "nanning", "enshi"])
def test_records_written_by_write_record_match_the_schema(preset: str) -> None:
    match, states = play_match(
        load_ruleset(preset), seed=2, hands=2, leaving=Leaving(seat=3, hand=1, steps=12)
    )
    assert schema_error(write_record(record_from_match(match, states)), "record") is None


def test_records_written_by_self_play_match_the_schema(tmp_path: Path) -> None:
    for ruleset in ("nanjing", "nanning", "enshi"):
        folder = tmp_path / ruleset
        config = SimConfig(
            ruleset=ruleset, bots=("efficiency",) * 4, hands=2, match_hands=2, records=str(folder)
        )
        simulate(config)
        written = sorted(folder.glob("*.json"))
        assert written
        for path in written:
            assert schema_error(json.loads(path.read_text(encoding="utf-8")), "record") is None


def malformed(change: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ESCAPE.read_text(encoding="utf-8"))
    hand = data["hands"][0]
    if change == "no format":
        del data["format"]
    elif change == "other format":
        data["format"] = "hupai-record/2"
    elif change == "three seats":
        data["seats"] = data["seats"][:3]
    elif change == "no hands":
        data["hands"] = []
    elif change == "deal and seed":
        hand["seed"] = 7
    elif change == "wall only":
        del hand["deal"]
    elif change == "misspelt field":
        hand["dealr"] = 1
    elif change == "dealer 4":
        hand["dealer"] = 4
    elif change == "bad notation":
        hand["wall"] = "12x" + hand["wall"]
    elif change == "discard without tile":
        hand["actions"][0] = {"seat": 0, "act": "discard"}
    elif change == "pong with tile":
        hand["actions"][0] = {"seat": 1, "act": "pong", "tile": "1p"}
    elif change == "unknown act":
        hand["actions"][0] = {"seat": 0, "act": "draw"}
    elif change == "flower discarded":
        hand["actions"][0] = {"seat": 0, "act": "discard", "tile": "1f"}
    elif change == "option object":
        data["options"]["base"] = {"value": 20}
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("no format", "the top: 'format' is a required property"),
        ("other format", "format: 'hupai-record/1' was expected"),
        ("three seats", "seats: ['甲', '乙', '丙'] is too short"),
        ("no hands", "hands: [] should be non-empty"),
        ("deal and seed", "hands/0: 'deal' is not one of ['dealer', 'seed', 'actions']"),
        ("wall only", "hands/0: 'deal' is a required property"),
        ("misspelt field", "hands/0: Additional properties are not allowed ('dealr' was unexpected)"),
        ("dealer 4", "hands/0/dealer: 4 is greater than the maximum of 3"),
        ("bad notation", "hands/0/wall: '12x"),
        ("discard without tile", "hands/0/actions/0: 'tile' is a required property"),
        ("pong with tile", "hands/0/actions/0: 'tile' is not one of ['seat', 'act']"),
        ("unknown act", "hands/0/actions/0/act: 'draw' is not one of ['discard'"),
        ("flower discarded", "hands/0/actions/0/tile: '1f' does not match"),
        ("option object", "options/base: {'value': 20} is not valid under any of the given schemas"),
    ],
)
def test_a_malformed_record_fails_with_where_and_why(change: str, message: str) -> None:
    error = schema_error(malformed(change), "record")
    assert error is not None and error.startswith(message), error


def test_a_settlement_whose_transfer_lacks_its_reason_fails() -> None:
    settlement = json.loads(json.dumps(replay(read_record(ESCAPE)).as_dict()))
    del settlement["hands"][0]["transfers"][0]["reason"]
    assert schema_error(settlement, "settlement") == "hands/0/transfers/0: 'reason' is a required property"
