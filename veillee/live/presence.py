"""Who is at a live record: the viewer keys (a table's seats) with a socket open, in every
process (DESIGN.md §4: any number of ``veillee serve`` behind one address).

Presence is one family of :mod:`veillee.live.claims` (topic ``here`` on the record's channel):
each process claims the viewer key of every socket it holds at the record, and whoever watches
the record (an open socket) is told the whole set whenever it changes (:meth:`Presence.enter`
tells the newcomer at once). A process that died without a word stops counting
:data:`~veillee.live.claims.FORGET_S` after it last said its claims.

Presence also says how long a key has been away (:meth:`Presence.away_for`), as far as this
process has seen the record: a table lets the computer stand in for a seat only once its person
has been gone a while.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Hashable
from typing import Any, Protocol

from veillee.live.claims import FORGET_S, REFRESH_S, Claims, Merged
from veillee.live.follow import Follower

TOPIC = "here"
"""Presence's topic on a record's channel."""
ANSWERS_S = 2.0
"""How long :meth:`Presence.look` waits by default for the other processes to say who they
hold at a record this process does not follow (a push may wait: a loaded process answering late
would have a seat told while its page is open). ``Settings.presence_answers_s`` sets it."""


class Present(Protocol):
    """A socket at a record: its record, its viewer key, and where to tell it who is there."""

    record_id: str
    key: Hashable | None

    def push_presence(self, here: list[Any]) -> None:
        """Who is at the record now; must return at once."""


class Presence:
    """Who is at the records of one kind, in this process and (through ``follower``) the
    others. ``channel(record_id)`` names a record's channel; ``refresh_s`` and ``forget_s`` as
    :class:`~veillee.live.claims.Claims` says; ``answers_s`` how long :meth:`look` gives the
    other processes to answer (:data:`ANSWERS_S`)."""

    def __init__(
        self,
        follower: Follower,
        channel: Callable[[str], str],
        *,
        refresh_s: float = REFRESH_S,
        forget_s: float = FORGET_S,
        answers_s: float = ANSWERS_S,
    ) -> None:
        self.answers_s = answers_s
        self.claims = Claims(
            follower, channel, TOPIC, self._changed, refresh_s=refresh_s, forget_s=forget_s
        )
        self._sockets: dict[str, set[Present]] = {}
        self._since: dict[str, float] = {}
        """When this process began following each record (``time.monotonic``)."""
        self._here: dict[str, set[Any]] = {}
        self._gone_at: dict[str, dict[Any, float]] = {}
        """When each key last went away from each record, as this process saw it."""

    def here(self, record_id: str) -> list[Any]:
        """The viewer keys at ``record_id`` in every process (as far as this one follows it),
        sorted, each once."""
        return list(self.claims.merged(record_id))

    def away_for(self, record_id: str, key: Any) -> float | None:
        """How long ``key`` has been away from ``record_id`` (seconds; 0.0 while it is here),
        as far as this process has followed the record: a key never seen here counts from when
        this process began following it (so the answer is never longer than the truth). None
        when no socket of this process is at the record (it knows nothing)."""
        since = self._since.get(record_id)
        if since is None:
            return None
        if key in self.claims.merged(record_id):
            return 0.0
        return time.monotonic() - self._gone_at.get(record_id, {}).get(key, since)

    async def look(self, record_id: str) -> list[Any]:
        """Who is at ``record_id`` now, in every process: at once when this process follows it
        (it holds a socket there), else after asking the others and giving them
        :attr:`answers_s` seconds to answer (the push of a table nobody here has open). Never
        from the loop's hot path: it may wait."""
        if self.claims.follows(record_id):
            return self.here(record_id)
        await self.claims.observe(record_id)
        try:
            await asyncio.sleep(self.answers_s)
            return self.here(record_id)
        finally:
            await self.claims.unobserve(record_id)

    async def enter(self, socket: Present) -> None:
        """``socket`` is at its record (authenticated, sent its first snapshot): it is told who
        is there now, and again at every change until it leaves."""
        self._since.setdefault(socket.record_id, time.monotonic())
        self._sockets.setdefault(socket.record_id, set()).add(socket)
        await self.claims.hold(socket.record_id, socket, socket.key, True)
        socket.push_presence(self.here(socket.record_id))

    async def leave(self, socket: Present) -> None:
        """``socket`` has gone."""
        sockets = self._sockets.get(socket.record_id)
        if sockets is None or socket not in sockets:
            return
        sockets.discard(socket)
        if not sockets:
            del self._sockets[socket.record_id]
            for known in (self._since, self._here, self._gone_at):
                known.pop(socket.record_id, None)
        await self.claims.drop(socket.record_id, socket)

    async def close(self) -> None:
        """Stop following every record (the process is stopping)."""
        self._sockets.clear()
        for known in (self._since, self._here, self._gone_at):
            known.clear()
        await self.claims.close()

    def _changed(self, record_id: str, merged: Merged) -> None:
        here = list(merged)
        if record_id in self._since:
            now, before = time.monotonic(), self._here.get(record_id, set())
            gone_at = self._gone_at.setdefault(record_id, {})
            for key in before - set(here):
                gone_at[key] = now
            for key in here:
                gone_at.pop(key, None)
            self._here[record_id] = set(here)
        for socket in list(self._sockets.get(record_id, ())):
            socket.push_presence(here)
