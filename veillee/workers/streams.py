"""Scale-out: decisions taken by ``veillee worker`` processes from a Redis stream (DESIGN.md §4).

Why Redis Streams with a consumer group, and not a job library: the server already runs Redis
for its bus; a stream keeps each job until a worker acknowledges it, a consumer group hands each
job to one worker, and ``XAUTOCLAIM`` gives a job whose worker died to another: the three
things this queue needs, with nothing more to install or keep in step (arq, the well-kept
library on Redis, would add pickled calls, its own retries and a job store of its own).

- A server process (:class:`StreamDeciders`) adds each job to the stream of its level
  (:func:`stream_of`: the usual level's :data:`JOBS`, the strong level's searches
  :data:`SEARCHES`; fields ``id``, ``job`` — :meth:`Decision.to_json
  <veillee.workers.jobs.Decision.to_json>` — and ``reply``, the stream of its own answers) and
  waits for the answer on its reply stream.
- A worker (:func:`serve`) reads new jobs as a consumer of :data:`GROUP`, first taking over
  any job another consumer has held for ``claim_after_s`` without answering (it died
  mid-search: ``XAUTOCLAIM``), and the usual level's before the searches (:data:`STREAMS`, in
  that order: a usual table's computer never waits behind searches asked before it, as in the
  embedded pool). It decides, then in one script answers (unless the job was answered
  already) and acknowledges it, so that a job is answered once, whoever decided it.
- The answer (fields ``id``, ``action``, ``seconds``) settles the waiting job, once; a late
  second answer finds nobody waiting. What the server does with an answer (apply it only at the
  version asked) is the table's (:mod:`veillee.tables.computer`).

A push (:class:`~veillee.workers.pushes.PushJob`) needs no queue between machines: the server
that committed the change sends it from a worker process of its own (one, made at the first
push: :meth:`StreamDeciders.push`).

With no worker running, jobs wait in the stream, and the computer seats with them ("the computer
is thinking…"); they play as soon as a worker starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from typing import Any

from veillee.workers.jobs import USUAL, Answer, Decision, decide
from veillee.workers.pool import PoolDeciders
from veillee.workers.pushes import PushJob

JOBS = "veillee:decisions"
"""The stream of the usual level's decision jobs."""
SEARCHES = "veillee:decisions:searches"
"""The stream of the other levels' decision jobs (the strong level's searches)."""
STREAMS = (JOBS, SEARCHES)
"""The job streams, in the order a worker serves them."""
GROUP = "deciders"
"""The consumer group of the workers."""
ANSWERED = "veillee:answered:"
"""Prefix of the key that says a job was answered (kept an hour)."""
CLAIM_AFTER_S = 10.0
"""How long a job may stay taken and unanswered before another worker takes it over."""
REPLY_TTL_S = 3600
"""How long a server's reply stream outlives its last refresh (a server that died)."""

log = logging.getLogger(__name__)

# KEYS: answered key, reply stream, jobs stream. ARGV: consumer, job id, action, seconds, group,
# entry id. Answer once (SET NX), then acknowledge and drop the job whatever.
_ANSWER = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', 3600) then
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', 10000, '*',
             'id', ARGV[2], 'action', ARGV[3], 'seconds', ARGV[4])
end
redis.call('XACK', KEYS[3], ARGV[5], ARGV[6])
redis.call('XDEL', KEYS[3], ARGV[6])
return 1
"""


class StreamDeciders:
    """A server process's side of the queue: jobs added to :data:`JOBS`, answers read from its
    own reply stream. ``redis_url``: the Redis the workers read."""

    def __init__(self, redis_url: str) -> None:
        import redis.asyncio as redis

        self._redis: Any = redis.from_url(redis_url, decode_responses=True)
        self.reply = f"veillee:answers:{secrets.token_hex(8)}"
        self._waiting: dict[str, asyncio.Future[Answer]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self._pushers: PoolDeciders | None = None

    async def start(self) -> None:
        """Make the consumer group if there is none, and start reading answers."""
        await ensure_group(self._redis)
        await self._redis.xadd(self.reply, {"id": "", "action": "", "seconds": "0"})
        await self._redis.expire(self.reply, REPLY_TTL_S)
        self._reader = asyncio.create_task(self._read())

    def depth(self) -> int:
        """Decisions this process asked and has no answer to yet."""
        return len(self._waiting)

    async def decide(self, job: Decision) -> Answer:
        """The answer to ``job``, from whichever worker takes it (waiting as long as it takes
        a worker to be there)."""
        if self._reader is None:
            await self.start()
        job_id = secrets.token_hex(12)
        future = asyncio.get_running_loop().create_future()
        self._waiting[job_id] = future
        try:
            await self._redis.xadd(
                stream_of(job), {"id": job_id, "job": job.to_json(), "reply": self.reply}
            )
            return await future
        finally:
            self._waiting.pop(job_id, None)

    async def push(self, job: PushJob) -> int:
        """Send ``job`` from this server's own worker process (made at the first push)."""
        if self._pushers is None:
            self._pushers = PoolDeciders(1)
        return await self._pushers.push(job)

    async def _read(self) -> None:
        last = "0-0"  # the stream is this process's own, made by start
        refreshed = time.monotonic()
        # (close stops the loop by a flag too: redis-py's read timeout can swallow a
        # cancellation that lands as it expires, and the loop would read on for ever)
        while not self._closing:
            try:
                found = await self._redis.xread({self.reply: last}, block=1000, count=100)
                for _, entries in found or ():
                    for entry_id, fields in entries:
                        last = entry_id
                        self._settle(fields)
                    await self._redis.xtrim(self.reply, minid=last)
                if time.monotonic() - refreshed > REPLY_TTL_S / 4:
                    await self._redis.expire(self.reply, REPLY_TTL_S)
                    refreshed = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not read the answers of %s", self.reply)
                await asyncio.sleep(1)

    def _settle(self, fields: dict[str, str]) -> None:
        future = self._waiting.pop(fields.get("id", ""), None)
        if future is not None and not future.done():
            future.set_result(Answer(fields["action"], float(fields.get("seconds", 0))))

    async def close(self) -> None:
        """Stop reading; the jobs still out are left to be answered to nobody."""
        reader, self._reader = self._reader, None
        self._closing = True
        pushers, self._pushers = self._pushers, None
        if pushers is not None:
            await pushers.close()
        if reader is not None:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self._redis.delete(self.reply)
        with contextlib.suppress(Exception):
            await self._redis.aclose()


