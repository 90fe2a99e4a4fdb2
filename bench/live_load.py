"""Computer tables played over the real socket: changes per second against the same server's
ping/pong rate, the acknowledgement's latency, and the server's CPU per change (issue 12).

Each run starts `veillee serve` (one process on SQLite, or ``--processes`` processes on
PostgreSQL + Redis), makes N Chouine computer tables through ``POST /api/tables`` and opens one
websocket per table on 127.0.0.1, as a table page does (``hello``, then ``act`` / ``next`` /
``new_match`` with a fresh client id and the version acted on, each answered by ``ack`` and the
new ``state``). Then, on those same sockets:

1. **ping/pong** for ``--ping-seconds``: every socket sends ``ping`` and sends again on each
   ``pong`` (the socket skeleton's own round trip: transport, limits, parse, answer);
2. **play** for ``--seconds``: every socket plays seat 0 as soon as its state says seat 0 is to
   act (a legal action drawn at random from the view's ``legal``), deals the next partie when one
   is over and starts a new match when the match is.

*changes/s* is the number of versions the sockets were sent (each applied, stored and fanned
out: the human's and the computer's moves) per second of play; *ratio* is that over the ping/pong
rate of phase 1; *ack p50/p99* is the time from sending a change to its ``ack``; *CPU/change*
is the servers' CPU time during play over the changes: all threads, and the processes a server
started (the computer's worker processes; *workers* says their part), from /proc.

Beside the played tables, ``--quiet`` seats (20) of tables where nothing happens ping every
200 ms during play, as a page's heartbeat: *quiet ping p50/p99* is what any person feels while
the others play. ``human`` pacing: the server's default pacing (the computer's 900 ms), each
person thinking 1 to 3 s (about 2 s) before each change, the first changes spread over a cycle.
``--level strong`` plays the tables against the strong computer; ``--searching 8`` adds eight
strong tables whose person answers at once, so that the workers search without pause (the
isolation run: compare with the same run without it); ``--workers`` and ``--budget`` set the
server's pool size and the strong level's search budget.

``full`` pacing: the computer moves at once (``VEILLEE_BOT_DELAY_MS=0``,
``VEILLEE_TRICK_PAUSE_MS=0``); ``normal``: the server's default pacing, every table's first
change sent at the same instant (the tables then keep in step: the worst case, a burst of N
changes every pacing cycle); ``spread``: the server's default pacing, each table's first change
sent at a random moment of the first pacing cycle (the computer's delay and the pause after a
trick, 2.1 s), as tables that players opened at different moments. The rate limit per
socket is lifted (``VEILLEE_MAX_MESSAGES_PER_SECOND=100000``) so that it is the server, not the
limit, that is measured. The client offers per-message deflate as a browser does; the server
decides. Loop counts and times are bounded; everything stays on 127.0.0.1.

Run alone: ``.venv/bin/python bench/live_load.py`` is the short run of ``make bench`` (50 and
200 tables at full speed, 4 s each); ``--full`` is the issue's (50, 200 and 1,000 tables, full,
normal and spread pacing, 10 s each). Options: ``--tables 50,200 --pacing full,spread
--seconds 10``,
``--database-url postgresql+asyncpg://… --redis-url redis://… --processes 1,2,3``,
``--websocket wsproto`` (the server's ``VEILLEE_WEBSOCKET``), ``--python other-venv/bin/python``
(the server of another install, e.g. the code before a change).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from _server import Served, cpu_seconds, load, make_tables, raise_open_files, servers
from websockets.asyncio.client import ClientConnection, connect

PACINGS = {
    "full": {"VEILLEE_BOT_DELAY_MS": "0", "VEILLEE_TRICK_PAUSE_MS": "0"},
    "normal": {},
    "spread": {},
    "human": {},
}
"""The server's settings of each pacing."""
THINK_S = {"human": (1.0, 3.0)}
"""How long the person thinks before each change, by pacing: drawn evenly between the two
(``human``: about 2 s); at once when not given."""
SPREAD_S = {"spread": 0.9 + 1.2, "human": 0.9 + 1.2}
"""Seconds over which the tables' first changes are spread, by pacing (one cycle of the default
pacing: ``bot_delay_ms`` 900 and ``trick_pause_ms`` 1,200); in step when not given."""
OPEN_AT_ONCE = 100
"""Sockets opened (and tables made) concurrently."""


