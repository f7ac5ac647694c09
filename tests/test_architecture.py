"""The core imports only the standard library and itself (ARCHITECTURE.md: arrows point one way)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).parent.parent / "src" / "hupai"
CORE = ("tiles.py", "calculator", "replay.py", "hand", "rules", "game", "bots")


def _core_files() -> list[Path]:
    files: list[Path] = []
    for name in CORE:
        path = SRC / name
        assert path.exists(), f"{path} is gone: keep CORE up to date"
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return files


def _type_checking_only(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:``, whose imports never run (e.g. mypyc's native integer types, which only
    annotations name)."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path) -> set[str]:
    """The modules a file imports when it runs."""
    found: set[str] = set()
    pending: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
        if _type_checking_only(node):
            assert isinstance(node, ast.If)
            pending.extend(node.orelse)
        else:
            pending.extend(ast.iter_child_nodes(node))
    return found


def test_core_uses_only_the_standard_library() -> None:
    files = _core_files()
    assert len(files) >= 5
    allowed_hupai = tuple(f"hupai.{name.removesuffix('.py')}" for name in CORE)
    for path in files:
        for module in _imports(path):
            top = module.split(".")[0]
            if top == "hupai":
                assert module.startswith(allowed_hupai), f"{path.name} imports {module} outside the core"
            else:
                assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {module}"


def test_the_engine_does_not_depend_on_the_rule_sets() -> None:
    """The hooks the engine calls are its contract (``game/contract.py``) and the rule sets implement
    them: nothing in ``hupai.game`` imports ``hupai.rules``, not even inside a function. (Replaying a
    record, which names its rule set, is ``hupai.replay``'s work, above both.)"""
    files = sorted((SRC / "game").rglob("*.py"))
    assert len(files) >= 10
    for path in files:
        rules = {module for module in _imports(path) if module.split(".")[:2] == ["hupai", "rules"]}
        assert not rules, f"{path.name} imports {rules}"
