"""Bots that search (大师, :mod:`hupai.bots.search`) decide in a pool of processes, off the event loop,
so that no other table waits while one plays its rollouts.

When a searching bot's turn opens, the table at once has the heuristic's choice (the bot's own
``choose``, which is ``strong``'s) and sends the hand to the pool (:class:`HandJob`: its deal, wall
and moves — a worker replays them, since a hand's state does not cross processes). The decision is
then due at the bot's think time or when the search answers, whichever is later, but never more than
``search_seconds`` after the turn opened: a search that is late, fails or finds the pool broken
leaves the heuristic's choice to be played. Its answer comes back through the table's inbox
(:class:`~hupai.server.table.messages.Searched`) and counts only for the prompt it was asked for.
Claims on a discard, and every seat the table plays for itself (托管, 听, 报听), never wait on the
pool.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from hupai.bots import ExpertBot, StrongBot
from hupai.game.actions import Action, action_from_dict, action_to_dict
from hupai.game.engine import legal_actions, new_hand, release_claims, step
from hupai.game.model import HandState, Phase
from hupai.game.view import view
from hupai.rules import load_ruleset
from hupai.server.table.core import Pending, TableState, log
from hupai.server.table.messages import Searched

QUEUE_PER_WORKER = 2  # searches waiting or running per worker; beyond, the heuristic plays at once
WATCH_SECONDS = 1.0  # how often a worker looks whether its server is still there

__all__ = [
    "HandJob",
    "SearchPool",
    "choose_in_worker",
    "close_pools",
    "rebuilt",
    "searched",
    "start",
    "wants_search",
]


@dataclass(frozen=True)
class HandJob:
    """What a worker needs to decide for one seat: the hand as dealt, its moves so far, and the bot."""

    preset: str
    options: Mapping[str, Any]
    dealer: int
    deal: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]
    multiplier: int
    previous_winner: int | None
    moves: tuple[dict[str, Any], ...]
    seat: int
    seed: int
    rollouts: int

    @classmethod
    def of(cls, state: HandState, seat: int, bot: ExpertBot) -> HandJob:
        ruleset = state.ruleset
        return cls(
            preset=ruleset.preset,
            options=dict(ruleset.options_dict()),
            dealer=state.dealer,
            deal=state.deal,
            wall=tuple(state.wall),
            multiplier=state.multiplier,
            previous_winner=state.previous_winner,
            moves=tuple(action_to_dict(action) for action in state.actions),
            seat=seat,
            seed=bot.seed,
            rollouts=bot.rollouts,
        )


def rebuilt(job: HandJob) -> HandState:
    """The hand as the table holds it: dealt again and its moves replayed as the table replays them
    after a restart (a window that waited on nobody released at once)."""
    return _replayed(job)[0]


def _replayed(job: HandJob) -> tuple[HandState, int | None]:
    """The hand rebuilt, and what the bot at ``job.seat`` remembers of it: the live tiles when its
    seat last made a kong, if it has not discarded since (:meth:`StrongBot.played`)."""
    state = new_hand(
        load_ruleset(job.preset, job.options),
        dealer=job.dealer,
        deal=job.deal,
        wall=job.wall,
        multiplier=job.multiplier,
        previous_winner=job.previous_winner,
    )
    state.hold_claims = True
    memory = StrongBot()
    for data in job.moves:
        action = action_from_dict(data)
        if action.seat == job.seat:
            memory.played(action, state.live_tiles)
        step(state, action)
        release_claims(state)
    return state, memory.kong_at


def choose_in_worker(job: HandJob) -> dict[str, Any] | None:
    """In a worker: the searching bot's choice for ``job``'s seat, as a move's data (None: the hand is
    not at that seat's turn, so the table's own choice stands)."""
    state, kong_at = _replayed(job)
    if state.phase is not Phase.TURN or state.turn != job.seat:
        return None
    legal = legal_actions(state, job.seat)
    bot = ExpertBot(job.seed, rollouts=job.rollouts)
    bot.heuristic.kong_at = kong_at
    return action_to_dict(bot.choose_in(state, view(state, job.seat, legal=legal), legal))


def _start_worker(server: int) -> None:
    """A new worker follows its server: it exits once the server is gone (even by kill -9, which
    runs no clean-up), so that no pool outlives its server. Then it loads the rule sets."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(WATCH_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="follow-the-server", daemon=True).start()
    for preset in ("nanjing", "nanning", "enshi"):
        load_ruleset(preset)


