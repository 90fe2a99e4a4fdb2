"""Counts on the table page take each language's plural form, chosen by the one translator with
Intl.PluralRules (French says "0 levée": zero is singular there; English says "0 tricks")."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, expect


@pytest.mark.parametrize(
    ("locale", "no_trick", "cards"),
    [("en-GB", "0 tricks", "cards"), ("fr-FR", "0 levée", "cartes")],
)
async def test_counts_take_the_plural_form_of_the_pages_language(
    live_server: str, browser: Browser, locale: str, no_trick: str, cards: str
) -> None:
    ctx = await browser.new_context(locale=locale)
    try:
        page = await ctx.new_page()
        await page.goto(live_server + "/chouine")
        await page.get_by_test_id("play-computer-5").click()
        await page.wait_for_url("**/chouine/table/*")
        await expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(5)
        await expect(page.locator("#my-piles")).to_have_text(no_trick)
        # The computer holds 5 cards, or 4 if it has led the first trick.
        await expect(page.get_by_test_id("opponent-hand")).to_have_attribute(
            "aria-label", re.compile(rf"^[45] {cards}$")
        )
    finally:
        await ctx.close()
