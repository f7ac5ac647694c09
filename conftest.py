"""Collection over the whole checkout (the tests' own helpers are in tests/conftest.py)."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def _compiled_sources() -> frozenset[Path]:
    import hupai
    from hupai import _native

    if hupai.__build__ != "compiled":
        return frozenset()
    return frozenset(_native.source_path(module) for module in _native.COMPILED_MODULES)


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """With the compiled core in use, the examples in its modules' docstrings cannot be collected
    from their .py files (the module imported is the extension beside them): `make test-pure` runs
    them on the pure-Python build."""
    if collection_path.suffix == ".py" and collection_path.resolve() in _compiled_sources():
        return True
    return None
