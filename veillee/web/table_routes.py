"""The game pages, the table API and the table websocket.

``POST /api/tables`` makes a computer table and returns the seat token once; the page keeps it
in sessionStorage. ``/ws/tables/{id}`` carries the messages of :mod:`veillee.web.table_protocol`:
the socket validates, rate-limits and authenticates the seat; the table service decides.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from contextlib import AsyncExitStack
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse
from prometheus_client import Counter, Gauge
from pydantic import BaseModel, ConfigDict, Field

from veillee.games import GAMES
from veillee.tables import TableRefusal, TableService, channel, seat_view
from veillee.web import i18n
from veillee.web.pages import render, templates
from veillee.web.table_protocol import (
    AckOut,
    Act,
    BadMessage,
    ErrorOut,
    Hello,
    NewMatch,
    NextDeal,
    Ping,
    PongOut,
    StateOut,
    parse_client_message,
)

router = APIRouter()

TABLES_MADE = Counter("veillee_tables_made_total", "Computer tables made", ["game"])
OPEN_SOCKETS = Gauge("veillee_table_sockets", "Table websockets open in this process")
REFUSED = Counter("veillee_table_refusals_total", "Table messages refused, by reason", ["code"])


async def start(app: FastAPI, stack: AsyncExitStack) -> None:
    """Open the table service on the app's store and bus, and run the sweeper."""
    service = TableService(app.state.store, app.state.bus, app.state.settings)
    app.state.tables = service
    sweeper = asyncio.create_task(service.run_sweeper())

    async def stop() -> None:
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
        await service.close()

    stack.push_async_callback(stop)


def _service(app: Any) -> TableService:
    service: TableService = app.state.tables
    return service


# ---- pages ----------------------------------------------------------------------------------


@router.get("/chouine", response_class=HTMLResponse)
async def chouine_page(request: Request) -> HTMLResponse:
    """The Chouine page: what the game is, and "Play against the computer"."""
    return render(request, "chouine.html", game="chouine")


