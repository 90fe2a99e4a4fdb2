"""``veillee worker`` over Redis: servers only ask and apply, workers (processes of their own)
decide. A worker killed while it holds a job leaves the job to another, which takes it over;
two servers on PostgreSQL and Redis with two workers play computer tables to their end with no
answer lost or applied twice."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis as redis_sync
from fastapi import FastAPI

from tests.conftest import make_settings
from veillee.games import find
from veillee.tables import COMPUTER
from veillee.tables.records import Table
from veillee.web import create_app
from veillee.workers import Decision, streams


@pytest.fixture(autouse=True)
def fresh_queue(redis_url: str) -> Iterator[None]:
    r = redis_sync.Redis.from_url(redis_url)
    r.delete(*streams.STREAMS)
    yield
    r.delete(*streams.STREAMS)


@contextmanager
def worker(redis_url: str, name: str) -> Iterator[subprocess.Popen[bytes]]:
    """A ``veillee worker`` process (taking over a job held unanswered for 1 s)."""
    env = {**os.environ, "VEILLEE_REDIS_URL": redis_url, "VEILLEE_WORKER_CLAIM_AFTER_S": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "veillee.cli", "worker", "--name", name],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGCONT)
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


@asynccontextmanager
async def server(
    tmp_path: Path,
    pg_url: str,
    redis_url: str,
    bot_delay_ms: int = 0,
    search_budgets: dict[str, int] | None = None,
) -> AsyncIterator[FastAPI]:
    """A server process's app that asks its decisions of the workers over Redis."""
    settings = make_settings(tmp_path)
    settings.bot_delay_ms = bot_delay_ms
    settings.search_budgets = search_budgets or {}
    settings.database_url, settings.redis_url, settings.deciders = pg_url, redis_url, "redis"
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def finished(app: FastAPI, table_id: str, within: float = 120) -> Table:
    """Wait for the table's match to end (the computer plays every seat)."""
    for _ in range(int(within * 10)):
        table = Table.read((await app.state.tables.load(table_id)).data)
        if table.game.match.is_over(table.match):
            return table
        await asyncio.sleep(0.1)
    raise AssertionError(f"table {table_id} did not finish")


async def test_a_job_held_by_a_worker_that_died_is_taken_over(
    tmp_path: Path, pg_url: str, redis_url: str
) -> None:
    # Paced, so that the match is still being played when the worker is frozen (unpaced, two
    # computers may finish a Chouine match within the second).
    async with server(tmp_path, pg_url, redis_url, bot_delay_ms=20) as app:
        with worker(redis_url, "first") as first:
            record, _ = await app.state.tables.create_table("chouine", (COMPUTER, COMPUTER))
            await asyncio.sleep(1.0)  # it plays a few moves
            # Frozen, then killed: whatever job it was sent stays taken and unanswered.
            first.send_signal(signal.SIGSTOP)
            r = redis_sync.Redis.from_url(redis_url)
            for _ in range(100):
                if r.xpending(streams.JOBS, streams.GROUP)["pending"]:
                    break
                # Stopped between two jobs: it takes the next one as it would have, and holds it.
                r.xreadgroup(streams.GROUP, "first", {streams.JOBS: ">"}, count=1)
                await asyncio.sleep(0.05)
            held = r.xpending(streams.JOBS, streams.GROUP)
            first.kill()
            first.wait(10)
            with worker(redis_url, "second"):
                table = await finished(app, record.id)
        assert table.game.match.winner(table.match) is not None
        assert held["pending"] >= 1, "the frozen worker held no job: nothing was taken over"


async def test_two_servers_and_two_workers_finish_computer_matches_once_each(
    tmp_path: Path, pg_url: str, redis_url: str
) -> None:
    asked: dict[str, list[int]] = {}
    async with AsyncExitStack() as stack:
        a = await stack.enter_async_context(server(tmp_path / "a", pg_url, redis_url))
        b = await stack.enter_async_context(server(tmp_path / "b", pg_url, redis_url))
        for app in (a, b):
            deciders = app.state.tables.deciders
            decide = deciders.decide

            async def noted(job: Decision, decide: Any = decide) -> Any:
                asked.setdefault(job.table_id, []).append(job.version)
                return await decide(job)

            deciders.decide = noted
        stack.enter_context(worker(redis_url, "w1"))
        stack.enter_context(worker(redis_url, "w2"))
        made = []
        for app, game in ((a, "chouine"), (b, "chouine"), (a, "charlemagne"), (b, "chouine")):
            seats = (COMPUTER,) * find(game).info.seats
            made.append((app, (await app.state.tables.create_table(game, seats))[0]))
        for app, record in made:
            table = await finished(app, record.id)
            assert table.game.match.winner(table.match) is not None
            stored = await app.state.tables.load(record.id)
            versions = asked[record.id]
            # Each version was asked once, and each answer applied once: every version after
            # the first deal is a computer move or the deal of the next partie or hand.
            assert versions == sorted(set(versions))
            assert stored.version == len(versions) + table.match.number - 1
        # Every job was answered and dropped from the queue (the workers still running).
        r = redis_sync.Redis.from_url(redis_url)
        assert r.xlen(streams.JOBS) == 0
        assert r.xpending(streams.JOBS, streams.GROUP)["pending"] == 0


async def test_a_worker_takes_the_usual_levels_jobs_before_searches_asked_earlier(
    redis_url: str,
) -> None:
    r = redis_sync.Redis.from_url(redis_url, decode_responses=True)
    await streams._ensure_group_sync(redis_url)
    for i in range(2):
        r.xadd(streams.SEARCHES, {"id": f"s{i}"})
    r.xadd(streams.JOBS, {"id": "u"})
    taken = []
    for _ in range(3):
        ((stream, entry_id, fields),) = streams._take(r, "w", claim_ms=60_000)
        taken.append((stream, fields["id"]))
        r.xack(stream, streams.GROUP, entry_id)
    assert taken == [(streams.JOBS, "u"), (streams.SEARCHES, "s0"), (streams.SEARCHES, "s1")]
    # A search taken and left unanswered by a worker that died is taken over, before new jobs.
    r.xadd(streams.SEARCHES, {"id": "s2"})
    r.xreadgroup(streams.GROUP, "dead", {streams.SEARCHES: ">"}, count=1)
    r.xadd(streams.JOBS, {"id": "u2"})
    ((stream, _, fields),) = streams._take(r, "w", claim_ms=0)
    assert (stream, fields["id"]) == (streams.SEARCHES, "s2")


async def test_a_strong_table_is_searched_by_a_worker_over_redis(
    tmp_path: Path, pg_url: str, redis_url: str
) -> None:
    asked: list[tuple[str, int]] = []
    budgets = {"chouine": 8}  # a small search: the test is where it runs, not how well
    async with server(tmp_path, pg_url, redis_url, search_budgets=budgets) as app:
        deciders = app.state.tables.deciders
        decide = deciders.decide

        async def noted(job: Decision) -> Any:
            asked.append((streams.stream_of(job), job.version))
            return await decide(job)

        deciders.decide = noted
        with worker(redis_url, "w1"):
            record, _ = await app.state.tables.create_table(
                "chouine", (COMPUTER, COMPUTER), level="strong"
            )
            for _ in range(600):
                if (await app.state.tables.load(record.id)).version >= 6:
                    break
                await asyncio.sleep(0.1)
        assert (await app.state.tables.load(record.id)).version >= 6
    assert asked and {stream for stream, _ in asked} == {streams.SEARCHES}
