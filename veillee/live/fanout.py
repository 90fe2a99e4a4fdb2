"""Fan-out: this process's watchers of live records (open sockets), and what they are sent.

DESIGN.md §3: a change committed in this process reaches the watchers of its record from the
committed record in memory; a change announced by another process (topic ``v`` on the record's
channel, :mod:`veillee.live.follow`) is loaded **once** per process and version, never once per
socket; a view is built once per version and viewer key (seat, role) however many sockets show
it (:meth:`Fanout.view`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import orjson

from veillee.live.follow import Follower
from veillee.store import Record

V = TypeVar("V")

VERSION = "v"
"""The topic of a record's new versions on its channel: the body is the version, or
:data:`GONE`."""
GONE = "gone"
"""The body of the ``v`` message for a record that was deleted."""

log = logging.getLogger(__name__)


class Watcher(Protocol):
    """Something in this process that shows a record (an open socket)."""

    def push(self, record: Record | None) -> None:
        """The record moved on (``record``, at a version newer than any pushed before) or was
        deleted (``None``). Must return at once: the watcher sends from its own task."""


# What a kept record's ``data`` reads until :meth:`Fanout.latest` parses its text again.
_PARSED_ON_ASKING: dict[str, Any] = {}


@dataclass(eq=False, slots=True)
class _Followed:
    """One record followed in this process: its watchers, the newest version handed to them,
    the newest record known here (handed, or loaded: a record only loaded, as for a socket's
    greeting, is kept as its JSON text, a tenth of the parsed document's memory, for as long as
    the socket stays open and the record does not move), the views built for the version
    handed
    (by viewer key), the bus listening
    (``ready`` until it listens), and the newest version another process announced (``wanted``)
    with the task that loads it (only while it does)."""

    watchers: set[Watcher] = field(default_factory=set)
    version: int = -1
    record: Record | None = None
    text: str | None = None
    views: dict[Hashable, Any] = field(default_factory=dict)
    listening: contextlib.AbstractAsyncContextManager[None] | None = None
    ready: asyncio.Future[None] | None = None
    wanted: int = -1
    loader: asyncio.Task[None] | None = None
    deleted: bool = False


class _Watching:
    """:meth:`Fanout.watch`'s context."""

    __slots__ = ("fanout", "followed", "record_id", "watcher")

    def __init__(self, fanout: Fanout, record_id: str, watcher: Watcher) -> None:
        self.fanout, self.record_id, self.watcher = fanout, record_id, watcher
        self.followed: _Followed | None = None

    async def __aenter__(self) -> None:
        self.followed = await self.fanout._enter(self.record_id, self.watcher)

    async def __aexit__(self, *exc: object) -> None:
        followed, self.followed = self.followed, None
        if followed is not None:
            await self.fanout._leave(self.record_id, followed, self.watcher)


