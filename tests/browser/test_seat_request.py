"""Taking a seat through a table's link when the request goes astray: its answer lost after the
server seated the page (the page asks again with its request's key and sits where it sat), and
the seat taken by someone else between the page's load and its request (the page says so, as
the expected answer it is, with nothing in the console)."""

from __future__ import annotations

from playwright.async_api import Browser, Page, Route, expect

from tests.browser.conftest import console_errors
from tests.browser.friend_table import make_shared_table, open_link

SEATS = "**/api/tables/*/seats"


async def test_a_seat_whose_answer_was_lost_is_had_on_the_retry(
    live_server: str, browser: Browser, page: Page
) -> None:
    link = await make_shared_table(page, live_server, 3)
    ctx = await browser.new_context(locale="en-GB")
    friend = await ctx.new_page()
    asked: list[str] = []

    async def lose_the_first_answer(route: Route) -> None:
        asked.append(route.request.post_data or "")
        if len(asked) == 1:
            await route.fetch()  # the server seats the page …
            await route.abort("connectionreset")  # … and the answer never arrives
        else:
            await route.continue_()

    await friend.route(SEATS, lose_the_first_answer)
    third_ctx, third = None, None
    try:
        await friend.goto(link)
        await expect(friend.get_by_test_id("hand").locator("button.card")).to_have_count(5)
        await expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(5)
        assert len(asked) == 2 and asked[0] == asked[1]  # the same request, its key with it
        # The retry's seat is the one the first request took: anyone else finds the table full.
        third_ctx, third = await open_link(browser, link)
        await expect(third.get_by_test_id("table-full")).to_contain_text("This table is full")
    finally:
        await ctx.close()
        if third_ctx is not None:
            await third_ctx.close()


async def test_a_seat_taken_after_the_page_loaded_is_said_taken_with_no_console_error(
    live_server: str, browser: Browser, page: Page
) -> None:
    link = await make_shared_table(page, live_server, 3)
    table_id = link.rsplit("/", 1)[1]
    ctx = await browser.new_context(locale="en-GB")
    late = await ctx.new_page()
    errors = console_errors(late)

    async def someone_sits_first(route: Route) -> None:
        # The page was served while the seat was open; someone else sits before its request.
        sat = await page.request.post(f"{live_server}/api/tables/{table_id}/seats")
        assert sat.status == 201
        await route.continue_()

    await late.route(SEATS, someone_sits_first)
    try:
        await late.goto(link)
        full = late.get_by_test_id("table-full")
        await expect(full).to_contain_text("This table is full")
        await expect(late.get_by_test_id("hand")).to_be_hidden()
        assert errors == []
    finally:
        await ctx.close()
