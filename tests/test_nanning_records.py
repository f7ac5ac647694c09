"""Every Nanning worked example that can occur in play (rules-notes §4B, §4C) as a record, replayed and
checked against the figure the seed prints."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from .conftest import DATA

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))
from make_nanning_records import UNREACHABLE, check

RECORDS = sorted((DATA / "records" / "nanning").glob("*.json"))


def test_every_example_is_a_record_or_explained() -> None:
    examples = {
        re.sub(r"[a-d]$", "", json.loads(path.read_text(encoding="utf-8"))["scenario"]["example"])
        for path in RECORDS
    }
    wanted = {f"NN-{number:03d}" for number in range(1, 154)} | {
        f"N4-{number:02d}" for number in range(1, 30)
    }
    assert wanted - examples - set(UNREACHABLE) == set()
    assert examples & set(UNREACHABLE) == set()
    assert len(RECORDS) >= 180


@pytest.mark.parametrize("path", RECORDS, ids=[path.stem for path in RECORDS])
def test_example_replays_exactly(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert check(data) == []


def test_unreachable_lines_are_in_the_docs() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "rules" / "nanning.md").read_text(encoding="utf-8")
    assert [ident for ident in UNREACHABLE if ident not in doc] == []
