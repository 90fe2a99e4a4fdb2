"""The testers' findings on the Chouine table page (issue 2), checked in Chromium."""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import Browser, Page, expect

from tests.browser.test_chouine_table import open_computer_table, wait_for_decision

HAND_FOCUS = """() => {
    const cards = [...document.querySelectorAll('#hand button.card')];
    return {
        tabbable: cards.filter((c) => c.tabIndex === 0).length,
        inHand: document.getElementById('hand').contains(document.activeElement),
    };
}"""


async def my_turn(page: Page, version: int) -> int:
    """Wait for our turn (answering a count or prompt on the way); the version then."""
    while True:
        state, version = await wait_for_decision(page, version)
        if state == "my-turn":
            return version
        if state == "prompt":
            await page.get_by_test_id("prompt-continue").click()
        elif state == "count":
            await page.get_by_test_id("next-partie").click()
        else:
            await page.get_by_test_id("new-match").click()


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
    # Tab from before the hand lands on a card of it.
    await page.locator("#turn-line").evaluate("n => { n.tabIndex = -1; n.focus(); }")
    await page.keyboard.press("Tab")
    assert (await page.evaluate(HAND_FOCUS))["inHand"]


async def test_going_offline_shows_reconnecting_then_back(live_server: str, page: Page) -> None:
    await open_computer_table(page, live_server)
    await my_turn(page, -1)
    banner = page.get_by_test_id("banner")
    await page.context.set_offline(True)
    await expect(banner).to_have_text("Reconnecting…")
    await expect(page.get_by_test_id("turn-line")).to_have_text("Reconnecting…")
    # A tap says why nothing happens, not "not your turn".
    await page.locator("#hand button.card").first.click(force=True)
    await expect(page.get_by_test_id("refusal")).to_have_text("Reconnecting…")
    await page.context.set_offline(False)
    await expect(banner).to_have_text("Back")
    await expect(page.get_by_test_id("turn-line")).not_to_have_text("Reconnecting…")
    await expect(page.get_by_test_id("refusal")).to_be_hidden()  # no stale "Reconnecting…"
    await expect(banner).to_be_hidden()
    # And the match goes on.
    version = int(await page.locator("#table").get_attribute("data-version") or -1)
    await page.locator('#hand button.card[data-legal="true"]').first.click()
    chooser = page.get_by_test_id("declare-chooser")
    if await chooser.is_visible():
        await chooser.get_by_test_id("play-plain").click()
    await wait_for_decision(page, version)


def chouine_state(best_of: int, wins: list[int], over: bool) -> dict[str, Any]:
    """A state message at the end of a partie won by seat 0's chouine of hearts (the view's
    shape: docs/chouine-views.md); only what the count screen reads."""
    outcome = {
        "winner": 0,
        "totals": None,
        "card_points": None,
        "dix_de_der": None,
        "chouine": 0,
        "declarations": [
            [{"kind": "chouine", "suit": "H", "points": 0}],
            [{"kind": "mariage", "suit": "S", "points": 20}],
        ],
        "piles": [["7C", "8C"], []],
        "chouine_cards": ["AH", "TH", "KH", "QH", "JH"],
    }
    return {
        "type": "state",
        "version": 9,
        "seat": 0,
        "game": "chouine",
        "seats": ["human", "computer"],
        "options": {"best_of": best_of},
        "view": {
            "match": {"best_of": best_of, "wins": wins, "partie": 3, "over": over, "winner": 0},
            "deal": {"outcome": outcome},
        },
    }


SHOW_COUNT = """async ([state]) => {
    const { showCount } = await import('/static/table/count.js');
    const { loadCatalog } = await import('/static/live/i18n.js');
    showCount(state, await loadCatalog(document.getElementById('table').dataset.lang));
}"""


async def test_count_after_a_chouine_says_it_won_the_partie_and_no_cell_is_blank(
    live_server: str, phone: Page
) -> None:
    await phone.goto(live_server + "/chouine/table/made-up-id")
    await phone.evaluate(SHOW_COUNT, [chouine_state(3, [2, 0], True)])
    count = phone.get_by_test_id("count")
    row = count.locator("tr.chouine")
    await expect(row).to_contain_text("Chouine of hearts")
    await expect(row.locator("td").first).to_have_text("Wins the partie")
    cells = await count.locator("tbody td").all_inner_texts()
    assert "0" not in cells and all(cell.strip() for cell in cells)
    await expect(count.locator("tr.declaration").nth(1).locator("td").first).to_have_text("—")
    # The result line keeps "2–0" on one line on a phone.
    result = count.get_by_test_id("match-result")
    await expect(result).to_contain_text("2")
    lines = await result.evaluate(
        """(node) => {
            const text = node.firstChild;
            const at = text.data.indexOf('2');
            const range = document.createRange();
            range.setStart(text, at);
            range.setEnd(text, text.data.length);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }"""
    )
    assert lines == 1


