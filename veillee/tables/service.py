"""The table service: seats and seat tokens, moves, computer seats, lifetimes (DESIGN.md §3).

A thin layer over :class:`~veillee.tables.live.LiveRecords`, which writes, de-duplicates,
announces and sweeps every change. This module only says what a change of a table is, through
the registry (:func:`veillee.games.find`) and the match contract; it knows no game.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from veillee.bus import Bus
from veillee.config import Settings
from veillee.games import Game, IllegalAction, find
from veillee.games.contract import BadOptions
from veillee.handoff import CallThread
from veillee.store import Commit, Record, Store
from veillee.tables.live import Clock, LiveRecords, Refusal
from veillee.tables.table import COMPUTER, HUMAN, KIND, SPECTATOR, TableDoc

log = logging.getLogger(__name__)

# Seconds before a failed computer move is tried again (one wait per retry).
COMPUTER_RETRY_S = (0.5, 2.0, 5.0)


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


@dataclass(frozen=True)
class SeatGrant:
    """A seat at a table and its token (sent once to the browser, stored only hashed)."""

    table_id: str
    seat: int
    token: str


@dataclass(frozen=True)
class DemoGrant:
    """A demonstration table and its spectator token (sent once, stored only hashed)."""

    table_id: str
    token: str


def fresh_rng() -> random.Random:
    """A generator seeded from the OS; the seed is never stored nor sent."""
    return random.Random(secrets.randbits(128))


def table_options(game: Game, chosen: Mapping[str, object]) -> dict[str, int]:
    """The full options of a table of ``game`` from those ``chosen``; the one place options are
    checked (:meth:`~veillee.games.contract.GameInfo.table_options`). Raises
    Refusal("bad_options")."""
    try:
        return game.info.table_options(chosen)
    except BadOptions:
        raise Refusal("bad_options") from None


def new_match(game: Game, rng: random.Random, options: Mapping[str, int]) -> Any:
    """A new match of ``game`` with full ``options``: the one call of the match contract's
    ``new_match`` (the first dealer and the first deal are drawn from ``rng``)."""
    return game.match.new_match(rng, options)


PLAYERS_BATCH = 16
"""Most computer decisions handed to their thread at once."""
JOIN_RETRIES = 5
"""How often taking a seat is tried again after another change won the race for the table."""


def seat_view(record: Record, seat: int, table: Table | None = None) -> dict[str, Any]:
    """What ``seat`` is sent about the table in ``record``: ``{"version", "seat", "game",
    "seats", "options", "seated", "ready", "shared", "expires_at", "view"}`` where ``view`` is
    ``match.view(m, seat)`` and nothing else of the match (the deck order stays on the server);
    ``seated`` says per seat whether someone sits there, ``ready`` which seats asked for the
    next deal, ``expires_at`` when the table is dropped unless something happens (ISO 8601,
    UTC). ``table``: the record already read (:meth:`TableService.table`)."""
    table = table or Table.read(record.data)
    doc = table.doc
    return {
        "version": record.version,
        "seat": seat,
        "game": doc.game,
        "seats": list(doc.seats),
        "options": dict(doc.options),
        "seated": list(doc.seated),
        "ready": list(doc.ready),
        "shared": doc.shared,
        "expires_at": record.expires_at.isoformat() if record.expires_at else None,
        "view": table.game.match.view(table.match, seat),
    }


def seat_summary(record: Record, seat: int) -> dict[str, Any]:
    """What the resume list shows ``seat`` of its table: ``{"table_id", "game", "url", "seat",
    "seats", "seated", "ready", "expires_at", "match", "score", "to_act", "phase",
    "seat_names", "partner"}``: the match's public part (``view["match"]``: score, length,
    results), ``score`` as the game counts it for the seat's side (``[its side's, the other
    side's]``: the match contract's ``score``), whose turn it is, the deal view's ``phase`` (what
    the seat to act is doing, where the game's view says it; None where the view has none), the
    names the game declares for its seats (``GameInfo.seat_names``) and the seat's partner
    (``GameInfo.partners``; None where every seat plays for itself); never a card."""
    table = Table.read(record.data)
    full = seat_view(record, seat, table)
    return {
        "table_id": record.id,
        "game": full["game"],
        "url": f"/{full['game']}/table/{record.id}",
        "seat": seat,
        "seats": full["seats"],
        "seated": full["seated"],
        "ready": full["ready"],
        "expires_at": full["expires_at"],
        "match": full["view"]["match"],
        "score": list(table.game.match.score(table.match, seat)),
        "to_act": full["view"]["deal"].get("to_act"),
        "phase": full["view"]["deal"].get("phase"),
        "seat_names": list(table.game.info.seat_names),
        "partner": table.game.info.partners[seat] if table.game.info.partners else None,
    }


def spectator_view(record: Record) -> dict[str, Any]:
    """What the spectator of a demonstration table is sent: the keys of :func:`seat_view` with
    ``seat`` ``None`` and ``view`` the match's ``spectator_view`` (every hand face up). Raises
    Refusal("not_a_demo") for any table a person sits at, or that is not a demonstration: no
    table where someone plays is ever shown this way."""
    doc = TableDoc.from_data(record.data)
    if not doc.watchable:
        raise Refusal("not_a_demo")
    match = find(doc.game).match
    return {
        "version": record.version,
        "seat": None,
        "game": doc.game,
        "seats": list(doc.seats),
        "options": dict(doc.options),
        "seated": list(doc.seated),
        "ready": list(doc.ready),
        "shared": doc.shared,
        "expires_at": record.expires_at.isoformat() if record.expires_at else None,
        "view": match.spectator_view(match.from_json(doc.match)),
    }


def _advanced(table: Table, step: Callable[[Any], Any]) -> Table:
    """``table`` with its match after ``step(match)``; an IllegalAction becomes a Refusal."""
    try:
        m = step(table.match)
    except IllegalAction as exc:
        raise Refusal(exc.reason) from None
    return table.moved(table.doc, m)


class TableService:
    """Tables in the store, driven by seats (through tokens) and by the computer players.

    ``clock`` returns the current UTC time (injectable for the lifetime tests). Computer moves
    run as asyncio tasks that compute the move in a worker thread, paced by
    ``settings.bot_delay_ms`` (plus ``trick_pause_ms`` when a trick has just been gathered).
    With ``autoplay=False`` nothing runs by itself: the caller drives the computer seats with
    :meth:`step` (the self-play tests do, to see every version). ``seed`` (tests only) makes
    table ids, deals and the computer's choices reproducible.
    """

    def __init__(
        self,
        store: Store,
        bus: Bus,
        settings: Settings,
        clock: Clock | None = None,
        autoplay: bool = True,
        seed: int | None = None,
    ) -> None:
        self.autoplay = autoplay
        # Tests pass a seed so that a failure reproduces: table ids, deals and the computer's
        # choices then all come from one seeded generator. In service everything is drawn
        # from the OS and no seed exists.
        self._seeded = None if seed is None else random.Random(seed)
        self.settings = settings
        self.live = LiveRecords(
            KIND, store, bus, gone="table_gone", lifetime=self._lifetime, clock=clock
        )
        self.store = store
        self.bus = bus
        self._runners: dict[str, asyncio.Task[None]] = {}
        self._dirty: set[str] = set()
        self._players: CallThread | None = None

    # ---- creation and seats -------------------------------------------------------------

    def _rng(self) -> random.Random:
        if self._seeded is None:
            return fresh_rng()
        return random.Random(self._seeded.getrandbits(128))

    def _record_id(self) -> str | None:
        # None lets the store draw the id from the OS.
        return None if self._seeded is None else f"t{self._seeded.getrandbits(64):016x}"

    async def create_table(
        self,
        game: str,
        seats: tuple[str, ...],
        options: Mapping[str, object] | None = None,
        *,
        match: Any = None,
        spectator: str | None = None,
        open_seats: tuple[int, ...] = (),
    ) -> tuple[Record, list[SeatGrant]]:
        """Deal a new match of ``game`` (random first dealer) with ``seats`` (``"human"`` or
        ``"computer"`` per seat) and return the record with one token per human seat, but for
        ``open_seats``: human seats left for whoever opens the table's link (:meth:`join`).

        ``match`` (test hooks and tools only): a match value to seat instead of a new deal; its
        ``options`` are stored as given, unchecked. ``spectator``: a token for the spectator of
        a demonstration (the computer on every seat; see :meth:`create_demo_table`). Raises
        KeyError for an unknown game, Refusal("bad_options") for options the game does not
        offer, ValueError for seats that do not fit the game (or a spectator at a table with a
        person's seat)."""
        found = find(game)
        if len(seats) != found.info.seats or any(s not in (HUMAN, COMPUTER) for s in seats):
            raise ValueError("one 'human' or 'computer' per seat")
        if spectator is not None and HUMAN in seats:
            raise ValueError("only a table of computers may be watched")
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
            shared=bool(open_seats),
            open=tuple(open_seats),
            demo=spectator is not None,
        )
        tokens = {
            i: secrets.token_urlsafe(24)
            for i, kind in enumerate(seats)
            if kind == HUMAN and i not in open_seats
        }
        roles = {token: f"seat:{i}" for i, token in tokens.items()}
        if spectator is not None:
            roles[spectator] = SPECTATOR
        record = await self.live.create(doc.to_data(), roles, record_id=self._record_id())
        grants = [SeatGrant(record.id, i, token) for i, token in tokens.items()]
        self.kick(record.id)
        return record, grants

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

    async def create_computer_table(
        self, game: str, options: Mapping[str, object] | None = None, *, match: Any = None
    ) -> SeatGrant:
        """A table where a person sits at seat 0 and the computer plays every other seat
        (``match`` as for :meth:`create_table`)."""
        seats = find(game).info.seats
        _, grants = await self.create_table(
            game, (HUMAN,) + (COMPUTER,) * (seats - 1), options, match=match
        )
        return grants[0]

    async def create_shared_table(
        self, game: str, options: Mapping[str, object] | None = None, *, match: Any = None
    ) -> SeatGrant:
        """A table of people: the maker sits at seat 0, every other seat waits for someone to
        open a link to it (:meth:`join`), or for the maker to give it to the computer
        (:meth:`fill`). It waits ``shared_table_fill_s`` for them, then ``shared_table_idle_s``
        after each move. ``match`` and the errors as for :meth:`create_table`."""
        seats = find(game).info.seats
        _, grants = await self.create_table(
            game, (HUMAN,) * seats, options, match=match, open_seats=tuple(range(1, seats))
        )
        return grants[0]

    async def join(self, table_id: str, seat: int | None = None) -> SeatGrant:
        """Sit at a shared table: at ``seat`` (a seat link names its seat), or at its lowest
        open seat (``None``: the table's plain link, as a two-seat table hands out). Returns the
        seat's new token, stored hashed in the same write that marks the seat taken: of two
        people racing for a seat exactly one sits. The table moves on one version, so the seats
        already taken see it. Raises Refusal: ``table_gone``, ``not_shared`` (a computer table:
        nobody joins it), ``table_full`` (no seat open), ``seat_taken`` (``seat`` is someone's
        already), ``seat_computer`` (the maker let the computer play it), ``bad_seat`` (no such
        seat), ``busy``."""
        for _ in range(JOIN_RETRIES):
            record = await self.load(table_id)
            doc = TableDoc.from_data(record.data)
            refusal = doc.seat_refusal(seat)
            if refusal is not None:
                raise Refusal(refusal)
            taken = doc.open[0] if seat is None else seat
            seated = replace(doc, open=tuple(s for s in doc.open if s != taken)).to_data()
            token = secrets.token_urlsafe(24)
            try:
                await self.live.commit(
                    table_id,
                    lambda _, data=seated: data,  # type: ignore[misc]
                    version=record.version,
                    record=record,
                    tokens={token: f"seat:{taken}"},
                )
            except Refusal as exc:
                if exc.reason != "version_conflict":
                    raise
                continue
            return SeatGrant(table_id, taken, token)
        raise Refusal("busy")

    async def summaries(
        self, seats: list[tuple[str, str]]
    ) -> tuple[list[dict[str, Any]], list[str]]:
        """The resume list: for each ``(table_id, token)`` pair that opens a seat, that seat's
        :func:`seat_summary`; the other tables' ids (gone, swept, or never this token's) in the
        second list. Answers only for the tokens given."""
        found: list[dict[str, Any]] = []
        gone: list[str] = []
        for table_id, token in seats:
            seat = await self.seat_of(table_id, token)
            record = None
            if seat is not None:
                try:
                    record = await self.load(table_id)
                except Refusal:
                    record = None
            if record is None or seat is None:
                gone.append(table_id)
            else:
                found.append(seat_summary(record, seat))
        return found, gone

    async def seat_of(self, table_id: str, token: str) -> int | None:
        """The seat that ``token`` holds at ``table_id``, or None (unknown token, other table)."""
        role = await self.live.role(table_id, token)
        if role is None or not role.startswith("seat:"):
            return None
        return int(role.split(":", 1)[1])

    async def viewer_of(self, table_id: str, token: str) -> int | str | None:
        """Who ``token`` is at ``table_id``: its seat (int), :data:`SPECTATOR` for the watcher
        of a demonstration (only while the table is one: the computer on every seat), or None.
        A spectator whose table has gone is None too."""
        role = await self.live.role(table_id, token)
        if role is not None and role.startswith("seat:"):
            return int(role.split(":", 1)[1])
        if role != SPECTATOR:
            return None
        try:
            record = await self.load(table_id)
        except Refusal:
            return None
        return SPECTATOR if TableDoc.from_data(record.data).watchable else None

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

    async def seat_refusal(self, table_id: str, seat: int | None = None) -> str | None:
        """What :meth:`join` would refuse now (``table_gone``, or a reason of
        :meth:`TableDoc.seat_refusal`), or ``None`` when the seat is open; changes nothing. A
        table page asks this first, so that a browser is not sent to ask for a seat it cannot
        have."""
        try:
            record = await self.load(table_id)
        except Refusal as refused:
            return refused.reason
        return TableDoc.from_data(record.data).seat_refusal(seat)

    async def load(self, table_id: str) -> Record:
        """The table as stored now. Raises Refusal("table_gone")."""
        return await self.live.load(table_id)

    # ---- changes by seats ---------------------------------------------------------------

    async def act(
        self, table_id: str, seat: int, client_id: str, text: str, version: int | None = None
    ) -> Commit:
        """Apply the action ``text`` (the game's notation, e.g. ``"JH tierce"``) for ``seat``.

        ``version``, when given, is the version the client saw: if the table has moved on the
        action is refused with ``"version_conflict"`` (two racing actions: exactly one wins).
        Raises Refusal with ``"bad_action"`` (unparseable text) or the rules' reason code
        (``match.why_illegal``); nothing changes then."""

        def play(table: Table) -> Table:
            game = table.game
            if table.doc.open:
                raise Refusal("table_not_full")
            try:
                action = game.engine.Action.parse(text)
            except ValueError:
                raise Refusal("bad_action") from None

            def apply(m: Any) -> Any:
                reason = game.match.why_illegal(m, seat, action)
                if reason is not None:
                    raise Refusal(reason)
                return game.match.apply(m, action)

            return _advanced(table, apply)

        return await self._change(table_id, play, client_id, version)

    async def next_deal(
        self, table_id: str, seat: int, client_id: str, version: int | None = None
    ) -> Commit:
        """``seat`` is ready for what follows the deal that is over: the next partie/hand, or
        once the match is over a new match with the same options. It comes once every seated
        person has asked (a computer seat needs no asking); until then the table records who has
        (``ready``), so each seat sees who is waiting for whom. Asking again changes nothing;
        however the asks race, exactly one deal follows. Raises Refusal("deal_not_over")."""

        def deal(table: Table) -> Table:
            game, doc, m = table.game, table.doc, table.match
            if not game.match.deal_over(m):
                raise Refusal("deal_not_over")
            ready = tuple(sorted({*doc.ready, seat}))
            if any(s not in ready for s in doc.humans):
                return table.moved(replace(doc, ready=ready), m)
            if game.match.is_over(m):
                m2 = new_match(game, self._rng(), doc.options)
                return table.moved(replace(doc, ready=()), m2)
            dealt = _advanced(table, lambda m: game.match.next_deal(m, self._rng()))
            return dealt.moved(replace(dealt.doc, ready=()), dealt.match)

        return await self._change(table_id, deal, client_id, version)

    async def new_match(
        self,
        table_id: str,
        seat: int,
        client_id: str,
        options: Mapping[str, object] | None = None,
        version: int | None = None,
    ) -> Commit:
        """Abandon the match and start a new one (score 0–0, new random first dealer) with
        ``options`` chosen over the table's (those not chosen stay as the table has them).
        Raises Refusal("bad_options")."""
        chosen = dict(options or {})

        def restart(table: Table) -> Table:
            game, doc = table.game, table.doc
            if len(doc.humans) > 1:
                # Nobody throws a match away for the others: a new match is agreed (``next``).
                raise Refusal("restart_shared")
            table_options(game, chosen)  # refuses what the game does not offer
            full = {**doc.options, **chosen}
            return table.moved(replace(doc, options=full), new_match(game, self._rng(), full))

        return await self._change(table_id, restart, client_id, version)

    async def fill(
        self,
        table_id: str,
        seat: int,
        client_id: str,
        seats: Sequence[int],
        version: int | None = None,
    ) -> Commit:
        """The maker of a shared table (``seat`` 0) lets the computer play the open ``seats``
        before the start; the table service then plays them as at a computer table (and starts
        at once if no seat is left open). Raises Refusal: ``not_host`` (another seat asked),
        ``seat_taken`` (one of ``seats`` is not open: someone sat there, or the computer
        already plays it), ``bad_seat`` (no such seat); nothing changes then."""
        chosen = set(seats)

        def give(table: Table) -> Table:
            doc = table.doc
            if not doc.shared or seat != 0:
                raise Refusal("not_host")
            if any(not 0 <= s < len(doc.seats) for s in chosen):
                raise Refusal("bad_seat")
            if not chosen or not chosen <= set(doc.open):
                raise Refusal("seat_taken")
            kinds = tuple(COMPUTER if i in chosen else kind for i, kind in enumerate(doc.seats))
            left = tuple(s for s in doc.open if s not in chosen)
            return table.moved(replace(doc, seats=kinds, open=left), table.match)

        return await self._change(table_id, give, client_id, version)

    async def _change(
        self, table_id: str, move: Move, client_id: str, version: int | None
    ) -> Commit:
        made: list[tuple[dict[str, Any], Table]] = []

        def change(record: Record) -> dict[str, Any]:
            moved = move(self.table(record))
            data = moved.doc.to_data()
            made.append((data, moved))
            return data

        done = await self.live.commit(table_id, change, client_id=client_id, version=version)
        if not done.duplicate and self._written(done.record, made).doc.computers:
            self.kick(table_id)
        return done

    def table(self, record: Record) -> Table:
        """The table ``record`` holds, read once per version while a page shows it (the
        fan-out keeps it beside the version's views), else read now."""
        return self.live.fanout.view(record, _READ, lambda r, _: Table.read(r.data))

    def _written(self, record: Record, made: list[tuple[dict[str, Any], Table]]) -> Table:
        """The table of ``record`` just committed, when it is one of the tables ``made`` (the
        document written is the very one made): kept beside the version, never read again."""
        for data, table in made:
            if data is record.data:
                self.live.fanout.remember(record, _READ, table)
                return table
        return self.table(record)

    # ---- computer seats -----------------------------------------------------------------

    def kick(self, table_id: str) -> None:
        """Make sure the computer seats of ``table_id`` get to play if one of them is to act."""
        if not self.autoplay:
            return
        self._dirty.add(table_id)
        task = self._runners.get(table_id)
        if task is None or task.done():
            self._runners[table_id] = asyncio.create_task(self._run(table_id))

    async def _run(self, table_id: str) -> None:
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

    async def advance(self, table_id: str, client_id: str, version: int | None = None) -> Commit:
        """One step of a demonstration, asked by its spectator: the computer seat to act makes
        its move, exactly as at any table (:meth:`step`). ``version``: the version the
        spectator saw (refused as ``version_conflict`` if the table has moved). Raises Refusal:
        ``not_a_demo`` (a table someone plays moves only by its seats), ``deal_over`` (the deal
        is done: a demonstration deals once), ``table_gone``."""
        record = await self.load(table_id)
        table = self.table(record)
        if not table.doc.watchable:
            raise Refusal("not_a_demo")
        if version is not None and version != record.version:
            raise Refusal("version_conflict")
        moved = await self._computer_move(table)
        if moved is None:
            raise Refusal("deal_over")
        data = moved.doc.to_data()
        done = await self.live.commit(
            table_id, lambda _: data, client_id=client_id, version=record.version, record=record
        )
        self._written(done.record, [(data, moved)])
        return done

    async def step(
        self, table_id: str, paced: bool = False, record: Record | None = None
    ) -> Record | None:
        """Play one computer move at ``table_id`` if a computer seat is to act (an all-computer
        table also deals its next partie by itself); return the table afterwards, or None when
        nothing was for the computer to do. With ``paced`` it first waits ``bot_delay_ms`` (and
        ``trick_pause_ms`` more when a trick has just been gathered). A demonstration is never
        moved here, only by its spectator (:meth:`advance`).

        The move is ``player.choose(observation, legal_actions, rng)`` with the ``"deal"`` part
        of ``match.observation(m, seat)``, computed in a worker thread. Raises
        Refusal("table_gone"). ``record``: the table as the caller last saw it, to save a load
        (if it is stale the write is refused and the fresh table returned)."""
        if record is None or record.id != table_id:
            record = await self.load(table_id)
        table = self.table(record)
        if table.doc.demo:
            return None
        moved = await self._computer_move(table, paced)
        if moved is None:
            return None
        data = moved.doc.to_data()
        try:
            done = await self.live.commit(
                table_id, lambda _: data, version=record.version, record=record
            )
        except Refusal as exc:
            if exc.reason != "version_conflict":
                raise
            # Someone else moved the table meanwhile (a person restarting the match): look again.
            return await self.load(table_id)
        self._written(done.record, [(data, moved)])
        return done.record

    async def _computer_move(self, table: Table, paced: bool = False) -> Table | None:
        """The table after the move of its computer seat to act (or, at a table of computers
        that is not a demonstration, after dealing its next partie), or None when there is
        nothing for the computer to do."""
        doc, game, m = table.doc, table.game, table.match
        seat = game.match.to_act(m)
        if seat is None:
            if doc.demo or doc.humans or not game.match.deal_over(m) or game.match.is_over(m):
                return None
            m2 = game.match.next_deal(m, self._rng())
        elif doc.seats[seat] != COMPUTER:
            return None
        else:
            if paced and (pause := self._pace(game, m, seat)):
                await asyncio.sleep(pause)
            observation = game.match.observation(m, seat)["deal"]
            legal = game.match.legal_actions(m)
            choose = functools.partial(game.player.choose, observation, legal, self._rng())
            action = await self._computer_players().run(choose)
            m2 = game.match.apply(m, action)
        return table.moved(doc, m2)

    def _computer_players(self) -> CallThread:
        # The computer's decisions, in a thread of their own (started on the first one), handed
        # over once per turn of the event loop: waking a thread of the default pool for each
        # cost the loop more than most decisions.
        if self._players is None:
            self._players = CallThread("computer-seats", PLAYERS_BATCH)
        return self._players

    def _pace(self, game: Game, m: Any, seat: int) -> float:
        delay = self.settings.bot_delay_ms
        if self.settings.trick_pause_ms:  # the view says whether a trick was just gathered
            deal = game.match.view(m, seat).get("deal", {})
            if not deal.get("trick") and deal.get("last_trick"):
                delay += self.settings.trick_pause_ms
        return delay / 1000

    # ---- lifetimes ----------------------------------------------------------------------

    def _lifetime(self, data: dict[str, Any]) -> timedelta:
        doc = TableDoc.from_data(data)
        if doc.demo:
            return timedelta(seconds=self.settings.demo_table_idle_s)
        if not doc.shared:
            return timedelta(seconds=self.settings.computer_table_idle_s)
        if doc.open:
            return timedelta(seconds=self.settings.shared_table_fill_s)
        return timedelta(seconds=self.settings.shared_table_idle_s)

    async def sweep(self) -> list[str]:
        """Delete every table whose lifetime has run out at the clock's time; tell their sockets
        (``"gone"`` on the bus) and stop their computer seats. Returns the ids deleted."""
        gone = await self.live.sweep()
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
        players, self._players = self._players, None
        if players is not None:
            await players.close()
