"""Who may talk at a table: its chat (:mod:`veillee.live.chat`) is open to its people's seats,
at a table of two or more people; a table against the computer has none."""

from __future__ import annotations

from veillee.live import Clock, Refusal
from veillee.live.chat import KEPT, ChatFeed, ChatRefusal, chat_open
from veillee.store import ChatLine, Record
from veillee.tables.service import TableService
from veillee.tables.table import TableDoc, TableRefusal


class TableChat:
    """The chats of the tables of ``tables`` (a :class:`TableService`): who may say what, and
    when; lines stored beside the table and handed to :attr:`feed`. ``kept``: how many lines a
    table's chat keeps (``Settings.chat_kept``)."""

    def __init__(self, tables: TableService, clock: Clock | None = None, kept: int = KEPT) -> None:
        self.tables = tables
        self.clock: Clock = clock or tables.live.clock
        live = tables.live
        self.feed = ChatFeed(live.follower, live.store, live.channel, kept=kept)

    @staticmethod
    def open_to(record: Record, seat: object) -> bool:
        """Whether ``seat`` may read and write the chat of the table ``record``: one of its
        people's seats, at a table that has a chat (:func:`~veillee.live.chat.chat_open`)."""
        doc = TableDoc.from_data(record.data)
        return isinstance(seat, int) and seat in doc.humans and chat_open(len(doc.humans))

    async def seated(self, table_id: str, seat: object) -> Record:
        """The table, if ``seat`` may talk at it (:meth:`open_to`). Raises Refusal:
        ``table_gone``, ``chat_closed`` (a table against the computer, or not a seat)."""
        record = await self.tables.load(table_id)
        if not self.open_to(record, seat):
            raise Refusal(ChatRefusal.CHAT_CLOSED)
        return record

    async def say(
        self, table_id: str, seat: object, client_id: str, text: str
    ) -> tuple[ChatLine, bool]:
        """Say ``text`` as ``seat``'s line (:meth:`ChatFeed.say
        <veillee.live.chat.ChatFeed.say>`); returns the line and whether ``client_id`` had been
        said before. Raises Refusal: ``table_gone``, ``chat_closed``, ``chat_empty``,
        ``chat_too_long``, ``chat_too_fast``. The table's version never moves."""
        await self.seated(table_id, seat)
        assert isinstance(seat, int)
        try:
            return await self.feed.say(table_id, seat, client_id, text, self.clock())
        except Refusal as refused:
            if refused.reason == "gone":
                raise Refusal(TableRefusal.TABLE_GONE) from None
            raise

    async def lines_since(self, table_id: str, after: int) -> list[ChatLine]:
        """The table's lines with a seq above ``after``, oldest first (the newest kept ones)."""
        return await self.feed.lines_since(table_id, after)
