"""Fixtures of the table service tests: a fresh SQLite store, a clock moved by hand, and a
table service on both that plays nothing by itself (the test drives the computer seats)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.tables.test_service import Clock, settings
from veillee.bus import InProcessBus
from veillee.store import Store
from veillee.tables import TableService


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/t.db")
    yield s
    await s.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(store: Store, tmp_path: Path, clock: Clock) -> AsyncIterator[TableService]:
    tables = TableService(store, InProcessBus(), settings(tmp_path), clock=clock, autoplay=False)
    yield tables
    await tables.close()
