"""Making tables and taking seats: computer tables, shared tables sat at through links, seat
tokens (sent once, stored hashed), the resume list (DESIGN.md §3, docs/protocol.md §1b)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from veillee.games import Game, find
from veillee.games.contract import BadOptions
from veillee.live import Refusal
from veillee.live.records import LiveRefusal
from veillee.store import Record
from veillee.tables.records import Table, TableRecords
from veillee.tables.table import (
    COMPUTER,
    HUMAN,
    SPECTATOR,
    TableDoc,
    TableRefusal,
    read_seat_role,
    seat_role,
)
from veillee.tables.views import seat_summary


@dataclass(frozen=True)
class SeatGrant:
    """A seat at a table and its token (sent once to the browser, stored only hashed)."""

    table_id: str
    seat: int
    token: str


def table_options(game: Game, chosen: Mapping[str, object]) -> dict[str, int]:
    """The full options of a table of ``game`` from those ``chosen``; the one place options are
    checked (:meth:`~veillee.games.contract.GameInfo.table_options`). Raises
    Refusal("bad_options")."""
    try:
        return game.info.table_options(chosen)
    except BadOptions:
        raise Refusal(TableRefusal.BAD_OPTIONS) from None


def new_match(game: Game, rng: random.Random, options: Mapping[str, int]) -> Any:
    """A new match of ``game`` with full ``options``: the one call of the match contract's
    ``new_match`` (the first dealer and the first deal are drawn from ``rng``)."""
    return game.match.new_match(rng, options)


def holds(doc: TableDoc, seat: int, generation: int) -> bool:
    """Whether a token given ``seat`` at its count ``generation`` still opens it: the seat was
    neither given to someone new since nor left for good by its person."""
    return generation == doc.generation(seat) and seat not in doc.left


JOIN_RETRIES = 5
"""How often taking a seat is tried again after another change won the race for the table."""


class Seating(TableRecords):
    """Making tables and taking their seats (a part of
    :class:`~veillee.tables.service.TableService`)."""

    async def create_table(
        self,
        game: str,
        seats: tuple[str, ...],
        options: Mapping[str, object] | None = None,
        *,
        match: Any = None,
        spectator: str | None = None,
        open_seats: tuple[int, ...] = (),
        level: str | None = None,
        shared: bool | None = None,
    ) -> tuple[Record, list[SeatGrant]]:
        """Deal a new match of ``game`` (random first dealer) with ``seats`` (``"human"`` or
        ``"computer"`` per seat) and return the record with one token per human seat, but for
        ``open_seats``: human seats left for whoever opens the table's link (:meth:`join`).

        ``match`` (test hooks and tools only): a match value to seat instead of a new deal; its
        ``options`` are stored as given, unchecked. ``spectator``: a token for the spectator of
        a demonstration (the computer on every seat; see :meth:`create_demo_table`).
        ``shared`` (test hooks): a table of people with every seat's token given now (default:
        shared when a seat is left open). ``level``: the computer seats' level, one of the
        game's ``GameInfo.levels`` (None: the usual one, the first). Raises KeyError for an
        unknown game, Refusal("bad_options") for options the game does not offer,
        Refusal("bad_level") for a level it does not offer, ValueError for seats that do not
        fit the game (or a spectator at a table with a
        person's seat)."""
        found = find(game)
        if len(seats) != found.info.seats or any(s not in (HUMAN, COMPUTER) for s in seats):
            raise ValueError("one 'human' or 'computer' per seat")
        if spectator is not None and HUMAN in seats:
            raise ValueError("only a table of computers may be watched")
        if level is None:
            level = found.info.levels[0]
        elif level not in found.info.levels:
            raise Refusal(TableRefusal.BAD_LEVEL)
        if match is None:
            full = table_options(found, options or {})
            m = new_match(found, self._rng(), full)
        else:
            full, m = {k: int(v) for k, v in (options or {}).items()}, match  # type: ignore[call-overload]
        doc = TableDoc(
            game,
            full,
            tuple(seats),
            found.match.to_json(m),
            # A table made with seats left open is sat at through links: a shared one.
            shared=bool(open_seats) if shared is None else shared,
            open=tuple(open_seats),
            demo=spectator is not None,
            level=level,
        )
        tokens = {
            i: secrets.token_urlsafe(24)
            for i, kind in enumerate(seats)
            if kind == HUMAN and i not in open_seats
        }
        roles = {token: seat_role(i) for i, token in tokens.items()}
        if spectator is not None:
            roles[spectator] = SPECTATOR
        record = await self.live.create(doc.to_data(), roles, record_id=self._record_id())
        grants = [SeatGrant(record.id, i, token) for i, token in tokens.items()]
        self.committed(record, Table(doc, found, m))
        return record, grants

    async def create_computer_table(
        self,
        game: str,
        options: Mapping[str, object] | None = None,
        *,
        match: Any = None,
        level: str | None = None,
    ) -> SeatGrant:
        """A table where a person sits at seat 0 and the computer plays every other seat at
        ``level`` (``match``, ``level`` and the errors as for :meth:`create_table`)."""
        seats = find(game).info.seats
        _, grants = await self.create_table(
            game, (HUMAN,) + (COMPUTER,) * (seats - 1), options, match=match, level=level
        )
        return grants[0]

    async def create_shared_table(
        self,
        game: str,
        options: Mapping[str, object] | None = None,
        *,
        match: Any = None,
        level: str | None = None,
    ) -> SeatGrant:
        """A table of people: the maker sits at seat 0, every other seat waits for someone to
        open a link to it (:meth:`join`), or for the maker to give it to the computer
        (:meth:`fill`). It waits ``shared_table_fill_s`` for them, then ``shared_table_idle_s``
        after each move. ``level``: the level of the computer seats its maker may give
        (:meth:`fill`). ``match``, ``level`` and the errors as for :meth:`create_table`."""
        seats = find(game).info.seats
        _, grants = await self.create_table(
            game,
            (HUMAN,) * seats,
            options,
            match=match,
            open_seats=tuple(range(1, seats)),
            level=level,
        )
        return grants[0]

    async def join(
        self,
        table_id: str,
        seat: int | None = None,
        generation: int = 0,
        key: str | None = None,
    ) -> SeatGrant:
        """Sit at a shared table: at ``seat`` (a seat link names its seat), or at its lowest
        open seat (``None``: the table's plain link, as a two-seat table hands out). Returns the
        seat's new token, stored hashed in the same write that marks the seat taken: of two
        people racing for a seat exactly one sits. The table moves on one version, so the seats
        already taken see it.

        ``key`` (the page's own, of the shape of a token, ≥ 192 random bits): the request's key,
        which becomes the seat's token, so that the request is safe to repeat when its answer
        was lost (docs/protocol.md §1b): a key that already holds a seat at this table gets that
        seat again, and its token, whatever the seats now open; two requests of one key racing
        sit once. Without it the token is a new random one.

        Raises Refusal: ``table_gone``, ``not_shared`` (a computer table: nobody joins it),
        ``table_full`` (no seat open), ``seat_taken`` (``seat`` is someone's already),
        ``seat_computer`` (the maker let the computer play it), ``bad_seat`` (no such seat),
        ``seat_given`` (the link names a count of the seat given since, ``generation``),
        ``table_left``, ``busy``, ``key_taken`` (``key`` is another seat's token already). A
        seat given to someone new mid-match (its stand-in playing meanwhile) is theirs from this
        write: the stand-in stops."""
        for _ in range(JOIN_RETRIES):
            record = await self.load(table_id)
            if key is not None:
                # Looked up after the load: a request of this key seated since is seen here, or
                # this one's write loses the version race and looks again.
                held = await self.seat_of(table_id, key)
                if held is not None:
                    return SeatGrant(table_id, held, key)
            doc = TableDoc.from_data(record.data)
            refusal = doc.seat_refusal(seat, generation)
            if refusal is not None:
                raise Refusal(refusal)
            taken = doc.open[0] if seat is None else seat
            seated = replace(
                doc,
                open=tuple(s for s in doc.open if s != taken),
                stand_in=tuple(s for s in doc.stand_in if s != taken),
                left=tuple(s for s in doc.left if s != taken),
            ).to_data()
            token = secrets.token_urlsafe(24) if key is None else key
            try:
                done = await self.live.commit(
                    table_id,
                    lambda _, data=seated: data,  # type: ignore[misc]
                    version=record.version,
                    record=record,
                    tokens={token: seat_role(taken, doc.generation(taken))},
                )
            except Refusal as exc:
                if exc.reason == LiveRefusal.TOKEN_TAKEN:
                    # A key that is another seat's token (of another table: this one's was
                    # looked up above) is no key of this page's making.
                    raise Refusal(TableRefusal.KEY_TAKEN) from None
                if exc.reason != LiveRefusal.VERSION_CONFLICT:
                    raise
                continue
            self.seat_taken(done.record, taken)
            return SeatGrant(table_id, taken, token)
        raise Refusal(LiveRefusal.BUSY)

    async def seat_left(self, table_id: str, seat: int) -> None:
        """``seat`` has left ``table_id`` for good: what was kept for it beside the table goes
        with it (its push subscription, issue 26)."""
        await self.store.delete_push_subscription(table_id, seat)

    async def summaries(
        self, seats: list[tuple[str, str]]
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """The resume list: for each ``(table_id, token)`` pair that opens a seat, that seat's
        :func:`seat_summary`; the other tables' ids (gone, swept, or never this token's) in the
        second list. Answers only for the tokens given."""
        found: list[dict[str, Any]] = []
        gone: list[str] = []
        for table_id, token in seats:
            try:
                held = await self._held(table_id, token)
            except Refusal:
                held = None  # the seat was left or given to someone new: not this browser's
            if held is None or held[1] is None:
                gone.append(table_id)
            else:
                found.append(seat_summary(held[0], held[1]))
        return found, gone

    async def _held(
        self, table_id: str, token: str, role: str | None = None
    ) -> tuple[Record, int | None] | None:
        """The table and the seat ``token`` opens there (None for another role's token), or
        None (no such table, or a token of none of its roles). Raises Refusal("seat_given")
        for a seat token that no longer opens its seat (:func:`holds`). ``role``: the token's
        role, if the caller has it."""
        role = role or await self.live.role(table_id, token)
        if role is None:
            return None
        try:
            record = await self.load(table_id)
        except Refusal:
            return None
        held = read_seat_role(role)
        if held is None:
            return record, None
        if not holds(TableDoc.from_data(record.data), *held):
            raise Refusal(TableRefusal.SEAT_GIVEN)
        return record, held[0]

    async def seat_of(self, table_id: str, token: str) -> int | None:
        """The seat that ``token`` opens at ``table_id``, or None (unknown token, other table,
        a seat left or given to someone new since)."""
        try:
            held = await self._held(table_id, token)
        except Refusal:
            return None
        return None if held is None else held[1]

    async def viewer_of(self, table_id: str, token: str) -> int | str | None:
        """Who ``token`` is at ``table_id``: its seat (int), :data:`SPECTATOR` for the watcher
        of a demonstration (only while the table is one: the computer on every seat), or None
        (also once the table has gone). Raises Refusal("seat_given") for the token of a seat
        its person left or its host gave to someone new since."""
        return (await self.viewer_at(table_id, token))[0]

    async def viewer_at(self, table_id: str, token: str) -> tuple[int | str | None, Record | None]:
        """:meth:`viewer_of`, and the table as it was read to say so (None when no table was
        read: an unknown token, a table gone)."""
        role = await self.live.role(table_id, token)
        if role == SPECTATOR:
            try:
                record = await self.load(table_id)
            except Refusal:
                return None, None
            return (SPECTATOR if TableDoc.from_data(record.data).watchable else None), record
        held = await self._held(table_id, token, role)
        return (None, None) if held is None else (held[1], held[0])

    async def seat_refusal(
        self, table_id: str, seat: int | None = None, generation: int = 0
    ) -> str | None:
        """What :meth:`join` would refuse now (``table_gone``, or a reason of
        :meth:`TableDoc.seat_refusal`), or ``None`` when the seat is open; changes nothing. A
        table page asks this first, so that a browser is not sent to ask for a seat it cannot
        have."""
        try:
            record = await self.load(table_id)
        except Refusal as refused:
            return refused.reason
        return TableDoc.from_data(record.data).seat_refusal(seat, generation)
