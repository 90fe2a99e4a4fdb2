"""The game pages, the table API and the table websocket, for every game of the registry.

``GET /{game}`` is the game's page (``<game>.html``; "coming soon" until the game has a table
page, ``<game>_table.html``); ``GET /{game}/table/{id}`` is a table (and, for a shared table, the
link that is sent to friends). ``POST /api/tables`` makes a computer table, or a shared one, and
returns the seat token once; the page keeps it in sessionStorage (computer) or localStorage
(shared). ``POST /api/tables/{id}/seats`` takes a shared table's seat (the one a seat link
names, or the lowest open one);
``POST /api/tables/resume`` answers the resume list for the seat tokens it is shown.
``POST /api/tables/{id}/push`` keeps a seat's Web Push subscription ("tell me when it's my
turn", issue 26), ``POST /api/tables/{id}/push/off`` forgets it; ``GET /table-sw.js`` is the
service worker that shows those notifications (registered for ``/<game>/table/``, apart from
the sheet's own under ``/scores``).
``/ws/tables/{id}`` is a live socket (:mod:`veillee.web.live_socket`) carrying the messages of
:mod:`veillee.web.table_protocol`; the table service decides.

This router goes last in the app: ``/{game}`` would otherwise shadow every one-segment page.

Why one module of this length: it is every HTTP and socket route of the tables (the pages,
the API and the socket's behaviour), each a few lines handing a checked request to the table
service; what they share (the error shape, the seat's page) is here once.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, TypeVar
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from prometheus_client import Counter
from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError

import veillee.live.chat as chat_limits
from veillee.config import parse_origin
from veillee.games import names
from veillee.store import Commit, PushSubscription, Record
from veillee.tables import (
    SPECTATOR,
    Refusal,
    SeatGrant,
    TableDoc,
    TableService,
    seat_view,
    spectator_view,
)
from veillee.tables.notices import PUSH_ENDPOINT
from veillee.tables.table import TableRefusal
from veillee.web.i18n import LANGS
from veillee.web.live_protocol import (
    BadMessage,
    Token,
    TransportCode,
    error_response,
    json_object,
)
from veillee.web.live_socket import REFUSED, Session, Sides, serve
from veillee.web.pages import has_guide, page_lang, playable, render, templates
from veillee.web.table_chat import ChatSide
from veillee.web.table_protocol import (
    TABLE_MESSAGES,
    Act,
    ChatSay,
    ChatSync,
    Fill,
    GiveSeat,
    Leave,
    NextDeal,
    Options,
    SeatNumber,
    StandIn,
    Step,
    state_frame,
)
from veillee.web.voice import voice_side
from veillee.web.voice_protocol import VOICE_MESSAGES

router = APIRouter()

TABLES_MADE = Counter("veillee_tables_made_total", "Computer tables made", ["game"])
SHARED_TABLES_MADE = Counter(
    "veillee_shared_tables_made_total", "Shared tables made (people only)", ["game"]
)
SEATS_TAKEN = Counter("veillee_seats_taken_total", "Seats taken at shared tables", ["game"])
RESUME_MAX = 40
"""Most seats one resume request may ask about."""
DEMOS_MADE = Counter("veillee_demos_made_total", "Demonstration tables made", ["game"])


class TableRequestRefusal(StrEnum):
    """The table API's and socket's own refusals, beside the table service's
    (``TableRefusal``) and the transport's (``TransportCode``)."""

    UNKNOWN_GAME = "unknown_game"
    GAME_NOT_AVAILABLE = "game_not_available"
    """A registered game without a table page yet."""
    WATCH_ONLY = "watch_only"
    """The spectator of a demonstration only asks for its next step."""
    BAD_SCRIPT = "bad_script"
    """The test hook's scripted table cannot be made (``veillee.web.scripted_tables``)."""
    BAD_PUSH_ENDPOINT = PUSH_ENDPOINT
    """A push subscription whose endpoint is no ``https:`` URL (the table service's)."""


