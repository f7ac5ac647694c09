"""The lock: uv.lock must hold what pyproject.toml asks for, and uv itself is pinned with hashes.

Every dependency of `make run`, `make test` and CI is installed from uv.lock by uv (see the Makefile).
These tests run uv offline against the committed files, and against a copy of pyproject.toml that
gained a dependency nobody locked, which must fail with the command to run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UV = ROOT / ".venv" / "uv" / "bin" / "uv"

pytestmark = pytest.mark.skipif(
    not UV.exists() and not os.environ.get("CI"), reason="uv is installed into .venv/uv by make"
)


def uv(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(UV), *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False)


def project_copy(tmp_path: Path) -> Path:
    for name in ("pyproject.toml", "uv.lock", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def test_the_committed_lock_matches_pyproject() -> None:
    checked = uv("lock", "--check", "--offline", cwd=ROOT)
    assert checked.returncode == 0, checked.stderr


def test_a_dependency_added_without_relocking_fails_the_check(tmp_path: Path) -> None:
    project = project_copy(tmp_path)
    pyproject = project / "pyproject.toml"
    text = pyproject.read_text()
    assert 'cli = ["typer>=0.12"' in text
    pyproject.write_text(text.replace('cli = ["typer>=0.12"', 'cli = ["typer>=0.12", "attrs>=20"', 1))

    checked = uv("lock", "--check", "--offline", cwd=project)
    assert checked.returncode != 0
    # Offline, uv can say that the lock needs updating only when its cache holds the registry's
    # page of what was added (a machine that once locked online); on a fresh machine it says that
    # it cannot resolve without the network. Either way the check fails, and make says what to do.
    assert "needs to be updated" in checked.stderr or "network was disabled" in checked.stderr

    # What `make test` prints: its lock-check step names the command to run.
    shutil.copy(ROOT / "Makefile", project / "Makefile")
    (project / ".venv").symlink_to(ROOT / ".venv")
    (project / "requirements").symlink_to(ROOT / "requirements")
    made = subprocess.run(
        ["make", "--no-print-directory", "-o", ".venv/uv/bin/uv", "lock-check"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert made.returncode != 0
    assert "run 'make lock' and commit uv.lock" in made.stderr


def test_every_extra_and_group_is_locked_with_hashes() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    (project,) = [package for package in lock["package"] if package["name"] == "hupai"]
    assert set(project["optional-dependencies"]) == set(pyproject["project"]["optional-dependencies"])
    assert set(project["dev-dependencies"]) == set(pyproject["dependency-groups"])
    for package in lock["package"]:
        if package["name"] == "hupai":
            continue
        files = [*package.get("wheels", []), *([package["sdist"]] if "sdist" in package else [])]
        assert files, package["name"]
        assert all(file["hash"].startswith("sha256:") for file in files), package["name"]


def test_uv_itself_is_pinned_with_hashes_and_is_the_one_installed() -> None:
    pinned = (ROOT / "requirements" / "uv.txt").read_text()
    match = re.search(r"^uv==(\S+) \\$", pinned, re.MULTILINE)
    assert match is not None
    assert len(re.findall(r"--hash=sha256:[0-9a-f]{64}", pinned)) >= 10  # every platform's wheel
    version = uv("--version", cwd=ROOT)
    assert version.stdout.split()[:2] == ["uv", match.group(1)]
