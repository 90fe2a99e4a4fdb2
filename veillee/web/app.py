"""The app factory. Each area of the site is a router module listed in ``ROUTERS``; the live
records (tables and sheets) and their one sweeper are opened for the app's lifetime."""

from __future__ import annotations

import asyncio
import importlib
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse
from prometheus_client import make_asgi_app
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import Match, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from veillee.bus import open_bus
from veillee.config import Settings
from veillee.live import Clock, Follower, sweep_forever
from veillee.live.voice import VoiceRooms
from veillee.scores import SheetService
from veillee.store import Store
from veillee.tables import TableService
from veillee.tables.chat import TableChat
from veillee.tables.notices import Pushes
from veillee.web import i18n
from veillee.web.assets import REVALIDATE, Assets
from veillee.web.guards import BodyLimit
from veillee.web.metrics import stop, watch_the_loop
from veillee.workers import open_deciders, vapid_keys

WEB = Path(__file__).parent

ROUTERS: tuple[str, ...] = (
    "veillee.web.pages",
    "veillee.web.sheet_routes",
    "veillee.web.scripted_tables",
    "veillee.web.table_routes",
)
"""Modules exposing ``router`` (an APIRouter), in the order their routes are matched: the game
pages (``/{game}``) come last, after every page with a fixed name."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; media-src 'self' blob:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)


class SocketsFirst:
    """The sockets' way in: an ASGI app in front of FastAPI's middleware stack that serves a
    websocket whose path is one of the app's websocket routes straight from its endpoint, so
    that an open socket holds only its own coroutines, not the HTTP middleware's, FastAPI's
    routing and its exit stacks (each suspended frame and exit stack costs memory for as long
    as the socket is open: issue 12, bench/RESULTS.md).

    Nothing the sockets need is skipped: the ``Host`` check is Starlette's
    ``TrustedHostMiddleware`` (the same ``hosts`` as every request), run to its end before the
    endpoint (a foreign host is answered 400 and goes no further); the middleware it passes by
    leave websockets alone (the body limit, the security headers: HTTP only), and the route's
    path parameters are matched by Starlette's route itself. Anything else (HTTP, lifespan, a
    websocket on no route) goes down the stack as before.

    A websocket endpoint of this app takes the ``WebSocket`` and its path parameters, nothing
    injected (checked when the app starts: ValueError)."""

    def __init__(self, stack: ASGIApp, routes: Sequence[WebSocketRoute], hosts: list[str]) -> None:
        self.stack = stack
        self.routes = list(routes)
        for route in self.routes:
            wanted = list(inspect.signature(route.endpoint).parameters)[1:]
            if sorted(wanted) != sorted(route.param_convertors):
                raise ValueError(f"{route.path}: a socket endpoint takes its path parameters only")
        self.hosts = TrustedHostMiddleware(_host_allowed, allowed_hosts=hosts, www_redirect=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            for route in self.routes:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    scope.update(child)
                    await self.hosts(scope, receive, send)
                    if scope.pop(_HOST_ALLOWED, False):
                        await route.endpoint(
                            WebSocket(scope, receive, send), **child["path_params"]
                        )
                    return
        await self.stack(scope, receive, send)


_HOST_ALLOWED = "veillee.host_allowed"


async def _host_allowed(scope: Scope, receive: Receive, send: Send) -> None:
    """What ``TrustedHostMiddleware`` calls for a host of ours: say so, and return (the socket
    is served after the check, not inside it)."""
    scope[_HOST_ALLOWED] = True


class App(FastAPI):
    """The Veillée app: FastAPI, with :class:`SocketsFirst` in front of its middleware for the
    websocket routes of ``routers`` (the APIRouters of :data:`ROUTERS`, included without a
    prefix); ``hosts``: the ``Host`` names answered."""

    def __init__(self, *, hosts: list[str], routers: Sequence[APIRouter], **options: Any) -> None:
        super().__init__(**options)
        self.hosts = hosts
        self.sockets = [
            route
            for router in routers
            for route in router.routes
            if isinstance(route, WebSocketRoute)
        ]

    def build_middleware_stack(self) -> ASGIApp:
        return SocketsFirst(super().build_middleware_stack(), self.sockets, self.hosts)


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """Build the Veillée app for ``settings`` (default: from the environment).

    On startup the store and bus are opened, the table and sheet services made on them, and one
    sweeper started for both (every ``settings.sweep_interval_s``); all of it stops on
    shutdown. They are reachable as ``app.state.store``, ``.bus``, ``.tables``, ``.sheets``
    and ``.chat`` (the tables' chat, :class:`~veillee.tables.chat.TableChat`); the tables'
    voice rooms (:class:`~veillee.live.voice.VoiceRooms`) as ``.voice``; the VAPID public key
    of the "your turn" pushes as ``.push_key`` (base64url).
    The browser's files are ``app.state.assets`` (:class:`~veillee.web.assets.Assets`, mounted
    at ``/static``).
    Every request goes through :class:`~veillee.web.guards.BodyLimit` (no body is read past
    ``settings.max_message_bytes``) and Starlette's ``TrustedHostMiddleware`` (a ``Host`` that
    is not one of ``settings.public_origins``' is answered 400); a websocket of a socket route
    (``/ws/tables/{id}``, ``/ws/sheets/{id}``) is served in front of them by
    :class:`SocketsFirst`, after the same ``Host`` check.
    ``clock``: the current UTC time for lifetimes (injectable in tests).
    """
    settings = settings or Settings()
    assets = Assets(settings.static_dir or WEB / "static")
    modules = [importlib.import_module(name) for name in ROUTERS]

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            store = await Store.open(settings.resolved_database_url())
            stack.push_async_callback(store.close)
            bus = open_bus(settings.redis_url)
            stack.push_async_callback(bus.close)
            # One listener per record and process, whatever follows it (DESIGN.md §4).
            follower = Follower(bus)
            # The computer thinks in worker processes, never in this loop (issue 28).
            deciders = await open_deciders(settings)
            stack.push_async_callback(deciders.close)
            # "Your turn" pushes (issue 26): one key pair for every process of the site.
            keys = vapid_keys(settings.vapid_private_key, settings.data_dir)
            pushes = Pushes(keys, settings.vapid_subject, i18n.t, any_endpoint=settings.test_hooks)
            app.state.push_key = keys.public
            tables = TableService(
                store,
                bus,
                settings,
                clock=clock,
                follower=follower,
                deciders=deciders,
                pushes=pushes,
            )
            stack.push_async_callback(tables.close)
            watch = asyncio.create_task(watch_the_loop(deciders))
            stack.push_async_callback(stop, watch)
            sheets = SheetService(store, bus, settings.sheet_idle_s, clock=clock, follower=follower)
            stack.push_async_callback(sheets.close)
            app.state.store, app.state.bus = store, bus
            app.state.tables, app.state.sheets = tables, sheets
            app.state.voice = VoiceRooms(follower, tables.live.channel)
            stack.push_async_callback(app.state.voice.close)
            app.state.chat = TableChat(tables, kept=settings.chat_kept)
            sweeper = asyncio.create_task(
                sweep_forever((tables.sweep, sheets.sweep), settings.sweep_interval_s)
            )
            stack.push_async_callback(stop, sweeper)
            yield

    app = App(
        hosts=settings.hosts(),
        routers=[module.router for module in modules],
        title="Veillée",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.settings = settings
    app.state.assets = assets
    # Added first, so innermost: its 413 still gets the security headers below.
    app.add_middleware(BodyLimit, settings=settings)

    @app.middleware("http")
    async def security_headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        if response.headers.get("content-type", "").startswith("text/html"):
            # A page names this build's files: the browser asks for the page again each time.
            response.headers.setdefault("Cache-Control", REVALIDATE)
        return response

    @app.exception_handler(HTTPException)
    async def friendly_errors(request: Request, exc: HTTPException) -> Response:
        """A person's browser gets a page in its language; API and scripts keep the JSON."""
        wants_page = "text/html" in request.headers.get("accept", "")
        if wants_page and not request.url.path.startswith(("/api/", "/ws/")):
            from veillee.web.pages import render

            response = render(request, "error.html", status=exc.status_code)
            response.status_code = exc.status_code
            return response
        return await http_exception_handler(request, exc)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(WEB / "static" / "favicon.svg", media_type="image/svg+xml")

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    # Added last, so outermost: a request for a host that is not ours (DNS rebinding) goes no
    # further.
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=app.hosts, www_redirect=False)
    app.mount("/metrics", make_asgi_app())
    app.mount("/static", assets, name="static")
    for module in modules:
        app.include_router(module.router)
    return app
