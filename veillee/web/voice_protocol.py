"""The voice messages of the table socket (docs/protocol.md §2c; issue 13).

Side messages (:class:`~veillee.web.live_protocol.SideMessage`): none of them is a change of the
table, none moves its version. Each may name a ``client_id`` (the page's voice part sends
``"voice"``) so that a refusal goes back to the voice part of the page rather than to the game.

>>> from veillee.web.table_protocol import parse_client_message
>>> parse_client_message('{"type": "voice_join", "muted": false}')
VoiceJoin(type='voice_join', client_id=None, muted=False)
>>> parse_client_message('{"type": "voice_signal", "to": 1, "to_join": "0123456789abcdef",'
...                      ' "kind": "answer"}')
Traceback (most recent call last):
...
veillee.web.live_protocol.BadMessage: bad_message
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

from veillee.web.live_protocol import ClientId, Out, SideMessage

JoinId = Annotated[str, Field(pattern=r"^[0-9a-f]{16}$")]
"""The id of one seat's join of voice (16 lower-case hex digits, drawn by the server)."""
Seat = Annotated[StrictInt, Field(ge=0, le=7)]
Sdp = Annotated[str, Field(max_length=3800, pattern=r"^[\x20-\x7e\r\n]*$")]
"""A session description (RFC 8866 text: printable ASCII and line ends), at most 3800
characters: an audio-only offer of Chromium is about 2000."""
MAX_CANDIDATES = 8
"""Most ICE candidates in one ``voice_signal`` (the page gathers them for 50 ms and sends them
together)."""


class VoiceSwitch(SideMessage):
    """The table's maker switches voice ``on`` or off for everyone (off ends every seat's
    voice). Refused ``voice_not_maker`` from another seat."""

    type: Literal["voice_switch"]
    client_id: ClientId | None = None
    on: StrictBool


class VoiceJoin(SideMessage):
    """This seat joins voice (its page has the microphone), ``muted`` or not; answered with
    :class:`VoiceJoinedOut`. Sent again after a reconnect, it is a new join. Refused
    ``voice_off`` while voice is off."""

    type: Literal["voice_join"]
    client_id: ClientId | None = None
    muted: StrictBool = False


class VoiceMute(SideMessage):
    """This seat mutes (``muted``) or unmutes its microphone. Refused ``voice_not_joined``."""

    type: Literal["voice_mute"]
    client_id: ClientId | None = None
    muted: StrictBool


class VoiceLeave(SideMessage):
    """This seat leaves voice."""

    type: Literal["voice_leave"]
    client_id: ClientId | None = None


class Candidate(BaseModel):
    """One ICE candidate as WebRTC's ``RTCIceCandidateInit`` has it (``candidate`` empty: the
    end of the candidates; ``usernameFragment``: the ICE ufrag, 4–256 characters)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    candidate: Annotated[str, Field(max_length=300, pattern=r"^[\x20-\x7e]*$")]
    sdpMid: Annotated[str, Field(max_length=16, pattern=r"^[A-Za-z0-9_.-]*$")] | None = None
    sdpMLineIndex: Annotated[StrictInt, Field(ge=0, le=8)] | None = None
    usernameFragment: Annotated[str, Field(max_length=256, pattern=r"^[\x21-\x7e]*$")] | None = None


Candidates = Annotated[list[Candidate], Field(min_length=1, max_length=MAX_CANDIDATES)]


class VoiceSignal(SideMessage):
    """Connection set-up for the seat ``to``, to its join ``to_join`` only: an ``offer`` or an
    ``answer`` (``sdp``), or ``candidates``. Refused ``voice_not_joined`` (this seat is not in
    voice) or ``voice_peer_not_joined`` (``to`` is not, or has joined again since)."""

    type: Literal["voice_signal"]
    client_id: ClientId | None = None
    to: Seat
    to_join: JoinId
    kind: Literal["offer", "answer", "candidates"]
    sdp: Sdp | None = None
    candidates: Candidates | None = None

    @model_validator(mode="after")
    def _one_payload(self) -> VoiceSignal:
        if self.kind == "candidates":
            fits = self.candidates is not None and self.sdp is None
        else:
            fits = self.sdp is not None and self.candidates is None
        if not fits:
            raise ValueError("an offer or answer carries sdp, candidates carry candidates")
        return self

    def payload(self) -> dict[str, Any]:
        """What the seat ``to`` is sent of it (with the sender's seat and join added)."""
        if self.kind == "candidates":
            assert self.candidates is not None
            return {
                "kind": self.kind,
                "candidates": [c.model_dump(exclude_unset=True) for c in self.candidates],
            }
        return {"kind": self.kind, "sdp": self.sdp}


VOICE_MESSAGES = (VoiceSwitch, VoiceJoin, VoiceMute, VoiceLeave, VoiceSignal)
"""What a table page may send about voice."""


class VoiceMemberOut(Out):
    """A seat in voice."""

    seat: int
    muted: bool
    join: str


class VoiceOut(Out):
    """The table's voice, sent to every seat after its first state and whenever it changes:
    ``enabled`` (switched on by the seat ``maker``), the seats in voice (``members``)."""

    type: Literal["voice"] = "voice"
    enabled: bool
    maker: int
    members: list[VoiceMemberOut]


class VoiceJoinedOut(Out):
    """The answer to :class:`VoiceJoin`: this join's id, the ICE servers to use (TURN ones
    with credentials made for this seat, valid ``Settings.turn_ttl_s``) and how long a
    connection may take to connect before the page gives it up
    (``Settings.voice_connect_timeout_s``)."""

    type: Literal["voice_joined"] = "voice_joined"
    join: str
    ice_servers: list[dict[str, Any]]
    connect_timeout_s: float


class VoiceSignalOut(Out):
    """Connection set-up from the seat ``from_seat`` (its join ``from_join``) for this seat's
    join: ``kind`` and ``sdp`` or ``candidates`` exactly as that seat sent them."""

    type: Literal["voice_signal"] = "voice_signal"
    from_seat: int
    from_join: str
    kind: str
    sdp: str | None = None
    candidates: list[dict[str, Any]] | None = None