def stream_of(job: Decision) -> str:
    """The stream ``job`` goes to: :data:`JOBS` for the usual level, else :data:`SEARCHES`."""
    return JOBS if job.level == USUAL else SEARCHES


async def ensure_group(redis: Any) -> None:
    """Make the workers' consumer group on each of :data:`STREAMS` (and the stream) unless it
    exists."""
    for stream in STREAMS:
        try:
            await redis.xgroup_create(stream, GROUP, id="0", mkstream=True)
        except Exception as exc:
            if "BUSYGROUP" not in str(exc):
                raise


def serve(
    redis_url: str,
    consumer: str | None = None,
    *,
    claim_after_s: float = CLAIM_AFTER_S,
    stop: Any = None,
) -> None:
    """Take jobs and answer them until ``stop()`` is true (forever by default): what
    ``veillee worker`` runs. ``consumer``: this worker's name in the group (default: host and
    process id)."""
    import redis

    r: Any = redis.Redis.from_url(redis_url, decode_responses=True)
    name = consumer or f"{socket.gethostname()}-{os.getpid()}"
    asyncio.run(_ensure_group_sync(redis_url))
    answer = r.register_script(_ANSWER)
    claim_ms = int(claim_after_s * 1000)
    log.info("veillee worker %s takes jobs from %s", name, ", ".join(STREAMS))
    while stop is None or not stop():
        entries = _take(r, name, claim_ms)
        for stream, entry_id, fields in entries:
            try:
                job = Decision.from_json(fields["job"])
                found = decide(job)
            except Exception:
                log.exception("job %s could not be decided: dropped", fields.get("id"))
                r.xack(stream, GROUP, entry_id)
                r.xdel(stream, entry_id)
                continue
            answer(
                keys=[ANSWERED + fields["id"], fields["reply"], stream],
                args=[name, fields["id"], found.action, f"{found.seconds:.6f}", GROUP, entry_id],
            )


def _take(r: Any, name: str, claim_ms: int) -> list[tuple[str, str, dict[str, str]]]:
    """The next jobs to decide, as ``(stream, entry id, fields)``, in the order of
    :data:`STREAMS`: one taken over from a consumer that held it too long, else a new one of
    the first stream that has one, else whichever comes first (waiting a second at most: then
    one of each stream at most, the usual level's first)."""
    for stream in STREAMS:
        claimed = r.xautoclaim(stream, GROUP, name, min_idle_time=claim_ms, start_id="0-0", count=1)
        taken = [(stream, entry_id, fields) for entry_id, fields in claimed[1] if fields]
        if taken:
            return taken
    for stream in STREAMS:
        found = r.xreadgroup(GROUP, name, {stream: ">"}, count=1)
        if found:
            return _entries(found)
    found = r.xreadgroup(GROUP, name, dict.fromkeys(STREAMS, ">"), count=1, block=1000)
    return sorted(_entries(found), key=lambda entry: STREAMS.index(entry[0]))


def _entries(found: Any) -> list[tuple[str, str, dict[str, str]]]:
    return [
        (stream, entry_id, fields)
        for stream, entries in found or ()
        for entry_id, fields in entries
    ]


async def _ensure_group_sync(redis_url: str) -> None:
    import redis.asyncio as redis

    client: Any = redis.from_url(redis_url, decode_responses=True)
    try:
        await ensure_group(client)
    finally:
        await client.aclose()
