"""Rule sets, found by preset name or alias, bound to their options.

>>> ruleset = load_ruleset("nanjing")
>>> ruleset.name, ruleset.options.qidui_bonus
('nanjing', 80)
>>> load_ruleset("nanjing-002").options.exposed_kong_money
20
>>> load_ruleset("nj", {"qidui_bonus": 40}).options.qidui_bonus
40
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from hupai.game.contract import RuleError, RuleSet

__all__ = ["Preset", "RuleError", "RuleSet", "load_ruleset", "presets"]


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule card: a rule set and the options it changes from that rule set's defaults."""

    name: str
    ruleset: str
    zh: str
    en: str
    aliases: tuple[str, ...]
    options: Mapping[str, Any]


def _ruleset_classes() -> dict[str, type[RuleSet]]:
    from hupai.rules.enshi import EnshiRuleSet
    from hupai.rules.nanjing import NanjingRuleSet
    from hupai.rules.nanning import NanningRuleSet

    return {
        NanjingRuleSet.name: NanjingRuleSet,
        NanningRuleSet.name: NanningRuleSet,
        EnshiRuleSet.name: EnshiRuleSet,
    }


@cache
def presets() -> dict[str, Preset]:
    """Every preset shipped in ``hupai/rules/presets/*.toml``, by name."""
    found: dict[str, Preset] = {}
    folder = resources.files("hupai.rules") / "presets"
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if not entry.name.endswith(".toml"):
            continue
        data = tomllib.loads(entry.read_text(encoding="utf-8"))
        name = entry.name.removesuffix(".toml")
        found[name] = Preset(
            name=name,
            ruleset=str(data["ruleset"]),
            zh=str(data.get("zh", name)),
            en=str(data.get("en", name)),
            aliases=tuple(str(alias) for alias in data.get("aliases", ())),
            options=dict(data.get("options", {})),
        )
    return found


def find_preset(name: str) -> Preset:
    """A preset by its name or one of its aliases (case-insensitive)."""
    wanted = name.strip().lower()
    for preset in presets().values():
        if wanted == preset.name or wanted in (alias.lower() for alias in preset.aliases):
            return preset
    known = ", ".join(sorted(presets()))
    raise RuleError(f"unknown rule set or preset {name!r} (known: {known})")


def load_ruleset(name: str, options: Mapping[str, Any] | None = None) -> RuleSet:
    """The rule set a preset (or alias) names, with ``options`` applied over the preset's own."""
    from hupai.rules.options import options_from_mapping

    preset = find_preset(name)
    cls = _ruleset_classes()[preset.ruleset]
    merged = dict(preset.options)
    merged.update(options or {})
    return cls(options_from_mapping(cls.options_class, merged), preset.name)
