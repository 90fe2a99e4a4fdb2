"""Limits every live socket and request goes through: the page's origin, a rate limit, and one
body-size limit for every route, applied while the body is read.

>>> bucket = RateLimit(1.0)
>>> [bucket.allow() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import time

from fastapi import Request, WebSocket
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from veillee.config import Settings, parse_origin
from veillee.web.live_protocol import BadMessage, TransportCode, error_response


class RateLimit:
    """Token bucket: ``rate`` messages per second, bursts of ``2 * rate``."""

    __slots__ = ("capacity", "last", "rate", "tokens")

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.capacity = 2 * rate
        self.tokens = self.capacity
        self.last = time.monotonic()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def origin_allowed(ws: WebSocket) -> bool:
    """Whether a socket may open: a browser's page must be one of this site's public origins
    (``Settings.public_origins``), same scheme, host and port; ``null``, a look-alike name
    (``http://127.0.0.1:8000.evil.example``), another port or scheme, or two ``Origin`` headers
    are refused. Clients that send no Origin (not browsers) go on to the token check."""
    sent = ws.headers.getlist("origin")
    if not sent:
        return True
    origin = parse_origin(sent[0]) if len(sent) == 1 else None
    settings: Settings = ws.app.state.settings
    return origin is not None and origin in settings.origins()


class BodyTooLarge(BadMessage):
    """A request body went past the size limit while it was being read."""

    def __init__(self) -> None:
        super().__init__(TransportCode.MESSAGE_TOO_LARGE)


class BodyLimit:
    """ASGI middleware: no route reads more than ``settings.max_message_bytes`` of a request body.

    A body declared larger (``Content-Length``) is refused before a byte of it is read; a body
    sent in chunks is counted as the route reads it, and the read that goes past the limit
    raises :class:`BodyTooLarge` (a :class:`~veillee.web.live_protocol.BadMessage`
    ``message_too_large``, which a route may answer itself). Either way the answer is the one
    error shape with status 413, and the rest of the body is never read."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.settings.max_message_bytes
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, receive, send)
            return
        read = 0
        answered = False

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > limit:
                    raise BodyTooLarge()
            return message

        async def watched(message: Message) -> None:
            nonlocal answered
            answered = answered or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if answered:
                raise
            await self._refuse(scope, receive, send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
        await error_response(Request(scope), TransportCode.MESSAGE_TOO_LARGE)(scope, receive, send)
