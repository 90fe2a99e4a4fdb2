"""The store: versioned JSON records, their tokens, the ids of applied client actions, and the
chat lines said beside a record (which never move its version)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from veillee.handoff import BatchThread, Outcome
from veillee.store.schema import actions, chat_lines, records, tokens

MIGRATIONS = Path(__file__).parent / "migrations"
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
_ADD_TOKEN = tokens.insert()
_ADD_RECORD = records.insert()
MAX_BATCH = 64
"""Most transactions the SQLite writer commits together (see :class:`_Writer`)."""


class NotFound(Exception):
    """No record with that id (never created, expired, or deleted)."""


class VersionConflict(Exception):
    """The record moved on since the version the change was based on; reload and retry."""


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


def _chat_line(row: Any) -> ChatLine:
    return ChatLine(
        seq=row.seq,
        seat=row.seat,
        text=row.text,
        at=_utc(row.at) or datetime.now(UTC),
        client_id=row.client_id,
    )


def _encode(data: dict[str, Any]) -> str:
    """A record's document as stored: compact JSON."""
    return json.dumps(data, separators=(",", ":"))


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
        data=json.loads(row.data),
        updated_at=_utc(row.updated_at) or datetime.now(UTC),
        expires_at=_utc(row.expires_at),
    )


class _Writer(BatchThread[Callable[[sa.Connection], Any]]):
    """The one thread that writes an SQLite database, on one connection it keeps open.

    :meth:`run` hands it a transaction body and waits for the outcome. The thread takes every
    body waiting when it is free (at most :data:`MAX_BATCH`, see
    :class:`~veillee.handoff.BatchThread`) and runs them in one SQLite transaction, each in a
    savepoint of its own: a body that raises leaves nothing written and its caller gets what it
    raised, the others are written; then one commit, and only after it does any caller hear its
    outcome (a failed commit fails them all, nothing written). So a burst of changes costs one
    commit and one wake-up of the event loop, and each change is still judged alone (its
    ``WHERE version = v``, its client id) on what the ones before it wrote.
    """

    def __init__(self, engine: sa.Engine) -> None:
        self._engine = engine
        self._conn: sa.Connection | None = None
        super().__init__("sqlite-writer", MAX_BATCH)

    def started(self) -> None:
        self._conn = self._engine.connect()

    def stopped(self) -> None:
        # sqlite3 connections are closed by the thread that uses them.
        if self._conn is not None:
            self._conn.close()
        self._engine.dispose()

    def handle(self, jobs: list[Callable[[sa.Connection], Any]]) -> list[Outcome]:
        conn = self._conn
        assert conn is not None
        outcomes: list[Outcome] = []
        try:
            with conn.begin():
                if len(jobs) == 1:
                    outcomes.append((jobs[0](conn), None))
                else:
                    # The savepoints go to the driver's connection itself: SQLAlchemy's
                    # begin_nested() cost 90 us a body here, the two statements 3 us.
                    driver = conn.connection.driver_connection
                    assert driver is not None
                    for body in jobs:
                        driver.execute("SAVEPOINT body")
                        try:
                            outcomes.append((body(conn), None))
                        except Exception as exc:
                            driver.execute("ROLLBACK TO body")
                            outcomes.append((None, exc))
                        driver.execute("RELEASE body")
        except Exception as exc:
            # The body of a lone transaction raised, or the commit failed: nothing was written.
            return [(None, exc)] * len(jobs)
        return outcomes


class Store:
    """Async access to records. Create with :meth:`open`, close with :meth:`close`.

    ``url`` is an SQLAlchemy async URL: ``sqlite+aiosqlite:///path.db`` (embedded default, WAL) or
    ``postgresql+asyncpg://…`` (scale-out). :meth:`open` runs the Alembic migrations to head.

    Every write is one transaction body run whole by :meth:`_transaction`. On SQLite they all go
    through one writer thread holding one connection (:class:`_Writer`: SQLite has one writer;
    reads go on beside it in WAL through the async engine), which commits the bodies waiting
    together; writers wait their turn in this process, not in SQLite's busy loop. On PostgreSQL
    a transaction runs on a connection of the async pool.
    """

    def __init__(self, engine: AsyncEngine, writer: sa.Engine | None = None) -> None:
        self.engine = engine
        self._writer = _Writer(writer) if writer is not None else None

    async def _transaction(self, body: Callable[[sa.Connection], T]) -> T:
        """``body(connection)`` in one transaction, committed if it returns, rolled back if it
        raises (what it raises comes through)."""
        if self._writer is None:
            async with self.engine.begin() as conn:
                return await conn.run_sync(body)
        return await self._writer.run(body)

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
            # The writer thread's own engine (the same file through the standard sqlite3).
            writer = sa.create_engine(
                url.replace("+aiosqlite", "", 1), pool_size=1, max_overflow=0, **kwargs
            )
            # Its transactions begin as SQLAlchemy says (savepoints included: see _Writer), and
            # take the write lock at once (a body's reads and writes see one state).
            event.listen(writer, "connect", _sqlite_own_transactions)
            event.listen(writer, "begin", _sqlite_begin)
        engine = create_async_engine(url, **kwargs)
        for sync_engine in (engine.sync_engine, writer):
            if sync_engine is not None and url.startswith("sqlite"):
                event.listen(sync_engine, "connect", _sqlite_pragmas)
        # Migrate before the writer thread connects: two connections switching a new file to
        # WAL at once fail with "database is locked" at once, whatever their busy timeout.
        await _migrate(engine)
        return cls(engine, writer)

    async def close(self) -> None:
        """Release every connection."""
        if self._writer is not None:
            await self._writer.close()
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
        there first, NotFound if the record is gone.
        """
        now = datetime.now(UTC)
        # Everything but the SQL is done here, on the caller's side: the writer thread's
        # Python holds the GIL the event loop needs.
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
            except sa.exc.IntegrityError:
                # Nothing was written. A repeated client id: the record as it stands.
                repeat = None if client_id is None else await self._transaction(repeated)
                if repeat is None:
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
    ) -> tuple[ChatLine, bool]:
        """Write ``text`` said by ``seat`` at ``at`` as the record's next chat line (its ``seq``
        one more than the last). A ``client_id`` already written to this record's chat is not
        written again: the line as first written is returned with ``True`` (a repeat). Two lines
        racing for one ``seq`` are both written, one after the other. With ``keep``, the lines
        older than the newest ``keep`` are deleted in the same transaction. Raises NotFound."""

        def write(conn: sa.Connection) -> tuple[ChatLine, bool]:
            seen = conn.execute(
                sa.select(chat_lines).where(
                    chat_lines.c.record_id == record_id, chat_lines.c.client_id == client_id
                )
            ).first()
            if seen is not None:
                return _chat_line(seen), True
            found = conn.execute(sa.select(records.c.id).where(records.c.id == record_id))
            if found.first() is None:
                raise NotFound(record_id)
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

    async def chat_lines_said(self, record_id: str, seat: int, since: datetime) -> int:
        """How many chat lines ``seat`` has said on the record after ``since``."""
        query = sa.select(sa.func.count()).where(
            chat_lines.c.record_id == record_id,
            chat_lines.c.seat == seat,
            chat_lines.c.at > since,
        )
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar() or 0)


async def _migrate(engine: AsyncEngine) -> None:
    """Run the Alembic migrations to head on ``engine``, in one transaction."""

    def upgrade(connection: sa.Connection) -> None:
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
    conn.exec_driver_sql("BEGIN IMMEDIATE")
