"""What the table and sheet sockets share through the one skeleton and the one core: the hello
timeout, ping, the one error shape; the fan-out (no record reload per open socket, one view per
seat and version); and the app's one sweeper, which expires idle sheets and tables and spares
live ones (injected clock)."""

from __future__ import annotations

import asyncio
import json
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from httpx_ws import WebSocketDisconnect, aconnect_ws

import veillee.web.table_routes as table_routes
from tests.conftest import make_settings
from tests.web.sockets import client, new_sheet, new_table, receive
from veillee.store import NotFound
from veillee.tables import HUMAN, seat_view
from veillee.tables.records import Table
from veillee.web import create_app

ERROR_KEYS = {"type", "code", "message", "client_id"}


async def sockets_of_both_kinds(c: httpx.AsyncClient) -> list[tuple[str, str]]:
    """(socket path, token) of a new sheet and a new table."""
    sheet, table = await new_sheet(c), await new_table(c)
    return [
        (f"/ws/sheets/{sheet['id']}", sheet["scorer_token"]),
        (f"/ws/tables/{table['table_id']}", table["token"]),
    ]


async def test_both_sockets_close_a_socket_that_never_says_hello(app: FastAPI) -> None:
    app.state.settings.hello_timeout_s = 0.2
    async with client(app) as c:
        for path, _ in await sockets_of_both_kinds(c):
            async with aconnect_ws(path, c) as ws:
                error = await receive(ws, "error")
                assert error["code"] == "hello_timeout" and set(error) == ERROR_KEYS
                with pytest.raises(WebSocketDisconnect) as closed:
                    await asyncio.wait_for(ws.receive_text(), 5)
                assert closed.value.code == 4408, path


async def test_both_sockets_answer_ping_and_refuse_in_one_shape_in_the_players_language(
    app: FastAPI,
) -> None:
    async with client(app) as c:
        for path, token in await sockets_of_both_kinds(c):
            async with aconnect_ws(path, c) as ws:
                await ws.send_text(json.dumps({"type": "ping"}))
                first = await receive(ws, "error")
                assert first["code"] == "hello_first" and set(first) == ERROR_KEYS
                await ws.send_text(json.dumps({"type": "hello", "token": token, "lang": "fr"}))
                await ws.send_text(json.dumps({"type": "ping"}))
                await receive(ws, "pong")
                for text, code in (
                    ("{oops", "bad_json"),
                    (json.dumps({"type": "dance"}), "unknown_type"),
                    (json.dumps({"type": "hello"}), "bad_message"),
                ):
                    await ws.send_text(text)
                    error = await receive(ws, "error")
                    assert (error["code"], set(error)) == (code, ERROR_KEYS), path
                    assert error["message"] and "reason." not in error["message"]
                    assert error["message"] != first["message"]  # French now, not English


async def test_a_change_reaches_every_open_socket_without_a_reload_per_socket(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = app.state.tables
    record, grants = await service.create_table("chouine", (HUMAN, HUMAN))
    tokens = {g.seat: g.token for g in grants}
    store = app.state.store
    loads: list[str] = []
    load = store.load

    async def counted_load(record_id: str) -> Any:
        loads.append(record_id)
        return await load(record_id)

    views: list[tuple[int, int]] = []

    def counted_view(record: Any, seat: int, table: Any = None) -> dict[str, Any]:
        views.append((record.version, seat))
        return seat_view(record, seat, table)

    monkeypatch.setattr(store, "load", counted_load)
    monkeypatch.setattr(table_routes, "seat_view", counted_view)
    path = f"/ws/tables/{record.id}"
    seats = [0, 0, 0, 1]  # three open pages of seat 0 (tabs, phones), one of seat 1
    async with client(app) as c, AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(aconnect_ws(path, c)) for _ in seats]
        for ws, seat in zip(sockets, seats, strict=True):
            await ws.send_text(json.dumps({"type": "hello", "token": tokens[seat]}))
            await receive(ws, "state")
        loads.clear()
        views.clear()
        for version in (1, 2, 3):
            now = await service.load(record.id)
            to_act = seat_view(now, 0)["view"]["deal"]["to_act"]
            legal = seat_view(now, to_act)["view"]["deal"]["legal"]
            await service.act(record.id, to_act, f"c{version}", legal[0], now.version)
            for ws in sockets:
                assert (await receive(ws, "state"))["version"] == version
    # Per change the test's own load; none for the commits, judged on the record the sockets
    # loaded when greeted and then on the one last fanned out, and none for the four sockets.
    assert len(loads) == 3, loads
    # Per change: one view for seat 0 (shared by its three sockets) and one for seat 1.
    assert sorted(views) == [(v, s) for v in (1, 2, 3) for s in (0, 1)]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def computer_done(app: FastAPI, table_id: str) -> None:
    """Wait until the computer seat (1) is not to act (its moves are changes, at the clock's
    time)."""
    for _ in range(500):
        view = seat_view(await app.state.tables.load(table_id), 0)["view"]["deal"]
        if view["to_act"] != 1:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the computer never played")


