"""Nothing acknowledged is lost at a four-seat shared table when the server is killed: ``veillee
serve`` runs as a subprocess on a SQLite file, three friends sit through their seat links and the
maker lets the computer play the fourth seat, the server gets SIGKILL mid-hand, starts again on
the same database, and every person goes on with the same hand (the computer with its own) to
the end of the hand and into the next."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import httpx
from httpx_ws import AsyncWebSocketSession, aconnect_ws

from tests.browser.conftest import _free_port
from tests.games.card_scan import cards_named
from tests.games.charlemagne.conformance import allowed_cards
from tests.reliability.test_server_kill import hello, stored_deal, veillee_serve
from tests.web.sockets import receive
from veillee.cards import PIQUET_JOKERS_34
from veillee.games import find

COMPUTER = 3
"""The seat the maker gives to the computer (the right opponent)."""


async def settle(
    sockets: dict[int, AsyncWebSocketSession], states: dict[int, dict[str, Any]], version: int
) -> dict[int, dict[str, Any]]:
    """Every person's newest state once the table is at ``version`` or later and the computer
    has played whatever was its to play (a person is to act, or the hand is over)."""
    for seat, ws in sockets.items():
        while states[seat]["version"] < version or (
            states[seat]["view"]["deal"]["to_act"] == COMPUTER
        ):
            states[seat] = await receive(ws, "state")
    newest = max(state["version"] for state in states.values())
    for seat, ws in sockets.items():
        while states[seat]["version"] < newest:
            states[seat] = await receive(ws, "state")
    return states


async def step(
    sockets: dict[int, AsyncWebSocketSession], states: dict[int, dict[str, Any]], tag: str
) -> dict[int, dict[str, Any]]:
    """One move of whichever person is asked (from its own view): the first legal action, or
    after a hand a person not yet ready saying so; the states once the computer has answered."""
    any_state = next(iter(states.values()))
    version = any_state["version"]
    deal = any_state["view"]["deal"]
    if deal["to_act"] is None:
        seat = next(s for s in sockets if s not in any_state["ready"])
        change: dict[str, Any] = {"type": "next"}
    else:
        seat = deal["to_act"]
        change = {"type": "act", "action": states[seat]["view"]["deal"]["legal"][0]}
    change.update(client_id=f"{tag}{version}", version=version)
    await sockets[seat].send_text(json.dumps(change))
    ack = await receive(sockets[seat], "ack")
    assert ack["version"] == version + 1 and not ack["duplicate"]
    return await settle(sockets, states, version + 1)


async def test_a_server_killed_mid_hand_at_a_four_seat_table_loses_nothing(
    tmp_path: Path,
) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    game = find("charlemagne")
    with veillee_serve(tmp_path, port) as first:
        async with httpx.AsyncClient(base_url=base) as c:
            made = await c.post("/api/tables", json={"game": "charlemagne", "shared": True})
            host = made.json()
            table_id = host["table_id"]
            path = f"/ws/tables/{table_id}"
            tokens = {0: host["token"]}
            for seat in (2, 1):  # the partner's link, the left opponent's
                joined = await c.post(f"/api/tables/{table_id}/seats", json={"seat": seat})
                tokens[seat] = joined.json()["token"]
            async with (
                aconnect_ws(path, c) as ws0,
                aconnect_ws(path, c) as ws1,
                aconnect_ws(path, c) as ws2,
            ):
                sockets = {0: ws0, 1: ws1, 2: ws2}
                states = {s: await hello(ws, tokens[s], None) for s, ws in sockets.items()}
                fill = {"type": "fill", "client_id": "fill", "seats": [COMPUTER]}
                await ws0.send_text(json.dumps(fill))
                assert (await receive(ws0, "ack"))["version"] == 3
                states = await settle(sockets, states, 3)
                while states[0]["view"]["deal"]["trick_number"] < 3:
                    states = await step(sockets, states, "a")
                acknowledged = states[0]["version"]
                first.send_signal(signal.SIGKILL)  # no goodbye: sockets and all
                first.wait(10)
    version, before = await stored_deal(tmp_path, table_id)
    assert version == acknowledged
    with veillee_serve(tmp_path, port):
        async with (
            httpx.AsyncClient(base_url=base) as c,
            aconnect_ws(path, c) as ws0,
            aconnect_ws(path, c) as ws1,
            aconnect_ws(path, c) as ws2,
        ):
            sockets = {0: ws0, 1: ws1, 2: ws2}
            again = {s: await hello(ws, tokens[s], acknowledged) for s, ws in sockets.items()}
            _, after = await stored_deal(tmp_path, table_id)
            assert after == before  # every hand, the kitty and the discards as they were
            state = game.engine.from_json(after)
            for seat in sockets:
                assert again[seat]["version"] == acknowledged
                assert again[seat]["view"]["deal"]["hand"] == states[seat]["view"]["deal"]["hand"]
                assert again[seat]["seats"] == ["human", "human", "human", "computer"]
                shown = cards_named(again[seat], PIQUET_JOKERS_34)
                assert shown <= allowed_cards(state, seat), seat
            states, moves = again, 0
            while states[0]["view"]["match"]["hand"] == 1:
                states = await step(sockets, states, "b")
                moves += 1
                assert moves < 100
    assert states[0]["view"]["match"]["hand"] == 2 and states[0]["ready"] == []
    assert sum(states[0]["view"]["match"]["scores"]) > 0
