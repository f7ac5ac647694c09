"""The seeds' worked examples (rules-notes §4A) as records, replayed and checked exactly."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .conftest import DATA

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))
from make_nanjing_records import check

RECORDS = sorted((DATA / "records" / "nanjing").glob("*.json"))


def test_every_worked_example_has_a_record() -> None:
    examples = {
        json.loads(path.read_text(encoding="utf-8"))["scenario"]["example"]
        for path in RECORDS
        if not path.name.startswith("opt-")
    }
    assert examples == {f"NJ-{number:02d}" for number in range(1, 13)}


def test_every_option_record_is_shown_in_the_docs() -> None:
    """The ``opt-*`` records show one option each (docs/rules/nanjing.md §"Each option shown")."""
    docs = (Path(__file__).parent.parent / "docs" / "rules" / "nanjing.md").read_text(encoding="utf-8")
    shown = docs[docs.index("### Each option shown") : docs.index("### Presets")]
    for path in RECORDS:
        if path.name.startswith("opt-"):
            assert f"nanjing/{path.name}" in shown, path.name


@pytest.mark.parametrize("path", RECORDS, ids=[path.stem for path in RECORDS])
def test_worked_example_replays_exactly(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert check(data) == []