async def gone(app: FastAPI, record_id: str) -> bool:
    try:
        await app.state.store.load(record_id)
    except NotFound:
        return True
    return False


async def test_the_apps_one_sweeper_expires_idle_sheets_and_tables_and_spares_live_ones(
    tmp_path: Path,
) -> None:
    clock = Clock()
    settings = make_settings(tmp_path)
    settings.sweep_interval_s = 0.05
    settings.sheet_idle_s = 1000
    settings.computer_table_idle_s = 1000
    app = create_app(settings, clock=clock)
    async with app.router.lifespan_context(app), client(app) as c:
        idle_sheet, live_sheet = await new_sheet(c), await new_sheet(c)
        idle_table, live_table = await new_table(c), await new_table(c)
        for table in (idle_table, live_table):
            await computer_done(app, table["table_id"])
        clock.now += timedelta(seconds=600)
        r = await c.post(
            f"/api/sheets/{live_sheet['id']}/changes",
            json={"type": "add", "client_id": "a1", "side": 0, "outcome": "won"},
            headers={"authorization": f"Bearer {live_sheet['scorer_token']}"},
        )
        assert r.status_code == 200
        await app.state.tables.new_match(live_table["table_id"], 0, "again")
        await computer_done(app, live_table["table_id"])
        clock.now += timedelta(seconds=600)  # idle: 1,200 s since their last change
        for _ in range(200):
            if await gone(app, idle_sheet["id"]) and await gone(app, idle_table["table_id"]):
                break
            await asyncio.sleep(0.02)
        assert await gone(app, idle_sheet["id"]) and await gone(app, idle_table["table_id"])
        # The sweeper has run since the clock moved: the live ones (600 s idle) are still here.
        assert not await gone(app, live_sheet["id"])
        assert not await gone(app, live_table["table_id"])
        seen = await c.get(
            f"/api/sheets/{live_sheet['id']}",
            headers={"authorization": f"Bearer {live_sheet['scorer_token']}"},
        )
        assert seen.json()["sheet"]["status"]["rows"] == [[1, 0]]


async def test_a_table_version_is_read_once_whatever_judges_and_shows_it(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The match a change makes is kept beside its version: judging the next change and
    # building each seat's view read nothing again (no match.from_json per change or view).
    service = app.state.tables
    record, grants = await service.create_table("chouine", (HUMAN, HUMAN))
    tokens = {g.seat: g.token for g in grants}
    reads: list[int] = []
    read = Table.read.__func__  # type: ignore[attr-defined]

    def counted_read(cls: type[Table], data: dict[str, Any]) -> Table:
        reads.append(1)
        return read(cls, data)

    monkeypatch.setattr(Table, "read", classmethod(counted_read))
    path = f"/ws/tables/{record.id}"
    async with client(app) as c, AsyncExitStack() as stack:
        sockets = {seat: await stack.enter_async_context(aconnect_ws(path, c)) for seat in (0, 1)}
        states = {}
        for seat, ws in sockets.items():
            await ws.send_text(json.dumps({"type": "hello", "token": tokens[seat]}))
            states[seat] = await receive(ws, "state")
        reads.clear()
        for version in (1, 2, 3):
            to_act = states[0]["view"]["deal"]["to_act"]
            legal = states[to_act]["view"]["deal"]["legal"]
            await service.act(record.id, to_act, f"c{version}", legal[0], version - 1)
            for seat, ws in sockets.items():
                states[seat] = await receive(ws, "state")
                assert states[seat]["version"] == version
    # The first change is judged on the table loaded (this process had fanned out no version
    # yet); then nothing is read again: not to judge, not for the two seats' views.
    assert len(reads) == 1
