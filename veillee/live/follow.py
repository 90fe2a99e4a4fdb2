"""One bus listener per record and process, handing each message to the parts that follow it.

Everything said about a live record across processes goes on the record's one bus channel
(``"<kind>:<id>"``: a table's ``"table:…"``, a sheet's ``"sheet:…"``) as ``"<topic> <body>"``:

========== ================================================ ====================================
topic      body                                             said by
========== ================================================ ====================================
``v``      a new version (``"12"``), or ``"gone"``           the fan-out (:mod:`.fanout`)
``here``   who this process holds sockets for               presence (:mod:`.presence`)
``voice``  this process's seats in voice, the switch        voice (:mod:`.voice`)
``chat``   the seq of a line just said (``"7"``)             a table's chat (:mod:`.chat`)
``signal`` a voice offer, answer or candidates for one seat  voice
========== ================================================ ====================================

A process listens to a record's channel once (:class:`Follower`), whatever number of parts
follow it, and hands each message to the handlers of its topic. A handler is called in the
event loop and must return at once (it starts a task of its own if it has waiting to do).

>>> import asyncio
>>> from veillee.bus import InProcessBus
>>> async def demo() -> list[str]:
...     follower, heard = Follower(InProcessBus()), []
...     async with follower.follow("table:t1", "v", heard.append):
...         await follower.publish("table:t1", "v", "3")
...         await follower.publish("table:t1", "chat", "1")  # no handler of that topic here
...     return heard
>>> asyncio.run(demo())
['3']
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from veillee.bus import Bus

Hear = Callable[[str], None]
"""A handler: called with a message's body; returns at once."""

log = logging.getLogger(__name__)


@dataclass(eq=False, slots=True)
class _Channel:
    """One channel this process listens to: its handlers by topic, the bus listening (``ready``
    until it listens)."""

    handlers: dict[str, list[Hear]] = field(default_factory=dict)
    listening: contextlib.AbstractAsyncContextManager[None] | None = None
    ready: asyncio.Future[None] | None = None

    def add(self, topic: str, hear: Hear) -> None:
        self.handlers.setdefault(topic, []).append(hear)

    def discard(self, topic: str, hear: Hear) -> None:
        found = self.handlers.get(topic, [])
        if hear in found:
            found.remove(hear)
        if not found:
            self.handlers.pop(topic, None)


class _Following:
    """:meth:`Follower.follow`'s context (a small object: one is held per part and record)."""

    __slots__ = ("channel", "follower", "hear", "state", "topic")

    def __init__(self, follower: Follower, channel: str, topic: str, hear: Hear) -> None:
        self.follower, self.channel, self.topic, self.hear = follower, channel, topic, hear
        self.state: _Channel | None = None

    async def __aenter__(self) -> None:
        self.state = await self.follower._enter(self.channel, self.topic, self.hear)

    async def __aexit__(self, *exc: object) -> None:
        state, self.state = self.state, None
        if state is not None:
            await self.follower._leave(self.channel, state, self.topic, self.hear)


class Follower:
    """This process's listening to records' channels on ``bus``: one bus listener per channel,
    each message handed to the handlers of its topic."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._channels: dict[str, _Channel] = {}

    async def publish(self, channel: str, topic: str, body: str) -> None:
        """Say ``body`` under ``topic`` on ``channel``, to every process that follows it (this
        one too: a part that said it recognises its own words)."""
        await self.bus.publish(channel, f"{topic} {body}")

    def follow(
        self, channel: str, topic: str, hear: Hear
    ) -> contextlib.AbstractAsyncContextManager[None]:
        """Hand ``hear`` the body of every message of ``topic`` on ``channel`` while the context
        is open. Entered once the bus listens, so nothing said afterwards is missed."""
        return _Following(self, channel, topic, hear)

    def following(self, channel: str) -> bool:
        """Whether this process listens to ``channel`` now."""
        return channel in self._channels

    async def _enter(self, channel: str, topic: str, hear: Hear) -> _Channel:
        state = self._channels.get(channel)
        first = state is None
        if state is None:
            state = self._channels[channel] = _Channel()
            state.ready = asyncio.get_running_loop().create_future()
        state.add(topic, hear)
        try:
            if first:
                await self._listen(channel, state)
            elif state.ready is not None:
                await asyncio.shield(state.ready)
        except BaseException:
            await self._leave(channel, state, topic, hear)
            raise
        return state

    async def _leave(self, channel: str, state: _Channel, topic: str, hear: Hear) -> None:
        state.discard(topic, hear)
        if not state.handlers and self._channels.get(channel) is state:
            del self._channels[channel]
            listening, state.listening = state.listening, None
            if listening is not None:
                await listening.__aexit__(None, None, None)

    async def _listen(self, channel: str, state: _Channel) -> None:
        listening = self.bus.listen(channel, functools.partial(self._heard, state))
        try:
            await listening.__aenter__()
            state.listening = listening
        except Exception:
            # Without the bus this process still shows its own changes; say why the others'
            # words do not reach it.
            log.exception("bus listener for %s failed", channel)
        finally:
            if state.ready is not None and not state.ready.done():
                state.ready.set_result(None)
            state.ready = None

    @staticmethod
    def _heard(state: _Channel, message: str) -> None:
        topic, _, body = message.partition(" ")
        for hear in list(state.handlers.get(topic, ())):
            try:
                hear(body)
            except Exception:
                log.exception("a handler of %r failed on %r", topic, message[:200])
