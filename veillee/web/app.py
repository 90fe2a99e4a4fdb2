"""The app factory. Each area of the site is a router module listed in ``ROUTERS``; the live
records (tables and sheets) and their one sweeper are opened for the app's lifetime."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import FileResponse
from prometheus_client import make_asgi_app
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from veillee.bus import open_bus
from veillee.config import Settings
from veillee.store import Store
from veillee.tables import TableService, sweep_forever
from veillee.tables.chat import TableChat
from veillee.tables.live import Clock
from veillee.tables.sheets import SheetService
from veillee.tables.voice import VoiceRooms
from veillee.web.assets import REVALIDATE, Assets
from veillee.web.guards import BodyLimit

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


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    """Build the Veillée app for ``settings`` (default: from the environment).

    On startup the store and bus are opened, the table and sheet services made on them, and one
    sweeper started for both (every ``settings.sweep_interval_s``); all of it stops on
    shutdown. They are reachable as ``app.state.store``, ``.bus``, ``.tables``, ``.sheets``
    and ``.chat`` (the tables' chat, :class:`~veillee.tables.chat.TableChat`); the tables'
    voice rooms (:class:`~veillee.tables.voice.VoiceRooms`) as ``.voice``.
    The browser's files are ``app.state.assets`` (:class:`~veillee.web.assets.Assets`, mounted
    at ``/static``).
    Every request goes through :class:`~veillee.web.guards.BodyLimit` (no body is read past
    ``settings.max_message_bytes``) and Starlette's ``TrustedHostMiddleware`` (a ``Host`` that
    is not one of ``settings.public_origins``' is answered 400).
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
            tables = TableService(store, bus, settings, clock=clock)
            stack.push_async_callback(tables.close)
            sheets = SheetService(store, bus, settings.sheet_idle_s, clock=clock)
            app.state.store, app.state.bus = store, bus
            app.state.tables, app.state.sheets = tables, sheets
            app.state.voice = VoiceRooms(bus)
            stack.push_async_callback(app.state.voice.close)
            app.state.chat = TableChat(tables)
            sweeper = asyncio.create_task(
                sweep_forever((tables.sweep, sheets.sweep), settings.sweep_interval_s)
            )

            async def stop_sweeper() -> None:
                sweeper.cancel()
                await asyncio.gather(sweeper, return_exceptions=True)

            stack.push_async_callback(stop_sweeper)
            yield

    app = FastAPI(
        title="Veillée", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
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
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=settings.hosts(), www_redirect=False)
    app.mount("/metrics", make_asgi_app())
    app.mount("/static", assets, name="static")
    for module in modules:
        app.include_router(module.router)
    return app
