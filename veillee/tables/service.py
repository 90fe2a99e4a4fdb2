"""The table service: seats and seat tokens, actions, computer seats, lifetimes (DESIGN.md §3).

Every game goes through the registry (``find_game``, ``find_match``, ``<game>.bot``) and the
match contract of ``docs/game-contract.md``; nothing here knows the rules of any game.

Flow of a change: load the record, check the client id was not applied already, check the
action with the rules, write the new match with ``UPDATE … WHERE version = v`` (the store), then
publish ``"<version>"`` on the bus channel ``table:<id>`` and wake the computer seats. Sockets
reload the record on each bus message and send each seat ``match.view(m, seat)`` only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from veillee.bus import Bus
from veillee.config import Settings
from veillee.games import IllegalAction
from veillee.store import Commit, NotFound, Record, Store, VersionConflict, token_hash
from veillee.tables.table import COMPUTER, HUMAN, KIND, GameModules, TableDoc

Clock = Callable[[], datetime]
log = logging.getLogger(__name__)


class TableRefusal(Exception):
    """A change the table refuses; ``reason`` is a stable code translated by the web layer
    (``"bad_action"``, ``"version_conflict"``, ``"table_gone"``, ``"bad_options"`` or any rules
    reason code such as ``"must_follow_suit"``). Nothing was changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class SeatGrant:
    """A seat at a table and its token (sent once to the browser, stored only hashed)."""

    table_id: str
    seat: int
    token: str


def channel(table_id: str) -> str:
    """The bus channel on which a table's new versions are published."""
    return f"table:{table_id}"


def fresh_rng() -> random.Random:
    """A generator seeded from the OS; the seed is never stored nor sent."""
    return random.Random(secrets.randbits(128))


SERVER_OPTIONS = frozenset({"rng", "first_dealer"})
"""Keyword arguments of ``new_match`` that are never table options: the generator and the
first dealer are the server's, so every new match draws its first dealer at random."""


def _check_options(mods: GameModules, options: dict[str, Any]) -> None:
    # Only the game's declared options may be set, and strictly typed (no "5", 5.0, True).
    try:
        mods.game.INFO.table_options(options)
    except ValueError as exc:
        raise TableRefusal("bad_options") from exc


