"""Which build of the hot core runs: compiled ahead of time (mypyc), or the pure-Python source.

The modules in :data:`COMPILED_MODULES` are plain, typed Python. ``HUPAI_COMPILE=1 pip install .`` (or
``make compile``) also compiles them with mypyc into extension modules that sit beside their
sources; Python then imports the extension. Either build gives the same results (the golden and
property tests run on both).

The choice is made once, when :mod:`hupai` is imported, and for all of them together (compiled code
calls its compiled neighbours directly, so the two builds must not mix):

* ``HUPAI_PURE=1`` in the environment: the pure-Python source, whatever is installed;
* otherwise the compiled modules, when every one of them is there and was built from the sources
  beside it (a build record, ``_compiled.txt``, holds each source's hash); a module edited since
  the build gives a warning and the pure source, until the next ``make compile``;
* otherwise (nothing compiled, the usual case) the pure-Python source.

This module itself is never compiled. ``hupai --version`` says which build runs.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from functools import cache
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

__all__ = [
    "BUILD_RECORD",
    "COMPILED_MODULES",
    "PURE_ENV",
    "choose",
    "compiled_in_use",
    "source_hashes",
]

PURE_ENV = "HUPAI_PURE"
BUILD_RECORD = "_compiled.txt"

# The hot core: what self-play, replays and the server's hints spend their time in. Compiled as one
# group; each entry is a module of the hupai package (a package stands for its __init__.py).
COMPILED_MODULES: tuple[str, ...] = (
    "hupai.tiles",
    "hupai.hand.tables",
    "hupai.hand.analysis",
    "hupai.hand.readings",
    "hupai.hand.efficiency",
    "hupai.game.actions",
    "hupai.game.events",
    "hupai.game.contract",
    "hupai.game.model",
    "hupai.game.engine",
    "hupai.game.view",
    "hupai.rules.nanjing",
    "hupai.rules.nanjing.items",
    "hupai.rules.nanjing.scoring",
    "hupai.rules.nanning",
    "hupai.rules.nanning.items",
    "hupai.rules.nanning.scoring",
    "hupai.rules.enshi",
    "hupai.rules.enshi.items",
    "hupai.rules.enshi.scoring",
    "hupai.bots.base",
    "hupai.bots.simple",
    "hupai.bots.strong",
    "hupai.bots.reading",
    "hupai.bots.autoplay",
    "hupai.bots.selfplay",
    "hupai.bots.search",  # the expert's rollouts
)

_PACKAGE_DIR = Path(__file__).resolve().parent


def source_path(module: str, package_dir: Path = _PACKAGE_DIR) -> Path:
    """The source file of one of :data:`COMPILED_MODULES` (``hupai.rules.enshi`` → its ``__init__.py``)."""
    parts = module.split(".")[1:]
    folder = package_dir.joinpath(*parts)
    return folder / "__init__.py" if folder.is_dir() else folder.with_suffix(".py")


def extension_path(module: str, package_dir: Path = _PACKAGE_DIR) -> Path | None:
    """The compiled extension of a module, if one sits beside its source."""
    source = source_path(module, package_dir)
    stem = "__init__" if source.name == "__init__.py" else source.stem
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(stem + suffix)
        if candidate.exists():
            return candidate
    return None


def source_hashes(package_dir: Path = _PACKAGE_DIR) -> dict[str, str]:
    """Each compiled module's source hash (sha256), as the build record writes them."""
    return {
        module: hashlib.sha256(source_path(module, package_dir).read_bytes()).hexdigest()
        for module in COMPILED_MODULES
    }


def read_record(package_dir: Path = _PACKAGE_DIR) -> dict[str, str] | None:
    """The build record (module → source hash at build time), or None when there is none."""
    try:
        text = (package_dir / BUILD_RECORD).read_text(encoding="ascii")
    except OSError:
        return None
    record: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            module, _, digest = line.partition(" ")
            record[module] = digest
    return record


def write_record(package_dir: Path) -> None:
    """Write the build record for the sources in ``package_dir`` (called by the build, setup.py)."""
    lines = ["# hupai: the sources the compiled modules were built from (see hupai/_native.py)"]
    lines += [f"{module} {digest}" for module, digest in source_hashes(package_dir).items()]
    (package_dir / BUILD_RECORD).write_text("\n".join(lines) + "\n", encoding="ascii")


def compiled_usable(package_dir: Path = _PACKAGE_DIR) -> tuple[bool, str]:
    """Whether the compiled modules can be used, and if not, why (empty when nothing is compiled)."""
    present = [module for module in COMPILED_MODULES if extension_path(module, package_dir)]
    if not present:
        return False, ""
    if len(present) != len(COMPILED_MODULES):
        missing = sorted(set(COMPILED_MODULES) - set(present))
        return False, f"compiled modules missing: {', '.join(missing)}"
    record = read_record(package_dir)
    if record is None:
        return False, f"no build record ({BUILD_RECORD}) beside the compiled modules"
    changed = [
        module for module, digest in source_hashes(package_dir).items() if record.get(module) != digest
    ]
    if changed:
        return False, f"changed since they were compiled: {', '.join(changed)} (run `make compile`)"
    return True, ""


class _PureFinder:
    """Finds the hot modules' ``.py`` sources, so that extension modules beside them are not used."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.modules:
            return None
        source = source_path(fullname)
        if source.name == "__init__.py":
            return importlib.util.spec_from_file_location(
                fullname, source, submodule_search_locations=[str(source.parent)]
            )
        return importlib.util.spec_from_file_location(fullname, source)


@cache
def choose() -> str:
    """Decide which build runs, once, as :mod:`hupai` is imported (``hupai.__build__``): "compiled",
    or "pure" — then the finder of the pure sources goes first wherever extension modules exist."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        usable, why = False, ""
        compiled = any(extension_path(module) for module in COMPILED_MODULES)
    else:
        usable, why = compiled_usable()
        compiled = bool(why) or usable
        if why:
            warnings.warn(f"hupai runs its pure-Python source: {why}", RuntimeWarning, stacklevel=3)
    if compiled and not usable:
        sys.meta_path.insert(0, _PureFinder(COMPILED_MODULES))
    return "compiled" if usable else "pure"


def compiled_in_use() -> dict[str, bool]:
    """For each hot module already imported, whether it is the compiled one."""
    found: dict[str, bool] = {}
    for module in COMPILED_MODULES:
        loaded = sys.modules.get(module)
        if loaded is not None:
            origin = getattr(loaded, "__file__", None) or ""
            found[module] = not origin.endswith(".py")
    return found
