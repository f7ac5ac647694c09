"""Slow clients: a connection must send a request's head (its line and headers) within a few
seconds of opening, or of starting the request. uvicorn times out only idle keep-alive connections,
so a client that dribbles a header line every few seconds (a slowloris) held a connection for ever:
3,000 of them were all kept (red team, issue 33). This is uvicorn's own HTTP protocol (httptools)
with that deadline; a client that misses it is disconnected. Websockets, once upgraded, are the
table's, with its own heartbeat."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEAD_SECONDS = 10.0  # the time a request's head may take to arrive


class HeadDeadline(HttpToolsProtocol):
    """uvicorn's HTTP protocol, disconnecting a client whose request head takes too long."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()  # a connection that sends nothing at all is timed too

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()  # the next request on a kept-alive connection

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(HEAD_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _too_slow(self) -> None:
        self.head_timer = None
        if not self.transport.is_closing():
            self.transport.close()
