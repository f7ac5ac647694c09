"""Bounds at the HTTP edge: how large a request body may be, what JSON it may hold, and what a
refusal says back.

:class:`BodyGuard` is plain ASGI middleware so that it runs before FastAPI reads a body: a body
announced (``Content-Length``) or streamed past the limit is refused with 413 without being held in
memory, and a JSON body with a non-finite number (``NaN``, ``Infinity``, ``1e999``) or nested deeper
than the parser goes is refused with 400 — Python's ``json`` accepts the first and crashes on the
second, and neither may reach a handler. :func:`validation_details` keeps FastAPI's 422 answers
useful (where and what) without echoing the submitted input back.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_VALIDATION_ERRORS = 10  # a body wrong in a thousand places gets the first few


class _NotFinite(ValueError):
    pass


class BodyGuard:
    """Refuse request bodies over ``limit`` bytes (413) and JSON that cannot be a value (400)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _announced_length(scope) > self.limit:
            await self._too_large(scope, receive, send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if len(body) > self.limit:  # a streamed body that never said how long it is
                await self._too_large(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        problem = json_problem(bytes(body))
        if problem is not None:
            await refusal(400, "bad_json", problem)(scope, receive, send)
            return
        await self.app(scope, _replay(bytes(body), receive), send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        message = f"a request body is at most {self.limit} bytes"
        await refusal(413, "too_large", message)(scope, receive, send)


def _announced_length(scope: Scope) -> int:
    """The body's ``Content-Length`` (0 when absent; a malformed one counts as too long)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) < 19 else 1 << 62
    return 0


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body already read, then waits as the server's does."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def json_problem(body: bytes) -> str | None:
    """Why a JSON body cannot be taken, or None (not JSON at all is left to the route's own 422)."""
    if not body.strip():
        return None
    try:
        json.loads(body, parse_constant=_refuse_constant, parse_float=_finite_float)
    except _NotFinite:
        return "numbers in a request must be finite (no NaN or Infinity)"
    except RecursionError:
        return "the request body is nested too deeply"
    except ValueError:
        return None
    return None


def _refuse_constant(name: str) -> Any:
    raise _NotFinite(name)


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999 reads as infinity
        raise _NotFinite(text)
    return number


def refusal(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def validation_details(errors: Sequence[Any]) -> list[dict[str, Any]]:
    """FastAPI's list of what is wrong, with only where (``loc``), what (``msg``) and the kind
    (``type``) of each: never the submitted ``input`` (or ``ctx``), which may be megabytes."""
    return [
        {"loc": list(error.get("loc", ())), "msg": str(error.get("msg", "")), "type": error.get("type", "")}
        for error in errors[:MAX_VALIDATION_ERRORS]
    ]
