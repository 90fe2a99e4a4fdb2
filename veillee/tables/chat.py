"""Table chat: plain text lines said by the seated people of a table (issue 10).

A table of two or more people has a chat (:func:`chat_open`); a table against the computer has
none. A line is at most :data:`MAX_CHARS` characters of text after :func:`clean_text`, said by
a seat that holds its token, at most :data:`BURST` lines per seat in any :data:`WINDOW`. Lines
are stored beside the table's record (``Store.add_chat_line``): they never move the table's
version, so a line can never make a move lose its version race, and they are deleted with the
table when it is swept. Only the newest :data:`KEPT` lines are kept and sent.

Fan-out works as for records (DESIGN.md §3–4): a line written in this process is handed to this
process's :class:`ChatFeed` at once, then announced on the bus (``"chat:<table id>"`` carries
``"<seq>"``); another process holding sockets for the table loads the lines it has not seen
once, however many sockets it holds. A watcher that finds a gap (a burst of announcements heard
as one) asks the store for what it misses (``TableChat.lines_since``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import unicodedata
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Protocol

from veillee.bus import Bus
from veillee.store import ChatLine, NotFound, Record, Store
from veillee.tables.live import Clock, Refusal, well_formed_id
from veillee.tables.service import TableService
from veillee.tables.table import TableDoc

log = logging.getLogger(__name__)

MAX_CHARS = 500
"""Longest line, in characters (code points) after cleaning."""
BURST = 5
"""Most lines one seat may say within :data:`WINDOW`."""
WINDOW = timedelta(seconds=10)
"""The rate limit's window."""
KEPT = 100
"""Lines a table's chat keeps: the newest 100. Each line written drops those older (so a table's
chat never grows past this in the store, however long it is played), and a socket that opens
the chat is sent at most these. A hundred lines is an evening's talk at one table, more than a
phone's chat drawer shows, and bounds what every joining seat is sent."""
CATCH_UP = 200
"""Most lines one catch-up reads from the store at a time."""

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


def chat_open(doc: TableDoc) -> bool:
    """Whether the table has a chat: two or more of its seats are people's."""
    return len(doc.humans) >= 2


class ChatWatcher(Protocol):
    """Something in this process that shows a table's chat (a seat's open socket)."""

    def push_lines(self, lines: Sequence[ChatLine]) -> None:
        """New lines of the chat, oldest first (possibly after a gap, possibly some already
        had). Must return at once: the watcher sends from its own task."""


@dataclass(eq=False)
class _Room:
    """One table's chat followed in this process: its watchers, the newest seq handed to them
    (None until one is), and the bus listener."""

    watchers: set[ChatWatcher] = field(default_factory=set)
    seq: int | None = None
    listening: asyncio.Event = field(default_factory=asyncio.Event)
    listener: asyncio.Task[None] | None = None