class Fanout:
    """This process's watchers of one kind of record, and their one bus listener per record.

    ``channel(id)`` names a record's bus channel; ``load(id)`` reads a record (None if gone).
    A record followed holds no task of its own: the follower calls :meth:`_heard`, and a version
    announced by another process is loaded by a task that lives only until it is caught up.
    """

    def __init__(
        self,
        follower: Follower,
        channel: Callable[[str], str],
        load: Callable[[str], Awaitable[Record | None]],
    ) -> None:
        self._follower = follower
        self._channel = channel
        self._load = load
        self._followed: dict[str, _Followed] = {}

    def watch(
        self, record_id: str, watcher: Watcher
    ) -> contextlib.AbstractAsyncContextManager[None]:
        """Push every new version of ``record_id`` to ``watcher`` while the context is open.
        Entered once the bus listens, so nothing announced afterwards is missed."""
        # A small object rather than a generator: one is held per open socket.
        return _Watching(self, record_id, watcher)

    async def _enter(self, record_id: str, watcher: Watcher) -> _Followed:
        followed = self._followed.get(record_id)
        first = followed is None
        if followed is None:
            followed = self._followed[record_id] = _Followed()
            followed.ready = asyncio.get_running_loop().create_future()
        followed.watchers.add(watcher)
        try:
            if first:
                await self._start_listening(record_id, followed)
            elif followed.ready is not None:
                await asyncio.shield(followed.ready)
        except BaseException:
            await self._leave(record_id, followed, watcher)
            raise
        return followed

    async def _leave(self, record_id: str, followed: _Followed, watcher: Watcher) -> None:
        followed.watchers.discard(watcher)
        if not followed.watchers and self._followed.get(record_id) is followed:
            del self._followed[record_id]
            await self._stop_listening(followed)

    async def _start_listening(self, record_id: str, followed: _Followed) -> None:
        listening = self._follower.follow(
            self._channel(record_id), VERSION, functools.partial(self._heard, record_id, followed)
        )
        try:
            await listening.__aenter__()
            followed.listening = listening
        finally:
            if followed.ready is not None and not followed.ready.done():
                followed.ready.set_result(None)
            followed.ready = None

    async def _stop_listening(self, followed: _Followed) -> None:
        if followed.loader is not None:
            followed.loader.cancel()
        listening, followed.listening = followed.listening, None
        if listening is not None:
            await listening.__aexit__(None, None, None)

    def deliver(self, record: Record) -> None:
        """Hand ``record`` (just committed or loaded) to its watchers, unless they have had this
        version or a newer one already."""
        followed = self._followed.get(record.id)
        if followed is None or record.version <= followed.version:
            return
        followed.version = record.version
        followed.views = {}
        newest = followed.record
        if not followed.deleted and (newest is None or record.version > newest.version):
            followed.record, followed.text = record, None
        for watcher in list(followed.watchers):
            watcher.push(record)

    def known(self, record: Record) -> None:
        """``record`` was loaded: :meth:`latest` answers it if it is the newest version known
        here (its watchers are not told: each socket sends what it loads itself, and another
        process's versions come through the bus)."""
        followed = self._followed.get(record.id)
        if followed is None or followed.deleted:
            return
        if followed.record is None or record.version > followed.record.version:
            followed.record = dataclasses.replace(record, data=_PARSED_ON_ASKING)
            followed.text = orjson.dumps(record.data, option=orjson.OPT_NON_STR_KEYS).decode()

    def latest(self, record_id: str) -> Record | None:
        """The newest version of the record handed to its watchers or loaded here, or None if
        it is not followed or none was yet. Another process may have written a newer one
        meanwhile (the store's ``WHERE version = v`` then refuses a change judged on this
        one)."""
        followed = self._followed.get(record_id)
        if followed is None or followed.record is None:
            return None
        if followed.text is not None:  # only loaded: parsed for each asking, kept small
            return dataclasses.replace(followed.record, data=orjson.loads(followed.text))
        return followed.record

    def gone(self, record_id: str) -> None:
        """Tell the record's watchers it was deleted."""
        followed = self._followed.get(record_id)
        if followed is not None and not followed.deleted:
            # Once: the sweeper tells this process's watchers itself and on the bus.
            followed.deleted, followed.record, followed.text = True, None, None
            for watcher in list(followed.watchers):
                watcher.push(None)

    def view(self, record: Record, key: Hashable, build: Callable[[Record, Any], V]) -> V:
        """``build(record, key)``, built once per version and key while the record is followed
        (two sockets of one seat share one view; a service keeps there too what it reads of a
        version, under a key of its own)."""
        followed = self._followed.get(record.id)
        if followed is None or followed.version != record.version:
            return build(record, key)
        if key not in followed.views:
            followed.views[key] = build(record, key)
        built: V = followed.views[key]
        return built

    def remember(self, record: Record, key: Hashable, built: Any) -> None:
        """Keep ``built`` as what :meth:`view` builds for ``record`` and ``key``, unless one was
        built already (the caller made it along with the version, e.g. the match it wrote).
        Nothing is kept for a record not followed, or not at this version."""
        followed = self._followed.get(record.id)
        if followed is not None and followed.version == record.version:
            followed.views.setdefault(key, built)

    def _heard(self, record_id: str, followed: _Followed, message: str) -> None:
        if message == GONE:
            self.gone(record_id)
            return
        if not message.isdigit() or int(message) <= followed.version:
            return  # this process's own change, or one its watchers have had already
        followed.wanted = max(followed.wanted, int(message))
        if followed.loader is None or followed.loader.done():
            followed.loader = asyncio.create_task(self._catch_up(record_id, followed))

    async def _catch_up(self, record_id: str, followed: _Followed) -> None:
        """Load the record until its watchers have the newest version announced (one load for
        a burst of versions heard meanwhile)."""
        while followed.wanted > followed.version:
            wanted = followed.wanted
            try:
                record = await self._load(record_id)
            except Exception:
                log.exception("could not load %s after a bus message", self._channel(record_id))
                return
            if record is None:
                self.gone(record_id)
                return
            self.deliver(record)
            if record.version < wanted:
                return  # the store is behind the bus: nothing newer to show yet
        followed.loader = None
