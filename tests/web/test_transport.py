"""uvicorn's wsproto protocol as Veillée serves it (``veillee.web.transport``): once a socket is
open it holds wsproto's established connection alone and an ``Inbox`` for what it receives;
the socket behaves as uvicorn's own (the limits: tests/web/test_transport_limits.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import uvicorn
import wsproto.connection
from websockets.asyncio.client import connect

from tests.browser.conftest import _free_port, server_config
from tests.conftest import make_settings
from tests.web.sockets import new_table
from veillee.web.transport import Gate, Inbox, LeanWSProtocol


@contextlib.contextmanager
def running(tmp_path: Path) -> Iterator[tuple[uvicorn.Server, str]]:
    port = _free_port()
    server = uvicorn.Server(server_config(make_settings(tmp_path), port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn failed to start"
        time.sleep(0.02)
    try:
        yield server, f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


async def test_an_open_socket_keeps_the_established_connection_and_an_inbox(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as (server, address):
        async with httpx.AsyncClient(base_url=f"http://{address}") as c:
            table = await new_table(c)
        async with connect(f"ws://{address}/ws/tables/{table['table_id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": table["token"]}))
            while json.loads(await ws.recv())["type"] != "state":
                pass
            (protocol,) = [
                p for p in server.server_state.connections if p.scope["type"] == "websocket"
            ]
            assert type(protocol) is LeanWSProtocol
            assert type(protocol.conn) is wsproto.connection.Connection
            assert type(protocol.queue) is Inbox and type(protocol.writable) is Gate
            await ws.send('{"type": "ping"}')
            # The computer may move (one more state) before the pong comes.
            while (answer := json.loads(await ws.recv()))["type"] == "state":
                pass
            assert answer == {"type": "pong"}
            # Within the 30 attributes CPython shares between instances (issue 28): past them
            # each connection held a dictionary of its own. (vars() makes one: asked last.)
            assert protocol.config is server.config and len(vars(protocol)) <= 30


async def test_an_inbox_hands_items_in_order_to_each_waiting_get() -> None:
    inbox: Inbox[int] = Inbox()
    first, second = asyncio.ensure_future(inbox.get()), asyncio.ensure_future(inbox.get())
    await asyncio.sleep(0)
    assert inbox.empty()
    inbox.put_nowait(1)
    inbox.put_nowait(2)
    inbox.put_nowait(3)
    assert sorted(await asyncio.gather(first, second)) == [1, 2]
    assert not inbox.empty() and await inbox.get() == 3 and inbox.empty()


async def test_a_cancelled_get_takes_nothing() -> None:
    inbox: Inbox[str] = Inbox()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(0.01):
            await inbox.get()
    inbox.put_nowait("frame")
    assert await inbox.get() == "frame"


async def test_a_closed_gate_holds_a_wait_until_it_opens() -> None:
    gate = Gate()
    assert await gate.wait() and gate.is_set()
    gate.clear()
    waiting = asyncio.ensure_future(gate.wait())
    await asyncio.sleep(0.01)
    assert not waiting.done() and not gate.is_set()
    gate.set()
    assert await waiting
