"""Charlemagne with friends, in Chromium: "Play with friends" makes a table and hands over three
seat links (your partner, the left and right opponents), each link seats exactly its seat and
comes back to it in the same browser, a taken seat's link says so in another browser, and the
maker lets the computer fill the empty seats, after which the hand starts."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page, expect

from tests.browser.accessibility import axe_violations
from tests.browser.charlemagne_friends import PLACES, make_table, open_link
from tests.browser.charlemagne_player import CHARLEMAGNE_DEAL, open_scripted
from tests.browser.chouine_page import Server
from tests.browser.conftest import console_errors


async def test_three_seat_links_each_seat_exactly_their_seat(
    live_server: str, browser: Browser, page: Page
) -> None:
    links = await make_table(page, live_server)
    table = page.url
    for place, seat in PLACES.items():
        assert links[place] == f"{table}?seat={seat}"
    await expect(page.get_by_test_id("seat-row-partner")).to_contain_text("Your partner")
    await expect(page.get_by_test_id("seat-row-left")).to_contain_text("Left opponent")
    await expect(page.get_by_test_id("seat-row-right")).to_contain_text("Right opponent")
    await expect(page.get_by_test_id("waiting-time")).to_contain_text("left")
    # Copy puts the seat's own link on the clipboard.
    await page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    await page.get_by_test_id("copy-left").click()
    await expect(page.get_by_test_id("copied")).to_have_text(
        "Copied. Paste it in a message to the friend who sits there."
    )
    assert await page.evaluate("() => navigator.clipboard.readText()") == links["left"]

    partner_ctx, partner = await open_link(browser, links["partner"])
    other_ctx, other = await open_link(browser, links["partner"])
    try:
        # The partner's browser sits South, across from the maker, and waits for the others.
        await expect(partner.locator("#table")).to_have_attribute("data-state", "seating")
        await expect(partner.get_by_test_id("seat-row-partner")).to_have_attribute(
            "data-status", "seated"
        )
        await expect(partner.get_by_test_id("waiting-send")).to_have_text(
            "You are seated. The hand is dealt once every seat is taken."
        )
        await expect(partner.get_by_test_id("fill-left")).to_have_count(0)
        await expect(page.get_by_test_id("seat-row-partner")).to_have_attribute(
            "data-status", "seated"
        )
        await expect(page.get_by_test_id("seat-link-partner")).to_have_count(0)
        # Another browser with the same link: the seat is taken, and nothing of the table shows.
        await expect(other.get_by_test_id("seat-taken")).to_contain_text(
            "This seat is taken: someone already sits there."
        )
        await expect(other.get_by_test_id("hand")).to_be_hidden()
        # The page knew the seat was taken: it asked for none, so no request failed.
        errors = console_errors(other)
        await other.reload()
        await expect(other.get_by_test_id("seat-taken")).to_contain_text("This seat is taken")
        assert errors == []
        # The same browser coming back through its link returns to its seat.
        await partner.reload()
        await expect(partner.get_by_test_id("seat-row-partner")).to_have_attribute(
            "data-status", "seated"
        )
        seat = await partner.evaluate(
            "(id) => localStorage.getItem('veillee.seat.' + id) !== null",
            table.rsplit("/", 1)[1],
        )
        assert seat is True
        # The maker lets the computer play both opponents: the hand starts for both people.
        await page.get_by_test_id("fill-left").click()
        await expect(page.get_by_test_id("seat-row-left")).to_have_attribute(
            "data-status", "computer"
        )
        await page.get_by_test_id("fill-right").click()
        for each in (page, partner):
            await expect(each.get_by_test_id("waiting")).to_be_hidden()
            await expect(each.locator("#table")).to_have_attribute("data-phase", "auction")
            await expect(each.get_by_test_id("seat-left")).to_contain_text("computer")
            await expect(each.get_by_test_id("seat-right")).to_contain_text("computer")
        # Each person sees whether the other is here.
        await expect(page.get_by_test_id("seat-partner").get_by_test_id("presence")).to_have_text(
            "Here"
        )
        await partner.close()
        await expect(page.get_by_test_id("seat-partner").get_by_test_id("presence")).to_have_text(
            "Away"
        )
        # A seat given to the computer: its link says so.
        late_ctx, late = await open_link(browser, links["right"])
        await expect(late.get_by_test_id("seat-taken")).to_contain_text(
            "The computer plays this seat"
        )
        await late_ctx.close()
    finally:
        await partner_ctx.close()
        await other_ctx.close()


async def test_the_charlemagne_page_lists_the_table_in_every_seated_browser(
    live_server: str, browser: Browser, page: Page
) -> None:
    links = await make_table(page, live_server)
    table_id = page.url.rsplit("/", 1)[1]
    partner_ctx, partner = await open_link(browser, links["partner"])
    try:
        await expect(partner.get_by_test_id("seat-row-partner")).to_have_attribute(
            "data-status", "seated"
        )
        for each in (page, partner):
            await each.goto(live_server + "/charlemagne")
            item = each.get_by_test_id("resume-item")
            await expect(item).to_have_count(1)
            await expect(item).to_have_attribute("data-table-id", table_id)
            await expect(item).to_contain_text("Charlemagne")
            await item.get_by_role("link").click()
            await each.wait_for_url(f"**/charlemagne/table/{table_id}")
            await expect(each.get_by_test_id("seat-row-partner")).to_have_attribute(
                "data-status", "seated"
            )
    finally:
        await partner_ctx.close()


async def test_a_table_whose_seats_stay_empty_closes_with_a_note(
    browser: Browser, tmp_path: Path
) -> None:
    server = Server(tmp_path, shared_table_fill_s=2, sweep_interval_s=0.3)
    server.start()
    ctx = await browser.new_context(locale="en-GB")
    try:
        page = await ctx.new_page()
        await make_table(page, server.url)
        lost = page.get_by_test_id("table-lost")
        await expect(lost).to_contain_text(
            "Not every seat was taken within 15 minutes", timeout=10_000
        )
        await expect(page.get_by_test_id("waiting")).to_be_hidden()
    finally:
        await ctx.close()
        server.stop()


async def test_the_blind_pass_between_two_friends_shows_the_card_to_them_alone(
    hooked_server: str, browser: Browser, page: Page
) -> None:
    # The scripted deal: West deals, you (North) pass, the computer at East passes, your
    # partner South bids Charlemagne (rules §5), and you pass it one card face down.
    await open_scripted(page, hooked_server, CHARLEMAGNE_DEAL, dealer=3, shared=True)
    link = await page.get_by_test_id("seat-link-partner").input_value()
    partner_ctx, partner = await open_link(browser, link)
    try:
        await expect(page.get_by_test_id("seat-row-partner")).to_have_attribute(
            "data-status", "seated"
        )
        await page.get_by_test_id("fill-left").click()
        await expect(page.get_by_test_id("fill-right")).to_be_visible()
        await page.get_by_test_id("fill-right").click()
        await page.get_by_test_id("bid-pass").click()
        await partner.get_by_test_id("bid-charlemagne").click()
        await expect(page.locator("#table")).to_have_attribute("data-phase", "give")
        await expect(page.get_by_test_id("no-table-talk")).to_contain_text(
            "The rules ask for no table talk about this card."
        )
        # Nothing of the pass shows on the partner's page while the card is chosen.
        await expect(partner.get_by_test_id("steps").locator("[data-card]")).to_have_count(0)
        await page.locator('#hand [data-card="KH"]').click()
        await page.get_by_test_id("confirm-give").click()
        await expect(page.get_by_test_id("hand-note")).to_have_text(
            "You sit out this hand: your partner plays Charlemagne alone."
        )
        # The bidder sees the card among the steps of its discard; you, the card you passed.
        await expect(partner.locator("#table")).to_have_attribute("data-phase", "discard")
        steps = partner.get_by_test_id("steps")
        await expect(steps).to_contain_text("From your partner:")
        await expect(steps.locator('[data-card="KH"]')).to_have_count(1)
        await expect(page.get_by_test_id("steps")).to_contain_text("You passed your partner:")
        await expect(page.get_by_test_id("steps").locator('[data-card="KH"]')).to_have_count(1)
    finally:
        await partner_ctx.close()


async def test_the_seat_links_screens_pass_axe(
    live_server: str, browser: Browser, phone: Page
) -> None:
    """The maker's waiting screen with a seat taken and one given to the computer, a taken
    seat's page, and the partner's table with presence: no serious or critical axe issue."""
    links = await make_table(phone, live_server)
    assert await axe_violations(phone) == []
    partner_ctx, partner = await open_link(browser, links["partner"])
    other_ctx, other = await open_link(browser, links["partner"])
    try:
        await expect(other.get_by_test_id("seat-taken")).to_be_visible()
        assert await axe_violations(other) == []
        await phone.get_by_test_id("fill-left").click()
        await expect(phone.get_by_test_id("seat-row-left")).to_have_attribute(
            "data-status", "computer"
        )
        assert await axe_violations(phone) == []
        await phone.get_by_test_id("fill-right").click()
        presence = partner.get_by_test_id("seat-partner").get_by_test_id("presence")
        await expect(presence).to_have_attribute("data-here", "true")
        assert await axe_violations(partner) == []
    finally:
        await partner_ctx.close()
        await other_ctx.close()