def seat_view(record: Record, seat: int) -> dict[str, Any]:
    """What ``seat`` is sent about the table in ``record``: ``{"version", "seat", "game",
    "seats", "options", "view"}`` where ``view`` is ``match.view(m, seat)`` and nothing else of
    the match (the deck order stays on the server)."""
    doc = TableDoc.from_data(record.data)
    match = GameModules.of(doc.game).match
    m = match.from_json(doc.match)
    return {
        "version": record.version,
        "seat": seat,
        "game": doc.game,
        "seats": list(doc.seats),
        "options": dict(doc.options),
        "view": match.view(m, seat),
    }


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
        self.store = store
        self.bus = bus
        self.settings = settings
        self.clock: Clock = clock or (lambda: datetime.now(UTC))
        self._runners: dict[str, asyncio.Task[None]] = {}
        self._dirty: set[str] = set()

    # ---- creation and seats -------------------------------------------------------------

    def _rng(self) -> random.Random:
        if self._seeded is None:
            return fresh_rng()
        return random.Random(self._seeded.getrandbits(128))

    def _record_id(self) -> str | None:
        # None lets the store draw the id from the OS.
        return None if self._seeded is None else f"t{self._seeded.getrandbits(64):016x}"

    async def create_table(
        self, game: str, seats: tuple[str, ...], options: dict[str, Any] | None = None
    ) -> tuple[Record, list[SeatGrant]]:
        """Deal a new match of ``game`` (random first dealer) with ``seats`` (``"human"`` or
        ``"computer"`` per seat) and return the record with one token per human seat.

        Raises KeyError for an unknown game, TableRefusal("bad_options") for options the match
        refuses."""
        mods = GameModules.of(game)
        opts = dict(options or {})
        _check_options(mods, opts)
        try:
            m = mods.match.new_match(self._rng(), opts)
        except (TypeError, ValueError) as exc:
            raise TableRefusal("bad_options") from exc
        if len(seats) != mods.match.seats or any(s not in (HUMAN, COMPUTER) for s in seats):
            raise ValueError("one 'human' or 'computer' per seat")
        doc = TableDoc(game, opts, tuple(seats), mods.match.to_json(m))
        tokens = {i: secrets.token_urlsafe(24) for i, kind in enumerate(seats) if kind == HUMAN}
        record = await self.store.create(
            KIND,
            doc.to_data(),
            roles={token_hash(tok): f"seat:{i}" for i, tok in tokens.items()},
            expires_at=self._expiry(doc),
            record_id=self._record_id(),
        )
        grants = [SeatGrant(record.id, i, tok) for i, tok in tokens.items()]
        self.kick(record.id)
        return record, grants

    async def create_computer_table(
        self, game: str, options: dict[str, Any] | None = None
    ) -> SeatGrant:
        """A table where a person sits at seat 0 and the computer plays every other seat."""
        seats = GameModules.of(game).match.seats
        _, grants = await self.create_table(game, (HUMAN,) + (COMPUTER,) * (seats - 1), options)
        return grants[0]

    async def seat_of(self, table_id: str, token: str) -> int | None:
        """The seat that ``token`` holds at ``table_id``, or None (unknown token, other table)."""
        found = await self.store.role_of(token_hash(token))
        if found is None or found[0] != table_id or not found[1].startswith("seat:"):
            return None
        return int(found[1].split(":", 1)[1])

    async def load(self, table_id: str) -> Record:
        """The table as stored now. Raises TableRefusal("table_gone")."""
        try:
            return await self.store.load(table_id)
        except NotFound as exc:
            raise TableRefusal("table_gone") from exc

    # ---- changes by seats ---------------------------------------------------------------

    async def act(
        self, table_id: str, seat: int, client_id: str, text: str, version: int | None = None
    ) -> Commit:
        """Apply the action ``text`` (the game's notation, e.g. ``"JH tierce"``) for ``seat``.

        ``version``, when given, is the version the client saw: if the table has moved on the
        action is refused with ``"version_conflict"`` (two racing actions: exactly one wins).
        Raises TableRefusal with ``"bad_action"`` (unparseable text) or the rules' reason code
        (``match.why_illegal``); nothing changes then."""

        def change(mods: GameModules, m: Any) -> Any:
            try:
                action = mods.game.Action.parse(text)
            except ValueError as exc:
                raise TableRefusal("bad_action") from exc
            reason = mods.match.why_illegal(m, seat, action)
            if reason is not None:
                raise TableRefusal(reason)
            return mods.match.apply(m, action)

        return await self._change(table_id, client_id, version, change, retry=False)

    async def next_deal(
        self, table_id: str, seat: int, client_id: str, version: int | None = None
    ) -> Commit:
        """Deal the next partie/hand once the current one is over (any seated person may ask).
        Raises TableRefusal("deal_not_over" | "match_over")."""

        def change(mods: GameModules, m: Any) -> Any:
            return mods.match.next_deal(m, self._rng())

        return await self._change(table_id, client_id, version, change, retry=version is None)

    async def new_match(
        self,
        table_id: str,
        seat: int,
        client_id: str,
        options: dict[str, Any] | None = None,
        version: int | None = None,
    ) -> Commit:
        """Abandon the match and start a new one (score 0–0, new random first dealer) with
        ``options`` merged over the table's (only keyword options of the game's ``new_match``).
        Raises TableRefusal("bad_options")."""
        record = await self.load(table_id)
        doc = TableDoc.from_data(record.data)
        _check_options(GameModules.of(doc.game), options or {})
        new_opts = {
            key: value
            for key, value in {**doc.options, **(options or {})}.items()
            if key not in SERVER_OPTIONS
        }

        def restart(mods: GameModules, m: Any) -> Any:
            try:
                return mods.match.new_match(self._rng(), new_opts)
            except (TypeError, ValueError) as exc:
                raise TableRefusal("bad_options") from exc

        return await self._change(
            table_id, client_id, version, restart, retry=version is None, options=new_opts
        )

    async def _change(
        self,
        table_id: str,
        client_id: str | None,
        version: int | None,
        change: Callable[[GameModules, Any], Any],
        retry: bool,
        options: dict[str, Any] | None = None,
    ) -> Commit:
        for _attempt in range(5):
            record = await self.load(table_id)
            if client_id is not None and await self._applied(table_id, client_id):
                return Commit(record, duplicate=True)
            if version is not None and version != record.version:
                raise TableRefusal("version_conflict")
            doc = TableDoc.from_data(record.data)
            mods = GameModules.of(doc.game)
            try:
                m = change(mods, mods.match.from_json(doc.match))
            except IllegalAction as exc:
                raise TableRefusal(exc.reason) from exc
            new_doc = TableDoc(
                doc.game,
                options if options is not None else doc.options,
                doc.seats,
                mods.match.to_json(m),
            )
            try:
                done = await self.store.commit(
                    table_id,
                    record.version,
                    new_doc.to_data(),
                    client_id=client_id,
                    expires_at=self._expiry(new_doc),
                )
            except NotFound as exc:
                raise TableRefusal("table_gone") from exc
            except VersionConflict as exc:
                # Two sockets of one seat re-sending the same change: the one that lost the
                # race must still hear that its change is in (an ack, ``duplicate``).
                if client_id is not None and await self._applied(table_id, client_id):
                    return Commit(await self.load(table_id), duplicate=True)
                if retry:
                    continue
                raise TableRefusal("version_conflict") from exc
            if not done.duplicate:
                await self.bus.publish(channel(table_id), str(done.record.version))
                self.kick(table_id)
            return Commit(done.record, done.duplicate)
        raise TableRefusal("version_conflict")

    async def _applied(self, table_id: str, client_id: str) -> bool:
        # A repeated id must be acknowledged even when its action would no longer be legal,
        # so look before judging it.
        return await self.store.applied(table_id, client_id) is not None

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
        while True:
            self._dirty.discard(table_id)
            try:
                record = await self.step(table_id, paced=True)
            except TableRefusal:
                return
            except Exception:
                # A failing computer player must not take the server down; the next person's
                # move or reconnect kicks it again.
                log.exception("computer seat failed at table %s", table_id)
                return
            if record is None and table_id not in self._dirty:
                return

    async def step(
        self, table_id: str, paced: bool = False, record: Record | None = None
    ) -> Record | None:
        """Play one computer move at ``table_id`` if a computer seat is to act (an all-computer
        table also deals its next partie by itself); return the table afterwards, or None when
        nothing was for the computer to do. With ``paced`` it first waits ``bot_delay_ms`` (and
        ``trick_pause_ms`` more when a trick has just been gathered).

        The move is ``bot.choose(observation, legal_actions, rng)`` with the ``"deal"`` part of
        ``match.observation(m, seat)``, computed in a worker thread. Raises
        TableRefusal("table_gone"). ``record``: the table as the caller last saw it, to save
        a load (if it is stale the write is refused and the fresh table returned)."""
        if record is None or record.id != table_id:
            record = await self.load(table_id)
        doc = TableDoc.from_data(record.data)
        mods = GameModules.of(doc.game)
        m = mods.match.from_json(doc.match)
        seat = mods.match.to_act(m)
        if seat is None:
            if doc.humans or not mods.match.deal_over(m) or mods.match.is_over(m):
                return None
            m2 = mods.match.next_deal(m, self._rng())
        elif doc.seats[seat] != COMPUTER:
            return None
        else:
            if paced:
                await asyncio.sleep(self._pace(mods, m, seat))
            observation = mods.match.observation(m, seat)["deal"]
            legal = mods.match.legal_actions(m)
            action = await asyncio.to_thread(mods.bot.choose, observation, legal, self._rng())
            m2 = mods.match.apply(m, action)
        new_doc = TableDoc(doc.game, doc.options, doc.seats, mods.match.to_json(m2))
        try:
            done = await self.store.commit(
                table_id, record.version, new_doc.to_data(), expires_at=self._expiry(new_doc)
            )
        except NotFound as exc:
            raise TableRefusal("table_gone") from exc
        except VersionConflict:
            # Someone else moved the table meanwhile (a person restarting the match): look again.
            return await self.load(table_id)
        await self.bus.publish(channel(table_id), str(done.record.version))
        return done.record

    def _pace(self, mods: GameModules, m: Any, seat: int) -> float:
        delay = self.settings.bot_delay_ms
        deal = mods.match.view(m, seat).get("deal", {})
        if not deal.get("trick") and deal.get("last_trick"):
            delay += self.settings.trick_pause_ms
        return delay / 1000

    # ---- lifetimes ----------------------------------------------------------------------

    def _expiry(self, doc: TableDoc) -> datetime:
        idle = (
            self.settings.computer_table_idle_s
            if doc.computers
            else self.settings.shared_table_idle_s
        )
        return self.clock() + timedelta(seconds=idle)

    async def sweep(self) -> list[str]:
        """Delete every table whose lifetime has run out at ``clock()``; tell their sockets
        (``"gone"`` on the bus). Returns the ids deleted."""
        gone = await self.store.expired(self.clock(), kind=KIND)
        for table_id in gone:
            await self.store.delete(table_id)
            task = self._runners.pop(table_id, None)
            if task is not None:
                task.cancel()
            await self.bus.publish(channel(table_id), "gone")
        return gone

    async def run_sweeper(self) -> None:
        """Sweep every ``settings.sweep_interval_s`` seconds, forever (cancel to stop)."""
        while True:
            await asyncio.sleep(self.settings.sweep_interval_s)
            with contextlib.suppress(Exception):
                await self.sweep()

    async def close(self) -> None:
        """Stop the computer seats' tasks."""
        tasks = list(self._runners.values())
        self._runners.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
