"""Connection trouble: the server goes away and comes back on the same store; the page shows a
thin "Reconnecting…" banner, then resumes the match where it was."""

from __future__ import annotations

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

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = _free_port()
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        app = create_app(make_settings(self.data))
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
