"""What each house option may be, in one place, and options built from plain data against it.

Every rule set's options class says, in its :class:`OptionRules` (``cls.rules()``), the range of each
whole number, the words each text or list option takes, how many items a list holds and which options
contradict which. :func:`option_specs` reads them into one
:class:`OptionSpec` per field; room creation, the command line, the rule card and the docs' option
tables all go by it, so one option has one rule and one message everywhere. A house option can never
carry a value that overflows storage or makes a score of thousands of digits.

The parsing rules, the same wherever a value comes from (docs/rules/*.md, "Options"):

- a **switch** is true or false; written as text also ``1``/``0``, ``yes``/``no``, ``on``/``off``, in
  any case (and the whole numbers 1 and 0);
- a **whole number** lies in its option's range (written as text too: ``"20"``);
- a **word** is one of its option's words, in any case;
- a **list of words** names any of its option's words, each at most once, in any order — kept in the
  order the words are listed in the docs; text is comma-separated, and an empty list is allowed where
  the docs say what it means;
- a **list of numbers** holds exactly the number of whole numbers its option says, each in range.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from hupai.game.contract import RuleError, options_to_dict

__all__ = [
    "LIST_MAX",
    "TEXT_MAX",
    "Conflict",
    "OptionRules",
    "OptionSpec",
    "conflicts",
    "option_specs",
    "options_from_mapping",
]

LIST_MAX = 16  # no list option holds more (a client's list of thousands is refused unread)
TEXT_MAX = 40
_SWITCH_WORDS = {
    "true": True,
    "1": True,
    "yes": True,
    "on": True,
    "false": False,
    "0": False,
    "no": False,
    "off": False,
}

Kind = Literal["switch", "whole", "word", "words", "wholes"]


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two options that contradict each other: ``option`` on (true, above 0, or a non-empty list)
    needs ``other`` on too (``needs``), or, both on, must be above it (``above``)."""

    option: str
    other: str
    test: Literal["needs", "above"]
    why: str  # English: what makes them contradict
    why_zh: str

    def broken(self, values: Mapping[str, Any]) -> bool:
        mine, theirs = values[self.option], values[self.other]
        if not _on(mine):
            return False
        if self.test == "needs":
            return not _on(theirs)
        return bool(_on(theirs) and mine <= theirs)

    def message(self) -> str:
        relation = "needs" if self.test == "needs" else "must be above"
        return (
            f"options {self.option!r} and {self.other!r} contradict: {self.option!r} {relation} "
            f"{self.other!r} — {self.why} ({self.why_zh})"
        )

    def as_dict(self) -> dict[str, str]:
        return {
            "option": self.option,
            "other": self.other,
            "test": self.test,
            "why": self.why,
            "why_zh": self.why_zh,
        }


