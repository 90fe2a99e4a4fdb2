"""What the socket tests share: an in-process client that speaks websockets, making a sheet or a
table through the API, and reading the next message of a kind."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, WebSocketDisconnect, WebSocketUpgradeError
from httpx_ws.transport import ASGIWebSocketTransport


@asynccontextmanager
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP and websocket client of ``app``, in process."""
    async with httpx.AsyncClient(transport=ASGIWebSocketTransport(app), base_url="http://t") as c:
        yield c


async def receive(ws: AsyncWebSocketSession, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (skipping others), within 5 s."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.receive_text(), 5))
        if message["type"] == kind:
            return message


async def new_sheet(c: httpx.AsyncClient) -> dict[str, Any]:
    """A new sheet with the defaults: the creation answer (id, both tokens, the view)."""
    r = await c.post("/api/sheets", json={})
    assert r.status_code == 201
    made: dict[str, Any] = r.json()
    return made


async def new_table(c: httpx.AsyncClient, **options: int) -> dict[str, Any]:
    """A new computer table: the creation answer (table id, seat, token, url)."""
    r = await c.post("/api/tables", json={"game": "chouine", "options": options})
    assert r.status_code == 201
    made: dict[str, Any] = r.json()
    return made


def refusals(exc: BaseException) -> list[int]:
    """What httpx-ws raised (alone or in exception groups) when the server closed or refused a
    socket: the close codes, and the statuses of refused handshakes. Raises ``exc`` if anything
    else is in it."""
    if isinstance(exc, BaseExceptionGroup):
        return [code for inner in exc.exceptions for code in refusals(inner)]
    if isinstance(exc, WebSocketDisconnect):
        return [exc.code]
    if isinstance(exc, WebSocketUpgradeError):
        return [exc.response.status_code]
    raise exc
