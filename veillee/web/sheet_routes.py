"""SquareScores on the web: the pages, the JSON API and the sheet websocket (DESIGN.md §5–6).

Messages in and out are pydantic models (documented in ``docs/sheets-protocol.md``); anything
that does not validate is answered with an error carrying a reason code and changes nothing.
Tokens travel only in the creator's response and in the links the players share; a page is sent
:func:`veillee.tables.sheets.sheet_view`, which holds none.

>>> parse_change('{"type": "add", "client_id": "c1", "side": 0, "outcome": "won"}')
AddIn(type='add', client_id='c1', side=0, outcome='won')
>>> parse_change('{"type": "add", "client_id": "c1", "side": 0}')
Traceback (most recent call last):
...
veillee.web.sheet_routes.BadMessage: bad_message
"""

from __future__ import annotations

import asyncio
import contextlib
from contextlib import AsyncExitStack
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
)
from starlette.websockets import WebSocketDisconnect, WebSocketState

from veillee import sheets
from veillee.tables.sheets import (
    SCORER,
    VIEWER,
    Change,
    Role,
    SheetRefusal,
    SheetService,
    channel,
    sheet_view,
)
from veillee.web import i18n
from veillee.web.guards import RateLimit, origin_allowed
from veillee.web.pages import page_lang, render

router = APIRouter()

ClientId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Side = Annotated[StrictInt, Field(ge=0, le=1)]
Index = Annotated[StrictInt, Field(ge=0, le=9999)]
Name = Annotated[str, Field(min_length=1, max_length=32)]
Token = Annotated[str, Field(min_length=16, max_length=128)]


class BadMessage(Exception):
    """A message that does not validate; ``reason`` is ``bad_message`` or
    ``message_too_large``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HelloIn(_In):
    """First message on a socket (and after each reconnect): the sheet token from the link."""

    type: Literal["hello"]
    token: Token
    version: Annotated[StrictInt, Field(ge=0)] | None = None


class AddIn(_In):
    """Enter a row: ``outcome`` for ``side`` (spec §A1). ``client_id`` is made by the phone, so
    an entry kept offline and sent twice is stored once."""

    type: Literal["add"]
    client_id: ClientId
    side: Side
    outcome: Name


class EditIn(_In):
    """Replace row ``index`` (from 0) with ``outcome`` for ``side``."""

    type: Literal["edit"]
    client_id: ClientId
    index: Index
    side: Side
    outcome: Name


class DeleteIn(_In):
    """Delete row ``index`` (from 0); later rows move up."""

    type: Literal["delete"]
    client_id: ClientId
    index: Index


class SettingIn(_In):
    """Change setting ``name`` (spec §A2; race to ten while rows exist)."""

    type: Literal["setting"]
    client_id: ClientId
    name: Name
    value: StrictBool | StrictInt | Annotated[str, Field(max_length=32)]


class EndIn(_In):
    """End match: bank the result (the page has confirmed an early end)."""

    type: Literal["end"]
    client_id: ClientId


class UndoIn(_In):
    """Undo the last change to the sheet."""

    type: Literal["undo"]
    client_id: ClientId


ChangeIn = AddIn | EditIn | DeleteIn | SettingIn | EndIn | UndoIn
_changes: TypeAdapter[ChangeIn] = TypeAdapter(Annotated[ChangeIn, Field(discriminator="type")])
_socket_in: TypeAdapter[HelloIn | ChangeIn] = TypeAdapter(
    Annotated[HelloIn | ChangeIn, Field(discriminator="type")]
)


class CreateIn(_In):
    """Start a sheet: the preset, the two sides' names, settings (others default), first dealer
    (seat 0–3 clockwise; side 0 = seats 0 and 2)."""

    preset: Name = "aluette"
    sides: tuple[Annotated[str, Field(max_length=80)], Annotated[str, Field(max_length=80)]] = (
        sheets.DEFAULT_SIDES
    )
    settings: dict[Name, StrictBool | StrictInt | Annotated[str, Field(max_length=32)]] = Field(
        default_factory=dict, max_length=16
    )
    first_dealer: StrictInt = 0


class SheetOut(BaseModel):
    """The sheet as this page may see it (``sheet_view``): sent on hello and on every change."""

    type: Literal["sheet"] = "sheet"
    sheet: dict[str, Any]


class AckOut(BaseModel):
    """A change was applied (or had been, if ``duplicate``); the sheet is now at ``version``."""

    type: Literal["ack"] = "ack"
    client_id: str
    version: int
    duplicate: bool


class ErrorOut(BaseModel):
    """A refusal: ``reason`` is a code the page translates; nothing changed."""

    type: Literal["error"] = "error"
    reason: str
    client_id: str | None = None


def _parse(adapter: TypeAdapter[Any], text: str | bytes, limit: int) -> Any:
    # the limit is in bytes (UTF-8), as on the table socket: 4096 "é" are 8192 bytes
    size = len(text.encode()) if isinstance(text, str) else len(text)
    if size > limit:
        raise BadMessage("message_too_large")
    try:
        return adapter.validate_json(text)
    except ValidationError:
        raise BadMessage("bad_message") from None


def parse_change(text: str | bytes, limit: int = 4096) -> ChangeIn:
    """The change in ``text`` (JSON). Raises BadMessage."""
    parsed: ChangeIn = _parse(_changes, text, limit)
    return parsed


def to_change(message: ChangeIn) -> Change:
    """The service's :class:`Change` for a validated message."""
    if isinstance(message, AddIn):
        return Change("add", side=message.side, outcome=message.outcome)
    if isinstance(message, EditIn):
        return Change("edit", index=message.index, side=message.side, outcome=message.outcome)
    if isinstance(message, DeleteIn):
        return Change("delete", index=message.index)
    if isinstance(message, SettingIn):
        return Change("setting", name=message.name, value=message.value)
    if isinstance(message, EndIn):
        return Change("end")
    return Change("undo")


