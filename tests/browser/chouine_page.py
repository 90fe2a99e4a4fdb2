"""Driving the Chouine table page as a person does, for the browser tests: open a computer
table, wait for a decision, play a legal card, and a server of one's own (pacing, restarts)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import uvicorn
from playwright.async_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import _free_port, server_config
from tests.conftest import make_settings

TURN_STATES = "my-turn,prompt,count,match-over"
SIZES = [(320, 568), (360, 640), (390, 844), (568, 320), (1280, 800)]
"""The screens every table page must fit: four phones (one turned sideways) and a desktop."""
LOCALES = {"en": "en-GB", "fr": "fr-FR"}


async def new_phone(browser: Browser, size: tuple[int, int], lang: str) -> BrowserContext:
    """A browser context of ``size`` (a touch phone below 700 px wide) speaking ``lang``."""
    width, height = size
    phone = width < 700
    return await browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=phone,
        is_mobile=phone,
        locale=LOCALES[lang],
    )


@contextlib.asynccontextmanager
async def two_phones(
    browser: Browser, size: tuple[int, int] = (390, 844), lang: str = "en"
) -> AsyncIterator[tuple[Page, Page]]:
    """Two people at one table: a page on a phone of ``size`` for you and one on a 390 × 844
    phone for your friend (:func:`new_phone`), both speaking ``lang``; closed on leaving."""
    you_ctx = await new_phone(browser, size, lang)
    friend_ctx = await new_phone(browser, (390, 844), lang)
    try:
        yield await you_ctx.new_page(), await friend_ctx.new_page()
    finally:
        await you_ctx.close()
        await friend_ctx.close()


async def open_computer_table(page: Page, base: str, best_of: int | None = None) -> None:
    """From the Chouine page, "Play against the computer" (the default length, or ``best_of``)."""
    await page.goto(base + "/chouine")
    button = (
        page.locator("#game-page button.primary")
        if best_of is None
        else page.get_by_test_id(f"play-computer-{best_of}")
    )
    await button.click()
    await page.wait_for_url("**/chouine/table/*")
    await expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(5)


async def wait_for_decision(page: Page, after_version: int) -> tuple[str, int]:
    """Wait until the page asks something of us at a version newer than ``after_version``."""
    await page.wait_for_function(
        """([states, v]) => {
            const t = document.getElementById('table');
            return states.split(',').includes(t.dataset.state) && Number(t.dataset.version) > v;
        }""",
        arg=[TURN_STATES, after_version],
    )
    table = page.locator("#table")
    return (
        await table.get_attribute("data-state") or "",
        int(await table.get_attribute("data-version") or -1),
    )


async def my_turn(page: Page, version: int) -> int:
    """Wait for our turn to play a card (answering a count or prompt on the way); the version."""
    while True:
        state, version = await wait_for_decision(page, version)
        if state == "my-turn":
            return version
        if state == "prompt":
            await page.get_by_test_id("prompt-continue").click()
        elif state == "count":
            await page.get_by_test_id("next-partie").click()
        else:
            await page.get_by_test_id("new-match").click()


async def play_a_card(page: Page, *, last: bool = False) -> str:
    """Tap a legal card (the first, or the last), playing it without declaring; its code."""
    card = page.locator('#hand button.card[data-legal="true"]')
    card = card.last if last else card.first
    code = await card.get_attribute("data-card") or ""
    await card.click()
    chooser = page.get_by_test_id("declare-chooser")
    if await chooser.is_visible():
        await chooser.get_by_test_id("play-plain").click()
    return code


async def open_menu(page: Page) -> None:
    """Open the top bar's menu."""
    menu = page.get_by_test_id("menu")
    if await menu.get_attribute("open") is None:
        await menu.locator("summary").click()


class Server:
    """A Veillée server of one's own on a fixed port, which can be stopped and started again on
    the same data; ``settings`` override the test settings (pacing, static files…)."""

    def __init__(self, data: Path, **settings: Any) -> None:
        self.data = data
        self.settings = settings
        self.port = _free_port()
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        settings = make_settings(self.data).model_copy(update=self.settings)
        self.server = uvicorn.Server(server_config(settings, self.port))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline
            time.sleep(0.02)

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        self.server.should_exit = True
        self.thread.join(timeout=10)
