"""The fuzz of tests/reliability on PostgreSQL, which refuses what SQLite takes (a NUL in a
string): fuzzed frames on a table socket, and fuzzed ids and tokens at every door of a real
server, with no traceback in its log."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fastapi import FastAPI

from tests.browser.conftest import serving
from tests.conftest import make_settings
from tests.reliability.fuzz import Tracebacks, fuzz_doors, fuzz_table_socket
from veillee.web import create_app


@pytest.fixture
async def pg_app(tmp_path: Path, pg_url: str) -> AsyncIterator[FastAPI]:
    settings = make_settings(tmp_path)
    settings.database_url = pg_url
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


async def test_fuzzed_messages_on_postgres_never_break_the_socket(pg_app: FastAPI) -> None:
    with Tracebacks.counted() as tracebacks:
        refused = await fuzz_table_socket(pg_app, rounds=300, seed=2027)
    assert refused > 250
    assert not tracebacks.records, str(tracebacks)


async def test_fuzzed_ids_and_tokens_on_postgres_never_reach_the_store(
    tmp_path: Path, pg_url: str
) -> None:
    settings = make_settings(tmp_path)
    settings.database_url = pg_url
    with serving(settings) as base, Tracebacks.counted() as tracebacks:
        answers = await fuzz_doors(base, rounds=150, seed=15)
    assert not tracebacks.records, str(tracebacks)
    assert any(a.startswith(("table_gone", "sheet_gone")) for a in answers), answers