@dataclass
class Tally:
    """What the sockets saw in one phase."""

    phase: str = "idle"
    pongs: int = 0
    changes: int = 0
    acks: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    quiet: list[float] = field(default_factory=list)
    """Round trips of the quiet seats' pings during play (s)."""


class Seat:
    """One table page: seat 0 of a computer table, on its own socket."""

    def __init__(
        self,
        ws: ClientConnection,
        token: str,
        tally: Tally,
        rng: random.Random,
        think: tuple[float, float] | None = None,
    ):
        self.ws = ws
        self.think = think
        """Seconds the person thinks before a change, drawn between the two (None: at once)."""
        self.token = token
        self.tally = tally
        self.rng = rng
        self.version = -1
        self.state: dict[str, Any] | None = None
        self.acted_on = -1
        self.not_before = 0.0
        """``time.perf_counter()`` before which this seat sends nothing (a spread start)."""
        self.sent: dict[str, float] = {}
        self.ids = itertools.count()
        self.pending: asyncio.Task[None] | None = None

    async def greet(self) -> None:
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        while self.state is None:
            self._take(json.loads(await self.ws.recv()))

    async def run(self) -> None:
        """Answer every frame until the socket closes or the task is cancelled."""
        with contextlib.suppress(Exception):
            async for text in self.ws:
                message = json.loads(text)
                self._take(message)
                if self.tally.phase == "ping" and message["type"] == "pong":
                    self.tally.pongs += 1
                    await self.ping()
                elif self.tally.phase == "play":
                    if self.think is None:
                        await self.play()
                    elif self.version > self.acted_on:
                        self.pending = asyncio.create_task(self.play())

    async def ping(self) -> None:
        await self.ws.send('{"type":"ping"}')

    def _take(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "state":
            if message["version"] > self.version:
                if self.version >= 0 and self.tally.phase == "play":
                    self.tally.changes += message["version"] - self.version
                self.version = message["version"]
                self.state = message
        elif kind == "ack":
            sent = self.sent.pop(message["client_id"], None)
            if sent is not None and self.tally.phase == "play":
                self.tally.acks.append(time.perf_counter() - sent)
        elif kind == "error":
            code = message["code"]
            self.tally.errors[code] = self.tally.errors.get(code, 0) + 1
            self.sent.pop(message.get("client_id") or "", None)
            self.acted_on = -1  # the state that follows an error says what to do now

    async def play(self) -> None:
        """Send the change the current state calls for, once per version (after thinking, if
        the person thinks)."""
        state = self.state
        if state is None or self.version <= self.acted_on or time.perf_counter() < self.not_before:
            return
        if self.think is not None:
            version = self.version
            self.acted_on = version  # thinking about this one
            await asyncio.sleep(self.rng.uniform(*self.think))
            if self.version != version or self.tally.phase != "play":
                return  # the table moved on meanwhile: its new state is thought about anew
            state = self.state
        view = state["view"]
        deal = view["deal"]
        if deal["to_act"] == state["seat"] and deal["legal"]:
            change: dict[str, Any] = {"type": "act", "action": self.rng.choice(deal["legal"])}
        elif view["match"]["over"]:
            change = {"type": "new_match"}
        elif deal["to_act"] is None:
            change = {"type": "next"}
        else:
            return  # the computer is to act
        self.acted_on = self.version
        client_id = f"c{next(self.ids)}"
        change["client_id"] = client_id
        if change["type"] != "new_match":
            change["version"] = self.version
        self.sent[client_id] = time.perf_counter()
        await self.ws.send(json.dumps(change))


class QuietSeat(Seat):
    """A person who only looks at a table where nothing happens (a computer table whose seat 0
    does not play): during play it pings every 200 ms, as a page's heartbeat would, and notes
    each round trip (the latency every person feels whatever else the server does)."""

    async def run(self) -> None:
        self.pong = asyncio.Event()
        with contextlib.suppress(Exception):
            async for text in self.ws:
                if json.loads(text)["type"] == "pong":
                    self.pong.set()

    async def beat(self) -> None:
        """Ping every 200 ms while the tally plays, noting the round trips."""
        while self.tally.phase in ("settle", "play"):
            started = time.perf_counter()
            self.pong.clear()
            await self.ws.send('{"type":"ping"}')
            await self.pong.wait()
            if self.tally.phase == "play":
                self.tally.quiet.append(time.perf_counter() - started)
            await asyncio.sleep(max(0.0, 0.2 - (time.perf_counter() - started)))


async def open_seats(
    tables: list[tuple[Served, dict[str, Any]]],
    tally: Tally,
    stack: contextlib.AsyncExitStack,
    kind: type[Seat] = Seat,
    think: tuple[float, float] | None = None,
) -> list[Seat]:
    gate = asyncio.Semaphore(OPEN_AT_ONCE)
    rng = random.Random(20261130)

    async def one(where: Served, table: dict[str, Any]) -> Seat:
        async with gate:
            ws = await stack.enter_async_context(
                connect(
                    f"{where.ws}/ws/tables/{table['table_id']}",
                    ping_interval=None,
                    max_size=2**20,
                    open_timeout=60,
                )
            )
            seat = kind(ws, table["token"], tally, random.Random(rng.random()), think)
            await seat.greet()
            return seat

    return list(await asyncio.gather(*(one(w, t) for w, t in tables)))


def percentile(values: list[float], p: int) -> float:
    """The ``p``-th percentile of ``values`` (NaN if there are none)."""
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


async def first_change(seat: Seat, delay: float) -> None:
    """Let ``seat`` play from ``delay`` seconds on."""
    seat.not_before = time.perf_counter() + delay
    await asyncio.sleep(delay)
    await seat.play()


async def measure(
    served: list[Served],
    tables: int,
    ping_s: float,
    play_s: float,
    spread_s: float = 0.0,
    think: tuple[float, float] | None = None,
    quiet: int = 0,
    level: str | None = None,
    searching: int = 0,
) -> dict[str, Any]:
    """Make ``tables`` tables (at the computer's ``level``), then ping/pong for ``ping_s`` and
    play for ``play_s`` seconds, the tables' first changes spread at random over ``spread_s``
    seconds (0: at once), the person thinking ``think`` seconds before each change. Beside
    them ``quiet`` seats of tables where nothing happens ping every 200 ms during play, and
    ``searching`` strong tables played at once by their person keep the workers searching
    (neither counted in the changes, acks or CPU per change)."""
    tally, busy = Tally(), Tally()
    made = await make_tables(served, tables, level=level)
    calm = await make_tables(served, quiet)
    strong = await make_tables(served, searching, level="strong")
    async with contextlib.AsyncExitStack() as stack:
        seats = await open_seats(made, tally, stack, think=think)
        quiet_seats = await open_seats(calm, tally, stack, kind=QuietSeat)
        searchers = await open_seats(strong, busy, stack)
        runners = [asyncio.create_task(seat.run()) for seat in seats + quiet_seats + searchers]
        try:
            await asyncio.sleep(0.5)
            tally.phase = "ping"
            await asyncio.gather(*(seat.ping() for seat in seats))
            start = time.perf_counter()
            await asyncio.sleep(ping_s)
            pongs, ping_wall = tally.pongs, time.perf_counter() - start
            tally.phase = "settle"
            await asyncio.sleep(0.5)
            tally.errors.clear()
            beats = [asyncio.create_task(q.beat()) for q in quiet_seats]  # type: ignore[attr-defined]
            busy.phase = "play"
            await asyncio.gather(*(s.play() for s in searchers))
            cpu0 = sum(cpu_seconds(s.pid) for s in served)
            own0 = sum(cpu_seconds(s.pid, started=False) for s in served)
            tally.phase = "play"
            start = time.perf_counter()
            spread = random.Random(20261130)
            starting = [
                asyncio.create_task(first_change(s, spread.uniform(0, spread_s))) for s in seats
            ]
            await asyncio.sleep(play_s)
            await asyncio.gather(*starting)
            tally.phase = busy.phase = "stop"
            wall = time.perf_counter() - start
            await asyncio.gather(*beats)
            cpu = sum(cpu_seconds(s.pid) for s in served) - cpu0
            own = sum(cpu_seconds(s.pid, started=False) for s in served) - own0
        finally:
            for task in runners:
                task.cancel()
            await asyncio.gather(*runners, return_exceptions=True)
    pingpong = pongs / ping_wall
    changes = tally.changes / wall
    return {
        "tables": tables,
        "pingpong": pingpong,
        "changes": changes,
        "ratio": changes / pingpong,
        "p50": percentile(tally.acks, 50) * 1000,
        "p99": percentile(tally.acks, 99) * 1000,
        "cpu_ms": 1000 * cpu / max(1, tally.changes),
        # (the two totals are read a moment apart: a difference below zero is that moment)
        "started_ms": 1000 * max(0.0, cpu - own) / max(1, tally.changes),
        "acks": len(tally.acks),
        "quiet_p50": percentile(tally.quiet, 50) * 1000,
        "quiet_p99": percentile(tally.quiet, 99) * 1000,
        "quiet_n": len(tally.quiet),
        "searched": busy.changes,
        "errors": dict(tally.errors),
        "load": load(),
    }


def report(label: str, r: dict[str, Any]) -> None:
    errors = f", errors {r['errors']}" if r["errors"] else ""
    print(
        f"{label} {r['tables']:>5} tables: {r['changes']:7,.0f} changes/s, ping/pong "
        f"{r['pingpong']:7,.0f}/s, ratio {100 * r['ratio']:5.1f} %, ack p50 {r['p50']:6.1f} ms "
        f"p99 {r['p99']:7.1f} ms, server CPU {r['cpu_ms']:.2f} ms/change "
        f"(workers {r['started_ms']:.2f}) "
        + (
            f"quiet ping p50 {r['quiet_p50']:.1f} ms p99 {r['quiet_p99']:.1f} ms "
            f"({r['quiet_n']} pings) "
            if r["quiet_n"]
            else ""
        )
        + (f"[{r['searched']} strong changes beside] " if r["searched"] else "")
        + f"({r['acks']} acks{errors}; {r['load']})",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="the issue's sizes and pacings")
    parser.add_argument("--tables", help="e.g. 50,200,1000 (short: 50,200)")
    parser.add_argument("--pacing", help="full, normal, spread, or several (short: full)")
    parser.add_argument("--seconds", type=float, help="play per run (short: 4 s, full: 10 s)")
    parser.add_argument("--ping-seconds", type=float, help="ping/pong per run (2 s, full: 3 s)")
    parser.add_argument("--database-url", help="PostgreSQL (postgresql+asyncpg://…)")
    parser.add_argument("--redis-url", help="Redis (redis://…)")
    parser.add_argument("--processes", default="1", help="server processes, e.g. 1,2,3")
    parser.add_argument("--websocket", help="VEILLEE_WEBSOCKET for the server (default: its own)")
    parser.add_argument("--python", help="the server's interpreter (another checkout's venv)")
    parser.add_argument("--quiet", type=int, default=20, help="quiet seats pinging (20)")
    parser.add_argument("--level", help="the computer's level of the played tables")
    parser.add_argument("--workers", help="VEILLEE_WORKERS for the server (its pool's size)")
    parser.add_argument("--budget", type=int, help="the strong level's budget (Chouine)")
    parser.add_argument(
        "--searching", type=int, default=0, help="strong tables beside, searching without pause"
    )
    args = parser.parse_args()
    full = (
        ("50,200,1000", "full,normal,spread", 10.0, 3.0)
        if args.full
        else ("50,200", "full", 4.0, 2.0)
    )
    args.tables = args.tables or full[0]
    args.pacing = args.pacing or full[1]
    args.seconds = args.seconds or full[2]
    args.ping_seconds = args.ping_seconds or full[3]
    counts = [int(n) for n in args.tables.split(",")]
    processes = [int(n) for n in args.processes.split(",")]
    if max(processes) > 1 and not (args.database_url and args.redis_url):
        parser.error("several processes need --database-url and --redis-url")
    raise_open_files(4 * max(counts) + 1024)
    env = {"VEILLEE_MAX_MESSAGES_PER_SECOND": "100000"}
    if args.database_url:
        env["VEILLEE_DATABASE_URL"] = args.database_url
    if args.redis_url:
        env["VEILLEE_REDIS_URL"] = args.redis_url
    if args.websocket:
        env["VEILLEE_WEBSOCKET"] = args.websocket
    if args.workers:
        env["VEILLEE_WORKERS"] = args.workers
    if args.budget:
        env["VEILLEE_SEARCH_BUDGETS"] = json.dumps({"chouine": args.budget})
    store = ("PostgreSQL" if args.database_url else "SQLite") + ("+Redis" if args.redis_url else "")
    for pacing in args.pacing.split(","):
        for count in processes:
            for tables in counts:
                with servers(count, {**env, **PACINGS[pacing]}, args.python) as served:
                    result = asyncio.run(
                        measure(
                            served,
                            tables,
                            args.ping_seconds,
                            args.seconds,
                            SPREAD_S.get(pacing, 0),
                            THINK_S.get(pacing),
                            args.quiet,
                            args.level,
                            args.searching,
                        )
                    )
                report(f"{store} x{count} {pacing:6}", result)


if __name__ == "__main__":
    main()
