"""A push service of the tests' own (issue 26): a small HTTP server on 127.0.0.1 that records
every push it is sent (path, headers, encrypted body) and answers each with the next status of
its script (201 once the script is spent), optionally holding its answer until released; and a
browser's subscription keys, to decrypt what it received with ``http_ece``."""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass
class Received:
    """One push as the endpoint received it."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Browser:
    """A browser's subscription keys: its P-256 key pair and its 16-byte auth secret."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: secrets.token_bytes(16))

    @property
    def p256dh(self) -> str:
        return b64url(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)

    def decrypt(self, push: Received) -> dict[str, Any]:
        """The payload of ``push`` (aes128gcm, RFC 8291), read as JSON."""
        assert push.headers.get("content-encoding") == "aes128gcm", push.headers
        plain = http_ece.decrypt(
            push.body, private_key=self.key, auth_secret=self.auth_secret, version="aes128gcm"
        )
        data: dict[str, Any] = json.loads(plain)
        return data


class PushEndpoint:
    """The test's push service at :attr:`url` (``http://127.0.0.1:<port>/push/``; a
    subscription's endpoint is that plus a name)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.script: list[int] = []
        self.answered = 0
        self.release = threading.Event()
        self.release.set()
        self._lock = threading.Lock()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                with endpoint._lock:
                    endpoint.received.append(
                        Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                    status = endpoint.script.pop(0) if endpoint.script else 201
                endpoint.release.wait(30)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()
                with endpoint._lock:
                    endpoint.answered += 1

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/push/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def subscription(self, name: str, browser: Browser) -> dict[str, Any]:
        """``PushSubscription.toJSON()`` of a browser whose endpoint is this server's."""
        return {
            "endpoint": self.url + name,
            "expirationTime": None,
            "keys": {"p256dh": browser.p256dh, "auth": browser.auth},
        }

    def wait_for(self, count: int, timeout_s: float = 30.0) -> list[Received]:
        """The pushes received, once there are ``count`` (AssertionError after ``timeout_s``)."""
        deadline = time.monotonic() + timeout_s
        while len(self.received) < count:
            assert time.monotonic() < deadline, f"{len(self.received)} pushes, not {count}"
            time.sleep(0.01)
        return list(self.received)


@contextmanager
def push_endpoint() -> Iterator[PushEndpoint]:
    """A running :class:`PushEndpoint`, stopped after."""
    endpoint = PushEndpoint()
    endpoint.thread.start()
    try:
        yield endpoint
    finally:
        endpoint.release.set()
        endpoint.server.shutdown()
        endpoint.server.server_close()