async def start(app: FastAPI, stack: AsyncExitStack) -> None:
    """Open the sheet service on the app's store and bus (``app.state.sheets``)."""
    app.state.sheets = SheetService(app.state.store, app.state.bus, app.state.settings.sheet_idle_s)


def _service(app: Any) -> SheetService:
    service: SheetService = app.state.sheets
    return service


def _error(reason: str, status: int) -> JSONResponse:
    return JSONResponse(ErrorOut(reason=reason).model_dump(), status_code=status)


STATUS = {
    "bad_message": 400,
    "message_too_large": 413,
    "bad_token": 403,
    "read_only": 403,
    "sheet_gone": 404,
    "busy": 503,
}


def _refusal(reason: str) -> JSONResponse:
    return _error(reason, STATUS.get(reason, 409))


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else ""


# Pages


def _strings(lang: str) -> dict[str, str]:
    """The page's strings for its scripts (keys under ``scores.``), in ``lang``."""
    catalog = i18n.catalog(lang)
    english = i18n.catalog(i18n.DEFAULT_LANG)
    keys = [k for k in english if k.startswith("scores.")]
    return {k: catalog.get(k) or english[k] for k in keys}


def _presets() -> list[dict[str, Any]]:
    return [
        {
            "name": p.name,
            "defaults": dict(p.defaults),
            "choices": {k: list(v) for k, v in p.choices.items()},
            "seats": p.seats,
        }
        for p in sheets.PRESETS.values()
    ]


@router.get("/scores", response_class=HTMLResponse)
async def scores_page(request: Request) -> HTMLResponse:
    """Start a sheet; the list of this browser's sheets."""
    lang = page_lang(request)
    return render(request, "scores.html", presets=_presets(), strings=_strings(lang))


