"""Server memory per idle seat: the resident memory `veillee serve` gains for each table page
that is open and quiet (issue 12: at most 20 KiB a seat at 2,000 and 10,000 sockets).

One server (SQLite, the default pacing) makes the largest number of Chouine computer tables
through ``POST /api/tables``; its resident memory (VmRSS, /proc) is read once they exist. Then
one websocket per table opens on 127.0.0.1 and says ``hello`` as a table page does, waits for
its ``state``, and from then on only pings every 10 s as the page does (the server closes a
silent socket). Once every socket of a step is open and the server has been quiet for a moment
(the computer plays its first move at the default pacing when it is to lead), the resident
memory is read again. *per seat* = (resident now − resident before any socket) / sockets
opened; the sockets still open then, and any that failed to open, are counted too. The steps
add sockets to those already open (2,000, then up to 10,000). The client offers per-message
deflate as a browser does; the server decides.

The open-file limit of this process (and of the server it starts) is raised to fit.

Run alone: ``.venv/bin/python bench/idle_seats.py`` is the short run of ``make bench`` (2,000
seats); ``--full`` is the issue's (2,000 then 10,000). ``--seats 500,2000`` chooses the steps,
``--python other-venv/bin/python`` measures the server of another install.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import time

from _server import Served, load, make_tables, memory, raise_open_files, servers
from websockets.asyncio.client import ClientConnection, connect
from websockets.protocol import State

OPEN_AT_ONCE = 100
PING_EVERY_S = 10.0
"""A table page pings every 10 s (the server closes a socket silent for ``silence_timeout_s``)."""
QUIET_S = 3.0
"""How long to wait after the last socket of a step opened before reading the memory (the
computer's first moves at the default pacing, 0.9 s, are over by then)."""


async def open_seat(
    served: Served, table: dict[str, str], stack: contextlib.AsyncExitStack
) -> ClientConnection:
    ws = await stack.enter_async_context(
        connect(
            f"{served.ws}/ws/tables/{table['table_id']}",
            ping_interval=None,
            max_size=2**20,
            open_timeout=120,
        )
    )
    await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
    while json.loads(await ws.recv())["type"] != "state":
        pass
    return ws


async def keep_pinging(seats: list[ClientConnection]) -> None:
    """Ping every open socket every :data:`PING_EVERY_S`, as the page does (pongs are left
    unread in the client: a few bytes each)."""
    while True:
        await asyncio.sleep(PING_EVERY_S)
        for ws in list(seats):
            with contextlib.suppress(Exception):
                await ws.send('{"type":"ping"}')


async def measure(served: Served, steps: list[int]) -> list[tuple[int, float, float]]:
    """(sockets, resident MiB, KiB per seat) after each step."""
    tables = [table for _, table in await make_tables([served], max(steps), OPEN_AT_ONCE)]
    await asyncio.sleep(QUIET_S)
    before = memory(served.pid)[0]
    print(f"{max(steps):,} tables made, no socket open: {before:.1f} MiB resident", flush=True)
    results = []
    gate = asyncio.Semaphore(OPEN_AT_ONCE)

    seats: list[ClientConnection] = []

    failed: list[str] = []

    async def gated(table: dict[str, str], stack: contextlib.AsyncExitStack) -> None:
        async with gate:
            try:
                seats.append(await open_seat(served, table, stack))
            except Exception as exc:  # counted and shown: a seat the server did not keep
                failed.append(type(exc).__name__)

    pinging = asyncio.create_task(keep_pinging(seats))
    async with contextlib.AsyncExitStack() as stack:
        stack.callback(pinging.cancel)
        opened = 0
        for step in steps:
            start = time.perf_counter()
            await asyncio.gather(*(gated(t, stack) for t in tables[opened:step]))
            took = time.perf_counter() - start
            opened = step
            await asyncio.sleep(QUIET_S)
            rss = memory(served.pid)[0]
            per_seat = (rss - before) * 1024 / max(1, len(seats))
            still_open = sum(ws.state is State.OPEN for ws in seats)
            results.append((step, rss, per_seat))
            print(
                f"{step:>6,} idle seats: {rss:7.1f} MiB resident, {per_seat:5.1f} KiB per seat "
                f"({still_open:,} open, {len(failed)} failed to open {sorted(set(failed))}; "
                f"opened in {took:.1f} s; {load()})",
                flush=True,
            )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="2,000 then 10,000 seats")
    parser.add_argument("--seats", help="e.g. 500,2000 (short: 2000)")
    parser.add_argument("--websocket", help="VEILLEE_WEBSOCKET for the server (default: its own)")
    parser.add_argument("--python", help="the server's interpreter (another checkout's venv)")
    args = parser.parse_args()
    seats = args.seats or ("2000,10000" if args.full else "2000")
    steps = sorted(int(n) for n in seats.split(","))
    limit = raise_open_files(2 * max(steps) + 1024)
    if limit < max(steps) + 256:
        parser.error(f"the open-file limit is {limit}: too low for {max(steps)} sockets")
    env = {"VEILLEE_WEBSOCKET": args.websocket} if args.websocket else {}
    with servers(1, env, args.python) as (served,):
        asyncio.run(measure(served, steps))


if __name__ == "__main__":
    main()
