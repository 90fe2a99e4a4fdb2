"""Nothing acknowledged is lost when the server is killed: ``veillee serve`` runs as a
subprocess on a SQLite file, two friends play a shared table over real sockets, the server gets
SIGKILL mid-partie, starts again on the same database, and both seats go on with the same hands,
turn-up and talon order to the end of the match."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from httpx_ws import AsyncWebSocketSession, aconnect_ws

from tests.browser.conftest import _free_port
from tests.reliability.test_hidden_information import check_message, hidden_from
from tests.web.sockets import receive
from veillee.store import Store


@contextmanager
def veillee_serve(data: Path, port: int) -> Iterator[subprocess.Popen[bytes]]:
    """``veillee serve`` on 127.0.0.1:``port`` with its SQLite file under ``data``, ready."""
    env = {
        **os.environ,
        "VEILLEE_DATA_DIR": str(data),
        "VEILLEE_BOT_DELAY_MS": "0",
        "VEILLEE_TRICK_PAUSE_MS": "0",
        "VEILLEE_MAX_MESSAGES_PER_SECOND": "1000",
    }
    for name in ("VEILLEE_DATABASE_URL", "VEILLEE_REDIS_URL", "VEILLEE_PUBLIC_ORIGINS"):
        env.pop(name, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "veillee.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, "veillee serve stopped"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "veillee serve did not answer"
            time.sleep(0.1)
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)


async def hello(ws: AsyncWebSocketSession, token: str, version: int | None) -> dict[str, Any]:
    await ws.send_text(json.dumps({"type": "hello", "token": token, "version": version}))
    return await receive(ws, "state")


async def catch_up(ws: AsyncWebSocketSession, state: dict[str, Any], version: int) -> dict:
    """This seat's newest state once it is at ``version`` or later."""
    while state["version"] < version:
        state = await receive(ws, "state")
    return state


async def step(
    sockets: dict[int, AsyncWebSocketSession], states: dict[int, dict[str, Any]], tag: str
) -> dict[int, dict[str, Any]]:
    """One move of whoever is asked (from what its own view says), and both seats' states
    after it: the first legal action, or a seat not yet ready saying so after a partie."""
    seat0 = states[0]
    version = seat0["version"]
    deal = seat0["view"]["deal"]
    if deal["to_act"] is None:
        seat = next(s for s in (0, 1) if s not in seat0["ready"])
        change: dict[str, Any] = {"type": "next"}
    else:
        seat = deal["to_act"]
        change = {"type": "act", "action": states[seat]["view"]["deal"]["legal"][0]}
    change.update(client_id=f"{tag}{version}", version=version)
    await sockets[seat].send_text(json.dumps(change))
    ack = await receive(sockets[seat], "ack")
    assert ack["version"] == version + 1 and not ack["duplicate"]
    return {s: await catch_up(ws, states[s], version + 1) for s, ws in sockets.items()}


async def stored_deal(data: Path, table_id: str) -> tuple[int, dict[str, Any]]:
    """(version, the current partie as stored: hands, talon order, turn-up) read from the
    database file itself."""
    store = await Store.open(f"sqlite+aiosqlite:///{data}/veillee.db")
    try:
        record = await store.load(table_id)
    finally:
        await store.close()
    return record.version, record.data["match"]["deal"]


async def test_a_server_killed_mid_partie_loses_nothing_acknowledged(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with veillee_serve(tmp_path, port) as first:
        async with httpx.AsyncClient(base_url=base) as c:
            made = await c.post(
                "/api/tables", json={"game": "chouine", "options": {"best_of": 3}, "shared": True}
            )
            host = made.json()
            friend = (await c.post(f"/api/tables/{host['table_id']}/seats")).json()
            tokens = {0: host["token"], 1: friend["token"]}
            path = f"/ws/tables/{host['table_id']}"
            async with aconnect_ws(path, c) as ws0, aconnect_ws(path, c) as ws1:
                sockets = {0: ws0, 1: ws1}
                states = {s: await hello(ws, tokens[s], None) for s, ws in sockets.items()}
                for _ in range(9):  # mid-partie: some tricks played, the talon half drawn
                    states = await step(sockets, states, "a")
                acknowledged = states[0]["version"]
                # No goodbye: the process dies at once, sockets and all.
                first.send_signal(signal.SIGKILL)
                first.wait(10)
    version, before = await stored_deal(tmp_path, host["table_id"])
    assert version == acknowledged
    assert before["talon"] and before["trick_number"] > 1
    with veillee_serve(tmp_path, port):
        async with (
            httpx.AsyncClient(base_url=base) as c,
            aconnect_ws(path, c) as ws0,
            aconnect_ws(path, c) as ws1,
        ):
            sockets = {0: ws0, 1: ws1}
            again = {s: await hello(ws, tokens[s], acknowledged) for s, ws in sockets.items()}
            for seat in (0, 1):
                assert again[seat]["version"] == acknowledged
                assert again[seat]["view"]["deal"]["hand"] == states[seat]["view"]["deal"]["hand"]
                assert again[seat]["view"]["deal"]["turn_up"] == before["turn_up"]
            _, after = await stored_deal(tmp_path, host["table_id"])
            assert after == before  # the same talon, in the same order
            for seat in (0, 1):  # and still only what each seat may see
                text = json.dumps(again[seat])
                check_message(text, hidden_from(after, seat), f"seat {seat} after the restart")
            states, moves = again, 0
            while not states[0]["view"]["match"]["over"]:
                states = await step(sockets, states, "b")
                moves += 1
                assert moves < 400
    match = states[1]["view"]["match"]
    assert max(match["wins"]) == 2 and match["winner"] in (0, 1)
