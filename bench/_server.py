"""The real server for the benchmarks: `veillee serve` as players run it, in subprocesses.

Not a benchmark itself (``make bench`` skips ``bench/_*.py``): the benchmarks import it.
:func:`servers` starts one or more ``python -m veillee.cli serve`` on free ports of 127.0.0.1
with a fresh data directory each (SQLite unless ``VEILLEE_DATABASE_URL`` is set in ``env``);
:func:`memory` and :func:`cpu_seconds` read a process's resident memory and CPU time from /proc.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx

TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Served:
    """One running server: its base URL (``http://127.0.0.1:<port>``) and process id."""

    base: str
    pid: int

    @property
    def ws(self) -> str:
        """The base URL of its websockets (``ws://127.0.0.1:<port>``)."""
        return "ws" + self.base.removeprefix("http")


def free_port() -> int:
    """A TCP port of 127.0.0.1 free at the time of asking."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def memory(pid: int) -> tuple[float, float]:
    """(resident MiB, peak resident MiB) of process ``pid``."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.split()
    return int(fields["VmRSS"][0]) / 1024, int(fields["VmHWM"][0]) / 1024


def cpu_seconds(pid: int, started: bool = True) -> float:
    """CPU seconds (user + system, all threads) process ``pid`` has used so far, and with
    ``started`` the processes it started too (worker processes, and those they started in
    turn): the live ones' own and the ended ones' as their parents counted them."""
    if not started:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = sum(int(f) for f in fields[11:15]) / TICKS
    total, tree = 0.0, {pid}
    for one in sorted(parents, key=lambda p: _depth(p, parents)):
        if one in tree or parents[one] in tree:
            tree.add(one)
            total += times[one]
    return total


def _depth(pid: int, parents: dict[int, int]) -> int:
    depth = 0
    while pid in parents and depth < 64:
        pid, depth = parents[pid], depth + 1
    return depth


def raise_open_files(wanted: int) -> int:
    """Raise this process's open-file limit (inherited by the servers it starts) towards
    ``wanted``, as far as the hard limit allows; return the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def load() -> str:
    """The machine's load averages (1, 5, 15 min), to print beside a figure."""
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


@contextlib.contextmanager
def servers(
    count: int = 1, env: dict[str, str] | None = None, python: str | None = None
) -> Iterator[list[Served]]:
    """``count`` servers (`veillee serve`) with the extra environment ``env``, run by
    ``python`` (default: this interpreter; another venv measures another checkout). Stopped
    (SIGTERM, then SIGKILL) on leaving."""
    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as data:
        try:
            served = []
            for i in range(count):
                port = free_port()
                full = {**os.environ, "VEILLEE_DATA_DIR": f"{data}/{i}", **(env or {})}
                full.pop("VEILLEE_PUBLIC_ORIGINS", None)
                cmd = [python or sys.executable, "-m", "veillee.cli", "serve", "--port", str(port)]
                # Run from the data folder: ``-m`` puts the working directory on the path, and
                # the interpreter's own install of veillee is the one to measure.
                proc = subprocess.Popen(
                    cmd, cwd=data, env=full, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
                )
                procs.append(proc)
                served.append(Served(f"http://127.0.0.1:{port}", proc.pid))
            for one, proc in zip(served, procs, strict=True):
                _wait_ready(one.base, proc)
            yield served
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


async def make_tables(
    served: list[Served], count: int, at_once: int = 100, level: str | None = None
) -> list[tuple[Served, dict[str, Any]]]:
    """``count`` Chouine computer tables (at the computer's ``level``: default the usual one)
    made through ``POST /api/tables``, spread over the servers in turn, ``at_once`` at a time:
    (server, its answer ``{"table_id", "token", …}``).
    A request whose connection broke (a keep-alive connection the server had just closed) is
    sent again."""
    gate = asyncio.Semaphore(at_once)
    limits = httpx.Limits(max_connections=at_once)
    body = {"game": "chouine", **({"level": level} if level else {})}
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:

        async def one(i: int) -> tuple[Served, dict[str, Any]]:
            where = served[i % len(served)]
            async with gate:
                for attempt in range(3):
                    try:
                        r = await client.post(where.base + "/api/tables", json=body)
                        break
                    except httpx.TransportError:
                        if attempt == 2:
                            raise
            r.raise_for_status()
            return where, dict(r.json())

        return list(await asyncio.gather(*(one(i) for i in range(count))))


def _wait_ready(base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"veillee serve ended with status {proc.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                return
        time.sleep(0.05)
    raise RuntimeError("veillee serve did not answer /healthz within 60 s")
