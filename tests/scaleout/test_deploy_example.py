"""docs/deploy.md's worked example, run as written: nginx in front of three ``veillee serve``
processes and two ``veillee worker`` processes on PostgreSQL and Redis (the example's own
commands and nginx configuration, read from the document; only the ports, the database, the
Redis database and the files are this run's). A person plays a Chouine computer table through
nginx; the computer's moves come from the workers; one worker killed (-9), the other takes its
jobs and the match goes on."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

DOC = Path(__file__).parents[2] / "docs" / "deploy.md"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def example_blocks() -> dict[str, str]:
    """The worked example's fenced blocks of docs/deploy.md, by language (``sh``, ``nginx``)."""
    blocks = re.findall(r"```(\w+)\n# worked example\n(.*?)```", DOC.read_text(), re.S)
    return dict(blocks)


CLIENT_IDS = itertools.count()
"""A fresh client id for every change of the run (a change sent again with the same id is the
same change: the server answers it as applied)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    try:
        yield started
    finally:
        for proc in started:
            with suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        for proc in started:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


def wait_healthy(url: str, proc: subprocess.Popen[bytes] | None = None, host: str = "") -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc is None or proc.poll() is None, "a process of the example ended"
        with suppress(httpx.HTTPError):
            headers = {"Host": host} if host else {}
            if httpx.get(url + "/healthz", headers=headers, timeout=2).status_code == 200:
                return
        time.sleep(0.1)
    raise AssertionError(f"{url} did not answer")


async def heartbeat(ws: ClientConnection) -> None:
    while True:
        await asyncio.sleep(5)
        await ws.send('{"type":"ping"}')


async def play(ws: ClientConnection, versions: int) -> int:
    """Play seat 0 (a random legal action when it is to act, the next partie when one is over)
    until the table has moved ``versions`` versions on; the number of the computer's moves."""
    rng = random.Random(5)
    first = last = previous_to_act = None
    seen: dict[str, Any] = {}
    computer = 0
    deadline = time.monotonic() + 90
    while first is None or last - first < versions:
        assert time.monotonic() < deadline, f"the table stood still at version {last}: {seen}"
        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
        assert message["type"] != "error", message
        if message["type"] != "state" or (last is not None and message["version"] <= last):
            continue
        view = message["view"]
        deal = view["deal"]
        seen = {k: deal.get(k) for k in ("to_act", "legal", "outcome", "phase", "trick")}
        if previous_to_act not in (0, None) and deal["to_act"] != previous_to_act:
            computer += 1  # the computer's seat played
        previous_to_act = deal["to_act"]
        first = message["version"] if first is None else first
        last = message["version"]
        change: dict[str, Any] | None = None
        if deal["to_act"] == 0 and deal["legal"]:
            change = {"type": "act", "action": rng.choice(deal["legal"])}
        elif view["match"]["over"]:
            break
        elif deal["to_act"] is None:
            change = {"type": "next"}
        if change is not None:
            change.update(client_id=f"c{next(CLIENT_IDS)}", version=last)
            await ws.send(json.dumps(change))
    return computer


async def test_the_worked_example_of_the_deploy_document_runs(
    tmp_path: Path, pg_url: str, redis_url: str
) -> None:
    blocks = example_blocks()
    assert set(blocks) == {"sh", "nginx"}
    script, conf = blocks["sh"], blocks["nginx"]
    env = dict(os.environ)
    for name, value in re.findall(r"^export (\w+)=(\S+)$", script, re.M):
        env[name] = value
    assert env["VEILLEE_DECIDERS"] == "redis"
    ports = re.search(r"for port in ([\d ]+); do veillee serve", script)
    assert ports is not None
    server_ports = ports.group(1).split()
    workers = re.findall(r"^veillee worker --name (\w+) &$", script, re.M)
    assert len(server_ports) == 3 and len(workers) == 2
    # This run's ports, database and files in place of the example's.
    front = free_port()
    mine = {port: str(free_port()) for port in server_ports}
    for theirs, ours in mine.items():
        conf = conf.replace(f"127.0.0.1:{theirs};", f"127.0.0.1:{ours};")
    conf = conf.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{front};")
    conf = conf.replace("/tmp/veillee-nginx", str(tmp_path / "nginx"))
    (tmp_path / "veillee-nginx.conf").write_text(conf)
    origin = f"http://127.0.0.1:{front}"
    env.update(
        VEILLEE_DATABASE_URL=pg_url,
        VEILLEE_REDIS_URL=redis_url,
        VEILLEE_PUBLIC_ORIGINS=origin,
        VEILLEE_WORKER_CLAIM_AFTER_S="1",
        VEILLEE_BOT_DELAY_MS="0",  # the computer at once: this run is not a person's pace
        VEILLEE_TRICK_PAUSE_MS="0",
    )
    veillee = [sys.executable, "-m", "veillee.cli"]
    with processes() as started:
        for theirs, ours in mine.items():
            data = tmp_path / f"serve-{theirs}"
            data.mkdir()
            started.append(
                subprocess.Popen(
                    [*veillee, "serve", "--host", "127.0.0.1", "--port", ours],
                    env={**env, "VEILLEE_DATA_DIR": str(data)},
                    cwd=tmp_path,
                )
            )
        for server, port in zip(started, mine.values(), strict=True):
            wait_healthy(f"http://127.0.0.1:{port}", server, host=f"127.0.0.1:{front}")
        worker_procs = {
            name: subprocess.Popen([*veillee, "worker", "--name", name], env=env, cwd=tmp_path)
            for name in workers
        }
        started.extend(worker_procs.values())
        nginx = subprocess.run(
            [NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "veillee-nginx.conf")],
            capture_output=True,
            check=False,
        )
        assert nginx.returncode == 0, nginx.stderr.decode()
        try:
            wait_healthy(origin)
            async with httpx.AsyncClient(base_url=origin) as client:
                r = await client.post("/api/tables", json={"game": "chouine"})
            assert r.status_code == 201, r.text
            table = r.json()
            ws_url = f"ws://127.0.0.1:{front}/ws/tables/{table['table_id']}"
            async with connect(ws_url, origin=origin, open_timeout=30) as ws:  # type: ignore[arg-type]
                await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
                beat = asyncio.create_task(heartbeat(ws))  # as a page keeps its socket alive
                try:
                    assert await play(ws, 12) >= 2, "the workers made no move"
                    worker_procs[workers[0]].kill()
                    worker_procs[workers[0]].wait(10)
                    assert await play(ws, 12) >= 2, "the other worker took no job"
                finally:
                    beat.cancel()
        finally:
            subprocess.run(
                [
                    NGINX,
                    "-p",
                    str(tmp_path),
                    "-c",
                    str(tmp_path / "veillee-nginx.conf"),
                    "-s",
                    "stop",
                ],
                capture_output=True,
                check=False,
            )
