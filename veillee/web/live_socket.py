"""One socket skeleton for every live record, tables and score sheets (DESIGN.md §3, §5).

lila-ws serves every socket through one ``endpoint(name, behaviour, credits, interval)``; this is
ours. :func:`serve` checks the page's Origin, waits for ``hello`` (closing a socket that has not
sent it within ``hello_timeout_s``), authenticates the token, follows the record's fan-out and
answers every frame after the size and rate limits and a typed parse. What one kind of socket
does beyond that is its :class:`Behaviour`: which messages it takes, whose token is whose, the
view a key (seat, role) is sent, and how a change is applied.

Every frame out is one of ``live_protocol``'s (or the kind's snapshot); every refusal is an
:class:`~veillee.web.live_protocol.ErrorOut` with the reason in the player's language. Close
codes: 1008 foreign Origin, 4403 token refused, 4404 record gone, 4408 no hello in time, or
nothing heard for ``silence_timeout_s`` (pages ping every 10 s: a silent socket's network is
gone).

Presence: :class:`~veillee.live.Presence` (the records' ``presence``) knows which viewer keys
have a socket open on each record, in this process and the others; on a record whose kind shows
it
(``Behaviour.shows_presence``) each socket is sent :class:`~veillee.web.live_protocol.PresenceOut`
after its first snapshot and whenever it changes, so a seat sees another go away (its page
closed, or its network silent past the timeout) and come back.

Side: what a socket serves beside its record and outside its versions (a table's chat) is the
behaviour's :class:`Side`, opened once the socket is greeted and closed when it goes; frames
that are a :class:`~veillee.web.live_protocol.SideMessage` are handed to it, never applied to
the record.

Why one module of this length: the one socket loop of every live record (tables and
sheets), with its greeting, limits, catch-up and side channels; a second module would be a
second loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Hashable
from typing import Any, Protocol

from fastapi import WebSocket
from prometheus_client import Counter, Gauge
from pydantic import BaseModel
from starlette.websockets import WebSocketDisconnect

from veillee.config import Settings
from veillee.live import LiveRecords, Presence, Refusal, well_formed_id
from veillee.store import Commit, Record
from veillee.web import i18n
from veillee.web.guards import RateLimit, origin_allowed
from veillee.web.live_protocol import (
    AckOut,
    BadMessage,
    Hello,
    Messages,
    Ping,
    PongOut,
    PresenceOut,
    SideMessage,
    TransportCode,
    error_out,
)

OPEN_SOCKETS = Gauge("veillee_sockets", "Live websockets open in this process", ["endpoint"])
REFUSED = Counter(
    "veillee_refusals_total", "Live messages and requests refused, by reason", ["endpoint", "code"]
)

GONE = object()
"""What a session's mailbox holds once its record was deleted."""
CLOSED = (WebSocketDisconnect, RuntimeError)
"""What sending on a socket the page has left raises (Starlette: a disconnect, or a send after
the close)."""


class Behaviour(Protocol):
    """What one kind of live socket does beyond the skeleton."""

    name: str
    """Metrics label and name of the endpoint (``"tables"``, ``"sheets"``)."""
    records: LiveRecords
    messages: Messages
    """What the socket takes: :class:`Hello`, :class:`Ping` and the kind's changes."""

    def area(self, record: Record | None) -> str:
        """Catalog prefix of the reason strings for ``record`` (see :func:`i18n.reason`), e.g.
        ``"scores."`` or a table's game (``"<game>."``); ``record`` is None before the
        socket's hello is accepted."""

    async def authenticate(self, record_id: str, token: str) -> Hashable | None:
        """The viewer key ``token`` holds on the record (a seat, a role), or None. May raise
        Refusal with the reason a token that once opened the record opens it no more (the
        socket is closed 4403 with it)."""

    def render(self, record: Record, key: Any) -> str:
        """The snapshot message (JSON text) that ``key`` is sent of ``record``: only what it may
        see."""

    async def apply(self, record_id: str, key: Any, message: Any) -> Commit:
        """Apply the change ``message`` sent by ``key``. Raises Refusal."""

    def greeted(self, record: Record) -> None:
        """Called with the record as sent after each accepted hello (a table wakes its computer
        seats)."""

    def shows_presence(self, record: Record) -> bool:
        """Whether the sockets of ``record`` are told who else is there (:class:`PresenceOut`)."""

    async def closed(self, record_id: str, key: Any) -> None:
        """Called once a socket that held ``key`` has closed (a demonstration table is dropped
        when its spectator leaves)."""

    async def side(self, session: Session, record: Record) -> Side | None:
        """What ``session`` is served beside its record once greeted with ``record`` (a table's
        chat), or None."""


