"""Claims: "who is here now" at a live record, across processes (DESIGN.md §4).

Each process knows what it holds itself: the sockets it serves (presence), the seats in voice on
those sockets (voice). It *claims* a key at a record for each (a seat, with a value such as when
it joined), and the record's claims are every process's, merged key by key: the value of the
highest :attr:`Claims.rank` wins (the newest join of a seat, say). A process says its claims on
the record's channel (:mod:`veillee.live.follow`, under the claims' topic) whenever they change
and again every ``refresh_s`` seconds while it holds any; what it said lasts ``forget_s``, so a
process that dies without a word (``kill -9``) stops counting within that time. A process that
starts following a record asks the others for theirs (``ask``), and each answers at once, so a
newcomer knows who is there without waiting for a beacon. A process that lets go of its last
claim at a record says so (an empty claim), and the others drop it at once.

Whoever wants to know is told the merged claims of a record whenever they change (``changed``
at construction). One timer per :class:`Claims` says every record's claims again and lets
lapsed ones go, whatever the number of records.

The wire form of a process's claims is JSON: ``{"p": <process>, "c": [[key, value], ...]}``
(``"ask": true`` from a newcomer); keys and values are JSON values (a seat is an int).

>>> import asyncio
>>> from veillee.bus import InProcessBus
>>> from veillee.live.follow import Follower
>>> async def demo() -> dict[object, object]:
...     bus, seen = InProcessBus(), {}
...     one = Claims(Follower(bus), "table:{}".format, "here", lambda r, m: seen.update({r: m}))
...     two = Claims(Follower(bus), "table:{}".format, "here")
...     await one.hold("t1", "socket a", 0, True)
...     await two.hold("t1", "socket b", 1, True)
...     await asyncio.sleep(0)  # the answers are said in tasks of their own
...     await one.close(); await two.close()
...     return seen
>>> asyncio.run(demo())["t1"]
{0: True, 1: True}
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from veillee.live.follow import Follower

REFRESH_S = 8.0
"""How often a process says its claims again (so that the others know it is alive)."""
FORGET_S = 20.0
"""How long what another process said counts without being said again."""

Merged = dict[Any, Any]
"""A record's claims: key -> value."""
Changed = Callable[[str, Merged], None]
"""Told a record's id and its merged claims whenever they change; returns at once."""

log = logging.getLogger(__name__)


def _no_rank(value: Any) -> int:
    return 0


@dataclass(eq=False, slots=True)
class _Record:
    """One record whose claims this process follows."""

    mine: dict[object, tuple[Any, Any]] = field(default_factory=dict)
    """This process's claims, by holder: (key, value)."""
    heard: dict[str, tuple[list[Any], float]] = field(default_factory=dict)
    """Every other process's claims, as said ([[key, value], ...]), and until when they count
    (``time.monotonic()``)."""
    observers: int = 0
    """Those that follow the record without claiming (they want to know who is here)."""
    told: Merged | None = None
    following: contextlib.AbstractAsyncContextManager[None] | None = None
    said: bool = False
    """This process has said a claim here since it last let go of all of them."""

    @property
    def idle(self) -> bool:
        return not self.mine and not self.observers


