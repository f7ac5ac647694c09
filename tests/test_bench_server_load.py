"""bench/server_load.py keeps working: a tiny run plays real tables and reports sane figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "server_load.py"


def test_a_small_load_run_reports_its_figures() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH),
            "--tables",
            "3",
            "--seconds",
            "6",  # about 4 actions a second (a discard, then its 0.6 s claim window): some 22
            "--warmup",
            "1",
            "--think",
            "0.2",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    figures = json.loads(done.stdout)
    assert figures["connections"] == 12
    # Some 22 on a quiet machine; how many fit in 6 s is the bench's to report, not a test's to count.
    assert figures["actions"] > 0
    assert 0 < figures["latency_ms"]["p50"] <= figures["latency_ms"]["p99"] <= figures["latency_ms"]["max"]
    assert figures["messages_per_second"] > figures["actions_per_second"]
    assert figures["refused"] == 0 and figures["dropped"] == 0
    # what a host pays for: a table's share of a core, and the server's memory
    assert figures["server_cpu_percent_per_table"] > 0
    # (the two are rounded apart: the total to 0.1, the share to 0.001)
    assert abs(figures["server_cpu_percent_per_table"] * 3 - figures["server_cpu_percent"]) <= 0.06
    assert figures["refusals"] == {} and figures["join_seconds"] >= 0
    assert len(figures["server_memory_mb"]) == 1 and 30 < figures["server_memory_mb"][0] < 2000