class Side(Protocol):
    """What a socket serves beside its record (a table's chat): it answers the socket's
    :class:`~veillee.web.live_protocol.SideMessage` frames and may send frames of its own
    (through :meth:`Session.send`) until it is closed, when the socket goes."""

    async def answer(self, message: Any) -> None:
        """Answer one side message (refusals: :meth:`Session.error`)."""

    async def close(self) -> None:
        """The socket has gone: stop sending."""


class Session:
    """One open socket: its record, language, viewer key, the version it was last sent, and a
    mailbox the record's fan-out fills (:meth:`push`) and :meth:`follow` empties (in a task that
    runs only while there is something to send: an idle socket holds none)."""

    __slots__ = (
        "_presence",
        "_pushed",
        "_sender",
        "area",
        "behaviour",
        "key",
        "lang",
        "lock",
        "rate",
        "record_id",
        "sent_version",
        "settings",
        "shows_presence",
        "side",
        "ws",
    )

    def __init__(
        self, ws: WebSocket, behaviour: Behaviour, record_id: str, settings: Settings
    ) -> None:
        self.ws = ws
        self.behaviour = behaviour
        self.record_id = record_id
        self.settings = settings
        self.rate = RateLimit(settings.max_messages_per_second)
        self.lang = i18n.pick_lang(ws.cookies.get("lang"), ws.headers.get("accept-language"))
        self.key: Hashable | None = None
        self.sent_version = -1
        self.area = behaviour.area(None)
        self.lock = asyncio.Lock()
        self._pushed: Record | object | None = None
        self._sender: asyncio.Task[None] | None = None
        self.shows_presence = False
        self._presence: list[Any] | None = None
        self.side: Side | None = None

    # ---- sending (always under ``lock``: frames of two tasks never interleave) --------------

    async def send(self, message: BaseModel) -> None:
        """Send one message."""
        async with self.lock:
            await self.ws.send_text(message.model_dump_json())

    async def error(self, code: str, client_id: str | None = None) -> None:
        """Send the error ``code`` (counted in the metrics)."""
        REFUSED.labels(self.behaviour.name, code).inc()
        await self.send(error_out(self.lang, code, self.area, client_id))

    async def refuse(self, code: str, close_code: int) -> None:
        """Send the error ``code`` and close the socket."""
        await self.error(code)
        await self.ws.close(code=close_code)

    async def _snapshot(self, record: Record, force: bool = False) -> None:
        # Caller holds ``lock``. Never send a version older than one already sent.
        if record.version < self.sent_version or (
            record.version == self.sent_version and not force
        ):
            return
        self.sent_version = record.version
        text = self.behaviour.records.fanout.view(record, self.key, self.behaviour.render)
        await self.ws.send_text(text)

    async def send_current(self) -> Record:
        """Send the record as it is now (after a hello, after a refused change) and return it.
        Raises Refusal (the kind's gone code)."""
        record = await self.behaviour.records.load(self.record_id)
        self.area = self.behaviour.area(record)
        async with self.lock:
            await self._snapshot(record, force=True)
        return record

    async def change(self, message: Any) -> None:
        """Apply one change and answer ``ack`` then the snapshot that shows it, or ``error`` then
        the record as it is (so the page is in step). This socket's other sends wait meanwhile,
        so its own fan-out never overtakes the ack."""
        records = self.behaviour.records
        async with self.lock:
            try:
                done = await self.behaviour.apply(self.record_id, self.key, message)
            except Refusal as refused:
                reason = refused.reason
            else:
                ack = AckOut(
                    client_id=message.client_id,
                    version=done.record.version,
                    duplicate=done.duplicate,
                )
                await self.ws.send_text(ack.model_dump_json())
                # Forced: a repeat, or a change that needed no write, still shows the record.
                await self._snapshot(done.record, force=True)
                return
        await self.error(reason, message.client_id)
        if reason != records.gone:
            # Gone meanwhile: the fan-out's "gone" closes the socket.
            with contextlib.suppress(Refusal):
                await self.send_current()

    # ---- the fan-out's side ---------------------------------------------------------------

    def push(self, record: Record | None) -> None:
        """A newer version of the record, or ``None`` once it is deleted (Watcher)."""
        self._pushed = GONE if record is None else record
        self._wake()

    def push_presence(self, here: list[Any]) -> None:
        """Who is at the record now (:class:`Presence`); sent by :meth:`follow`."""
        if self.shows_presence:
            self._presence = here
            self._wake()

    def _wake(self) -> None:
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self.follow())

    async def follow(self) -> None:
        """Send what was pushed (the newest version only, if several came at once; who is
        here) until the mailbox is empty; close with the kind's gone code once the record is
        deleted."""
        try:
            while self._pushed is not None or self._presence is not None:
                pushed, self._pushed = self._pushed, None
                if pushed is GONE:
                    await self.refuse(self.behaviour.records.gone, 4404)
                    return
                if isinstance(pushed, Record):
                    async with self.lock:
                        await self._snapshot(pushed)
                here, self._presence = self._presence, None
                if here is not None:
                    await self.send(PresenceOut(here=here))
        except CLOSED:
            return  # the page has gone; the receiving side ends the session
        finally:
            # Let go of this task once it has sent everything: a done task kept would hold it
            # and its coroutine for as long as the socket stays open (an idle seat's memory).
            if self._sender is asyncio.current_task():
                self._sender = None

    async def stop_following(self) -> None:
        """Stop sending (the socket is closing)."""
        sender, self._sender = self._sender, None
        if sender is not None:
            sender.cancel()
            await asyncio.gather(sender, return_exceptions=True)


