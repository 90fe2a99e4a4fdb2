"""The game pages, the table API and the table websocket.

``POST /api/tables`` makes a computer table and returns the seat token once; the page keeps it
in sessionStorage. ``/ws/tables/{id}`` carries the messages of :mod:`veillee.web.table_protocol`:
the socket validates, rate-limits and authenticates the seat; the table service decides.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from contextlib import AsyncExitStack
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse
from prometheus_client import Counter, Gauge
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from veillee.games import names
from veillee.tables import TableRefusal, TableService, channel, seat_view
from veillee.web import i18n
from veillee.web.guards import RateLimit, origin_allowed
from veillee.web.pages import render, templates
from veillee.web.table_protocol import (
    AckOut,
    Act,
    BadMessage,
    ErrorOut,
    Hello,
    NewMatch,
    NextDeal,
    Options,
    Ping,
    PongOut,
    StateOut,
    parse_client_message,
    peek_client_id,
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
    if not has_page(game):
        raise HTTPException(404)
    template = f"{game}_table.html"
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

    model_config = ConfigDict(extra="forbid", strict=True)
    game: Annotated[str, Field(max_length=32)]
    options: Options = {}


CLIENT_OPTIONS: dict[str, dict[str, tuple[int, ...]]] = {
    "chouine": {"best_of": (3, 5)},
    "charlemagne": {"target": (32,)},
}
"""The match options a person may choose, per game, and their allowed values (rules:
Chouine is played in 3 or 5 parties; Charlemagne to 32). Anything else, such as the first
dealer, is the server's: every new match draws its first dealer at random."""

MAX_BODY_BYTES = 4096
"""Largest ``POST /api/tables`` body, as for the sheets API."""


class ApiRefusal(Exception):
    """A refused API request: ``reason`` is the code of the ``{"detail": reason}`` body."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def has_page(game: str) -> bool:
    """Whether ``game`` has a table page: tables are only made for games one can play."""
    return game in names() and f"{game}_table.html" in templates.env.list_templates()


def check_client_options(game: str, options: dict[str, int]) -> None:
    """Refuse (``ApiRefusal(422, "bad_options")``) options a person may not choose for
    ``game`` (see :data:`CLIENT_OPTIONS`)."""
    allowed = CLIENT_OPTIONS.get(game, {})
    for key, value in options.items():
        if key not in allowed or type(value) is not int or value not in allowed[key]:
            raise ApiRefusal(422, "bad_options")


def parse_create_table(raw: bytes) -> CreateTable:
    """The body of ``POST /api/tables``, checked: size (413 ``message_too_large``), shape
    (400 ``bad_request``), game with a page (404 ``unknown_game``, ``game_not_available``)
    and options (422 ``bad_options``). Raises ApiRefusal."""
    if len(raw) > MAX_BODY_BYTES:
        raise ApiRefusal(413, "message_too_large")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise ApiRefusal(400, "bad_request") from exc
    if not isinstance(data, dict):
        raise ApiRefusal(400, "bad_request")
    game = data.get("game")
    if not isinstance(game, str) or len(game) > 32:
        raise ApiRefusal(400, "bad_request")
    if game not in names():
        raise ApiRefusal(404, "unknown_game")
    if not has_page(game):
        raise ApiRefusal(404, "game_not_available")
    try:
        body = CreateTable.model_validate(data)
    except ValidationError as exc:
        if all(err["loc"][:1] == ("options",) for err in exc.errors()):
            raise ApiRefusal(422, "bad_options") from exc
        raise ApiRefusal(400, "bad_request") from exc
    check_client_options(game, body.options)
    return body


class CreatedTable(BaseModel):
    """Answer of ``POST /api/tables``: the token is sent this once and never stored in clear."""

    table_id: str
    seat: int
    token: str
    url: str


async def _read_body(request: Request) -> bytes:
    # Stop reading past the limit instead of holding a large body in memory.
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise ApiRefusal(413, "message_too_large")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise ApiRefusal(413, "message_too_large")
    return body


@router.post("/api/tables", status_code=201, response_model=CreatedTable)
async def create_table(request: Request) -> CreatedTable | JSONResponse:
    """Make a computer table (a person at seat 0, the computer elsewhere). Every refusal is
    ``{"detail": "<reason>"}``: 400 ``bad_request``, 404 ``unknown_game`` or
    ``game_not_available``, 413 ``message_too_large``, 422 ``bad_options``."""
    try:
        body = parse_create_table(await _read_body(request))
        grant = await _service(request.app).create_computer_table(body.game, dict(body.options))
    except ApiRefusal as exc:
        REFUSED.labels(exc.reason).inc()
        return JSONResponse({"detail": exc.reason}, status_code=exc.status)
    except TableRefusal as exc:
        REFUSED.labels(exc.reason).inc()
        return JSONResponse({"detail": exc.reason}, status_code=422)
    TABLES_MADE.labels(body.game).inc()
    return CreatedTable(
        table_id=grant.table_id,
        seat=grant.seat,
        token=grant.token,
        url=f"/{body.game}/table/{grant.table_id}",
    )


# ---- the websocket --------------------------------------------------------------------------


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
                record = await self.service.load(self.table_id)
                try:
                    check_client_options(str(record.data["game"]), dict(msg.options))
                except ApiRefusal as exc:
                    raise TableRefusal(exc.reason) from exc
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
        hello_by = time.monotonic() + settings.hello_timeout_s
        while True:
            if sock.seat is None:
                # A socket that never says hello holds a slot for nothing: close it.
                try:
                    frame = await asyncio.wait_for(
                        ws.receive(), max(0.0, hello_by - time.monotonic())
                    )
                except TimeoutError:
                    await sock.error("hello_timeout")
                    await ws.close(code=4408)
                    return
            else:
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
                # Say which change was dropped, so the page can send it again.
                await sock.error("rate_limited", peek_client_id(text))
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
