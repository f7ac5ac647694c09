"""Self-play past one machine: the matches (or duplicate deals) of a simulation as Ray tasks.

Needs the ``cluster`` extra (``pip install 'hupai[cluster]'``, Ray) on this machine and on every node,
with hupai importable there (installed, or shipped in Ray's ``runtime_env``). ``address`` is what
``ray.init`` takes: ``"auto"`` joins the cluster this machine belongs to (``ray start``), a
``ray://host:10001`` address a remote one, and ``"local"`` starts a Ray instance on this machine.

Each task plays a run of consecutive units with :func:`hupai.sim.simulate_units`, exactly as a
process of ``--jobs`` does, and every count in a :class:`~hupai.sim.SimResult` is an integer sum, so the
result for a seed is identical to ``simulate(config, jobs=N)`` for any N and any split.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hupai.sim import BotStats, SimConfig, SimResult, lineup, simulate_units

__all__ = ["ClusterError", "simulate_on_ray"]


class ClusterError(RuntimeError):
    """Ray is not installed, or the cluster could not be reached."""


def _play(config: SimConfig, first: int, last: int) -> SimResult:
    return simulate_units(config, range(first, last))


def simulate_on_ray(
    config: SimConfig,
    address: str,
    *,
    progress: Callable[[int], None] | None = None,
    units_per_task: int = 4,
    in_flight: int = 256,
) -> SimResult:
    """Play ``config`` on a Ray cluster (see the module docstring for ``address``); ``progress`` is
    called with the hands finished as tasks come back, in order."""
    try:
        import ray
    except ImportError as error:
        raise ClusterError("--ray needs Ray: pip install 'hupai[cluster]'") from error
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"ignore_reinit_error": True, "log_to_driver": False}
        try:
            if address == "local":
                ray.init(include_dashboard=False, **options)
            else:
                ray.init(address=address, **options)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ClusterError(f"cannot reach the Ray cluster at {address!r}: {error}") from error
    try:
        play = ray.remote(_play)
        total = SimResult(bots={label: BotStats() for label in lineup(config)})
        spans = [
            (first, min(first + units_per_task, config.units))
            for first in range(0, config.units, units_per_task)
        ]
        pending: list[Any] = []
        for span in spans:
            pending.append(play.remote(config, *span))
            if len(pending) >= in_flight:
                _collect(ray.get(pending.pop(0)), total, progress)
        for ref in pending:
            _collect(ray.get(ref), total, progress)
        return total
    finally:
        if started_here:
            ray.shutdown()


def _collect(part: SimResult, total: SimResult, progress: Callable[[int], None] | None) -> None:
    total.add(part)
    if progress is not None:
        progress(part.hands)
