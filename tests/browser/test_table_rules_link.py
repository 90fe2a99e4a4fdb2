"""The table's menu opens the game's rules without losing the table (issue 11): the rules
open in a tab of their own, and the table, still in its tab, plays on."""

from __future__ import annotations

from playwright.async_api import BrowserContext, Page, expect

from tests.browser.charlemagne_player import decision, open_scripted, play_hand
from tests.browser.chouine_page import my_turn, open_computer_table, open_menu, play_a_card


async def open_rules(context: BrowserContext, page: Page, heading: str) -> None:
    """Open the menu, follow its rules link to a new tab, check that tab, and close it."""
    await open_menu(page)
    rules = page.get_by_test_id("rules")
    await expect(rules).to_have_attribute("target", "_blank")
    async with context.expect_page() as opened:
        await rules.click()
    tab = await opened.value
    await tab.wait_for_load_state()
    await expect(tab.get_by_role("heading", level=1)).to_have_text(heading)
    await expect(tab.get_by_role("button", name="Play", exact=True)).to_be_visible()
    await tab.close()


async def test_the_chouine_menu_opens_the_rules_and_the_table_plays_on(
    hooked_server: str, context: BrowserContext, page: Page
) -> None:
    await open_computer_table(page, hooked_server)
    table_url = page.url
    version = await my_turn(page, -1)
    await open_rules(context, page, "How to play Chouine")
    assert page.url == table_url
    await expect(page.get_by_test_id("table-lost")).to_be_hidden()
    await expect(page.get_by_test_id("menu")).not_to_have_attribute("open", "")
    await play_a_card(page)
    await my_turn(page, version)
    # Coming back later by reload finds the same table (the seat token stays in this tab).
    await page.reload()
    await expect(page.get_by_test_id("hand").locator("button.card")).not_to_have_count(0)
    await expect(page.get_by_test_id("table-lost")).to_be_hidden()


async def test_the_charlemagne_menu_opens_the_rules_and_the_table_plays_on(
    hooked_server: str, context: BrowserContext, page: Page
) -> None:
    await open_scripted(page, hooked_server)
    _, _, version = await decision(page, -1)
    await open_rules(context, page, "How to play Charlemagne")
    await expect(page.get_by_test_id("table-lost")).to_be_hidden()
    assert "/charlemagne/table/" in page.url
    # The table is still live: the hand is played to its end from this tab.
    _, after = await play_hand(page, version - 1)
    assert after > version
