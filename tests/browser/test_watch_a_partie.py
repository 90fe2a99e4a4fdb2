"""Watch a partie go by (issue 11): on the how-to pages, Play runs a demonstration table to its
end with a caption per move in the page's language; Pause stops it, Step moves it by exactly one
move; "play this yourself" leads to the game's page."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page, expect

STATE = "() => document.getElementById('watch-section').dataset.state"
VERSION = "() => Number(document.getElementById('watch-section').dataset.version ?? -1)"
RECORD_CAPTIONS = """() => {
  window.captions = [];
  const node = document.getElementById("watch-caption");
  new MutationObserver(() => window.captions.push(node.textContent))
    .observe(node, { childList: true, characterData: true, subtree: true });
}"""


async def watch_to_the_end(page: Page) -> list[str]:
    await page.evaluate(RECORD_CAPTIONS)
    await page.get_by_role("button", name="Play", exact=True).click()
    await page.wait_for_function(f"() => ({STATE})() === 'over'", timeout=60000)
    captions: list[str] = await page.evaluate("() => window.captions")
    return captions


async def test_a_chouine_partie_goes_by_to_the_count_with_a_caption_per_move(
    live_server: str, phone: Page
) -> None:
    errors: list[str] = []
    phone.on("pageerror", lambda e: errors.append(str(e)))
    await phone.goto(live_server + "/chouine/how-to-play")
    await expect(phone.get_by_test_id("watch-caption")).to_have_text("Nothing is dealt yet.")
    captions = await watch_to_the_end(phone)
    assert re.match(
        r"(North|South) deals five cards each\. Trumps are \w+: the turn-up is", captions[0]
    )
    assert any(" leads the " in c for c in captions)
    assert any(" takes the trick: " in c for c in captions)
    last = captions[-1]
    assert "wins the partie" in last or "the partie is void" in last, last
    # A caption per move: the deal, then 16 tricks of two cards (unless a chouine ends it).
    assert len(captions) >= 33 or "declares a chouine" in last, len(captions)
    # Every hand is shown face up while it lasts; the board names its seats.
    board = phone.get_by_test_id("watch-board")
    await expect(board.get_by_text("North", exact=False).first).to_be_visible()
    end = phone.get_by_role("link", name="Play this yourself against the computer")
    await expect(end).to_be_visible()
    await end.click()
    await expect(phone).to_have_url(live_server + "/chouine")
    assert errors == []


async def test_a_charlemagne_hand_goes_by_in_french(live_server: str, browser: Browser) -> None:
    ctx = await browser.new_context(locale="fr-FR", viewport={"width": 1280, "height": 800})
    page = await ctx.new_page()
    await page.goto(live_server + "/charlemagne/how-to-play")
    await expect(page.locator("html")).to_have_attribute("lang", "fr")
    await page.evaluate(RECORD_CAPTIONS)
    await page.get_by_role("button", name="Lancer").click()
    await page.wait_for_function(f"() => ({STATE})() === 'over'", timeout=60000)
    captions = await page.evaluate("() => window.captions")
    assert captions[0].endswith("donne huit cartes à chacun et deux faces cachées au chien.")
    assert any(c.startswith("Le contrat\u00a0: ") or "Le contrat\u00a0: " in c for c in captions)
    assert "Contrat " in captions[-1] and (
        " réussi\u00a0: " in captions[-1] or " chuté\u00a0: " in captions[-1]
    )
    await expect(
        page.get_by_role("link", name="À vous de jouer avec un partenaire ordinateur")
    ).to_be_visible()
    # Four hands, face up, each card named.
    hands = page.get_by_test_id("watch-board").get_by_role("group", name="Main de ")
    assert await hands.count() == 4
    await ctx.close()


async def test_pause_holds_the_partie_and_step_moves_it_by_one(
    hooked_server: str, page: Page
) -> None:
    await page.goto(hooked_server + "/chouine/how-to-play")
    await page.get_by_role("button", name="Play", exact=True).click()
    await page.wait_for_function(f"() => ({VERSION})() >= 2")
    pause = page.get_by_role("button", name="Pause")
    await pause.click()
    await expect(pause).to_have_attribute("aria-pressed", "true")
    # A step asked for just before the pause lands.
    await expect(page.locator("#watch-section")).to_have_attribute("data-asking", "false")
    held = await page.evaluate(VERSION)
    caption = await page.get_by_test_id("watch-caption").text_content()
    # the talon's turn-up is named as such (it is no card played), with the trumps it set
    board = page.get_by_test_id("watch-board")
    await expect(board.locator(".watch-turn-up figcaption")).to_have_text("Turn-up")
    await expect(board.locator(".watch-trumps")).to_have_text(
        re.compile(r"^Trumps: (spades|hearts|diamonds|clubs)$")
    )
    await page.wait_for_timeout(800)  # eight times the pace: nothing moves while paused
    assert await page.evaluate(VERSION) == held
    step = page.get_by_role("button", name="Step")
    await step.click()
    await page.wait_for_function(f"() => ({VERSION})() === {held + 1}")
    await expect(page.get_by_test_id("watch-caption")).not_to_have_text(caption or "")
    await page.wait_for_timeout(600)
    assert await page.evaluate(VERSION) == held + 1
    # The keyboard reaches the controls: Step again from the keyboard.
    await step.focus()
    await page.keyboard.press("Enter")
    await page.wait_for_function(f"() => ({VERSION})() === {held + 2}")
    await pause.click()
    await expect(pause).to_have_attribute("aria-pressed", "false")
    await page.wait_for_function(f"() => ({VERSION})() >= {held + 4}")


@pytest.mark.parametrize("game", ["chouine", "charlemagne"])
async def test_on_a_phone_play_brings_the_board_into_view(
    live_server: str, browser: Browser, game: str
) -> None:
    """Play sits near the bottom of a small phone's screen: the board that appears below it is
    scrolled into view with the controls and the caption, not left to play out of sight."""
    ctx = await browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True, locale="fr-FR"
    )
    try:
        page = await ctx.new_page()
        await page.goto(f"{live_server}/lang/fr?next=/{game}/how-to-play")
        await page.get_by_test_id("watch-play").tap()
        board = page.get_by_test_id("watch-board")
        await expect(board).to_be_visible()
        await expect(board).to_be_in_viewport(ratio=0.3)
        await expect(page.get_by_test_id("watch-pause")).to_be_in_viewport()
        await expect(page.get_by_test_id("watch-caption")).to_be_in_viewport()
    finally:
        await ctx.close()
