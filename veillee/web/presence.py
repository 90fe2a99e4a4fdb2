"""Who is at a live record: the viewer keys (a table's seats) with a socket open, in every
process (DESIGN.md §4: any number of ``veillee serve`` behind one address).

Each process knows its own sockets. It tells the others on the bus channel
``"presence:<kind>:<id>"`` with ``"<process> <keys as JSON>"`` whenever its own set changes, and
again every :data:`BEACON_S` seconds while it holds any: what was heard from another process
lasts :data:`HEARD_FOR_S`, so a process that died without a word (``kill -9``) stops counting
within that time. A process that hears one it did not know answers at once with its own set,
so a newcomer learns who is there without waiting for a beacon.

Whoever watches a record (an open socket) is told the whole set whenever it changes
(:meth:`Presence.enter` tells the newcomer at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Hashable
from typing import Any, Protocol

from veillee.bus import Bus

BEACON_S = 8.0
"""How often a process says again who is at each record it holds sockets for."""
HEARD_FOR_S = 20.0
"""How long what another process said counts without being said again."""

log = logging.getLogger(__name__)


class Present(Protocol):
    """A socket at a record: its record, its viewer key, and where to tell it who is there."""

    record_id: str
    key: Hashable | None

    def push_presence(self, here: list[Any]) -> None:
        """Who is at the record now; must return at once."""


class Presence:
    """Who is at the records of one kind, in this process and (through ``bus``) the others.
    ``channel(record_id)`` names a record's presence channel."""

    def __init__(self, bus: Bus, channel: Callable[[str], str]) -> None:
        self._bus = bus
        self._channel = channel
        self._process = secrets.token_hex(6)
        self._sockets: dict[str, set[Present]] = {}
        self._heard: dict[str, dict[str, tuple[list[Any], float]]] = {}
        self._told: dict[str, list[Any]] = {}
        self._listeners: dict[str, asyncio.Task[None]] = {}

    def here(self, record_id: str) -> list[Any]:
        """The viewer keys at ``record_id`` in every process, sorted, each once."""
        keys = {s.key for s in self._sockets.get(record_id, ())}
        now = time.monotonic()
        for their_keys, until in self._heard.get(record_id, {}).values():
            if until > now:
                keys.update(their_keys)
        return sorted(keys, key=repr)

    async def enter(self, socket: Present) -> None:
        """``socket`` is at its record (authenticated, sent its first snapshot)."""
        record_id = socket.record_id
        first = record_id not in self._sockets
        self._sockets.setdefault(record_id, set()).add(socket)
        if first:
            ready = asyncio.Event()
            self._listeners[record_id] = asyncio.create_task(self._listen(record_id, ready))
            await ready.wait()
        else:
            await self._say(record_id)
        socket.push_presence(self.here(record_id))
        self._tell(record_id)

    async def leave(self, socket: Present) -> None:
        """``socket`` has gone."""
        record_id = socket.record_id
        sockets = self._sockets.get(record_id)
        if sockets is None or socket not in sockets:
            return
        sockets.discard(socket)
        if sockets:
            self._tell(record_id)
        else:
            del self._sockets[record_id]
            self._heard.pop(record_id, None)
            self._told.pop(record_id, None)
            listener = self._listeners.pop(record_id, None)
            if listener is not None:
                listener.cancel()
        await self._say(record_id)

    def _tell(self, record_id: str) -> None:
        """Tell this process's sockets at ``record_id`` who is there, if that has changed."""
        here = self.here(record_id)
        if self._told.get(record_id) == here:
            return
        self._told[record_id] = here
        for socket in self._sockets.get(record_id, ()):
            socket.push_presence(here)

    async def _say(self, record_id: str) -> None:
        """Tell the other processes who is at ``record_id`` through this one."""
        mine = sorted({s.key for s in self._sockets.get(record_id, ())}, key=repr)
        try:
            await self._bus.publish(self._channel(record_id), f"{self._process} {json.dumps(mine)}")
        except Exception:
            # Without the bus this process still shows its own sockets.
            log.exception("could not publish presence on %s", self._channel(record_id))

    async def _listen(self, record_id: str, ready: asyncio.Event) -> None:
        try:
            async with self._bus.subscribe(self._channel(record_id)) as queue:
                await self._say(record_id)
                ready.set()
                while True:
                    try:
                        message = await asyncio.wait_for(queue.get(), BEACON_S)
                    except TimeoutError:
                        await self._say(record_id)
                        self._tell(record_id)  # what others said may have lapsed
                        continue
                    await self._hear(record_id, message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("presence listener for %s failed", self._channel(record_id))
        finally:
            ready.set()

    async def _hear(self, record_id: str, message: str) -> None:
        process, _, text = message.partition(" ")
        if process == self._process:
            return
        with contextlib.suppress(ValueError):
            keys = json.loads(text)
            if not isinstance(keys, list):
                return
            heard = self._heard.setdefault(record_id, {})
            new = process not in heard
            if keys:
                heard[process] = (keys, time.monotonic() + HEARD_FOR_S)
            else:
                heard.pop(process, None)
            if new and keys:
                await self._say(record_id)  # a newcomer: tell it who is here
            self._tell(record_id)
