"""Tests that need a server of their own: a restart (connection trouble, then the match resumes)
and real pacing of the computer's moves."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import uvicorn
from playwright.async_api import Page, expect

from tests.browser.conftest import _free_port
from tests.conftest import make_settings
from veillee.web import create_app


class Server:
    """A Veillée server on a fixed port that can be stopped and started again."""

    def __init__(self, data: Path, **settings: int) -> None:
        self.data = data
        self.settings = settings
        self.port = _free_port()
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        app = create_app(make_settings(self.data).model_copy(update=self.settings))
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
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


async def test_server_restart_shows_reconnecting_then_resumes(tmp_path: Path, page: Page) -> None:
    server = Server(tmp_path)
    server.start()
    try:
        await page.goto(server.url + "/chouine")
        await page.get_by_role("button", name="Play against the computer").click()
        await page.wait_for_url("**/chouine/table/*")
        await expect(page.locator("#hand button.card")).to_have_count(5)
        await page.wait_for_function(
            "() => ['my-turn', 'prompt'].includes(document.getElementById('table').dataset.state)"
        )
        version = await page.locator("#table").get_attribute("data-version")
        hand = await page.locator("#hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        server.stop()
        banner = page.get_by_test_id("banner")
        await expect(banner).to_have_text("Reconnecting…")
        server.start()
        await expect(banner).to_have_text("Back", timeout=15000)
        await expect(page.locator("#table")).to_have_attribute("data-version", version or "")
        again = await page.locator("#hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        assert again == hand
        await expect(banner).to_be_hidden()
        # And the match goes on.
        await page.locator('#hand button.card[data-legal="true"]').first.click()
        chooser = page.get_by_test_id("declare-chooser")
        if await chooser.is_visible():
            await chooser.get_by_test_id("play-plain").click()
        await expect(page.locator("#hand button.card")).to_have_count(5)
        await page.wait_for_function(
            "v => Number(document.getElementById('table').dataset.version) > v",
            arg=int(version or 0),
        )
    finally:
        server.stop()


async def test_computer_moves_are_paced_and_the_trick_stays_a_moment(
    tmp_path: Path, page: Page
) -> None:
    """With pacing on, the computer's move comes after ``bot_delay_ms`` ("The computer is
    thinking…" meanwhile) and the finished trick stays in view for ``trick_pause_ms``."""
    server = Server(tmp_path, bot_delay_ms=400, trick_pause_ms=700)
    server.start()
    try:
        await page.goto(server.url + "/chouine")
        await page.get_by_role("button", name="Play against the computer").click()
        await page.wait_for_url("**/chouine/table/*")
        turn = page.get_by_test_id("turn-line")
        trick = page.get_by_test_id("trick")
        # Play until the computer has to follow our lead.
        for _ in range(20):
            await page.wait_for_function(
                "() => document.getElementById('table').dataset.state === 'my-turn'"
            )
            # (The trick area may still show the trick just gathered: ask the turn line.)
            leading = await turn.inner_text() == "Your turn — lead a card"
            await page.locator('#hand button.card[data-legal="true"]').first.click()
            chooser = page.get_by_test_id("declare-chooser")
            if await chooser.is_visible():
                await chooser.get_by_test_id("play-plain").click()
            if leading:
                break
        else:
            raise AssertionError("never led a trick")
        await expect(turn).to_have_text("The computer is thinking…")
        await expect(trick.locator("[data-card]")).to_have_count(1)  # our card, alone a while
        await expect(trick).to_have_class(re.compile("gathering"))
        await expect(trick.locator("[data-card]")).to_have_count(2)
        await expect(trick).not_to_have_class(re.compile("gathering"), timeout=3000)
    finally:
        server.stop()