class SearchPool:
    """The processes searching bots think in, started at the first search (a server whose rooms seat
    none starts none); one pool per server process. A pool found broken (a worker killed) is
    replaced at the next search. However many tables ask, at most :data:`QUEUE_PER_WORKER` searches
    a worker are under way: past that a turn is played by the heuristic at once (``declined``
    counts them), so a busy server plays a little weaker, never later."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.limit = QUEUE_PER_WORKER * workers
        self.under_way = 0
        self.declined = 0
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            # spawn: a worker never inherits the server's sockets, threads or event loop, and its
            # parent is the server itself (which _start_worker watches).
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
            )
        return self._executor

    async def choose(self, job: HandJob) -> Action | None:
        """The search's choice, or None when the pool could not give one (logged)."""
        if self.under_way >= self.limit:
            self.declined += 1
            return None
        loop = asyncio.get_running_loop()
        self.under_way += 1
        try:
            data = await loop.run_in_executor(self._pool(), choose_in_worker, job)
        except BrokenProcessPool:
            log.warning("the search pool broke (a worker died); starting a new one at the next search")
            self.close()
            return None
        except Exception:
            log.exception("a search failed; the heuristic's choice stands")
            return None
        finally:
            self.under_way -= 1
        return None if data is None else action_from_dict(data)

    async def run(self, work: Callable[[Any], Any], job: Any) -> Any:
        """Other long work in the pool (a 复盘's hand, :mod:`hupai.server.review_runs`): not counted
        against the searches' queue, so that it never makes a bot play weaker for long; a broken pool
        is replaced at the next call and the error raised."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), work, job)
        except BrokenProcessPool:
            self.close()
            raise

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


_POOLS: dict[int, SearchPool] = {}


def pool_for(workers: int) -> SearchPool:
    """This process's pool of ``workers`` processes (one per size asked for: tests may ask for two)."""
    pool = _POOLS.get(workers)
    if pool is None:
        pool = _POOLS[workers] = SearchPool(workers)
    return pool


def close_pools() -> None:
    for pool in _POOLS.values():
        pool.close()
    _POOLS.clear()


# --- the table's part ------------------------------------------------------------------------------


def wants_search(table: TableState, seat: int) -> bool:
    """Whether ``seat``'s decision now goes to the pool: a searching bot's own turn, on a hand the
    table plays for nobody else at that seat."""
    state = table.state
    bot = table.bots.get(seat)
    return (
        state is not None
        and state.phase is Phase.TURN
        and state.turn == seat
        and isinstance(bot, ExpertBot)
        and bot.rollouts > 0
        and seat not in table.ting
        and not state.seats[seat].ready
    )


def start(table: TableState, seat: int, pending: Pending) -> None:
    """Send ``seat``'s turn to the pool; the prompt waits for the answer (posted to the table's inbox)
    until ``search_seconds`` from now at the latest."""
    state = table.state
    bot = table.bots.get(seat)
    assert state is not None and isinstance(bot, ExpertBot)
    job = HandJob.of(state, seat, bot)
    pending.thinking_until = table.clock() + table.settings.search_seconds
    pool = pool_for(table.settings.search_workers)

    async def search() -> None:
        table.post(Searched(seat, pending.seq, await pool.choose(job)))

    task = asyncio.ensure_future(search())
    table.searches.add(task)
    task.add_done_callback(table.searches.discard)


def searched(table: TableState, answer: Searched) -> None:
    """The search's answer: the prompt's choice if the prompt still stands and it is legal there."""
    pending = table.pending.get(answer.seat)
    if pending is None or pending.seq != answer.seq or pending.stored_as is not None:
        return  # the turn was played (the search came late) or the prompt changed meanwhile
    pending.thinking_until = None
    if answer.action is not None and answer.action in pending.legal:
        pending.choice = answer.action
