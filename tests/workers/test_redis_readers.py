"""The two loops that read Redis (a server's answers from the workers, the bus's messages) stop
when closed even when the cancellation is swallowed inside a read: redis-py's read timeout can
take a cancellation that lands as it expires for its own, and return as a timed-out read does.
Before, the loop read on for ever and the server's shutdown waited for it (a CI hang of
``tests/scaleout/test_workers_over_redis.py``). No Redis here: the reads are stand-ins."""

from __future__ import annotations

import asyncio
from typing import Any

from veillee.bus.channels import RedisBus
from veillee.workers.streams import StreamDeciders


class SwallowingReads:
    """Reads that wait as a blocking read does and give nothing; the first cancellation that
    lands in one is swallowed (the read returns as a timed-out one), later ones go through."""

    def __init__(self) -> None:
        self.reads = 0
        self.swallowed = 0

    async def read(self, *args: Any, **kwargs: Any) -> None:
        self.reads += 1
        try:
            await asyncio.sleep(0.02)
        except asyncio.CancelledError:
            if self.swallowed:
                raise
            self.swallowed += 1
        return None

    async def nothing(self, *args: Any, **kwargs: Any) -> None:
        return None


class FakeRedis(SwallowingReads):
    def __getattr__(self, name: str) -> Any:
        return self.read if name == "xread" else self.nothing


class FakePubSub(SwallowingReads):
    subscribed = True

    def __getattr__(self, name: str) -> Any:
        return self.read if name == "get_message" else self.nothing


async def closed_in_time(close: Any, reader: asyncio.Task[None]) -> None:
    """Run ``close`` and assert it ended within 3 s by itself (the loop's reads last 1 s at
    most); if not, cancel the reader again (that cancellation goes through) and fail."""
    closing = asyncio.ensure_future(close)
    done, _ = await asyncio.wait({closing}, timeout=3)
    if closing not in done:
        reader.cancel()
        await asyncio.gather(closing, return_exceptions=True)
    assert closing in done, "close waited on a reader that read on"
    closing.result()


async def read_then_close(owner: StreamDeciders | RedisBus, fake: SwallowingReads) -> None:
    """Start ``owner``'s reading loop on ``fake`` reads, close it while it reads (every turn
    of the loop is in a read), and assert it stopped by itself with one cancellation
    swallowed."""
    owner._reader = asyncio.create_task(owner._read())
    while fake.reads < 3:
        await asyncio.sleep(0.01)
    reader = owner._reader
    await closed_in_time(owner.close(), reader)
    assert fake.swallowed == 1
    assert reader.done()


async def test_the_answers_reader_stops_when_its_cancellation_is_swallowed() -> None:
    deciders = StreamDeciders("redis://127.0.0.1:1")
    deciders._redis = fake = FakeRedis()
    await read_then_close(deciders, fake)


async def test_the_bus_reader_stops_when_its_cancellation_is_swallowed() -> None:
    bus = RedisBus("redis://127.0.0.1:1")
    bus._pubsub = fake = FakePubSub()
    bus._redis = FakeRedis()
    await read_then_close(bus, fake)
