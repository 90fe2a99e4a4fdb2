"""The table websocket's own messages (documented in ``docs/protocol.md``); the ones every live
socket shares (``hello``, ``ping``, ``ack``, ``error``, ``pong``) are in ``live_protocol``.

>>> parse_client_message('{"type": "act", "client_id": "c1", "action": "JH tierce", "version": 3}')
Act(type='act', client_id='c1', action='JH tierce', version=3)
>>> parse_client_message('{"type": "dance"}')
Traceback (most recent call last):
...
veillee.web.live_protocol.BadMessage: unknown_type
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import orjson
from pydantic import Field, StrictBool, StrictFloat, StrictInt, StrictStr

from veillee.web.live_protocol import (
    ClientId,
    Hello,
    In,
    Messages,
    Out,
    Ping,
    SideMessage,
    Version,
)
from veillee.web.voice_protocol import VOICE_MESSAGES

OptionValue = StrictInt | StrictBool | StrictFloat | Annotated[StrictStr, Field(max_length=20)]
Options = Annotated[
    dict[Annotated[str, Field(max_length=20)], OptionValue], Field(max_length=4, strict=True)
]
"""Table options as sent (a few short names and plain JSON values): only their shape is checked
here; which options and values a game offers is the game's declaration
(:meth:`~veillee.games.contract.GameInfo.table_options`), checked by the table service."""


class Act(In):
    """Play ``action`` in the game's notation (``"JH"``, ``"JH tierce"``, ``"swap"``,
    ``"continue"``). ``version``: the version the client acted on (refused if stale)."""

    type: Literal["act"]
    client_id: ClientId
    action: Annotated[str, Field(min_length=1, max_length=40)]
    version: Version | None = None


class NextDeal(In):
    """Ready for the next partie once the count has been shown (or for a new match once the
    match is over): it is dealt once every seated person has said so."""

    type: Literal["next"]
    client_id: ClientId
    version: Version | None = None


class NewMatch(In):
    """Abandon the match and start another (0–0, new random first dealer); ``options`` such as
    ``{"best_of": 3}`` replace the table's."""

    type: Literal["new_match"]
    client_id: ClientId
    options: Options = Field(default_factory=dict)


SeatNumber = Annotated[StrictInt, Field(ge=0, le=15)]
"""A seat as the page names it (the table says whether it has that seat)."""


class Fill(In):
    """The maker of a shared table lets the computer play the open ``seats`` (before the
    start)."""

    type: Literal["fill"]
    client_id: ClientId
    seats: Annotated[list[SeatNumber], Field(min_length=1, max_length=8)]
    version: Version | None = None


class StandIn(In):
    """Let the computer play ``seat``, whose person has been away a while (a table of more than
    two); refused ``still_here`` before ``stand_in_after_s``."""

    type: Literal["stand_in"]
    client_id: ClientId
    seat: SeatNumber


class GiveSeat(In):
    """The table's maker gives ``seat``, which the computer stands in for, to someone new (a
    new seat link; the old one opens it no more)."""

    type: Literal["give_seat"]
    client_id: ClientId
    seat: SeatNumber


class Leave(In):
    """Leave the table for good: at a table of more than two the computer stands in for the
    seat; at a table of two the match ends for both."""

    type: Literal["leave"]
    client_id: ClientId


class Step(In):
    """The spectator of a demonstration asks for its next move (the computer seat to act plays
    it). ``version``: the version the spectator saw (refused if stale). Refused from a seat."""

    type: Literal["step"]
    client_id: ClientId
    version: Version | None = None


class ChatSay(SideMessage):
    """Say ``text`` in the table's chat (a table of two or more people; see
    :mod:`veillee.tables.chat`). Answered with ``ack`` (the table's version unmoved) or an
    ``error``; the line itself comes to every seated socket, this one too, in a :class:`ChatOut`.
    The text's length is judged once cleaned (``chat_too_long``), within the frame limit."""

    type: Literal["chat"]
    client_id: ClientId
    text: str


class ChatSync(SideMessage):
    """The page shows the chat up to line ``after`` (0: none yet): the server sends the lines
    after it, then every new line as it is said. Sent after every (re)connect."""

    type: Literal["chat_sync"]
    after: Version


TABLE_MESSAGES = Messages(
    Hello,
    Ping,
    Act,
    NextDeal,
    NewMatch,
    Fill,
    StandIn,
    GiveSeat,
    Leave,
    Step,
    ChatSay,
    ChatSync,
    *VOICE_MESSAGES,
)
"""Everything a table page may send."""


def parse_client_message(text: str) -> Any:
    """Validate one incoming text frame (a model of :data:`TABLE_MESSAGES`). Raises
    BadMessage."""
    return TABLE_MESSAGES.parse(text)


class StateOut(Out):
    """The table as this seat may see it: ``view`` is ``match.view(m, seat)``, nothing more;
    ``level``/``seated``/``ready``/``shared``/``expires_at``/``stand_in``/``vacant``/``given``/
    ``left`` as :func:`veillee.tables.seat_view` says.
    For the spectator of a demonstration (``seat`` null), ``match.spectator_view(m)``."""

    type: Literal["state"] = "state"
    version: int
    seat: int | None
    game: str
    seats: list[str]
    options: dict[str, Any]
    level: str
    seated: list[bool]
    ready: list[int]
    shared: bool
    expires_at: str | None
    stand_in: list[int]
    vacant: list[int]
    given: list[int]
    left: list[int]
    view: dict[str, Any]


def state_frame(view: dict[str, Any]) -> str:
    """The :class:`StateOut` frame of a seat's view (the keys of
    :func:`veillee.tables.seat_view`), as its JSON text: the same text as
    ``StateOut(**view).model_dump_json()`` (a test holds them together), without validating
    again what the server itself built, once per version and seat.

    >>> frame = state_frame({"version": 3, "seat": 0, "game": "g", "seats": ["human"],
    ...     "options": {}, "level": "usual", "seated": [True], "ready": [], "shared": False,
    ...     "expires_at": None, "stand_in": [], "vacant": [], "given": [0], "left": [],
    ...     "view": {"deal": {}}})
    >>> frame.startswith('{"type":"state","version":3,')
    True
    """
    return orjson.dumps({"type": "state", **view}, option=orjson.OPT_NON_STR_KEYS).decode()


class ChatLineOut(Out):
    """One chat line: its ``seq`` (1, 2, … in the order said), the ``seat`` that said it, the
    ``text`` (cleaned; markup in it is text) and ``at``, when, in ISO 8601 UTC."""

    seq: int
    seat: int
    text: str
    at: str


class ChatOut(Out):
    """Chat lines for a seated socket, oldest first: a catch-up after ``chat_sync``, or the lines
    just said."""

    type: Literal["chat"] = "chat"
    lines: list[ChatLineOut]
