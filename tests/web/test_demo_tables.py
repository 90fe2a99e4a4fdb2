"""Demonstration tables ("watch a partie go by", issue 11): the computer on every seat, moved a
step at a time by a spectator who sees every hand, through the one table socket; never a way to
see the hand of a table where a person sits; forgotten when the page closes."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, WebSocketDisconnect, aconnect_ws

from tests.web.sockets import client, new_table, receive
from veillee.games import find
from veillee.tables import COMPUTER, HUMAN, SPECTATOR, Refusal, TableDoc, spectator_view
from veillee.tables.lifetimes import lifetime


async def hello(ws: AsyncWebSocketSession, token: str) -> None:
    await ws.send_text(json.dumps({"type": "hello", "token": token}))


async def new_demo(c: Any, game: str) -> dict[str, Any]:
    r = await c.post("/api/demos", json={"game": game})
    assert r.status_code == 201
    made: dict[str, Any] = r.json()
    assert set(made) == {"table_id", "token"}
    return made


async def step(ws: AsyncWebSocketSession, version: int, n: int) -> dict[str, Any]:
    """Ask for one step on ``version``; the state that shows it."""
    await ws.send_text(json.dumps({"type": "step", "client_id": f"s{n}", "version": version}))
    ack = await receive(ws, "ack")
    assert ack["version"] == version + 1 and ack["duplicate"] is False
    while True:
        state = await receive(ws, "state")
        if state["version"] == ack["version"]:
            return state


@pytest.mark.parametrize("game", ["chouine", "charlemagne"])
async def test_a_demo_is_watched_face_up_one_move_per_step_to_the_end_of_its_deal(
    app: FastAPI, game: str
) -> None:
    seats = find(game).info.seats
    async with client(app) as c:
        demo = await new_demo(c, game)
        record = await app.state.tables.load(demo["table_id"])
        doc = TableDoc.from_data(record.data)
        assert doc.seats == (COMPUTER,) * seats and doc.demo and doc.watchable
        async with aconnect_ws(f"/ws/tables/{demo['table_id']}", c) as ws:
            await hello(ws, demo["token"])
            state = await receive(ws, "state")
            assert state["seat"] is None and state["version"] == 0
            deal = state["view"]["deal"]
            dealt = 5 if game == "chouine" else 8
            assert [len(hand) for hand in deal["hands"]] == [dealt] * seats
            assert deal["outcome"] is None and "legal" not in deal and "hand" not in deal
            # Nothing moves until the spectator asks: the computer does not play by itself.
            await asyncio.sleep(0.3)
            assert (await app.state.tables.load(demo["table_id"])).version == 0
            steps = 0
            while state["view"]["deal"]["outcome"] is None:
                before = state["view"]["deal"]
                state = await step(ws, state["version"], steps)
                steps += 1
                after = state["view"]["deal"]
                moved = len(after["plays"]) - len(before["plays"])
                if game == "chouine":
                    assert moved in (0, 1)  # a swap or a prompt's answer plays no card
                    for play in after["plays"]:
                        assert play["points"] == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}.get(
                            play["card"][0], 0
                        )
                        assert play["brisque"] is (play["card"][0] in "AT")
                else:
                    assert moved in (0, 1) and len(after["bids"]) - len(before["bids"]) in (0, 1)
                assert steps < 200
            outcome = state["view"]["deal"]["outcome"]
            if game == "chouine":
                assert outcome["chouine"] is not None or sum(outcome["totals"]) >= 130
                # 16 tricks of two cards, unless a chouine ends the partie at once.
                assert steps >= 32 or outcome["chouine"] is not None
            else:
                assert outcome["contract"] and outcome["points"] > 0
            # A demonstration deals once: the next step is refused and changes nothing.
            await ws.send_text(json.dumps({"type": "step", "client_id": "after"}))
            error = await receive(ws, "error")
            assert error["code"] == "deal_over" and error["client_id"] == "after"
            assert (await app.state.tables.load(demo["table_id"])).version == state["version"]


async def test_a_spectator_only_steps_and_a_seat_never_steps(app: FastAPI) -> None:
    async with client(app) as c:
        demo, table = await new_demo(c, "chouine"), await new_table(c)
        async with aconnect_ws(f"/ws/tables/{demo['table_id']}", c) as ws:
            await hello(ws, demo["token"])
            state = await receive(ws, "state")
            card = state["view"]["deal"]["hands"][0][0]
            for text in (
                {"type": "act", "client_id": "a1", "action": card},
                {"type": "next", "client_id": "a2"},
                {"type": "new_match", "client_id": "a3"},
            ):
                await ws.send_text(json.dumps(text))
                error = await receive(ws, "error")
                assert error["code"] == "watch_only"
                assert (
                    error["message"] == "This table is only watched: the computer plays every seat."
                )
            assert (await app.state.tables.load(demo["table_id"])).version == 0
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            seat_state = await receive(ws, "state")
            assert seat_state["seat"] == 0 and "hands" not in seat_state["view"]["deal"]
            # When the computer leads, wait for its card: from then on nothing moves but us.
            while seat_state["view"]["deal"]["to_act"] != 0:
                seat_state = await receive(ws, "state")
            version = seat_state["version"]
            assert (await app.state.tables.load(table["table_id"])).version == version
            await ws.send_text(json.dumps({"type": "step", "client_id": "x1"}))
            assert (await receive(ws, "error"))["code"] == "not_a_demo"
        with pytest.raises(Refusal, match="not_a_demo"):
            await app.state.tables.advance(table["table_id"], "x2")
        assert (await app.state.tables.load(table["table_id"])).version == version


async def test_the_face_up_view_is_never_reachable_for_a_table_with_a_person_seated(
    app: FastAPI,
) -> None:
    service = app.state.tables
    async with client(app) as c:
        table = await new_table(c)
        # Even a spectator token wrongly given to a table someone plays opens nothing.
        forged = "f" * 32
        await service.live.add_role(table["table_id"], forged, SPECTATOR)
        assert await service.viewer_of(table["table_id"], forged) is None
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, forged)
            assert (await receive(ws, "error"))["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect) as closed:
                await asyncio.wait_for(ws.receive_text(), 5)
            assert closed.value.code == 4403
        record = await service.load(table["table_id"])
        with pytest.raises(Refusal, match="not_a_demo"):
            spectator_view(record)
        # A demonstration is made only of computers.
        with pytest.raises(ValueError):
            await service.create_table("chouine", (HUMAN, COMPUTER), spectator="g" * 32)
        # A table that is all computers but no demonstration (self-play) is not watchable.
        selfplay, _ = await service.create_table("chouine", (COMPUTER, COMPUTER))
        with pytest.raises(Refusal, match="not_a_demo"):
            spectator_view(selfplay)
        # Were a demonstration's seat ever a person's, its spectator would be refused at once.
        demo = await new_demo(c, "chouine")
        demo_record = await service.load(demo["table_id"])
        doc = TableDoc.from_data(demo_record.data)
        seated = TableDoc(doc.game, doc.options, (HUMAN, COMPUTER), doc.match, demo=True)
        await service.live.commit(demo["table_id"], lambda _: seated.to_data())
        assert await service.viewer_of(demo["table_id"], demo["token"]) is None
        async with aconnect_ws(f"/ws/tables/{demo['table_id']}", c) as ws:
            await hello(ws, demo["token"])
            assert (await receive(ws, "error"))["code"] == "bad_token"


async def test_a_demo_is_forgotten_when_its_page_closes(app: FastAPI) -> None:
    service = app.state.tables
    async with client(app) as c:
        demo = await new_demo(c, "charlemagne")
        async with aconnect_ws(f"/ws/tables/{demo['table_id']}", c) as ws:
            await hello(ws, demo["token"])
            state = await receive(ws, "state")
            await step(ws, state["version"], 0)
        for _ in range(50):
            try:
                await service.load(demo["table_id"])
            except Refusal as gone:
                assert gone.reason == "table_gone"
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the demonstration outlived its page")
        assert await service.viewer_of(demo["table_id"], demo["token"]) is None
        # Closing the page of a table someone plays leaves it alone.
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            await receive(ws, "state")
        await asyncio.sleep(0.2)
        assert (await service.load(table["table_id"])).id == table["table_id"]
        made, _ = await service.create_table("chouine", (COMPUTER, COMPUTER), spectator="h" * 32)
        assert (
            lifetime(app.state.settings, TableDoc.from_data(made.data)).total_seconds()
            == app.state.settings.demo_table_idle_s
        )


async def test_a_demo_is_refused_for_a_game_that_is_not_offered(app: FastAPI) -> None:
    async with client(app) as c:
        r = await c.post("/api/demos", json={"game": "belote"})
        assert r.status_code == 404 and r.json()["code"] == "unknown_game"
        r = await c.post("/api/demos", json={"game": "chouine", "options": {"best_of": 4}})
        assert r.status_code == 422 and r.json()["code"] == "bad_options"
