"""Work handed from the event loop to a thread of its own, a batch at a time.

The SQLite writer (``store``) and the computer's decisions (``tables``) run beside the event loop
in threads. Waking a waiting thread costs the loop more than most of the work it hands over (on
a busy two-core machine the woken thread and the loop then trade the GIL and the core), so
:class:`BatchThread` wakes its thread once per turn of the event loop, whatever was handed over
during that turn, and hands the outcomes back once per batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from typing import Any, Generic, TypeVar

J = TypeVar("J")
Outcome = tuple[Any, BaseException | None]
"""What a job gave: ``(result, None)``, or ``(None, what it raised)``."""
_Handed = tuple[Any, "asyncio.Future[Any]"]


class BatchThread(Generic[J]):
    """A thread named ``name`` that runs the jobs handed to it by :meth:`run`, at most
    ``max_batch`` at a time, through :meth:`handle` (which a subclass says). The jobs handed
    during one turn of the event loop reach the thread together; the thread takes every job
    waiting when it is free; each job's caller hears its outcome once its batch is handled.
    Used from one event loop."""

    def __init__(self, name: str, max_batch: int) -> None:
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[list[_Handed] | None] = queue.SimpleQueue()
        self._handing: list[_Handed] = []
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def started(self) -> None:
        """Called in the thread before its first batch."""

    def stopped(self) -> None:
        """Called in the thread after its last batch."""

    def handle(self, jobs: list[J]) -> list[Outcome]:
        """Run ``jobs`` (in the thread) and say each one's outcome, in order."""
        raise NotImplementedError

    async def run(self, job: J) -> Any:
        """Hand ``job`` to the thread and return its result (or raise what it raised)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if not self._handing:
            loop.call_soon(self._hand_over)
        self._handing.append((job, future))
        return await future

    async def close(self) -> None:
        """Finish what was handed over, then stop the thread."""
        self._hand_over()
        self._queue.put(None)
        await asyncio.to_thread(self._thread.join)

    def _hand_over(self) -> None:
        handing, self._handing = self._handing, []
        if handing:
            self._queue.put(handing)

    def _serve(self) -> None:
        failed: Exception | None = None
        try:
            self.started()
        except Exception as exc:
            failed = exc  # every job is told
        try:
            stop = False
            while not stop:
                batch = self._queue.get()
                if batch is None:
                    break
                while len(batch) < self.max_batch:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stop = True
                        break
                    batch.extend(more)
                for at in range(0, len(batch), self.max_batch):
                    handed = batch[at : at + self.max_batch]
                    try:
                        if failed is not None:
                            raise failed
                        outcomes = self.handle([job for job, _ in handed])
                    except Exception as exc:
                        outcomes = [(None, exc)] * len(handed)
                    _settle(handed, outcomes)
        finally:
            self.stopped()


class CallThread(BatchThread[Any]):
    """A :class:`BatchThread` whose jobs are functions of no argument, called one after the
    other."""

    def handle(self, jobs: list[Any]) -> list[Outcome]:
        outcomes: list[Outcome] = []
        for job in jobs:
            try:
                outcomes.append((job(), None))
            except Exception as exc:
                outcomes.append((None, exc))
        return outcomes


def _settle(handed: list[_Handed], outcomes: list[Outcome]) -> None:
    """Hand each job its outcome on its event loop (one wake-up per loop)."""
    loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Outcome]]] = {}
    for (_, future), outcome in zip(handed, outcomes, strict=True):
        loops.setdefault(future.get_loop(), []).append((future, outcome))
    for loop, settled in loops.items():
        with contextlib.suppress(RuntimeError):  # a loop closed meanwhile: nobody is waiting
            loop.call_soon_threadsafe(_resolve, settled)


def _resolve(settled: list[tuple[asyncio.Future[Any], Outcome]]) -> None:
    for future, (result, error) in settled:
        if future.cancelled():
            continue
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)
