"""Two server processes on one PostgreSQL and one Redis (two apps in this process, each with its
own store connections and bus): a change made through one reaches the sockets open on the other,
which loads the record once per change however many sockets it holds; both table and sheet
sockets."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from tests.conftest import make_settings
from veillee.tables import HUMAN, seat_view
from veillee.web import create_app


@asynccontextmanager
async def started(tmp_path: Path, pg_url: str, redis_url: str) -> AsyncIterator[FastAPI]:
    settings = make_settings(tmp_path)
    settings.database_url, settings.redis_url = pg_url, redis_url
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture
async def two(
    tmp_path: Path, pg_url: str, redis_url: str
) -> AsyncIterator[tuple[FastAPI, FastAPI]]:
    async with (
        started(tmp_path / "a", pg_url, redis_url) as a,
        started(tmp_path / "b", pg_url, redis_url) as b,
    ):
        yield a, b


async def receive(ws: AsyncWebSocketSession, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.receive_text(), 5))
        if message["type"] == kind:
            return message


async def test_a_change_on_one_process_reaches_the_others_sockets_with_one_load(
    two: tuple[FastAPI, FastAPI], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two
    record, grants = await a.state.tables.create_table("chouine", (HUMAN, HUMAN))
    tokens = {g.seat: g.token for g in grants}
    loads_on_b: list[str] = []
    load = b.state.store.load

    async def counted(record_id: str) -> Any:
        loads_on_b.append(record_id)
        return await load(record_id)

    monkeypatch.setattr(b.state.store, "load", counted)
    path = f"/ws/tables/{record.id}"
    transport = ASGIWebSocketTransport(b)
    try:
        async with (
            httpx.AsyncClient(transport=transport, base_url="http://t") as c,
            AsyncExitStack() as stack,
        ):
            seats = [0, 0, 1]
            sockets = [await stack.enter_async_context(aconnect_ws(path, c)) for _ in seats]
            for ws, seat in zip(sockets, seats, strict=True):
                await ws.send_text(json.dumps({"type": "hello", "token": tokens[seat]}))
                await receive(ws, "state")
            loads_on_b.clear()
            for version in (1, 2):
                now = await a.state.tables.load(record.id)
                to_act = seat_view(now, 0)["view"]["deal"]["to_act"]
                legal = seat_view(now, to_act)["view"]["deal"]["legal"]
                await a.state.tables.act(record.id, to_act, f"c{version}", legal[0], now.version)
                for ws, seat in zip(sockets, seats, strict=True):
                    state = await receive(ws, "state")
                    assert (state["version"], state["seat"]) == (version, seat)
        assert loads_on_b == [record.id, record.id]  # one per change, not one per socket
    finally:
        await a.state.store.delete(record.id)


async def test_a_sheet_row_entered_on_one_process_shows_on_the_other(
    two: tuple[FastAPI, FastAPI],
) -> None:
    a, b = two
    made = await a.state.sheets.create("aluette", ("N & S", "E & W"), {}, 0)
    transport = ASGIWebSocketTransport(b)
    try:
        async with (
            httpx.AsyncClient(transport=transport, base_url="http://t") as c,
            aconnect_ws(f"/ws/sheets/{made.record.id}", c) as viewer,
        ):
            await viewer.send_text(json.dumps({"type": "hello", "token": made.viewer_token}))
            assert (await receive(viewer, "sheet"))["version"] == 0
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(a), base_url="http://t"
            ) as api:
                r = await api.post(
                    f"/api/sheets/{made.record.id}/changes",
                    json={"type": "add", "client_id": "x1", "side": 1, "outcome": "mordienne"},
                    headers={"authorization": f"Bearer {made.scorer_token}"},
                )
                assert r.status_code == 200
            live = await receive(viewer, "sheet")
            assert (live["version"], live["sheet"]["status"]["rows"]) == (1, [[0, 2]])
    finally:
        await a.state.store.delete(made.record.id)


async def test_a_shared_table_across_two_processes_seats_and_shows_presence(
    two: tuple[FastAPI, FastAPI],
) -> None:
    """The host's page on one process, the friend's on the other: the friend sits through the
    second, and each sees the other come and go."""
    a, b = two
    made = await a.state.tables.create_shared_table("chouine", {"best_of": 3})
    path = f"/ws/tables/{made.table_id}"
    async with (
        httpx.AsyncClient(transport=ASGIWebSocketTransport(a), base_url="http://t") as on_a,
        httpx.AsyncClient(transport=ASGIWebSocketTransport(b), base_url="http://t") as on_b,
        aconnect_ws(path, on_a) as host,
    ):
        await host.send_text(json.dumps({"type": "hello", "token": made.token}))
        assert (await receive(host, "state"))["seated"] == [True, False]
        assert (await receive(host, "presence"))["here"] == [0]
        friend = (await on_b.post(f"/api/tables/{made.table_id}/seats")).json()
        assert friend["seat"] == 1
        assert (await receive(host, "state"))["seated"] == [True, True]
        async with aconnect_ws(path, on_b) as ws:
            await ws.send_text(json.dumps({"type": "hello", "token": friend["token"]}))
            await receive(ws, "state")
            # Its own process knows it at once, the host's a moment later (over Redis).
            here = (await receive(ws, "presence"))["here"]
            while here != [0, 1]:
                assert here == [1]
                here = (await receive(ws, "presence"))["here"]
            assert (await receive(host, "presence"))["here"] == [0, 1]
        assert (await receive(host, "presence"))["here"] == [0]
