"""Driving a shared Charlemagne table from several browsers, as friends do: make the table on
the Charlemagne page, open each seat's link in a browser of its own, and answer whatever each
page asks, by clicks (:func:`tests.browser.charlemagne_player.answer`)."""

from __future__ import annotations

from playwright.async_api import Browser, BrowserContext, Page, expect

PLACES = {"partner": 2, "left": 1, "right": 3}


async def make_table(page: Page, base: str) -> dict[str, str]:
    """From the Charlemagne page, "Play with friends": the three seat links shown, by place."""
    await page.goto(base + "/charlemagne")
    await page.get_by_test_id("play-friends").click()
    await page.wait_for_url("**/charlemagne/table/*")
    await expect(page.get_by_test_id("waiting")).to_be_visible()
    await expect(page.locator("#table")).to_have_attribute("data-state", "seating")
    return {
        place: await page.get_by_test_id(f"seat-link-{place}").input_value() for place in PLACES
    }


async def open_link(browser: Browser, link: str) -> tuple[BrowserContext, Page]:
    """A friend's browser (a context of its own) opening ``link``."""
    ctx = await browser.new_context(locale="en-GB")
    page = await ctx.new_page()
    await page.goto(link)
    return ctx, page


async def give_to_computer(page: Page, places: tuple[str, ...]) -> None:
    """The maker (``page``) lets the computer play the seats at ``places`` (``"partner"``,
    ``"left"``, ``"right"``), one at a time, each seen taken before the next."""
    for place in places:
        await page.get_by_test_id(f"fill-{place}").click()
        await expect(page.get_by_test_id(f"seat-row-{place}")).to_have_attribute(
            "data-status", "computer"
        )
