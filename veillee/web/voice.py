"""The table socket's voice: the :class:`~veillee.web.live_socket.Side` that serves a seat's
page the table's voice room and relays its connection set-up (:mod:`veillee.live.voice`;
messages: :mod:`veillee.web.voice_protocol`).

Only a seat of a shared table (people only) has voice; any other socket's voice messages are
refused ``voice_unavailable`` and it is sent nothing of voice. Voice messages go through the
socket's own limits and one more rate limit of their own (``voice_messages_per_second``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import time
from typing import Any

from veillee.config import Settings
from veillee.live import Refusal
from veillee.live.voice import VoiceRefusal, VoiceRooms, VoiceState
from veillee.tables.table import MAKER
from veillee.web.guards import RateLimit
from veillee.web.live_protocol import TransportCode
from veillee.web.live_socket import CLOSED, Session
from veillee.web.voice_protocol import (
    VoiceJoin,
    VoiceJoinedOut,
    VoiceLeave,
    VoiceMemberOut,
    VoiceMute,
    VoiceOut,
    VoiceSignal,
    VoiceSignalOut,
    VoiceSwitch,
)


def turn_credentials(secret: str, name: str, expires: int) -> dict[str, str]:
    """TURN credentials in the TURN REST convention (coturn's ``use-auth-secret``): the
    ``username`` is ``"<expires>:<name>"`` (``expires`` a Unix time, seconds), the
    ``credential`` the base64 HMAC-SHA1 of the username under ``secret``.

    >>> turn_credentials("s3cret", "t1-0", 1700000000)
    {'username': '1700000000:t1-0', 'credential': 'oGQ60rt5asEkkdiq1DXpb6Yh57I='}
    """
    username = f"{expires}:{name}"
    digest = hmac.new(secret.encode(), username.encode(), hashlib.sha1).digest()
    return {"username": username, "credential": base64.b64encode(digest).decode()}


def ice_servers(settings: Settings, name: str, now: float | None = None) -> list[dict[str, Any]]:
    """The ICE servers a page joining voice is given: ``settings.ice_servers`` as they are,
    except that a TURN server (``turn:``/``turns:`` URLs) listed without a ``username`` gets
    :func:`turn_credentials` for ``name`` valid ``settings.turn_ttl_s`` from ``now`` (Unix
    time; default the clock's) when ``settings.turn_secret`` is set."""
    now = time.time() if now is None else now
    found = []
    for server in settings.ice_servers:
        urls = server.get("urls", [])
        urls = [urls] if isinstance(urls, str) else list(urls)
        turn = any(str(url).startswith(("turn:", "turns:")) for url in urls)
        if turn and "username" not in server and settings.turn_secret:
            expires = int(now) + settings.turn_ttl_s
            server = {**server, **turn_credentials(settings.turn_secret, name, expires)}
        found.append(dict(server))
    return found


def voice_out(state: VoiceState) -> VoiceOut:
    """The ``voice`` message of ``state``."""
    return VoiceOut(
        enabled=state.enabled,
        maker=MAKER,
        members=[
            VoiceMemberOut(seat=seat, muted=m.muted, join=m.join)
            for seat, m in state.members.items()
        ],
    )


class VoiceSide:
    """One seat's voice on its socket. ``available``: the socket is a seat of a shared table
    (a socket whose key is no seat never is).
    What the room pushes (its state, the newest only; signals, in order) is sent by one task."""

    __slots__ = (
        "_signals",
        "_state",
        "_task",
        "_wake",
        "_watching",
        "available",
        "rate",
        "rooms",
        "seat",
        "session",
        "table_id",
    )

    def __init__(self, rooms: VoiceRooms, session: Session, available: bool) -> None:
        self.rooms = rooms
        self.session = session
        self.table_id = session.record_id
        # A spectator of a demonstration holds no seat: no voice.
        key = session.key
        self.available = available and isinstance(key, int)
        self.seat: int = key if isinstance(key, int) else -1
        self.rate = RateLimit(session.settings.voice_messages_per_second)
        self._state: VoiceState | None = None
        self._signals: list[dict[str, Any]] = []
        # Made by start (a socket without voice holds neither).
        self._wake: asyncio.Event | None = None
        self._watching: contextlib.AbstractAsyncContextManager[None] | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Follow the table's voice room, if this socket may have voice."""
        if not self.available:
            return
        wake = self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run(wake))
        watching = self.rooms.watch(self.table_id, self)
        await watching.__aenter__()
        self._watching = watching

    async def close(self) -> None:
        """The socket has gone: its seat leaves voice."""
        watching, self._watching = self._watching, None
        if watching is not None:
            await watching.__aexit__(None, None, None)
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    # ---- the page's messages ------------------------------------------------------------

    async def answer(self, message: Any) -> None:
        session = self.session
        client_id = message.client_id
        if not self.available:
            await session.error(VoiceRefusal.VOICE_UNAVAILABLE, client_id)
            return
        if not self.rate.allow():
            await session.error(TransportCode.RATE_LIMITED, client_id)
            return
        try:
            await self._answer(message)
        except Refusal as refused:
            await session.error(refused.reason, client_id)

    async def _answer(self, message: Any) -> None:
        rooms, table_id = self.rooms, self.table_id
        if isinstance(message, VoiceSignal):
            await rooms.signal(table_id, self, message.to, message.to_join, message.payload())
        elif isinstance(message, VoiceSwitch):
            if self.seat != MAKER:
                raise Refusal(VoiceRefusal.VOICE_NOT_MAKER)
            await rooms.switch(table_id, message.on)
        elif isinstance(message, VoiceJoin):
            join = await rooms.join(table_id, self, message.muted)
            name = f"{table_id}-{self.seat}"
            servers = ice_servers(self.session.settings, name)
            timeout = self.session.settings.voice_connect_timeout_s
            await self.session.send(
                VoiceJoinedOut(join=join, ice_servers=servers, connect_timeout_s=timeout)
            )
        elif isinstance(message, VoiceMute):
            await rooms.mute(table_id, self, message.muted)
        elif isinstance(message, VoiceLeave):
            await rooms.leave(table_id, self)

    # ---- the room's side ----------------------------------------------------------------

    def push_voice(self, state: VoiceState) -> None:
        self._state = state
        if self._wake is not None:
            self._wake.set()

    def push_signal(self, signal: dict[str, Any]) -> None:
        self._signals.append(signal)
        if self._wake is not None:
            self._wake.set()

    async def _run(self, wake: asyncio.Event) -> None:
        try:
            while True:
                await wake.wait()
                wake.clear()
                state, self._state = self._state, None
                if state is not None:
                    await self.session.send(voice_out(state))
                signals, self._signals = self._signals, []
                for signal in signals:
                    await self.session.send(VoiceSignalOut(**signal))
        except CLOSED:
            return  # the page has gone; the receiving side ends the session


async def voice_side(rooms: VoiceRooms, session: Session, available: bool) -> VoiceSide:
    """The started :class:`VoiceSide` of ``session``."""
    side = VoiceSide(rooms, session, available)
    await side.start()
    return side
