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
from typing import Any

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


def _hand_written_inits() -> list[type[Any]]:
    """The core's dataclasses that spell out their __init__ (so that the compiled build compiles it)."""
    import dataclasses
    import inspect

    found: list[type[Any]] = []
    for module in _native.COMPILED_MODULES:
        for value in vars(importlib.import_module(module)).values():
            if inspect.isclass(value) and dataclasses.is_dataclass(value) and value.__module__ == module:
                init = value.__dict__.get("__init__")
                code = getattr(init, "__code__", None)
                if init is not None and (code is None or code.co_filename != "<string>"):
                    found.append(value)
    return found


def test_hand_written_inits_take_exactly_the_fields() -> None:
    """A dataclass's hand-written __init__ keeps the signature dataclass would write: the fields in
    order, with their defaults, and sets every one of them."""
    import dataclasses
    import inspect

    classes = _hand_written_inits()
    assert len(classes) >= 10
    if hupai.__build__ == "compiled":
        return  # compiled methods do not show their signatures: the pure build checks them
    for cls in classes:
        fields = dataclasses.fields(cls)
        parameters = list(inspect.signature(vars(cls)["__init__"]).parameters.values())[1:]
        assert [parameter.name for parameter in parameters] == [field.name for field in fields], cls
        for parameter, field in zip(parameters, fields, strict=True):
            if field.default is not dataclasses.MISSING:
                assert parameter.default == field.default, (cls, field.name)
            elif field.default_factory is dataclasses.MISSING:
                assert parameter.default is inspect.Parameter.empty, (cls, field.name)
        values = [object() for _ in fields]
        made = object.__new__(cls)
        vars(cls)["__init__"](made, *values)
        for field, value in zip(fields, values, strict=True):
            assert getattr(made, field.name) is value or field.name == "options", (cls, field.name)


def test_actions_compare_and_hash_as_dataclasses_do() -> None:
    """The actions' hand-written __eq__ and __hash__ (compiled in that build) mean what dataclass's do."""
    import dataclasses

    from hupai.game.actions import Chow, DeclareReady, Discard, Kong, Lay, Pass, Pong, Win

    samples: list[Any] = [Discard(seat=0, tile=1), Discard(seat=0, tile=2), Discard(seat=1, tile=1)]
    samples += [Pong(seat=0), Pong(seat=1), Kong(seat=0), Kong(seat=0, tile=1), Kong(seat=1, tile=1)]
    samples += [Win(seat=0), Win(seat=2), Pass(seat=0), DeclareReady(seat=0), Chow(seat=0, tile=1)]
    samples += [Lay(seat=0, tile=1), Lay(seat=0, tile=2)]
    for first in samples:
        twin = dataclasses.replace(first)
        assert first == twin
        assert hash(first) == hash(twin) == hash(dataclasses.astuple(first))
        for second in samples:
            same = type(first) is type(second) and dataclasses.astuple(first) == dataclasses.astuple(second)
            assert (first == second) is same
            assert (first != second) is not same
    assert Discard(seat=0, tile=1) != (0, 1)
    assert len(set(samples)) == len(samples)


def test_both_builds_play_the_same_games() -> None:
    """Self-play with every bot level in every rule set gives the same results in this process's
    build and in the pure-Python one (a subprocess with HUPAI_PURE=1)."""
    code = """
import json
from hupai.sim import SimConfig, simulate
out = {}
for ruleset in ("nanjing", "nanning", "enshi"):
    for bots, hands in (
        (("strong", "efficiency", "efficiency", "random"), 16),
        (("random",) * 4, 16),
        (("expert:3", "strong", "efficiency", "efficiency"), 4),  # its rollouts too
    ):
        result = simulate(SimConfig(ruleset=ruleset, bots=bots, hands=hands, seed=7))
        out[ruleset + " " + bots[0]] = result.as_dict()
print(json.dumps(out, sort_keys=True))
"""
    here = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    env = {**os.environ, _native.PURE_ENV: "1"}
    pure = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert here.stdout == pure.stdout
