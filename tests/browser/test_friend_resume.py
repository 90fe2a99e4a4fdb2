"""A shared table survives the tab: the friend closes it and comes back through the resume list
(the host sees them away, then back), a reload mid-partie keeps everything, a tap made offline
is sent on return (leaving for good: test_chouine_leave_for_good.py), and a table nobody sat at
closes after its time with a note on the waiting screen and in the resume list."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

from playwright.async_api import Browser, BrowserContext, Page, expect

from tests.browser import charlemagne_friends
from tests.browser.charlemagne_player import NUMBER_DEAL, open_scripted, play_hand
from tests.browser.chouine_page import Server, play_a_card
from tests.browser.friend_table import make_shared_table, open_link, table_state

HAND = "cards => cards.map(c => c.dataset.card)"


@contextlib.asynccontextmanager
async def seated_pair(
    browser: Browser, page: Page, base: str
) -> AsyncIterator[tuple[Page, BrowserContext]]:
    """A host on ``page`` and a friend in a browser of its own (closed afterwards), both at
    the table: (the friend's page, the friend's browser)."""
    link = await make_shared_table(page, base, 3)
    ctx, friend = await open_link(browser, link)
    try:
        for each in (page, friend):
            await expect(each.get_by_test_id("hand").locator("button.card")).to_have_count(5)
        yield friend, ctx
    finally:
        await ctx.close()


async def whose_turn(host: Page, friend: Page) -> tuple[Page, Page]:
    """(the page whose turn it is, the other), once one of them may play."""
    while True:
        for me, other in ((host, friend), (friend, host)):
            state, _ = await table_state(me)
            if state == "my-turn":
                return me, other
        await me.wait_for_timeout(30)


async def test_the_friend_closes_the_tab_and_comes_back_through_the_resume_list(
    live_server: str, browser: Browser, page: Page
) -> None:
    async with seated_pair(browser, page, live_server) as (friend, ctx):
        mover, _ = await whose_turn(page, friend)
        await play_a_card(mover)
        for each in (page, friend):  # the friend's seat taken, and one card played
            await expect(each.locator("#table")).to_have_attribute("data-version", "2")
        await expect(page.get_by_test_id("opponent-presence")).to_have_text("●Here")
        hand = await friend.locator("#hand button.card").evaluate_all(HAND)
        _, version = await table_state(page)
        await friend.close()
        await expect(page.get_by_test_id("opponent-presence")).to_have_text("○Away")
        # The friend comes back to the site: the home page lists the table.
        again = await ctx.new_page()
        await again.goto(live_server + "/")
        item = again.get_by_test_id("resume-item")
        await expect(item).to_have_count(1)
        await expect(item).to_contain_text("Chouine")
        await expect(item).to_contain_text("You 0 – 0 Friend")
        await expect(item).to_contain_text("47 hours left")
        turn = "Your turn" if mover is not friend else "Your friend's turn"
        await expect(item).to_contain_text(turn)
        await item.get_by_role("link").click()
        await again.wait_for_url("**/chouine/table/*")
        await expect(again.locator("#table")).to_have_attribute("data-version", str(version))
        assert await again.locator("#hand button.card").evaluate_all(HAND) == hand
        await expect(page.get_by_test_id("opponent-presence")).to_have_text("●Here")
        await expect(again.get_by_test_id("opponent-presence")).to_have_text("●Here")


async def test_a_reload_mid_partie_keeps_the_seat_the_hand_and_the_turn(
    live_server: str, browser: Browser, page: Page
) -> None:
    async with seated_pair(browser, page, live_server) as (friend, _ctx):
        for _ in range(3):
            mover, _ = await whose_turn(page, friend)
            _, before = await table_state(mover)
            await play_a_card(mover)
            for each in (page, friend):
                await expect(each.locator("#table")).to_have_attribute(
                    "data-version", str(before + 1)
                )
        for each in (friend, page):  # seat 1, then seat 0
            hand = await each.locator("#hand button.card").evaluate_all(HAND)
            state, version = await table_state(each)
            turn = await each.get_by_test_id("turn-line").inner_text()
            await each.reload()
            await expect(each.locator("#table")).to_have_attribute("data-version", str(version))
            assert await each.locator("#hand button.card").evaluate_all(HAND) == hand
            await expect(each.get_by_test_id("turn-line")).to_have_text(turn)
            assert (await table_state(each))[0] == state
        # And the partie goes on.
        mover, _ = await whose_turn(page, friend)
        await play_a_card(mover)


async def test_a_card_tapped_offline_is_played_when_the_connection_is_back(
    live_server: str, browser: Browser, page: Page
) -> None:
    async with seated_pair(browser, page, live_server) as (friend, _ctx):
        mover, other = await whose_turn(page, friend)
        _, version = await table_state(mover)
        await mover.context.set_offline(True)
        await expect(mover.get_by_test_id("banner")).to_have_text("Reconnecting…")
        card = await play_a_card(mover)
        _, still = await table_state(other)
        assert still == version  # nothing reached the server yet
        await mover.context.set_offline(False)
        await expect(other.locator("#table")).to_have_attribute("data-version", str(version + 1))
        await expect(other.get_by_test_id("trick").locator(f'[data-card="{card}"]')).to_have_count(
            1
        )


async def test_a_table_nobody_sits_at_closes_with_a_note(browser: Browser, tmp_path: Path) -> None:
    server = Server(tmp_path, shared_table_fill_s=2, sweep_interval_s=0.3)
    server.start()
    ctx = await browser.new_context(locale="en-GB")
    try:
        page = await ctx.new_page()
        await make_shared_table(page, server.url, 5)
        lost = page.get_by_test_id("table-lost")
        await expect(lost).to_contain_text("Nobody sat down within 15 minutes", timeout=10_000)
        await expect(page.get_by_test_id("waiting")).to_be_hidden()
        await page.goto(server.url + "/chouine")
        note = page.get_by_test_id("resume-note")
        await expect(note).to_have_text(
            "A table has closed (it waited too long) and has left the list."
        )
        await expect(page.get_by_test_id("resume-item")).to_have_count(0)
        # The note is said once: the seat is forgotten.
        await page.reload()
        await expect(page.locator("#game-page")).to_be_visible()
        assert await page.evaluate("() => Object.keys(localStorage).length") == 0
    finally:
        await ctx.close()
        server.stop()


async def test_a_charlemagne_tables_resume_entry_shows_its_score(
    hooked_server: str, page: Page
) -> None:
    # A shared Charlemagne table (scripted: you speak first, bid 6 and everyone passes), its
    # other seats given to the computer; one hand played by clicks scores for one team.
    await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3, shared=True)
    await charlemagne_friends.give_to_computer(page, ("partner", "left"))
    await page.get_by_test_id("fill-right").click()  # the last seat: the hand begins
    await play_hand(page, -1, bid="6")
    score = (await page.get_by_test_id("score").inner_text()).strip()
    assert re.fullmatch(r"Us \d+ – \d+ Them", score) and score != "Us 0 – 0 Them", score
    us, them = re.findall(r"\d+", score)
    # The home page's resume list says the table's score as the table does, in each language.
    # The turn line is in Charlemagne's words too: the hand, not the partie.
    await page.goto(hooked_server + "/")
    item = page.get_by_test_id("resume-item")
    await expect(item).to_have_count(1)
    await expect(item).to_contain_text("Charlemagne")
    await expect(item.locator(".resume-score")).to_have_text(score)
    await expect(item.locator(".resume-turn")).to_have_text("The hand is over: deal the next one")
    await page.goto(f"{hooked_server}/lang/fr?next=/")
    item = page.get_by_test_id("resume-item")
    await expect(item.locator(".resume-score")).to_have_text(f"Nous {us} – {them} Eux")
    await expect(item.locator(".resume-turn")).to_have_text(
        "La donne est finie\u00a0: distribuez la suivante"
    )


async def test_a_charlemagne_table_waiting_for_its_seats_says_so_in_its_words(
    live_server: str, page: Page
) -> None:
    await charlemagne_friends.make_table(page, live_server)
    await page.goto(live_server + "/")
    turn = page.get_by_test_id("resume-item").locator(".resume-turn")
    await expect(turn).to_have_text("Waiting for the table to fill")
    await page.goto(f"{live_server}/lang/fr?next=/")
    await expect(turn).to_have_text("En attente des autres joueurs")


async def test_a_charlemagne_resume_entry_names_the_seat_to_act_and_what_it_is_doing(
    hooked_server: str, browser: Browser, page: Page
) -> None:
    # A shared Charlemagne table (scripted: West deals, you sit North and speak first): the
    # computer plays your partner and East, a friend sits West through the seat link.
    await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3, shared=True)
    await charlemagne_friends.give_to_computer(page, ("partner", "left"))
    link = await page.get_by_test_id("seat-link-right").input_value()
    ctx, west = await charlemagne_friends.open_link(browser, link)
    try:
        # You bid 6, East and South pass: West, a person, is to bid.
        await page.get_by_test_id("bid-6").click()
        await expect(west.get_by_test_id("bid-pass")).to_be_enabled()
        await page.goto(hooked_server + "/")
        turn = page.get_by_test_id("resume-item").locator(".resume-turn")
        await expect(turn).to_have_text("West is bidding…")
        await page.goto(f"{hooked_server}/lang/fr?next=/")
        await expect(turn).to_have_text("Ouest annonce…")
        # West passes: you take the kitty and discard, and West's list names you, North.
        await west.get_by_test_id("bid-pass").click()
        await west.goto(hooked_server + "/")
        turn = west.get_by_test_id("resume-item").locator(".resume-turn")
        await expect(turn).to_have_text("North is discarding…")
        await west.goto(f"{hooked_server}/lang/fr?next=/")
        await expect(turn).to_have_text("Nord écarte…")
    finally:
        await ctx.close()


async def test_a_charlemagne_resume_entry_calls_the_partner_your_partner(
    hooked_server: str, browser: Browser, page: Page
) -> None:
    # The same scripted table, a friend sitting South, your partner; East and West are computers.
    await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3, shared=True)
    await charlemagne_friends.give_to_computer(page, ("left", "right"))
    link = await page.get_by_test_id("seat-link-partner").input_value()
    ctx, south = await charlemagne_friends.open_link(browser, link)
    try:
        # You bid 6 and East passes: your partner is to bid, and your list says so as the
        # table does.
        await page.get_by_test_id("bid-6").click()
        await expect(south.get_by_test_id("bid-pass")).to_be_enabled()
        await page.goto(hooked_server + "/")
        turn = page.get_by_test_id("resume-item").locator(".resume-turn")
        await expect(turn).to_have_text("Your partner is bidding…")
        await page.goto(f"{hooked_server}/lang/fr?next=/")
        await expect(turn).to_have_text("Votre partenaire annonce…")
        # South and West pass: you discard, and South's list says its partner is discarding
        # (West, a computer, passes after its pause: the list is read once the table says so).
        await south.get_by_test_id("bid-pass").click()
        await expect(south.locator("#table")).to_have_attribute("data-phase", "discard")
        await south.goto(hooked_server + "/")
        turn = south.get_by_test_id("resume-item").locator(".resume-turn")
        await expect(turn).to_have_text("Your partner is discarding…")
    finally:
        await ctx.close()
