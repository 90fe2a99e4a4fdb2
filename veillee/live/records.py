"""Live records: the one core under tables and score sheets (DESIGN.md §3–4).

A *live record* is a store record that several people change at once: a table or a score sheet.
:class:`LiveRecords` does for one kind of record everything such a record needs, once:

- every accepted change is written (``UPDATE … WHERE version = v``) before anyone is told;
- each change carries a client id: a repeat is acknowledged again (``duplicate``), never
  applied twice, also when the repeat races its first copy;
- of two changes racing for one version exactly one is written; a change made without a version
  is judged again on the record as it now is (up to :data:`RACE_RETRIES` times, then ``busy``),
  a change made on a version the record has left is refused (``version_conflict``);
- every new version is announced on the record's channel (``"<kind>:<id>"``, topic ``v``:
  ``"<version>"``, or ``"gone"``; :mod:`veillee.live.follow`) and handed to this process's
  :class:`~veillee.live.fanout.Fanout`;
- :meth:`LiveRecords.sweep` deletes the records whose lifetime has run out;
- an id or a token that is not of the shape this site makes (:func:`well_formed_id`,
  :func:`well_formed_token`) is answered as unknown without asking the store, which may not be
  able to hold it (PostgreSQL refuses a NUL in a string).

The table service and the sheet service only say what a change is (a function from the record
as it is now to its new document) and how long a record lives.

Fan-out (DESIGN.md §3): each process keeps one :class:`~veillee.live.fanout.Fanout` per kind,
holding the watchers (open sockets) of the records they follow (:mod:`veillee.live.fanout`).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any

from veillee.bus import Bus
from veillee.live.fanout import GONE, VERSION, Fanout
from veillee.live.follow import Follower
from veillee.live.presence import ANSWERS_S, Presence
from veillee.store import Commit, NotFound, Record, Store, TokenTaken, VersionConflict, token_hash

Clock = Callable[[], datetime]
"""The current UTC time (injectable, so that tests cover lifetimes without waiting)."""
Change = Callable[[Record], dict[str, Any]]
"""A change: the record's new document, computed from the record as it is now. Raises
:class:`Refusal` (nothing is written then)."""
RACE_RETRIES = 5
"""How often a change without a version is judged again after losing a race, before ``busy``."""

RECORD_ID = r"[A-Za-z0-9_-]{1,64}"
"""The shape of a record id: what the store makes (``secrets.token_urlsafe``, 16 characters) or
a caller chose, in the store's 64 characters."""
TOKEN = r"[A-Za-z0-9_-]{16,128}"
"""The shape of a seat or sheet token: ``secrets.token_urlsafe`` of 24 or 32 bytes (32 or 43
characters), with room to grow."""
_RECORD_ID = re.compile(RECORD_ID)
_TOKEN = re.compile(TOKEN)

log = logging.getLogger(__name__)


def well_formed_id(record_id: str) -> bool:
    """Whether ``record_id`` has the shape of a record id (:data:`RECORD_ID`).

    >>> well_formed_id("Qx3_-aZ09"), well_formed_id(chr(0)), well_formed_id("a" * 65)
    (True, False, False)
    """
    return _RECORD_ID.fullmatch(record_id) is not None


def well_formed_token(token: str) -> bool:
    """Whether ``token`` has the shape of a token (:data:`TOKEN`)."""
    return _TOKEN.fullmatch(token) is not None


class LiveRefusal(StrEnum):
    """The core's own refusals (the kind's *gone* code is the kind's: ``table_gone``,
    ``sheet_gone``)."""

    VERSION_CONFLICT = "version_conflict"
    """The change was made on a version the record has left."""
    BUSY = "busy"
    """Other changes kept winning the race (:data:`RACE_RETRIES`)."""
    TOKEN_TAKEN = "token_taken"
    """A token to give with the change opens something already (a seat request's key that is
    another seat's token): the caller says what that means to its request."""


