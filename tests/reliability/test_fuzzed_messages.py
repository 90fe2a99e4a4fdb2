"""Fuzzed websocket messages: whatever arrives, the socket answers with a reason and the table
does not change (unless the message was a valid change), and the socket stays usable."""

from __future__ import annotations

import asyncio
import json
import random
import string
from typing import Any

import httpx
from fastapi import FastAPI
from httpx_ws import aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from veillee.tables import HUMAN
from veillee.web.live_protocol import BadMessage, Ping
from veillee.web.table_protocol import parse_client_message

TYPES = ["act", "next", "new_match", "ping", "state", "", "ACT", None, 3]
FIELDS = ["type", "client_id", "action", "version", "options", "lang", "extra"]


def junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value."""
    kind = rng.randrange(8 if depth < 2 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 1, 2**31, -(2**63), 10**30, 3.5])
    if kind == 2:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(12)))
    if kind == 3:
        return rng.choice(["JH", "JH tierce", "swap", "continue", "AS quinte", "7S", "ZZ", "é"])
    if kind == 4:
        return "x" * rng.choice([0, 1, 40, 41, 64, 65, 200])
    if kind == 5:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(FIELDS): junk(rng, depth + 1) for _ in range(rng.randrange(4))}


def fuzzed_message(rng: random.Random) -> str:
    shape = rng.randrange(5)
    if shape == 0:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(60)))
    if shape == 1:
        return json.dumps(junk(rng))
    message: dict[str, Any] = {"type": rng.choice(TYPES)}
    for field in rng.sample(FIELDS[1:], rng.randrange(len(FIELDS))):
        message[field] = junk(rng)
    text = json.dumps(message)
    if shape == 2 and text:  # a truncated or doubled frame
        return rng.choice([text[: rng.randrange(len(text))], text + text])
    return text


async def test_fuzzed_messages_never_break_the_socket_nor_change_the_table(app: FastAPI) -> None:
    # Two people's seats: nothing moves the table but this socket's own valid changes.
    app.state.settings.max_messages_per_second = 10_000.0
    rng = random.Random(2026)
    service = app.state.tables
    record, grants = await service.create_table("chouine", (HUMAN, HUMAN))
    token = grants[0].token
    refused = 0
    transport = ASGIWebSocketTransport(app)
    async with (
        httpx.AsyncClient(transport=transport, base_url="http://t") as c,
        aconnect_ws(f"/ws/tables/{record.id}", c) as ws,
    ):
        await ws.send_text(json.dumps({"type": "hello", "token": token}))
        assert json.loads(await ws.receive_text())["type"] == "state"
        for _ in range(600):
            before = (await service.load(record.id)).version
            text = fuzzed_message(rng)
            await ws.send_text(text)
            await ws.send_text(json.dumps({"type": "ping"}))
            pongs = 2 if _is_ping(text) else 1
            replies: list[dict[str, Any]] = []
            while pongs:
                reply = json.loads(await asyncio.wait_for(ws.receive_text(), 5))
                pongs -= reply["type"] == "pong"
                replies.append(reply)
            kinds = {r["type"] for r in replies}
            after = (await service.load(record.id)).version
            if "error" in kinds:
                refused += 1
                error = next(r for r in replies if r["type"] == "error")
                assert error["code"] and error["message"] != f"reason.{error['code']}"
                assert after == before and "ack" not in kinds
            else:
                assert after == before or "ack" in kinds
    assert refused > 500


def _is_ping(text: str) -> bool:
    try:
        return isinstance(parse_client_message(text), Ping)
    except BadMessage:
        return False