def _service(app: Any) -> TableService:
    service: TableService = app.state.tables
    return service


# ---- pages ----------------------------------------------------------------------------------


@router.get("/table-sw.js", include_in_schema=False)
async def table_service_worker(request: Request) -> FileResponse:
    """The table pages' service worker (``static/table/sw.js``): it shows a "your turn"
    notification and opens its table on a click. Served from the root (``Service-Worker-Allowed:
    /``) so that a page registers it for its game's table pages (scope ``/<game>/table/``); it
    serves no page (no ``fetch`` handler) and never overlaps the sheet's own worker
    (``/scores``)."""
    return FileResponse(
        request.app.state.assets.root / "table" / "sw.js",
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
    )


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


@router.get("/{game}/how-to-play", response_class=HTMLResponse)
async def how_to_page(request: Request, game: str) -> HTMLResponse:
    """The game's how-to-play page, with "watch a partie go by" (a demo table the computer
    plays on every seat, see :func:`create_demo`)."""
    if not playable(game) or not has_guide(game):
        raise HTTPException(404)
    settings = request.app.state.settings
    return render(
        request,
        "how_to.html",
        game=game,
        home=f"/{game}",
        demo=True,
        bot_delay_ms=settings.bot_delay_ms,
        trick_pause_ms=settings.trick_pause_ms,
    )


def _small_number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 2 else None


def link_seat(request: Request) -> int | None:
    """The seat a seat link names (``?seat=<n>``, one or two digits, as the page reads it in
    ``static/table/seats.js``), or None."""
    return _small_number(request.query_params.get("seat", ""))


def link_generation(request: Request) -> int:
    """How often the seat a seat link names had been given to someone new when the link was
    made (``&g=<n>``; 0 without it, as the page reads it in ``static/table/seats.js``)."""
    return _small_number(request.query_params.get("g", "")) or 0


def table_link(request: Request, game: str, table_id: str) -> str:
    """The link a shared table's friends are sent (its page, no query): on the site's public
    origin that this request reached (``Settings.public_origins``, matched by the ``Host`` it
    names, whose scheme holds behind a TLS proxy), else on the request's own origin. Rendered
    into the page, so the waiting screen's link box is never empty."""
    url = request.url
    for text in request.app.state.settings.public_origins:
        origin = parse_origin(text)
        if origin is not None and origin[1] == url.hostname and url.port in (None, origin[2]):
            return f"{text.rstrip('/')}/{game}/table/{quote(table_id, safe='')}"
    return str(url.replace(query="", fragment=""))


