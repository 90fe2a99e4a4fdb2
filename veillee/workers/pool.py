"""The embedded default: decisions (and push sends, :mod:`.pushes`) in a pool of worker
processes of this server (``concurrent.futures``), run at a lower scheduling priority, so
that a person's message is served first (DESIGN.md §3, issue 28).

``veillee serve`` starts the pool with the app (:meth:`PoolDeciders.start`: every worker made and
warmed before the first table plays) and stops it with the app (:meth:`PoolDeciders.close`).
The workers are forked from a clean process of their own (multiprocessing's ``forkserver``),
never from the server with its event loop and threads, and each exits within half a second of
its server's end, however it ended (``kill -9`` included): none outlives the server. A pool
whose child died (killed, out of memory) is broken for every job it held: it is built again and
those jobs are asked again, so that a table waits a moment and plays on.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from veillee.workers.jobs import Answer, Decision, decide, decide_all, warm
from veillee.workers.pushes import PushJob, send_push

log = logging.getLogger(__name__)

NICENESS = 10
"""How much lower the workers' scheduling priority is than the server's (``nice``)."""
WATCH_S = 0.5
"""How often a worker looks whether its server is still there."""
REBUILDS = 20
"""How often one job is asked again of a pool built again after it broke, before it fails."""


def default_workers() -> int:
    """One worker per core but one, at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


def _worker_started(niceness: int, server: int) -> None:
    """A worker's first act: lower its priority, and watch for its server's end (a pool's
    worker holds its own end of the pipe it reads jobs from, so it would never hear the server
    go)."""
    with contextlib.suppress(OSError):
        os.nice(niceness)
    threading.Thread(target=_exit_with, args=(server,), name="server-watch", daemon=True).start()


