"""A seat whose page is hidden (a background tab, whose timers the browser throttles) does not
flap away and back: in Chromium the page says it is hidden (the Page Visibility API), and the
server allows its late heartbeat a longer silence. Here the server's silence for a shown page
(1.5 s) is far below the page's heartbeat (10 s): a page that said nothing would be closed and
shown away within seconds, as a throttled background tab was."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
from httpx_ws import AsyncWebSocketSession, aconnect_ws
from playwright.async_api import Browser, expect

from tests.browser.conftest import serving
from tests.conftest import make_settings
from tests.web.sockets import receive, refusals

HIDDEN = """
let hidden = true;
Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
Object.defineProperty(document, "visibilityState", {
  configurable: true, get: () => (hidden ? "hidden" : "visible"),
});
window.showPage = () => { hidden = false; document.dispatchEvent(new Event("visibilitychange")); };
"""
"""Opens the page hidden, as a tab opened in the background; ``showPage()`` brings it to front."""


@pytest.fixture(scope="module")
def short_silence_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = make_settings(tmp_path_factory.mktemp("silence"))
    settings.silence_timeout_s = 1.5
    settings.hidden_silence_s = 60
    with serving(settings) as url:
        yield url


async def until(seen: Callable[[], bool], within: float = 10) -> None:
    """Wait until ``seen()`` (what the test's socket has heard) holds, ``within`` seconds."""
    async with asyncio.timeout(within):
        while not seen():
            await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def seat_socket(
    c: httpx.AsyncClient, base: str, table_id: str, token: str
) -> AsyncIterator[AsyncWebSocketSession]:
    url = base.replace("http", "ws") + f"/ws/tables/{table_id}"
    async with aconnect_ws(url, c, headers={"origin": base}) as ws:
        await ws.send_text(json.dumps({"type": "hello", "token": token, "version": None}))
        await receive(ws, "state")
        yield ws


async def test_a_hidden_page_keeps_its_seat_here(
    short_silence_server: str, browser: Browser
) -> None:
    base = short_silence_server
    async with httpx.AsyncClient(base_url=base) as c:
        made = await c.post("/api/tables", json={"game": "chouine", "shared": True})
        host: dict[str, Any] = made.json()
        async with seat_socket(c, base, host["table_id"], host["token"]) as ws:
            heard: list[list[int]] = []

            async def host_page() -> None:
                # The host's page, shown: it pings well within the short silence.
                while True:
                    await ws.send_text(json.dumps({"type": "ping"}))
                    with contextlib.suppress(TimeoutError):
                        while True:
                            message = json.loads(await asyncio.wait_for(ws.receive_text(), 0.3))
                            if message["type"] == "presence":
                                heard.append(message["here"])

            watching = asyncio.create_task(host_page())
            ctx = await browser.new_context(locale="en-GB")
            await ctx.add_init_script(HIDDEN)
            friend = await ctx.new_page()
            sockets: list[object] = []
            friend.on("websocket", lambda socket: sockets.append(socket))
            try:
                await friend.goto(base + host["url"])
                await expect(friend.get_by_test_id("hand").locator("button.card")).to_have_count(5)
                # Another page of the host's seat, shown, falls silent: by its close the hidden
                # friend's page has been silent longer than a shown page may be.
                try:
                    async with seat_socket(c, base, host["table_id"], host["token"]) as other:
                        assert (await receive(other, "error"))["code"] == "silent"
                        await asyncio.wait_for(other.receive_text(), 5)
                except Exception as exc:  # the close comes as an exception
                    assert refusals(exc) == [4408]
                since = next(n for n, here in enumerate(heard) if 1 in here)
                assert all(1 in here for here in heard[since:]), heard
                assert len(sockets) == 1  # never closed, never reconnected
                # Shown again, the page says so: its silence is a shown page's again.
                await friend.evaluate("() => window.showPage()")
                await until(lambda: heard[-1] == [0])
            finally:
                watching.cancel()
                await ctx.close()
