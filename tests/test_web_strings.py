"""Every word of the browser client lives in one place (js/i18n.js) in both languages, and every key
the pages ask for is there."""

from __future__ import annotations

import json
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "src" / "hupai" / "server" / "web"
ENTRY = re.compile(r'^\s*"([\w.]+)":\s*(\[.*\]),\s*$')


def words() -> dict[str, list[str]]:
    text = (WEB / "js" / "i18n.js").read_text(encoding="utf-8")
    block = text[text.index("const WORDS = {") : text.index("\n};", text.index("const WORDS = {"))]
    found: dict[str, list[str]] = {}
    for line in block.splitlines()[1:]:
        if not line.strip() or line.strip().startswith("//"):
            continue
        match = ENTRY.match(line)
        assert match, f"i18n.js: a WORDS line is not one key with its two words: {line!r}"
        key, pair = match.groups()
        assert key not in found, f"i18n.js: {key} is given twice"
        found[key] = json.loads(pair)
    return found


def test_every_key_has_both_languages() -> None:
    table = words()
    assert len(table) > 100
    lacking = [key for key, pair in table.items() if len(pair) != 2 or not all(word.strip() for word in pair)]
    assert lacking == [], f"keys without a Chinese and an English word: {lacking}"
    same = [key for key, (zh, en) in table.items() if zh == en and re.search(r"[\u4e00-\u9fff]", zh)]
    assert same == [], f"English that is still Chinese: {same}"


def test_every_key_a_page_asks_for_exists() -> None:
    table = words()
    asked: set[str] = set()
    for script in (WEB / "js").glob("*.js"):
        text = script.read_text(encoding="utf-8")
        asked |= set(re.findall(r'\bt\("([\w.]+)"', text))
        # Keys built from a prefix (t(`act.${action.act}`)) are checked by their prefix.
        for prefix in re.findall(r"\bt\(`([\w.]+)\.\$\{", text):
            assert any(key.startswith(prefix + ".") for key in table), f"{script.name}: no {prefix}.* keys"
    missing = sorted(asked - set(table))
    assert missing == [], f"keys asked for but not in i18n.js: {missing}"


def test_no_page_keeps_words_of_its_own() -> None:
    own = [
        script.name
        for script in (WEB / "js").glob("*.js")
        if script.name != "i18n.js" and re.search(r"const WORDS\s*=", script.read_text(encoding="utf-8"))
    ]
    assert own == [], f"word lists outside i18n.js: {own}"
