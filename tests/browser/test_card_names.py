"""Card buttons are named for what they show (WCAG 2.5.3, label in name): on the Chouine and
Charlemagne tables, in French and English, each card button's accessible name begins with the
text drawn on the card ("J♥, Jack of hearts"; a joker "B BIG, Big joker"), and axe-core's
``label-content-name-mismatch`` checks every card button and faults none."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.accessibility import axe_rule
from tests.browser.charlemagne_player import decision, open_scripted
from tests.browser.chouine_page import LOCALES, open_computer_table
from tests.browser.test_charlemagne_page import JOKER_DEAL

DRAWN = """cards => cards.map((card) => {
  // The card's text as drawn: its text nodes (a <use> copy of an index adds none).
  const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
  let text = "";
  for (let node = walker.nextNode(); node; node = walker.nextNode()) text += node.nodeValue;
  return [card.dataset.card, text.replace(/\\s+/g, " ").trim(), card.getAttribute("aria-label")];
})"""


async def names_begin_with_what_cards_show(page: Page) -> dict[str, str]:
    """Assert each card button's name begins with its drawn text, and that axe's rule checked
    every card button without fault; the names by card code."""
    cards = page.locator("button.card")
    found = await cards.evaluate_all(DRAWN)
    assert found, "no card button on the page"
    for code, drawn, name in found:
        assert drawn and name.lower().startswith(drawn.lower()), (code, drawn, name)
    violations, checked = await axe_rule(page, "label-content-name-mismatch")
    assert violations == []
    assert {f'button[data-card="{code}"]' for code, _, _ in found} <= set(checked)
    return {code: name for code, _, name in found}


@pytest.mark.parametrize(
    ("lang", "shown"),
    [("en", r"^([AKQJ]|[7-9]|10)[♠♥♦♣], \w+ of \w+"),
     ("fr", r"^([ARDV]|[7-9]|10)[♠♥♦♣], \w+ de \w+")],
)  # fmt: skip
async def test_chouine_card_names_begin_with_the_drawn_index(
    live_server: str, browser: Browser, lang: str, shown: str
) -> None:
    ctx = await browser.new_context(locale=LOCALES[lang])
    try:
        page = await ctx.new_page()
        await open_computer_table(page, live_server)
        names = await names_begin_with_what_cards_show(page)
        for name in names.values():
            assert re.match(shown, name), name
    finally:
        await ctx.close()


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("en", {"BJ": "B BIG, Big joker", "LJ": "L LITTLE, Little joker",
             "JH": "J♥, Jack of hearts", "QH": "Q♥, Queen of hearts"}),
     ("fr", {"BJ": "G GRAND, Grand joker", "LJ": "P PETIT, Petit joker",
             "JH": "V♥, Valet de cœur", "QH": "D♥, Dame de cœur"})],
)  # fmt: skip
async def test_charlemagne_card_names_begin_with_the_drawn_index(
    hooked_server: str, page: Page, lang: str, expected: dict[str, str]
) -> None:
    await open_scripted(page, hooked_server, JOKER_DEAL, dealer=3, lang=lang)
    await decision(page, -1)
    await expect(page.locator("#hand button.card")).to_have_count(8)
    names = await names_begin_with_what_cards_show(page)
    for code, name in expected.items():
        # Outside the play the cards rest, named with the reason they may not be played now.
        assert names[code] == name or names[code].startswith(f"{name} — "), (code, names[code])
