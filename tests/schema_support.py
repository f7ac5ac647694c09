"""The published JSON Schemas (docs/*.schema.json), for tests that check what the project writes."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

DOCS = Path(__file__).resolve().parents[1] / "docs"


@cache
def validator(name: str, definition: str | None = None) -> Draft202012Validator:
    """The validator of ``docs/<name>.schema.json``, or of one of its ``$defs``."""
    schema = json.loads((DOCS / f"{name}.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    if definition is not None:
        schema = {"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]}
    return Draft202012Validator(schema)


def schema_error(data: Any, name: str, definition: str | None = None) -> str | None:
    """Where and why ``data`` departs from the schema (the most telling error), or None."""
    found = best_match(validator(name, definition).iter_errors(data))
    if found is None:
        return None
    where = "/".join(str(part) for part in found.absolute_path) or "the top"
    return f"{where}: {found.message}"
