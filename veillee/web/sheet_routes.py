"""SquareScores on the web: the pages, the JSON API and the sheet websocket (DESIGN.md §5–6).

Messages in and out are pydantic models (:mod:`veillee.web.sheet_protocol`, documented in
``docs/sheets-protocol.md``); the socket is a live socket (:mod:`veillee.web.live_socket`).
Anything that does not validate is answered with the one error shape and changes nothing.
Tokens travel only in the creator's response and in the links the players share; a page is sent
:func:`veillee.scores.sheet_view`, which holds none.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from pydantic import TypeAdapter, ValidationError

from veillee import sheets
from veillee.live import Refusal
from veillee.scores import SCORER, Role, SheetRefusal, SheetService, sheet_view
from veillee.store import Commit, Record
from veillee.web import i18n
from veillee.web.live_protocol import AckOut, BadMessage, TransportCode, error_response
from veillee.web.live_socket import REFUSED, Session, serve
from veillee.web.pages import has_guide, page_lang, render
from veillee.web.sheet_protocol import (
    SHEET_CHANGES,
    SHEET_MESSAGES,
    CreateIn,
    SheetOut,
    to_change,
)

router = APIRouter()
AREA = "scores."
"""The catalog prefix of the sheets' own strings (``scores.reason.<code>`` …)."""
_CREATE = TypeAdapter(CreateIn)


def _service(app: Any) -> SheetService:
    service: SheetService = app.state.sheets
    return service


def _refused(request: Request, reason: str) -> JSONResponse:
    REFUSED.labels(SheetSocket.name, reason).inc()
    return error_response(request, reason, AREA)


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else ""


def sheet_out(record: Record, role: Role) -> SheetOut:
    """The ``sheet`` message of ``record`` for a holder of ``role``."""
    return SheetOut(version=record.version, sheet=sheet_view(record, role))


# Pages


def page_strings(lang: str) -> dict[str, str]:
    """The strings the sheet pages' scripts use, in ``lang``, embedded in the page so that it
    works offline: the sheets' own (``scores.``) and the site's reasons (``reason.``)."""
    english = i18n.catalog(i18n.DEFAULT_LANG)
    keys = [k for k in english if k.startswith((AREA, "reason."))]
    return {k: i18n.t(lang, k) for k in keys}


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
    strings = page_strings(page_lang(request))
    return render(request, "scores.html", presets=_presets(), strings=strings)


@router.get("/scores/sheet/{sheet_id}", response_class=HTMLResponse)
async def sheet_page(request: Request, sheet_id: str) -> HTMLResponse:
    """The sheet page shell; the script reads the token from the link's fragment (never sent
    to the server in the URL) or from this browser's list."""
    return render(request, "scores_sheet.html", strings=page_strings(page_lang(request)))


@router.get("/scores/sw.js")
async def service_worker(request: Request) -> FileResponse:
    """The service worker, served under /scores so that it may control the SquareScores pages
    (from the served build's files: ``app.state.assets``)."""
    return FileResponse(
        request.app.state.assets.root / "scores" / "sw.js",
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/scores", "Cache-Control": "no-cache"},
    )


def preset_guide(preset: str) -> str:
    """The preset's page name (its guide exists in ``templates/guide/``), or HTTPException 404.
    Only the presets of :data:`veillee.sheets.PRESETS` that have a guide have a page."""
    if preset not in sheets.PRESETS or not has_guide(preset):
        raise HTTPException(404)
    return preset


@router.get("/scores/{preset}", response_class=HTMLResponse)
async def preset_page(request: Request, preset: str) -> HTMLResponse:
    """The page of a game played with real cards whose score SquareScores keeps: how
    to start a sheet, then the game's story and rules (``guide/<preset>.<lang>.html``)."""
    return render(request, "preset.html", game=preset_guide(preset))


@router.get("/scores/{preset}/how-to-play", response_class=HTMLResponse)
async def preset_how_to(request: Request, preset: str) -> HTMLResponse:
    """The preset game's how-to-play page (no computer plays it: no watch-a-partie)."""
    game = preset_guide(preset)
    return render(request, "how_to.html", game=game, home=f"/scores/{game}", demo=False)


# JSON API


@router.post("/api/sheets")
async def create_sheet(request: Request) -> Response:
    """Start a sheet. Body: :class:`CreateIn`. Answer (201): ``{"id", "scorer_token",
    "viewer_token", "sheet"}``; a refusal is the one error shape (400, 413, 409)."""
    try:
        raw = await request.body()  # never past the size limit (guards.BodyLimit)
        try:
            body = _CREATE.validate_json(raw)
        except ValidationError:
            raise BadMessage(TransportCode.BAD_MESSAGE) from None
        created = await _service(request.app).create(
            body.preset, body.sides, dict(body.settings), body.first_dealer
        )
    except (BadMessage, Refusal) as refused:
        return _refused(request, refused.reason)
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
    except Refusal as refused:
        return _refused(request, refused.reason)
    return JSONResponse(sheet_out(record, role).model_dump())


@router.post("/api/sheets/{sheet_id}/changes")
async def change_sheet(request: Request, sheet_id: str) -> Response:
    """Apply one change (a scorer's bearer token). Body: one change message of the websocket.
    Answer: ``{"type": "ack", …}`` plus ``"sheet"``, or the error shape."""
    service = _service(request.app)
    try:
        role = await service.access(sheet_id, _bearer(request))
        message = SHEET_CHANGES.parse(await request.body())
        applied = await service.apply(sheet_id, role, to_change(message), message.client_id)
    except (BadMessage, Refusal) as refused:
        return _refused(request, refused.reason)
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
            raise Refusal(SheetRefusal.READ_ONLY)
        token = await service.add_viewer(sheet_id)
    except Refusal as refused:
        return _refused(request, refused.reason)
    return JSONResponse({"viewer_token": token}, status_code=201)


# The websocket


class SheetSocket:
    """The sheet socket's :class:`~veillee.web.live_socket.Behaviour`: a token opens the sheet
    as scorer or viewer, each is sent ``sheet_view`` for its role, and a scorer's changes go to
    the sheet service."""

    name = "sheets"
    messages = SHEET_MESSAGES

    def __init__(self, service: SheetService) -> None:
        self.service = service
        self.records = service.live

    def area(self, record: Record | None) -> str:
        return AREA

    async def authenticate(self, sheet_id: str, token: str) -> Role | None:
        return await self.service.role_of(sheet_id, token)

    def render(self, record: Record, role: Role) -> str:
        return sheet_out(record, role).model_dump_json()

    async def apply(self, sheet_id: str, role: Role, message: Any) -> Commit:
        return await self.service.apply(sheet_id, role, to_change(message), message.client_id)

    def greeted(self, record: Record) -> None:
        return None

    def shows_presence(self, record: Record) -> bool:
        return False

    async def closed(self, sheet_id: str, role: Role) -> None:
        return None

    async def side(self, session: Session, record: Record) -> None:
        return None  # a sheet has nothing beside it


@router.websocket("/ws/sheets/{sheet_id}")
async def sheet_socket(ws: WebSocket, sheet_id: str) -> None:
    """The live sheet (see docs/sheets-protocol.md)."""
    await serve(ws, SheetSocket(_service(ws.app)), sheet_id)
