"""The computer's turn at a table: when a computer seat is to act it decides from that seat's
observation only, and its move is shown at a pace a person can follow (DESIGN.md §3)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from prometheus_client import Counter, Histogram

from veillee.games import Game, IllegalAction
from veillee.live import Refusal
from veillee.live.records import LiveRefusal
from veillee.store import Record
from veillee.tables.records import Table, TableRecords
from veillee.tables.table import TableDoc
from veillee.workers import Deciders, Decision, InlineDeciders

log = logging.getLogger(__name__)

COMPUTER_RETRY_S = (0.5, 2.0, 5.0)
DECISION_SECONDS = Histogram(
    "veillee_decision_seconds",
    "Time a computer decision took in its worker",
    ["game", "level"],
    buckets=(0.001, 0.005, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 5.0),
)
DROPPED = Counter(
    "veillee_decisions_dropped_total",
    "Computer decisions dropped: the table had moved on (stale) or no legal action (illegal)",
    ["game", "why"],
)
_DROPPED = object()
"""What :meth:`ComputerSeats._computer_move` gives for an answer it dropped."""


class ComputerSeats(TableRecords):
    """The computer seats of every table (a part of
    :class:`~veillee.tables.service.TableService`).

    A computer seat to act is asked of ``deciders`` (:mod:`veillee.workers`: worker processes,
    never this event loop) with a job that carries that seat's observation and legal actions
    only; its answer is shown at a pace a person can follow (``settings.bot_delay_ms``, plus
    ``trick_pause_ms`` when a trick has just been gathered), the pace running while the worker
    decides. A person's seat the computer stands in for (:attr:`TableDoc.stand_in`) is played
    the same way, while someone is still at the table (:meth:`people_here`). The answer is
    applied only if the table is still at the version it was asked at and the action is one
    of the legal ones; otherwise it is dropped and, if the computer is
    still to act, asked again (:data:`DROPPED` counts them). With ``autoplay=False`` nothing
    runs by itself: the caller drives the computer seats with :meth:`step` (the self-play tests
    do, to see every version). ``deciders`` default: :class:`~veillee.workers.InlineDeciders`
    (tests and tools; ``veillee serve`` always passes its worker processes)."""

    def __init__(
        self, *args: Any, autoplay: bool = True, deciders: Deciders | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.autoplay = autoplay
        self.deciders: Deciders = deciders or InlineDeciders()
        self._runners: dict[str, asyncio.Task[None]] = {}
        self._dirty: set[str] = set()

    def committed(self, record: Record, table: Table) -> None:
        if table.doc.computers:
            self.kick(record.id)

    def kick(self, table_id: str) -> None:
        """Make sure the computer seats of ``table_id`` get to play if one of them is to act."""
        if not self.autoplay:
            return
        self._dirty.add(table_id)
        task = self._runners.get(table_id)
        if task is None or task.done():
            self._runners[table_id] = asyncio.create_task(self._run(table_id))

    async def _run(self, table_id: str) -> None:
        try:
            await self._play(table_id)
        finally:
            # An ended runner lets its table go (an idle seat's memory), unless a newer one
            # has taken its place.
            if self._runners.get(table_id) is asyncio.current_task():
                del self._runners[table_id]

    async def _play(self, table_id: str) -> None:
        failures = 0
        while True:
            self._dirty.discard(table_id)
            try:
                # The table as this process last fanned it out (no load while a page shows it).
                latest = self.live.latest(table_id)
                record = await self.step(table_id, paced=True, record=latest)
            except Refusal:
                return
            except Exception:
                # A failing computer move (a store that timed out, say) must neither take the
                # server down nor leave the table waiting on the computer: it is tried again a
                # little later, a few times; then the next person's move or reconnect kicks it.
                log.exception("computer seat failed at table %s", table_id)
                if failures == len(COMPUTER_RETRY_S):
                    return
                await asyncio.sleep(COMPUTER_RETRY_S[failures])
                failures += 1
                continue
            failures = 0
            if record is None and table_id not in self._dirty:
                return

    async def step(
        self, table_id: str, paced: bool = False, record: Record | None = None
    ) -> Record | None:
        """Play one computer move at ``table_id`` if a computer seat is to act (an all-computer
        table also deals its next partie by itself); return the table afterwards, or None when
        nothing was for the computer to do. With ``paced`` the move is shown no sooner than
        ``bot_delay_ms`` (and ``trick_pause_ms`` more when a trick has just been gathered)
        after it was asked. A demonstration is never moved here, only by its spectator
        (:meth:`advance`).

        The move is the deciders' answer to the seat's job (:meth:`job`). An answer that comes
        too late (the table moved on meanwhile: a person restarted the match) or that is no
        legal action is dropped, and the table as it now is returned, for the computer to be
        asked again. Raises Refusal("table_gone"). ``record``: the table as the caller last
        saw it, to save a load."""
        if record is None or record.id != table_id:
            record = await self.load(table_id)
        table = self.table(record)
        if table.doc.demo:
            return None
        moved = await self._computer_move(record, table, paced)
        if moved is None:
            return None
        if moved is _DROPPED:
            return await self.load(table_id)
        data = moved.doc.to_data()
        try:
            done = await self.live.commit(
                table_id, lambda _: data, version=record.version, record=record
            )
        except Refusal as exc:
            if exc.reason != LiveRefusal.VERSION_CONFLICT:
                raise
            # Someone else moved the table meanwhile (a person restarting the match): look again.
            DROPPED.labels(table.doc.game, "stale").inc()
            return await self.load(table_id)
        self.written(done.record, [(data, moved)])
        return done.record

    def job(self, record: Record, table: Table, seat: int) -> Decision:
        """What ``seat`` of the table ``record`` is asked to decide: its observation (the match
        contract's ``observation(m, seat)``) and its legal actions, the table's level (with the
        game's search budget, ``settings.search_budgets``), a fresh seed, the table and the
        version asked at. Nothing else of the table goes out."""
        game, m = table.game, table.match
        return Decision.ask(
            table.doc.game,
            seat,
            game.match.observation(m, seat),
            game.match.legal_actions(m),
            table.doc.level,
            self._seed(),
            record.id,
            record.version,
            self.settings.search_budgets.get(table.doc.game),
        )

    async def _computer_move(self, record: Record, table: Table, paced: bool = False) -> Any:
        """The table after the move of its computer seat to act (or, at a table of computers
        that is not a demonstration, after dealing its next partie), None when there is nothing
        for the computer to do, or :data:`_DROPPED` for an answer that is no legal action."""
        doc, game, m = table.doc, table.game, table.match
        seat = game.match.to_act(m)
        if seat is None:
            if doc.demo or doc.humans or not game.match.deal_over(m) or game.match.is_over(m):
                return None
            return table.moved(doc, game.match.next_deal(m, self._rng()))
        if seat not in doc.computers or not self.people_here(record.id, doc):
            return None
        job = self.job(record, table, seat)
        pause = self._pace(game, m) if paced else 0.0
        answer, _ = await asyncio.gather(self.deciders.decide(job), asyncio.sleep(pause))
        DECISION_SECONDS.labels(doc.game, job.level).observe(answer.seconds)
        try:
            action = game.engine.Action.parse(answer.action)
            if action not in game.match.legal_actions(m):
                raise ValueError(answer.action)
            moved = game.match.apply(m, action)
        except (ValueError, IllegalAction):
            log.warning("dropped an answer that is no legal action at %s: %r", record.id, answer)
            DROPPED.labels(doc.game, "illegal").inc()
            return _DROPPED
        return table.moved(doc, moved)

    def people_here(self, table_id: str, doc: TableDoc) -> bool:
        """Whether the computer may play at this table now: always at a table of its own seats
        only; at a table where it stands in for a person (:attr:`TableDoc.stand_in`), only while
        someone who plays their own seat has a page open there (presence, as this process
        knows it): a table whose people have all gone is not played on by computers alone."""
        if not doc.stand_in:
            return True
        here = set(self.live.presence.here(table_id))
        return any(seat in here for seat in doc.present_humans)

    def _pace(self, game: Game, m: Any) -> float:
        delay = self.settings.bot_delay_ms
        if game.match.trick_gathered(m):
            delay += self.settings.trick_pause_ms
        return delay / 1000

    async def sweep(self) -> list[str]:
        gone = await super().sweep()
        for table_id in gone:
            task = self._runners.pop(table_id, None)
            if task is not None:
                task.cancel()
        return gone

    async def close(self) -> None:
        """Stop the computer seats' tasks."""
        tasks = list(self._runners.values())
        self._runners.clear()
        for task in tasks:
            task.cancel()
        # Each runner logs its own failures; here they are only waited for.
        await asyncio.gather(*tasks, return_exceptions=True)
        await super().close()  # the deciders are their maker's to close
