import asyncio
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from veillee.store import NotFound, Store, TokenTaken, VersionConflict, records, token_hash


@pytest.fixture
async def store(tmp_path: Path):
    s = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/t.db")
    yield s
    await s.close()


async def test_commit_moves_the_version_and_keeps_the_data(store: Store) -> None:
    rec = await store.create("table", {"n": 0}, {token_hash("tok"): "seat:0"})
    done = await store.commit(rec.id, 0, {"n": 1}, client_id="c1")
    assert not done.duplicate and done.record.version == 1
    again = await store.load(rec.id)
    assert again.version == 1 and again.data == {"n": 1} and again.kind == "table"
    assert await store.role_of(token_hash("tok")) == (rec.id, "seat:0")
    assert await store.role_of(token_hash("other")) is None


async def test_repeated_client_id_is_acknowledged_not_applied(store: Store) -> None:
    rec = await store.create("table", {"n": 0})
    await store.commit(rec.id, 0, {"n": 1}, client_id="same")
    repeat = await store.commit(rec.id, 1, {"n": 99}, client_id="same")
    assert repeat.duplicate and repeat.record.data == {"n": 1}
    assert (await store.load(rec.id)).version == 1


async def test_stale_version_conflicts(store: Store) -> None:
    rec = await store.create("table", {"n": 0})
    await store.commit(rec.id, 0, {"n": 1})
    with pytest.raises(VersionConflict):
        await store.commit(rec.id, 0, {"n": 2})
    assert (await store.load(rec.id)).data == {"n": 1}


async def test_racing_commits_exactly_one_wins(store: Store) -> None:
    rec = await store.create("table", {"n": 0})
    results = await asyncio.gather(
        *(store.commit(rec.id, 0, {"n": i}, client_id=f"c{i}") for i in range(8)),
        return_exceptions=True,
    )
    wins = [r for r in results if not isinstance(r, BaseException)]
    assert len(wins) == 1
    assert all(isinstance(r, VersionConflict) for r in results if r not in wins)
    assert (await store.load(rec.id)).version == 1


async def test_expired_records_are_listed_and_deleted(store: Store) -> None:
    now = datetime.now(UTC)
    old = await store.create("table", {}, {token_hash("x"): "seat:1"}, expires_at=now)
    fresh = await store.create("table", {}, expires_at=now + timedelta(hours=1))
    assert await store.expired(now) == [old.id]
    await store.delete(old.id)
    with pytest.raises(NotFound):
        await store.load(old.id)
    assert await store.role_of(token_hash("x")) is None
    assert (await store.load(fresh.id)).version == 0


async def test_applied_tells_the_version_a_client_id_produced(store: Store) -> None:
    rec = await store.create("sheet", {"n": 0})
    assert await store.applied(rec.id, "c1") is None
    await store.commit(rec.id, 0, {"n": 1}, client_id="c1")
    assert await store.applied(rec.id, "c1") == 1
    assert await store.applied(rec.id, "c2") is None


async def test_delete_expired_by_spares_a_record_whose_life_was_extended(store: Store) -> None:
    now = datetime.now(UTC)
    rec = await store.create("sheet", {}, {token_hash("y"): "scorer"}, expires_at=now)
    # A change moved its expiry on after the sweeper listed it: the sweeper must not delete it.
    await store.commit(rec.id, 0, {"n": 1}, expires_at=now + timedelta(hours=1))
    assert await store.delete(rec.id, expired_by=now) is False
    assert (await store.load(rec.id)).version == 1
    assert await store.delete(rec.id, expired_by=now + timedelta(hours=2)) is True
    assert await store.role_of(token_hash("y")) is None
    assert await store.delete(rec.id) is False  # already gone: no error


async def test_a_commit_returns_the_record_with_its_kind(store: Store) -> None:
    rec = await store.create("sheet", {"n": 0})
    done = await store.commit(rec.id, 0, {"n": 1})
    assert (done.record.kind, done.record.version, done.record.data) == ("sheet", 1, {"n": 1})


