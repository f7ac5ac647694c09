"""The errors a request or a table's write may end in: each carries the HTTP status and a message a
player understands (the http layer answers with both; a table sends the message)."""

from __future__ import annotations

import math


class StoreError(Exception):
    """``code`` (and ``params``) say what went wrong for a client to put in its own words; ``message``
    says it in English for everyone else."""

    status = 400
    code = "bad_request"

    def __init__(
        self, message: str, *, code: str | None = None, params: dict[str, int] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.params = params or {}

    def said(self) -> dict[str, object]:
        """The error as an answer's ``error`` object: code, message, and params where there are any."""
        out: dict[str, object] = {"code": self.code, "message": self.message}
        if self.params:
            out["params"] = self.params
        return out


class BadRequest(StoreError):
    """A request that cannot be carried out as asked (the message says why)."""


class NotFound(StoreError):
    status = 404
    code = "not_found"


class Forbidden(StoreError):
    status = 403
    code = "forbidden"


class Conflict(StoreError):
    status = 409
    code = "conflict"


class Unauthorized(StoreError):
    status = 401
    code = "unauthorized"


class AlreadyContributed(Conflict):
    """A seat's contribution to a hand is taken once: the first one stands."""

    code = "already_contributed"


class DealClosed(Conflict):
    """The hand is dealt: its contributions are sealed."""

    code = "deal_closed"


class RateLimited(StoreError):
    """Too many of something from one client in a while: try again after ``retry_after`` seconds."""

    status = 429
    code = "rate_limited"

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))


class Busy(StoreError):
    """The server is too busy for this now (logins waiting for a hash): try again shortly."""

    status = 503
    code = "busy"
    retry_after = 5
