"""Player-facing labels of every rule-set option, in Chinese and English, for rule cards.

>>> labels = option_labels("nanjing")
>>> labels["qidui_bonus"]["zh"], labels["qidui_bonus"]["en"]
('七对加花', 'Seven pairs bonus')
>>> labels["menqing"]["values"]["no_meld"]
{'zh': '碰杠都不算门清', 'en': 'Any meld breaks it'}
>>> option_labels("nanning")["fishing"]["zh"]
'钓鱼'
>>> option_labels("enshi")["chuotai_forbidden"]["zh"]
'不能戳胎'
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["option_labels"]

Labels = tuple[Mapping[str, tuple[str, str, str, str]], Mapping[str, Mapping[str, tuple[str, str]]]]


def _tables(ruleset_name: str) -> Labels:
    if ruleset_name == "nanjing":
        from hupai.rules.nanjing import labels as nanjing

        return nanjing.OPTION_LABELS, nanjing.VALUE_LABELS
    if ruleset_name == "nanning":
        from hupai.rules.nanning import labels as nanning

        return nanning.OPTION_LABELS, nanning.VALUE_LABELS
    if ruleset_name == "enshi":
        from hupai.rules.enshi import labels as enshi

        return enshi.OPTION_LABELS, enshi.VALUE_LABELS
    raise KeyError(ruleset_name)


def option_labels(ruleset_name: str) -> dict[str, dict[str, object]]:
    """Every option of the rule set ``ruleset_name`` (``"nanjing"``, ``"nanning"``, ``"enshi"``), in its
    options' order.

    Each option maps to ``{"zh": …, "en": …, "help": …, "help_zh": …}`` (one line of help in English and
    in Chinese), plus ``"values": {value: {"zh": …, "en": …}}``
    for options whose value is one (or a list) of a few words. A preset name is not a rule set name:
    use ``load_ruleset(preset).name``. Raises ``KeyError`` for an unknown rule set.
    """
    options, values = _tables(ruleset_name)
    out: dict[str, dict[str, object]] = {}
    for name, (zh, en, help_text, help_zh) in options.items():
        entry: dict[str, object] = {"zh": zh, "en": en, "help": help_text, "help_zh": help_zh}
        if name in values:
            entry["values"] = {value: {"zh": vzh, "en": ven} for value, (vzh, ven) in values[name].items()}
        out[name] = entry
    return out
