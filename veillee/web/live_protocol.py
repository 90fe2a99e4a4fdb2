"""What every live socket and JSON API says, whatever the record (docs/protocol.md §2).

- In: :class:`Hello` (the first frame, and again after a reconnect) and :class:`Ping`, the same on
  the table and the sheet sockets; each kind adds its changes (``table_protocol``,
  ``sheet_protocol``), every change with a ``client_id``.
- Out: :class:`AckOut`, :class:`PongOut` and the one error shape :class:`ErrorOut`
  (``{"type": "error", "code", "message", "client_id"}``, the message in the player's language),
  on both sockets and in the body of every refused HTTP request.
- :class:`Messages`: a typed parse of one frame against a union of pydantic models.

>>> demo = Messages(Hello, Ping)
>>> demo.parse('{"type": "ping"}')
Ping(type='ping', hidden=False)
>>> demo.parse('{"type": "dance"}')
Traceback (most recent call last):
...
veillee.web.live_protocol.BadMessage: unknown_type
>>> demo.peek_client_id('{"type": "act", "client_id": "c7"}')
'c7'
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any, Literal, Union, get_args

from fastapi import Request
from fastapi.responses import JSONResponse
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
)

from veillee.live.records import TOKEN
from veillee.web import i18n
from veillee.web.pages import page_lang

ClientId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
"""A change's id, made by the page (1–64 characters ``A-Za-z0-9_.:-``)."""
Version = Annotated[StrictInt, Field(ge=0)]
"""A record's version: a plain JSON integer (``true``, ``"3"`` and ``3.0`` are refused)."""
Token = Annotated[str, Field(pattern=f"^{TOKEN}$")]
"""A seat or sheet token as the page holds it: 16–128 characters ``A-Za-z0-9_-``
(:data:`veillee.live.records.TOKEN`)."""


