"""The table socket's chat: the :class:`~veillee.web.live_socket.Side` of a seated socket.

A socket opens its chat with ``chat_sync`` (the last line its page has): it is sent the lines
after that one, then each new line as it is said, in :class:`ChatOut` messages. ``chat`` says a
line (``ack`` or an ``error``; the table's version never moves). Only a seat of a table of two
or more people has a chat: any other socket (a computer table, a spectator) is answered
``chat_closed`` and is sent no line.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from veillee.live import Refusal
from veillee.live.chat import ChatRefusal
from veillee.store import ChatLine, Record
from veillee.tables.chat import TableChat
from veillee.web.live_protocol import AckOut
from veillee.web.live_socket import CLOSED, Session
from veillee.web.table_protocol import ChatLineOut, ChatOut, ChatSay, ChatSync

LINES_PER_MESSAGE = 100
"""Most lines in one ``chat`` message (a long catch-up comes as several)."""


def chat_out(lines: Sequence[ChatLine]) -> ChatOut:
    """The ``chat`` message of ``lines``: seq, seat, text and time only (never a client id)."""
    return ChatOut(
        lines=[
            ChatLineOut(seq=line.seq, seat=line.seat, text=line.text, at=line.at.isoformat())
            for line in lines
        ]
    )


class ChatSide:
    """One socket's chat. ``seq`` is the newest line sent to it (None until its page asks with
    ``chat_sync``); lines pushed by the feed are sent in order by one task that runs only while
    there is something to send (an idle socket holds none), and a gap (lines this process
    heard of as one burst) is filled from the store."""

    __slots__ = (
        "_lock",
        "_pending",
        "_task",
        "_watching",
        "chat",
        "open",
        "seq",
        "session",
        "table_id",
    )

    def __init__(self, chat: TableChat, session: Session) -> None:
        self.chat = chat
        self.session = session
        self.table_id = session.record_id
        self.seq: int | None = None
        self.open = False
        self._pending: list[ChatLine] = []
        self._lock = asyncio.Lock()
        self._watching: contextlib.AbstractAsyncContextManager[None] | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, record: Record) -> None:
        """Follow the table's chat if this socket's seat may read it (``record``: the table as
        the socket was greeted with it)."""
        if not self.chat.open_to(record, self.session.key):
            return
        watching = self.chat.feed.watch(self.table_id, self)
        await watching.__aenter__()
        self._watching = watching
        self.open = True

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        watching, self._watching = self._watching, None
        if watching is not None:
            await watching.__aexit__(None, None, None)

    # ---- the page's messages ------------------------------------------------------------------

    async def answer(self, message: Any) -> None:
        if isinstance(message, ChatSay):
            await self._say(message)
        elif isinstance(message, ChatSync):
            await self._sync(message.after)

    async def _say(self, message: ChatSay) -> None:
        session = self.session
        if not self.open:
            await session.error(ChatRefusal.CHAT_CLOSED, message.client_id)
            return
        try:
            _, repeat = await self.chat.say(
                self.table_id, session.key, message.client_id, message.text
            )
        except Refusal as refused:
            await session.error(refused.reason, message.client_id)
            return
        # The table's version has not moved: the ack names the one this socket was last sent.
        ack = AckOut(client_id=message.client_id, version=session.sent_version, duplicate=repeat)
        await session.send(ack)

    async def _sync(self, after: int) -> None:
        if not self.open:
            await self.session.error(ChatRefusal.CHAT_CLOSED)
            return
        async with self._lock:
            self.seq = after
            await self._send(await self.chat.lines_since(self.table_id, after))

    # ---- the feed's side ----------------------------------------------------------------------

    def push_lines(self, lines: Sequence[ChatLine]) -> None:
        self._pending.extend(lines)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self._pending:
                async with self._lock:
                    pending, self._pending = self._pending, []
                    if self.seq is None:
                        continue  # the page has not asked for the chat yet
                    new = [line for line in pending if line.seq > self.seq]
                    if new and new[0].seq != self.seq + 1:
                        new = await self.chat.lines_since(self.table_id, self.seq)
                    await self._send(new)
        except CLOSED:
            return  # the page has gone; the receiving side ends the session

    async def _send(self, lines: Sequence[ChatLine]) -> None:
        # Caller holds ``_lock``.
        for start in range(0, len(lines), LINES_PER_MESSAGE):
            chunk = lines[start : start + LINES_PER_MESSAGE]
            await self.session.send(chat_out(chunk))
            self.seq = chunk[-1].seq
