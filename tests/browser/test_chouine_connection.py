"""Connection trouble at the Chouine table: one message for one fact ("Reconnecting…" in the
banner only, then "Back"), in both languages; a table address without a seat; a table that
closes under an open page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.chouine_page import (
    Server,
    my_turn,
    new_phone,
    open_computer_table,
    play_a_card,
)
from tests.browser.conftest import console_errors
from veillee.web import i18n

SAID = """(words) => {
    // Visible places that say ``words`` (the screen-reader-only live region aside).
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const places = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const box = node.parentElement;
        if (node.data.includes(words) && box.checkVisibility() && !box.closest('.sr-only')) {
            places.push(box.id || box.className || box.tagName);
        }
    }
    return places;
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_going_offline_says_reconnecting_once_then_back(
    live_server: str, browser: Browser, lang: str
) -> None:
    reconnecting = i18n.t(lang, "chouine.table.reconnecting")
    ctx = await new_phone(browser, (390, 844), lang)
    page = await ctx.new_page()
    await open_computer_table(page, live_server)
    await my_turn(page, -1)
    turn = await page.get_by_test_id("turn-line").inner_text()
    banner = page.get_by_test_id("banner")
    await ctx.set_offline(True)
    await expect(banner).to_have_text(reconnecting)
    assert await page.evaluate(SAID, reconnecting) == ["banner"]
    await expect(page.get_by_test_id("turn-line")).to_have_text(turn)  # still the table's state
    # A tap gets an answer, from the banner: nothing else repeats it.
    await page.locator("#hand button.card").first.click(force=True)
    await expect(banner).to_have_class(re.compile("nudge"))
    await expect(page.get_by_test_id("refusal")).to_be_hidden()
    assert await page.evaluate(SAID, reconnecting) == ["banner"]
    await ctx.set_offline(False)
    await expect(banner).to_have_text(i18n.t(lang, "chouine.table.back"))
    assert await page.evaluate(SAID, reconnecting) == []
    await expect(banner).to_be_hidden()
    # And the match goes on.
    version = int(await page.locator("#table").get_attribute("data-version") or -1)
    await play_a_card(page)
    await page.wait_for_function(
        "v => Number(document.getElementById('table').dataset.version) > v", arg=version
    )
    await ctx.close()


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