@router.get("/{game}/table/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, game: str, table_id: str) -> HTMLResponse:
    """The table page of ``game``; the script finds its seat token in this browser's storage.
    For a browser holding none, the page carries what a seat request would be refused with now
    (``data-seat-refusal``: ``table_gone``, ``not_shared``, ``table_full``, ``seat_taken``,
    ``seat_computer``, ``bad_seat``, ``seat_given``, ``table_left``; empty while the seat is
    open), so that it says so without
    asking: a refusal it could foresee would show in the browser's console as a failed request.
    It also carries the chat's numbers (``data-chat-max-chars``, ``data-chat-kept``:
    :mod:`veillee.live.chat`, ``Settings.chat_kept``), which the page's chat uses and never
    copies, and the table's link (:func:`table_link`: ``data-link``, and the value of the
    waiting screen's link box), and how long a person must be away before the computer may
    stand in for them (``data-stand-in-after-s``, ``Settings.stand_in_after_s``)."""
    if not playable(game):
        raise HTTPException(404)
    settings = request.app.state.settings
    refusal = await _service(request.app).seat_refusal(
        table_id, link_seat(request), link_generation(request)
    )
    return render(
        request,
        f"{game}_table.html",
        game=game,
        table_id=table_id,
        table_link=table_link(request, game, table_id),
        seat_refusal=refusal or "",
        chat_max_chars=chat_limits.MAX_CHARS,
        chat_kept=settings.chat_kept,
        bot_delay_ms=settings.bot_delay_ms,
        trick_pause_ms=settings.trick_pause_ms,
        stand_in_after_s=settings.stand_in_after_s,
        push_key=getattr(request.app.state, "push_key", ""),
    )


# ---- the API --------------------------------------------------------------------------------


class CreateTable(BaseModel):
    """Body of ``POST /api/tables``: the game, table options such as ``{"best_of": 3}``, and
    ``shared`` (a table for people only, sat at through its link; default: against the
    computer) and the computer's ``level`` (one of the game's ``GameInfo.levels``; default:
    the usual one)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: Annotated[str, Field(max_length=32)]
    options: Options = Field(default_factory=dict)
    shared: StrictBool = False
    level: Annotated[str, Field(max_length=16)] | None = None


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
        raise BadMessage(TransportCode.BAD_MESSAGE)
    if game not in names():
        raise Refusal(TableRequestRefusal.UNKNOWN_GAME)
    if not playable(game):
        raise Refusal(TableRequestRefusal.GAME_NOT_AVAILABLE)
    try:
        return CreateTable.model_validate(data)
    except ValidationError as exc:
        if all(err["loc"][:1] == ("options",) for err in exc.errors()):
            raise Refusal(TableRefusal.BAD_OPTIONS) from None
        raise BadMessage(TransportCode.BAD_MESSAGE) from None


@router.post("/api/tables", status_code=201, response_model=CreatedTable)
async def create_table(request: Request) -> CreatedTable | JSONResponse:
    """Make a computer table (a person at seat 0, the computer elsewhere) or, with ``shared``,
    a table of people (its maker at seat 0, the other seats for whoever opens its link first).
    A refusal is the one error shape (``live_protocol.ErrorOut``): 400 ``bad_message``, 404
    ``unknown_game`` or ``game_not_available``, 413 ``message_too_large``, 422
    ``bad_options`` or ``bad_level``."""
    service = _service(request.app)
    try:
        body = parse_create_table(await request.body())  # never past guards.BodyLimit
        if body.shared:
            grant = await service.create_shared_table(body.game, body.options, level=body.level)
        else:
            grant = await service.create_computer_table(body.game, body.options, level=body.level)
    except (BadMessage, Refusal) as refused:
        REFUSED.labels(TableSocket.name, refused.reason).inc()
        return error_response(request, refused.reason)
    (SHARED_TABLES_MADE if body.shared else TABLES_MADE).labels(body.game).inc()
    return _created(body.game, grant)


def _created(game: str, grant: SeatGrant) -> CreatedTable:
    return CreatedTable(
        table_id=grant.table_id,
        seat=grant.seat,
        token=grant.token,
        url=f"/{game}/table/{grant.table_id}",
    )


SeatKey = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{32,128}$")]
"""The key a page makes for its seat request: at least 32 URL-safe characters (the page's are
43, 256 random bits), which become the seat's token (:meth:`TableService.join
<veillee.tables.seating.Seating.join>`)."""


class TakeSeat(BaseModel):
    """Body of ``POST /api/tables/{id}/seats``: the seat a seat link names, or none (the table's
    plain link: the lowest open seat), how often that seat had been given to someone new
    when the link was made (``given``, the link's ``&g=<n>``), and the request's ``key``
    (:data:`SeatKey`), which makes it safe to send again when its answer was lost."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seat: SeatNumber | None = None
    given: Annotated[int, Field(ge=0, le=99)] = 0
    key: SeatKey | None = None


def parse_take_seat(raw: bytes) -> TakeSeat:
    """An empty body or ``{"seat": n, "key": "…"}`` (either optional). Raises BadMessage
    (``bad_json``, ``bad_message``)."""
    if not raw.strip():
        return TakeSeat()
    try:
        return TakeSeat.model_validate(json_object(raw))
    except ValidationError:
        raise BadMessage(TransportCode.BAD_MESSAGE) from None


NO_SEAT = frozenset({TableRefusal.SEAT_TAKEN, TableRefusal.SEAT_COMPUTER, TableRefusal.TABLE_FULL})
"""The seats request's answers that leave this browser without a seat because someone else (or
the computer) sat first: expected answers, sent with status 200 (a 4xx answer to a page's
request shows in the browser's console as a failed request)."""


@router.post("/api/tables/{table_id}/seats", status_code=201, response_model=CreatedTable)
async def take_seat(request: Request, table_id: str) -> CreatedTable | JSONResponse:
    """Sit at a shared table: at the seat the body names (a seat link), or at the lowest open
    seat (no body: the table's plain link); its token, sent this once (with a ``key``: the key,
    sent again to a request of the same key, for the same seat). No seat for this browser
    (:data:`NO_SEAT`), in the one error shape with status 200: ``seat_taken`` (that seat is
    someone's), ``seat_computer`` (the computer plays it), ``table_full`` (every seat is
    taken). Refusals: 400 ``bad_json`` / ``bad_message``, 404 ``table_gone``, 409
    ``bad_seat``, 409 ``not_shared`` (a table against the computer), 409 ``seat_given`` (the
    link is of a seat given to someone new since), 409 ``table_left``, 503 ``busy``."""
    service = _service(request.app)
    try:
        body = parse_take_seat(await request.body())  # never past guards.BodyLimit
        grant = await service.join(table_id, body.seat, body.given, body.key)
        game = TableDoc.from_data((await service.load(table_id)).data).game
    except (BadMessage, Refusal) as refused:
        REFUSED.labels(TableSocket.name, refused.reason).inc()
        return error_response(
            request, refused.reason, status=200 if refused.reason in NO_SEAT else None
        )
    SEATS_TAKEN.labels(game).inc()
    return _created(game, grant)


class HeldSeat(BaseModel):
    """One seat a browser holds: the table and the seat token it keeps for it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    table_id: Annotated[str, Field(max_length=64)]
    token: Token


class ResumeRequest(BaseModel):
    """Body of ``POST /api/tables/resume``: the seats this browser holds (at most
    :data:`RESUME_MAX`)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    seats: Annotated[list[HeldSeat], Field(max_length=RESUME_MAX)]


class ResumeList(BaseModel):
    """Answer of ``POST /api/tables/resume``: ``tables`` the summaries
    (:func:`veillee.tables.seat_summary`) of the seats whose token still opens them, in the
    order asked; ``gone`` the ids of the others (expired, swept, or not that token's)."""

    tables: list[dict[str, Any]]
    gone: list[str]


@router.post("/api/tables/resume", response_model=ResumeList)
async def resume(request: Request) -> ResumeList | JSONResponse:
    """The resume list: answers only for the tokens it is shown (never lists a table by any
    other means). Refusals: 400 ``bad_json`` / ``bad_message``, 413 ``message_too_large``."""
    try:
        body = ResumeRequest.model_validate(json_object(await request.body()))
    except BadMessage as refused:
        return error_response(request, refused.reason)
    except ValidationError:
        return error_response(request, TransportCode.BAD_MESSAGE)
    found, gone = await _service(request.app).summaries(
        [(held.table_id, held.token) for held in body.seats]
    )
    return ResumeList(tables=found, gone=gone)


class PushKeys(BaseModel):
    """The browser's keys of a push subscription (``PushSubscription.toJSON().keys``):
    base64url."""

    model_config = ConfigDict(extra="ignore", strict=True)
    p256dh: Annotated[str, Field(min_length=80, max_length=100, pattern=r"^[A-Za-z0-9_-]+=*$")]
    auth: Annotated[str, Field(min_length=16, max_length=32, pattern=r"^[A-Za-z0-9_-]+=*$")]


class PushEndpoint(BaseModel):
    """``PushSubscription.toJSON()``: the push service's endpoint and the keys (its
    ``expirationTime`` is not kept)."""

    model_config = ConfigDict(extra="ignore", strict=True)
    endpoint: Annotated[str, Field(min_length=8, max_length=1024)]
    keys: PushKeys


class PushRequest(BaseModel):
    """Body of ``POST /api/tables/{id}/push``: the seat's token, the subscription, and the
    page's language (``fr``, ``en``; the pushes are said in it)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token
    subscription: PushEndpoint
    lang: Annotated[str, Field(max_length=8)] = ""


class PushOff(BaseModel):
    """Body of ``POST /api/tables/{id}/push/off``: the seat's token."""

    model_config = ConfigDict(extra="forbid", strict=True)
    token: Token


Asked = TypeVar("Asked", PushRequest, PushOff)


async def _seat_asking(request: Request, table_id: str, model: type[Asked]) -> tuple[Asked, int]:
    """The request's body as ``model`` and the seat its token holds at ``table_id``. Raises
    BadMessage: ``bad_json``, ``bad_message``, ``bad_token``."""
    try:
        body = model.model_validate(json_object(await request.body()))
    except ValidationError:
        raise BadMessage(TransportCode.BAD_MESSAGE) from None
    seat = await _service(request.app).seat_of(table_id, body.token)
    if seat is None:
        raise BadMessage(TransportCode.BAD_TOKEN)
    return body, seat


@router.post("/api/tables/{table_id}/push", status_code=204)
async def push_on(request: Request, table_id: str) -> Response:
    """Keep this seat's push subscription: the seat is told when the table waits for it and
    none of its pages is open (:mod:`veillee.tables.notices`). Refusals: 400 ``bad_json`` /
    ``bad_message``, 403 ``bad_token`` (not a seat of this table), 404 ``table_gone``, 409
    ``not_shared`` (a table without another person), 409 ``bad_push_endpoint``, 413
    ``message_too_large``."""
    try:
        body, seat = await _seat_asking(request, table_id, PushRequest)
        lang = body.lang if body.lang in LANGS else page_lang(request)
        keys = body.subscription.keys
        await _service(request.app).subscribe(
            PushSubscription(
                table_id, seat, body.subscription.endpoint, keys.p256dh, keys.auth, lang
            )
        )
    except (BadMessage, Refusal) as refused:
        REFUSED.labels(TableSocket.name, refused.reason).inc()
        return error_response(request, refused.reason)
    return Response(status_code=204)


@router.post("/api/tables/{table_id}/push/off", status_code=204)
async def push_off(request: Request, table_id: str) -> Response:
    """Forget this seat's push subscription (the menu's "stop telling me"). Refusals: 400
    ``bad_json`` / ``bad_message``, 403 ``bad_token``."""
    try:
        _, seat = await _seat_asking(request, table_id, PushOff)
        await _service(request.app).unsubscribe(table_id, seat)
    except (BadMessage, Refusal) as refused:
        REFUSED.labels(TableSocket.name, refused.reason).inc()
        return error_response(request, refused.reason)
    return Response(status_code=204)


class CreatedDemo(BaseModel):
    """Answer of ``POST /api/demos``: the spectator's token, sent this once."""

    table_id: str
    token: str


@router.post("/api/demos", status_code=201, response_model=CreatedDemo)
async def create_demo(request: Request) -> CreatedDemo | JSONResponse:
    """Make a demonstration table of a game ("watch a partie go by" on its how-to page): the
    computer on every seat, one deal, moved a step at a time by its spectator over the table
    socket (``step``), every hand face up for that spectator only. Body and refusals as
    ``POST /api/tables``. The page keeps the token in memory only: closing it drops the table."""
    try:
        body = parse_create_table(await request.body())
        grant = await _service(request.app).create_demo_table(body.game, body.options)
    except (BadMessage, Refusal) as refused:
        REFUSED.labels(TableSocket.name, refused.reason).inc()
        return error_response(request, refused.reason)
    DEMOS_MADE.labels(body.game).inc()
    return CreatedDemo(table_id=grant.table_id, token=grant.token)


# ---- the websocket --------------------------------------------------------------------------


class TableSocket:
    """The table socket's :class:`~veillee.web.live_socket.Behaviour`: a seat token opens its
    seat, each seat is sent ``seat_view`` only, and changes go to the table service."""

    name = "tables"
    messages = TABLE_MESSAGES
    __slots__ = ("records", "service")

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.records = service.live

    def area(self, record: Record | None) -> str:
        # A game's own reasons ("<game>.reason.…") before the site's ("reason.…").
        return "" if record is None else f"{TableDoc.from_data(record.data).game}."

    async def authenticate(self, table_id: str, token: str) -> int | str | None:
        # A seat, or the spectator of a demonstration (never of a table where a person sits);
        # a seat's person opening it again takes it back from the computer standing in.
        viewer, record = await self.service.viewer_at(table_id, token)
        if isinstance(viewer, int):
            await self.service.come_back(table_id, viewer, record)
        return viewer

    def render(self, record: Record, seat: int | str) -> str:
        if seat == SPECTATOR:
            return state_frame(spectator_view(record))
        assert isinstance(seat, int)
        return state_frame(seat_view(record, seat, self.service.table(record)))

    async def apply(self, table_id: str, seat: int | str, message: Any) -> Commit:
        # A spectator only asks for the next step; a seat never does.
        if (seat == SPECTATOR) != isinstance(message, Step):
            raise Refusal(
                TableRequestRefusal.WATCH_ONLY if seat == SPECTATOR else TableRefusal.NOT_A_DEMO
            )
        if isinstance(message, Step):
            return await self.service.advance(table_id, message.client_id, message.version)
        assert isinstance(seat, int)
        if isinstance(message, Act):
            return await self.service.act(
                table_id, seat, message.client_id, message.action, message.version
            )
        if isinstance(message, NextDeal):
            return await self.service.next_deal(table_id, seat, message.client_id, message.version)
        if isinstance(message, Fill):
            return await self.service.fill(
                table_id, seat, message.client_id, message.seats, message.version
            )
        if isinstance(message, StandIn):
            return await self.service.stand_in(table_id, seat, message.client_id, message.seat)
        if isinstance(message, GiveSeat):
            return await self.service.give_seat(table_id, seat, message.client_id, message.seat)
        if isinstance(message, Leave):
            return await self.service.leave(table_id, seat, message.client_id)
        return await self.service.new_match(table_id, seat, message.client_id, message.options)

    def greeted(self, record: Record) -> None:
        # After a server restart the computer seats wait for someone to come back.
        if TableDoc.from_data(record.data).computers:
            self.service.kick(record.id)

    def shows_presence(self, record: Record) -> bool:
        # A person at a table with other people sees whether they are there.
        return len(TableDoc.from_data(record.data).humans) > 1

    async def closed(self, table_id: str, seat: int | str) -> None:
        # A demonstration is forgotten when its page closes.
        if seat == SPECTATOR:
            await self.service.end_demo(table_id)

    async def side(self, session: Session, record: Record) -> Sides:
        # Beside the table: its chat (veillee.web.table_chat), open to its people only, and its
        # voice (veillee.web.voice) for the seats of a table of people.
        if session.shows_presence and isinstance(session.key, int):
            # The seat looks at its table: it may be told again when the table waits for it.
            await self.service.looked(record.id, session.key)
        chat = ChatSide(session.ws.app.state.chat, session)
        await chat.start(record)
        voice = await voice_side(session.ws.app.state.voice, session, session.shows_presence)
        return Sides(session, (((ChatSay, ChatSync), chat), (VOICE_MESSAGES, voice)))


@router.websocket("/ws/tables/{table_id}")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """One seat's connection to a table (see docs/protocol.md)."""
    await serve(ws, TableSocket(_service(ws.app)), table_id)
