"""A live server in a thread and Debian's Chromium through Playwright (async API).

Recipe: shared/TESTING.md. Playwright never downloads a browser here: it launches
``/usr/bin/chromium`` (or ``$VEILLEE_CHROMIUM``).
"""

from __future__ import annotations

import contextlib
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
from veillee.config import Settings, served_origins, transport_limits
from veillee.live import Clock
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


def server_config(settings: Settings, port: int, clock: Clock | None = None) -> uvicorn.Config:
    """uvicorn's configuration for a Veillée server with ``settings`` on 127.0.0.1:``port``, as
    ``veillee serve`` makes it: the public origins that address and the transport's limits from
    the settings. ``clock``: the services' clock (a test moves it to expire records)."""
    settings = settings.model_copy(update={"public_origins": served_origins("127.0.0.1", port)})
    return uvicorn.Config(
        create_app(settings, clock=clock),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        **transport_limits(settings),
    )


@contextlib.contextmanager
def serving(settings: Settings, clock: Clock | None = None) -> Iterator[str]:
    """Run a Veillée server with ``settings`` (and the services' ``clock``) in a thread; yields
    its base URL."""
    port = _free_port()
    server = uvicorn.Server(server_config(settings, port, clock))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn failed to start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def console_errors(page: Page) -> list[str]:
    """The errors ``page`` writes to the browser's console from now on (a failed request shows
    there), as a list that grows while the page runs."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


LIVE_LOG = """
window.liveSaid = [];
document.addEventListener("DOMContentLoaded", () => {
    const live = document.getElementById("live");
    if (!live) return;
    const heard = () => window.liveSaid.push(live.textContent);
    const all = { childList: true, characterData: true, subtree: true };
    new MutationObserver(heard).observe(live, all);
});
"""
"""An init script that keeps everything a page's live region says (``window.liveSaid``)."""


async def live_said(page: Page) -> list[str]:
    """What ``page``'s live region has said so far, in order (its context ran
    :data:`LIVE_LOG`)."""
    said: list[str] = await page.evaluate("() => window.liveSaid")
    return said


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a Veillée server (fresh SQLite, no pacing) running for the whole session."""
    data: Path = tmp_path_factory.mktemp("live")
    with serving(make_settings(data)) as url:
        yield url


@pytest.fixture(scope="module")
def leaving_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server (test hooks on, a quick computer) where a person away for one second has left
    (``stand_in_after_s``): for the tests of friends coming and going."""
    settings = make_settings(tmp_path_factory.mktemp("leaving"))
    settings.test_hooks = True
    settings.bot_delay_ms = 50
    settings.trick_pause_ms = 50
    settings.stand_in_after_s = 1.0
    with serving(settings) as url:
        yield url


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


@pytest.fixture(scope="session")
def hooked_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with the test hooks on (scripted deals, lowered targets) and the computer at a
    quick but visible pace: ``bot_delay_ms`` 100, ``trick_pause_ms`` 200."""
    settings = make_settings(tmp_path_factory.mktemp("hooked"))
    settings.test_hooks = True
    settings.bot_delay_ms = 100
    settings.trick_pause_ms = 200
    with serving(settings) as url:
        yield url
