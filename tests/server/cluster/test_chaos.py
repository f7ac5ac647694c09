"""The faults a cluster meets, each in the middle of a hand, on the real parts (issue 31).

Three ``hupai serve`` processes on PostgreSQL and Redis, network players spread over them: kill -9 of
a table's owner, SIGTERM, SIGSTOP then SIGCONT, a PostgreSQL restart, Redis killed for 10 s and for
30 s (the players play on, relayed over PostgreSQL meanwhile; issue 48). For each, bench/failover.py
(which this runs, with two rooms per fault) checks that every match finishes all its hands, that its
totals equal the replay of its stored record, that every client heard the replay's events as its
seat sees them, once and in order, that no socket stayed open and silent while its room moved on
(3 s through a Redis outage, 10 s where a process died or paused and the browser's heartbeat must
find it), that no seat's clock ran out (托管) meanwhile, and counts the reconnects per client. It
restarts a PostgreSQL of its own, which no other test uses meanwhile (tests/server_support.py,
``restartable_postgresql``; ``.ci/run`` starts it); without it this is skipped, except in CI, where it
fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ...cluster_support import NO_REDIS
from ...server_support import restartable_postgresql

BENCH = Path(__file__).resolve().parents[3] / "bench" / "failover.py"
FAULTS = ["kill", "term", "stop", "postgres", "redis:10", "redis:30"]  # Redis away 10 s, then 30 s
ROOMS = 2


def test_every_fault_loses_nothing_and_misleads_nobody(tmp_path: Path) -> None:
    if shutil.which("redis-server") is None:
        if os.environ.get("CI"):
            pytest.fail("the chaos test needs redis-server (.ci/run installs it)")
        pytest.skip(NO_REDIS)
    with restartable_postgresql(tmp_path) as (database, control):
        every_fault(database, " ".join(control), tmp_path)


def every_fault(database: str, control: str, tmp_path: Path) -> None:
    command = [sys.executable, str(BENCH), "--database-url", database, "--pg-ctl", control, "--json"]
    done = subprocess.run(
        [*command, "--rooms", str(ROOMS), "--faults", ",".join(FAULTS), "--logs", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.stdout, done.stderr[-5000:]
    figures = json.loads(done.stdout)
    logs = "\n".join(log.read_text(errors="replace")[-3000:] for log in sorted(tmp_path.glob("server-*.log")))
    for fault in FAULTS:
        each = figures["faults"][fault]
        assert each["problems"] == [], (fault, each["problems"], logs)
        assert each["matches_finished"] == ROOMS, (fault, each)
        assert each["not_recovered"] == 0, (fault, each, logs)
        assert each["silent_sockets"] == 0, (fault, each)  # (3 s through Redis's outage, else 10 s)
        assert each["clocks_run_out"] == 0, (fault, each)  # nobody's turn lost to the fault (托管)
        assert each["reconnects_per_client"]["max"] <= 2, (fault, each)
        # The targets are 3 s (processes, Redis) and 10 s (storage) on a quiet machine; the figures
        # are bench/failover.py's to report. Here: bounded, on a shared CI machine.
        assert each["failover_s"]["max"] is not None and each["failover_s"]["max"] < 15, (fault, each)
    assert figures["ok"] and done.returncode == 0, done.stderr[-5000:]
