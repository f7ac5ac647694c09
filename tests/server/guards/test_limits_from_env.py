"""Every limit and quota can be set from the environment (HUPAI_ and its name in capitals), so a
host tunes a server — or each process of a cluster — without code; a value that is no positive
number is refused with the variable's name (docs/security.md)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hupai.cli import app
from hupai.server.settings import LIMITS, Settings, limit_env

from ...server_support import guest, server


def test_every_limit_is_read_from_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = Settings(database_url="sqlite://")
    for name in LIMITS:
        default = getattr(defaults, name)
        monkeypatch.setenv(limit_env(name), str(default * 3))
    settings = Settings.from_env(database_url="sqlite://")
    assert {name: getattr(settings, name) for name in LIMITS} == {
        name: getattr(defaults, name) * 3 for name in LIMITS
    }
    fields = {field.name for field in dataclasses.fields(Settings)}
    assert set(LIMITS) <= fields


def test_a_quota_from_the_environment_is_enforced(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(limit_env("guests_per_address_per_hour"), "2")
    settings = Settings.from_env(database_url=f"sqlite:///{tmp_path / 'hupai.sqlite3'}")
    with server(
        settings.database_url, guests_per_address_per_hour=settings.guests_per_address_per_hour
    ) as client:
        guest(client, "一")
        guest(client, "二")
        refused = client.post("/api/guest", json={"name": "三"})
    assert refused.status_code == 429


@pytest.mark.parametrize(
    ("value", "problem"), [("many", "a whole number"), ("0", "more than 0"), ("-3", "more than 0")]
)
def test_a_bad_value_is_refused_by_name(monkeypatch: pytest.MonkeyPatch, value: str, problem: str) -> None:
    monkeypatch.setenv("HUPAI_ROOMS_PER_ADDRESS_PER_HOUR", value)
    with pytest.raises(ValueError, match=f"HUPAI_ROOMS_PER_ADDRESS_PER_HOUR={value!r}: must be {problem}"):
        Settings.from_env(database_url="sqlite://")
    result = CliRunner().invoke(app, ["serve", "--database-url", "sqlite://"])
    assert result.exit_code == 2
    assert "HUPAI_ROOMS_PER_ADDRESS_PER_HOUR" in result.output


def test_a_fractional_limit_takes_a_fraction(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HUPAI_IDLE_ROOM_HOURS", "0.5")
    assert Settings.from_env(database_url="sqlite://").idle_room_hours == 0.5
    monkeypatch.setenv("HUPAI_IDLE_ROOM_HOURS", "nan")
    with pytest.raises(ValueError, match="more than 0"):
        Settings.from_env(database_url="sqlite://")


def test_the_deploy_doc_lists_every_variable_with_its_default() -> None:
    text = (Path(__file__).resolve().parents[3] / "docs" / "deploy.md").read_text(encoding="utf-8")
    defaults = Settings(database_url="sqlite://")
    for name in LIMITS:
        found = re.search(r"\| `" + limit_env(name) + r"` \| ([0-9.]+)", text)
        assert found is not None, f"docs/deploy.md does not list {limit_env(name)}"
        assert float(found.group(1)) == getattr(defaults, name), limit_env(name)
