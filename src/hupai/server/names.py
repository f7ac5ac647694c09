"""Player names: what a name may be, and the key two names that look alike share.

A name is shown at other players' tables, so it is normalised (NFKC: fullwidth ``Ａｌｉｃｅ`` is
``Alice``) and refused when it hides something: invisible or formatting characters (zero-width
spaces, bidi overrides), control characters, markup, or nothing visible at all. Two names that look
the same have the same :func:`name_key` — NFKC, common Cyrillic and Greek look-alikes mapped to the
Latin letters they imitate, case folded, spaces and variation selectors dropped — and the database
keeps registered players' keys unique.

The look-alike map is hand-written (the letters that are pixel-identical to Latin ones in common
fonts), not Unicode's whole confusables table: no well-kept, typed Python library ships it, and the
letters people actually use to impersonate a name are these few.
"""

from __future__ import annotations

import re
import unicodedata

MAX_LENGTH = 16
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})  # control, format, unassigned…
# Letters and symbols that draw nothing (outside the categories above): Hangul fillers, the blank
# Braille pattern, the combining grapheme joiner.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
VARIATION_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")
MARKUP = frozenset("<>")
MAX_MARKS = 2  # combining marks on one letter (more is "Zalgo" text spilling over other names)
SPACES = re.compile(r"\s+")

# Cyrillic and Greek letters drawn like Latin ones, before case folding (so upper and lower case
# each map to the Latin letter they look like: Greek Ν is N, but ν is v).
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
        "Т": "T", "Х": "X", "У": "Y", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W",
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s", "і": "i",
        "ј": "j", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ё": "e", "ї": "i",
        # Greek
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
        "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "υ": "u", "χ": "x",
    }
)  # fmt: skip


class NameError_(ValueError):  # noqa: N801 - "NameError" is a builtin
    """A name that may not be used (the message says why, in words a player understands)."""


def clean_name(raw: str) -> str:
    """The name as it will be stored and shown (NFKC, spaces collapsed), or :class:`NameError_`."""
    name = unicodedata.normalize("NFKC", raw)
    for char in name:  # before spaces are collapsed: a newline or tab is a control character
        if unicodedata.category(char) in REFUSED_CATEGORIES or char in INVISIBLE:
            raise NameError_(f"names may not contain invisible or control characters (U+{ord(char):04X})")
        if char in MARKUP:
            raise NameError_("names may not contain < or >")
    name = SPACES.sub(" ", name).strip()
    if not any(unicodedata.category(char)[0] in "LNPS" and char not in INVISIBLE for char in name):
        raise NameError_("a name needs at least one visible letter, digit or sign")
    if len(name) > MAX_LENGTH:
        raise NameError_(f"names are at most {MAX_LENGTH} characters")
    if _marks_in_a_row(name) > MAX_MARKS:
        raise NameError_(f"at most {MAX_MARKS} accents on one letter")
    return name


def name_key(name: str) -> str:
    """What two names that look alike have in common (unique among registered players)."""
    text = unicodedata.normalize("NFKC", name)
    text = VARIATION_SELECTORS.sub("", text).translate(LOOK_ALIKES).casefold()
    text = unicodedata.normalize("NFKC", text)
    return "".join(char for char in text if not char.isspace())


def _marks_in_a_row(name: str) -> int:
    longest = run = 0
    for char in name:
        run = run + 1 if unicodedata.category(char).startswith("M") else 0
        longest = max(longest, run)
    return longest
