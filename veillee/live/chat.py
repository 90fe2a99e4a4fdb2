"""Chat beside a live record: plain text lines said by its seats (issue 10), which never move
its version.

A line is at most :data:`MAX_CHARS` characters of text after :func:`clean_text`, at most
:data:`BURST` lines per seat in any :data:`WINDOW`. Lines are stored beside the record
(``Store.add_chat_line``): they never move its version, so a line can never make a change lose
its version race, and they are deleted with the record when it is swept. Only the newest
:data:`KEPT` lines are kept and sent. Who may talk at a record is its service's to say (a table's:
:mod:`veillee.tables.chat`).

Fan-out works as for records (DESIGN.md §3–4): a line written in this process is handed to this
process's :class:`ChatFeed` at once, then announced on the record's channel (topic ``chat``,
body ``"<seq>"``); another process holding sockets for the record loads the lines it has not
seen once, however many sockets it holds. A watcher that finds a gap (a burst of announcements
heard as one) asks the store for what it misses (:meth:`ChatFeed.lines_since`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import unicodedata
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from veillee.live.follow import Follower
from veillee.live.records import Refusal, well_formed_id
from veillee.store import ChatLine, NotFound, Store, TooFast

log = logging.getLogger(__name__)

MAX_CHARS = 500
"""Longest line, in characters (code points) after cleaning."""
BURST = 5
"""Most lines one seat may say within :data:`WINDOW`."""
WINDOW = timedelta(seconds=10)
"""The rate limit's window."""
KEPT = 500
"""Lines a record's chat keeps by default (``Settings.chat_kept``): the newest 500. Each line
written drops those older in the same write (so a chat never grows past this in the store,
however long the table is played), and a socket that opens the chat is sent at most these, in
messages of 100 lines. Five hundred lines are a long evening's talk at one table, and bound
what every joining seat is sent."""
CATCH_UP = 200
"""Most lines one catch-up reads from the store at a time."""


class ChatRefusal(StrEnum):
    """Every refusal of the chat (docs/protocol.md §5), beside the record's gone code."""

    CHAT_CLOSED = "chat_closed"
    """A table against the computer, or a socket that holds no seat."""
    CHAT_EMPTY = "chat_empty"
    CHAT_TOO_LONG = "chat_too_long"
    CHAT_TOO_FAST = "chat_too_fast"


TOPIC = "chat"
"""The chat's topic on a record's channel: the body is the seq of a line just said."""

BIDI_CONTROLS = frozenset(
    "\u061c"  # Arabic letter mark
    "\u200e\u200f"  # left-to-right and right-to-left marks
    "\u202a\u202b\u202c\u202d\u202e"  # embeddings, overrides and their pop
    "\u2066\u2067\u2068\u2069"  # isolates and their pop
)
"""The bidirectional formatting characters: they could make a line read backwards or spill its
direction over the seat name shown beside it."""
SPACES = frozenset("\t\n\r\v\f\x1c\x1d\x1e\x1f\x85\u2028\u2029")
"""Control and separator characters that part words: each becomes one space, so that removing
them does not glue two words together."""


def clean_text(text: str) -> str:
    """``text`` as a chat line: line breaks and tabs become spaces, every other control
    character (Unicode category Cc), every bidirectional formatting character
    (:data:`BIDI_CONTROLS`) and every lone surrogate (Cs: no character at all, which no store
    can hold) is removed, and spaces at either end are trimmed. Nothing else changes: markup
    stays text (pages show it with ``textContent``).

    >>> clean_text(" a\\u202eb\\x00c\\nd\\u2066 ")
    'abc d'
    >>> clean_text("<b>5 > 3</b> 🙂")
    '<b>5 > 3</b> 🙂'
    >>> clean_text("\\u200f\\t\\u0007")
    ''
    """
    kept = []
    for char in text:
        if char in SPACES:
            kept.append(" ")
        elif char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Cs"):
            continue
        else:
            kept.append(char)
    return "".join(kept).strip()


def chat_open(people: int) -> bool:
    """Whether a record with ``people`` seats held by people has a chat: two or more."""
    return people >= 2


class ChatWatcher(Protocol):
    """Something in this process that shows a record's chat (a seat's open socket)."""

    def push_lines(self, lines: Sequence[ChatLine]) -> None:
        """New lines of the chat, oldest first (possibly after a gap, possibly some already
        had). Must return at once: the watcher sends from its own task."""


@dataclass(eq=False)
class _Room:
    """One record's chat followed in this process: its watchers, the newest seq handed to them
    (None until one is), the following of the record's channel, and the newest seq announced
    by another process (``wanted``) with the task that loads the lines (only while it does)."""

    watchers: set[ChatWatcher] = field(default_factory=set)
    seq: int | None = None
    following: contextlib.AbstractAsyncContextManager[None] | None = None
    wanted: int = 0
    loader: asyncio.Task[None] | None = None


