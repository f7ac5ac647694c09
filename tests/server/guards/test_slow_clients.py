"""Slow clients cannot hold connections (issue 33): a connection whose request head does not arrive
within the deadline — one that sends nothing, or dribbles a header line every so often — is cut,
while a normal request on the same server is answered."""

from __future__ import annotations

import socket
import time
from pathlib import Path

from ...server_support import free_port, running_server

DEADLINE = 1.5  # seconds, in the server under test (set by shorter_deadline in its process)


def shorter_deadline() -> None:
    from hupai.server.guards import slow_clients

    slow_clients.HEAD_SECONDS = DEADLINE


def held_for(port: int, dribble: bool) -> float:
    """How long the server keeps a connection that sends a request head slowly (or nothing)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    started = time.monotonic()
    try:
        if dribble:
            connection.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        while time.monotonic() - started < 8:
            if dribble:
                connection.sendall(b"X-Slow: 1\r\n")  # one more header line, never the end of the head
            connection.settimeout(0.4)
            try:
                if connection.recv(1024) == b"":
                    break  # closed by the server
            except TimeoutError:
                continue
            except OSError:
                break
    except OSError:  # the server closed it while we wrote
        pass
    finally:
        connection.close()
    return time.monotonic() - started


def test_a_slow_request_head_is_cut_off(tmp_path: Path) -> None:
    port = free_port()
    url = f"sqlite:///{tmp_path / 'slow.sqlite3'}"
    with running_server(url, port, prepare="tests.server.guards.test_slow_clients:shorter_deadline"):
        assert held_for(port, dribble=True) < DEADLINE + 2
        assert held_for(port, dribble=False) < DEADLINE + 2
        with socket.create_connection(("127.0.0.1", port), timeout=5) as normal:
            normal.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert normal.recv(64).startswith(b"HTTP/1.1 200")
