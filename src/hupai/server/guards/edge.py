"""What stands between the open internet and the handlers: the cross-site check, the JSON-only rule
for changes, rate limits, and keeping session tokens out of the logs (docs/security.md).

Everything here works on plain ASGI scopes and headers, so the same checks serve HTTP requests and
the websocket handshake.
"""

from __future__ import annotations

import copy
import ipaddress
import json
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from hupai.server.settings import Settings

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
JSON_TYPE = "application/json"


def header(scope: Scope, name: str) -> str | None:
    """The first value of a request header (``name`` in lower case), decoded as Latin-1."""
    wanted = name.encode()
    for key, value in scope.get("headers", ()):
        if key == wanted:
            text: str = value.decode("latin-1")
            return text
    return None


def _trusted(address: str, settings: Settings) -> bool:
    """Whether ``address`` is one of the proxies the settings name (the address, or in a network)."""
    for entry in settings.trusted_proxy:
        if address == entry:
            return True
        try:
            if ipaddress.ip_address(address) in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:  # a name, not an address (a test client's)
            continue
    return False


def _peer(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def _forwarded(scope: Scope, name: str, settings: Settings) -> str | None:
    """The first entry of an X-Forwarded-* header, only when the peer is a trusted proxy."""
    if not _trusted(_peer(scope), settings):
        return None
    value = header(scope, name)
    first = value.split(",")[0].strip() if value else ""
    return first or None


def is_https(scope: Scope, settings: Settings) -> bool:
    """Whether the client reached us over TLS: the scheme uvicorn saw, or the proxy's word."""
    proto = _forwarded(scope, "x-forwarded-proto", settings)
    if proto is not None:
        return proto.lower() in ("https", "wss")
    return str(scope.get("scheme", "http")) in ("https", "wss")


def client_address(scope: Scope, settings: Settings) -> str:
    """The client's address for rate limits: the peer's, or behind trusted proxies the last address
    in X-Forwarded-For that is not one of them (the entries before it are whatever the client wrote)."""
    peer = _peer(scope)
    if not _trusted(peer, settings):
        return peer
    chain = [entry.strip() for entry in (header(scope, "x-forwarded-for") or "").split(",") if entry.strip()]
    for entry in reversed(chain):
        if not _trusted(entry, settings):
            return entry
    return chain[0] if chain else peer


def _own_host(scope: Scope, settings: Settings) -> str:
    return (_forwarded(scope, "x-forwarded-host", settings) or header(scope, "host") or "").lower()


def foreign_origin(scope: Scope, settings: Settings) -> str | None:
    """The origin a browser says the request came from, when that is neither this server (the Host
    it was sent to) nor an allowed origin; None for a same-origin request or one with neither Origin
    nor Referer (programs such as ``hupai bot`` send none, and browsers always send Origin on
    cross-site POSTs and websocket handshakes)."""
    claimed = header(scope, "origin")
    if claimed is None:
        referer = header(scope, "referer")
        if referer is None:
            return None
        parts = urlsplit(referer)
        claimed = f"{parts.scheme}://{parts.netloc}"
    claimed = claimed.strip().rstrip("/").lower()
    if claimed in settings.allowed_origins:
        return None
    parts = urlsplit(claimed)
    if parts.scheme in ("http", "https") and parts.netloc and parts.netloc == _own_host(scope, settings):
        return None
    return claimed or "null"


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def foreign_host(scope: Scope, settings: Settings) -> str | None:
    """The host a request names when the server does not answer to it (``allowed_hosts``); None when
    it does, or when any host is allowed."""
    if not settings.allowed_hosts:
        return None
    named = _own_host(scope, settings)
    name = urlsplit(f"//{named}").hostname or ""  # without the port; [::1] as ::1
    return None if name in settings.allowed_hosts else named or "(none)"


class RequestGuard:
    """Refuses a request to a host name this server does not answer to (400 ``bad_host``; a page
    reaching it through a name of its own, as DNS rebinding does), and a change (any method but
    GET/HEAD/OPTIONS) that comes from a foreign origin (403 ``forbidden_origin``) or is not JSON
    (415 ``unsupported_media_type``): an HTML form or a ``text/plain`` fetch from another site can
    then never start, leave or log out for a player, because a JSON body from another origin needs a
    CORS preflight this server never grants."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and (host := foreign_host(scope, self.settings)):
            if scope["type"] == "websocket":  # closed before the handshake: refused with 403
                await send({"type": "websocket.close", "code": 1008})
            else:
                await _respond(send, 400, error_body("bad_host", f"this server does not answer to {host!r}"))
            return
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            refusal = self._refusal(scope)
            if refusal is not None:
                await _respond(send, *refusal)
                return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope) -> tuple[int, dict[str, Any]] | None:
        origin = foreign_origin(scope, self.settings)
        if origin is not None:
            return 403, error_body("forbidden_origin", f"requests from {origin} are not accepted here")
        media = (header(scope, "content-type") or "").split(";")[0].strip().lower()
        if media != JSON_TYPE:
            return 415, error_body("unsupported_media_type", f"send the body as {JSON_TYPE}")
        return None


async def _respond(
    send: Send, status: int, body: dict[str, Any], extra: dict[str, str] | None = None
) -> None:
    data = json.dumps(body).encode()
    headers = [(b"content-type", JSON_TYPE.encode()), (b"content-length", str(len(data)).encode())]
    headers += [(key.encode(), value.encode()) for key, value in (extra or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


# --- logs --------------------------------------------------------------------------------------------

# A session's token and a room's invitation: either, read from a log, lets its reader in.
TOKEN_IN_QUERY = re.compile(r"(\b(?:token|invite)=)[^&\s\"']*")


def redact(text: str) -> str:
    return TOKEN_IN_QUERY.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """Blanks ``token=…`` in log lines: the websocket takes the session token in its query (browsers
    cannot set headers on it), and uvicorn writes every path with its query to the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's logging set-up with :class:`RedactTokens` on every handler (access and error logs:
    uvicorn logs websocket handshakes, with their query, on the error log)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_tokens"] = {"()": f"{__name__}.RedactTokens"}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_tokens")
    return config
