"""Tests that need a server of their own: a restart (connection trouble, then the match resumes)
and real pacing of the computer's moves."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.async_api import Page, expect

from tests.browser.chouine_page import Server, my_turn, open_computer_table, play_a_card


async def test_server_restart_shows_reconnecting_then_resumes(tmp_path: Path, page: Page) -> None:
    server = Server(tmp_path)
    server.start()
    try:
        await open_computer_table(page, server.url)
        await page.wait_for_function(
            "() => ['my-turn', 'prompt'].includes(document.getElementById('table').dataset.state)"
        )
        version = await page.locator("#table").get_attribute("data-version")
        hand = await page.locator("#hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        server.stop()
        banner = page.get_by_test_id("banner")
        await expect(banner).to_have_text("Reconnecting…")
        server.start()
        await expect(banner).to_have_text("Back", timeout=15000)
        await expect(page.locator("#table")).to_have_attribute("data-version", version or "")
        again = await page.locator("#hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        assert again == hand
        await expect(banner).to_be_hidden()
        # And the match goes on.
        await play_a_card(page)
        await expect(page.locator("#hand button.card")).to_have_count(5)
        await page.wait_for_function(
            "v => Number(document.getElementById('table').dataset.version) > v",
            arg=int(version or 0),
        )
    finally:
        server.stop()


async def test_computer_moves_are_paced_and_the_trick_stays_a_moment(
    tmp_path: Path, page: Page
) -> None:
    """With pacing on, the computer's move comes after ``bot_delay_ms`` ("The computer is
    thinking…" meanwhile) and the finished trick stays in view for ``trick_pause_ms``."""
    server = Server(tmp_path, bot_delay_ms=1200, trick_pause_ms=1200)
    server.start()
    try:
        await open_computer_table(page, server.url)
        turn = page.get_by_test_id("turn-line")
        trick = page.get_by_test_id("trick")
        # Play until the computer has to follow our lead, answering what the deal asks on the
        # way (the seven prompt when the computer has won tricks 1-10, a count after its chouine):
        # waiting for "my-turn" alone timed out once in CI.
        version = -1
        for _ in range(40):
            version = await my_turn(page, version)
            # (The trick area may still show the trick just gathered: ask the turn line.)
            leading = await turn.inner_text() == "Your turn — lead a card"
            await play_a_card(page)
            if leading:
                break
        else:
            raise AssertionError("never led a trick")
        await expect(turn).to_have_text("The computer is thinking…")
        await expect(trick.locator("[data-card]")).to_have_count(1)  # our card, alone a while
        await expect(trick).to_have_class(re.compile("gathering"))
        await expect(trick.locator("[data-card]")).to_have_count(2)
        await expect(trick).not_to_have_class(re.compile("gathering"), timeout=3000)
    finally:
        server.stop()
