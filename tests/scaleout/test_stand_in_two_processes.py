"""A stand-in across two server processes (issue 25): a person with a page open through one
process is here for the other, which refuses to let the computer stand in for them
(``still_here``); once their page closes, the other process lets it, and the computer plays
their seat, judged on the presence both processes share."""

from __future__ import annotations

import json

import httpx
from fastapi import FastAPI
from httpx_ws import aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from tests.scaleout.test_two_processes import receive, two  # noqa: F401 (the fixture)
from veillee.tables import HUMAN, TableDoc


async def test_a_person_here_through_another_process_is_not_stood_in_for(
    two: tuple[FastAPI, FastAPI],  # noqa: F811
) -> None:
    a, b = two
    for app in (a, b):
        app.state.tables.settings.stand_in_after_s = 0
    record, grants = await a.state.tables.create_table("charlemagne", (HUMAN,) * 4, shared=True)
    tokens = {g.seat: g.token for g in grants}
    path = f"/ws/tables/{record.id}"
    async with (
        httpx.AsyncClient(transport=ASGIWebSocketTransport(a), base_url="http://t") as on_a,
        httpx.AsyncClient(transport=ASGIWebSocketTransport(b), base_url="http://t") as on_b,
        aconnect_ws(path, on_a) as north,
    ):
        await north.send_text(json.dumps({"type": "hello", "token": tokens[0]}))
        await receive(north, "state")
        async with aconnect_ws(path, on_b) as west:
            await west.send_text(json.dumps({"type": "hello", "token": tokens[3]}))
            await receive(west, "state")
            while 3 not in (await receive(north, "presence"))["here"]:
                pass
            ask = {"type": "stand_in", "client_id": "s1", "seat": 3}
            await north.send_text(json.dumps(ask))
            assert (await receive(north, "error"))["code"] == "still_here"
        while 3 in (await receive(north, "presence"))["here"]:
            pass
        await north.send_text(json.dumps({**ask, "client_id": "s2"}))
        assert (await receive(north, "ack"))["client_id"] == "s2"
        # Written once, for both processes: the other reads it from the store.
        doc = TableDoc.from_data((await b.state.tables.load(record.id)).data)
        assert doc.stand_in == (3,) and doc.computers == (3,)
