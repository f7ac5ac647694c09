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
            "3",
            "--warmup",
            "1",
            "--think",
            "0.2",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    figures = json.loads(done.stdout)
    assert figures["connections"] == 12
    assert figures["actions"] > 10
    assert 0 < figures["latency_ms"]["p50"] <= figures["latency_ms"]["p99"] <= figures["latency_ms"]["max"]
    assert figures["messages_per_second"] > figures["actions_per_second"]
    assert figures["refused"] == 0 and figures["dropped"] == 0
