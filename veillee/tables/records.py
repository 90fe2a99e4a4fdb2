"""Table records: the live records of kind ``"table"`` (DESIGN.md §3), read once per version and
changed through the one live-record core (:class:`~veillee.live.LiveRecords`).

:class:`TableRecords` is what every part of the table service stands on: the store, the bus,
the settings, the seeded generator of the tests, reading a table (:class:`Table`) and writing a
change of it (:meth:`TableRecords.change`). The parts are mixins, each in a module named for
what it holds: :mod:`.seating` (making tables and taking seats), :mod:`.moves` (changes by
seats), :mod:`.computer` (the computer's turn), :mod:`.demos` (watch a partie go by);
:mod:`.lifetimes` says how long a table lives. This module knows no game: the registry and the
match contract say what a change of a table is.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from veillee.bus import Bus
from veillee.config import Settings
from veillee.games import Game, find
from veillee.live import Clock, Follower, LiveRecords
from veillee.store import Commit, Record, Store
from veillee.tables.lifetimes import lifetime
from veillee.tables.table import KIND, TableDoc, TableRefusal


@dataclass(frozen=True)
class Table:
    """A table record read: its document, its game and its match value (``match.from_json`` of
    the document's match). A version is read once per process while a page shows it
    (:meth:`TableService.table`); the match is an immutable value, shared by every use."""

    doc: TableDoc
    game: Game
    match: Any

    @classmethod
    def read(cls, data: dict[str, Any]) -> Table:
        """Read a stored table document (raises KeyError for an unknown game or a missing
        field)."""
        doc = TableDoc.from_data(data)
        game = find(doc.game)
        return cls(doc, game, game.match.from_json(doc.match))

    def moved(self, doc: TableDoc, match: Any) -> Table:
        """This table with ``doc`` whose match is now ``match``: the match written into the
        document (``match.to_json``) only when it is another one."""
        if match is not self.match:
            doc = replace(doc, match=self.game.match.to_json(match))
        return Table(doc, self.game, match)


Move = Callable[[Table], Table]
"""One change of a table: the table after it, from the table as it is now. Raises Refusal or
IllegalAction (nothing is written then)."""
_READ = object()
"""The fan-out's key (beside the viewers') for a version's :class:`Table`."""


def fresh_rng() -> random.Random:
    """A generator seeded from the OS; the seed is never stored nor sent."""
    return random.Random(secrets.randbits(128))


class TableRecords:
    """The tables in ``store``, announced on ``bus`` (through ``follower``, shared by every part
    that follows a table: default one of its own).

    ``clock`` returns the current UTC time (injectable for the lifetime tests). ``seed`` (tests
    only) makes table ids, deals and the computer's choices reproducible.
    """

    def __init__(
        self,
        store: Store,
        bus: Bus,
        settings: Settings,
        clock: Clock | None = None,
        seed: int | None = None,
        follower: Follower | None = None,
    ) -> None:
        # Tests pass a seed so that a failure reproduces: table ids, deals and the computer's
        # choices then all come from one seeded generator. In service everything is drawn
        # from the OS and no seed exists.
        self._seeded = None if seed is None else random.Random(seed)
        self.settings = settings
        self.live = LiveRecords(
            KIND,
            store,
            bus,
            gone=TableRefusal.TABLE_GONE,
            lifetime=lambda data: lifetime(settings, TableDoc.from_data(data)),
            clock=clock,
            follower=follower,
            presence_answers_s=settings.presence_answers_s,
        )
        self.store = store
        self.bus = bus

    def _rng(self) -> random.Random:
        if self._seeded is None:
            return fresh_rng()
        return random.Random(self._seeded.getrandbits(128))

    def _seed(self) -> int:
        """A fresh 63-bit seed (a computer decision's): from the OS, or from the seeded
        generator as :meth:`_rng` draws (no generator made for it from the OS)."""
        if self._seeded is None:
            return secrets.randbits(63)
        return self._rng().getrandbits(63)

    def _record_id(self) -> str | None:
        # None lets the store draw the id from the OS.
        return None if self._seeded is None else f"t{self._seeded.getrandbits(64):016x}"

    async def load(self, table_id: str) -> Record:
        """The table as stored now. Raises Refusal("table_gone")."""
        return await self.live.load(table_id)

    def committed(self, record: Record, table: Table) -> None:
        """Called after each new version this process wrote (``table`` is what ``record``
        holds): the computer's turn looks whether it is to play (:mod:`.computer`)."""

    def seat_taken(self, record: Record, seat: int) -> None:
        """Called after ``seat`` of ``record`` was taken through its link, with the record as
        written (:mod:`.notices` tells the maker)."""

    async def change(
        self, table_id: str, move: Move, client_id: str | None, version: int | None
    ) -> Commit:
        """Write ``move`` of the table (:class:`~veillee.live.LiveRecords` ``commit``: judged on
        the table as it is, the client id acknowledged once, one winner per race) and return
        what was stored (``client_id`` None: a change the server makes by itself, never
        repeated). Raises Refusal."""
        made: list[tuple[dict[str, Any], Table]] = []

        def change(record: Record) -> dict[str, Any]:
            moved = move(self.table(record))
            data = moved.doc.to_data()
            made.append((data, moved))
            return data

        done = await self.live.commit(table_id, change, client_id=client_id, version=version)
        if not done.duplicate:
            self.committed(done.record, self.written(done.record, made))
        return done

    def table(self, record: Record) -> Table:
        """The table ``record`` holds, read once per version while a page shows it (the
        fan-out keeps it beside the version's views), else read now."""
        return self.live.fanout.view(record, _READ, lambda r, _: Table.read(r.data))

    def written(self, record: Record, made: list[tuple[dict[str, Any], Table]]) -> Table:
        """The table of ``record`` just committed, when it is one of the tables ``made`` (the
        document written is the very one made): kept beside the version, never read again."""
        for data, table in made:
            if data is record.data:
                self.live.fanout.remember(record, _READ, table)
                return table
        return self.table(record)

    async def sweep(self) -> list[str]:
        """Delete every table whose lifetime has run out at the clock's time and tell their
        sockets (``"gone"`` on the bus). Returns the ids deleted."""
        return await self.live.sweep()

    async def close(self) -> None:
        """Stop following tables (the process is stopping)."""
        await self.live.close()
