"""The table chat over two server processes on one PostgreSQL and one Redis: a line said through
one reaches the seats' sockets on the other, which reads it from the store once however many
sockets it holds; lines said at once in both get successive numbers; the table's version stays."""

from __future__ import annotations

import asyncio
import json
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from tests.scaleout.test_two_processes import receive, two  # noqa: F401 (the fixture)
from veillee.tables import HUMAN


async def seated(ws: AsyncWebSocketSession, token: str) -> None:
    """Say hello as a seat, open its chat, and wait until the server has answered both."""
    await ws.send_text(json.dumps({"type": "hello", "token": token}))
    await receive(ws, "state")
    await ws.send_text(json.dumps({"type": "chat_sync", "after": 0}))
    await ws.send_text(json.dumps({"type": "ping"}))
    await receive(ws, "pong")  # frames are answered in order: the sync is done


def lines(message: dict[str, Any]) -> list[tuple[int, int, str]]:
    return [(line["seq"], line["seat"], line["text"]) for line in message["lines"]]


async def test_a_line_said_on_one_process_reaches_the_other_with_one_read(
    two: tuple[FastAPI, FastAPI],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    a, b = two
    record, grants = await a.state.tables.create_table("chouine", (HUMAN, HUMAN))
    tokens = {g.seat: g.token for g in grants}
    reads_on_b: list[int] = []
    read = b.state.store.chat_lines

    async def counted(record_id: str, after: int = 0, limit: int = 1000) -> Any:
        reads_on_b.append(after)
        return await read(record_id, after, limit)

    path = f"/ws/tables/{record.id}"
    try:
        async with (
            httpx.AsyncClient(transport=ASGIWebSocketTransport(a), base_url="http://t") as ca,
            httpx.AsyncClient(transport=ASGIWebSocketTransport(b), base_url="http://t") as cb,
            AsyncExitStack() as stack,
        ):
            speaker = await stack.enter_async_context(aconnect_ws(path, ca))
            await seated(speaker, tokens[0])
            listeners = [await stack.enter_async_context(aconnect_ws(path, cb)) for _ in (1, 1)]
            for ws in listeners:
                await seated(ws, tokens[1])
            monkeypatch.setattr(b.state.store, "chat_lines", counted)
            for n in (1, 2, 3):
                await speaker.send_text(
                    json.dumps({"type": "chat", "client_id": f"c{n}", "text": f"<i>line {n}</i>"})
                )
                assert (await receive(speaker, "ack"))["version"] == 0
                for ws in listeners:
                    assert lines(await receive(ws, "chat")) == [(n, 0, f"<i>line {n}</i>")]
        assert reads_on_b == [0, 1, 2]  # one read per line on B, not one per socket
        assert (await b.state.tables.load(record.id)).version == 0
    finally:
        await a.state.store.delete(record.id)
    assert await a.state.store.chat_lines(record.id) == []


async def test_lines_said_at_once_on_two_processes_take_successive_numbers(
    two: tuple[FastAPI, FastAPI],  # noqa: F811
) -> None:
    a, b = two
    record, grants = await a.state.tables.create_table("charlemagne", (HUMAN,) * 4)
    try:
        said = await asyncio.gather(
            *(
                (a if g.seat % 2 else b).state.chat.say(record.id, g.seat, f"c{g.seat}", "hi")
                for g in grants
            )
        )
        assert sorted(line.seq for line, _ in said) == [1, 2, 3, 4]
        stored = await b.state.chat.lines_since(record.id, 0)
        assert sorted(line.seat for line in stored) == [0, 1, 2, 3]
    finally:
        await a.state.store.delete(record.id)
