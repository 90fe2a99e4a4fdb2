"""Fuzzing what a stranger can send, shared by the SQLite runs (tests/reliability) and the
PostgreSQL runs (tests/scaleout): random frames on a table socket (in process), and random ids,
tokens and bodies at every door of a real server, whose log is searched for tracebacks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import string
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
from fastapi import FastAPI
from httpx_ws import aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from tests.conftest import IN_PROCESS
from tests.web.sockets import refusals
from veillee.tables import HUMAN
from veillee.web.live_protocol import BadMessage, Ping
from veillee.web.table_protocol import parse_client_message

TYPES = ["act", "next", "new_match", "ping", "state", "chat", "chat_sync", "", "ACT", None, 3]
FIELDS = ["type", "client_id", "action", "version", "options", "lang", "text", "after", "extra"]
NASTY = ["\x00", "\ud800", "\u202e", "\n", "%", "/", "..", "é", "💥", "'", '"', "\\", " ", "*"]
"""Characters a store, a URL or a log may choke on."""


def junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value."""
    kind = rng.randrange(8 if depth < 2 else 5)
    if kind == 0:
        return rng.choice([None, True, False])
    if kind == 1:
        return rng.choice([0, -1, 1, 2**31, -(2**63), 10**30, 3.5])
    if kind == 2:
        return "".join(
            rng.choice(string.printable + "".join(NASTY)) for _ in range(rng.randrange(12))
        )
    if kind == 3:
        return rng.choice(["JH", "JH tierce", "swap", "continue", "AS quinte", "7S", "ZZ", "é"])
    if kind == 4:
        return "x" * rng.choice([0, 1, 40, 41, 64, 65, 200])
    if kind == 5:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(FIELDS): junk(rng, depth + 1) for _ in range(rng.randrange(4))}


def fuzzed_message(rng: random.Random) -> str:
    """A random frame: text, JSON, or a message of ours with random fields."""
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


def fuzzed_word(rng: random.Random, real: str) -> str:
    """An id or a token that is almost ``real``: cut, grown, or with nasty characters in it."""
    shape = rng.randrange(6)
    if shape == 0:
        return real[: rng.randrange(len(real))]
    if shape == 1:
        return real + rng.choice(string.ascii_letters) * rng.choice([1, 50, 200, 3000])
    if shape == 2:
        at = rng.randrange(len(real) + 1)
        return real[:at] + rng.choice(NASTY) + real[at:]
    if shape == 3:
        return "".join(rng.choice(NASTY + list(string.printable)) for _ in range(rng.randrange(40)))
    if shape == 4:
        return rng.choice(NASTY) * rng.randrange(1, 70)
    return real


class Tracebacks(logging.Handler):
    """Counts the log records that carry a traceback or say ERROR (uvicorn's "Exception in ASGI
    application", a failed sweep or bus listener…), on the root logger and uvicorn's."""

    LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.asgi")

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.records.append(record)

    def __str__(self) -> str:
        return "\n".join(self.format(r) for r in self.records[:3])

    @classmethod
    @contextlib.contextmanager
    def counted(cls) -> Iterator[Tracebacks]:
        handler = cls()
        loggers = [logging.getLogger(name) for name in cls.LOGGERS]
        for logger in loggers:
            logger.addHandler(handler)
        try:
            yield handler
        finally:
            for logger in loggers:
                logger.removeHandler(handler)


async def fuzz_table_socket(app: FastAPI, rounds: int, seed: int) -> int:
    """Send ``rounds`` fuzzed frames on a table socket of two people's seats, each followed by a
    ping: every frame is answered (a reason, or the change's ack), the table moves only with an
    ack, and the socket stays open. Returns how many frames were refused."""
    app.state.settings.max_messages_per_second = 10_000.0
    rng = random.Random(seed)
    service = app.state.tables
    record, grants = await service.create_table("chouine", (HUMAN, HUMAN))
    refused = 0
    async with (
        httpx.AsyncClient(transport=ASGIWebSocketTransport(app), base_url=IN_PROCESS) as c,
        aconnect_ws(f"/ws/tables/{record.id}", c) as ws,
    ):
        await ws.send_text(json.dumps({"type": "hello", "token": grants[0].token}))
        assert json.loads(await ws.receive_text())["type"] == "state"
        for _ in range(rounds):
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
    return refused


