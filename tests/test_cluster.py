"""Self-play on a local Ray instance gives exactly what processes give (the ``cluster`` extra).

Skipped where Ray is not installed, except in CI, which installs it and sets HUPAI_REQUIRE_RAY=1."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from hupai.sim import SimConfig, simulate

if os.environ.get("HUPAI_REQUIRE_RAY") == "1":
    import ray
else:
    ray = pytest.importorskip("ray", reason="no Ray: the cluster extra's tests need it (make test-extras)")

from hupai.cluster import simulate_on_ray


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.usefixtures("local_ray")
@pytest.mark.parametrize("duplicate", [None, "rotations"])
def test_ray_gives_the_same_result_as_processes(duplicate: str | None) -> None:
    config = SimConfig(ruleset="nanning", hands=24, seed=7, check=False, match_hands=4, duplicate=duplicate)
    expected = simulate(config, jobs=2).as_dict()
    assert simulate_on_ray(config, "local", units_per_task=2).as_dict() == expected
    seen: list[int] = []
    assert (
        simulate_on_ray(config, "local", units_per_task=5, in_flight=2, progress=seen.append).as_dict()
        == expected
    )
    assert sum(seen) == 24
