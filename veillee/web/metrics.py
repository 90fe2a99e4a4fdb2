"""What the server process measures of itself beside its requests (``/metrics``): how late its
event loop runs (the time a person's message may wait behind other work) and how many computer
decisions wait for a worker."""

from __future__ import annotations

import asyncio
import contextlib
import time

from prometheus_client import Gauge, Histogram

from veillee.workers import Deciders

LOOP_LAG = Histogram(
    "veillee_loop_lag_seconds",
    "How late the event loop ran a timer set for now (sampled every 0.25 s)",
    buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0),
)
QUEUE_DEPTH = Gauge(
    "veillee_decisions_waiting", "Computer decisions asked of the workers and not yet answered"
)
EVERY_S = 0.25
"""How often the loop's lateness is sampled."""


async def watch_the_loop(deciders: Deciders) -> None:
    """Every :data:`EVERY_S`: how late this wake-up came (into :data:`LOOP_LAG`), and the
    deciders' depth (:data:`QUEUE_DEPTH`). Runs until cancelled."""
    while True:
        asked = time.perf_counter()
        await asyncio.sleep(EVERY_S)
        LOOP_LAG.observe(max(0.0, time.perf_counter() - asked - EVERY_S))
        QUEUE_DEPTH.set(deciders.depth())


async def stop(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait for it to end."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
