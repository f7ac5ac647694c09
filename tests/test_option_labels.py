"""Every rule-set option has a player-facing label in Chinese and English (hupai.rules.labels).

The checks read the options classes themselves, so an option added without a label, a label left
behind by a removed option, or a new text value without its name makes them fail.
"""

from __future__ import annotations

import dataclasses
import re
from types import ModuleType
from typing import Any

import pytest

from hupai.rules import load_ruleset, presets
from hupai.rules.enshi import labels as enshi_labels
from hupai.rules.labels import option_labels
from hupai.rules.nanjing import labels as nanjing_labels
from hupai.rules.nanning import labels as nanning_labels
from hupai.rules.options import option_specs

LABEL_MODULES: dict[str, ModuleType] = {
    "nanjing": nanjing_labels,
    "nanning": nanning_labels,
    "enshi": enshi_labels,
}
PRESETS = sorted(presets())
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
HELP_MAX = 90
HELP_ZH_MAX = 48  # one line on a phone


def _options(preset: str) -> Any:
    return load_ruleset(preset).options


def _fields(preset: str) -> list[dataclasses.Field[Any]]:
    return list(dataclasses.fields(_options(preset)))


def _module(preset: str) -> ModuleType:
    return LABEL_MODULES[load_ruleset(preset).name]


def _is_text_list(value: object) -> bool:
    return isinstance(value, tuple) and bool(value) and all(isinstance(member, str) for member in value)


def _words(value: object) -> list[str]:
    """The text values in an option value: the word itself, or the words of a list of words."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple) and _is_text_list(value):
        return [str(member) for member in value]
    return []


def _allowed_words(preset: str, name: str) -> set[str]:
    """The words option ``name`` may take (its spec's choices; empty for a switch or a number)."""
    return set(option_specs(type(_options(preset)))[name].choices)


def test_every_preset_has_a_label_module() -> None:
    assert PRESETS
    for preset in PRESETS:
        assert load_ruleset(preset).name in LABEL_MODULES


@pytest.mark.parametrize("preset", PRESETS)
def test_every_option_has_a_label(preset: str) -> None:
    labels = option_labels(load_ruleset(preset).name)
    names = [field.name for field in _fields(preset)]
    missing = [name for name in names if name not in labels]
    assert not missing, f"options without a label: {missing}"
    for name in names:
        entry = labels[name]
        for key in ("zh", "en", "help", "help_zh"):
            text = entry[key]
            assert isinstance(text, str), (name, key)
            assert text.strip(), f"{name}: empty {key}"
        assert len(str(entry["help"])) <= HELP_MAX, f"{name}: help longer than {HELP_MAX} characters"
        assert CJK.search(str(entry["help_zh"])), f"{name}: the Chinese help is not in Chinese"
        assert len(str(entry["help_zh"])) <= HELP_ZH_MAX, f"{name}: Chinese help over {HELP_ZH_MAX}"


@pytest.mark.parametrize("preset", PRESETS)
def test_no_stale_labels(preset: str) -> None:
    names = {field.name for field in _fields(preset)}
    module = _module(preset)
    assert set(module.OPTION_LABELS) - names == set(), "labels for options that do not exist"
    assert set(module.VALUE_LABELS) - names == set(), "value labels for options that do not exist"
    assert set(option_labels(load_ruleset(preset).name)) == names


@pytest.mark.parametrize("preset", PRESETS)
def test_text_values_in_use_have_labels(preset: str) -> None:
    options = _options(preset)
    labels = option_labels(load_ruleset(preset).name)
    for field in _fields(preset):
        known = labels.get(field.name, {}).get("values", {})
        assert isinstance(known, dict)
        for value in (field.default, getattr(options, field.name)):
            for word in _words(value):
                assert word in known, f"{field.name}: no label for the value {word!r}"


@pytest.mark.parametrize("preset", PRESETS)
def test_every_allowed_value_has_a_label(preset: str) -> None:
    values = _module(preset).VALUE_LABELS
    for field in _fields(preset):
        missing = _allowed_words(preset, field.name) - set(values.get(field.name, {}))
        assert not missing, f"{field.name}: allowed values without a label: {sorted(missing)}"


@pytest.mark.parametrize("preset", PRESETS)
def test_labelled_values_are_allowed(preset: str) -> None:
    for name, words in _module(preset).VALUE_LABELS.items():
        assert set(words) <= _allowed_words(preset, name), name


@pytest.mark.parametrize("preset", PRESETS)
def test_labels_are_bilingual(preset: str) -> None:
    module = _module(preset)
    for name, (zh, en, _help, help_zh) in module.OPTION_LABELS.items():
        assert CJK.search(zh), f"{name}: Chinese label {zh!r} has no Chinese character"
        assert CJK.search(help_zh), f"{name}: Chinese help {help_zh!r} has no Chinese character"
        assert en.strip(), name
    for name, words in module.VALUE_LABELS.items():
        for word, (zh, en) in words.items():
            assert CJK.search(zh), f"{name}={word}: Chinese label {zh!r}"
            assert en.strip(), (name, word)


def test_output_shape() -> None:
    labels = option_labels("nanjing")
    assert labels["qidui_bonus"] == {
        "zh": "七对加花",
        "en": "Seven pairs bonus",
        "help": labels["qidui_bonus"]["help"],
        "help_zh": labels["qidui_bonus"]["help_zh"],
    }
    triggers = nanjing_labels.VALUE_LABELS["bixiahu_triggers"]
    assert labels["bixiahu_triggers"]["values"] == {
        word: {"zh": zh, "en": en} for word, (zh, en) in triggers.items()
    }
    assert "values" not in labels["multi_ron"]
    assert option_labels("nanning")["fishing"]["zh"] == "钓鱼"


@pytest.mark.parametrize("name", ["es", "nj", "nanjing-002", ""])
def test_unknown_ruleset_is_a_key_error(name: str) -> None:
    with pytest.raises(KeyError):
        option_labels(name)