@router.get("/scores/sheet/{sheet_id}", response_class=HTMLResponse)
async def sheet_page(request: Request, sheet_id: str) -> HTMLResponse:
    """The sheet page shell; the script reads the token from the link's fragment (never sent
    to the server in the URL) or from this browser's list."""
    lang = page_lang(request)
    return render(request, "scores_sheet.html", strings=_strings(lang))


@router.get("/scores/sw.js")
async def service_worker(request: Request) -> FileResponse:
    """The service worker, served under /scores so that it may control the SquareScores pages
    (from the served build's files: ``app.state.assets``)."""
    return FileResponse(
        request.app.state.assets.root / "scores" / "sw.js",
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/scores", "Cache-Control": "no-cache"},
    )


# JSON API


@router.post("/api/sheets")
async def create_sheet(request: Request) -> Response:
    """Start a sheet. Body: :class:`CreateIn`. Answer (201): ``{"id", "scorer_token",
    "viewer_token", "sheet"}``; 400/409 with ``{"type": "error", "reason"}``."""
    limit = request.app.state.settings.max_message_bytes
    try:
        body = _parse(TypeAdapter(CreateIn), await request.body(), limit)
        created = await _service(request.app).create(
            body.preset, body.sides, dict(body.settings), body.first_dealer
        )
    except BadMessage as err:
        return _refusal(err.reason)
    except SheetRefusal as err:
        return _refusal(err.reason)
    return JSONResponse(
        {
            "id": created.record.id,
            "scorer_token": created.scorer_token,
            "viewer_token": created.viewer_token,
            "sheet": sheet_view(created.record, SCORER),
        },
        status_code=201,
    )


@router.get("/api/sheets/{sheet_id}")
async def get_sheet(request: Request, sheet_id: str) -> Response:
    """The sheet as the bearer's role sees it (``Authorization: Bearer <token>``)."""
    service = _service(request.app)
    try:
        role = await service.access(sheet_id, _bearer(request))
        record = await service.load(sheet_id)
    except SheetRefusal as err:
        return _refusal(err.reason)
    return JSONResponse(SheetOut(sheet=sheet_view(record, role)).model_dump())


@router.post("/api/sheets/{sheet_id}/changes")
async def change_sheet(request: Request, sheet_id: str) -> Response:
    """Apply one change (a scorer's bearer token). Body: one change message of the websocket.
    Answer: ``{"type": "ack", …}`` plus ``"sheet"``, or an error with a reason code."""
    service = _service(request.app)
    limit = request.app.state.settings.max_message_bytes
    try:
        role = await service.access(sheet_id, _bearer(request))
        message = parse_change(await request.body(), limit)
        applied = await service.apply(sheet_id, role, to_change(message), message.client_id)
    except BadMessage as err:
        return _refusal(err.reason)
    except SheetRefusal as err:
        return _refusal(err.reason)
    ack = AckOut(
        client_id=message.client_id,
        version=applied.record.version,
        duplicate=applied.duplicate,
    ).model_dump()
    return JSONResponse({**ack, "sheet": sheet_view(applied.record, role)})


@router.post("/api/sheets/{sheet_id}/viewers")
async def add_viewer(request: Request, sheet_id: str) -> Response:
    """A new viewer token (a scorer's bearer token): ``{"viewer_token"}``."""
    service = _service(request.app)
    try:
        role = await service.access(sheet_id, _bearer(request))
        if role != SCORER:
            raise SheetRefusal("read_only")
        token = await service.add_viewer(sheet_id)
    except SheetRefusal as err:
        return _refusal(err.reason)
    return JSONResponse({"viewer_token": token}, status_code=201)


# The websocket


