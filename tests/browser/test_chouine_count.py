"""The count screen of the Chouine table: the news is the heading (the match result on the last
screen, the partie's result otherwise), the buttons always in view on every phone, and every
number is the view's."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.chouine_page import SIZES, new_phone
from veillee.games import find
from veillee.web import i18n

SHOW_COUNT = """async ([state]) => {
    // The page's own modules, at the address the page loaded them from.
    const base = new URL('.', document.querySelector('script[src*="/table/"]').src);
    const { showCount } = await import(new URL('count.js', base).href);
    const { loadCatalog } = await import(new URL('../../live/i18n.js', base).href);
    showCount(state, await loadCatalog(document.getElementById('table').dataset.lang));
}"""

IN_VIEW = """(node) => {
    const r = node.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
}"""


def counted_partie(seed: int) -> dict[str, Any]:
    """Seat 0's view of a partie played to its count (no chouine), by the engine itself."""
    engine = find("chouine").engine
    rng = random.Random(seed)
    while True:
        state = engine.deal_random(rng, dealer=1)
        while state.to_act is not None:
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
        deal = engine.view(state, 0)
        if deal["outcome"]["chouine"] is None and deal["outcome"]["winner"] is not None:
            return deal


def state_message(deal: dict[str, Any], wins: list[int], over: bool) -> dict[str, Any]:
    """The state message at the end of partie 3 of a best of 5 against the computer, ``deal``
    the partie's view."""
    winner = deal["outcome"]["winner"] if over else None
    return {
        "type": "state",
        "version": 9,
        "seat": 0,
        "seats": ["human", "computer"],
        "shared": False,
        "view": {
            "match": {"best_of": 5, "wins": wins, "partie": 3, "over": over, "winner": winner},
            "deal": deal,
        },
    }


def chouine_state() -> dict[str, Any]:
    """The state message after seat 0's chouine of hearts won the match 3–0 (the view's shape,
    docs/chouine-views.md: no count after a chouine)."""
    deal = {
        "outcome": {
            "winner": 0,
            "totals": None,
            "card_points": None,
            "dix_de_der": None,
            "dix_de_der_points": None,
            "chouine": 0,
            "declarations": [
                [{"kind": "chouine", "suit": "H", "points": 0}],
                [{"kind": "mariage", "suit": "S", "points": 20}],
            ],
            "piles": [["7C", "8C"], []],
            "chouine_cards": ["AH", "TH", "KH", "QH", "JH"],
        }
    }
    return state_message(deal, [3, 0], True)


async def show(page: Page, message: dict[str, Any]) -> None:
    await page.evaluate(SHOW_COUNT, [message])
    await expect(page.get_by_test_id("count")).to_be_visible()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_last_screen_is_headed_by_the_match_result_and_its_button_in_view(
    live_server: str, browser: Browser, size: tuple[int, int], lang: str
) -> None:
    ctx = await new_phone(browser, size, lang)
    page = await ctx.new_page()
    await page.goto(live_server + "/chouine/table/made-up-id")
    deal = counted_partie(11)
    mine = deal["outcome"]["winner"] == 0
    wins = [3, 1] if mine else [1, 3]
    await show(page, state_message(deal, wins, over=True))
    count = page.get_by_test_id("count")
    heading = count.locator("h2").first
    key = "chouine.match.you_win" if mine else "chouine.match.computer_wins"
    await expect(heading).to_have_text(i18n.t(lang, key, you=wins[0], them=wins[1]))
    await expect(heading).to_have_attribute("data-testid", "match-result")
    partie = count.get_by_test_id("count-partie")
    result = i18n.t(lang, "chouine.count.you_win" if mine else "chouine.count.computer_wins")
    await expect(partie).to_have_text(i18n.t(lang, "chouine.count.partie", partie=3, result=result))
    assert (await heading.bounding_box() or {})["y"] < (await partie.bounding_box() or {})["y"]
    for node in (heading, count.get_by_test_id("new-match")):
        assert await node.evaluate(IN_VIEW), await node.inner_text()
    await expect(count.get_by_test_id("next-partie")).to_be_hidden()
    # The screen of a partie that does not end the match: its result heads it.
    await page.evaluate("() => document.getElementById('count').close()")
    await show(page, state_message(deal, [1, 1], over=False))
    await expect(heading).to_have_text(result)
    assert await count.get_by_test_id("next-partie").evaluate(IN_VIEW)
    await ctx.close()


async def test_the_count_shows_the_views_numbers(live_server: str, phone: Page) -> None:
    await phone.goto(live_server + "/chouine/table/made-up-id")
    deal = counted_partie(12)
    outcome = deal["outcome"]
    # Whatever the view says the dix de der scored is what the page shows.
    outcome["dix_de_der_points"] = 17
    await show(phone, state_message(deal, [1, 1], over=False))
    count = phone.get_by_test_id("count")
    dix = count.get_by_role("row", name="Dix de der")
    cells = await dix.locator("td").all_inner_texts()
    mine = outcome["dix_de_der"] == 0
    assert cells == (["17", "—"] if mine else ["—", "17"])
    total = await count.get_by_role("row", name="Total").locator("td").all_inner_texts()
    assert total == [str(outcome["totals"][0]), str(outcome["totals"][1])]


async def test_count_after_a_chouine_says_it_won_the_partie_and_no_cell_is_blank(
    live_server: str, phone: Page
) -> None:
    await phone.goto(live_server + "/chouine/table/made-up-id")
    await show(phone, chouine_state())
    count = phone.get_by_test_id("count")
    row = count.locator("tr.chouine")
    await expect(row).to_contain_text("Chouine of hearts")
    await expect(row.locator("td").first).to_have_text("Wins the partie")
    cells = await count.locator("tbody td").all_inner_texts()
    assert "0" not in cells and all(cell.strip() for cell in cells)
    await expect(count.locator("tr.declaration").nth(1).locator("td").first).to_have_text("—")
    # The result keeps "3–0" on one line on a phone.
    result = count.get_by_test_id("match-result")
    await expect(result).to_contain_text("3")
    lines = await result.evaluate(
        """(node) => {
            const text = node.firstChild;
            const at = text.data.indexOf('3');
            const range = document.createRange();
            range.setStart(text, at);
            range.setEnd(text, text.data.length);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }"""
    )
    assert lines == 1