class Claims:
    """The claims of one family (``topic``: ``"here"``, ``"voice"``) at the records whose
    channels are ``channel(record_id)``, in this process and (through ``follower``) the others.

    ``changed(record_id, merged)`` hears each record's merged claims when they change. ``rank``
    orders two values claimed for one key (the higher wins; default: any). ``refresh_s`` and
    ``forget_s`` as the module says.
    """

    def __init__(
        self,
        follower: Follower,
        channel: Callable[[str], str],
        topic: str,
        changed: Changed | None = None,
        *,
        rank: Callable[[Any], Any] = _no_rank,
        refresh_s: float = REFRESH_S,
        forget_s: float = FORGET_S,
    ) -> None:
        self.follower = follower
        self.channel = channel
        self.topic = topic
        self.changed = changed
        self.rank = rank
        self.refresh_s = refresh_s
        self.forget_s = forget_s
        self.process = secrets.token_hex(8)
        self._records: dict[str, _Record] = {}
        self._ticker: asyncio.Task[None] | None = None
        self._saying: set[asyncio.Task[None]] = set()

    # ---- what the parts of this process do ------------------------------------------------

    async def hold(self, record_id: str, holder: object, key: Any, value: Any) -> None:
        """``holder`` (a socket, a seat's voice) claims ``key`` at ``record_id`` with
        ``value`` (again: the new value replaces its old claim). Said to the others at once."""
        record = await self._follow(record_id)
        record.mine[holder] = (key, value)
        await self._changed_here(record_id, record)

    async def drop(self, record_id: str, holder: object) -> None:
        """``holder`` lets go of its claim (nothing happens if it held none)."""
        record = self._records.get(record_id)
        if record is None or record.mine.pop(holder, None) is None:
            return
        await self._changed_here(record_id, record)
        await self._unfollow_if_idle(record_id, record)

    async def observe(self, record_id: str) -> None:
        """Follow ``record_id``'s claims without claiming (until :meth:`unobserve`)."""
        record = await self._follow(record_id)
        record.observers += 1

    async def unobserve(self, record_id: str) -> None:
        """Stop one :meth:`observe`."""
        record = self._records.get(record_id)
        if record is None or record.observers == 0:
            return
        record.observers -= 1
        await self._unfollow_if_idle(record_id, record)

    def merged(self, record_id: str) -> Merged:
        """The claims at ``record_id`` in every process (as far as this one follows it), key by
        key the value of highest rank; keys in a stable order (sorted by their ``repr``)."""
        record = self._records.get(record_id)
        return {} if record is None else self._merge(record)

    def follows(self, record_id: str) -> bool:
        """Whether this process follows ``record_id``'s claims now (so :meth:`merged` holds
        every process's)."""
        return record_id in self._records

    def holders(self, record_id: str) -> dict[object, tuple[Any, Any]]:
        """This process's own claims at ``record_id``, by holder."""
        record = self._records.get(record_id)
        return dict(record.mine) if record is not None else {}

    async def close(self) -> None:
        """Stop following every record (the process is stopping), without a word: the others
        forget these claims ``forget_s`` later, as of a process that died."""
        records, self._records = list(self._records.values()), {}
        ticker, self._ticker = self._ticker, None
        tasks = [t for t in (ticker, *self._saying) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for record in records:
            following, record.following = record.following, None
            if following is not None:
                await following.__aexit__(None, None, None)

    # ---- following records ---------------------------------------------------------------

    async def _follow(self, record_id: str) -> _Record:
        record = self._records.get(record_id)
        if record is not None:
            return record
        record = self._records[record_id] = _Record()
        following = self.follower.follow(
            self.channel(record_id), self.topic, lambda body: self._heard(record_id, body)
        )
        await following.__aenter__()
        record.following = following
        if self._records.get(record_id) is not record:  # let go of meanwhile
            await following.__aexit__(None, None, None)
            record.following = None
            return record
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.create_task(self._tick())
        await self._say(record_id, record, ask=True)
        return record

    async def _unfollow_if_idle(self, record_id: str, record: _Record) -> None:
        if not record.idle or self._records.get(record_id) is not record:
            return
        del self._records[record_id]
        following, record.following = record.following, None
        if following is not None:
            await following.__aexit__(None, None, None)

    # ---- saying and hearing --------------------------------------------------------------

    def _mine(self, record: _Record) -> list[list[Any]]:
        """This process's claims as said: one value per key (the highest ranked)."""
        best: dict[Any, Any] = {}
        for key, value in record.mine.values():
            if key not in best or self.rank(value) > self.rank(best[key]):
                best[key] = value
        return [[key, value] for key, value in best.items()]

    def _merge(self, record: _Record) -> Merged:
        # What lapsed is let go by the timer, which tells: merged and told always agree.
        said = [self._mine(record), *(claims for claims, _ in record.heard.values())]
        best: dict[Any, Any] = {}
        for claims in said:
            for key, value in claims:
                if key not in best or self.rank(value) > self.rank(best[key]):
                    best[key] = value
        return {key: best[key] for key in sorted(best, key=repr)}

    def _tell(self, record_id: str, record: _Record) -> None:
        merged = self._merge(record)
        if merged == record.told:
            return
        record.told = merged
        if self.changed is not None:
            self.changed(record_id, merged)

    async def _changed_here(self, record_id: str, record: _Record) -> None:
        self._tell(record_id, record)
        await self._say(record_id, record)

    async def _say(self, record_id: str, record: _Record, ask: bool = False) -> None:
        """Tell the other processes this one's claims at ``record_id``."""
        mine = self._mine(record)
        if not mine and not record.said and not ask:
            return  # nothing was said before: nobody counts this process here
        record.said = bool(mine)
        message: dict[str, Any] = {"p": self.process, "c": mine}
        if ask:
            message["ask"] = True
        try:
            await self.follower.publish(self.channel(record_id), self.topic, json.dumps(message))
        except Exception:
            # Without the bus this process still knows its own claims.
            log.exception("could not say the %s claims of %s", self.topic, record_id)

    def _say_soon(self, record_id: str, record: _Record) -> None:
        task = asyncio.get_running_loop().create_task(self._say(record_id, record))
        self._saying.add(task)
        task.add_done_callback(self._saying.discard)

    def _heard(self, record_id: str, body: str) -> None:
        record = self._records.get(record_id)
        if record is None:
            return
        try:
            message = json.loads(body)
            process = str(message["p"])
            claims = [[key, value] for key, value in message["c"]]
        except (ValueError, KeyError, TypeError):
            log.warning("ignored %s claims on %s: %r", self.topic, record_id, body[:200])
            return
        if process == self.process:
            return
        if claims:
            record.heard[process] = (claims, time.monotonic() + self.forget_s)
        else:
            record.heard.pop(process, None)
        if message.get("ask") and record.mine:
            self._say_soon(record_id, record)  # a newcomer: tell it what is here
        self._tell(record_id, record)

    async def _tick(self) -> None:
        """Every ``refresh_s``: say again every record's claims held here, and let the claims
        of processes not heard for ``forget_s`` lapse."""
        while self._records:
            await asyncio.sleep(self.refresh_s)
            now = time.monotonic()
            for record_id, record in list(self._records.items()):
                lapsed = [p for p, (_, until) in record.heard.items() if until <= now]
                for process in lapsed:
                    del record.heard[process]
                if record.mine:
                    await self._say(record_id, record)
                self._tell(record_id, record)
