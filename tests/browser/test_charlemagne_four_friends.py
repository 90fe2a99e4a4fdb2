"""Four friends play Charlemagne in four browsers through the seat links: two whole hands, the
auction, the kitty, the discard, the trumps and every card by clicks, each page showing only
its own hand; one page reloads mid-hand and carries on. A fifth browser opening a seat link
already used cannot act, and a browser without a seat gets no hand, over the page or the socket.
"""

from __future__ import annotations

import asyncio
import json
import re
import time

from playwright.async_api import Browser, BrowserContext, Page, expect

from tests.browser.charlemagne_friends import PLACES, make_table, open_link
from tests.browser.charlemagne_player import answer
from tests.browser.chat_page import chat_texts, say_in_chat

HANDS = 2

OWN_CARDS_ONLY = """() => {
    const hand = [...document.querySelectorAll('#hand [data-card]')].map(c => c.dataset.card);
    const everywhere = [...document.querySelectorAll('[data-card]')].map(c => c.dataset.card);
    return [document.getElementById('table').dataset.phase, hand, everywhere];
}"""

SOCKET_WITHOUT_A_SEAT = """([path, token]) => new Promise((resolve) => {
    const ws = new WebSocket(`ws://${location.host}${path}`);
    const got = [];
    ws.onopen = () => ws.send(JSON.stringify({type: 'hello', token, version: null}));
    ws.onmessage = (e) => got.push(e.data);
    ws.onclose = (e) => resolve([e.code, got]);
})"""


async def attrs(page: Page) -> dict[str, str]:
    found: dict[str, str] = await page.evaluate(
        "() => ({...document.getElementById('table').dataset})"
    )
    return found


async def check_hands(pages: list[Page]) -> bool:
    """While every page is in the auction: each shows its own eight cards and no other card,
    and the four hands are 32 different cards. False if a page had left the auction."""
    hands = []
    for page in pages:
        phase, hand, everywhere = await page.evaluate(OWN_CARDS_ONLY)
        if phase != "auction":
            return False
        assert len(hand) == 8 and set(everywhere) == set(hand)
        hands.append(hand)
    assert len({card for hand in hands for card in hand}) == 32
    return True


