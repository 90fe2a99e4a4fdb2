"""Watch a partie go by: a demonstration table, the computer on every seat, moved a step at a
time by its one spectator, who sees every hand face up (the how-to pages)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from veillee.games import find
from veillee.live import Refusal
from veillee.live.records import LiveRefusal
from veillee.store import Commit
from veillee.tables.computer import ComputerSeats
from veillee.tables.records import Table
from veillee.tables.seating import Seating
from veillee.tables.table import COMPUTER, TableDoc, TableRefusal


@dataclass(frozen=True)
class DemoGrant:
    """A demonstration table and its spectator token (sent once, stored only hashed)."""

    table_id: str
    token: str


class Demos(Seating, ComputerSeats):
    """Demonstration tables (a part of :class:`~veillee.tables.service.TableService`)."""

    async def create_demo_table(
        self, game: str, options: Mapping[str, object] | None = None, *, match: Any = None
    ) -> DemoGrant:
        """A demonstration ("watch a partie go by"): the computer on every seat, one deal, which
        moves only when its spectator asks (:meth:`advance`) and which the spectator sees with
        every hand face up (:func:`spectator_view`). Its one token is the spectator's; it lives
        ``demo_table_idle_s`` after its last step, and :meth:`end_demo` drops it at once.
        ``match`` as for :meth:`create_table`."""
        token = secrets.token_urlsafe(24)
        seats = (COMPUTER,) * find(game).info.seats
        record, _ = await self.create_table(game, seats, options, match=match, spectator=token)
        return DemoGrant(record.id, token)

    async def advance(self, table_id: str, client_id: str, version: int | None = None) -> Commit:
        """One step of a demonstration, asked by its spectator: the computer seat to act makes
        its move, exactly as at any table (:meth:`step`). ``version``: the version the
        spectator saw (refused as ``version_conflict`` if the table has moved). Raises Refusal:
        ``not_a_demo`` (a table someone plays moves only by its seats), ``deal_over`` (the deal
        is done: a demonstration deals once), ``table_gone``."""
        record = await self.load(table_id)
        table = self.table(record)
        if not table.doc.watchable:
            raise Refusal(TableRefusal.NOT_A_DEMO)
        if version is not None and version != record.version:
            raise Refusal(LiveRefusal.VERSION_CONFLICT)
        moved = await self._computer_move(record, table)
        if moved is None:
            raise Refusal(TableRefusal.DEAL_OVER)
        if not isinstance(moved, Table):  # an answer dropped: the spectator asks again
            raise Refusal(LiveRefusal.BUSY)
        data = moved.doc.to_data()
        done = await self.live.commit(
            table_id, lambda _: data, client_id=client_id, version=record.version, record=record
        )
        self.written(done.record, [(data, moved)])
        return done

    async def end_demo(self, table_id: str) -> bool:
        """Drop a demonstration table now (its watcher has gone): nothing of it is kept. Returns
        whether one was dropped; any other table is left alone."""
        try:
            record = await self.load(table_id)
        except Refusal:
            return False
        if not TableDoc.from_data(record.data).demo:
            return False
        return await self.live.delete(table_id)
