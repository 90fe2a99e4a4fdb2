"""Every page of the site on a phone, in both languages: every tap target at least 44 × 44 px
(links in bars included), the top bar on one line, nothing scrolling sideways."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from tests.browser.chouine_page import new_phone
from tests.browser.tap_targets import bar_lines, small_targets

PAGES = [
    "/",
    "/chouine",
    "/scores",
    "/charlemagne",
    "/no-such-page",
    "/scores/aluette",
    "/chouine/how-to-play",
    "/charlemagne/how-to-play",
    "/scores/aluette/how-to-play",
]


@pytest.mark.parametrize("size", [(320, 568), (360, 640)], ids=["320", "360"])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_every_page_has_thumb_sized_targets_and_a_one_line_bar(
    live_server: str, browser: Browser, size: tuple[int, int], lang: str
) -> None:
    ctx = await new_phone(browser, size, lang)
    page = await ctx.new_page()
    try:
        for path in PAGES:
            await page.goto(live_server + path)
            assert await small_targets(page) == [], path
            assert await bar_lines(page) == 1, path
            width = await page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= size[0], path
        # A score sheet, as its scorer sees it (its bar links back to SquareScores).
        await page.goto(live_server + "/scores")
        await page.locator("#start").tap()
        await expect(page.locator("body")).to_have_attribute("data-net", "online")
        await expect(page.locator(".topbar-link")).to_be_visible()
        assert await small_targets(page) == []
        assert await bar_lines(page) == 1
    finally:
        await ctx.close()
