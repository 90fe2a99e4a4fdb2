"""A shared table over HTTP and its socket, in process: making it, the link's seats (the next
opener is told the table is full), the host's page updated the moment the friend sits, presence
(away when the page closes or falls silent), the ready handshake and the resume request."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws

from tests.web.sockets import client, new_table, receive, refusals
from tests.web.test_table_api import refusal
from veillee.games import find

GAME = find("chouine")


async def new_shared(c: httpx.AsyncClient, **options: int) -> dict[str, Any]:
    r = await c.post("/api/tables", json={"game": "chouine", "options": options, "shared": True})
    assert r.status_code == 201
    made: dict[str, Any] = r.json()
    return made


async def hello(ws: AsyncWebSocketSession, token: str) -> None:
    await ws.send_text(json.dumps({"type": "hello", "token": token, "version": None}))


async def test_the_link_gives_the_other_seat_once_and_says_full_after(app: FastAPI) -> None:
    async with client(app) as c:
        host = await new_shared(c, best_of=3)
        assert host["seat"] == 0 and host["url"] == f"/chouine/table/{host['table_id']}"
        joined = await c.post(f"/api/tables/{host['table_id']}/seats")
        assert joined.status_code == 201
        friend = joined.json()
        assert friend["seat"] == 1 and friend["table_id"] == host["table_id"]
        assert friend["url"] == host["url"] and friend["token"] != host["token"]
        # No seat left is an expected answer, not a failed request: status 200, the error shape.
        assert refusal(await c.post(f"/api/tables/{host['table_id']}/seats")) == (
            200,
            "table_full",
        )
        computer = await new_table(c)
        assert refusal(await c.post(f"/api/tables/{computer['table_id']}/seats")) == (
            409,
            "not_shared",
        )
        assert refusal(await c.post("/api/tables/nosuchtable/seats")) == (404, "table_gone")
        bad = await c.post("/api/tables", json={"game": "chouine", "options": {}, "shared": "yes"})
        assert refusal(bad) == (400, "bad_message")


async def test_a_seat_request_sent_again_with_its_key_gets_the_same_seat(app: FastAPI) -> None:
    """The answer to a seat request can be lost after the server seated the page: the page sends
    the request again with the key it made for it, and gets the same seat with a token that
    opens it; a request with another key (another browser) is told the table is full."""
    key = "k" * 43
    async with client(app) as c:
        host = await new_shared(c)
        seats = f"/api/tables/{host['table_id']}/seats"
        first = await c.post(seats, json={"key": key})
        again = await c.post(seats, json={"key": key})
        assert (first.status_code, again.status_code) == (201, 201)
        assert first.json() == again.json() and again.json()["seat"] == 1
        assert refusal(await c.post(seats, json={"key": "o" * 43})) == (200, "table_full")
        assert refusal(await c.post(seats)) == (200, "table_full")
        # Two requests of one key at once sit once.
        four = (await c.post("/api/tables", json={"game": "charlemagne", "shared": True})).json()
        at_four = f"/api/tables/{four['table_id']}/seats"
        raced = await asyncio.gather(*(c.post(at_four, json={"key": "f" * 43}) for _ in "abc"))
        assert {r.status_code for r in raced} == {201} and {r.json()["seat"] for r in raced} == {1}
        assert (await app.state.tables.load(four["table_id"])).data["open"] == [2, 3]
        # A key that is another table's token opens nothing here and changes nothing.
        other = await new_shared(c)
        at_other = f"/api/tables/{other['table_id']}/seats"
        assert refusal(await c.post(at_other, json={"key": host["token"]})) == (409, "key_taken")
        assert (await app.state.tables.load(other["table_id"])).data["open"] == [1]
        # A key too short to be a token of its own is no key.
        for bad in ("short", "k" * 31, "k" * 42 + "!", 7):
            assert refusal(await c.post(seats, json={"key": bad})) == (400, "bad_message"), bad
        path = f"/ws/tables/{host['table_id']}"
        async with aconnect_ws(path, c) as ws:
            await hello(ws, again.json()["token"])
            state = await receive(ws, "state")
            assert state["seat"] == 1


async def test_the_host_sees_the_friend_sit_and_come_and_go(app: FastAPI) -> None:
    async with client(app) as c:
        host = await new_shared(c)
        path = f"/ws/tables/{host['table_id']}"
        async with aconnect_ws(path, c) as ws0:
            await hello(ws0, host["token"])
            state = await receive(ws0, "state")
            assert state["seated"] == [True, False] and state["shared"] is True
            assert state["expires_at"] is not None
            assert (await receive(ws0, "presence"))["here"] == [0]
            # Nobody may play before the friend sits.
            deal = state["view"]["deal"]
            if deal["to_act"] == 0:
                await ws0.send_text(
                    json.dumps({"type": "act", "client_id": "early", "action": deal["legal"][0]})
                )
                assert (await receive(ws0, "error"))["code"] == "table_not_full"
            friend = (await c.post(f"/api/tables/{host['table_id']}/seats")).json()
            while (sat := await receive(ws0, "state"))["version"] == 0:
                pass  # the table as it stood, sent again after the refusal
            assert sat["seated"] == [True, True] and sat["version"] == 1
            async with aconnect_ws(path, c) as ws1:
                await hello(ws1, friend["token"])
                mine = await receive(ws1, "state")
                assert mine["seat"] == 1 and mine["seated"] == [True, True]
                assert (await receive(ws1, "presence"))["here"] == [0, 1]
                assert (await receive(ws0, "presence"))["here"] == [0, 1]
            assert (await receive(ws0, "presence"))["here"] == [0]


async def test_a_silent_seat_is_closed_and_shown_away(app: FastAPI) -> None:
    app.state.settings.silence_timeout_s = 0.6
    async with client(app) as c:
        host = await new_shared(c)
        friend = (await c.post(f"/api/tables/{host['table_id']}/seats")).json()
        path = f"/ws/tables/{host['table_id']}"
        async with aconnect_ws(path, c) as ws0:
            await hello(ws0, host["token"])

            async def keep_pinging() -> None:
                while True:
                    await asyncio.sleep(0.2)
                    await ws0.send_text(json.dumps({"type": "ping"}))

            pinger = asyncio.create_task(keep_pinging())
            try:
                await receive(ws0, "state")
                assert (await receive(ws0, "presence"))["here"] == [0]
                try:
                    async with aconnect_ws(path, c) as ws1:
                        await hello(ws1, friend["token"])
                        await receive(ws1, "state")
                        assert (await receive(ws0, "presence"))["here"] == [0, 1]
                        # The friend's network goes: nothing more comes from its page.
                        assert (await receive(ws1, "error"))["code"] == "silent"
                        await asyncio.wait_for(ws1.receive_text(), 5)
                except Exception as exc:  # the close comes as an exception
                    assert refusals(exc) == [4408]
                assert (await receive(ws0, "presence"))["here"] == [0]
            finally:
                pinger.cancel()


async def test_a_hidden_page_is_allowed_a_longer_silence_and_stays_here(app: FastAPI) -> None:
    """A page in a background tab says so in its ping (its timers are throttled, its pings come
    late): its silence past ``silence_timeout_s`` does not close its socket, and its seat is
    never shown away; a page that said nothing of the kind is closed meanwhile."""
    app.state.settings.silence_timeout_s = 0.5
    app.state.settings.hidden_silence_s = 30
    async with client(app) as c:
        host = await new_shared(c)
        friend = (await c.post(f"/api/tables/{host['table_id']}/seats")).json()
        path = f"/ws/tables/{host['table_id']}"
        async with aconnect_ws(path, c) as ws0, aconnect_ws(path, c) as ws1:
            await hello(ws0, host["token"])
            await receive(ws0, "state")

            async def keep_pinging() -> None:
                while True:
                    await ws0.send_text(json.dumps({"type": "ping"}))
                    await asyncio.sleep(0.2)

            pinger = asyncio.create_task(keep_pinging())
            try:
                await hello(ws1, friend["token"])
                await receive(ws1, "state")
                await ws1.send_text(json.dumps({"type": "ping", "hidden": True}))
                await receive(ws1, "pong")
                # Another socket of the host, not hidden, falls silent after the friend's last
                # ping: by its close the friend's page has been silent longer than the timeout.
                try:
                    async with aconnect_ws(path, c) as ws2:
                        await hello(ws2, host["token"])
                        await receive(ws2, "state")
                        await ws2.send_text(json.dumps({"type": "ping"}))
                        await receive(ws2, "pong")
                        assert (await receive(ws2, "error"))["code"] == "silent"
                        await asyncio.wait_for(ws2.receive_text(), 5)
                except Exception as exc:  # the close comes as an exception
                    assert refusals(exc) == [4408]
                await ws1.send_text(json.dumps({"type": "ping", "hidden": False}))
                await receive(ws1, "pong")
                # The host was told the friend is here, and never that the friend went.
                heard = []
                while True:
                    try:
                        heard.append(
                            (await asyncio.wait_for(receive(ws0, "presence"), 0.3))["here"]
                        )
                    except TimeoutError:
                        break
                since = next(n for n, here in enumerate(heard) if 1 in here)
                assert all(1 in here for here in heard[since:]), heard
                # Visible again: the short silence is back.
                assert (await receive(ws1, "error"))["code"] == "silent"
            finally:
                pinger.cancel()


async def finish_deal_over_sockets(
    sockets: dict[int, AsyncWebSocketSession], app: FastAPI, table_id: str, tag: str
) -> None:
    """Each seat plays its first legal action from its own socket until the deal is over."""
    service = app.state.tables
    while True:
        record = await service.load(table_id)
        m = GAME.match.from_json(record.data["match"])
        seat = GAME.match.to_act(m)
        if seat is None:
            return
        action = str(GAME.match.legal_actions(m)[0])
        change = {"type": "act", "client_id": f"{tag}{record.version}", "action": action}
        await sockets[seat].send_text(json.dumps({**change, "version": record.version}))
        await receive(sockets[seat], "ack")


async def test_each_seat_sees_the_other_is_ready_and_one_partie_is_dealt(app: FastAPI) -> None:
    app.state.settings.max_messages_per_second = 10_000.0
    async with client(app) as c:
        host = await new_shared(c, best_of=3)
        friend = (await c.post(f"/api/tables/{host['table_id']}/seats")).json()
        path = f"/ws/tables/{host['table_id']}"
        async with aconnect_ws(path, c) as ws0, aconnect_ws(path, c) as ws1:
            await hello(ws0, host["token"])
            await hello(ws1, friend["token"])
            await finish_deal_over_sockets({0: ws0, 1: ws1}, app, host["table_id"], "p")
            await ws1.send_text(json.dumps({"type": "next", "client_id": "r1"}))
            await receive(ws1, "ack")
            while (state := await receive(ws0, "state"))["ready"] != [1]:
                pass
            assert state["view"]["match"]["partie"] == 1
            # Both press at once, and the friend again: one partie is dealt.
            await ws0.send_text(json.dumps({"type": "next", "client_id": "r2"}))
            await ws1.send_text(json.dumps({"type": "next", "client_id": "r1"}))
            assert (await receive(ws1, "ack"))["duplicate"] is True
            while (state := await receive(ws1, "state"))["view"]["match"]["partie"] != 2:
                pass
            assert state["ready"] == []
            record = await app.state.tables.load(host["table_id"])
            assert record.data["match"]["partie"] == 2


async def test_the_resume_request_answers_for_the_tokens_shown(app: FastAPI) -> None:
    async with client(app) as c:
        host = await new_shared(c, best_of=5)
        friend = (await c.post(f"/api/tables/{host['table_id']}/seats")).json()
        waiting = await new_shared(c)
        body = {
            "seats": [
                {"table_id": host["table_id"], "token": friend["token"]},
                {"table_id": waiting["table_id"], "token": waiting["token"]},
                {"table_id": "nosuchtable", "token": friend["token"]},
            ]
        }
        r = await c.post("/api/tables/resume", json=body)
        assert r.status_code == 200
        answer = r.json()
        assert [t["table_id"] for t in answer["tables"]] == [host["table_id"], waiting["table_id"]]
        assert answer["gone"] == ["nosuchtable"]
        first = answer["tables"][0]
        assert first["seat"] == 1 and first["game"] == "chouine"
        assert first["match"]["best_of"] == 5 and first["seated"] == [True, True]
        assert set(first) == {
            "table_id", "game", "url", "seat", "seats", "seated", "ready", "expires_at",
            "match", "score", "to_act", "phase", "seat_names", "partner", "stand_in", "left",
        }  # fmt: skip
        assert first["score"] == [0, 0]
        assert first["phase"] == 1 and first["seat_names"] == ["A", "B"]
        assert first["partner"] is None  # at Chouine each seat plays for itself
        assert answer["tables"][1]["seated"] == [True, False]
        for bad in ({"seats": [{"table_id": "x", "token": "short"}]}, {"seats": "all"}, []):
            assert refusal(await c.post("/api/tables/resume", json=bad)) == (400, "bad_message")
        too_many = {"seats": [{"table_id": "x", "token": "a" * 32}] * 41}
        assert refusal(await c.post("/api/tables/resume", json=too_many))[1] in (
            "bad_message",
            "message_too_large",
        )
