"""The SquareScores sheet page on small phones (320×568 to 390×844): rows enough in sight above a
pad that is whole on the screen, every button a thumb's size; the network banner takes its own
room, above the column headings, and its coming moves nothing of the pad."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from tests.browser.tap_targets import clipped, out_of_view, small_targets, words_broken
from tests.browser.test_scores import pad_button

SIZES = [(360, 640), (390, 844)]


@pytest_asyncio.fixture(params=SIZES, ids=["360x640", "390x844"])
async def small_phone(browser: Browser, request: pytest.FixtureRequest) -> AsyncIterator[Page]:
    """A French phone (the longer words) of each size, on a new sheet whose race to ten is on
    (no hand limit: as many rows as the test enters)."""
    width, height = request.param
    ctx = await browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        locale="fr-FR",
    )
    page = await ctx.new_page()
    yield page
    await ctx.close()


async def start_racing_sheet(page: Page, live_server: str) -> None:
    await page.goto(live_server + "/scores")
    await page.locator("#start").tap()
    await expect(page.locator("body")).to_have_attribute("data-net", "online")
    await page.locator("#race").check()
    await expect(page.locator("body")).to_have_attribute("data-version", "1")


async def enter_hands(page: Page, count: int, version: int = 1) -> None:
    """Tap ``count`` won hands, each side in turn, waiting for each to be stored."""
    for n in range(count):
        await pad_button(page, n % 2, "won").tap()
        await expect(page.locator("body")).to_have_attribute("data-version", str(version + n + 1))


def overlap(a: dict, b: dict) -> bool:
    """Whether two bounding boxes share more than half a pixel each way."""
    across = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    down = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return across > 0.5 and down > 0.5


async def boxes(page: Page, selector: str) -> list[dict]:
    """The bounding boxes of the visible elements of ``selector``."""
    found = []
    for node in await page.locator(selector).all():
        box = await node.bounding_box()
        if box and await node.is_visible():
            found.append(box)
    return found


async def test_the_offline_banner_covers_no_heading_and_moves_no_button(
    live_server: str, small_phone: Page
) -> None:
    page = small_phone
    await start_racing_sheet(page, live_server)
    await enter_hands(page, 1)
    pad_before = await pad_button(page, 0, "won").bounding_box()  # a short sheet: nothing stuck
    await page.context.set_offline(True)
    await expect(page.locator("body")).to_have_attribute("data-net", "offline")
    banner = page.locator("#net")
    await expect(banner).to_be_visible()
    assert await pad_button(page, 0, "won").bounding_box() == pad_before, pad_before

    # Offline, rows are still entered: enough for the sheet to scroll, its headings stuck at top.
    for n in range(8):
        await pad_button(page, n % 2, "won").tap()
        await expect(page.locator("#rows tr.pending")).to_have_count(n + 1)
    viewport = page.viewport_size
    assert viewport
    # At the top, the banner comes before the settings line; scrolled, it stays in sight and the
    # column headings stick below it (the settings line and the rows go under both).
    for scroll, headings in [
        ("0", "#sheet-table th, #settings-line"),
        ("120", "#sheet-table th"),
        ("document.documentElement.scrollHeight", "#sheet-table th"),
    ]:
        await page.evaluate(f"() => window.scrollTo(0, {scroll})")
        await page.wait_for_timeout(50)
        shown = await banner.bounding_box()
        assert shown and shown["y"] >= -0.5 and shown["y"] + shown["height"] <= viewport["height"]
        for heading in await boxes(page, headings):
            assert heading["y"] >= -0.5, (scroll, heading)  # each heading in sight
            assert not overlap(shown, heading), (scroll, shown, heading)
        for control in await boxes(page, "#dock" if scroll != "0" else "#dock, #race-wrap"):
            assert not overlap(shown, control), (scroll, shown, control)


@pytest.mark.parametrize("locale", ["fr-FR", "en-GB"])
@pytest.mark.parametrize(
    ("size", "rows"),
    [((360, 640), 5), ((390, 844), 5), ((320, 568), 4)],
    ids=["360x640", "390x844", "320x568"],
)
async def test_rows_enough_show_above_a_pad_whole_on_the_screen(
    live_server: str, browser: Browser, size: tuple[int, int], rows: int, locale: str
) -> None:
    # At 360×640 the pad, its actions and the race switch took two thirds of the screen: two
    # rows and a half showed above it.
    width, height = size
    ctx = await browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=True, locale=locale
    )
    try:
        page = await ctx.new_page()
        await start_racing_sheet(page, live_server)
        await enter_hands(page, 9)
        head = await page.locator("#side-name-0").bounding_box()
        dock = await page.locator("#dock").bounding_box()
        assert head and dock
        # the headings are stuck at the top (the sheet has scrolled to its newest row)
        assert abs(head["y"]) < 1, head
        in_sight = [
            box
            for box in await boxes(page, "#rows tr")
            if box["y"] >= head["y"] + head["height"] - 1
            and box["y"] + box["height"] <= dock["y"] + 1
        ]
        assert len(in_sight) >= rows, (len(in_sight), head, dock)
        newest = await page.locator("#rows tr").last.bounding_box()
        assert newest and newest["y"] + newest["height"] <= dock["y"] + 1, (newest, dock)
        # the whole pad and its actions are on the screen, none cut, all thumb-sized
        controls = [
            "#pad button.outcome",
            "#pad .pad-title",
            "#actions button",
            "#total-0",
            "#total-1",
        ]
        assert await out_of_view(page, controls) == []
        assert await clipped(page, ["#pad button.outcome", "#actions button"]) == []
        assert await words_broken(page, ["#pad button.outcome", "#match-state"]) == []
        assert await small_targets(page) == []
        assert await page.locator("#pad button.outcome").count() == 10
    finally:
        await ctx.close()
