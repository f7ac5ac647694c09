"""docs/rules/enshi.md lists everything the code has: every option with its default and words, every
score item, payment reason and cap, the preset's aliases, and every worked-example record."""

from __future__ import annotations

import json
import re
from dataclasses import fields
from pathlib import Path

from hupai.rules import find_preset
from hupai.rules.enshi.items import CAPS, ITEMS, REASONS
from hupai.rules.enshi.labels import OPTION_LABELS, VALUE_LABELS
from hupai.rules.enshi.options import EnshiOptions

from .conftest import DATA

DOC = (Path(__file__).parent.parent / "docs" / "rules" / "enshi.md").read_text(encoding="utf-8")


def options_table() -> dict[str, list[str]]:
    """§9's option rows: name -> the row's cells after the name."""
    section = DOC.split("## 9. Options", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        found = re.match(r"\| `([a-z_]+)` \|(.*)\|$", line)
        if found:
            rows[found.group(1)] = [cell.strip() for cell in found.group(2).split("|")]
    return rows


def test_every_option_item_reason_and_cap_is_documented() -> None:
    names = [entry.name for entry in fields(EnshiOptions)]
    assert [name for name in names if f"`{name}`" not in DOC] == []
    assert [key for key in ITEMS if f"`{key}`" not in DOC] == []
    assert [key for key in REASONS if f"`{key}`" not in DOC] == []
    assert [key for key in CAPS if f"`{key}`" not in DOC] == []
    assert sorted(OPTION_LABELS) == sorted(names)


def test_every_score_item_is_in_the_items_table() -> None:
    section = DOC.split("### 5.3 Every score item", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE))
    assert set(ITEMS) - listed == set()
    reasons = DOC.split("### 7.4 Payment reasons", 1)[1].split("\n## ", 1)[0]
    assert set(REASONS) - set(re.findall(r"^\| `([a-z_]+)` \|", reasons, flags=re.MULTILINE)) == set()


def test_the_options_table_gives_every_default_and_word() -> None:
    table = options_table()
    defaults = EnshiOptions()
    assert sorted(table) == sorted(entry.name for entry in fields(EnshiOptions))
    for name, cells in table.items():
        value = getattr(defaults, name)
        shown = cells[0].strip("`")
        expected = str(value).lower() if isinstance(value, bool) else str(value)
        assert shown == expected, f"{name}: the table says {cells[0]}, the code {value!r}"
    for name, words in VALUE_LABELS.items():
        allowed = table[name][1]
        assert [word for word in words if f"`{word}`" not in allowed] == [], name


def test_the_preset_and_its_aliases_are_documented() -> None:
    preset = find_preset("enshi")
    assert [alias for alias in preset.aliases if f"`{alias}`" not in DOC] == []


def test_every_record_example_is_named_in_the_worked_examples() -> None:
    section = DOC.split("## 10. Worked examples", 1)[1].split("\n## 11.", 1)[0]
    for path in sorted((DATA / "records" / "enshi").glob("*.json")):
        example = json.loads(path.read_text(encoding="utf-8"))["scenario"]["example"]
        assert example in section, path.name
