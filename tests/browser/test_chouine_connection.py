"""Connection trouble at the Chouine table: a table address without a seat; a table that closes
under an open page. (Going offline and coming back is the table page's, for every game:
test_table_page.py.)"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect

from tests.browser.chouine_page import Server, open_computer_table
from tests.browser.conftest import console_errors


async def test_a_table_url_that_leads_nowhere_says_there_is_no_table_with_a_way_on(
    live_server: str, page: Page
) -> None:
    errors = console_errors(page)
    await page.goto(live_server + "/chouine/table/no-such-table")
    lost = page.get_by_test_id("table-lost")
    await expect(lost.locator("p").first).to_have_text(
        "There is no table here: it has closed, or the link is wrong."
    )
    assert errors == []  # foreseen by the page: no seat request failed
    link = lost.get_by_role("link", name="Start a match")
    await expect(link).to_have_attribute("href", "/chouine")
    box = await link.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44


async def test_a_table_that_closes_under_the_page_says_there_is_no_table_any_more(
    browser: Browser, tmp_path: Path
) -> None:
    server = Server(tmp_path, computer_table_idle_s=1, sweep_interval_s=0.3)
    server.start()
    ctx = await browser.new_context(locale="en-GB")
    try:
        page = await ctx.new_page()
        await open_computer_table(page, server.url)
        # Left idle, the table is swept: its socket is closed for good (4404).
        lost = page.get_by_test_id("table-lost")
        await expect(lost.locator("p").first).to_have_text(
            "There is no table here: it has closed, or the link is wrong.", timeout=10_000
        )
        await expect(page.get_by_test_id("banner")).to_be_hidden()
    finally:
        await ctx.close()
        server.stop()
