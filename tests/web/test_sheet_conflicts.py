"""A change computed from what a page showed is never applied to a sheet that has moved on:
``undo``, ``end`` and ``setting`` carry the sheet's version, ``edit`` and ``delete`` the row's own
version; a stale one is refused (``version_conflict``, ``row_changed``) and the page is sent the
sheet as it is, while new rows (``add``) still merge whatever happened meanwhile (the offline
pad). Two scorer phones racing the same change 200 times: exactly one of the two applies."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws

from tests.web.sockets import client, new_sheet, receive
from veillee.scores.service import Change, SheetService, row_versions

RACES = 200


async def opened(ws: AsyncWebSocketSession, token: str) -> dict[str, Any]:
    await ws.send_text(json.dumps({"type": "hello", "token": token}))
    sheet: dict[str, Any] = (await receive(ws, "sheet"))["sheet"]
    return sheet


async def answer(ws: AsyncWebSocketSession, client_id: str) -> dict[str, Any]:
    """The ack or the error about ``client_id``."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.receive_text(), 5))
        if message["type"] in ("ack", "error") and message.get("client_id") == client_id:
            return message


async def sheet_with(service: SheetService, rows: list[tuple[int, str]]) -> tuple[str, str]:
    """A new sheet with ``rows`` entered: (id, scorer token)."""
    made = await service.create("aluette", ("N & S", "E & W"), {}, 0)
    for i, (side, outcome) in enumerate(rows):
        await service.apply(made.record.id, "scorer", Change("add", side, outcome), f"a{i}")
    return made.record.id, made.scorer_token


async def race(
    c: httpx.AsyncClient, sheet_id: str, token: str, changes: tuple[dict[str, Any], ...]
) -> list[dict[str, Any]]:
    """Two scorer phones send one change each at the same moment: their answers."""
    path = f"/ws/sheets/{sheet_id}"
    async with aconnect_ws(path, c) as one, aconnect_ws(path, c) as two:
        await opened(one, token)
        await opened(two, token)
        sent = [{**change, "client_id": f"{k}"} for k, change in enumerate(changes)]
        phones = zip((one, two), sent, strict=True)
        await asyncio.gather(*(ws.send_text(json.dumps(m)) for ws, m in phones))
        return list(await asyncio.gather(answer(one, "0"), answer(two, "1")))


def one_applied(answers: list[dict[str, Any]], refusal: str) -> dict[str, Any]:
    """The one acknowledged change of a race (the other refused with ``refusal``)."""
    acks = [a for a in answers if a["type"] == "ack"]
    refused = [a["code"] for a in answers if a["type"] == "error"]
    assert len(acks) == 1 and refused == [refusal], answers
    return acks[0]


async def test_two_phones_deleting_the_same_row_delete_one_row(app: FastAPI) -> None:
    service = app.state.sheets
    async with client(app) as c:
        for _ in range(RACES):
            # Two identical rows: the second, moved up, must not pass for the first.
            sheet_id, token = await sheet_with(service, [(0, "won"), (0, "won")])
            shown = row_versions(await service.load(sheet_id))[0]
            delete = {"type": "delete", "index": 0, "row_version": shown}
            one_applied(await race(c, sheet_id, token, (delete, delete)), "row_changed")
            record = await service.load(sheet_id)
            assert (record.version, len(record.data["sheet"]["rows"])) == (3, 1)


async def test_two_phones_correcting_the_same_row_apply_one_correction(app: FastAPI) -> None:
    service = app.state.sheets
    async with client(app) as c:
        for _ in range(RACES):
            sheet_id, token = await sheet_with(service, [(0, "won")])
            shown = row_versions(await service.load(sheet_id))[0]
            edits = tuple(
                {"type": "edit", "index": 0, "row_version": shown, "side": 1, "outcome": outcome}
                for outcome in ("won", "mordienne")
            )
            won = one_applied(await race(c, sheet_id, token, edits), "row_changed")
            record = await service.load(sheet_id)
            assert record.version == 2
            assert record.data["sheet"]["rows"] == [[1, edits[int(won["client_id"])]["outcome"]]]


async def test_two_phones_undoing_at_once_undo_one_change(app: FastAPI) -> None:
    service = app.state.sheets
    async with client(app) as c:
        for _ in range(RACES):
            sheet_id, token = await sheet_with(service, [(0, "won"), (1, "won")])
            undo = {"type": "undo", "version": 2}
            one_applied(await race(c, sheet_id, token, (undo, undo)), "version_conflict")
            record = await service.load(sheet_id)
            assert (record.version, record.data["sheet"]["rows"]) == (3, [[0, "won"]])


