"""A live server in a thread and Debian's Chromium through Playwright (async API).

Recipe: shared/TESTING.md. Playwright never downloads a browser here: it launches
``/usr/bin/chromium`` (or ``$VEILLEE_CHROMIUM``).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
import uvicorn
from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from tests.conftest import make_settings
from veillee.web import create_app

CHROMIUM = os.environ.get("VEILLEE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a Veillée server (fresh SQLite, no pacing) running for the whole session."""
    data: Path = tmp_path_factory.mktemp("live")
    port = _free_port()
    app = create_app(make_settings(data))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn failed to start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest_asyncio.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        await b.close()


@pytest_asyncio.fixture
async def context(browser: Browser) -> AsyncIterator[BrowserContext]:
    ctx = await browser.new_context(locale="en-GB")
    yield ctx
    await ctx.close()


@pytest_asyncio.fixture
async def page(context: BrowserContext) -> Page:
    return await context.new_page()


@pytest_asyncio.fixture
async def phone(browser: Browser) -> AsyncIterator[Page]:
    """A page in a 390×844 touch viewport (a phone held upright)."""
    ctx = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB")
    yield await ctx.new_page()
    await ctx.close()
