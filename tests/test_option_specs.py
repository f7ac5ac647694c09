"""One rule per option, everywhere: the docs' option tables say exactly what each option may be (its
default, its range or words), every value is read by one rule whether it comes from the command line,
room creation or a record, and options that contradict each other are refused naming both."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from hupai.cli import app
from hupai.rules import RuleError, load_ruleset, presets
from hupai.rules.options import OptionSpec, conflicts, option_specs

DOCS = Path(__file__).parent.parent / "docs" / "rules"
RULESETS = ("nanjing", "nanning", "enshi")
ROW = re.compile(r"^\| `([a-z_0-9]+)` \| ([^|]*) \| ([^|]*) \|")


def specs_of(ruleset: str) -> dict[str, OptionSpec]:
    return option_specs(type(load_ruleset(ruleset).options))


def option_table(ruleset: str) -> dict[str, tuple[str, str]]:
    """The docs' option table: option -> (default, allowed), as written."""
    text = (DOCS / f"{ruleset}.md").read_text(encoding="utf-8")
    section = text[text.index("Every field of") : text.index("### Presets")]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        found = ROW.match(line)
        if found:
            rows[found.group(1)] = (found.group(2).strip(), found.group(3).strip())
    return rows


def shown_default(spec: OptionSpec) -> str:
    value = spec.default
    if spec.kind == "switch":
        return "true" if value else "false"
    if spec.kind == "whole":
        return str(value)
    if spec.kind == "word":
        return f"`{value}`"
    if spec.kind == "words" and list(value) == list(spec.choices):
        return "all"
    return "`[" + ", ".join(map(str, value)) + "]`"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_docs_option_table_states_every_option_as_the_code_reads_it(ruleset: str) -> None:
    table = option_table(ruleset)
    specs = specs_of(ruleset)
    assert list(table) == list(specs), "the table lists every option once, in the class's order"
    for name, spec in specs.items():
        default, allowed = table[name]
        assert default == shown_default(spec), name
        assert allowed.split(" (")[0] == spec.allowed(), name


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_docs_list_every_contradiction(ruleset: str) -> None:
    text = (DOCS / f"{ruleset}.md").read_text(encoding="utf-8")
    section = text[text.index("### Options that contradict each other") : text.index("### Presets")]
    for conflict in conflicts(type(load_ruleset(ruleset).options)):
        assert re.search(
            rf"\| `{conflict.option}` [^|]*\| `{conflict.other}`|\| `{conflict.option}` [^|]*\| "
            rf"`{conflict.option}` ≤ `{conflict.other}`",
            section,
        ), conflict


@pytest.mark.parametrize("preset", sorted(presets()))
def test_every_preset_and_default_lies_within_its_own_rules(preset: str) -> None:
    options = load_ruleset(preset).options
    for name, spec in option_specs(type(options)).items():
        value = getattr(options, name)
        assert spec.coerce(value) == (tuple(value) if isinstance(value, tuple) else value), name
        for tried in spec.values_to_try():
            spec.coerce(tried)  # every value the option-space tests play is allowed


@pytest.mark.parametrize(
    ("written", "read"),
    [
        (True, True),
        ("true", True),
        ("TRUE", True),
        ("1", True),
        (1, True),
        ("yes", True),
        ("On", True),
        (False, False),
        ("false", False),
        ("0", False),
        (0, False),
        ("no", False),
        ("OFF", False),
    ],
)
def test_a_switch_reads_true_and_false_and_their_usual_spellings(written: Any, read: bool) -> None:
    assert load_ruleset("enshi", {"chow": written}).options.chow is read


@pytest.mark.parametrize("written", ["maybe", 2, -1, "", None, [True], 0.5])
def test_anything_else_is_no_switch(written: Any) -> None:
    with pytest.raises(RuleError, match=r"'multi_ron' is true or false \(also 1/0, yes/no, on/off\)"):
        load_ruleset("nanjing", {"multi_ron": written})


def test_a_list_of_words_is_kept_in_the_docs_order_each_word_once() -> None:
    options = load_ruleset("nanjing", {"yajue_source": "three_discarded, own_pung"}).options
    assert options.yajue_source == ("own_pung", "three_discarded")
    assert load_ruleset("nanjing", {"bixiahu_triggers": ""}).options.bixiahu_triggers == ()
    assert load_ruleset("nanjing", {"bixiahu_triggers": ["DRAW"]}).options.bixiahu_triggers == ("draw",)
    for twice in ("own_pung,own_pung", ["draw", "draw"]):
        name = "yajue_source" if "own" in str(twice) else "bixiahu_triggers"
        with pytest.raises(RuleError, match=r"names '(own_pung|draw)' twice"):
            load_ruleset("nanjing", {name: twice})
    with pytest.raises(RuleError, match="'yajue_source' is one of own_pung, others_pung, three_discarded"):
        load_ruleset("nanjing", {"yajue_source": "own_pung,their_pung"})