async def test_a_new_row_from_another_phone_does_not_stop_a_correction(app: FastAPI) -> None:
    async with client(app) as c:
        made = await new_sheet(c)
        path = f"/ws/sheets/{made['id']}"
        async with aconnect_ws(path, c) as ws:
            await opened(ws, made["scorer_token"])
            await ws.send_text(add("a", 0, "won"))
            await answer(ws, "a")
            shown = (await receive(ws, "sheet"))["sheet"]
            assert [row["version"] for row in shown["rows"]] == [1]
            # Meanwhile another phone (or this one's outbox) enters two hands.
            await ws.send_text(add("b", 1, "won"))
            await ws.send_text(add("c", 1, "won"))
            await answer(ws, "c")
            edit = {"type": "edit", "client_id": "e", "index": 0, "row_version": 1}
            await ws.send_text(json.dumps({**edit, "side": 0, "outcome": "mordienne"}))
            assert (await answer(ws, "e"))["type"] == "ack"
            now = (await receive(ws, "sheet"))["sheet"]
            assert now["status"]["rows"] == [[2, 0], [0, 1], [0, 1]]
            assert [row["version"] for row in now["rows"]] == [4, 2, 3]


async def test_a_stale_change_is_refused_and_the_page_gets_the_sheet_as_it_is(
    app: FastAPI,
) -> None:
    async with client(app) as c:
        made = await new_sheet(c)
        path = f"/ws/sheets/{made['id']}"
        async with aconnect_ws(path, c) as ws:
            await opened(ws, made["scorer_token"])
            for i, side in enumerate((0, 1, 0)):
                await ws.send_text(add(f"a{i}", side, "won"))
                await answer(ws, f"a{i}")
            # Row 2 (version 2) as shown; the first row is deleted meanwhile: row 2 has moved.
            delete = {"type": "delete", "client_id": "d", "index": 0, "row_version": 1}
            await ws.send_text(json.dumps(delete))
            assert (await answer(ws, "d"))["type"] == "ack"
            stale = [
                ({"type": "edit", "index": 1, "row_version": 2, "side": 0, "outcome": "won"}, 1),
                ({"type": "delete", "index": 1, "row_version": 2}, 1),
                ({"type": "undo", "version": 3}, 0),
                ({"type": "end", "version": 3}, 0),
                ({"type": "setting", "name": "race_to_ten", "value": True, "version": 3}, 0),
            ]
            for k, (change, by_row) in enumerate(stale):
                await ws.send_text(json.dumps({**change, "client_id": f"s{k}"}))
                refused = await answer(ws, f"s{k}")
                assert refused["code"] == ("row_changed" if by_row else "version_conflict")
                assert "meanwhile" in refused["message"]
                # The page is in step at once: the sheet as it is follows the refusal.
                again = (await receive(ws, "sheet"))["sheet"]
                assert again["version"] == 4 and again["status"]["rows"] == [[0, 1], [1, 0]]
            # Undo resets every row: a correction made before it no longer holds.
            await ws.send_text(json.dumps({"type": "undo", "client_id": "u", "version": 4}))
            await answer(ws, "u")
            back = (await receive(ws, "sheet"))["sheet"]
            assert [row["version"] for row in back["rows"]] == [5, 5, 5]
            edit = {"type": "edit", "client_id": "x", "index": 2, "row_version": 3}
            await ws.send_text(json.dumps({**edit, "side": 1, "outcome": "won"}))
            assert (await answer(ws, "x"))["code"] == "row_changed"
    assert (await app.state.store.load(made["id"])).version == 5


async def test_a_sheet_stored_before_rows_had_versions_has_them_at_its_own(app: FastAPI) -> None:
    service = app.state.sheets
    sheet_id, token = await sheet_with(service, [(0, "won"), (1, "won")])
    record = await service.load(sheet_id)
    # As an earlier build stored it: no row versions.
    data = {k: v for k, v in record.data.items() if k != "row_versions"}
    await app.state.store.commit(sheet_id, record.version, data)
    assert row_versions(await service.load(sheet_id)) == [3, 3]
    async with client(app) as c, aconnect_ws(f"/ws/sheets/{sheet_id}", c) as ws:
        shown = await opened(ws, token)
        assert [row["version"] for row in shown["rows"]] == [3, 3]
        delete = {"type": "delete", "client_id": "d", "index": 0, "row_version": 3}
        await ws.send_text(json.dumps(delete))
        assert (await answer(ws, "d"))["type"] == "ack"
        await ws.send_text(json.dumps({**delete, "client_id": "d2"}))
        assert (await answer(ws, "d2"))["code"] == "row_changed"


def add(client_id: str, side: int, outcome: str) -> str:
    return json.dumps({"type": "add", "client_id": client_id, "side": side, "outcome": outcome})
