"""Friends come and go over the table socket (issue 25), in process: a seat asks the computer to
stand in for one away, the person's hello takes the seat back, the host gives a vacated seat to
someone new (the old token is closed with ``seat_given``, the old link refused, the new link
seats exactly one), and ``leave`` hands the seat to the stand-in."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws

from tests.web.sockets import client, receive, refusals
from tests.web.test_seat_link_socket import new_four
from tests.web.test_shared_table_socket import hello
from tests.web.test_table_api import refusal


async def state_where(
    ws: AsyncWebSocketSession, holds: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The next state for which ``holds`` is true (the stand-in may move meanwhile)."""
    for _ in range(400):
        state = await receive(ws, "state")
        if holds(state):
            return state
    raise AssertionError("no such state came")


async def test_a_stand_in_is_asked_taken_back_given_away_and_left_to(app: FastAPI) -> None:
    app.state.tables.settings.stand_in_after_s = 0
    async with client(app) as c:
        host = await new_four(c)
        table_id = host["table_id"]
        seats = f"/api/tables/{table_id}/seats"
        tokens = {0: host["token"]}
        for seat in (1, 2, 3):
            tokens[seat] = (await c.post(seats, json={"seat": seat})).json()["token"]
        path = f"/ws/tables/{table_id}"
        async with aconnect_ws(path, c) as ws0, aconnect_ws(path, c) as ws1:
            await hello(ws0, tokens[0])
            await hello(ws1, tokens[1])
            # East is here once North is told so (a hello is answered in its socket's own task:
            # asked before East's page has entered, the stand-in for East would be granted).
            while 1 not in (await receive(ws0, "presence"))["here"]:
                pass
            # West never opened the table: North may let the computer play for West.
            await ws0.send_text(json.dumps({"type": "stand_in", "client_id": "s1", "seat": 3}))
            assert (await receive(ws0, "ack"))["client_id"] == "s1"
            assert (await state_where(ws1, lambda s: s["stand_in"] == [3]))["seated"][3]
            # Here, nobody stands in for East.
            await ws0.send_text(json.dumps({"type": "stand_in", "client_id": "s2", "seat": 1}))
            assert (await receive(ws0, "error"))["code"] == "still_here"
            # West opens their link: the seat is theirs again at once.
            async with aconnect_ws(path, c) as ws3:
                await hello(ws3, tokens[3])
                assert (await receive(ws3, "state"))["stand_in"] == []
                await state_where(ws0, lambda s: s["stand_in"] == [])
            while 3 in (await receive(ws0, "presence"))["here"]:
                pass
            await ws0.send_text(json.dumps({"type": "stand_in", "client_id": "s3", "seat": 3}))
            await state_where(ws0, lambda s: s["stand_in"] == [3])
            # Only the host gives the seat to someone new.
            give = {"type": "give_seat", "client_id": "g1", "seat": 3}
            await ws1.send_text(json.dumps(give))
            assert (await receive(ws1, "error"))["code"] == "not_host"
            await ws0.send_text(json.dumps({**give, "client_id": "g2"}))
            given = await state_where(ws0, lambda s: s["vacant"] == [3])
            assert given["given"] == [0, 0, 0, 1] and given["stand_in"] == [3]
            # West's old token: closed with its reason; the old link refused; the new one
            # seats one person, once.
            try:
                async with aconnect_ws(path, c) as old:
                    await hello(old, tokens[3])
                    said = await receive(old, "error")
                    await old.receive_text()
            except Exception as exc:
                assert refusals(exc) == [4403]
            assert said["code"] == "seat_given"
            assert refusal(await c.post(seats, json={"seat": 3})) == (409, "seat_given")
            page = await c.get(f"/charlemagne/table/{table_id}?seat=3")
            assert 'data-seat-refusal="seat_given"' in page.text
            page = await c.get(f"/charlemagne/table/{table_id}?seat=3&g=1")
            assert 'data-seat-refusal=""' in page.text
            newcomer = await c.post(seats, json={"seat": 3, "given": 1})
            assert newcomer.status_code == 201
            # The racer who lost: no seat for this browser (status 200, docs/protocol.md §1b).
            assert refusal(await c.post(seats, json={"seat": 3, "given": 1})) == (
                200,
                "seat_taken",
            )
            await state_where(ws0, lambda s: s["stand_in"] == [] and s["vacant"] == [])
            with_old = await app.state.tables.seat_of(table_id, tokens[3])
            assert with_old is None
            # East leaves for good: the computer plays the seat, East's token opens it no more.
            await ws1.send_text(json.dumps({"type": "leave", "client_id": "l1"}))
            left = await state_where(ws0, lambda s: s["left"] == [1])
            assert left["stand_in"] == [1]
            assert await app.state.tables.seat_of(table_id, tokens[1]) is None