class ChatFeed:
    """This process's watchers of table chats, and their one bus subscription per table."""

    def __init__(self, bus: Bus, store: Store) -> None:
        self._bus = bus
        self._store = store
        self._rooms: dict[str, _Room] = {}

    @staticmethod
    def channel(table_id: str) -> str:
        """The bus channel of a table's chat: ``"chat:<id>"``."""
        return f"chat:{table_id}"

    @contextlib.asynccontextmanager
    async def watch(self, table_id: str, watcher: ChatWatcher) -> AsyncIterator[None]:
        """Push every new line of ``table_id``'s chat to ``watcher`` while the context is open.
        Entered once the bus listens, so nothing announced afterwards is missed."""
        room = self._rooms.get(table_id)
        if room is None:
            room = self._rooms[table_id] = _Room()
            room.listener = asyncio.create_task(self._listen(table_id, room))
        room.watchers.add(watcher)
        try:
            await room.listening.wait()
            yield
        finally:
            room.watchers.discard(watcher)
            if not room.watchers and self._rooms.get(table_id) is room:
                del self._rooms[table_id]
                if room.listener is not None:
                    room.listener.cancel()

    def deliver(self, table_id: str, lines: Sequence[ChatLine]) -> None:
        """Hand ``lines`` (just written or loaded, oldest first) to the table's watchers, less
        those handed to them already."""
        room = self._rooms.get(table_id)
        if room is None:
            return
        new = [line for line in lines if room.seq is None or line.seq > room.seq]
        if not new:
            return
        room.seq = new[-1].seq
        for watcher in list(room.watchers):
            watcher.push_lines(new)

    async def _listen(self, table_id: str, room: _Room) -> None:
        try:
            async with self._bus.subscribe(self.channel(table_id)) as queue:
                room.listening.set()
                while True:
                    message = await queue.get()
                    while not queue.empty():
                        message = queue.get_nowait()  # a burst: the newest says it all
                    await self._hear(table_id, room, message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("chat listener for %s failed", self.channel(table_id))
        finally:
            room.listening.set()

    async def _hear(self, table_id: str, room: _Room, message: str) -> None:
        if not message.isdigit():
            return
        seq = int(message)
        after = seq - 1 if room.seq is None else room.seq
        if seq <= after:
            return  # this process's own line, or one its watchers have had already
        try:
            lines = await self._store.chat_lines(table_id, after=after, limit=CATCH_UP)
        except Exception:
            log.exception("could not load the chat of %s", table_id)
            return
        self.deliver(table_id, lines)


class TableChat:
    """The chats of the tables of ``tables`` (a :class:`TableService`): who may say what, and
    when; lines stored beside the table and handed to :attr:`feed`."""

    def __init__(self, tables: TableService, clock: Clock | None = None) -> None:
        self.tables = tables
        self.store = tables.store
        self.bus = tables.bus
        self.clock: Clock = clock or tables.live.clock
        self.feed = ChatFeed(self.bus, self.store)

    @staticmethod
    def open_to(record: Record, seat: object) -> bool:
        """Whether ``seat`` may read and write the chat of the table ``record``: one of its
        people's seats, at a table that has a chat (:func:`chat_open`)."""
        doc = TableDoc.from_data(record.data)
        return isinstance(seat, int) and seat in doc.humans and chat_open(doc)

    async def seated(self, table_id: str, seat: object) -> Record:
        """The table, if ``seat`` may talk at it (:meth:`open_to`). Raises Refusal:
        ``table_gone``, ``chat_closed`` (a table against the computer, or not a seat)."""
        record = await self.tables.load(table_id)
        if not self.open_to(record, seat):
            raise Refusal("chat_closed")
        return record

    async def say(
        self, table_id: str, seat: object, client_id: str, text: str
    ) -> tuple[ChatLine, bool]:
        """Write ``text`` (cleaned: :func:`clean_text`) as ``seat``'s line and hand it to the
        table's watchers in every process; returns the line and whether ``client_id`` had been
        said before (then nothing is written again, and the rate limit does not count it).

        Raises Refusal: ``table_gone``, ``chat_closed``, ``chat_empty`` (nothing left after
        cleaning), ``chat_too_long`` (over :data:`MAX_CHARS`), ``chat_too_fast`` (the seat has
        said :data:`BURST` lines in the last :data:`WINDOW`). The table's version never moves;
        the lines older than the newest :data:`KEPT` are dropped."""
        await self.seated(table_id, seat)
        assert isinstance(seat, int)
        line = clean_text(text)
        if not line:
            raise Refusal("chat_empty")
        if len(line) > MAX_CHARS:
            raise Refusal("chat_too_long")
        before = await self.store.chat_line(table_id, client_id)
        if before is not None:
            return before, True  # a repeat (after a reconnect): whatever the rate now
        now = self.clock()
        if await self.store.chat_lines_said(table_id, seat, now - WINDOW) >= BURST:
            raise Refusal("chat_too_fast")
        try:
            written, repeat = await self.store.add_chat_line(
                table_id, seat, line, client_id, now, keep=KEPT
            )
        except NotFound:
            raise Refusal("table_gone") from None
        if not repeat:
            self.feed.deliver(table_id, [written])
            await self.bus.publish(self.feed.channel(table_id), str(written.seq))
        return written, repeat

    async def lines_since(self, table_id: str, after: int) -> list[ChatLine]:
        """The table's lines with a seq above ``after``, oldest first, the newest :data:`KEPT`
        of them at most (none for a table that is gone or an id of a shape no table has)."""
        if not well_formed_id(table_id):
            return []
        lines: list[ChatLine] = []
        while True:
            batch = await self.store.chat_lines(table_id, after=after, limit=CATCH_UP)
            lines.extend(batch)
            if len(batch) < CATCH_UP:
                return lines[-KEPT:]
            after = batch[-1].seq