async def test_four_friends_play_two_hands_through_their_seat_links(
    live_server: str, browser: Browser, page: Page
) -> None:
    links = await make_table(page, live_server)
    table_url = page.url
    table_id = table_url.rsplit("/", 1)[1]
    contexts: list[BrowserContext] = []
    try:
        pages = [page, *([None] * 3)]
        for place, seat in PLACES.items():
            ctx, friend = await open_link(browser, links[place])
            contexts.append(ctx)
            pages[seat] = friend
        players: list[Page] = [p for p in pages if p is not None]
        assert len(players) == 4
        for seat, each in enumerate(players):
            await expect(each.get_by_test_id("waiting")).to_be_hidden()
            await expect(each.locator("#table")).to_have_attribute("data-phase", "auction")
            await expect(each.get_by_test_id("seat-you")).to_contain_text("You")
            held = "(id) => localStorage.getItem('veillee.seat.' + id)"
            assert await each.evaluate(held, table_id) is not None
            await expect(each.locator("#table")).to_have_attribute("data-hand", "1")
            if seat != 0:
                await expect(each.get_by_test_id("seat-partner")).to_contain_text("Partner")

        # A fifth browser with a seat link already used: the seat is taken, no hand, no socket.
        fifth_ctx, fifth = await open_link(browser, links["partner"])
        contexts.append(fifth_ctx)
        await expect(fifth.get_by_test_id("seat-taken")).to_contain_text("This seat is taken")
        await expect(fifth.locator("[data-card]")).to_have_count(0)
        # A browser without a seat: the table's plain link finds it full; a made-up token opens
        # no socket; the resume request knows nothing of the table.
        await fifth.goto(table_url)
        await expect(fifth.get_by_test_id("seat-taken")).to_contain_text("This table is full")
        await expect(fifth.locator("[data-card]")).to_have_count(0)
        code, frames = await fifth.evaluate(
            SOCKET_WITHOUT_A_SEAT, [f"/ws/tables/{table_id}", "x" * 32]
        )
        assert code == 4403 and [json.loads(f)["code"] for f in frames] == ["bad_token"]
        resume = await fifth.request.post(
            live_server + "/api/tables/resume",
            data=json.dumps({"seats": [{"table_id": table_id, "token": "y" * 32}]}),
        )
        assert await resume.json() == {"tables": [], "gone": [table_id]}

        phases: list[set[str]] = [set() for _ in players]
        checked: set[str] = set()
        reloaded = False
        nexted: set[tuple[int, str]] = set()
        deadline = time.monotonic() + 300
        typing = False  # North is typing a line when the last ask deals hand 2
        while True:
            seen = [await attrs(each) for each in players]
            if typing and seen[0]["hand"] == "2":
                # The screen closed under the line being typed: it keeps the keyboard (the
                # hand, whose card North played last, took it), and its Enter sends it.
                line = page.get_by_test_id("chat-input")
                await expect(line).to_be_focused()
                await page.keyboard.press("Enter")
                await expect(chat_texts(page)).to_have_text(["Deal when you are ready", "Ready"])
                typing = False
                continue
            if all(s["hand"] == str(HANDS + 1) for s in seen):
                break
            assert time.monotonic() < deadline, f"stuck at {seen}"
            fresh = len({s["hand"] for s in seen}) == 1 and seen[0]["hand"] not in checked
            if fresh and all(s["phase"] == "auction" for s in seen) and await check_hands(players):
                checked.add(seen[0]["hand"])
            if not reloaded and seen[2]["hand"] == "2" and seen[2]["trick"] == "2":
                # The partner's page reloads mid-hand: it comes back to its seat and hand.
                before = await players[2].evaluate(OWN_CARDS_ONLY)
                await players[2].reload()
                await expect(players[2].locator("#hand button.card")).to_have_count(len(before[1]))
                reloaded = True
                continue
            if all(s["state"] == "hand-over" for s in seen) and not nexted:
                # The first to be ready is told whom the next hand waits for.
                await expect(page.get_by_test_id("hand-end")).to_be_visible()
                await page.get_by_test_id("next-hand").click()
                await expect(page.get_by_test_id("ready-line")).to_have_text(
                    "Waiting for East, your partner, and West…"
                )
                # ... and each of the others, that it waits for them too.
                await expect(players[2].get_by_test_id("ready-line")).to_have_text(
                    "Waiting for you, East, and West…"
                )
                await expect(page.get_by_test_id("next-hand")).to_be_disabled()
                # While it waits, the chat stays in reach: the first ready asks the others.
                drawer = await say_in_chat(page, "Deal when you are ready")
                for each in players:
                    await expect(chat_texts(each)).to_have_text(["Deal when you are ready"])
                if drawer:
                    await page.get_by_test_id("chat-close").click()
                else:
                    await page.get_by_test_id("chat-input").click()
                    await page.keyboard.type("Ready")
                    typing = True
                await expect(page.get_by_test_id("hand-end")).to_be_visible()
                nexted.add((0, "1"))
                continue
            acted = False
            for seat, (each, s) in enumerate(zip(players, seen, strict=True)):
                if s["state"] == "my-turn":
                    phases[seat].add(s["phase"])
                    await answer(each, s["phase"])
                    acted = True
                elif s["state"] == "hand-over" and (seat, s["hand"]) not in nexted:
                    nexted.add((seat, s["hand"]))
                    await expect(each.get_by_test_id("hand-end")).to_be_visible()
                    await each.get_by_test_id("next-hand").click()
                    # From the click on, the foot no longer waits for this seat (not even for
                    # the moment before the server answers the last seat with the next deal).
                    await expect(each.get_by_test_id("ready-line")).not_to_contain_text(
                        re.compile(r"\byou\b")
                    )
                    acted = True
            if not acted:
                await asyncio.sleep(0.03)
        assert await check_hands(players)  # the third hand, just dealt
        assert not typing, "North's line was not checked"
        assert reloaded and checked == {"1", "2"}
        # Every seat bid or passed; the stuck dealers took the kitty, discarded and named trumps;
        # everyone played cards.
        assert all({"auction", "play"} <= each for each in phases), phases
        assert any({"discard", "trump"} <= each for each in phases), phases
        assert {(seat, hand) for seat in range(4) for hand in ("1", "2")} <= nexted
        for each in players:
            await expect(each.get_by_test_id("match-line")).to_contain_text("Hand 3")
    finally:
        for ctx in contexts:
            await ctx.close()
