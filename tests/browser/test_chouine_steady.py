"""Nothing moves under the finger, and a message lives as long as its state (shared/UI.md).

With the computer's moves paced as in production, a person taps a card while the computer is
thinking ("It is not your turn."), sees declarations appear on both sides and a trick gathered.
Through all of it the hand and every row above it keep their place and size; the refusal goes
as soon as the state it was about has passed; and the hand at rest (not your turn) does not look
like cards a rule refuses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.chouine_page import Server, new_phone, open_computer_table, play_a_card
from veillee.web import i18n

LAYOUT = """() => {
    const box = (node) => {
        const r = node.getBoundingClientRect();
        return [r.left, r.top, r.width, r.height].map((v) => Math.round(v * 2) / 2);
    };
    const rows = ['.far', '.middle', '.seat-row.mine', '.status', '#turn-line', '.refusal-slot',
                  '.actions', '#my-tricks', '#hand', '#trick'];
    const out = {};
    for (const s of rows) out[s] = box(document.querySelector(s));
    // The cards: their tops and sizes (a hand of fewer cards is centred again, sideways).
    out.cards = [...document.querySelectorAll('#hand button.card')].map((c) => box(c).slice(1));
    return out;
}"""

REST = """() => [...document.querySelectorAll('#hand button.card')].map((card) => ({
    refused: card.classList.contains('refused'),
    mark: getComputedStyle(card, '::after').content,
    opacity: Number(getComputedStyle(card).opacity),
}))"""

DECLARATIONS = [
    [{"kind": "quateron", "suit": "S", "points": 80, "cards": ["AS", "KS", "QS", "JS"]}],
    [{"kind": "quinte", "suit": None, "points": 50, "cards": ["AH", "AD", "TD", "TC", "AC"]}],
]


def same_place(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What moved or changed size between two layouts (cards compared by their tops and sizes,
    all of them when the hand holds as many cards)."""
    moved = [k for k in before if k != "cards" and before[k] != after[k]]
    tops = {tuple(c) for c in before["cards"]} ^ {tuple(c) for c in after["cards"]}
    if tops:
        moved.append(f"cards {before['cards']} → {after['cards']}")
    return moved


async def state_of(page: Page) -> str:
    return await page.locator("#table").get_attribute("data-state") or ""


async def wait_state(page: Page, *states: str) -> None:
    await page.wait_for_function(
        "(states) => states.includes(document.getElementById('table').dataset.state)",
        arg=list(states),
    )


@pytest.mark.parametrize(
    ("size", "lang"),
    [((390, 844), "en"), ((320, 568), "fr"), ((568, 320), "fr")],
    ids=["390x844-en", "320x568-fr", "568x320-fr"],
)
async def test_nothing_moves_under_the_finger_and_refusals_go_with_their_state(
    tmp_path: Path, browser: Browser, size: tuple[int, int], lang: str
) -> None:
    server = Server(tmp_path, bot_delay_ms=1200, trick_pause_ms=900)
    server.start()
    inject = {"on": False}

    async def relay(ws: Any) -> None:
        to_server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            state = json.loads(message)
            if state["type"] == "state" and inject["on"]:
                state["view"]["deal"]["declarations"] = DECLARATIONS
            ws.send(json.dumps(state))

        to_server.on_message(to_page)

    ctx = await new_phone(browser, size, lang)
    page = await ctx.new_page()
    await page.route_web_socket("**/ws/tables/*", relay)
    try:
        await open_computer_table(page, server.url)
        await wait_state(page, "my-turn")
        start = await page.evaluate(LAYOUT)
        refusal = page.get_by_test_id("refusal")
        trick = page.get_by_test_id("trick")
        not_your_turn = i18n.t(lang, "reason.not_your_turn")
        refused = gathered = False
        for _ in range(12):
            await play_a_card(page)
            await wait_state(page, "waiting", "my-turn")
            if await state_of(page) == "waiting" and not refused:
                # The computer is thinking: the hand rests, and a tap is told why.
                assert all(
                    not c["refused"] and c["mark"] == "none" and c["opacity"] == 1
                    for c in await page.evaluate(REST)
                )
                await page.locator("#hand button.card").first.click(force=True)
                await expect(refusal).to_have_text(not_your_turn)
                assert same_place(start, await page.evaluate(LAYOUT)) == []
                await wait_state(page, "my-turn")
                # The state it was about has passed: the refusal is gone with it.
                await expect(refusal).to_be_hidden()
                refused = True
            if await trick.evaluate("n => n.classList.contains('gathering')"):
                assert same_place(start, await page.evaluate(LAYOUT)) == []
                await expect(trick).not_to_have_class("gathering")
                gathered = True
            await wait_state(page, "my-turn")
            assert same_place(start, await page.evaluate(LAYOUT)) == []
            if refused and gathered:
                break
        assert refused and gathered
        # Declarations appear on both sides (the widest: a quinte's five cards).
        inject["on"] = True
        await play_a_card(page)
        await expect(page.get_by_test_id("opponent-declarations").locator("li")).to_have_count(1)
        await expect(page.get_by_test_id("my-declarations").locator("li")).to_have_count(1)
        await wait_state(page, "my-turn")
        assert same_place(start, await page.evaluate(LAYOUT)) == []
    finally:
        await ctx.close()
        server.stop()
