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


# --- the server: rooms by concern, imports pointing one way (docs/architecture.md) -----------------

SERVER = SRC / "server"
# Each room of the server and the rooms below it that it may import. The modules directly in server/
# (settings, protocol, schemas, errors, names, stats, replays, netbot) are the ground floor that every
# room may use; app.py assembles everything.
SERVER_FLOORS: dict[str, set[str]] = {
    "": set(),
    "guards": {""},
    "storage": {""},
    "table": {"", "storage"},
    "cluster": {"", "storage", "table"},
    "tables": {"", "storage", "table", "cluster"},
    "club_lobby": {"", "storage"},
    "review_runs": {"", "storage", "table"},
    "http": {"", "guards", "storage", "table", "cluster", "tables", "club_lobby", "review_runs"},
    "app": {"", "guards", "storage", "table", "cluster", "tables", "club_lobby", "review_runs", "http"},
}
# Inside the table, its parts in the order they may use each other (each only those before it).
TABLE_PARTS = (
    "messages",
    "hints",
    "core",
    "views",
    "persist",
    "think",
    "searches",
    "decisions",
    "dealing",
    "match_flow",
    "moves",
    "social",
    "voice",
    "players",
    "actor",
)


def _room_of(module: str) -> str:
    """The server room of a module under ``hupai.server`` ("" for the ground floor)."""
    parts = module.split(".")[2:]
    if not parts:
        return ""
    head = parts[0]
    if head in ("app", "tables", "club_lobby", "review_runs") or (SERVER / head).is_dir():
        return head
    return ""


def _server_modules() -> list[tuple[Path, str]]:
    found = []
    for path in sorted(SERVER.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        module = ".".join(("hupai", *path.relative_to(SRC).with_suffix("").parts))
        found.append((path, module.removesuffix(".__init__")))
    return found


def test_server_rooms_import_only_the_rooms_below_them() -> None:
    modules = _server_modules()
    assert len(modules) >= 40
    for path, module in modules:
        room = _room_of(module)
        assert room in SERVER_FLOORS, f"{path}: room {room!r} is missing from SERVER_FLOORS"
        for imported in _imports(path):
            if not imported.startswith("hupai.server"):
                continue
            target = _room_of(imported)
            if target == room:
                continue
            assert target in SERVER_FLOORS[room], (
                f"{path.relative_to(SRC)} ({room or 'ground'}) imports {imported}"
            )


def test_the_table_parts_use_only_the_parts_before_them() -> None:
    for path in sorted((SERVER / "table").glob("*.py")):
        if path.stem == "__init__":
            continue
        assert path.stem in TABLE_PARTS, f"{path.name} is missing from TABLE_PARTS"
        rank = TABLE_PARTS.index(path.stem)
        for imported in _imports(path):
            if imported.startswith("hupai.server.table."):
                used = imported.split(".")[3]
                assert TABLE_PARTS.index(used) < rank, f"table/{path.name} imports {imported}"
            elif imported == "hupai.server.table":
                # ``from hupai.server.table import views``: the names imported are the parts
                tree = ast.parse(path.read_text(encoding="utf-8"))
                for node in ast.walk(tree):
                    if isinstance(node, ast.ImportFrom) and node.module == "hupai.server.table":
                        for alias in node.names:
                            assert TABLE_PARTS.index(alias.name) < rank, (
                                f"table/{path.name} uses {alias.name}"
                            )


def test_no_server_module_is_over_500_lines_without_saying_why() -> None:
    for path, _module in _server_modules():
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > 500:
            head = path.read_text(encoding="utf-8")[:2000]
            assert "Over 500 lines:" in head, (
                f"{path.relative_to(SRC)} has {lines} lines and no reason at its top"
            )


def test_no_function_size_exemptions() -> None:
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "PLR0915" not in text and "C901" not in text, f"{path.relative_to(SRC)} silences a size check"
