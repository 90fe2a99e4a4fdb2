"""Work off the event loop: the computer's decisions, as jobs run in worker processes (DESIGN.md
§3, issue 28), like lichess's fishnet.

- :mod:`.jobs` — :class:`Decision`, the job (what the deciding seat may know, nothing more), and
  :func:`decide`, what a worker runs;
- :mod:`.pushes` — :class:`PushJob`, one "your turn" Web Push message, and
  :func:`~veillee.workers.pushes.send_push`, what a worker runs (issue 26);
- :mod:`.pool` — the embedded default: a pool of this server's own worker processes at a lower
  priority (:class:`PoolDeciders`); :class:`InlineDeciders` for tests and tools;
- :mod:`.streams` — scale-out: ``veillee worker`` processes taking jobs from a Redis stream
  (:class:`StreamDeciders` on the server's side, :func:`~veillee.workers.streams.serve` on the
  worker's).

The server only asks and applies (:mod:`veillee.tables.computer`); the answers are checked
there before use.
"""

from __future__ import annotations

from typing import Protocol

from veillee.config import Settings
from veillee.workers.jobs import USUAL, Answer, Decision, decide
from veillee.workers.pool import InlineDeciders, PoolDeciders, default_workers
from veillee.workers.pushes import NO_ANSWER, PushJob, VapidKeys, vapid_keys


class Deciders(Protocol):
    """Where a table's computer seats are decided."""

    async def decide(self, job: Decision) -> Answer:
        """The answer to ``job`` (however long a worker takes to be there)."""
        ...

    async def push(self, job: PushJob) -> int:
        """Send ``job`` from a worker: the push service's status code (or
        :data:`~veillee.workers.pushes.NO_ANSWER`)."""
        ...

    def depth(self) -> int:
        """Decisions asked of this process's deciders and not answered yet."""
        ...

    async def close(self) -> None:
        """Stop."""
        ...


async def open_deciders(settings: Settings) -> Deciders:
    """The deciders ``settings`` ask for, started: ``veillee worker`` processes over Redis
    (``deciders="redis"``, at ``redis_url``), else the embedded pool of ``workers``
    processes."""
    if settings.deciders == "redis":
        from veillee.workers.streams import StreamDeciders

        if not settings.redis_url:
            raise ValueError("VEILLEE_DECIDERS=redis needs VEILLEE_REDIS_URL")
        remote = StreamDeciders(settings.redis_url)
        await remote.start()
        return remote
    pool = PoolDeciders(settings.workers)
    await pool.start()
    return pool


__all__ = [
    "NO_ANSWER",
    "USUAL",
    "Answer",
    "Deciders",
    "Decision",
    "InlineDeciders",
    "PoolDeciders",
    "PushJob",
    "VapidKeys",
    "decide",
    "default_workers",
    "open_deciders",
    "vapid_keys",
]