@router.get("/{game}/table/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, game: str, table_id: str) -> HTMLResponse:
    """The table page of ``game``; the script finds its seat token in sessionStorage."""
    template = f"{game}_table.html"
    if game not in GAMES or template not in templates.env.list_templates():
        raise HTTPException(404)
    settings = request.app.state.settings
    return render(
        request,
        template,
        game=game,
        table_id=table_id,
        bot_delay_ms=settings.bot_delay_ms,
        trick_pause_ms=settings.trick_pause_ms,
    )


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``: the game, and match options such as ``{"best_of": 3}``."""

    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(max_length=32)]
    options: Annotated[dict[Annotated[str, Field(max_length=20)], int], Field(max_length=4)] = {}


class CreatedTable(BaseModel):
    """Answer of ``POST /api/tables``: the token is sent this once and never stored in clear."""

    table_id: str
    seat: int
    token: str
    url: str


@router.post("/api/tables", status_code=201)
async def create_table(body: CreateTable, request: Request) -> CreatedTable:
    """Make a computer table (a person at seat 0, the computer elsewhere)."""
    if body.game not in GAMES:
        raise HTTPException(404, "unknown_game")
    try:
        grant = await _service(request.app).create_computer_table(body.game, body.options)
    except TableRefusal as exc:
        raise HTTPException(422, exc.reason) from exc
    TABLES_MADE.labels(body.game).inc()
    return CreatedTable(
        table_id=grant.table_id,
        seat=grant.seat,
        token=grant.token,
        url=f"/{body.game}/table/{grant.table_id}",
    )


# ---- the websocket --------------------------------------------------------------------------


class RateLimit:
    """Token bucket: ``rate`` messages per second, bursts of ``2 * rate``."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.capacity = 2 * rate
        self.tokens = self.capacity
        self.last = time.monotonic()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def origin_allowed(ws: WebSocket) -> bool:
    """A browser's socket must come from a page of this site (same host); clients that send
    no Origin (not browsers) are let through to the token check."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host")


def reason_text(lang: str, code: str) -> str:
    """The reason ``code`` in words (falls back to a generic sentence)."""
    key = f"reason.{code}"
    text = i18n.t(lang, key)
    return text if text != key else i18n.t(lang, "reason.unknown")


class TableSocket:
    """One open table page: its seat, the last version it was sent, and its sends."""

    def __init__(self, ws: WebSocket, service: TableService, table_id: str) -> None:
        self.ws = ws
        self.service = service
        self.table_id = table_id
        self.seat: int | None = None
        self.sent_version = -1
        self.lang = i18n.pick_lang(ws.cookies.get("lang"), ws.headers.get("accept-language"))
        self._lock = asyncio.Lock()

    async def send(self, message: BaseModel) -> None:
        async with self._lock:
            await self.ws.send_text(message.model_dump_json())

    async def error(self, code: str, client_id: str | None = None) -> None:
        REFUSED.labels(code).inc()
        await self.send(
            ErrorOut(code=code, message=reason_text(self.lang, code), client_id=client_id)
        )

    async def send_state(self, force: bool = False) -> None:
        """Send this seat its view of the table if it is newer than what it has."""
        if self.seat is None:
            return
        record = await self.service.load(self.table_id)
        if record.version <= self.sent_version and not force:
            return
        self.sent_version = max(self.sent_version, record.version)
        await self.send(StateOut(**seat_view(record, self.seat)))

    async def follow_bus(self, queue: asyncio.Queue[str]) -> None:
        while True:
            message = await queue.get()
            if message == "gone":
                await self.error("table_gone")
                await self.ws.close(code=4404)
                return
            with contextlib.suppress(TableRefusal):
                await self.send_state()

    async def handle(self, msg: Act | NextDeal | NewMatch | Ping) -> None:
        if isinstance(msg, Ping):
            await self.send(PongOut())
            return
        assert self.seat is not None
        try:
            if isinstance(msg, Act):
                done = await self.service.act(
                    self.table_id, self.seat, msg.client_id, msg.action, msg.version
                )
            elif isinstance(msg, NextDeal):
                done = await self.service.next_deal(
                    self.table_id, self.seat, msg.client_id, msg.version
                )
            else:
                done = await self.service.new_match(
                    self.table_id, self.seat, msg.client_id, dict(msg.options)
                )
        except TableRefusal as exc:
            await self.error(exc.reason, msg.client_id)
            if exc.reason != "table_gone":
                await self.send_state(force=True)
            return
        await self.send(
            AckOut(client_id=msg.client_id, version=done.record.version, duplicate=done.duplicate)
        )
        await self.send_state(force=done.duplicate)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """One seat's connection to a table (see docs/protocol.md)."""
    if not origin_allowed(ws):
        await ws.close(code=1008)
        return
    await ws.accept()
    service = _service(ws.app)
    settings = ws.app.state.settings
    sock = TableSocket(ws, service, table_id)
    limit = RateLimit(settings.max_messages_per_second)
    follower: asyncio.Task[None] | None = None
    stack = AsyncExitStack()
    OPEN_SOCKETS.inc()
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:  # a binary frame: not one of ours
                await sock.error("bad_message")
                continue
            if len(text.encode()) > settings.max_message_bytes:
                await sock.error("message_too_large")
                continue
            if not limit.allow():
                await sock.error("rate_limited")
                continue
            try:
                msg = parse_client_message(text)
            except BadMessage as exc:
                await sock.error(exc.reason)
                continue
            if isinstance(msg, Hello):
                if msg.lang:
                    sock.lang = msg.lang
                seat = await service.seat_of(table_id, msg.token)
                if seat is None or (sock.seat is not None and seat != sock.seat):
                    try:
                        await service.load(table_id)
                    except TableRefusal:
                        await sock.error("table_gone")
                        await ws.close(code=4404)
                        return
                    await sock.error("bad_token")
                    await ws.close(code=4403)
                    return
                if sock.seat is None:
                    sock.seat = seat
                    queue = await stack.enter_async_context(
                        ws.app.state.bus.subscribe(channel(table_id))
                    )
                    follower = asyncio.create_task(sock.follow_bus(queue))
                try:
                    await sock.send_state(force=True)
                except TableRefusal:
                    await sock.error("table_gone")
                    await ws.close(code=4404)
                    return
                service.kick(table_id)
            elif sock.seat is None:
                await sock.error("hello_first")
            else:
                await sock.handle(msg)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        OPEN_SOCKETS.dec()
        if follower is not None:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await follower
        await stack.aclose()
