"""Each house option's effect, shown: golden hands (``data/options/<ruleset>.jsonl``) whose settlement
changes when one option changes, with both figures written from the seeds and docs/rules/<ruleset>.md
(not from the engine's output), and docs/rules/<ruleset>.md §"Each option shown" giving the same.

An entry is either a win told to the score calculator (``calculator``: the worked examples' input) or a
record's play (``record``: a file under ``data/records``), settled under the card with the option at
its default and again with ``option`` = ``value`` (a ``changed_record`` where the play itself must
differ). ``default`` and ``changed`` are what each settles to: the calculator's ``allowed``, ``deltas``,
``items``, ``transfers``, ``reason``; a record's match ``totals``, or ``refused`` (part of the message
that refuses the record under that card, which must name the option's rule).
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from hupai.calculator import WinSpec, score_win
from hupai.game.record import RecordError, read_record
from hupai.replay import replay
from hupai.rules import load_ruleset

from .conftest import DATA, load_jsonl

RULESETS = ("nanjing", "nanning", "enshi")
DOCS = Path(__file__).parent.parent / "docs" / "rules"
EFFECTS = {ruleset: load_jsonl(DATA / "options" / f"{ruleset}.jsonl") for ruleset in RULESETS}
ENTRIES = [(ruleset, entry) for ruleset, entries in EFFECTS.items() for entry in entries]


def settle(entry: dict[str, Any], *, changed: bool) -> dict[str, Any]:
    """What the entry settles to under the base card, or with its option changed."""
    change = {entry["option"]: entry["value"]} if changed else {}
    if "calculator" in entry:
        told = entry["calculator"]
        calculation = score_win(WinSpec.from_dict({**told, "options": {**told.get("options", {}), **change}}))
        sheet = calculation.sheet
        return {
            "allowed": calculation.allowed,
            "deltas": list(calculation.deltas),
            "items": {item.key: item.value for item in sheet.items} if sheet is not None else {},
            "transfers": [[t.payer, t.payee, t.amount, t.reason] for t in calculation.transfers],
            "reason": calculation.reason,
        }
    path = entry["changed_record"] if changed and "changed_record" in entry else entry["record"]
    record = read_record((DATA / "records" / path).read_text(encoding="utf-8"))
    try:
        result = replay(record, ruleset=load_ruleset(record.ruleset, {**record.options, **change}))
    except RecordError as error:
        return {"refused": str(error)}
    return {"totals": list(result.match.totals)}


def agrees(found: dict[str, Any], expected: dict[str, Any]) -> None:
    for key, value in expected.items():
        if key in ("reason", "refused"):
            assert value in found[key], (key, found[key])
        else:
            assert found[key] == value, key


@pytest.mark.parametrize(("ruleset", "entry"), ENTRIES, ids=[entry["id"] for _, entry in ENTRIES])
def test_the_option_changes_the_settlement_as_the_docs_say(ruleset: str, entry: dict[str, Any]) -> None:
    options = type(load_ruleset(ruleset).options)
    assert entry["option"] in {item.name for item in fields(options)}
    assert entry["value"] != getattr(load_ruleset(ruleset).options, entry["option"]), "a changed value"
    before, after = settle(entry, changed=False), settle(entry, changed=True)
    agrees(before, entry["default"])
    agrees(after, entry["changed"])
    assert before != after, "the option changes nothing in this hand"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_docs_show_each_golden_with_both_figures(ruleset: str) -> None:
    text = (DOCS / f"{ruleset}.md").read_text(encoding="utf-8")
    if not EFFECTS[ruleset]:
        return
    section = text[text.index("### Each option shown") :]
    for entry in EFFECTS[ruleset]:
        row = next((line for line in section.splitlines() if f"| {entry['id']} |" in line), None)
        assert row is not None, f"{entry['id']} is not in the docs' table"
        assert f"`{entry['option']}`" in row
        for side in ("default", "changed"):
            figures = entry[side].get("deltas") or entry[side].get("totals")
            if figures:
                shown = " / ".join(f"{value:+d}".replace("-", "−") if value else "0" for value in figures)
                assert re.sub(r"\*\*", "", shown) in re.sub(r"\*\*", "", row), (entry["id"], side, shown)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_option_has_its_effect_shown(ruleset: str) -> None:
    shown = {entry["option"] for entry in EFFECTS[ruleset]}
    options = [item.name for item in fields(load_ruleset(ruleset).options)]
    assert [name for name in options if name not in shown] == []
    text = (DOCS / f"{ruleset}.md").read_text(encoding="utf-8")
    table = text[text.index("Every field of") : text.index("### Options that contradict each other")]
    for entry in EFFECTS[ruleset]:
        row = next(line for line in table.splitlines() if line.startswith(f"| `{entry['option']}` |"))
        assert entry["id"] in row, f"the options table links {entry['id']} from {entry['option']}'s row"
