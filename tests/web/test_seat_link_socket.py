"""Seat links and "fill with the computer" over HTTP and the table socket, in process: the seats
request names its seat (or none, the plain link), a taken seat is said to be taken in the one
error shape, and the maker's ``fill`` gives open seats to the computer, which then plays them;
any other seat's ``fill`` is refused and changes nothing."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import httpx
from fastapi import FastAPI
from httpx_ws import aconnect_ws

from tests.web.sockets import client, new_table, receive
from tests.web.test_shared_table_socket import hello
from tests.web.test_table_api import refusal
from veillee.games import find
from veillee.tables import TableService


async def new_four(c: httpx.AsyncClient) -> dict[str, Any]:
    r = await c.post("/api/tables", json={"game": "charlemagne", "shared": True})
    assert r.status_code == 201
    made: dict[str, Any] = r.json()
    return made


async def test_a_seat_link_takes_its_own_seat_and_a_taken_one_is_refused(app: FastAPI) -> None:
    async with client(app) as c:
        host = await new_four(c)
        seats = f"/api/tables/{host['table_id']}/seats"
        partner = await c.post(seats, json={"seat": 2})
        assert partner.status_code == 201
        assert partner.json()["seat"] == 2 and partner.json()["url"] == host["url"]
        taken = await c.post(seats, json={"seat": 2}, headers={"accept-language": "fr"})
        assert refusal(taken) == (200, "seat_taken")
        assert taken.json()["message"] == "Cette place est prise\u00a0: quelqu'un y est déjà assis."
        assert refusal(await c.post(seats, json={"seat": 0})) == (200, "seat_taken")
        assert refusal(await c.post(seats, json={"seat": 4})) == (409, "bad_seat")
        for bad in ({"seat": "1"}, {"seat": True}, {"seat": 1, "x": 1}, {"seat": -1}, [1]):
            assert refusal(await c.post(seats, json=bad)) == (400, "bad_message"), bad
        assert refusal(await c.post(seats, content=b"{")) == (400, "bad_json")
        # No seat named: the lowest open one (the plain link).
        assert (await c.post(seats)).json()["seat"] == 1
        assert (await c.post(seats, json={"seat": None})).json()["seat"] == 3
        assert refusal(await c.post(seats)) == (200, "table_full")
        record = await app.state.tables.load(host["table_id"])
        assert record.version == 3 and record.data["open"] == []


async def test_the_maker_fills_the_open_seats_and_the_computer_plays_them(app: FastAPI) -> None:
    async with client(app) as c:
        host = await new_four(c)
        partner = (await c.post(f"/api/tables/{host['table_id']}/seats", json={"seat": 2})).json()
        path = f"/ws/tables/{host['table_id']}"
        async with aconnect_ws(path, c) as ws0, aconnect_ws(path, c) as ws2:
            await hello(ws0, host["token"])
            await hello(ws2, partner["token"])
            assert (await receive(ws0, "state"))["seated"] == [True, False, True, False]
            await receive(ws2, "state")
            # The partner may not give seats away; malformed fills change nothing either.
            await ws2.send_text(json.dumps({"type": "fill", "client_id": "p1", "seats": [1, 3]}))
            assert (await receive(ws2, "error"))["code"] == "not_host"
            for bad in ([], [True], ["1"], [1] * 9):
                fill = {"type": "fill", "client_id": "h0", "seats": bad}
                await ws0.send_text(json.dumps(fill))
                assert (await receive(ws0, "error"))["code"] == "bad_message", bad
            await ws0.send_text(json.dumps({"type": "fill", "client_id": "h1", "seats": [2]}))
            assert (await receive(ws0, "error"))["code"] == "seat_taken"
            assert (await app.state.tables.load(host["table_id"])).version == 1
            await ws0.send_text(json.dumps({"type": "fill", "client_id": "h2", "seats": [1, 3]}))
            ack = await receive(ws0, "ack")
            assert ack["version"] == 2 and ack["duplicate"] is False
            while (state := await receive(ws2, "state"))["version"] < 2:
                pass
            assert state["seats"] == ["human", "computer", "human", "computer"]
            assert state["seated"] == [True] * 4 and state["shared"] is True
            # The computer plays its seats until one of the people is to act.
            while (state := await receive(ws0, "state"))["view"]["deal"]["to_act"] not in (0, 2):
                pass
            deal = state["view"]["deal"]
            # The auction opens left of the dealer: one computer seat first, or a person.
            first = (deal["dealer"] + 1) % 4
            assert [b["seat"] for b in deal["bids"]] == ([first] if first in (1, 3) else [])
        assert refusal(await c.post(f"/api/tables/{host['table_id']}/seats")) == (
            200,
            "table_full",
        )
        taken = await c.post(f"/api/tables/{host['table_id']}/seats", json={"seat": 1})
        assert refusal(taken) == (200, "seat_computer")  # the computer plays it


async def test_after_a_restart_the_computer_seats_of_a_shared_table_play_on(
    app: FastAPI,
) -> None:
    # Made, filled and played up to the computer's turn by a service that plays nothing itself.
    quiet = TableService(app.state.store, app.state.bus, app.state.settings, autoplay=False)
    host = await quiet.create_shared_table("charlemagne")
    await quiet.fill(host.table_id, 0, "fill", [1, 3])
    await quiet.join(host.table_id, 2)
    record = await quiet.load(host.table_id)
    game = find("charlemagne")
    # People and the computer alternate around the table: at most one person passes first.
    while (seat := game.match.to_act(game.match.from_json(record.data["match"]))) in (0, 2):
        await quiet.act(host.table_id, seat, f"a{record.version}", "pass", record.version)
        record = await quiet.load(host.table_id)
    stopped = record.version
    # The server restarts: nothing runs until a person comes back, then the computer plays.
    app.state.tables = TableService(app.state.store, app.state.bus, app.state.settings)
    await asyncio.sleep(0.05)
    assert (await app.state.tables.load(host.table_id)).version == stopped
    async with client(app) as c, aconnect_ws(f"/ws/tables/{host.table_id}", c) as ws:
        await hello(ws, host.token)
        while (state := await receive(ws, "state"))["version"] == stopped:
            pass
        assert state["version"] > stopped
        assert state["view"]["deal"]["bids"][-1]["seat"] in (1, 3)


async def seat_refusal_on_page(c: httpx.AsyncClient, url: str) -> str:
    """The ``data-seat-refusal`` the table page at ``url`` is served with."""
    page = await c.get(url)
    assert page.status_code == 200
    found = re.search(r'data-seat-refusal="([a-z_]*)"', page.text)
    assert found is not None
    return found.group(1)


async def test_a_table_page_carries_what_a_seat_request_would_be_refused_with(
    app: FastAPI,
) -> None:
    """The page foresees the seats request's answer, so that a browser without a token is not
    sent to ask for a seat it cannot have: the same reason, from the same rule."""
    async with client(app) as c:
        assert await seat_refusal_on_page(c, "/charlemagne/table/made-up") == "table_gone"
        computer = await new_table(c)
        assert await seat_refusal_on_page(c, computer["url"]) == "not_shared"
        seats = f"/api/tables/{computer['table_id']}/seats"
        assert refusal(await c.post(seats)) == (409, "not_shared")
        host = await new_four(c)
        url = host["url"]
        assert await seat_refusal_on_page(c, url) == ""
        assert await seat_refusal_on_page(c, f"{url}?seat=2") == ""
        assert await seat_refusal_on_page(c, f"{url}?seat=0") == "seat_taken"
        assert await seat_refusal_on_page(c, f"{url}?seat=9") == "bad_seat"
        seats = f"/api/tables/{host['table_id']}/seats"
        for seat in (1, 2, 3):
            assert (await c.post(seats, json={"seat": seat})).status_code == 201
        assert await seat_refusal_on_page(c, url) == "table_full"
        assert refusal(await c.post(seats)) == (200, "table_full")
        assert await seat_refusal_on_page(c, f"{url}?seat=2") == "seat_taken"