async def serve(ws: WebSocket, behaviour: Behaviour, record_id: str) -> None:
    """The endpoint: one socket of ``behaviour``'s kind on record ``record_id``, from the
    handshake to the close (docs/protocol.md §2). A page of another site is refused before the
    handshake; an id of a shape no record has gets the kind's gone code at once (nothing is
    looked up)."""
    if not origin_allowed(ws):
        await ws.close(code=1008)
        return
    await ws.accept()
    session = Session(ws, behaviour, record_id, ws.app.state.settings)
    sockets = OPEN_SOCKETS.labels(behaviour.name)
    sockets.inc()
    try:
        if not well_formed_id(record_id):
            await session.refuse(behaviour.records.gone, 4404)
        elif await greet(session):
            await follow_and_listen(session)
    except CLOSED:
        pass  # the page went away mid-answer
    finally:
        sockets.dec()
        if session.key is not None:
            await behaviour.closed(record_id, session.key)


async def greet(session: Session) -> bool:
    """Wait for a valid ``hello`` within ``hello_timeout_s`` (other frames are answered with
    ``hello_first``) and authenticate it. False if the socket was closed meanwhile."""
    deadline = time.monotonic() + session.settings.hello_timeout_s
    while True:
        try:
            message = await next_message(session, deadline)
        except TimeoutError:
            # A socket that never says hello holds a slot for nothing: close it.
            await session.refuse(TransportCode.HELLO_TIMEOUT, 4408)
            return False
        if message is None:
            return False
        if isinstance(message, Hello):
            return await authenticate(session, message)
        await session.error(TransportCode.HELLO_FIRST)


async def authenticate(session: Session, hello: Hello) -> bool:
    """Take the viewer key ``hello``'s token holds (the same one again on a later hello), or
    close the socket: ``bad_token`` (4403), the behaviour's reason for a token that opens the
    record no more (4403), or the kind's gone code (4404) for a record that no longer
    exists."""
    if hello.lang:
        session.lang = hello.lang
    behaviour = session.behaviour
    try:
        key = await behaviour.authenticate(session.record_id, hello.token)
    except Refusal as refused:
        # A token that opened the record once and opens it no more, with its reason (a table
        # seat given to someone new).
        await session.refuse(refused.reason, 4403)
        return False
    if key is None or (session.key is not None and key != session.key):
        try:
            await behaviour.records.load(session.record_id)
        except Refusal as gone:
            await session.refuse(gone.reason, 4404)
            return False
        await session.refuse(TransportCode.BAD_TOKEN, 4403)
        return False
    session.key = key
    return True


