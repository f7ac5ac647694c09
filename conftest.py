"""Collection over the whole checkout (the tests' own helpers are in tests/conftest.py)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Property tests run beside the rest of the suite, on more workers than cores: how long one example
# takes says nothing about the code, so Hypothesis neither fails an example for its time (200 ms by
# default) nor a test for generating slowly. What an example does is what is checked.
settings.register_profile("hupai", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hupai")


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


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return reason.removeprefix("Skipped: ")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """What did not run and why, one line a reason (no chromium, no PostgreSQL …), and which core ran:
    so that nobody mistakes a partial run for a whole one."""
    import hupai

    reasons = Counter(_skip_reason(report) for report in terminalreporter.stats.get("skipped", []))
    terminalreporter.section("what did not run")
    for reason, count in sorted(reasons.items(), key=lambda item: (-item[1], item[0])):
        terminalreporter.write_line(f"{count:4d} skipped: {reason}", yellow=True)
    if not reasons:
        terminalreporter.write_line("nothing was skipped", green=True)
    build = hupai.__build__
    other = "make test-pure" if build == "compiled" else "make compile, then make test"
    terminalreporter.write_line(f"hupai core: {build} (the other build's tests: {other})")
    seed = terminalreporter.config.getoption("randomly_seed", None)
    if isinstance(seed, int):  # pytest-randomly shuffled the tests (and seeded random) with it
        terminalreporter.write_line(f"test order: --randomly-seed={seed} repeats it")
