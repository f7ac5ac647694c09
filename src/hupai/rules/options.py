"""Options from plain data: every value checked against its rule set's options class and bounded, so
a house option can never carry a value that overflows storage or makes a score of thousands of
digits (the API, the command line and the rule card all come through here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hupai.game.contract import RuleError, options_to_dict

__all__ = ["LIST_MAX", "TEXT_MAX", "WHOLE_RANGE", "option_range", "options_from_mapping"]

# Every option's bounds. A whole-number option lies in WHOLE_RANGE unless its class declares its own
# range in ``RANGES``; a list holds at most LIST_MAX items and a text at most TEXT_MAX characters. The
# API, the command line and the rule card all go through here, so a house option can never carry a
# value that overflows storage or makes a score of thousands of digits.
WHOLE_RANGE = (0, 10_000)
LIST_MAX = 16
TEXT_MAX = 40


def option_range(cls: type[Any], name: str) -> tuple[int, int]:
    """The smallest and largest value a whole-number option may take."""
    ranges: Mapping[str, tuple[int, int]] = getattr(cls, "RANGES", {})
    return ranges.get(name, WHOLE_RANGE)


def options_from_mapping(cls: type[Any], values: Mapping[str, Any], *, base: Any = None) -> Any:
    """Build an options dataclass from a mapping, checking every name and type; unknown names fail."""
    fields = cls.__dataclass_fields__
    current = options_to_dict(base) if base is not None else {}
    for name, value in values.items():
        if name not in fields:
            known = ", ".join(sorted(fields))
            raise RuleError(f"unknown option {name!r} (known: {known})")
        current[name] = value
    converted: dict[str, Any] = {}
    for name, value in current.items():
        default = getattr(cls(), name) if base is None else getattr(base, name)
        converted[name] = _coerce(name, value, default, option_range(cls, name))
    instance = cls(**converted)
    validate = getattr(instance, "validate", None)
    if validate is not None:
        validate()
    return instance


def _coerce(name: str, value: Any, default: Any, bounds: tuple[int, int] = WHOLE_RANGE) -> Any:
    if isinstance(default, bool):
        if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no", "on", "off"):
            return value.lower() in ("true", "1", "yes", "on")
        if not isinstance(value, bool):
            raise RuleError(f"option {name!r} is true or false, not {_shown(value)}")
        return value
    if isinstance(default, int):
        return _whole(name, value, bounds)
    if isinstance(default, tuple):
        if isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if not isinstance(value, list | tuple):
            raise RuleError(f"option {name!r} is a list, not {_shown(value)}")
        if len(value) > LIST_MAX:
            raise RuleError(f"option {name!r} lists at most {LIST_MAX} values, not {len(value)}")
        element = default[0] if default else ""
        return tuple(_coerce(name, item, element, bounds) for item in value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise RuleError(f"option {name!r} is text, not {_shown(value)}")
        if len(value) > TEXT_MAX:
            raise RuleError(f"option {name!r} is at most {TEXT_MAX} characters")
        return value
    return value


def _whole(name: str, value: Any, bounds: tuple[int, int]) -> int:
    low, high = bounds
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
    if number is None:
        raise RuleError(f"option {name!r} is a whole number from {low} to {high}, not {_shown(value)}")
    if not low <= number <= high:
        raise RuleError(f"option {name!r} is from {low} to {high}, not {_shown(number)}")
    return number


def _shown(value: Any) -> str:
    """A value in an error message, cut short: a client's 4,000-digit number is not echoed back."""
    text = (
        repr(value)
        if not isinstance(value, int) or abs(value) < 10**12
        else f"a {len(str(abs(value)))}-digit number"
    )
    return text if len(text) <= 40 else text[:37] + "..."
