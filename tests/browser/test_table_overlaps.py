"""Nothing on either game's table overlaps anything else, at 320×568, 568×320 (a phone
sideways), 390×844 and 1280×800, with the text at 100 % and at 200 % (the browser's text size
setting, as people with poorer sight set it: Chromium's default font sizes doubled), in English
and in French: each region's box, and the box of the text it holds (text spilling out of its
box counts; text cut short by an ellipsis spills nothing), meets no other region's, nor sticks
out of the screen sideways. A table that holds more than its screen (large text on a small
phone) scrolls down: it is measured from its top. Chouine with a trick on the table and cards
in the piles; Charlemagne at its first bid and once the play has begun."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, BrowserContext, Page, expect

from tests.browser.charlemagne_player import (
    NUMBER_DEAL,
    decision,
    number_deal_to_the_play,
    open_scripted,
)
from tests.browser.chouine_page import my_turn, new_phone, open_computer_table, play_a_card

SIZES = [(320, 568), (568, 320), (390, 844), (1280, 800)]
TEXT = [100, 200]

CHOUINE = [
    ".topbar",
    "#opp-name",
    "#opp-presence",
    "#opp-last-trick",
    "#opp-hand",
    "#opp-piles",
    "#opp-declarations",
    "#match-line",
    ".talon-cards",
    "#talon-count",
    "#trump-line",
    "#trick",
    "#my-piles",
    "#my-declarations",
    "#turn-line",
    "#refusal",
    "#my-tricks",
    "#swap",
    "#hand",
]
"""The Chouine table's regions (docs/protocol.md's test ids: the other side's name, last trick,
hand, piles and declarations; the match line, the talon and the trick; yours)."""

CHARLEMAGNE = [
    ".topbar",
    "#match-line",
    ".contract",
    "#tricks-line",
    "#seat-partner",
    "#seat-left",
    "#seat-right",
    "#trick",
    "#steps",
    "#last-trick",
    "#seat-you",
    "#turn-line",
    "#refusal",
    "#hand-note",
    "#hand",
]
"""The Charlemagne table's regions: what the hand is about, the three other seats, the trick or
the step before the play, the last trick, your seat, the turn line, the refusal and the hand."""

OVERLAPS = """(selectors) => {
    // Measured from the top: a tap may have scrolled a table that holds more than its screen.
    scrollTo(0, 0);
    document.getElementById("table").scrollTop = 0;
    // The part of `rect` that is painted: cut by every box from `from` up to `upTo` that
    // clips what overflows it (a line cut short by an ellipsis spills nothing).
    const clip = (rect, from, upTo) => {
        let [left, right, top, bottom] = [rect.left, rect.right, rect.top, rect.bottom];
        for (let box = from; box; box = box === upTo ? null : box.parentElement) {
            const style = getComputedStyle(box);
            const b = box.getBoundingClientRect();
            if (style.overflowX !== "visible") {
                [left, right] = [Math.max(left, b.left), Math.min(right, b.right)];
            }
            if (style.overflowY !== "visible") {
                [top, bottom] = [Math.max(top, b.top), Math.min(bottom, b.bottom)];
            }
        }
        return { left, right, top, bottom };
    };
    // Each region shown: its box joined with the box of the text inside it (which may spill).
    const regions = [];
    for (const selector of selectors) {
        for (const node of document.querySelectorAll(selector)) {
            const style = getComputedStyle(node);
            if (node.closest("[hidden]") || style.visibility === "hidden") continue;
            const box = node.getBoundingClientRect();
            if (box.width < 1 || box.height < 1) continue;
            const text = [];
            const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
            for (let t = walker.nextNode(); t; t = walker.nextNode()) {
                // (A card's own drawing, an SVG, is measured by its box.)
                if (t.parentElement instanceof SVGElement) continue;
                if (!t.parentElement.checkVisibility({ visibilityProperty: true })) continue;
                const range = document.createRange();
                range.selectNodeContents(t);
                for (const rect of range.getClientRects()) {
                    const painted = clip(rect, t.parentElement, node);
                    if (painted.right - painted.left >= 1 && painted.bottom - painted.top >= 1) {
                        text.push(painted);
                    }
                }
            }
            const all = [box, ...text];
            const most = (side, pick) => pick(...all.map((r) => r[side]));
            regions.push({
                selector, node,
                left: most("left", Math.min), right: most("right", Math.max),
                top: most("top", Math.min), bottom: most("bottom", Math.max),
            });
        }
    }
    const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
        && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const out = [];
    for (const r of regions) {
        if (r.left < -1 || r.right > innerWidth + 1) out.push(`${r.selector} sticks out sideways`);
    }
    for (let i = 0; i < regions.length; i += 1) {
        for (let j = i + 1; j < regions.length; j += 1) {
            const [a, b] = [regions[i], regions[j]];
            if (a.node.contains(b.node) || b.node.contains(a.node)) continue;
            if (meet(a, b)) out.push(`${a.selector} overlaps ${b.selector}`);
        }
    }
    return out;
}"""


async def page_with_text_at(ctx: BrowserContext, percent: int) -> Page:
    """A new page of ``ctx`` with the browser's text size at ``percent``: Chromium's default
    font sizes (16 px, 13 px for monospace), which that setting sets, scaled (DevTools
    protocol ``Page.setFontSizes``), before anything is laid out."""
    page = await ctx.new_page()
    cdp = await ctx.new_cdp_session(page)
    sizes = {"standard": 16 * percent // 100, "fixed": 13 * percent // 100}
    await cdp.send("Page.setFontSizes", {"fontSizes": sizes})
    return page


def cases() -> list[tuple[tuple[int, int], int, str]]:
    return [(size, text, lang) for size in SIZES for text in TEXT for lang in ("en", "fr")]


IDS = [f"{w}x{h}-{text}pc-{lang}" for (w, h), text, lang in cases()]


@pytest.mark.parametrize(("size", "text", "lang"), cases(), ids=IDS)
async def test_nothing_overlaps_at_the_chouine_table(
    live_server: str, browser: Browser, size: tuple[int, int], text: int, lang: str
) -> None:
    ctx = await new_phone(browser, size, lang)
    try:
        page = await page_with_text_at(ctx, text)
        await open_computer_table(page, live_server)
        version = await my_turn(page, -1)
        await play_a_card(page)  # a trick on the table, cards in the piles soon
        await my_turn(page, version)
        found = await page.evaluate(OVERLAPS, CHOUINE)
        assert found == [], found
    finally:
        await ctx.close()


@pytest.mark.parametrize(("size", "text", "lang"), cases(), ids=IDS)
async def test_nothing_overlaps_at_the_charlemagne_table(
    hooked_server: str, browser: Browser, size: tuple[int, int], text: int, lang: str
) -> None:
    ctx = await new_phone(browser, size, lang)
    try:
        page = await page_with_text_at(ctx, text)
        await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3, lang=lang)
        version = (await decision(page, -1))[2]
        found = await page.evaluate(OVERLAPS, CHARLEMAGNE)
        assert found == [], f"at the first bid: {found}"
        await number_deal_to_the_play(page, version)
        await expect(page.locator("#table")).to_have_attribute("data-mode", "play")
        found = await page.evaluate(OVERLAPS, CHARLEMAGNE)
        assert found == [], f"once the play has begun: {found}"
    finally:
        await ctx.close()
