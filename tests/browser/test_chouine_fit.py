"""The Chouine table fits the phones people have, in both languages: at 320×568, 360×640,
390×844, 568×320 (sideways) and 1280×800 the whole hand and the turn line are in view as the
table opens, nothing scrolls sideways, the top bar is one line, every tap target is at least
44 × 44 px (the menu's too), no region of the table overlaps another, and every turn line and
every refusal the catalogs hold fits the room kept for it; the other side's declarations all
show, however many, in the one row kept for them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.chouine_page import (
    SIZES,
    my_turn,
    new_phone,
    open_computer_table,
    open_menu,
    play_a_card,
)
from tests.browser.tap_targets import bar_lines, clipped, out_of_view, small_targets
from veillee.web import i18n

REGIONS = [".far", ".middle", ".seat-row.mine", ".status", ".actions", "#hand"]

INSIDE_JS = """
    const inside = (r, box) => r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5
        && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
    const meet = (r, q) => r.left < q.right - 0.5 && q.left < r.right - 0.5
        && r.top < q.bottom - 0.5 && q.top < r.bottom - 0.5;
"""

OVERLAPS = (
    """(selectors) => {"""
    + INSIDE_JS
    + """
    // Pairs of regions whose boxes overlap, and regions that stick out of the table.
    const table = document.getElementById('table').getBoundingClientRect();
    const boxes = selectors.map((s) => [s, document.querySelector(s).getBoundingClientRect()]);
    const out = [];
    for (const [s, r] of boxes) if (!inside(r, table)) out.push(`${s} outside the table`);
    for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) {
            if (meet(boxes[i][1], boxes[j][1])) out.push(`${boxes[i][0]} overlaps ${boxes[j][0]}`);
        }
    }
    return out;
}"""
)

FITS = """([turns, refusals]) => {
    // Every turn line on one line, every refusal within its reserved room; the misfits.
    const line = document.getElementById('turn-line');
    const box = document.getElementById('refusal');
    const slot = box.parentElement;
    const keep = [line.textContent, box.textContent, box.hidden];
    const out = [];
    for (const text of turns) {
        line.textContent = text;
        const wide = line.scrollWidth > line.clientWidth + 1;
        if (wide || line.scrollHeight > line.clientHeight + 1) out.push(text);
    }
    box.hidden = false;
    for (const text of refusals) {
        box.textContent = text;
        const tall = box.scrollHeight > box.clientHeight + 1;
        if (tall || box.offsetHeight > slot.clientHeight + 1) out.push(text);
    }
    [line.textContent, box.textContent, box.hidden] = keep;
    return out;
}"""

INSIDE = (
    """(selectors) => {"""
    + INSIDE_JS
    + """
    // Elements of the middle that its box cuts off.
    const middle = document.querySelector('.middle').getBoundingClientRect();
    const out = [];
    for (const s of selectors) {
        for (const node of document.querySelectorAll(s)) {
            const r = node.getBoundingClientRect();
            if (r.width && !inside(r, middle)) out.push(s);
        }
    }
    return out;
}"""
)


def catalog_texts(lang: str, prefix: str) -> list[str]:
    return [text for key, text in i18n.catalog(lang).items() if key.startswith(prefix)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_table_fits_the_screen(
    live_server: str, browser: Browser, size: tuple[int, int], lang: str
) -> None:
    ctx = await new_phone(browser, size, lang)
    page = await ctx.new_page()
    await open_computer_table(page, live_server)
    version = await my_turn(page, -1)
    await play_a_card(page)  # a trick on the table, cards in both piles soon
    await my_turn(page, version)
    assert await page.evaluate("() => [scrollX, scrollY]") == [0, 0]
    assert await out_of_view(page, ["#hand button.card", "#turn-line", ".topbar"]) == []
    width = await page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= size[0], "the page scrolls sideways"
    assert await bar_lines(page) == 1
    whole = ["#score", ".topbar-middle", ".topbar-game", "#turn-line", "#match-line", ".seat-head"]
    assert await clipped(page, [*whole, ".actions"]) == []
    assert await page.evaluate(OVERLAPS, REGIONS) == []
    assert await page.evaluate(INSIDE, [".talon", "#trick .mini-card", "#match-line"]) == []
    # Whatever the trumps are, the talon's words fit beside the trick.
    trump_line = page.locator("#trump-line")
    for suit in "SHDC":
        words = i18n.t(lang, "chouine.table.trump", suit=i18n.t(lang, f"card.suit.{suit}"))
        await trump_line.evaluate("(node, words) => { node.textContent = words; }", words)
        assert await page.evaluate(INSIDE, [".talon", "#trick"]) == [], words
    assert await small_targets(page) == []
    turns = catalog_texts(lang, "chouine.turn.")
    refusals = catalog_texts(lang, "reason.")
    assert await page.evaluate(FITS, [turns, refusals]) == []
    await open_menu(page)
    await expect(page.locator(".menu-panel")).to_be_visible()
    assert await out_of_view(page, [".menu-panel"]) == []
    assert await small_targets(page) == []
    await ctx.close()


async def test_trick_viewer_cards_are_readable_on_a_phone(live_server: str, phone: Page) -> None:
    await open_computer_table(phone, live_server)
    version = -1
    mine, theirs = phone.get_by_test_id("my-tricks"), phone.get_by_test_id("opponent-last-trick")
    while not (await mine.is_enabled() or await theirs.is_enabled()):
        version = await my_turn(phone, version)
        await play_a_card(phone)
    await (mine if await mine.is_enabled() else theirs).click()
    cards = phone.get_by_test_id("trick-viewer").locator(".mini-card")
    await expect(cards.first).to_be_visible()
    for i in range(await cards.count()):
        box = await cards.nth(i).bounding_box()
        assert box is not None and box["width"] >= 56
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390


MARIAGE = {"kind": "mariage", "suit": "H", "points": 20, "cards": ["KH", "QH"]}
TIERCE = {"kind": "tierce", "suit": "S", "points": 30, "cards": ["KS", "QS", "JS"]}
QUINTE = {"kind": "quinte", "suit": None, "points": 50, "cards": ["AH", "AD", "TD", "TC", "AC"]}

CHIPS_SHOWN = """(list) => {
    // The chips of ``list`` not wholly inside it and the screen, and whether it scrolls.
    const box = list.getBoundingClientRect();
    const out = [];
    for (const chip of list.children) {
        const r = chip.getBoundingClientRect();
        const inside = r.left >= box.left - 0.5 && r.right <= box.right + 0.5
            && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.right <= innerWidth;
        if (!inside) out.push(chip.getAttribute("aria-label"));
    }
    if (list.scrollWidth > list.clientWidth + 1) out.push("the row scrolls");
    return out;
}"""


def declaring(declarations: list[list[dict[str, Any]]]) -> Any:
    """A websocket route that hands the page every state with these declarations (yours, the
    other side's), as a deal that far on would."""

    async def relay(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            state = json.loads(message)
            if state["type"] == "state":
                state["view"]["deal"]["declarations"] = declarations
            ws.send(json.dumps(state))

        to_server.on_message(to_page)

    return relay


def declaration_cases() -> list[tuple[tuple[int, int], str, list[dict[str, Any]]]]:
    two = [(size, lang, [MARIAGE, TIERCE]) for size in SIZES for lang in ("en", "fr")]
    three = [(size, "fr", [MARIAGE, TIERCE, QUINTE]) for size in [(360, 640), (390, 844)]]
    return two + three


@pytest.mark.parametrize(
    ("size", "lang", "theirs"),
    declaration_cases(),
    ids=[f"{w}x{h}-{lang}-{len(d)}" for (w, h), lang, d in declaration_cases()],
)
async def test_every_declaration_of_the_other_side_is_in_sight(
    live_server: str,
    browser: Browser,
    size: tuple[int, int],
    lang: str,
    theirs: list[dict[str, Any]],
) -> None:
    # A tester at 360 px saw the computer's mariage and half its tierce: the row scrolled.
    ctx = await new_phone(browser, size, lang)
    try:
        page = await ctx.new_page()
        await page.route_web_socket("**/ws/tables/*", declaring([[MARIAGE], theirs]))
        await open_computer_table(page, live_server)
        await my_turn(page, -1)
        chips = page.get_by_test_id("opponent-declarations").locator("li")
        await expect(chips).to_have_count(len(theirs))
        for side in ("opponent-declarations", "my-declarations"):
            found = await page.get_by_test_id(side).evaluate(CHIPS_SHOWN)
            assert found == [], (side, found)
        # each chip still says its points (the name may give way to them)
        for chip, decl in zip(await chips.all(), theirs, strict=True):
            assert str(decl["points"]) in await chip.inner_text()
        assert await page.evaluate(OVERLAPS, REGIONS) == []
    finally:
        await ctx.close()