def _exit_with(server: int) -> None:
    """Exit this worker within :data:`WATCH_S` of the server process ``server`` ending, however
    it ended (``kill -9`` included)."""
    while True:
        time.sleep(WATCH_S)
        try:
            os.kill(server, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # pragma: no cover - a pid taken by another user's process
            os._exit(0)


class PoolDeciders:
    """Decisions in ``workers`` processes of this server (default :func:`default_workers`), at
    ``niceness`` below it."""

    def __init__(self, workers: int | None = None, niceness: int = NICENESS) -> None:
        self.workers = workers or default_workers()
        self.niceness = niceness
        self._pool: ProcessPoolExecutor | None = None
        self._asked: list[tuple[Decision, asyncio.Future[Answer]]] = []
        self._quick: list[tuple[Decision, asyncio.Future[Answer]]] = []
        """Usual-level jobs waiting for a worker (:meth:`_start_batches`: served first)."""
        self._searches: collections.deque[tuple[Decision, asyncio.Future[Answer]]] = (
            collections.deque()
        )
        """Jobs of a searching level waiting for a worker, oldest first."""
        self._out = 0
        """Batches handed to the pool and not yet answered (at most one per worker)."""
        self._waiting = 0
        self._closed = False
        self._batches: set[asyncio.Task[None]] = set()
        """The tasks of the batches out (held so that they run to their end)."""

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["veillee.workers.jobs", "veillee.games.registry"])
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_worker_started,
                initargs=(self.niceness, os.getpid()),
            )
        return self._pool

    async def start(self) -> None:
        """Make every worker now and load the games in it (a first decision is not slow)."""
        loop = asyncio.get_running_loop()
        pool = self._executor()
        await asyncio.gather(*(loop.run_in_executor(pool, warm) for _ in range(self.workers)))

    def depth(self) -> int:
        """Decisions asked and not yet answered."""
        return self._waiting

    async def decide(self, job: Decision) -> Answer:
        """The answer to ``job``, from a worker process. The jobs asked during one turn of the
        event loop go to the workers together (one hand-over per worker and turn: handing a
        job to the pool costs its server some 150 µs, whatever the number of jobs handed
        together). Each worker has one batch at a time, and the usual level's jobs (a few
        milliseconds each) go before the searches of the strong level (up to a second), each
        search a batch of its own: a usual table's computer never waits behind more than the
        searches already running. A pool broken meanwhile (a worker killed) is built again and
        the jobs asked again. Raises what the decision raised."""
        if self._closed:
            raise RuntimeError("the decision workers are stopped")
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        if not self._asked:
            asyncio.get_running_loop().call_soon(self._hand_over)
        self._asked.append((job, future))
        self._waiting += 1
        try:
            return await future
        finally:
            self._waiting -= 1

    def _hand_over(self) -> None:
        asked, self._asked = self._asked, []
        for pair in asked:
            (self._quick if pair[0].level == "usual" else self._searches).append(pair)
        self._start_batches()

    def _start_batches(self) -> None:
        """Hand the waiting jobs to the workers that have none: the usual ones first, split
        between them; then one search to each worker still free."""
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        free = self.workers - self._out
        # (a job whose asker has gone, its table stopped meanwhile, is not handed over)
        self._quick = [pair for pair in self._quick if not pair[1].done()]
        while self._searches and self._searches[0][1].done():
            self._searches.popleft()
        if free > 0 and self._quick:
            quick, self._quick = self._quick, []
            parts = min(free, len(quick))
            for part in range(parts):
                self._hand(loop, quick[part::parts])
            free -= parts
        while free > 0 and self._searches:
            self._hand(loop, [self._searches.popleft()])
            free -= 1

    def _hand(
        self, loop: asyncio.AbstractEventLoop, batch: list[tuple[Decision, asyncio.Future[Answer]]]
    ) -> None:
        self._out += 1
        task = loop.create_task(self._run(batch))
        self._batches.add(task)
        task.add_done_callback(self._batches.discard)

    async def _run(self, batch: list[tuple[Decision, asyncio.Future[Answer]]]) -> None:
        try:
            await self._answer(batch)
        finally:
            self._out -= 1
            self._start_batches()

    async def _answer(self, batch: list[tuple[Decision, asyncio.Future[Answer]]]) -> None:
        loop = asyncio.get_running_loop()
        jobs = [job for job, _ in batch]
        for _ in range(REBUILDS):
            pool = self._executor()
            try:
                answers = await loop.run_in_executor(pool, decide_all, jobs)
            except BrokenProcessPool:
                log.warning("a decision worker died: the pool is built again")
                self._rebuild(pool)
                continue
            except Exception as failed:  # the pool itself failed: every job is told
                answers = [failed] * len(jobs)
            for (_, future), answer in zip(batch, answers, strict=True):
                if future.done():
                    continue
                if isinstance(answer, BaseException):
                    future.set_exception(answer)
                else:
                    future.set_result(answer)
            return
        for _, future in batch:
            if not future.done():
                future.set_exception(RuntimeError("the decision workers keep dying"))

    async def push(self, job: PushJob) -> int:
        """Send ``job`` from a worker process (:func:`~veillee.workers.pushes.send_push`): the
        push service's status. A pool broken meanwhile is built again and the push sent again
        (a push service drops a repeated message's copy only by its ``Topic``: one copy more
        is better than none)."""
        loop = asyncio.get_running_loop()
        for _ in range(REBUILDS):
            pool = self._executor()
            try:
                return await loop.run_in_executor(pool, send_push, job)
            except BrokenProcessPool:
                log.warning("a worker died while pushing: the pool is built again")
                self._rebuild(pool)
        raise RuntimeError("the workers keep dying")

    def _rebuild(self, broken: ProcessPoolExecutor) -> None:
        if self._pool is broken:
            self._pool = None
            broken.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop every worker (the jobs still out or waiting fail)."""
        self._closed = True
        stopped = RuntimeError("the decision workers are stopped")
        for _, future in [*self._asked, *self._quick, *self._searches]:
            if not future.done():
                future.set_exception(stopped)
        self._asked, self._quick = [], []
        self._searches.clear()
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)


class InlineDeciders:
    """Decisions made in the caller's own thread: for tests and tools that drive tables by hand
    (``TableService(autoplay=False)``) and for self-play; never what ``veillee serve`` uses."""

    def depth(self) -> int:
        """Nothing waits: each decision is made when asked."""
        return 0

    async def decide(self, job: Decision) -> Answer:
        """The answer to ``job``, decided now."""
        return decide(job)

    async def push(self, job: PushJob) -> int:
        """Send ``job`` in a thread of its own (tests and tools only: ``veillee serve`` sends
        from its worker processes)."""
        return await asyncio.to_thread(send_push, job)

    async def close(self) -> None:
        """Nothing to stop."""
