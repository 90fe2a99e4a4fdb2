"""Chouine with a friend, in two browsers: the link, the waiting screen, the whole match by
clicks, a third browser told the table is full, the count from seat 1, presence, and the
ready handshake (each sees the other is ready); the link box never empty; a friend gone at the
count is said on the count, and a friend gone on their turn on the turn line."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.accessibility import axe_violations
from tests.browser.chat_page import chat_texts, say_in_chat
from tests.browser.conftest import console_errors
from tests.browser.friend_table import (
    make_shared_table,
    open_link,
    people_table,
    play_until,
    sit,
    table_state,
)


async def test_two_friends_play_a_best_of_3_match_through_the_link(
    live_server: str, browser: Browser, page: Page
) -> None:
    link = await make_shared_table(page, live_server, 3)
    await expect(page.get_by_test_id("waiting-time")).to_contain_text(
        "The table waits 15 minutes for someone to sit down: 1"
    )
    await page.get_by_test_id("copy-link").click()
    await expect(page.get_by_test_id("copied")).to_contain_text("Copied")
    friend_ctx, friend = await open_link(browser, link)
    third_ctx, third = await open_link(browser, link)
    try:
        # The host's waiting screen gives way the moment the friend sits.
        await expect(page.get_by_test_id("waiting")).to_be_hidden()
        await expect(friend.get_by_test_id("hand").locator("button.card")).to_have_count(5)
        await expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(5)
        for each in (page, friend):
            await expect(each.get_by_test_id("opponent-presence")).to_have_text("●Here")
            await expect(each.locator("#opp-name")).to_have_text("Your friend")
            # What a screen reader names the other seat's side says nothing of a computer.
            await expect(each.get_by_role("region", name="The other side")).to_be_visible()
            await expect(each.get_by_test_id("opponent-declarations")).to_have_attribute(
                "aria-label", "Their declarations"
            )
            await expect(each.get_by_test_id("score")).to_have_text("You 0 – 0 Friend")
        # Anyone else opening the link is told the table is full, with a way to their own.
        full = third.get_by_test_id("table-full")
        await expect(full).to_contain_text("This table is full")
        await expect(full.get_by_role("link", name="Make your own table")).to_have_attribute(
            "href", "/chouine"
        )
        await expect(third.get_by_test_id("hand")).to_be_hidden()
        # The page knew the table was full: it asked for no seat, so no request failed.
        errors = console_errors(third)
        await third.reload()
        await expect(full).to_contain_text("This table is full")
        assert errors == []
        # The friend's seat is seat 1, and its token is kept for the resume list.
        assert (
            await friend.evaluate(
                "() => Object.keys(localStorage).filter(k => k.startsWith('veillee.seat.')).length"
            )
            == 1
        )
        await play_until([page, friend], "match-over")
        for each in (page, friend):
            await expect(each.get_by_test_id("match-result")).to_be_visible()
        results = [await p.get_by_test_id("match-result").inner_text() for p in (page, friend)]
        winners = [r.startswith("You win the match 2") for r in results]
        assert sorted(winners) == [False, True], results
        assert results[winners.index(False)].startswith("Your friend wins the match 2"), results
        # A new match once both ask; each sees the other is ready.
        first, second = (page, friend)
        await first.get_by_test_id("new-match").click()
        await expect(first.get_by_test_id("ready-line")).to_have_text(
            "Waiting for your friend to be ready…"
        )
        await expect(second.get_by_test_id("ready-line")).to_have_text(
            "Your friend is ready for a new match."
        )
        # The count waits for the friend, and the chat stays in reach to ask.
        drawer = await say_in_chat(first, "One more?")
        for each in (first, second):
            await expect(chat_texts(each)).to_contain_text(["One more?"])
        if drawer:
            await first.get_by_test_id("chat-close").click()
        await second.get_by_test_id("new-match").click()
        for each in (page, friend):
            await expect(each.get_by_test_id("score")).to_have_text("You 0 – 0 Friend")
            state, _ = await table_state(each)
            assert state in ("my-turn", "waiting", "prompt")
    finally:
        await friend_ctx.close()
        await third_ctx.close()


async def test_the_shared_tables_screens_pass_axe(
    live_server: str, browser: Browser, phone: Page
) -> None:
    """The waiting screen, the table at seat 1 with the friend's presence, the count with who
    is ready, the leave dialog, and the resume list: no serious or critical axe issue."""
    link = await make_shared_table(phone, live_server, 3)
    assert await axe_violations(phone) == []
    friend_ctx, friend = await open_link(browser, link)
    try:
        await expect(friend.get_by_test_id("opponent-presence")).to_have_text("●Here")
        assert await axe_violations(friend) == []
        await play_until([phone, friend], "count")
        await friend.get_by_test_id("next-partie").click()
        await expect(phone.get_by_test_id("ready-line")).to_have_text(
            "Your friend is ready for the next partie."
        )
        assert await axe_violations(phone) == []
        await friend.goto(live_server + "/")
        await expect(friend.get_by_test_id("resume-item")).to_have_count(1)
        # Ready for the next partie: the list says whom it waits for.
        await expect(friend.get_by_test_id("resume-item").locator(".resume-turn")).to_have_text(
            "The partie is over: waiting for your friend"
        )
        assert await axe_violations(friend) == []
    finally:
        await friend_ctx.close()


@pytest.mark.parametrize(
    ("locale", "not_here_yet", "their_turn"),
    [
        ("en-GB", "Waiting for your friend to join — share the link", "Your friend's turn"),
        ("fr-FR", "Votre ami n'est pas encore là — envoyez-lui le lien", "Au tour de votre ami"),
    ],
)
async def test_waiting_for_the_friend_to_come_and_for_their_move_are_said_apart(
    live_server: str, browser: Browser, locale: str, not_here_yet: str, their_turn: str
) -> None:
    host_ctx, host = await open_link(browser, live_server + "/", locale)
    link = await make_shared_table(host, live_server, 3)
    # Before the friend comes: the waiting screen says so (and so does the turn line, which
    # the live region reads).
    await expect(host.locator("#waiting-title")).to_have_text(not_here_yet)
    await expect(host.get_by_test_id("turn-line")).to_have_text(not_here_yet)
    friend_ctx, friend = await open_link(browser, link, locale)
    try:
        await expect(host.get_by_test_id("waiting")).to_be_hidden()
        pages = [host, friend]
        for each in pages:
            await each.wait_for_function(
                "() => ['my-turn', 'waiting'].includes(document.getElementById('table')"
                ".dataset.state)"
            )
        states = [(await table_state(each))[0] for each in pages]
        assert sorted(states) == ["my-turn", "waiting"], states
        # The one whose friend is to lead is told it is the friend's turn, not that it waits
        # for the friend to come.
        watching = pages[states.index("waiting")]
        await expect(watching.get_by_test_id("turn-line")).to_have_text(their_turn)
    finally:
        await friend_ctx.close()
        await host_ctx.close()


LINK_BOX = """() => {
    window.linkBox = [];
    const look = () => {
        const box = document.getElementById('share-link');
        const waiting = document.getElementById('waiting');
        if (box) {
            const state = document.getElementById('table').dataset.state;
            window.linkBox.push([state, !waiting.hidden, box.value]);
        }
        requestAnimationFrame(look);
    };
    look();
}"""
"""Record on every frame from the page's start: (data-state, waiting screen shown, link box)."""


