"""Limits every live socket and API request goes through: the page's origin, a rate limit, and a
body read no further than its size limit.

>>> bucket = RateLimit(1.0)
>>> [bucket.allow() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from fastapi import Request, WebSocket

from veillee.web.live_protocol import BadMessage


class RateLimit:
    """Token bucket: ``rate`` messages per second, bursts of ``2 * rate``."""

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
    """A browser's socket must come from a page of this site (same host); clients that send
    no Origin (not browsers) are let through to the token check."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host")


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, read no further than ``limit`` bytes (a larger body is never held in
    memory). Raises BadMessage("message_too_large")."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BadMessage("message_too_large")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadMessage("message_too_large")
    return bytes(body)
