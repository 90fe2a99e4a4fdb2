"""The table websocket's messages, in and out (documented in ``docs/protocol.md``).

Every message is one JSON object with a ``type``. Anything that does not validate is answered
with an :class:`ErrorOut` and changes nothing.

>>> parse_client_message('{"type": "act", "client_id": "c1", "action": "JH tierce", "version": 3}')
Act(type='act', client_id='c1', action='JH tierce', version=3)
>>> parse_client_message('{"type": "dance"}')
Traceback (most recent call last):
...
veillee.web.table_protocol.BadMessage: unknown_type
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

ClientId = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Version = Annotated[StrictInt, Field(ge=0)]
# Option values are plain JSON integers: "5", 5.0 and true are refused, not coerced.
Options = Annotated[
    dict[Annotated[str, Field(max_length=20)], StrictInt], Field(max_length=4, strict=True)
]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_In):
    """First message on a socket, and again after a reconnect: the seat token and the version
    the client already has (None at first). Answered with a :class:`StateOut`."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=16, max_length=128)]
    version: Version | None = None
    lang: Literal["fr", "en"] | None = None


class Act(_In):
    """Play ``action`` in the game's notation (``"JH"``, ``"JH tierce"``, ``"swap"``,
    ``"continue"``). ``version``: the version the client acted on (refused if stale)."""

    type: Literal["act"]
    client_id: ClientId
    action: Annotated[str, Field(min_length=1, max_length=40)]
    version: Version | None = None


class NextDeal(_In):
    """Deal the next partie once the count has been shown."""

    type: Literal["next"]
    client_id: ClientId
    version: Version | None = None


class NewMatch(_In):
    """Abandon the match and start another (0–0, new random first dealer); ``options`` such as
    ``{"best_of": 3}`` replace the table's."""

    type: Literal["new_match"]
    client_id: ClientId
    options: Options = {}


class Ping(_In):
    """Keep-alive; answered with :class:`PongOut`."""

    type: Literal["ping"]


ClientMessage = Annotated[Hello | Act | NextDeal | NewMatch | Ping, Field(discriminator="type")]
_CLIENT = TypeAdapter[Hello | Act | NextDeal | NewMatch | Ping](ClientMessage)
_CLIENT_ID = TypeAdapter[str](ClientId)
CLIENT_TYPES = ("hello", "act", "next", "new_match", "ping")


class BadMessage(Exception):
    """A message that is not one of ours; ``reason`` is ``"bad_json"``, ``"unknown_type"`` or
    ``"bad_message"``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_client_message(text: str) -> Hello | Act | NextDeal | NewMatch | Ping:
    """Validate one incoming text frame. Raises BadMessage."""
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError) as exc:
        # A short frame of deeply nested brackets exhausts the parser's recursion: that is
        # bad JSON for us, not a reason to drop the socket.
        raise BadMessage("bad_json") from exc
    if not isinstance(raw, dict):
        raise BadMessage("bad_message")
    if raw.get("type") not in CLIENT_TYPES:
        raise BadMessage("unknown_type")
    try:
        return _CLIENT.validate_python(raw)
    except ValidationError as exc:
        raise BadMessage("bad_message") from exc


def peek_client_id(text: str) -> str | None:
    """The ``client_id`` of a frame, if it can be read at all (for errors about a message that
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


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StateOut(_Out):
    """The table as this seat may see it: ``view`` is ``match.view(m, seat)``, nothing more."""

    type: Literal["state"] = "state"
    version: int
    seat: int
    game: str
    seats: list[str]
    options: dict[str, Any]
    view: dict[str, Any]


class AckOut(_Out):
    """A change was accepted (or, with ``duplicate``, had been accepted before)."""

    type: Literal["ack"] = "ack"
    client_id: str
    version: int
    duplicate: bool


class ErrorOut(_Out):
    """A refused or invalid message: ``code`` is a stable reason code, ``message`` the reason
    in the player's language. Nothing changed."""

    type: Literal["error"] = "error"
    code: str
    message: str
    client_id: str | None = None


class PongOut(_Out):
    """Answer to :class:`Ping`."""

    type: Literal["pong"] = "pong"