async def test_the_link_box_holds_the_link_from_the_first_frame(
    live_server: str, page: Page
) -> None:
    await page.add_init_script(f"({LINK_BOX})()")
    link = await make_shared_table(page, live_server, 3)
    # The page changes language: the link is there from the first frame to the waiting screen.
    await page.goto(f"{live_server}/lang/fr?next=/chouine/table/{link.rsplit('/', 1)[1]}")
    await expect(page.get_by_test_id("waiting")).to_be_visible()
    await expect(page.get_by_test_id("share-link")).to_have_value(link)
    seen = await page.evaluate("() => window.linkBox")
    assert seen[0][0] == "loading" and seen[-1][:2] == ["seating", True]
    assert {value for _, _, value in seen} == {link}


async def test_a_friend_gone_at_the_count_is_said_on_the_count(
    leaving_server: str, browser: Browser
) -> None:
    # Two friends play a partie to its count; the friend closes the tab. The count lies over
    # the friend's badge, and the next partie waits for them: the count says they are gone,
    # and stops saying it once they are back.
    ctx = [await browser.new_context(locale="en-GB") for _ in range(2)]
    try:
        host, friend = [await c.new_page() for c in ctx]
        table = await people_table(host, leaving_server, shared=True)
        await sit(host, leaving_server, table, 0)
        await sit(friend, leaving_server, table, 1)
        await play_until([host, friend], "count")
        await friend.close()
        count = host.get_by_test_id("count")
        gone = count.get_by_test_id("away-1")
        await expect(gone).to_have_text(
            "Your friend no longer has the table open: play goes on once they are back."
        )
        await count.get_by_test_id("next-partie").click()
        await expect(count.locator(".ready-line")).to_contain_text("friend")
        back = await ctx[1].new_page()
        await sit(back, leaving_server, table, 1, cards=0)
        await expect(gone).to_have_count(0)
        await expect(back.locator("#table")).to_have_attribute("data-state", "count")
        await back.get_by_test_id("next-partie").click()
        for page in (host, back):
            await expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(5)
    finally:
        for c in ctx:
            await c.close()


async def test_a_friend_gone_on_their_turn_is_said_on_the_turn_line(
    leaving_server: str, browser: Browser
) -> None:
    ctx = [await browser.new_context(locale="en-GB") for _ in range(2)]
    try:
        pages = [await c.new_page() for c in ctx]
        table = await people_table(pages[0], leaving_server, shared=True)
        for seat, page in enumerate(pages):
            await sit(page, leaving_server, table, seat)
        states = [(await table_state(page))[0] for page in pages]
        mover = states.index("my-turn")  # whose turn it is closes the tab
        stays = pages[1 - mover]
        line = stays.get_by_test_id("turn-line")
        await expect(line).to_have_text("Your friend's turn")
        await pages[mover].close()
        await expect(line).to_have_text("Waiting for your friend (away)")
        back = await ctx[mover].new_page()
        await sit(back, leaving_server, table, mover)
        await expect(line).to_have_text("Your friend's turn")
    finally:
        for c in ctx:
            await c.close()
