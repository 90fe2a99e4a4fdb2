"""A friend leaves a shared Chouine table for good (issue 25): "Leave the table" says what will
happen and asks first (Stay keeps everything); once confirmed the match ends for both, the other
friend is told "Your friend has left the table", the leaver's browser forgets the table (its
resume list no longer has it) while the other's resume list says the friend left; and no card
of the other hand ever reached the leaver's page."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Page, WebSocket, expect

from tests.browser.chouine_page import open_menu
from tests.browser.conftest import LIVE_LOG, live_said
from tests.browser.friend_table import make_shared_table

HAND = "cards => cards.map(c => c.dataset.card)"
CARD = re.compile(r'"([AKQJT987][SHDC])"')


async def test_leave_for_good_ends_the_match_tells_the_friend_and_forgets_the_table(
    live_server: str, browser: Browser, page: Page
) -> None:
    await page.context.add_init_script(LIVE_LOG)
    link = await make_shared_table(page, live_server, 3)
    table_id = link.rsplit("/", 1)[1]
    ctx = await browser.new_context(locale="en-GB")
    try:
        friend = await ctx.new_page()
        heard: list[str] = []

        def listen(ws: WebSocket) -> None:
            ws.on("framereceived", lambda frame: heard.append(str(frame)))

        friend.on("websocket", listen)
        await friend.goto(link)
        for each in (page, friend):
            await expect(each.get_by_test_id("hand").locator("button.card")).to_have_count(5)
        hidden = set(await page.locator("#hand button.card").evaluate_all(HAND))
        # Leaving says what it does, and Stay changes nothing.
        await open_menu(friend)
        await friend.get_by_test_id("leave").click()
        dialog = friend.get_by_test_id("leave-confirm")
        await expect(dialog).to_contain_text("the match ends for both of you")
        await friend.get_by_test_id("leave-no").click()
        await expect(dialog).to_be_hidden()
        assert "/chouine/table/" in friend.url
        await open_menu(friend)
        await friend.get_by_test_id("leave").click()
        await friend.get_by_test_id("leave-yes").click()
        await friend.wait_for_url("**/chouine")
        # The host is told, where the table was; the match is over.
        await expect(page.get_by_test_id("table-lost")).to_contain_text(
            "Your friend has left the table."
        )
        await expect(page.locator("#table")).to_have_attribute("data-state", "left")
        await expect(page.get_by_test_id("hand")).to_be_hidden()
        # Said once, where the table was: the friend's page closing is not said to be "away".
        await expect(page.get_by_test_id("opponent-presence")).to_have_attribute(
            "data-here", "false"
        )
        assert not [said for said in await live_said(page) if "away" in said]
        # The leaver's browser forgot the table; the host's resume list says the friend left.
        held = "(id) => localStorage.getItem('veillee.seat.' + id)"
        assert await friend.evaluate(held, table_id) is None
        await expect(friend.get_by_test_id("resume-item")).to_have_count(0)
        await page.goto(live_server + "/chouine")
        item = page.get_by_test_id("resume-item")
        await expect(item).to_have_count(1)
        await expect(item.get_by_test_id("resume-gone")).to_have_text(
            "Your friend has left the table"
        )
        # Nothing of the host's hand reached the leaver's page.
        shown = {card for frame in heard for card in CARD.findall(frame)}
        assert shown and not shown & hidden, sorted(shown & hidden)
    finally:
        await ctx.close()
