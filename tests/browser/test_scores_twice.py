"""Two scorer phones on one sheet, in Chromium at 390×844, each entering the same hand at once:
the second phone says that another phone entered a hand just before its own, marks both rows,
and deletes its own with one tap. A hand entered after the other phone's row was shown, and a
phone's own hands kept while its answers were held, are not taken for such a pair."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.test_scores import pad_button, start_sheet
from tests.browser.test_scores_conflicts import SlowNetwork

TWICE = (
    "Another phone entered hand 1 (North & South: Won +1) just before this phone entered hand 2 "
    "(North & South: Won +1). Both are on the sheet: if they are one hand, delete one."
)


@pytest.fixture
async def second_phone(browser: Browser) -> AsyncIterator[tuple[Page, SlowNetwork]]:
    """Another phone whose sheet socket runs through a :class:`SlowNetwork` relay."""
    ctx = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB")
    page = await ctx.new_page()
    network = SlowNetwork()
    await page.route_web_socket(re.compile(r"/ws/sheets/"), network)
    yield page, network
    await ctx.close()


async def open_on_both(phone: Page, other: Page, live_server: str) -> None:
    await start_sheet(phone, live_server)
    await phone.locator("#share").tap()
    scorer_link = await phone.locator("#scorer-link").input_value()
    await phone.locator("#share-close").tap()
    await other.goto(scorer_link)
    await expect(other.locator("body")).to_have_attribute("data-net", "online")
    await expect(other.locator("body")).to_have_attribute("data-version", "0")


async def test_the_same_hand_entered_on_two_phones_at_once_is_pointed_out_and_deleted_in_a_tap(
    live_server: str, phone: Page, second_phone: tuple[Page, SlowNetwork]
) -> None:
    other, network = second_phone
    await open_on_both(phone, other, live_server)

    network.holding = True  # the other phone does not hear of this phone's hand yet
    await pad_button(phone, 0, "won").tap()
    await expect(phone.locator("#rows tr:not(.pending)")).to_have_count(1)
    await pad_button(other, 0, "won").tap()  # the same hand, on the sheet as it showed it
    await expect(phone.locator("#rows tr")).to_have_count(2)  # stored: both hands
    network.release()

    await expect(other.locator("#twice-text")).to_have_text(TWICE)
    await expect(other.locator("#rows tr.twice")).to_have_count(2)
    await expect(other.locator("#total-0")).to_have_text("2")
    # The phone whose hand came first has nothing to say: the other one entered after it.
    await expect(phone.locator("body")).to_have_attribute("data-version", "2")
    await expect(phone.locator("#twice")).to_be_hidden()

    await other.get_by_role("button", name="Delete hand 2").tap()
    for page in (phone, other):
        await expect(page.locator("#rows tr")).to_have_count(1)
        await expect(page.locator("#total-0")).to_have_text("1")
        await expect(page.locator("body")).to_have_attribute("data-version", "3")
    await expect(other.locator("#twice")).to_be_hidden()
    await expect(other.locator("#rows tr.twice")).to_have_count(0)


async def test_keep_both_leaves_the_two_hands(
    live_server: str, phone: Page, second_phone: tuple[Page, SlowNetwork]
) -> None:
    other, network = second_phone
    await open_on_both(phone, other, live_server)
    network.holding = True
    await pad_button(phone, 0, "won").tap()
    await expect(phone.locator("#rows tr:not(.pending)")).to_have_count(1)
    await pad_button(other, 0, "won").tap()
    await expect(phone.locator("#rows tr")).to_have_count(2)
    network.release()
    await expect(other.locator("#twice-text")).to_have_text(TWICE)

    await other.get_by_role("button", name="Keep both").tap()
    await expect(other.locator("#twice")).to_be_hidden()
    await expect(other.locator("#rows tr.twice")).to_have_count(0)
    for page in (phone, other):
        await expect(page.locator("#rows tr")).to_have_count(2)
        await expect(page.locator("#total-0")).to_have_text("2")


async def test_hands_entered_after_seeing_the_other_phones_or_on_this_phone_alone_are_not_flagged(
    live_server: str, phone: Page, second_phone: tuple[Page, SlowNetwork]
) -> None:
    other, network = second_phone
    await open_on_both(phone, other, live_server)
    await pad_button(phone, 0, "won").tap()
    await expect(other.locator("body")).to_have_attribute("data-version", "1")
    # The next hand, entered once the first is on this phone's sheet: a hand of its own.
    await pad_button(other, 0, "won").tap()
    await expect(other.locator("body")).to_have_attribute("data-version", "2")

    # Two hands of this phone while its answers are held (the second waits for the first's
    # answer): the first stored after the sheet this phone showed, yet its own.
    network.holding = True
    await pad_button(other, 1, "won").tap()
    await pad_button(other, 1, "won").tap()
    await expect(phone.locator("#rows tr")).to_have_count(3)
    network.release()
    await expect(other.locator("body")).to_have_attribute("data-version", "4")
    for page in (phone, other):
        await expect(page.locator("#rows tr")).to_have_count(4)
        await expect(page.locator("#twice")).to_be_hidden()
        await expect(page.locator("#rows tr.twice")).to_have_count(0)