async def test_french_match_line_keeps_the_partie_number_with_its_word(
    live_server: str, browser: Browser
) -> None:
    ctx = await browser.new_context(
        locale="fr-FR", viewport={"width": 320, "height": 700}, is_mobile=True
    )
    page = await ctx.new_page()
    await page.goto(live_server + "/chouine")
    await page.get_by_role("button", name="Jouer contre l'ordinateur").click()
    await page.wait_for_url("**/chouine/table/*")
    line = page.get_by_test_id("match-line")
    await expect(line).to_contain_text("partie")
    text = await line.inner_text()
    assert "des\u00a05" in text and "partie\u00a01" in text
    await ctx.close()


async def test_best_of_button_asks_before_throwing_away_a_running_match(
    live_server: str, page: Page
) -> None:
    await open_computer_table(page, live_server)
    version = await my_turn(page, -1)
    await page.locator('#hand button.card[data-legal="true"]').first.click()
    chooser = page.get_by_test_id("declare-chooser")
    if await chooser.is_visible():
        await chooser.get_by_test_id("play-plain").click()
    version = await my_turn(page, version)
    best_of = page.get_by_test_id("best-of")
    await expect(best_of).to_have_text("Restart as best of 3")
    await best_of.click()
    confirm = page.get_by_test_id("restart-confirm")
    await expect(confirm).to_be_visible()
    await expect(confirm).to_contain_text("Restart as best of 3?")
    await confirm.get_by_role("button", name="Keep playing").click()
    await expect(confirm).to_be_hidden()
    assert await page.locator("#table").get_attribute("data-version") == str(version)
    await expect(page.get_by_test_id("match-line")).to_contain_text("Best of 5")
    await best_of.click()
    await confirm.get_by_role("button", name="Abandon and restart").click()
    await expect(page.get_by_test_id("match-line")).to_contain_text("Best of 3")
    await expect(page.get_by_test_id("score")).to_have_text("You 0 – 0 Computer")
    await expect(best_of).to_have_text("Restart as best of 5")


async def test_a_table_url_without_a_seat_says_not_yours_or_gone_with_a_way_on(
    live_server: str, page: Page
) -> None:
    await page.goto(live_server + "/chouine/table/no-such-table")
    lost = page.get_by_test_id("table-lost")
    await expect(lost).to_contain_text("This table is not yours or no longer exists.")
    link = lost.get_by_role("link", name="Start a match")
    await expect(link).to_have_attribute("href", "/chouine")


async def test_trick_viewer_cards_are_readable_on_a_phone(live_server: str, phone: Page) -> None:
    await open_computer_table(phone, live_server)
    version = -1
    mine, theirs = phone.get_by_test_id("my-tricks"), phone.get_by_test_id("opponent-last-trick")
    while not (await mine.is_enabled() or await theirs.is_enabled()):
        version = await my_turn(phone, version)
        await phone.locator('#hand button.card[data-legal="true"]').first.click()
        chooser = phone.get_by_test_id("declare-chooser")
        if await chooser.is_visible():
            await chooser.get_by_test_id("play-plain").click()
        _, version = await wait_for_decision(phone, version)
    await (mine if await mine.is_enabled() else theirs).click()
    cards = phone.get_by_test_id("trick-viewer").locator(".mini-card")
    await expect(cards.first).to_be_visible()
    for i in range(await cards.count()):
        box = await cards.nth(i).bounding_box()
        assert box is not None and box["width"] >= 56
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390


async def test_declaration_points_shown_are_the_views_not_the_pages(
    live_server: str, page: Page
) -> None:
    # The page holds no rules: whatever points the view gives a declaring action are shown.
    # The server's state frames are passed on with a made-up "mariage" worth 77 on a legal card.
    async def relay(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            state = json.loads(message)
            deal = state.get("view", {}).get("deal", {}) if state["type"] == "state" else {}
            plain = [a for a in deal.get("legal", []) if len(a) == 2]
            if deal.get("to_act") == state.get("seat") and plain and not deal.get("prompt"):
                action = f"{plain[0]} mariage"
                if action not in deal["legal"]:
                    deal["legal"].append(action)
                deal["declaration_points"] = {action: 77}
            ws.send(json.dumps(state))

        server.on_message(to_page)

    await page.route_web_socket("**/ws/tables/*", relay)
    await open_computer_table(page, live_server)
    version = await my_turn(page, -1)
    card = await page.locator('#hand button.card[data-legal="true"]').first.get_attribute(
        "data-card"
    )
    await page.locator(f'#hand button.card[data-card="{card}"]').click()
    chooser = page.get_by_test_id("declare-chooser")
    option = chooser.locator(f'[data-action="{card} mariage"]')
    await expect(option).to_contain_text("77")
    await chooser.get_by_test_id("play-plain").click()
    await wait_for_decision(page, version)
