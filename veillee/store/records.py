"""The store: versioned JSON records, their tokens, the ids of applied client actions, and the
chat lines said beside a record (which never move its version).

Why one module of this length: every statement a store runs (records, tokens, applied
actions, chat lines, push subscriptions) shares its two connection paths (SQLite's one writer
in the loop's thread, PostgreSQL's pool) and its migration; split, each part would need both."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import orjson
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from veillee.store.schema import actions, chat_lines, push_subscriptions, records, tokens

MIGRATIONS = Path(__file__).parent / "migrations"
log = logging.getLogger(__name__)
T = TypeVar("T")

# The statements of the hot paths, built once: SQLAlchemy compiles each once per dialect and
# caches it, so a change only binds its values (building a statement per call cost about three
# times the SQLite call it wraps).
_RECORD = sa.select(records).where(records.c.id == sa.bindparam("record_id"))
_RECORD_EXISTS = sa.select(records.c.id).where(records.c.id == sa.bindparam("record_id"))
_ROLE_OF = sa.select(tokens.c.record_id, tokens.c.role).where(
    tokens.c.token_hash == sa.bindparam("digest")
)
_APPLIED = sa.select(actions.c.version).where(
    actions.c.record_id == sa.bindparam("record_id"),
    actions.c.client_id == sa.bindparam("client_id"),
)
_ADVANCE = (
    records.update()
    .where(records.c.id == sa.bindparam("record_id"), records.c.version == sa.bindparam("expected"))
    .values(
        version=sa.bindparam("next_version"),
        data=sa.bindparam("document"),
        updated_at=sa.bindparam("at"),
        expires_at=sa.bindparam("expires"),
    )
    .returning(records.c.kind)
)
_ADD_ACTION = actions.insert()
_SQLITE_ADVANCE = (
    "UPDATE records SET version = ?, data = ?, updated_at = ?, expires_at = ?"
    " WHERE id = ? AND version = ? RETURNING kind"
)
_SQLITE_ADD_ACTION = "INSERT INTO actions (record_id, client_id, version) VALUES (?, ?, ?)"
_SQLITE = sqlite_dialect.dialect()
_SQLITE_TIME: Callable[[datetime | None], str | None] = (
    sa.DateTime(timezone=True).dialect_impl(_SQLITE).bind_processor(_SQLITE) or str
)
"""A time as SQLAlchemy stores it in SQLite (the same text, so that its queries compare)."""
_ADD_TOKEN = tokens.insert()
_ADD_RECORD = records.insert()
CHECKPOINT_S = 2.0
"""How often the SQLite write-ahead log is copied into the database (once written to)."""


class NotFound(Exception):
    """No record with that id (never created, expired, or deleted)."""


class TooFast(Exception):
    """A chat line refused by its rate limit (:meth:`Store.add_chat_line`'s ``at_most``)."""


class VersionConflict(Exception):
    """The record moved on since the version the change was based on; reload and retry."""


class TokenTaken(Exception):
    """A token given with a change opens something already (tokens are unique across every
    record: one token, one seat); nothing was written."""


@dataclass(frozen=True)
class Record:
    """One stored table or sheet. ``data`` is the JSON document as a dict."""

    id: str
    kind: str
    version: int
    data: dict[str, Any]
    updated_at: datetime
    expires_at: datetime | None


@dataclass(frozen=True)
class Commit:
    """What :meth:`Store.commit` did: the record as stored now, and whether the client id had been
    applied before (``duplicate``: nothing was written, the earlier result stands)."""

    record: Record
    duplicate: bool


@dataclass(frozen=True)
class PushSubscription:
    """A seat's Web Push subscription at a record (issue 26): the push service's ``endpoint``
    (a URL), the browser's keys (``p256dh``, its P-256 public key, and ``auth``, its 16-byte
    secret, both base64url as ``PushSubscription.toJSON()`` gives them), the ``lang`` its page
    was in (``"fr"``, ``"en"``), and whether it was ``told`` something since the seat last
    looked."""

    record_id: str
    seat: int
    endpoint: str
    p256dh: str
    auth: str
    lang: str
    told: bool = False


@dataclass(frozen=True)
class ChatLine:
    """One line of a record's chat: ``seq`` counts the record's lines from 1 in the order they
    were written; ``seat`` said ``text`` at ``at`` (UTC), sent under the page's ``client_id``."""

    seq: int
    seat: int
    text: str
    at: datetime
    client_id: str


def token_hash(token: str) -> str:
    """The stored form of a seat or sheet token (SHA-256, hex); tokens are never stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _push_subscription(row: Any) -> PushSubscription:
    return PushSubscription(
        row.record_id, row.seat, row.endpoint, row.p256dh, row.auth, row.lang, bool(row.told)
    )


def _chat_line(row: Any) -> ChatLine:
    return ChatLine(
        seq=row.seq,
        seat=row.seat,
        text=row.text,
        at=_utc(row.at) or datetime.now(UTC),
        client_id=row.client_id,
    )


def _encode(data: dict[str, Any]) -> str:
    """A record's document as stored: compact JSON (orjson: a tenth of the standard library's
    time for a table's document, which is written at every change)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


def _roles(record_id: str, roles: dict[str, str] | None) -> list[dict[str, str]]:
    """The token rows that give each token hash of ``roles`` its role on the record."""
    return [
        {"token_hash": digest, "record_id": record_id, "role": role}
        for digest, role in (roles or {}).items()
    ]


def _record(row: Any) -> Record:
    return Record(
        id=row.id,
        kind=row.kind,
        version=row.version,
        data=orjson.loads(row.data),
        updated_at=_utc(row.updated_at) or datetime.now(UTC),
        expires_at=_utc(row.expires_at),
    )


class _LoopWriter:
    """The one writer of an SQLite database: one connection, used by the event loop's own
    thread, each transaction body run at once, synchronously.

    A change's transaction costs SQLite some 25 us of CPU here (its two statements go to the
    driver, :meth:`Store.commit`; WAL, ``synchronous=NORMAL``: no flush to disk at a commit):
    less than handing it to a thread and back, and with no other thread taking the lock the
    event loop needs meanwhile (issue 28: a writer thread cost the server 150-240 us of CPU a
    commit, bench/RESULTS.md). What could take milliseconds stays
    off the loop: the write-ahead log is checkpointed into the database by a thread of its own
    (:meth:`checkpoint`, ``PASSIVE``: it never waits for the writer nor holds it up), the loop's
    connection never doing it.
    """

    def __init__(self, engine: sa.Engine, path: str) -> None:
        self._engine = engine
        self._path = path
        self._conn: sa.Connection | None = None
        self.written = 0
        """Transactions written since the last checkpoint."""

    def _connect(self) -> sa.Connection:
        conn = self._engine.connect()
        driver = conn.connection.driver_connection
        assert driver is not None
        driver.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints: see checkpoint()
        return conn

    def run(self, body: Callable[[sa.Connection], T]) -> T:
        """``body(connection)`` in one transaction (``BEGIN IMMEDIATE``), committed if it
        returns, rolled back if it raises (what it raises comes through)."""
        if self._conn is None:
            self._conn = self._connect()
        with self._conn.begin():
            done = body(self._conn)
        self.written += 1
        return done

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database (``PRAGMA wal_checkpoint(PASSIVE)``) on a
        connection of its own: called in a thread, never in the event loop."""
        self.written = 0
        with contextlib.closing(sqlite3.connect(self._path, timeout=30)) as conn:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Close the connection (in the thread that used it)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._engine.dispose()


class Store:
    """Async access to records. Create with :meth:`open`, close with :meth:`close`.

    ``url`` is an SQLAlchemy async URL: ``sqlite+aiosqlite:///path.db`` (embedded default, WAL) or
    ``postgresql+asyncpg://…`` (scale-out). :meth:`open` runs the Alembic migrations to head.

    Every write is one transaction body run whole by :meth:`_transaction`. On SQLite they all go
    through one connection, in the event loop's thread (:class:`_LoopWriter`: SQLite has one
    writer; reads go on beside it in WAL through the async engine), and a checkpointer task
    copies the write-ahead log into the database in a thread of its own every
    :data:`CHECKPOINT_S` seconds once anything was written. On PostgreSQL a transaction runs on a
    connection of the async pool.
    """

    def __init__(self, engine: AsyncEngine, writer: _LoopWriter | None = None) -> None:
        self.engine = engine
        self._writer = writer
        self._checkpoints: asyncio.Task[None] | None = None

    async def _transaction(self, body: Callable[[sa.Connection], T]) -> T:
        """``body(connection)`` in one transaction, committed if it returns, rolled back if it
        raises (what it raises comes through)."""
        if self._writer is None:
            async with self.engine.begin() as conn:
                return await conn.run_sync(body)
        if self._checkpoints is None:
            self._checkpoints = asyncio.create_task(self._checkpoint_forever(self._writer))
        return self._writer.run(body)

    @staticmethod
    async def _checkpoint_forever(writer: _LoopWriter) -> None:
        while True:
            await asyncio.sleep(CHECKPOINT_S)
            if writer.written:
                try:
                    await asyncio.to_thread(writer.checkpoint)
                except sqlite3.Error:
                    log.exception("checkpoint failed; trying again in %s s", CHECKPOINT_S)

    @classmethod
    async def open(cls, url: str) -> Store:
        """Connect to ``url``, create the SQLite folder if needed, and migrate the schema."""
        kwargs: dict[str, Any] = {}
        writer = None
        if url.startswith("sqlite"):
            path = url.split(":///", 1)[1]
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"timeout": 30}
            # The writer's own engine (the same file through the standard sqlite3), used from
            # the event loop's thread only.
            writes = sa.create_engine(
                url.replace("+aiosqlite", "", 1), pool_size=1, max_overflow=0, **kwargs
            )
            # Its transactions begin as SQLAlchemy says, and take the write lock at once (a
            # body's reads and writes see one state).
            event.listen(writes, "connect", _sqlite_own_transactions)
            event.listen(writes, "begin", _sqlite_begin)
            event.listen(writes, "connect", _sqlite_pragmas)
            writer = _LoopWriter(writes, path)
        engine = create_async_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        # Migrate before the writer connects: two connections switching a new file to WAL at
        # once fail with "database is locked" at once, whatever their busy timeout.
        await _migrate(engine)
        return cls(engine, writer)

    async def close(self) -> None:
        """Release every connection."""
        checkpoints, self._checkpoints = self._checkpoints, None
        if checkpoints is not None:
            checkpoints.cancel()
            await asyncio.gather(checkpoints, return_exceptions=True)
        if self._writer is not None:
            self._writer.close()
        await self.engine.dispose()

    async def create(
        self,
        kind: str,
        data: dict[str, Any],
        roles: dict[str, str] | None = None,
        expires_at: datetime | None = None,
        record_id: str | None = None,
    ) -> Record:
        """Store a new record at version 0 and return it.

        ``roles`` maps token hashes (see :func:`token_hash`) to roles such as ``"seat:0"`` or
        ``"scorer"``. ``record_id`` defaults to a fresh random id (96 bits, URL-safe).
        """
        now = datetime.now(UTC)
        rid = record_id or secrets.token_urlsafe(12)
        row = {
            "id": rid,
            "kind": kind,
            "version": 0,
            "data": _encode(data),
            "created_at": now,
            "updated_at": now,
            "expires_at": expires_at,
        }
        granted = _roles(rid, roles)

        def insert(conn: sa.Connection) -> None:
            conn.execute(_ADD_RECORD, row)
            if granted:
                conn.execute(_ADD_TOKEN, granted)

        await self._transaction(insert)
        return Record(rid, kind, 0, data, now, expires_at)

    async def add_role(self, record_id: str, digest: str, role: str) -> None:
        """Attach one more token (hash) with ``role`` to a record. Raises NotFound."""

        def insert(conn: sa.Connection) -> None:
            if conn.execute(_RECORD_EXISTS, {"record_id": record_id}).first() is None:
                raise NotFound(record_id)
            conn.execute(_ADD_TOKEN, _roles(record_id, {digest: role}))

        await self._transaction(insert)

    async def load(self, record_id: str) -> Record:
        """The record as stored now. Raises NotFound."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(_RECORD, {"record_id": record_id})).first()
        if row is None:
            raise NotFound(record_id)
        return _record(row)

    async def role_of(self, digest: str) -> tuple[str, str] | None:
        """``(record_id, role)`` for a token hash, or None if no record knows it."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(_ROLE_OF, {"digest": digest})).first()
        return (row.record_id, row.role) if row else None

    async def roles(self, record_id: str) -> list[str]:
        """The roles that have a token on this record (e.g. which seats are taken)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(tokens.c.role).where(tokens.c.record_id == record_id)
            )
            return sorted(r.role for r in rows)

    async def applied(self, record_id: str, client_id: str) -> int | None:
        """The version that ``client_id``'s change produced on this record, or None if that client
        id was never applied (so a caller can acknowledge a repeat before recomputing it)."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(_APPLIED, {"record_id": record_id, "client_id": client_id})
            ).first()
        return None if row is None else int(row.version)

    async def commit(
        self,
        record_id: str,
        expected_version: int,
        data: dict[str, Any],
        client_id: str | None = None,
        expires_at: datetime | None = None,
        roles: dict[str, str] | None = None,
    ) -> Commit:
        """Write ``data`` as version ``expected_version + 1``, only if the record is still at
        ``expected_version`` (optimistic concurrency). ``roles``: token hashes to attach with
        their roles in the same transaction (a seat taken and its token: both or neither).

        A ``client_id`` already applied to this record is not applied again: the result is the
        record as it stands, with ``duplicate=True``. Raises VersionConflict if another change got
        there first, NotFound if the record is gone, TokenTaken if a token of ``roles`` is one
        already (of this record or another).
        """
        now = datetime.now(UTC)
        # Everything but the SQL is made before the transaction begins.
        key = {"record_id": record_id, "client_id": client_id}
        advance = {
            "record_id": record_id,
            "expected": expected_version,
            "next_version": expected_version + 1,
            "document": _encode(data),
            "at": now,
            "expires": expires_at,
        }
        applied = {"record_id": record_id, "client_id": client_id, "version": expected_version + 1}
        granted = _roles(record_id, roles)

        def write(conn: sa.Connection) -> Commit:
            if sqlite is not None:
                return write_sqlite(conn)
            written = conn.execute(_ADVANCE, advance).first()
            if written is None:
                if conn.execute(_RECORD_EXISTS, key).first() is None:
                    raise NotFound(record_id)
                raise VersionConflict(record_id)
            if client_id is not None:
                # A client id already applied to this record breaks the actions' primary key:
                # the whole transaction is undone (see the IntegrityError below). Checking first
                # would cost every change one more statement (on PostgreSQL a round trip).
                conn.execute(_ADD_ACTION, applied)
            if granted:
                conn.execute(_ADD_TOKEN, granted)
            return Commit(
                Record(record_id, written.kind, expected_version + 1, data, now, expires_at),
                duplicate=False,
            )

        sqlite = None
        if self._writer is not None:
            # SQLite, written in the event loop's thread: the two statements go straight to the
            # driver (SQLAlchemy's execution of a cached statement cost ten times the driver's
            # call here).
            sqlite = (
                advance["next_version"],
                advance["document"],
                _SQLITE_TIME(now),
                _SQLITE_TIME(expires_at),
                record_id,
                expected_version,
            )

        def write_sqlite(conn: sa.Connection) -> Commit:
            driver = conn.connection.driver_connection
            assert driver is not None and sqlite is not None
            written = driver.execute(_SQLITE_ADVANCE, sqlite).fetchone()
            if written is None:
                if conn.execute(_RECORD_EXISTS, key).first() is None:
                    raise NotFound(record_id)
                raise VersionConflict(record_id)
            if client_id is not None:
                driver.execute(_SQLITE_ADD_ACTION, (record_id, client_id, expected_version + 1))
            if granted:
                conn.execute(_ADD_TOKEN, granted)
            return Commit(
                Record(record_id, written[0], expected_version + 1, data, now, expires_at),
                duplicate=False,
            )

        def repeated(conn: sa.Connection) -> Commit | None:
            if conn.execute(_APPLIED, key).first() is None:
                return None
            row = conn.execute(_RECORD, key).first()
            if row is None:
                raise NotFound(record_id)
            return Commit(_record(row), duplicate=True)

        for attempt in range(3):
            try:
                return await self._transaction(write)
            except (sa.exc.IntegrityError, sqlite3.IntegrityError):
                # Nothing was written. A repeated client id: the record as it stands; else a
                # token already given (the only other unique key written here).
                repeat = None if client_id is None else await self._transaction(repeated)
                if repeat is None:
                    if granted:
                        raise TokenTaken(record_id) from None
                    raise
                return repeat
            except sa.exc.OperationalError:
                # SQLite "database is locked" (another process writing): wait and try again.
                if attempt == 2:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    async def expired(self, now: datetime, kind: str | None = None) -> list[str]:
        """Ids of records whose ``expires_at`` is at or before ``now`` (optionally of one kind)."""
        query = sa.select(records.c.id).where(
            records.c.expires_at.is_not(None), records.c.expires_at <= now
        )
        if kind is not None:
            query = query.where(records.c.kind == kind)
        async with self.engine.connect() as conn:
            return [r.id for r in await conn.execute(query)]

    async def delete(self, record_id: str, expired_by: datetime | None = None) -> bool:
        """Delete a record with its tokens and action ids; with ``expired_by``, only if its
        ``expires_at`` is at or before that time (a change that just extended its life wins
        over the sweeper). Returns whether a record was deleted (no error if it is gone)."""
        query = records.delete().where(records.c.id == record_id)
        if expired_by is not None:
            query = query.where(records.c.expires_at <= expired_by)

        def delete(conn: sa.Connection) -> bool:
            # The record first: its rowcount says whether it was ours to delete.
            if conn.execute(query).rowcount != 1:
                return False
            conn.execute(actions.delete().where(actions.c.record_id == record_id))
            conn.execute(tokens.delete().where(tokens.c.record_id == record_id))
            conn.execute(chat_lines.delete().where(chat_lines.c.record_id == record_id))
            conn.execute(
                push_subscriptions.delete().where(push_subscriptions.c.record_id == record_id)
            )
            return True

        return await self._transaction(delete)

    # ---- chat lines (beside a record: they never move its version) ---------------------------

    async def add_chat_line(
        self,
        record_id: str,
        seat: int,
        text: str,
        client_id: str,
        at: datetime,
        keep: int | None = None,
        at_most: tuple[int, datetime] | None = None,
    ) -> tuple[ChatLine, bool]:
        """Write ``text`` said by ``seat`` at ``at`` as the record's next chat line (its ``seq``
        one more than the last). A ``client_id`` already written to this record's chat is not
        written again: the line as first written is returned with ``True`` (a repeat). Two lines
        racing for one ``seq`` are both written, one after the other. With ``keep``, the lines
        older than the newest ``keep`` are deleted in the same transaction. With ``at_most``
        ``(n, since)``, a line is refused (TooFast) when ``seat`` has said ``n`` lines after
        ``since`` already: judged in the write, with the record's row locked, so that lines
        racing from several sockets or processes are counted one after the other. Raises
        NotFound, TooFast."""

        def write(conn: sa.Connection) -> tuple[ChatLine, bool]:
            seen = conn.execute(
                sa.select(chat_lines).where(
                    chat_lines.c.record_id == record_id, chat_lines.c.client_id == client_id
                )
            ).first()
            if seen is not None:
                return _chat_line(seen), True
            # FOR UPDATE (PostgreSQL; SQLite has one writer): the lines of one record are
            # counted and written one transaction at a time.
            found = conn.execute(
                sa.select(records.c.id).where(records.c.id == record_id).with_for_update()
            )
            if found.first() is None:
                raise NotFound(record_id)
            if at_most is not None:
                said = conn.execute(
                    sa.select(sa.func.count()).where(
                        chat_lines.c.record_id == record_id,
                        chat_lines.c.seat == seat,
                        chat_lines.c.at > at_most[1],
                    )
                ).scalar()
                if int(said or 0) >= at_most[0]:
                    raise TooFast(record_id)
            last = conn.execute(
                sa.select(sa.func.max(chat_lines.c.seq)).where(chat_lines.c.record_id == record_id)
            ).scalar()
            line = ChatLine((last or 0) + 1, seat, text, at, client_id)
            conn.execute(
                chat_lines.insert().values(
                    record_id=record_id,
                    seq=line.seq,
                    seat=seat,
                    text=text,
                    client_id=client_id,
                    at=at,
                )
            )
            if keep is not None:
                conn.execute(
                    chat_lines.delete().where(
                        chat_lines.c.record_id == record_id, chat_lines.c.seq <= line.seq - keep
                    )
                )
            return line, False

        for attempt in range(8):
            try:
                return await self._transaction(write)
            except (sa.exc.IntegrityError, sa.exc.OperationalError):
                # Another line took this seq (or the same client id came twice at once, or
                # SQLite is locked by another writer, or the record was deleted meanwhile):
                # look again.
                if attempt == 7:
                    raise
                await asyncio.sleep(0.01 * (attempt + 1))
        raise AssertionError("unreachable")

    async def chat_lines(self, record_id: str, after: int = 0, limit: int = 1000) -> list[ChatLine]:
        """The record's chat lines with a ``seq`` above ``after``, oldest first, at most
        ``limit`` of them (none for a record that has none or is gone)."""
        query = (
            sa.select(chat_lines)
            .where(chat_lines.c.record_id == record_id, chat_lines.c.seq > after)
            .order_by(chat_lines.c.seq)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [_chat_line(row) for row in await conn.execute(query)]

    async def chat_line(self, record_id: str, client_id: str) -> ChatLine | None:
        """The line written to the record's chat under ``client_id``, or None."""
        query = sa.select(chat_lines).where(
            chat_lines.c.record_id == record_id, chat_lines.c.client_id == client_id
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _chat_line(row)

    # ---- push subscriptions (beside a record: they never move its version) -------------------

    async def set_push_subscription(self, subscription: PushSubscription) -> None:
        """Keep ``subscription`` for its record and seat, in place of any it had (not told yet).
        Raises NotFound when the record has gone."""
        row = {
            "record_id": subscription.record_id,
            "seat": subscription.seat,
            "endpoint": subscription.endpoint,
            "p256dh": subscription.p256dh,
            "auth": subscription.auth,
            "lang": subscription.lang,
            "told": False,
            "warned": None,
            "at": datetime.now(UTC),
        }
        table = push_subscriptions

        def write(conn: sa.Connection) -> None:
            if conn.execute(_RECORD_EXISTS, {"record_id": subscription.record_id}).first() is None:
                raise NotFound(subscription.record_id)
            conn.execute(
                table.delete().where(
                    table.c.record_id == subscription.record_id,
                    table.c.seat == subscription.seat,
                )
            )
            conn.execute(table.insert().values(**row))

        await self._transaction(write)

    async def push_subscriptions(self, record_id: str) -> list[PushSubscription]:
        """The push subscriptions of ``record_id``'s seats, by seat (none for a record gone)."""
        table = push_subscriptions
        query = sa.select(table).where(table.c.record_id == record_id).order_by(table.c.seat)
        async with self.engine.connect() as conn:
            return [_push_subscription(row) for row in await conn.execute(query)]

    async def delete_push_subscription(
        self, record_id: str, seat: int, endpoint: str | None = None
    ) -> bool:
        """Forget the push subscription of ``seat`` at ``record_id`` (only if it is still the
        one at ``endpoint``, when given: a newer one stays). Returns whether one was deleted."""
        table = push_subscriptions
        query = table.delete().where(table.c.record_id == record_id, table.c.seat == seat)
        if endpoint is not None:
            query = query.where(table.c.endpoint == endpoint)
        return await self._transaction(lambda conn: conn.execute(query).rowcount > 0)

    async def mark_push_told(self, record_id: str, seat: int, told: bool = True) -> bool:
        """Set whether ``seat``'s subscription at ``record_id`` was told something since the seat
        last looked; returns whether this call changed it (of processes racing to tell a seat,
        exactly one sees True)."""
        table = push_subscriptions
        query = (
            table.update()
            .where(table.c.record_id == record_id, table.c.seat == seat, table.c.told == (not told))
            .values(told=told)
        )
        return await self._transaction(lambda conn: conn.execute(query).rowcount > 0)

    async def expiring_push_subscriptions(
        self, kind: str, now: datetime, before: datetime
    ) -> list[tuple[PushSubscription, datetime]]:
        """The push subscriptions of records of ``kind`` that expire after ``now`` and at or
        before ``before``, not yet warned of that expiry, with the expiry."""
        subs = push_subscriptions
        query = (
            sa.select(subs, records.c.expires_at)
            .join(records, records.c.id == subs.c.record_id)
            .where(
                records.c.kind == kind,
                records.c.expires_at > now,
                records.c.expires_at <= before,
                sa.or_(subs.c.warned.is_(None), subs.c.warned != records.c.expires_at),
            )
        )
        async with self.engine.connect() as conn:
            return [
                (_push_subscription(row), _utc(row.expires_at) or row.expires_at)
                for row in await conn.execute(query)
            ]

    async def mark_push_warned(self, record_id: str, seat: int, expires_at: datetime) -> bool:
        """Note that ``seat``'s subscription at ``record_id`` was warned of the expiry
        ``expires_at``; whether this call did (of processes racing, exactly one)."""
        subs = push_subscriptions
        query = (
            subs.update()
            .where(
                subs.c.record_id == record_id,
                subs.c.seat == seat,
                sa.or_(subs.c.warned.is_(None), subs.c.warned != expires_at),
            )
            .values(warned=expires_at)
        )
        return await self._transaction(lambda conn: conn.execute(query).rowcount > 0)


MIGRATION_LOCK = 0x5665696C6C6565
"""The PostgreSQL advisory lock the processes starting on one database take in turn to migrate
it ("Veillee" in hex)."""


async def _migrate(engine: AsyncEngine) -> None:
    """Run the Alembic migrations to head on ``engine``, in one transaction. On PostgreSQL the
    transaction first takes :data:`MIGRATION_LOCK`, so that servers started together on a new
    database migrate it one after the other (the second finds it at head), instead of racing
    to create the same tables."""

    def upgrade(connection: sa.Connection) -> None:
        if connection.dialect.name == "postgresql":
            connection.execute(
                sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
            )
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")

    async with engine.begin() as conn:
        await conn.run_sync(upgrade)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """Every SQLite connection: WAL (readers beside the writer), foreign keys, and a sync at
    each checkpoint rather than each commit (WAL keeps committed transactions across a crash of
    the process)."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def _sqlite_own_transactions(dbapi_conn: Any, _record: Any) -> None:
    """The writer's connection: sqlite3 emits no BEGIN of its own (:func:`_sqlite_begin` does),
    so that a savepoint belongs to the transaction around it (SQLAlchemy's SQLite notes,
    "Enabling Non-Legacy SQLite Transactional Modes")."""
    dbapi_conn.isolation_level = None


def _sqlite_begin(conn: sa.Connection) -> None:
    # (straight to the driver: through SQLAlchemy's execution this cost a third of the
    # writer's time on the loop, issue 28)
    driver = conn.connection.driver_connection
    assert driver is not None
    driver.execute("BEGIN IMMEDIATE")
