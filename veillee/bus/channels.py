"""The two bus implementations and :func:`open_bus`."""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any, Protocol


class Bus(Protocol):
    """Publish/subscribe on named channels."""

    async def publish(self, channel: str, message: str) -> None:
        """Send ``message`` to every current subscriber of ``channel`` (in every process)."""

    def subscribe(self, channel: str) -> contextlib.AbstractAsyncContextManager[asyncio.Queue[str]]:
        """Context manager yielding a queue that receives the channel's messages from now on."""

    async def close(self) -> None:
        """Stop delivering and release connections."""


class InProcessBus:
    """The embedded default: subscribers are asyncio queues in this process."""

    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue[str]]] = defaultdict(set)

    async def publish(self, channel: str, message: str) -> None:
        self._deliver(channel, message)

    def _deliver(self, channel: str, message: str) -> None:
        for queue in list(self._queues.get(channel, ())):
            queue.put_nowait(message)

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[asyncio.Queue[str]]:
        queue: asyncio.Queue[str] = asyncio.Queue()
        self._queues[channel].add(queue)
        try:
            yield queue
        finally:
            self._queues[channel].discard(queue)
            if not self._queues[channel]:
                del self._queues[channel]

    async def close(self) -> None:
        self._queues.clear()


class RedisBus(InProcessBus):
    """Redis pub/sub: one connection per process listens to the channels this process holds
    subscribers for, and hands each message to the local queues."""

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self._redis: Any = redis.from_url(url, decode_responses=True)
        self._pubsub: Any = self._redis.pubsub(ignore_subscribe_messages=True)
        self._reader: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    async def publish(self, channel: str, message: str) -> None:
        await self._redis.publish(channel, message)

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[asyncio.Queue[str]]:
        queue: asyncio.Queue[str] = asyncio.Queue()
        async with self._lock:
            first = channel not in self._queues
            self._queues[channel].add(queue)
            if first:
                await self._pubsub.subscribe(channel)
            if self._reader is None:
                self._reader = asyncio.create_task(self._read())
        try:
            yield queue
        finally:
            async with self._lock:
                self._queues[channel].discard(queue)
                if not self._queues[channel]:
                    del self._queues[channel]
                    await self._pubsub.unsubscribe(channel)

    async def _read(self) -> None:
        while True:
            try:
                msg = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(0.5)
                continue
            if msg is None:
                if not self._pubsub.subscribed:
                    await asyncio.sleep(0.05)
                continue
            if msg.get("type") == "message":
                self._deliver(msg["channel"], msg["data"])

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._redis.aclose()
        await super().close()


def open_bus(redis_url: str | None) -> Bus:
    """The bus for these settings: Redis if a URL is given, else in-process."""
    return RedisBus(redis_url) if redis_url else InProcessBus()