async def test_changes_made_at_once_are_each_judged_alone(store: Store) -> None:
    # Changes made at the same moment are written one after the other, each in a transaction
    # of its own: a change that fails after its UPDATE leaves nothing, the others are written,
    # and each is judged on what the ones before it wrote.
    a = await store.create("table", {"n": 0}, {token_hash("taken"): "seat:0"})
    b = await store.create("table", {"n": 0})
    waiting = [
        store.commit(a.id, 0, {"n": 1}, roles={token_hash("taken"): "seat:1"}),  # token clash
        store.commit(b.id, 0, {"n": 1}, client_id="b1"),
        store.commit(b.id, 0, {"n": 2}, client_id="b2"),  # stale once b1 is written
        store.commit(b.id, 1, {"n": 3}, client_id="b1"),  # b1 again: a repeat
        store.commit(b.id, 1, {"n": 4}, client_id="b4"),
    ]
    clash, b1, stale, repeat, b4 = await asyncio.gather(*waiting, return_exceptions=True)
    assert isinstance(clash, TokenTaken)
    assert isinstance(stale, VersionConflict)
    assert not isinstance(b1, BaseException) and (b1.duplicate, b1.record.version) == (False, 1)
    assert not isinstance(repeat, BaseException) and repeat.duplicate
    # (a repeat is answered with the record as it stands when the repeat is judged)
    assert (repeat.record.version, repeat.record.data) == (1, {"n": 1})
    assert not isinstance(b4, BaseException) and (b4.record.version, b4.record.data) == (
        2,
        {"n": 4},
    )
    assert ((await store.load(a.id)).version, (await store.load(a.id)).data) == (0, {"n": 0})
    assert await store.role_of(token_hash("taken")) == (a.id, "seat:0")
    assert (await store.load(b.id)).data == {"n": 4}
    assert await store.applied(b.id, "b1") == 1 and await store.applied(b.id, "b2") is None


async def test_the_writer_connects_to_a_migrated_wal_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new SQLite file is switched to WAL and migrated by one connection before the writer
    opens its own: two connections switching a new file to WAL at once fail with "database is
    locked" whatever their busy timeout (a CI run's server failed to start so)."""
    path = tmp_path / "new.db"
    seen: list[tuple[str, bool]] = []
    connect = records._LoopWriter._connect

    def look_then_connect(writer: records._LoopWriter) -> sa.Connection:
        with closing(sqlite3.connect(path)) as conn:
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        seen.append((mode, "alembic_version" in tables))
        return connect(writer)

    monkeypatch.setattr(records._LoopWriter, "_connect", look_then_connect)
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        rec = await store.create("table", {"n": 0})  # the writer's first transaction
        assert seen == [("wal", True)]
        assert (await store.load(rec.id)).data == {"n": 0}
    finally:
        await store.close()


async def test_the_write_ahead_log_is_checkpointed_beside_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop's writer never checkpoints (its connection's autocheckpoint is off); a thread
    copies the log into the database a moment after something was written, so that the file
    alone (read as immutable: without its log) holds the newest version."""
    monkeypatch.setattr(records, "CHECKPOINT_S", 0.05)
    path = tmp_path / "wal.db"
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        rec = await store.create("table", {"n": 0})
        for n in range(20):
            await store.commit(rec.id, n, {"n": n + 1})
        writer = store._writer
        assert writer is not None and writer._conn is not None
        driver = writer._conn.connection.driver_connection
        assert driver is not None
        assert driver.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0

        def in_the_file() -> int:
            with closing(sqlite3.connect(f"file:{path}?immutable=1", uri=True)) as conn:
                try:
                    row = conn.execute("SELECT version FROM records WHERE id = ?", (rec.id,))
                except sqlite3.OperationalError:  # not even the tables yet
                    return -1
                return int(row.fetchone()[0])

        for _ in range(100):
            if in_the_file() == 20:
                break
            await asyncio.sleep(0.02)
        assert in_the_file() == 20 and writer.written == 0
    finally:
        await store.close()
