"""People coming and going at a table of people: the computer standing in for a person away,
the person taking their seat back, the host giving a vacated seat to someone new, and leaving
a table for good (issue 25; docs/protocol.md §1b).

At a table of more than two, a person away (no page open: presence) for
``stand_in_after_s`` may have the computer stand in for them, asked by anyone still seated;
from then the computer plays that seat as it plays its own (:mod:`.computer`: a job with that
seat's observation only), while someone is still at the table. Their seat link gives them the
seat back at once (:meth:`Leaving.come_back`). A person who leaves for good hands their seat to
the stand-in, and the table's maker may give it to someone new: a new seat link (the seat's
count, :meth:`TableDoc.generation`, goes up, so the old token and the old link open it no
more). At a table of two nobody stands in (the product pages promise no computer seat
there): leaving for good ends the match for both.

Whoever must know that a seat's person is gone for good (a push subscription to delete, say)
registers with :meth:`Leaving.on_vacated`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from veillee.games.contract import MatchReason
from veillee.live import Refusal
from veillee.store import Commit, Record
from veillee.tables.moves import Moves
from veillee.tables.records import Table
from veillee.tables.table import HUMAN, MAKER, TableDoc, TableRefusal

log = logging.getLogger(__name__)

Vacated = Callable[[str, int], Awaitable[None]]
"""Told ``(table_id, seat)`` once the seat's person has left it for good or its host gave it to
someone new: that person's token opens it no more."""


