"""A deploy that players actually get: serve a build, change one script, restart the server on
the same data, load the page once, and the new script runs — on a page of the site, and on a
SquareScores sheet controlled by its service worker, whose hand entered offline before the
deploy is still sent once afterwards."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import httpx
from playwright.async_api import Browser, Page, TimeoutError, expect

from tests.browser.chouine_page import Server, new_phone
from tests.browser.test_scores import pad_button, start_sheet, tokens
from veillee.web.app import WEB

MARK = """
// Added by the deploy test: this build's script ran.
document.documentElement.dataset.deploy = "2";
const worker = navigator.serviceWorker?.controller;
document.documentElement.dataset.loadedUnder = worker ? worker.scriptURL : "none";
"""


def build_of_page_script(url: str) -> str:
    """The build in a /static/<build>/… address."""
    found = re.search(r"/static/([0-9a-f]{12})/", url)
    assert found, url
    return found.group(1)


async def script_build(page: Page, name: str) -> str:
    src = await page.locator(f'script[src$="{name}"]').get_attribute("src")
    return build_of_page_script(src or "")


WORKERS = """async () => {
  const r = await navigator.serviceWorker.getRegistration("/scores");
  const s = (w) => (w ? `${w.state} ${w.scriptURL}` : "none");
  return `controller: ${s(navigator.serviceWorker.controller)}; installing: ${s(r?.installing)}; `
    + `waiting: ${s(r?.waiting)}; active: ${s(r?.active)}`;
}"""


async def until_controlled_by(page: Page, build: str, seconds: float = 30) -> None:
    """Wait until the page's service worker is ``build``'s; else fail saying where the
    registration's workers stand (installing, waiting, active)."""
    try:
        await page.wait_for_function(
            "(b) => (navigator.serviceWorker.controller?.scriptURL ?? '').includes(b)",
            arg=f"build={build}",
            timeout=seconds * 1000,
        )
    except TimeoutError as timeout:
        raise AssertionError(
            f"not controlled by build {build}: {await page.evaluate(WORKERS)}"
        ) from timeout


async def test_one_changed_script_reaches_the_next_load_and_the_service_worker(
    tmp_path: Path, browser: Browser
) -> None:
    static = tmp_path / "static"
    shutil.copytree(WEB / "static", static)
    server = Server(tmp_path / "data", static_dir=static)
    server.start()
    ctx = await new_phone(browser, (390, 844), "en")
    page = await ctx.new_page()
    html = page.locator("html")
    try:
        # Build one: the game page (its script now in the browser's cache) and a sheet, under
        # its service worker, with a hand entered offline and not sent yet.
        await page.goto(server.url + "/chouine")
        sheet_id = await start_sheet(page, server.url)
        sheet_url = page.url.split("#")[0]
        mine = await tokens(page)
        await page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        first = await script_build(page, "sheet-page.js")
        await ctx.set_offline(True)
        await expect(page.locator("body")).to_have_attribute("data-net", "offline")
        await pad_button(page, 0, "won").tap()
        await expect(page.locator("#rows tr.pending")).to_have_count(1)
        await page.goto("about:blank")

        # The deploy: one script changes, the server restarts on the same data.
        server.stop()
        for name in ("scores/sheet-page.js", "table/lobby.js"):
            script = static / name
            script.write_text(script.read_text(encoding="utf-8") + MARK, encoding="utf-8")
        server.start()
        await ctx.set_offline(False)

        # One load of the sheet: the page came through the old worker, and the new script ran.
        await page.goto(sheet_url)
        await expect(html).to_have_attribute("data-deploy", "2")
        second = await script_build(page, "sheet-page.js")
        assert second != first
        await expect(html).to_have_attribute("data-loaded-under", re.compile(f"build={first}"))
        # The hand kept offline is sent, once.
        await expect(page.locator("#rows tr")).to_have_count(1)
        await expect(page.locator("#rows tr.pending")).to_have_count(0)
        async with httpx.AsyncClient(base_url=server.url) as client:
            auth = {"authorization": f"Bearer {mine['scorerToken']}"}
            sheet = (await client.get(f"/api/sheets/{sheet_id}", headers=auth)).json()["sheet"]
        assert sheet["status"]["rows"] == [[1, 0]] and sheet["version"] == 1
        # The new build's worker takes over, and opens the new build without a network.
        await until_controlled_by(page, second)
        await ctx.set_offline(True)
        await page.reload()
        await expect(html).to_have_attribute("data-deploy", "2")
        await expect(html).to_have_attribute("data-loaded-under", re.compile(f"build={second}"))
        await ctx.set_offline(False)

        # One load of the game page: its new script runs too (no worker there).
        await page.goto(server.url + "/chouine")
        await expect(html).to_have_attribute("data-deploy", "2")
    finally:
        await ctx.close()
        server.stop()
