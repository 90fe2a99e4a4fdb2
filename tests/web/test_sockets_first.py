"""The sockets' way in (``veillee.web.app.SocketsFirst``): a websocket on a socket route is
served from its endpoint in front of the HTTP middleware, after the same Host check; any other
websocket goes down FastAPI's stack as before."""

from __future__ import annotations

import pytest
from fastapi import APIRouter, FastAPI, WebSocket
from httpx_ws import aconnect_ws
from starlette.routing import WebSocketRoute

from tests.web.sockets import client, new_table, receive, refusals
from veillee.web.app import App, SocketsFirst


async def test_a_socket_route_is_served_outside_the_http_middleware(app: FastAPI) -> None:
    # FastAPI's stack would have put its exit stack and its router in the scope.
    seen: list[dict[str, object]] = []

    async def endpoint(ws: WebSocket, record_id: str) -> None:
        seen.append(dict(ws.scope))
        await ws.accept()
        await ws.send_json({"type": "echo", "id": record_id})
        await ws.close()

    front = SocketsFirst(app, [WebSocketRoute("/ws/echo/{record_id}", endpoint)], ["t"])
    async with client(front) as c, aconnect_ws("/ws/echo/abc", c) as ws:  # type: ignore[arg-type]
        assert await receive(ws, "echo") == {"type": "echo", "id": "abc"}
    (scope,) = seen
    assert scope["path_params"] == {"record_id": "abc"}
    assert "fastapi_astack" not in scope and "router" not in scope


async def test_the_tables_socket_still_answers_and_other_paths_are_refused(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await ws.send_text('{"type": "ping"}')
            assert (await receive(ws, "error"))["code"] == "hello_first"
        with pytest.raises(BaseException) as refused:  # httpx-ws raises groups
            async with aconnect_ws("/ws/nowhere", c):
                pass
        # Starlette's router closes it before the handshake (a server answers that 403).
        assert refusals(refused.value) == [1000]


async def test_a_foreign_host_is_refused_before_the_endpoint(app: FastAPI) -> None:
    called: list[str] = []

    async def endpoint(ws: WebSocket, record_id: str) -> None:
        called.append(record_id)

    front = SocketsFirst(app, [WebSocketRoute("/ws/echo/{record_id}", endpoint)], ["t"])
    async with client(front) as c:  # type: ignore[arg-type]
        with pytest.raises(BaseException) as refused:
            async with aconnect_ws("/ws/echo/abc", c, headers={"host": "evil.example"}):
                pass
    assert refusals(refused.value) == [400] and called == []


def test_a_socket_endpoint_that_wants_more_than_its_path_is_refused_at_start() -> None:
    router = APIRouter()

    @router.websocket("/ws/things/{thing_id}")
    async def thing(ws: WebSocket, thing_id: str, page: int = 0) -> None:
        return None

    app = App(hosts=["t"], routers=[router])
    with pytest.raises(ValueError, match="path parameters only"):
        app.build_middleware_stack()