def test_a_list_of_numbers_holds_exactly_its_count() -> None:
    assert load_ruleset("nanjing", {"luxury_qidui_bonus": "80, 160, 240"}).options.luxury_qidui_bonus == (
        80,
        160,
        240,
    )
    with pytest.raises(RuleError, match="lists 3 numbers, each 0-1000"):
        load_ruleset("nanjing", {"luxury_qidui_bonus": [80, 160]})
    with pytest.raises(
        RuleError, match="'luxury_qidui_bonus' is each a whole number from 0 to 1000, not 1001"
    ):
        load_ruleset("nanjing", {"luxury_qidui_bonus": [80, 160, 1001]})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_whole_number_has_one_range_and_one_message(ruleset: str) -> None:
    for name, spec in specs_of(ruleset).items():
        if spec.kind != "whole":
            continue
        expected = f"option {name!r} is a whole number from {spec.low} to {spec.high}, not "
        for outside in (spec.low - 1, spec.high + 1, "many"):
            with pytest.raises(RuleError) as refused:
                load_ruleset(ruleset, {name: outside})
            assert str(refused.value).startswith(expected), str(refused.value)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_contradicting_options_are_refused_naming_both(ruleset: str) -> None:
    specs = specs_of(ruleset)
    for conflict in conflicts(type(load_ruleset(ruleset).options)):
        on = {"switch": True, "whole": specs[conflict.option].high}[specs[conflict.option].kind]
        if conflict.test == "needs":
            other = {"switch": False, "whole": 0}[specs[conflict.other].kind]
            changes: dict[str, Any] = {conflict.option: on, conflict.other: other}
        else:
            changes = {conflict.option: 1, conflict.other: specs[conflict.other].high}
        with pytest.raises(RuleError) as refused:
            load_ruleset(ruleset, changes)
        message = str(refused.value)
        assert f"options {conflict.option!r} and {conflict.other!r} contradict" in message
        assert conflict.why in message and conflict.why_zh in message


def test_no_cap_at_all_is_both_caps_at_zero() -> None:
    options = load_ruleset("enshi", {"cap": 0, "gold_cap": 0}).options
    assert (options.cap, options.gold_cap, options.diamond_cap) == (0, 0, 0)
    with pytest.raises(RuleError, match="'gold_cap' needs 'cap'"):
        load_ruleset("enshi", {"cap": 0})


@pytest.mark.parametrize(
    ("ruleset", "pair", "message"),
    [
        ("enshi", "difen=0", "option 'difen' is a whole number from 1 to 100, not 0"),
        ("enshi", "difen=-1", "option 'difen' is a whole number from 1 to 100, not -1"),
        ("nanjing", "multi_ron=maybe", "option 'multi_ron' is true or false"),
        ("nanjing", "yajue_source=own_pung,own_pung", "names 'own_pung' twice"),
        ("nanning", "sishuang=true", None),
        ("enshi", "laizi_in_melds=1", None),
    ],
)
def test_the_command_line_reads_options_by_the_same_rules(
    ruleset: str, pair: str, message: str | None
) -> None:
    expected: str | None = None
    name, _, value = pair.partition("=")
    try:
        load_ruleset(ruleset, {name: value})
    except RuleError as error:
        expected = str(error)
    assert (expected is None) == (message is None) and (message is None or message in str(expected))
    result = CliRunner().invoke(
        app, ["simulate", "--ruleset", ruleset, "--option", pair, "--hands", "1", "--bots", "random"]
    )
    if expected is None:
        assert result.exit_code == 0, result.output
    else:
        assert result.exit_code != 0
        assert expected in " ".join(result.output.split()), result.output


def test_a_replay_under_contradicting_options_is_refused_naming_both() -> None:
    record = Path(__file__).parent / "data" / "records" / "enshi" / "es-05-daxie-self-drawn.json"
    result = CliRunner().invoke(app, ["replay", str(record), "--option", "cap=0"])
    assert result.exit_code == 2
    assert "options 'gold_cap' and 'cap' contradict" in " ".join(result.output.split())
    fine = CliRunner().invoke(app, ["replay", str(record), "--option", "cap=0", "--option", "gold_cap=0"])
    assert fine.exit_code == 0, fine.output