class Refusal(Exception):
    """A change or request refused; ``reason`` is a stable code the web layer translates: a rules
    or sheet reason code (``"must_follow_suit"``, ``"match_decided"`` …) or one of the core's
    (:class:`LiveRefusal`, the kind's *gone* code such as ``"table_gone"``). Nothing was
    changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def utc_now() -> datetime:
    """The current time, UTC (the default :data:`Clock`)."""
    return datetime.now(UTC)


class LiveRecords:
    """The live records of one ``kind`` (``"table"``, ``"sheet"``) in ``store``, announced on
    ``bus``.

    ``gone``: the reason code for a record that does not exist (never made, expired, swept).
    ``lifetime(data)``: how long a record with document ``data`` lives after its last change.
    ``follower``: this process's listening to the bus (:class:`~veillee.live.follow.Follower`),
    shared by every part that follows a record (chat, presence, voice); default: one of its own
    on ``bus``. :attr:`presence` says which viewer keys have a socket open at a record, in every
    process (:class:`~veillee.live.presence.Presence`, which gives the other processes
    ``presence_answers_s`` to say who they hold at a record this one does not follow).
    """

    def __init__(
        self,
        kind: str,
        store: Store,
        bus: Bus,
        *,
        gone: str,
        lifetime: Callable[[dict[str, Any]], timedelta],
        clock: Clock | None = None,
        follower: Follower | None = None,
        presence_answers_s: float = ANSWERS_S,
    ) -> None:
        self.kind = kind
        self.store = store
        self.bus = bus
        self.follower = follower or Follower(bus)
        self.gone = gone
        self.lifetime = lifetime
        self.clock: Clock = clock or utc_now
        self.fanout = Fanout(self.follower, self.channel, self._load_or_none)
        self.presence = Presence(self.follower, self.channel, answers_s=presence_answers_s)

    async def close(self) -> None:
        """Stop following records' presence (the process is stopping)."""
        await self.presence.close()

    def channel(self, record_id: str) -> str:
        """The bus channel of one record: ``"<kind>:<id>"``."""
        return f"{self.kind}:{record_id}"

    def _expiry(self, data: dict[str, Any]) -> datetime:
        return self.clock() + self.lifetime(data)

    async def create(
        self, data: dict[str, Any], tokens: dict[str, str], record_id: str | None = None
    ) -> Record:
        """Store a new record at version 0 with ``tokens`` (token -> role, stored hashed only).
        ``record_id``: a chosen id (tests), else a random one."""
        return await self.store.create(
            self.kind,
            data,
            roles={token_hash(token): role for token, role in tokens.items()},
            expires_at=self._expiry(data),
            record_id=record_id,
        )

    async def load(self, record_id: str) -> Record:
        """The record as stored now. Raises Refusal(gone) (also for a record of another kind).
        While the record is followed here, the next change is judged on it without a load
        (:meth:`Fanout.known`)."""
        record = await self._load_or_none(record_id)
        if record is None:
            raise Refusal(self.gone)
        self.fanout.known(record)
        return record

    async def _load_or_none(self, record_id: str) -> Record | None:
        if not well_formed_id(record_id):
            return None
        try:
            record = await self.store.load(record_id)
        except NotFound:
            return None
        return record if record.kind == self.kind else None

    async def role(self, record_id: str, token: str) -> str | None:
        """The role ``token`` holds on ``record_id`` (``"seat:0"``, ``"scorer"`` …), or None for a
        token of another record or of none (or of a shape this site never makes)."""
        if not (well_formed_id(record_id) and well_formed_token(token)):
            return None
        found = await self.store.role_of(token_hash(token))
        if found is None or found[0] != record_id:
            return None
        return found[1]

    async def add_role(self, record_id: str, token: str, role: str) -> None:
        """Give one more ``token`` (stored hashed) ``role`` on the record. Raises Refusal(gone)."""
        if not well_formed_id(record_id):
            raise Refusal(self.gone)
        try:
            await self.store.add_role(record_id, token_hash(token), role)
        except NotFound:
            raise Refusal(self.gone) from None

    async def commit(
        self,
        record_id: str,
        change: Change,
        *,
        client_id: str | None = None,
        version: int | None = None,
        record: Record | None = None,
        tokens: dict[str, str] | None = None,
    ) -> Commit:
        """Write ``change`` of the record, announce it, and return the record as stored.

        ``client_id``: the change's id; one applied before is acknowledged again
        (``duplicate=True``, the record as it stands) without calling ``change``. ``version``:
        the version the change was made on; if the record has left it the change is refused
        (``version_conflict``). Without a version a change that loses a race is judged again on
        the new record, up to :data:`RACE_RETRIES` times (then ``busy``). ``record``: the
        record as the caller has it, to save a load (a stale one only costs a retry).
        ``tokens``: token -> role to give with this change, in the same write (stored hashed).
        A change that returns the document unchanged writes nothing: the record as it stands is
        returned (``duplicate=False``), at its version.

        The change is first judged on the record in hand (``record``, else the newest one this
        process's fan-out holds, :meth:`latest`) and written without asking the store anything
        before: the write itself refuses a stale version and recognises a repeated client id.
        Anything but a clean write (a refusal, a stale version) is then decided the careful way,
        on the record loaded afresh, so the answer is the one the store gives.

        Raises Refusal: the kind's gone code, ``version_conflict``, ``busy``, ``token_taken``
        (a token of ``tokens`` opens something already), or what ``change`` raises."""
        in_hand = record if record is not None and record.id == record_id else None
        in_hand = in_hand or self.latest(record_id)
        if in_hand is not None and (version is None or version == in_hand.version):
            done = await self._write(in_hand, change, client_id, tokens)
            if done is not None:
                return done
        for _ in range(RACE_RETRIES):
            record = await self.load(record_id)
            if client_id is not None and await self._applied(record_id, client_id):
                # A repeat must be acknowledged even when it would no longer be accepted: look
                # before judging it.
                return Commit(record, duplicate=True)
            if version is not None and version != record.version:
                raise Refusal(LiveRefusal.VERSION_CONFLICT)
            data = change(record)
            if data == record.data and not tokens:
                # Nothing to write (a seat saying again that it is ready): no new version.
                return Commit(record, duplicate=False)
            try:
                return await self._commit(record, data, client_id, tokens)
            except VersionConflict:
                if version is None:
                    continue
                # Two sockets of one seat sending one change at once: the one that lost the
                # race still hears that its change is in.
                if client_id is not None and await self._applied(record_id, client_id):
                    return Commit(await self.load(record_id), duplicate=True)
                raise Refusal(LiveRefusal.VERSION_CONFLICT) from None
        raise Refusal(LiveRefusal.BUSY)

    def latest(self, record_id: str) -> Record | None:
        """The newest version of the record this process has (its fan-out's), or None."""
        return self.fanout.latest(record_id)

    async def _write(
        self,
        record: Record,
        change: Change,
        client_id: str | None,
        tokens: dict[str, str] | None,
    ) -> Commit | None:
        """The change judged on ``record`` and written, or None if it was refused, changed
        nothing or the record had moved on (the caller then decides on the record as stored)."""
        try:
            data = change(record)
            if data == record.data and not tokens:
                return None
            return await self._commit(record, data, client_id, tokens)
        except (Refusal, VersionConflict):
            return None

    async def _commit(
        self,
        record: Record,
        data: dict[str, Any],
        client_id: str | None,
        tokens: dict[str, str] | None,
    ) -> Commit:
        """Write ``data`` over ``record`` (still at its version) with ``tokens`` and announce
        it. Raises VersionConflict, Refusal(gone), Refusal(token_taken)."""
        try:
            done = await self.store.commit(
                record.id,
                record.version,
                data,
                client_id=client_id,
                expires_at=self._expiry(data),
                roles={token_hash(t): role for t, role in (tokens or {}).items()},
            )
        except NotFound:
            raise Refusal(self.gone) from None
        except TokenTaken:
            raise Refusal(LiveRefusal.TOKEN_TAKEN) from None
        if not done.duplicate:
            await self._announce(done.record)
        return done

    async def _applied(self, record_id: str, client_id: str) -> bool:
        return await self.store.applied(record_id, client_id) is not None

    async def _announce(self, record: Record) -> None:
        # This process's watchers first, from the record in hand (and so before this process
        # hears its own message back from the bus, which it then ignores); then the others.
        self.fanout.deliver(record)
        await self.follower.publish(self.channel(record.id), VERSION, str(record.version))

    async def delete(self, record_id: str) -> bool:
        """Delete the record now, whatever its lifetime, and tell its watchers as a sweep does.
        Returns whether there was a record of this kind to delete."""
        if await self._load_or_none(record_id) is None:
            return False
        if not await self.store.delete(record_id):
            return False
        await self._gone(record_id)
        return True

    async def _gone(self, record_id: str) -> None:
        await self.follower.publish(self.channel(record_id), VERSION, GONE)
        self.fanout.gone(record_id)

    async def sweep(self) -> list[str]:
        """Delete every record of this kind whose lifetime has run out at ``clock()``, and tell
        its watchers (``"gone"`` on the bus). Returns the ids deleted."""
        now = self.clock()
        deleted = []
        for record_id in await self.store.expired(now, kind=self.kind):
            if await self.store.delete(record_id, expired_by=now):
                deleted.append(record_id)
                await self._gone(record_id)
        if deleted:
            log.info("swept %d %s record(s)", len(deleted), self.kind)
        return deleted


async def sweep_forever(
    sweeps: Sequence[Callable[[], Awaitable[list[str]]]], interval_s: float
) -> None:
    """Run every sweep in ``sweeps`` each ``interval_s`` seconds, forever (cancel to stop). A
    sweep that fails is logged with its traceback and tried again at the next round."""
    while True:
        await asyncio.sleep(interval_s)
        for sweep in sweeps:
            try:
                await sweep()
            except Exception:
                log.exception("sweep failed; trying again in %s s", interval_s)
