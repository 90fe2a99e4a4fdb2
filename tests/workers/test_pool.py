"""The embedded pool: decisions in worker processes of the server at a lower priority; a pool
broken by a killed worker is built again and its jobs asked again; ``veillee serve`` starts
its pool and leaves no process behind, stopped by SIGTERM, killed with -9, or failing to
start."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from veillee.games import find
from veillee.workers import Decision, PoolDeciders
from veillee.workers.pool import NICENESS


def jobs(n: int) -> list[Decision]:
    """``n`` decisions of the first seat to act in fresh Chouine matches."""
    game = find("chouine")
    found = []
    for seed in range(n):
        m = game.match.new_match(random.Random(seed), {})
        seat = game.match.to_act(m)
        assert seat is not None
        observation = game.match.observation(m, seat)
        legal = game.match.legal_actions(m)
        found.append(Decision.ask("chouine", seat, observation, legal, "usual", seed, "t", 0))
    return found


async def test_the_usual_level_is_not_kept_waiting_behind_the_searches() -> None:
    # One worker, three strong searches asked, then a usual decision: the usual one waits only
    # for the search already running, not for the two searches asked before it.
    pool = PoolDeciders(1)
    await pool.start()
    try:
        usual = jobs(1)[0]
        strong = [dataclasses.replace(job, level="strong", budget=150) for job in jobs(3)]
        order: list[str] = []

        async def ask(job: Decision, name: str) -> None:
            answer = await pool.decide(job)
            assert answer.action in job.legal
            order.append(name)

        searches = [asyncio.create_task(ask(job, f"strong {n}")) for n, job in enumerate(strong)]
        await asyncio.sleep(0.05)  # the first search is running, the other two wait
        await asyncio.gather(ask(usual, "usual"), *searches)
        assert order == ["strong 0", "usual", "strong 1", "strong 2"]
    finally:
        await pool.close()


async def test_a_closed_pool_fails_the_jobs_still_waiting() -> None:
    pool = PoolDeciders(1)
    await pool.start()
    strong = [dataclasses.replace(job, level="strong", budget=150) for job in jobs(2)]
    asked = [asyncio.create_task(pool.decide(job)) for job in strong]
    await asyncio.sleep(0.05)
    await pool.close()
    outcomes = await asyncio.wait_for(asyncio.gather(*asked, return_exceptions=True), 30)
    # The running search may end or be cut; the waiting one is told, never left hanging.
    assert isinstance(outcomes[1], RuntimeError)
    try:
        await pool.decide(strong[0])
    except RuntimeError as refused:
        assert "stopped" in str(refused)
    else:
        raise AssertionError("a closed pool took a job")


def workers_of(pid: int) -> list[int]:
    """The processes below ``pid`` (its children, theirs, …)."""
    below: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child in Path("/proc").glob("[0-9]*"):
            try:
                ppid = int((child / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == parent:
                below.append(int(child.name))
                frontier.append(int(child.name))
    return below


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def niceness(pid: int) -> int:
    return int((Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[16])


async def test_a_decision_is_made_in_a_worker_process_at_a_lower_priority() -> None:
    pool = PoolDeciders(1)
    await pool.start()
    try:
        job = jobs(1)[0]
        answer = await pool.decide(job)
        assert answer.action in job.legal
        below = [p for p in workers_of(os.getpid()) if alive(p)]
        niced = [p for p in below if niceness(p) >= niceness(os.getpid()) + NICENESS]
        assert niced, "no worker runs niced below this process"
    finally:
        await pool.close()


async def test_a_pool_whose_worker_is_killed_is_built_again_and_answers_every_job() -> None:
    pool = PoolDeciders(1)
    await pool.start()
    try:
        before = set(workers_of(os.getpid()))
        niced = [p for p in before if alive(p) and niceness(p) > niceness(os.getpid())]
        asked = jobs(12)
        pending = [asyncio.create_task(pool.decide(job)) for job in asked]
        for pid in niced:
            os.kill(pid, signal.SIGKILL)
        answers = await asyncio.wait_for(asyncio.gather(*pending), 60)
        assert [a.action in job.legal for a, job in zip(answers, asked, strict=True)] == [True] * 12
        # And the pool made after it serves the next one.
        assert (await pool.decide(asked[0])).action in asked[0].legal
    finally:
        await pool.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(tmp_path: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "VEILLEE_DATA_DIR": str(tmp_path), "VEILLEE_WORKERS": "2"}
    env.pop("VEILLEE_TEST_HOOKS", None)
    return subprocess.Popen(
        [sys.executable, "-m", "veillee.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def started(proc: subprocess.Popen[bytes], port: int) -> list[int]:
    """Wait for the server to answer; its processes then (the pool's among them)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return workers_of(proc.pid)
        except httpx.HTTPError:
            time.sleep(0.1)
    raise AssertionError("the server did not start")


def gone(pids: list[int], within: float = 10) -> list[int]:
    """Those of ``pids`` still alive after ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if alive(p)]


def test_veillee_serve_starts_its_workers_and_sigterm_stops_them_all(tmp_path: Path) -> None:
    port = free_port()
    proc = serve(tmp_path, port)
    try:
        below = started(proc, port)
        niced = [p for p in below if niceness(p) > 0]
        assert len(niced) == 2, below  # the two workers asked for, niced
        proc.send_signal(signal.SIGTERM)
        # uvicorn shuts the app down, then dies of the signal it was sent, as it should.
        assert proc.wait(30) in (0, -signal.SIGTERM)
        assert proc.stderr is not None
        assert b"Application shutdown complete" in proc.stderr.read()
        assert gone(below) == []
    finally:
        proc.kill()


def test_a_server_killed_with_minus_nine_leaves_no_worker_behind(tmp_path: Path) -> None:
    port = free_port()
    proc = serve(tmp_path, port)
    try:
        below = started(proc, port)
        assert below
        proc.kill()
        proc.wait(10)
        assert gone(below) == []
    finally:
        proc.kill()


def test_a_server_that_cannot_start_leaves_no_worker_behind(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        proc = serve(tmp_path, port)
        seen: set[int] = set()
        try:
            while proc.poll() is None:
                seen.update(workers_of(proc.pid))
                time.sleep(0.05)
            assert proc.returncode != 0
            assert gone(sorted(seen)) == []
        finally:
            proc.kill()