class In(BaseModel):
    """A message from a page: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(In):
    """First message on a socket, and again after a reconnect: the token from the link, the
    version the page already has (None at first) and its language. Answered with the record's
    snapshot (a table's ``state``, a sheet's ``sheet``)."""

    type: Literal["hello"]
    token: Token
    version: Version | None = None
    lang: Literal["fr", "en"] | None = None


class SideMessage(In):
    """A message about something a socket serves beside its record (a table's chat): answered
    by the socket's side (:class:`veillee.web.live_socket.Side`), never a change of the record
    (no version moves)."""


class Ping(In):
    """Keep-alive; answered with :class:`PongOut`. ``hidden``: the page is hidden (the Page
    Visibility API's ``document.hidden``: a background tab, whose timers the browser
    throttles), so the socket is allowed ``hidden_silence_s`` of silence until the next ping
    rather than ``silence_timeout_s`` (docs/protocol.md §2)."""

    type: Literal["ping"]
    hidden: StrictBool = False


class Out(BaseModel):
    """A message to a page."""

    model_config = ConfigDict(extra="forbid")


class AckOut(Out):
    """A change was accepted (or, with ``duplicate``, had been accepted before); the record is
    now at ``version``."""

    type: Literal["ack"] = "ack"
    client_id: str
    version: int
    duplicate: bool


class ErrorOut(Out):
    """A refused or invalid message or request: ``code`` is a stable reason code, ``message`` the
    reason in the player's language, ``client_id`` the refused change's when it can be read.
    Nothing changed."""

    type: Literal["error"] = "error"
    code: str
    message: str
    client_id: str | None = None


class PongOut(Out):
    """Answer to :class:`Ping`."""

    type: Literal["pong"] = "pong"


class PresenceOut(Out):
    """Who is at the record now: the viewer keys (a table's seats) with a socket open that has
    been heard from within ``silence_timeout_s``. Sent after the first snapshot and whenever it
    changes, on records whose kind shows presence (tables of several people)."""

    type: Literal["presence"] = "presence"
    here: list[Any]


class TransportCode(StrEnum):
    """The refusals every live socket and JSON API shares, whatever the record
    (docs/protocol.md, *Reason codes of error*: Transport)."""

    BAD_JSON = "bad_json"
    UNKNOWN_TYPE = "unknown_type"
    BAD_MESSAGE = "bad_message"
    """JSON, but not one of the endpoint's messages (or a binary frame)."""
    MESSAGE_TOO_LARGE = "message_too_large"
    RATE_LIMITED = "rate_limited"
    HELLO_FIRST = "hello_first"
    HELLO_TIMEOUT = "hello_timeout"
    """No ``hello`` in time: the socket closes (4408)."""
    SILENT = "silent"
    """Nothing heard for ``silence_timeout_s``: the socket closes (4408)."""
    BAD_TOKEN = "bad_token"
    """The ``hello``'s token opens nothing on this record: the socket closes (4403)."""


class BadMessage(Exception):
    """A message that is not one of ours; ``reason`` is ``"bad_json"``, ``"unknown_type"``,
    ``"bad_message"`` or ``"message_too_large"``."""

    def __init__(self, reason: TransportCode) -> None:
        super().__init__(reason)
        self.reason = reason


_CLIENT_ID = TypeAdapter[str](ClientId)


def json_object(text: str | bytes) -> dict[str, Any]:
    """The JSON object in ``text``. Raises BadMessage: ``bad_json`` (not JSON), ``bad_message``
    (JSON, but not an object)."""
    try:
        # (the standard library's parser: a lone surrogate escaped in a chat line is read, and
        # its cleaning removes it; orjson refuses the frame)
        raw = json.loads(text)
    except (ValueError, RecursionError):
        # A short frame of deeply nested brackets exhausts the parser's recursion: that is
        # bad JSON for us, not a reason to drop the socket.
        raise BadMessage(TransportCode.BAD_JSON) from None
    if not isinstance(raw, dict):
        raise BadMessage(TransportCode.BAD_MESSAGE)
    return raw


class Messages:
    """The messages one endpoint takes: pydantic models told apart by their ``type`` literal."""

    def __init__(self, *models: type[BaseModel]) -> None:
        union: Any = Union[models]  # noqa: UP007 (a union built from a tuple of models)
        self._adapter: TypeAdapter[Any] = TypeAdapter(Annotated[union, Field(discriminator="type")])
        self.types = frozenset(get_args(m.model_fields["type"].annotation)[0] for m in models)

    def parse(self, text: str | bytes) -> Any:
        """The message in ``text`` (one JSON object), validated. Raises BadMessage."""
        raw = json_object(text)
        kind = raw.get("type")
        if not isinstance(kind, str) or kind not in self.types:
            raise BadMessage(TransportCode.UNKNOWN_TYPE)
        try:
            return self._adapter.validate_python(raw)
        except ValidationError:
            raise BadMessage(TransportCode.BAD_MESSAGE) from None

    @staticmethod
    def peek_client_id(text: str | bytes) -> str | None:
        """The ``client_id`` of a frame, if it can be read at all (for errors about a frame that
        was not otherwise looked at, such as ``rate_limited``); None otherwise, never raises."""
        try:
            raw = json.loads(text)
        except (ValueError, RecursionError):
            return None
        client_id = raw.get("client_id") if isinstance(raw, dict) else None
        try:
            return _CLIENT_ID.validate_python(client_id)
        except ValidationError:
            return None


def error_out(lang: str, code: str, area: str = "", client_id: str | None = None) -> ErrorOut:
    """The error for ``code`` in ``lang``; ``area`` is the catalog prefix of the record kind's
    own reason strings (``""`` for tables, ``"scores."`` for sheets; :func:`i18n.reason`)."""
    return ErrorOut(code=code, message=i18n.reason(lang, code, area), client_id=client_id)


HTTP_STATUS = {
    "bad_json": 400,
    "unknown_type": 400,
    "bad_message": 400,
    "bad_token": 403,
    "read_only": 403,
    "unknown_game": 404,
    "game_not_available": 404,
    "table_gone": 404,
    "sheet_gone": 404,
    "message_too_large": 413,
    "bad_options": 422,
    "bad_level": 422,
    "bad_script": 422,
    "busy": 503,
}
"""The status of a refused HTTP request, by reason code; any other code (a rules or sheet
reason: the request was understood but the record refuses it) is 409."""


def error_response(
    request: Request, code: str, area: str = "", status: int | None = None
) -> JSONResponse:
    """A refused HTTP request: the status of :data:`HTTP_STATUS` (or ``status``, for a refusal
    that is an expected answer) and the :class:`ErrorOut` body, its message in the page's
    language."""
    body = error_out(page_lang(request), code, area)
    return JSONResponse(body.model_dump(), status_code=status or HTTP_STATUS.get(code, 409))
