"""What one publish between processes carries (:mod:`hupai.server.cluster.relay`): the messages for
one process's sockets put together in one publish, and the runs of a batch that go one way."""

from __future__ import annotations


def runs_by_way(
    batch: list[tuple[str, bytes, int | None, str]],
) -> list[tuple[str, list[tuple[str, bytes, int | None]]]]:
    """The batch in runs of one way each (Redis, PostgreSQL), in its order."""
    runs: list[tuple[str, list[tuple[str, bytes, int | None]]]] = []
    for channel, data, room, via in batch:
        if not runs or runs[-1][0] != via:
            runs.append((via, []))
        runs[-1][1].append((channel, data, room))
    return runs


def coalesced(batch: list[tuple[str, bytes, int | None]]) -> list[tuple[str, bytes, int | None]]:
    """The batch with the messages for one process's sockets (``m<id>\\n<JSON>``) published together,
    one publish per process channel (``M<id>\\n<JSON>\\n<id>\\n<JSON>…``): most of a relay's Redis
    work is per publish, on both ends. Each channel keeps its order: a run of socket messages ends
    at any other message on its channel. A message whose JSON has a line break goes alone."""
    published: list[tuple[str, bytes, int | None]] = []
    runs: list[tuple[int, list[bytes]]] = []  # where each run of socket messages goes, its messages
    open_runs: dict[str, list[bytes]] = {}  # channel -> the messages of its run still open
    for channel, data, room in batch:
        if room is None and data.startswith(b"m") and data.count(b"\n") == 1:
            messages = open_runs.get(channel)
            if messages is None:
                open_runs[channel] = messages = []
                runs.append((len(published), messages))
                published.append((channel, data, None))
            messages.append(data[1:])
            continue
        open_runs.pop(channel, None)
        published.append((channel, data, room))
    for at, messages in runs:
        if len(messages) > 1:
            published[at] = (published[at][0], b"M" + b"\n".join(messages), None)
    return published


def socket_messages(data: bytes) -> list[tuple[int, str]]:
    """What one publish to a process's channel says to its sockets: (relay id, message text)."""
    if data.startswith(b"m"):  # one message: its text as it is
        conn, _, text = data[1:].partition(b"\n")
        return [(int(conn), text.decode())]
    lines = data[1:].split(b"\n")  # several (coalesced): a socket, its message, a socket, …
    return [(int(conn), text.decode()) for conn, text in zip(lines[::2], lines[1::2], strict=True)]