class Leaving(Moves):
    """Stand-ins, coming back, giving a seat and leaving (a part of
    :class:`~veillee.tables.service.TableService`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._vacated_hooks: list[Vacated] = []

    def on_vacated(self, hook: Vacated) -> None:
        """Call ``hook(table_id, seat)`` after each write that takes a seat from its person for
        good (:meth:`leave`, :meth:`give_seat`); a hook that fails is logged, never raised."""
        self._vacated_hooks.append(hook)

    async def _vacated(self, table_id: str, seat: int) -> None:
        for hook in self._vacated_hooks:
            try:
                await hook(table_id, seat)
            except Exception:
                log.exception("a vacated-seat hook failed at table %s", table_id)

    async def stand_in(
        self,
        table_id: str,
        seat: int,
        client_id: str,
        absent: int,
        version: int | None = None,
    ) -> Commit:
        """``seat`` (a person playing their own seat) lets the computer play ``absent``, whose
        person has had no page open at the table for ``stand_in_after_s`` (presence, as this
        process has seen it). Raises Refusal: ``no_stand_in`` (a table of two, or ``absent``
        is no taken person's seat without a stand-in, or ``seat`` itself has one),
        ``still_here`` (``absent`` is here, or not away long enough); asking again changes
        nothing."""
        presence = self.live.presence
        away = presence.away_for(table_id, absent)
        enough = (
            away is not None
            and absent not in presence.here(table_id)
            and away >= self.settings.stand_in_after_s
        )

        def stand(table: Table) -> Table:
            doc = table.doc
            if absent in doc.stand_in:
                return table  # asked already: nothing to write
            if not _may_stand_in(doc, seat, absent):
                raise Refusal(TableRefusal.NO_STAND_IN)
            if not enough:
                raise Refusal(TableRefusal.STILL_HERE)
            return table.moved(_standing(doc, absent), table.match)

        done = await self.change(table_id, stand, client_id, version)
        return await self._ready_by_itself(table_id, absent, done)

    async def come_back(
        self, table_id: str, seat: int, record: Record | None = None
    ) -> Commit | None:
        """The person of ``seat`` is back (their seat token opened the table): the computer
        stands in for them no more, from this version on; what it played stays played. Nothing
        is written (None) when it was not standing in. ``record``: the table as the caller has
        just read it (else it is loaded). Raises Refusal("table_gone")."""
        record = record or await self.load(table_id)
        if not _back(TableDoc.from_data(record.data), seat):
            return None

        def back(table: Table) -> Table:
            doc = table.doc
            if not _back(doc, seat):
                return table
            kept = tuple(s for s in doc.stand_in if s != seat)
            return table.moved(replace(doc, stand_in=kept), table.match)

        return await self.change(table_id, back, None, None)

    async def give_seat(
        self,
        table_id: str,
        seat: int,
        client_id: str,
        given: int,
        version: int | None = None,
    ) -> Commit:
        """The table's maker (``seat`` 0) gives ``given``, a seat the computer stands in for, to
        someone new: it opens for its new seat link (``?seat=<given>&g=<count>``), the stand-in
        playing on until someone sits (:meth:`~veillee.tables.seating.Seating.join`: of two
        racing for it exactly one does); the old token and link open it no more
        (``seat_given``). Raises Refusal: ``not_host``, ``no_stand_in`` (no stand-in at
        ``given``, or it is open for someone new already)."""

        def give(table: Table) -> Table:
            doc = table.doc
            if seat != MAKER or seat not in doc.present_humans:
                raise Refusal(TableRefusal.NOT_HOST)
            if given not in doc.stand_in or given in doc.open:
                raise Refusal(TableRefusal.NO_STAND_IN)
            return table.moved(
                replace(doc, open=tuple(sorted({*doc.open, given})), given=doc.regiven(given)),
                table.match,
            )

        done = await self.change(table_id, give, client_id, version)
        if not done.duplicate:
            await self._vacated(table_id, given)
        return done

    async def leave(self, table_id: str, seat: int, client_id: str) -> Commit:
        """The person of ``seat`` leaves the table for good: their token opens it no more. At a
        table of more than two the computer stands in for the seat (its host may give it to
        someone new, :meth:`give_seat`); at a table of two the match ends for both (every move
        is refused ``table_left``) and the table lives out its time like a finished one.
        Leaving again changes nothing."""

        def go(table: Table) -> Table:
            doc = table.doc
            if seat in doc.left:
                return table
            if not doc.shared or doc.seats[seat] != HUMAN:
                raise Refusal(TableRefusal.NOT_SHARED)
            left = replace(doc, left=tuple(sorted({*doc.left, seat})))
            if doc.stand_ins_allowed:
                left = _standing(left, seat)
            return table.moved(left, table.match)

        done = await self.change(table_id, go, client_id, None)
        if not done.duplicate:
            await self._vacated(table_id, seat)
        if TableDoc.from_data(done.record.data).stand_ins_allowed:
            return await self._ready_by_itself(table_id, seat, done)
        return done

    async def _ready_by_itself(self, table_id: str, seat: int, done: Commit) -> Commit:
        """Once the computer stands in for ``seat`` after a deal is over, the seat is ready
        for the next one (:meth:`next_deal`: dealt now if the others were waiting only for
        it); ``done`` (the stand-in's write) is returned when no deal was over."""
        try:
            return await self.next_deal(table_id, seat, None)
        except Refusal as refused:
            if refused.reason != MatchReason.DEAL_NOT_OVER:
                raise
            return done


def _may_stand_in(doc: TableDoc, seat: int, absent: int) -> bool:
    """Whether ``seat`` may ask the computer to stand in for ``absent`` at ``doc``."""
    return (
        doc.stand_ins_allowed
        and seat in doc.present_humans
        and absent != seat
        and absent in doc.present_humans
    )


def _back(doc: TableDoc, seat: int) -> bool:
    """Whether the person of ``seat`` coming back takes it from a stand-in (not a seat they
    left for good, nor one given to someone new)."""
    return seat in doc.stand_in and seat not in doc.open and seat not in doc.left


def _standing(doc: TableDoc, seat: int) -> TableDoc:
    """``doc`` with the computer standing in for ``seat``."""
    return replace(doc, stand_in=tuple(sorted({*doc.stand_in, seat})))
