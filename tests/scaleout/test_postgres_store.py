"""The same store on PostgreSQL: migrations, optimistic concurrency, client-id de-duplication,
the chat's kept lines."""

import asyncio
import secrets
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from veillee.store import Store, VersionConflict, token_hash
from veillee.store.schema import actions, records, tokens


@pytest.fixture
async def store(pg_url: str):
    s = await Store.open(pg_url)
    yield s
    async with s.engine.begin() as conn:
        for table in (actions, tokens, records):
            await conn.execute(sa.delete(table))
    await s.close()


async def test_postgres_store_commits_with_optimistic_concurrency(store: Store) -> None:
    token = secrets.token_urlsafe(16)
    rec = await store.create("table", {"n": 0}, {token_hash(token): "seat:0"})
    results = await asyncio.gather(
        *(store.commit(rec.id, 0, {"n": i}, client_id=f"c{i}") for i in range(6)),
        return_exceptions=True,
    )
    winners = [r for r in results if not isinstance(r, BaseException)]
    assert len(winners) == 1
    assert sum(isinstance(r, VersionConflict) for r in results) == 5
    winning_client = f"c{winners[0].record.data['n']}"
    again = await store.commit(rec.id, 1, {"n": 42}, client_id=winning_client)
    assert again.duplicate and again.record.version == 1
    assert (await store.load(rec.id)).data == winners[0].record.data
    assert await store.role_of(token_hash(token)) == (rec.id, "seat:0")


async def test_postgres_chat_keeps_only_the_newest_lines(store: Store) -> None:
    rec = await store.create("table", {"n": 0}, {})
    at = datetime.now(UTC)
    for n in range(1, 8):
        await store.add_chat_line(rec.id, n % 2, f"line {n}", f"c{n}", at, keep=3)
    assert [line.seq for line in await store.chat_lines(rec.id)] == [5, 6, 7]
    # A repeat is answered as first written and drops nothing more.
    assert (await store.add_chat_line(rec.id, 1, "line 7", "c7", at, keep=1))[1] is True
    assert len(await store.chat_lines(rec.id)) == 3
