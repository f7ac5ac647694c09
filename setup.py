"""The optional compiled build of hupai's hot core; everything else is in pyproject.toml.

``pip install .`` installs the pure-Python package. With ``HUPAI_COMPILE=1`` in the environment the
modules of ``hupai._native.COMPILED_MODULES`` are also compiled ahead of time by mypyc, from the same
typed source, into extension modules beside it (``build_hooks.py`` then adds mypy to the build's
requirements; ``make compile`` does this for a checkout). Without a C compiler or Python's headers
the build says why and stays pure-Python, which gives the same results.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "hupai"


def _native() -> Any:
    """hupai/_native.py, loaded on its own (the package itself is not importable while it is built)."""
    spec = importlib.util.spec_from_file_location("_hupai_native", PACKAGE / "_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compiler_problem() -> str:
    """Why C extensions cannot be built here ("" when they can)."""
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "Python's C headers are missing (Debian: apt install python3-dev)"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}; Debian: apt install gcc)"
    return ""


def _say(message: str) -> None:
    print(f"hupai build: {message}", file=sys.stderr)


def ext_modules() -> list[Any]:
    if os.environ.get("HUPAI_COMPILE", "") in ("", "0"):
        return []
    problem = _compiler_problem()
    if problem:
        _say(f"HUPAI_COMPILE=1 but {problem}: installing the pure-Python core")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("HUPAI_COMPILE=1 but mypyc (part of mypy) is not installed: installing the pure-Python core")
        return []
    native = _native()
    paths = [str(native.source_path(module, PACKAGE).relative_to(ROOT)) for module in native.COMPILED_MODULES]
    native.write_record(PACKAGE)
    _say(f"compiling {len(paths)} modules with mypyc")
    started = time.monotonic()
    # One C file per module: about a fifth less compile time than one big file, and as fast to run.
    modules = mypycify(paths, opt_level="3", group_name="hupai", multi_file=True)
    _say(f"mypyc wrote the C source in {time.monotonic() - started:.0f} s")
    return modules


class ParallelBuildExt(build_ext):  # type: ignore[misc]
    """Compiles the C files of an extension on every core: mypyc writes a file per module into one
    extension, which setuptools would compile one after another (42 s here, 25 s on two cores)."""

    def build_extension(self, ext: Any) -> None:
        compile_one = self.compiler.compile

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:  # each compile is a gcc process
                parts = list(pool.map(lambda source: compile_one([source], *args, **kwargs), sources))
            return [built for part in parts for built in part]

        self.compiler.compile = compile_all
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = compile_one


setup(ext_modules=ext_modules(), cmdclass={"build_ext": ParallelBuildExt})
