"""The game pages, the table API and the table websocket, for every game of the registry.

``GET /{game}`` is the game's page (``<game>.html``; "coming soon" until the game has a table
page, ``<game>_table.html``); ``GET /{game}/table/{id}`` is a table. ``POST /api/tables`` makes a
computer table and returns the seat token once; the page keeps it in sessionStorage.
``/ws/tables/{id}`` is a live socket (:mod:`veillee.web.live_socket`) carrying the messages of
:mod:`veillee.web.table_protocol`; the table service decides.

This router goes last in the app: ``/{game}`` would otherwise shadow every one-segment page.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse
from prometheus_client import Counter
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from veillee.games import names
from veillee.store import Commit, Record
from veillee.tables import Refusal, TableDoc, TableService, seat_view
from veillee.web.live_protocol import BadMessage, error_response, json_object
from veillee.web.live_socket import REFUSED, Session, serve
from veillee.web.pages import playable, render, templates
from veillee.web.table_chat import ChatSide
from veillee.web.table_protocol import TABLE_MESSAGES, Act, NextDeal, Options, StateOut

router = APIRouter()

TABLES_MADE = Counter("veillee_tables_made_total", "Computer tables made", ["game"])


def _service(app: Any) -> TableService:
    service: TableService = app.state.tables
    return service


# ---- pages ----------------------------------------------------------------------------------


@router.get("/{game}", response_class=HTMLResponse)
async def game_page(request: Request, game: str) -> HTMLResponse:
    """The page of a registered game (``<game>.html``), or "coming soon" while it has no table
    page."""
    if game not in names():
        raise HTTPException(404)
    page = f"{game}.html"
    if playable(game) and page in templates.env.list_templates():
        return render(request, page, game=game)
    return render(request, "soon.html", game=game)


@router.get("/{game}/table/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, game: str, table_id: str) -> HTMLResponse:
    """The table page of ``game``; the script finds its seat token in sessionStorage."""
    if not playable(game):
        raise HTTPException(404)
    settings = request.app.state.settings
    return render(
        request,
        f"{game}_table.html",
        game=game,
        table_id=table_id,
        bot_delay_ms=settings.bot_delay_ms,
        trick_pause_ms=settings.trick_pause_ms,
    )


# ---- the API --------------------------------------------------------------------------------


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``: the game, and table options such as ``{"best_of": 3}``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: Annotated[str, Field(max_length=32)]
    options: Options = Field(default_factory=dict)


class CreatedTable(BaseModel):
    """Answer of ``POST /api/tables``: the token is sent this once and never stored in clear."""

    table_id: str
    seat: int
    token: str
    url: str


def parse_create_table(raw: bytes) -> CreateTable:
    """The body of ``POST /api/tables``, checked for shape (BadMessage ``bad_json``,
    ``bad_message``) and a game with a table page (Refusal ``unknown_game``,
    ``game_not_available``); an options value of the wrong shape is Refusal ``bad_options``.
    The options themselves are the table service's to judge."""
    data = json_object(raw)
    game = data.get("game")
    if not isinstance(game, str) or len(game) > 32:
        raise BadMessage("bad_message")
    if game not in names():
        raise Refusal("unknown_game")
    if not playable(game):
        raise Refusal("game_not_available")
    try:
        return CreateTable.model_validate(data)
    except ValidationError as exc:
        if all(err["loc"][:1] == ("options",) for err in exc.errors()):
            raise Refusal("bad_options") from None
        raise BadMessage("bad_message") from None


@router.post("/api/tables", status_code=201, response_model=CreatedTable)
async def create_table(request: Request) -> CreatedTable | JSONResponse:
    """Make a computer table (a person at seat 0, the computer elsewhere). A refusal is the one
    error shape (``live_protocol.ErrorOut``): 400 ``bad_message``, 404 ``unknown_game`` or
    ``game_not_available``, 413 ``message_too_large``, 422 ``bad_options``."""
    try:
        body = parse_create_table(await request.body())  # never past guards.BodyLimit
        grant = await _service(request.app).create_computer_table(body.game, body.options)
    except (BadMessage, Refusal) as refused:
        REFUSED.labels(TableSocket.name, refused.reason).inc()
        return error_response(request, refused.reason)
    TABLES_MADE.labels(body.game).inc()
    return CreatedTable(
        table_id=grant.table_id,
        seat=grant.seat,
        token=grant.token,
        url=f"/{body.game}/table/{grant.table_id}",
    )


# ---- the websocket --------------------------------------------------------------------------


class TableSocket:
    """The table socket's :class:`~veillee.web.live_socket.Behaviour`: a seat token opens its
    seat, each seat is sent ``seat_view`` only, and changes go to the table service."""

    name = "tables"
    messages = TABLE_MESSAGES

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.records = service.live

    def area(self, record: Record | None) -> str:
        # A game's own reasons ("charlemagne.reason.…") before the site's ("reason.…").
        return "" if record is None else f"{TableDoc.from_data(record.data).game}."

    async def authenticate(self, table_id: str, token: str) -> int | None:
        return await self.service.seat_of(table_id, token)

    def render(self, record: Record, seat: int) -> str:
        return StateOut(**seat_view(record, seat)).model_dump_json()

    async def apply(self, table_id: str, seat: int, message: Any) -> Commit:
        if isinstance(message, Act):
            return await self.service.act(
                table_id, seat, message.client_id, message.action, message.version
            )
        if isinstance(message, NextDeal):
            return await self.service.next_deal(table_id, seat, message.client_id, message.version)
        return await self.service.new_match(table_id, seat, message.client_id, message.options)

    def greeted(self, record: Record) -> None:
        # After a server restart the computer seats wait for someone to come back.
        if TableDoc.from_data(record.data).computers:
            self.service.kick(record.id)

    async def side(self, session: Session) -> ChatSide:
        # Beside the table, its chat (veillee.web.table_chat): open to its people only.
        chat = ChatSide(session.ws.app.state.chat, session)
        await chat.start()
        return chat


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """One seat's connection to a table (see docs/protocol.md)."""
    await serve(ws, TableSocket(_service(ws.app)), table_id)