def _is_ping(text: str) -> bool:
    try:
        return isinstance(parse_client_message(text), Ping)
    except BadMessage:
        return False


async def fuzz_doors(base: str, rounds: int, seed: int) -> dict[str, int]:
    """Knock ``rounds`` times at every door that takes an id or a token, on the server at
    ``base``, with a real sheet's and table's id and tokens made almost right (:func:`fuzzed_word`):
    both sockets (the id in the path, the token in ``hello``), the sheet API (the id in the path,
    the token as bearer) and the pages. Every socket is answered with a reason and closed with
    one of ours (4403 token refused, 4404 gone, or kept: a right token), never dropped;
    every request gets an answer below 500. Returns the answers counted by kind."""
    rng = random.Random(seed)
    seen: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=base, timeout=10) as c:
        sheet = (await c.post("/api/sheets", json={})).json()
        table = (await c.post("/api/tables", json={"game": "chouine"})).json()
        doors = [
            ("sheets", sheet["id"], sheet["scorer_token"]),
            ("tables", table["table_id"], table["token"]),
        ]
        for _ in range(rounds):
            kind, real_id, real_token = rng.choice(doors)
            record_id, token = fuzzed_word(rng, real_id), fuzzed_word(rng, real_token)
            path = quote(record_id, safe="", errors="surrogatepass")
            answer = await _knock_socket(c, f"/ws/{kind}/{path}", token)
            seen[answer] = seen.get(answer, 0) + 1
            # What a header can carry of it (HTTP has no control characters in a header).
            raw = bytes(b for b in token.encode("utf-8", "surrogatepass")[:500] if b > 32)
            bearer = {"authorization": (b"Bearer " + raw.replace(b"\x7f", b"")).strip()}
            for method, url in (
                ("GET", f"/api/sheets/{path}"),
                ("POST", f"/api/sheets/{path}/viewers"),
                ("POST", f"/api/sheets/{path}/changes"),
                ("GET", f"/scores/sheet/{path}"),
                ("GET", f"/chouine/table/{path}"),
            ):
                r = await c.request(method, url, headers=bearer, content=b'{"type": "undo"}')
                assert r.status_code < 500, (method, url, r.status_code, r.text)
                seen[f"http {r.status_code}"] = seen.get(f"http {r.status_code}", 0) + 1
    return seen


async def _knock_socket(c: httpx.AsyncClient, path: str, token: str) -> str:
    """Open ``path``, say hello with ``token``, and say how the server answered: a snapshot (the
    right token), ``bad_message`` (the socket then waits for a proper hello), or a refusal
    followed by the close that goes with it."""
    first: dict[str, Any] = {}
    try:
        async with aconnect_ws(path, c) as ws:
            await ws.send_text(json.dumps({"type": "hello", "token": token}))
            first = json.loads(await asyncio.wait_for(ws.receive_text(), 5))
            if first["type"] != "error" or first["code"] == "bad_message":
                return str(first.get("code", first["type"]))
            await asyncio.wait_for(ws.receive_text(), 5)
            raise AssertionError(f"{path}: {first} and the socket stays open")
    except BaseException as exc:  # httpx-ws raises groups
        codes = refusals(exc)
        if first:  # a reason, then the close that goes with it
            closing = {"bad_token": 4403, "table_gone": 4404, "sheet_gone": 4404}
            assert codes == [closing.get(first["code"])], (path, first, codes)
        else:  # refused before the handshake (a path no socket has), never a server error
            assert all(code < 500 for code in codes), (path, codes)
        return " ".join([first.get("code", "handshake"), *map(str, codes)])