class SheetSocket:
    """One open page: sends it the sheet after every change, takes the scorer's changes."""

    def __init__(self, ws: WebSocket, service: SheetService, sheet_id: str, role: Role) -> None:
        self.ws = ws
        self.service = service
        self.sheet_id = sheet_id
        self.role: Role = role
        self.sent_version = -1
        self.lock = asyncio.Lock()

    async def send(self, message: BaseModel) -> None:
        """Send one message (messages from two tasks never interleave)."""
        async with self.lock:
            if self.ws.application_state == WebSocketState.CONNECTED:
                await self.ws.send_text(message.model_dump_json())

    async def send_sheet(self, force: bool = False) -> None:
        """Send the sheet if it moved on since the last one sent (or always, if ``force``)."""
        try:
            record = await self.service.load(self.sheet_id)
        except SheetRefusal as err:
            await self.send(ErrorOut(reason=err.reason))
            return
        if force or record.version > self.sent_version:
            self.sent_version = record.version
            await self.send(SheetOut(sheet=sheet_view(record, self.role)))

    async def follow(self, queue: asyncio.Queue[str]) -> None:
        """Forward each bus announcement as a fresh sheet."""
        while True:
            await queue.get()
            while not queue.empty():  # several changes at once: one reload is enough
                queue.get_nowait()
            await self.send_sheet()

    async def handle(self, message: HelloIn | ChangeIn) -> None:
        """Answer one validated message."""
        if isinstance(message, HelloIn):
            # a hello again on an open socket: the page wants the sheet (same role only)
            await self.send_sheet(force=True)
            return
        try:
            applied = await self.service.apply(
                self.sheet_id, self.role, to_change(message), message.client_id
            )
        except SheetRefusal as err:
            await self.send(ErrorOut(reason=err.reason, client_id=message.client_id))
            return
        await self.send(
            AckOut(
                client_id=message.client_id,
                version=applied.record.version,
                duplicate=applied.duplicate,
            )
        )
        await self.send_sheet()


async def _receive_text(ws: WebSocket) -> str | None:
    """The next text frame, ``""`` for a binary one, None once the page has gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    return text if isinstance(text, str) else ""


@router.websocket("/ws/sheets/{sheet_id}")
async def sheet_socket(ws: WebSocket, sheet_id: str) -> None:
    """The live sheet. First message: :class:`HelloIn`; then changes (scorer only). Out:
    :class:`SheetOut`, :class:`AckOut`, :class:`ErrorOut`."""
    if not origin_allowed(ws):
        await ws.close(code=1008)
        return
    await ws.accept()
    settings = ws.app.state.settings
    service = _service(ws.app)
    limit = settings.max_message_bytes
    limiter = RateLimit(settings.max_messages_per_second)
    try:
        first = await _receive_text(ws)
        if first is None:
            return
        try:
            hello = _parse(_socket_in, first, limit)
            if not isinstance(hello, HelloIn):
                raise BadMessage("hello_first")
            role = await service.access(sheet_id, hello.token)
        except (BadMessage, SheetRefusal) as err:
            await ws.send_text(ErrorOut(reason=err.reason).model_dump_json())
            await ws.close(code=4403 if err.reason == "bad_token" else 4400)
            return
        conn = SheetSocket(ws, service, sheet_id, role)
        async with ws.app.state.bus.subscribe(channel(sheet_id)) as queue:
            await conn.send_sheet(force=True)
            follower = asyncio.create_task(conn.follow(queue))
            try:
                while True:
                    text = await _receive_text(ws)
                    if text is None:
                        break
                    allowed = limiter.allow()  # refused messages count too
                    try:
                        message = _parse(_socket_in, text, limit)
                    except BadMessage as err:
                        await conn.send(ErrorOut(reason=err.reason))
                        continue
                    if not allowed:
                        # the client id lets the page send that entry again later
                        client_id = getattr(message, "client_id", None)
                        await conn.send(ErrorOut(reason="too_many_messages", client_id=client_id))
                        continue
                    await conn.handle(message)
            finally:
                follower.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await follower
    except WebSocketDisconnect:
        return


__all__ = ["SCORER", "VIEWER", "router", "start"]
