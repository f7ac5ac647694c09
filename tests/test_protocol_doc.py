"""docs/protocol.md keeps up with the server: every route, message type and error code is in it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.routing import APIRoute, APIWebSocketRoute

from hupai.server.app import ROUTERS, create_app
from hupai.server.protocol import INCOMING
from hupai.server.settings import SECURE_COOKIES_ENV, Settings

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SERVER = ROOT / "src" / "hupai" / "server"


def server_source() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in SERVER.rglob("*.py"))


def test_every_route_is_documented(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'doc.sqlite3'}"))
    # The app holds each included router as one entry: the routes are the routers' own.
    every = [*app.routes, *(route for router in ROUTERS for route in router.routes)]
    routes = [route for route in every if isinstance(route, APIRoute | APIWebSocketRoute)]
    paths = {route.path for route in routes if route.path.startswith("/api/")}
    assert len(paths) > 15
    missing = sorted(path for path in paths if path not in DOC)
    assert not missing, f"docs/protocol.md does not describe {missing}"


def test_every_message_type_is_documented() -> None:
    sent_by_server = set(re.findall(r'"type": "([a-z_]+)"', server_source())) | {"error"}
    sent_by_client = set(re.findall(r'Literal\["([a-z_]+)"\]', server_source()))
    assert {"act", "sync", "trustee", "ping"} <= sent_by_client
    for kind in sent_by_server | sent_by_client:
        assert f"| `{kind}` |" in DOC, f"message type {kind!r} is not in docs/protocol.md"
    assert INCOMING.validate_python({"type": "ping"}).type == "ping"


def test_every_error_code_is_documented() -> None:
    codes = set(re.findall(r'error_message\(\s*"([a-z_]+)"', server_source()))
    codes |= set(re.findall(r'\brefuse\(socket, \w+, "([a-z_]+)"', server_source()))
    assert {"too_large", "illegal", "unauthorized"} <= codes
    table = DOC.split("## Error codes", 1)[1]
    missing = sorted(code for code in codes if f"| `{code}` |" not in table)
    assert not missing, f"error codes missing from docs/protocol.md: {missing}"


def test_every_http_error_code_is_documented() -> None:
    codes = set(re.findall(r'^    code = "([a-z_]+)"', server_source(), re.MULTILINE))
    codes |= set(re.findall(r'error_body\(\s*"([a-z_]+)"', server_source()))
    assert {"conflict", "forbidden_origin", "unsupported_media_type"} <= codes
    missing = sorted(code for code in codes if f"`{code}`" not in DOC)
    assert not missing, f"HTTP error codes missing from docs/protocol.md: {missing}"


@pytest.mark.parametrize(("value", "secure"), [("1", True), ("true", True), ("", False), ("0", False)])
def test_secure_cookies_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, value: str, secure: bool, tmp_path: Path
) -> None:
    monkeypatch.setenv(SECURE_COOKIES_ENV, value)
    monkeypatch.setenv("HUPAI_DATABASE_URL", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    settings = Settings.from_env()
    assert settings.secure_cookies is secure
    assert settings.database_url.endswith("x.sqlite3")


LIMIT_SETTINGS = (
    "hash_workers",
    "login_attempts_per_address",
    "login_attempts_per_name",
    "allowed_origins",
    "trusted_proxy",
    "allowed_hosts",
    "secure_cookies",
    "guests_per_address_per_hour",
    "rooms_per_address_per_hour",
    "room_lookups_per_address_per_minute",
    "waiting_rooms_per_user",
    "idle_room_hours",
    "stale_guest_days",
    "cleanup_seconds",
)


def test_every_limit_is_in_the_security_doc() -> None:
    section = (ROOT / "docs" / "security.md").read_text(encoding="utf-8").split("## Accounts and HTTP", 1)[1]
    assert all(f"`{name}`" in section for name in LIMIT_SETTINGS)
    assert set(LIMIT_SETTINGS) <= set(Settings.__dataclass_fields__)
    named = re.findall(r"`(?:(tests/[\w/]+\.py))?::(test_\w+)`", section)
    assert len(named) >= 15
    current = ""
    for path, test in named:
        current = path or current  # "`::test_x`" names another test of the file before it
        assert f"def {test}(" in (ROOT / current).read_text(encoding="utf-8"), f"{current}::{test}"
