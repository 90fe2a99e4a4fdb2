"""Table chat delivery in one process (SQLite, in-process sockets): a Charlemagne table of four
people, each seat in turn says a line; the time from sending it until every other seat's socket
has it, p50 / p99 / max, and lines per second. The rate limit is lifted for the run (people say
at most 5 lines in 10 s each)."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

import httpx
from httpx_ws import AsyncWebSocketSession, aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from veillee.config import Settings
from veillee.live import chat
from veillee.tables import HUMAN
from veillee.web import create_app


async def next_chat(ws: AsyncWebSocketSession) -> None:
    while json.loads(await ws.receive_text())["type"] != "chat":
        pass


async def run(lines: int) -> list[float]:
    chat.BURST = lines + 1
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), public_origins=["http://t"])
        settings.max_messages_per_second = 10_000.0
        app = create_app(settings)
        async with app.router.lifespan_context(app), AsyncExitStack() as stack:
            record, grants = await app.state.tables.create_table("charlemagne", (HUMAN,) * 4)
            transport = ASGIWebSocketTransport(app)
            client = await stack.enter_async_context(
                httpx.AsyncClient(transport=transport, base_url="http://t")
            )
            path = f"/ws/tables/{record.id}"
            sockets = [await stack.enter_async_context(aconnect_ws(path, client)) for _ in grants]
            for ws, grant in zip(sockets, grants, strict=True):
                await ws.send_text(json.dumps({"type": "hello", "token": grant.token}))
                await ws.send_text(json.dumps({"type": "chat_sync", "after": 0}))
                await ws.send_text(json.dumps({"type": "ping"}))
                while json.loads(await ws.receive_text())["type"] != "pong":
                    pass
            times = []
            for n in range(lines):
                speaker = sockets[n % 4]
                line = {"type": "chat", "client_id": f"c{n}", "text": f"line {n}"}
                start = time.perf_counter()
                await speaker.send_text(json.dumps(line))
                await asyncio.gather(*(next_chat(ws) for ws in sockets if ws is not speaker))
                times.append(time.perf_counter() - start)
                await next_chat(speaker)  # its own line comes back too (after its ack)
            return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=400)
    args = parser.parse_args()
    times = asyncio.run(run(args.lines))
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    print(
        f"{len(times)} lines to 3 other seats: p50 {statistics.median(times) * 1000:.2f} ms, "
        f"p99 {p99 * 1000:.2f} ms, max {ordered[-1] * 1000:.2f} ms, "
        f"{len(times) / sum(times):.0f} lines/s"
    )


if __name__ == "__main__":
    main()
