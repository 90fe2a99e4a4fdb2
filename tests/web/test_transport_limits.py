"""The transport refuses what is too big before the app holds it: uvicorn is started with the
sizes of the settings (``veillee serve`` and the tests' servers alike, through
``config.transport_limits``), so a websocket frame over ``max_frame_bytes`` closes the socket
(1009) unread, and a request head over ``max_header_bytes`` is answered 400. A frame between
``max_message_bytes`` and ``max_frame_bytes`` is still answered with a reason."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import uvicorn
from httpx_ws import aconnect_ws

from tests.browser.conftest import serving
from tests.conftest import make_settings
from tests.web.sockets import new_sheet, receive, refusals
from veillee import cli
from veillee.config import WSPROTO, Settings, transport_limits


def test_veillee_serve_starts_uvicorn_with_the_settings_limits(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("VEILLEE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("VEILLEE_MAX_FRAME_BYTES", "20000")
    monkeypatch.setenv("VEILLEE_MAX_HEADER_BYTES", "9000")
    monkeypatch.delenv("VEILLEE_TEST_HOOKS", raising=False)
    monkeypatch.delenv("VEILLEE_PUBLIC_ORIGINS", raising=False)
    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(options))
    assert cli.main(["serve", "--port", "8123"]) == 0
    assert started["ws_max_size"] == 20000
    assert started["h11_max_incomplete_event_size"] == 9000
    assert (started["host"], started["port"]) == ("127.0.0.1", 8123)
    # wsproto, served by uvicorn's protocol holding less per connection (veillee.web.transport).
    assert (started["ws"], started["ws_per_message_deflate"]) == (WSPROTO, False)
    assert WSPROTO == "veillee.web.transport:LeanWSProtocol"
    assert transport_limits(Settings()) == {
        "ws_max_size": 20000,
        "h11_max_incomplete_event_size": 9000,
        "ws": WSPROTO,
        "ws_per_message_deflate": False,
    }


async def test_a_frame_over_the_transport_limit_closes_the_socket_unread(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with serving(settings) as base:
        async with httpx.AsyncClient(base_url=base) as c:
            sheet = await new_sheet(c)
            path = f"/ws/sheets/{sheet['id']}"
            hello = json.dumps({"type": "hello", "token": sheet["scorer_token"]})
            # Over the message limit, under the frame limit: a reason, and the socket goes on.
            async with aconnect_ws(path, c) as ws:
                await ws.send_text(hello)
                await receive(ws, "sheet")
                await ws.send_text(" " * (settings.max_message_bytes + 1))
                assert (await receive(ws, "error"))["code"] == "message_too_large"
                await ws.send_text(json.dumps({"type": "ping"}))
                await receive(ws, "pong")
            # Over the frame limit: the transport closes the socket before the app sees it.
            with pytest.raises(BaseException) as closed:  # httpx-ws raises groups
                async with aconnect_ws(path, c) as ws:
                    await ws.send_text(hello)
                    await receive(ws, "sheet")
                    await ws.send_text(" " * (settings.max_frame_bytes + 1))
                    await asyncio.wait_for(ws.receive_text(), 5)
            assert refusals(closed.value) == [1009]
            # The server is well.
            assert (await c.get("/healthz")).status_code == 200


async def test_a_request_head_over_the_limit_is_refused_by_the_transport(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with serving(settings) as base:
        address = urlsplit(base)
        with socket.create_connection((address.hostname, address.port), timeout=5) as s:
            # A head that keeps coming: the transport stops holding it at the limit.
            padding = "x" * (settings.max_header_bytes + 1)
            s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: {padding}".encode())
            assert s.recv(100).startswith(b"HTTP/1.1 400")