@dataclass(frozen=True, slots=True)
class OptionRules:
    """What a rule set's options may be: ``ranges`` for every whole number (and list of them),
    ``choices`` for every word (and list of words), ``lengths`` (least, most) of lists where it is not
    "any number of the words", and the ``conflicts`` between options."""

    ranges: Mapping[str, tuple[int, int]]
    choices: Mapping[str, tuple[str, ...]]
    lengths: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    conflicts: tuple[Conflict, ...] = ()


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: its kind, its default, and what values it may take."""

    name: str
    kind: Kind
    default: Any
    low: int = 0  # whole numbers (and each number of a list): the smallest allowed
    high: int = 0
    choices: tuple[str, ...] = ()  # words: the allowed ones, in the docs' order
    least: int = 0  # lists: how many items at least and at most
    most: int = 0

    def allowed(self) -> str:
        """The values in words, as the docs' option tables give them."""
        if self.kind == "switch":
            return "true, false"
        if self.kind == "whole":
            return f"{self.low}-{self.high}"
        if self.kind == "word":
            return ", ".join(f"`{choice}`" for choice in self.choices)
        if self.kind == "words":
            return "any of " + ", ".join(f"`{choice}`" for choice in self.choices)
        return f"{self.least} numbers, each {self.low}-{self.high}"

    def values_to_try(self) -> list[Any]:
        """Every value worth playing: both switches, every word, a number's bounds and middle, each
        list of one word, the empty and the full list; a list of numbers at its bounds and middle."""
        if self.kind == "switch":
            return [False, True]
        if self.kind == "whole":
            return sorted({self.low, (self.low + self.high) // 2, self.high, self.default})
        if self.kind == "word":
            return list(self.choices)
        if self.kind == "words":
            return [[], *([choice] for choice in self.choices), list(self.choices)]
        return [[value] * self.least for value in sorted({self.low, (self.low + self.high) // 2, self.high})]

    def coerce(self, value: Any) -> Any:
        """``value`` as this option holds it, or a RuleError saying what it may be."""
        if self.kind == "switch":
            return self._switch(value)
        if self.kind == "whole":
            return self._whole(value)
        if self.kind == "word":
            return self._word(value)
        items = self._list(value)
        if self.kind == "wholes":
            if len(items) != self.least:
                raise RuleError(f"option {self.name!r} lists {self.allowed()}, not {_shown(value)}")
            return tuple(self._whole(item, each=True) for item in items)
        words = [self._word(item) for item in items]
        for word in words:
            if words.count(word) > 1:
                raise RuleError(f"option {self.name!r} names {word!r} twice; each word at most once")
        if not self.least <= len(words) <= self.most:
            raise RuleError(
                f"option {self.name!r} lists {self.least} to {self.most} of its words, not {len(words)}"
            )
        return tuple(choice for choice in self.choices if choice in words)

    def _switch(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        if isinstance(value, str) and value.strip().lower() in _SWITCH_WORDS:
            return _SWITCH_WORDS[value.strip().lower()]
        raise RuleError(
            f"option {self.name!r} is true or false (also 1/0, yes/no, on/off), not {_shown(value)}"
        )

    def _whole(self, value: Any, *, each: bool = False) -> int:
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, float) and value.is_integer():  # 20.0 from a JSON client is 20
            number = int(value)
        elif isinstance(value, str) and len(value) <= 12:
            try:
                number = int(value.strip())
            except ValueError:
                number = None
        if number is None or not self.low <= number <= self.high:
            what = "each a whole number" if each else "a whole number"
            raise RuleError(
                f"option {self.name!r} is {what} from {self.low} to {self.high}, "
                f"not {_shown(value if number is None else number)}"
            )
        return number

    def _word(self, value: Any) -> str:
        word = value.strip().lower() if isinstance(value, str) and len(value) <= TEXT_MAX else None
        if word not in self.choices:
            raise RuleError(f"option {self.name!r} is one of {', '.join(self.choices)}, not {_shown(value)}")
        return word

    def _list(self, value: Any) -> list[Any]:
        if isinstance(value, str):
            if len(value) > TEXT_MAX * LIST_MAX:
                raise RuleError(f"option {self.name!r} is too long a list")
            value = [part.strip() for part in value.split(",") if part.strip()]
        if not isinstance(value, list | tuple):
            raise RuleError(f"option {self.name!r} is a list, not {_shown(value)}")
        if len(value) > LIST_MAX:
            raise RuleError(f"option {self.name!r} lists at most {LIST_MAX} values, not {len(value)}")
        return list(value)


def option_specs(cls: type[Any]) -> dict[str, OptionSpec]:
    """Every option of an options class, in its fields' order."""
    rules: OptionRules = cls.rules()
    ranges, choices, lengths = rules.ranges, rules.choices, rules.lengths
    defaults = cls()
    specs: dict[str, OptionSpec] = {}
    for name in (item.name for item in fields(cls)):
        default = getattr(defaults, name)
        if isinstance(default, bool):
            specs[name] = OptionSpec(name, "switch", default)
        elif isinstance(default, int):
            low, high = ranges[name]
            specs[name] = OptionSpec(name, "whole", default, low=low, high=high)
        elif isinstance(default, str):
            specs[name] = OptionSpec(name, "word", default, choices=choices[name])
        elif name in choices:
            least, most = lengths.get(name, (0, len(choices[name])))
            specs[name] = OptionSpec(
                name, "words", list(default), choices=choices[name], least=least, most=most
            )
        else:
            low, high = ranges[name]
            least, most = lengths[name]
            specs[name] = OptionSpec(
                name, "wholes", list(default), low=low, high=high, least=least, most=most
            )
    return specs


def conflicts(cls: type[Any]) -> tuple[Conflict, ...]:
    """The pairs of options of ``cls`` that contradict each other."""
    rules: OptionRules = cls.rules()
    return rules.conflicts


def options_from_mapping(cls: type[Any], values: Mapping[str, Any], *, base: Any = None) -> Any:
    """Build an options dataclass from a mapping, checking every name and value against its spec and
    the whole against the class's conflicts; unknown names fail."""
    specs = option_specs(cls)
    current = options_to_dict(base) if base is not None else options_to_dict(cls())
    for name, value in values.items():
        if name not in specs:
            known = ", ".join(specs)
            raise RuleError(f"unknown option {_shown(name)} (known: {known})")
        current[name] = value
    converted = {name: specs[name].coerce(value) for name, value in current.items()}
    for conflict in conflicts(cls):
        if conflict.broken(converted):
            raise RuleError(conflict.message())
    return cls(**converted)


def _on(value: Any) -> bool:
    """Whether an option is on: true, above 0, or a list with something in it."""
    return bool(value)


def _shown(value: Any) -> str:
    """A value in an error message, cut short: a client's 4,000-digit number is not echoed back."""
    text = (
        repr(value)
        if not isinstance(value, int) or abs(value) < 10**12
        else f"a {len(str(abs(value)))}-digit number"
    )
    return text if len(text) <= 40 else text[:37] + "..."