class ChatFeed:
    """The chats of one kind of record: lines written beside the record in ``store`` and handed
    to this process's watchers, announced on the records' channels (``channel(record_id)``)
    through ``follower``. ``kept``: how many lines a chat keeps (:data:`KEPT`). Who may say a
    line is the record's service's to check before :meth:`say`."""

    def __init__(
        self,
        follower: Follower,
        store: Store,
        channel: Callable[[str], str],
        kept: int = KEPT,
    ) -> None:
        self._follower = follower
        self._store = store
        self._channel = channel
        self.kept = kept
        self._rooms: dict[str, _Room] = {}

    @contextlib.asynccontextmanager
    async def watch(self, record_id: str, watcher: ChatWatcher) -> AsyncIterator[None]:
        """Push every new line of ``record_id``'s chat to ``watcher`` while the context is open.
        Entered once the channel is followed, so nothing announced afterwards is missed."""
        room = self._rooms.get(record_id)
        if room is None:
            room = self._rooms[record_id] = _Room()
            following = self._follower.follow(
                self._channel(record_id), TOPIC, lambda body: self._heard(record_id, room, body)
            )
            room.following = following
            await following.__aenter__()
        room.watchers.add(watcher)
        try:
            yield
        finally:
            room.watchers.discard(watcher)
            if not room.watchers and self._rooms.get(record_id) is room:
                del self._rooms[record_id]
                if room.loader is not None:
                    room.loader.cancel()
                followed, room.following = room.following, None
                if followed is not None:
                    await followed.__aexit__(None, None, None)

    async def say(
        self, record_id: str, seat: int, client_id: str, text: str, now: datetime
    ) -> tuple[ChatLine, bool]:
        """Write ``text`` (cleaned: :func:`clean_text`) as ``seat``'s line at ``now`` and hand
        it to the record's watchers in every process; returns the line and whether
        ``client_id`` had been said before (then nothing is written again, and the rate limit
        does not count it). The rate limit is the seat's, however many sockets or processes it
        says lines through: it is judged in the write itself.

        Raises Refusal: ``chat_empty`` (nothing left after cleaning), ``chat_too_long`` (over
        :data:`MAX_CHARS`), ``chat_too_fast`` (the seat has said :data:`BURST` lines in the
        last :data:`WINDOW`), ``gone`` (the record has gone: the caller's own gone code is
        for it to say). The lines older than the newest :attr:`kept` are dropped in the same
        write."""
        line = clean_text(text)
        if not line:
            raise Refusal(ChatRefusal.CHAT_EMPTY)
        if len(line) > MAX_CHARS:
            raise Refusal(ChatRefusal.CHAT_TOO_LONG)
        try:
            written, repeat = await self._store.add_chat_line(
                record_id,
                seat,
                line,
                client_id,
                now,
                keep=self.kept,
                at_most=(BURST, now - WINDOW),
            )
        except NotFound:
            raise Refusal("gone") from None
        except TooFast:
            raise Refusal(ChatRefusal.CHAT_TOO_FAST) from None
        if not repeat:
            self.deliver(record_id, [written])
            await self._follower.publish(self._channel(record_id), TOPIC, str(written.seq))
        return written, repeat

    async def lines_since(self, record_id: str, after: int) -> list[ChatLine]:
        """The record's lines with a seq above ``after``, oldest first, the newest
        :attr:`kept` of them at most (none for a record that is gone or an id of a shape no
        record has)."""
        if not well_formed_id(record_id):
            return []
        lines: list[ChatLine] = []
        while True:
            batch = await self._store.chat_lines(record_id, after=after, limit=CATCH_UP)
            lines.extend(batch)
            if len(batch) < CATCH_UP:
                return lines[-self.kept :]
            after = batch[-1].seq

    def deliver(self, record_id: str, lines: Sequence[ChatLine]) -> None:
        """Hand ``lines`` (just written or loaded, oldest first) to the record's watchers, less
        those handed to them already."""
        room = self._rooms.get(record_id)
        if room is None:
            return
        new = [line for line in lines if room.seq is None or line.seq > room.seq]
        if not new:
            return
        room.seq = new[-1].seq
        for watcher in list(room.watchers):
            watcher.push_lines(new)

    def _heard(self, record_id: str, room: _Room, body: str) -> None:
        if not body.isdigit():
            return
        seq = int(body)
        if room.seq is not None and seq <= room.seq:
            return  # this process's own line, or one its watchers have had already
        if room.seq is None:
            room.seq = seq - 1
        room.wanted = max(room.wanted, seq)
        if room.loader is None or room.loader.done():
            room.loader = asyncio.create_task(self._catch_up(record_id, room))

    async def _catch_up(self, record_id: str, room: _Room) -> None:
        """Load the lines until the watchers have the newest one announced (one load for a
        burst of announcements heard meanwhile)."""
        while room.seq is not None and room.wanted > room.seq:
            wanted = room.wanted
            try:
                lines = await self._store.chat_lines(record_id, after=room.seq, limit=CATCH_UP)
            except Exception:
                log.exception("could not load the chat of %s", record_id)
                return
            self.deliver(record_id, lines)
            if len(lines) < CATCH_UP and (room.seq is None or room.seq < wanted):
                return  # the store is behind the bus: nothing newer to show yet
