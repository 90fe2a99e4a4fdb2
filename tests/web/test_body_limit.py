"""One body-size limit for every route, applied while the body is read: a 100 MB body sent to
any route of the app — declared in Content-Length or sent in chunks — is never read past
``max_message_bytes`` (the server holds at most one more chunk of it), and the answer is the one
error shape with 413 (or the route's own answer, for a route that never reads its body)."""

from __future__ import annotations

import importlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute

from tests.conftest import IN_PROCESS, make_settings
from tests.web.sockets import new_sheet
from veillee.web import create_app
from veillee.web.app import ROUTERS

HUNDRED_MB = 100 * 1000 * 1000
CHUNK = 64 * 1024
WITH_BODY = {"POST", "PUT", "PATCH", "DELETE"}


@pytest.fixture
async def hooked(tmp_path: Path) -> AsyncIterator[FastAPI]:
    """The app with every route served, the test hooks' included."""
    settings = make_settings(tmp_path).model_copy(update={"test_hooks": True})
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


class Sent:
    """A 100 MB body, made as it is read: counts what the server pulled of it."""

    def __init__(self) -> None:
        self.pulled = 0

    async def body(self) -> AsyncIterator[bytes]:
        chunk = b"x" * CHUNK
        while self.pulled < HUNDRED_MB:
            self.pulled += len(chunk)
            yield chunk


def routes_taking_a_body(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path template) of every route of the app (its own, and its routers') a body may
    be sent to."""
    routers = [app.router, *(importlib.import_module(name).router for name in ROUTERS)]
    return sorted(
        (method, route.path)
        for router in routers
        for route in router.routes
        if isinstance(route, APIRoute)
        for method in route.methods & WITH_BODY
    )


async def test_a_100_mb_body_is_never_read_past_the_limit_on_any_route(hooked: FastAPI) -> None:
    limit = hooked.state.settings.max_message_bytes
    routes = routes_taking_a_body(hooked)
    assert {
        ("POST", "/api/sheets"),
        ("POST", "/api/sheets/{sheet_id}/changes"),
        ("POST", "/api/sheets/{sheet_id}/viewers"),
        ("POST", "/api/tables"),
        ("POST", "/api/test/tables"),
    } <= set(routes)
    transport = httpx.ASGITransport(hooked)
    async with httpx.AsyncClient(transport=transport, base_url=IN_PROCESS) as c:
        sheet = await new_sheet(c)
        # As far as a body can get: the route's path holds a real record, the scorer's token.
        auth = {"authorization": f"Bearer {sheet['scorer_token']}"}
        for method, template in routes:
            path = re.sub(r"\{[^}]+\}", sheet["id"], template)
            for declared in (True, False):
                sent = Sent()
                headers = {**auth, "content-type": "application/json"}
                if declared:
                    headers["content-length"] = str(HUNDRED_MB)
                r = await c.request(method, path, content=sent.body(), headers=headers)
                what = (method, template, "declared" if declared else "chunked")
                assert sent.pulled <= limit + CHUNK, what
                if declared or sent.pulled:
                    assert r.status_code == 413, (*what, r.status_code, r.text)
                    error = r.json()
                    assert set(error) == {"type", "code", "message", "client_id"}
                    assert (error["type"], error["code"]) == ("error", "message_too_large")
                    assert "too" in error["message"], error  # said in words, in English
                    assert r.headers["x-content-type-options"] == "nosniff"
                else:  # the route did not read its body at all
                    assert r.status_code < 500, what
