"""The compiled and the pure-Python build of the hot core (hupai._native): which one runs, and that the
choice is all or nothing.

CI compiles the core and sets HUPAI_EXPECT_COMPILED=1, so that a build that silently fell back to
pure Python fails here; it then runs the golden and property tests again with HUPAI_PURE=1
(``make test-pure``), where the first test checks that nothing compiled was used.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

import hupai
from hupai import _native


def _loaded_from(module: str) -> str:
    origin = importlib.import_module(module).__file__
    assert origin is not None
    return origin


def test_the_build_in_use_is_the_one_expected() -> None:
    origins = {module: _loaded_from(module) for module in _native.COMPILED_MODULES}
    compiled = {module for module, origin in origins.items() if not origin.endswith(".py")}
    # All or nothing: compiled code calls its compiled neighbours directly.
    assert compiled in (set(), set(_native.COMPILED_MODULES))
    assert hupai.__build__ == ("compiled" if compiled else "pure")
    pure = os.environ.get(_native.PURE_ENV) == "1"
    if os.environ.get("HUPAI_EXPECT_COMPILED") == "1" and not pure:
        suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
        assert all(origin.endswith(suffixes) for origin in origins.values()), origins
    if pure:
        assert not compiled


def test_pure_env_forces_the_source() -> None:
    code = (
        "import hupai, hupai.game.engine, hupai.rules.enshi;"
        "print(hupai.__build__, hupai.game.engine.__file__, hupai.rules.enshi.__file__)"
    )
    env = {**os.environ, _native.PURE_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    build, engine, enshi = out.stdout.split()
    assert build == "pure"
    assert engine.endswith("engine.py")
    assert enshi.endswith("__init__.py")


def _fake_package(root: Path) -> Path:
    """A package tree with every compiled module's source and an extension file beside each."""
    package = root / "hupai"
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for number, module in enumerate(_native.COMPILED_MODULES):
        parts = module.split(".")[1:]
        is_package = module in ("hupai.rules.nanjing", "hupai.rules.nanning", "hupai.rules.enshi")
        source = (
            package.joinpath(*parts, "__init__.py")
            if is_package
            else package.joinpath(*parts[:-1], parts[-1] + ".py")
        )
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"VALUE = {number}\n", encoding="utf-8")
        source.with_name(source.stem + suffix).write_bytes(b"")
    return package


def test_a_build_is_used_only_while_its_sources_are_unchanged(tmp_path: Path) -> None:
    package = _fake_package(tmp_path)
    assert _native.compiled_usable(package) == (
        False,
        f"no build record ({_native.BUILD_RECORD}) beside the compiled modules",
    )
    _native.write_record(package)
    assert _native.compiled_usable(package) == (True, "")
    edited = _native.source_path("hupai.game.engine", package)
    edited.write_text("VALUE = -1\n", encoding="utf-8")
    usable, why = _native.compiled_usable(package)
    assert not usable
    assert "hupai.game.engine" in why
    assert "make compile" in why
    _native.write_record(package)
    assert _native.compiled_usable(package) == (True, "")
    extension = _native.extension_path("hupai.rules.enshi", package)
    assert extension is not None
    assert extension.name.startswith("__init__.")
    extension.unlink()
    usable, why = _native.compiled_usable(package)
    assert not usable
    assert "missing: hupai.rules.enshi" in why


def test_nothing_compiled_is_no_reason_to_warn(tmp_path: Path) -> None:
    package = _fake_package(tmp_path)
    for path in package.rglob("*"):
        if path.is_file() and not path.name.endswith(".py"):
            path.unlink()
    assert _native.compiled_usable(package) == (False, "")


@pytest.mark.parametrize("module", _native.COMPILED_MODULES)
def test_every_compiled_module_has_its_source(module: str) -> None:
    assert _native.source_path(module).exists()
