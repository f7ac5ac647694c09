"""Hand analysis on 34-count vectors: win check, readings, shanten and waits, with wildcard support."""

from hupai.hand.analysis import (
    HandSizeError,
    is_win,
    seven_pairs_shanten,
    shanten,
    standard_shanten,
    waits,
)
from hupai.hand.readings import Form, Group, GroupKind, Reading, WaitShape, decompositions

__all__ = [
    "Form",
    "Group",
    "GroupKind",
    "HandSizeError",
    "Reading",
    "WaitShape",
    "decompositions",
    "is_win",
    "seven_pairs_shanten",
    "shanten",
    "standard_shanten",
    "waits",
]
