"""The Chouine table from the keyboard: one card of the hand is tabbable, and focus stays in the
hand as cards are played (arrow keys move, Enter plays)."""

from __future__ import annotations

from playwright.async_api import Page

from tests.browser.chouine_page import my_turn, open_computer_table

HAND_FOCUS = """() => {
    const cards = [...document.querySelectorAll('#hand button.card')];
    return {
        tabbable: cards.filter((c) => c.tabIndex === 0).length,
        inHand: document.getElementById('hand').contains(document.activeElement),
    };
}"""


async def test_keyboard_play_keeps_one_card_tabbable_and_focus_in_the_hand(
    live_server: str, page: Page
) -> None:
    await open_computer_table(page, live_server)
    version = await my_turn(page, -1)
    await page.locator("#hand button.card").first.focus()
    for _ in range(4):
        await page.keyboard.press("End")
        await page.keyboard.press("Enter")
        chooser = page.get_by_test_id("declare-chooser")
        if await chooser.is_visible():
            await chooser.get_by_test_id("play-plain").focus()
            await page.keyboard.press("Enter")
        version = await my_turn(page, version)
        # The played card's button is gone; focus comes back to the hand, on one card.
        await page.wait_for_function(f"() => ({HAND_FOCUS})().inHand")
        assert await page.evaluate(HAND_FOCUS) == {"tabbable": 1, "inHand": True}
    # Tab from just before the hand lands on a card of it (the one tabbable card).
    await page.locator("#hand").evaluate(
        """(n) => {
            const mark = document.createElement('span');
            mark.tabIndex = -1;
            n.before(mark);
            mark.focus();
        }"""
    )
    await page.keyboard.press("Tab")
    assert (await page.evaluate(HAND_FOCUS))["inHand"]
