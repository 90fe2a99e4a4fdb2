"""What every websocket of the site checks before it listens: the page's origin, and a rate limit.

>>> bucket = RateLimit(1.0)
>>> [bucket.allow() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from fastapi import WebSocket


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
