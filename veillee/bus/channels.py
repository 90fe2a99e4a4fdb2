"""The two bus implementations and :func:`open_bus`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)


class Bus(Protocol):
    """Publish/subscribe on named channels."""

    async def publish(self, channel: str, message: str) -> None:
        """Send ``message`` to every current subscriber of ``channel`` (in every process)."""

    def subscribe(self, channel: str) -> contextlib.AbstractAsyncContextManager[asyncio.Queue[str]]:
        """Context manager yielding a queue that receives the channel's messages from now on."""

    def listen(
        self, channel: str, deliver: Callable[[str], None]
    ) -> contextlib.AbstractAsyncContextManager[None]:
        """Context manager: ``deliver(message)`` is called, in this process's event loop, with
        each message of ``channel`` from the time it is entered; it must return at once. (What
        :meth:`subscribe` does without a queue: nothing is held per listener but ``deliver``.)"""

    async def close(self) -> None:
        """Stop delivering and release connections."""


class InProcessBus:
    """The embedded default: subscribers are asyncio queues in this process."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[Callable[[str], None]]] = defaultdict(set)

    async def publish(self, channel: str, message: str) -> None:
        self._deliver(channel, message)

    def _deliver(self, channel: str, message: str) -> None:
        for deliver in list(self._listeners.get(channel, ())):
            deliver(message)

    def listen(
        self, channel: str, deliver: Callable[[str], None]
    ) -> contextlib.AbstractAsyncContextManager[None]:
        # A small object rather than a generator: one is held per record followed.
        return _Listening(self, channel, deliver)

    def _forget(self, channel: str, deliver: Callable[[str], None]) -> bool:
        """Drop one listener; True if it was the channel's last."""
        self._listeners[channel].discard(deliver)
        if self._listeners[channel]:
            return False
        del self._listeners[channel]
        return True

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[asyncio.Queue[str]]:
        queue: asyncio.Queue[str] = asyncio.Queue()
        async with self.listen(channel, queue.put_nowait):
            yield queue

    async def close(self) -> None:
        self._listeners.clear()


class _Listening:
    """:meth:`InProcessBus.listen`'s context: ``deliver`` hears ``channel`` while it is open."""

    __slots__ = ("bus", "channel", "deliver")

    def __init__(self, bus: InProcessBus, channel: str, deliver: Callable[[str], None]) -> None:
        self.bus, self.channel, self.deliver = bus, channel, deliver

    async def __aenter__(self) -> None:
        self.bus._listeners[self.channel].add(self.deliver)

    async def __aexit__(self, *exc: object) -> None:
        self.bus._forget(self.channel, self.deliver)


class RedisBus(InProcessBus):
    """Redis pub/sub: one connection per process listens to the channels this process holds
    subscribers for, and hands each message to the local queues.

    :meth:`publish` returns at once: the messages published meanwhile are sent together, in
    order, in one pipeline (one round trip for a burst), so that nobody's acknowledgement waits
    for Redis. A batch Redis refuses is logged and dropped (the bus only says "look again"; a
    page that reconnects gets the record from the store)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis.asyncio as redis

        self._redis: Any = redis.from_url(url, decode_responses=True)
        self._pubsub: Any = self._redis.pubsub(ignore_subscribe_messages=True)
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self._lock = asyncio.Lock()
        self._outbox: list[tuple[str, str]] = []
        self._sender: asyncio.Task[None] | None = None

    async def publish(self, channel: str, message: str) -> None:
        self._outbox.append((channel, message))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send())

    async def _send(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for channel, message in batch:
                        pipe.publish(channel, message)
                    await pipe.execute()
            except Exception:
                log.exception("could not publish %d message(s) on Redis", len(batch))

    @contextlib.asynccontextmanager
    async def listen(self, channel: str, deliver: Callable[[str], None]) -> AsyncIterator[None]:
        async with self._lock:
            first = channel not in self._listeners
            self._listeners[channel].add(deliver)
            if first:
                await self._pubsub.subscribe(channel)
            if self._reader is None:
                self._reader = asyncio.create_task(self._read())
        try:
            yield
        finally:
            async with self._lock:
                if self._forget(channel, deliver):
                    await self._pubsub.unsubscribe(channel)

    async def _read(self) -> None:
        # (close stops the loop by a flag too: redis-py's read timeout can swallow a
        # cancellation that lands as it expires, and the loop would read on for ever)
        while not self._closing:
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
        if self._sender is not None:
            await asyncio.gather(self._sender, return_exceptions=True)
        if self._reader is not None:
            self._closing = True
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