async def follow_and_listen(session: Session) -> None:
    """Follow the record (fan-out), send it as it is now, and answer frames until the page goes.
    The record is watched before it is read, so no version can slip between the two."""
    at = session.behaviour.records.presence
    async with session.behaviour.records.fanout.watch(session.record_id, session):
        try:
            if await start(session, at):
                await listen(session)
        finally:
            await at.leave(session)
            if session.side is not None:
                await session.side.close()
            await session.stop_following()


async def start(session: Session, at: Presence) -> bool:
    """Greet the socket (:func:`send_greeting`), say it is here if its kind shows presence, and
    open its side; False if the record has gone. The record it was greeted with is not kept
    (an idle socket holds no copy of its record)."""
    greeted = await send_greeting(session)
    if greeted is None:
        return False
    if session.shows_presence:
        await at.enter(session)
    session.side = await session.behaviour.side(session, greeted)
    return True


async def send_greeting(session: Session) -> Record | None:
    """The answer to a hello: the record as it is now, returned as sent (or the gone code, and
    the close: None)."""
    try:
        record = await session.send_current()
    except Refusal as gone:
        await session.refuse(gone.reason, 4404)
        return None
    session.behaviour.greeted(record)
    session.shows_presence = session.behaviour.shows_presence(record)
    return record


async def listen(session: Session) -> None:
    """Answer every frame until the page goes, or has been silent for ``silence_timeout_s``
    (``hidden_silence_s`` after a ping that says the page is hidden) (closed with ``silent``,
    4408: its page reconnects if it is still there)."""
    silence = session.settings.silence_timeout_s
    while True:
        try:
            message = await next_message(session, time.monotonic() + silence)
        except TimeoutError:
            await session.refuse(TransportCode.SILENT, 4408)
            return
        if message is None:
            return
        if isinstance(message, Ping):
            settings = session.settings
            silence = settings.hidden_silence_s if message.hidden else settings.silence_timeout_s
            await session.send(PongOut())
        elif isinstance(message, Hello):
            if not await authenticate(session, message) or await send_greeting(session) is None:
                return
        elif isinstance(message, SideMessage):
            if session.side is None:
                await session.error(TransportCode.UNKNOWN_TYPE)
            else:
                await session.side.answer(message)
        else:
            await session.change(message)


async def next_message(session: Session, deadline: float | None = None) -> Any | None:
    """The next frame that passes the limits and parses, or None once the page has gone.
    Frames that do not are answered with an error (``bad_message`` for a binary frame,
    ``message_too_large``, ``rate_limited`` or the parse's code, naming the frame's client id
    when it can be read, so that the page knows which change to send again or give up).
    Raises TimeoutError at ``deadline`` (a ``time.monotonic()`` value)."""
    while True:
        # Read here rather than in a function of its own: each coroutine in the chain an idle
        # socket waits in is held for as long as it is open.
        if deadline is None:
            frame = await session.ws.receive()
        else:
            # A timer, not a task per frame (asyncio.wait_for's).
            async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                frame = await session.ws.receive()
        if frame["type"] == "websocket.disconnect":
            return None
        text = frame.get("text")
        if text is None:  # a binary frame: not one of ours
            await session.error(TransportCode.BAD_MESSAGE)
            continue
        if len(text.encode()) > session.settings.max_message_bytes:
            await session.error(TransportCode.MESSAGE_TOO_LARGE)
            continue
        if not session.rate.allow():
            # Say which change was dropped, so the page can send it again.
            await session.error(TransportCode.RATE_LIMITED, Messages.peek_client_id(text))
            continue
        try:
            return session.behaviour.messages.parse(text)
        except BadMessage as bad:
            await session.error(bad.reason, Messages.peek_client_id(text))


class Sides:
    """Several sides of one socket (a table's chat and its voice), each answering its own
    message types: ``routes`` pairs each side with the
    :class:`~veillee.web.live_protocol.SideMessage` models it answers; ``session`` is told
    ``unknown_type`` for any other."""

    __slots__ = ("routes", "session")

    def __init__(
        self, session: Session, routes: tuple[tuple[tuple[type[BaseModel], ...], Side], ...]
    ) -> None:
        self.session = session
        self.routes = routes

    async def answer(self, message: Any) -> None:
        for models, side in self.routes:
            if type(message) in models:
                await side.answer(message)
                return
        await self.session.error(TransportCode.UNKNOWN_TYPE)

    async def close(self) -> None:
        for _, side in self.routes:
            await side.close()
