"""Driving a shared Chouine table from two browsers, as two friends do: make the table, open
its link, and play on whichever page asks something, by clicks; or sit at a table of two
people made by the test hook."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, expect

from tests.browser.chouine_page import play_a_card

ACTING = ("my-turn", "prompt", "count", "match-over")


async def make_shared_table(page: Page, base: str, best_of: int) -> str:
    """From the Chouine page, "Make a table for two — best of N": the link shown to send."""
    await page.goto(base + "/chouine")
    await page.get_by_test_id(f"play-friend-{best_of}").click()
    await page.wait_for_url("**/chouine/table/*")
    await expect(page.get_by_test_id("waiting")).to_be_visible()
    link = await page.get_by_test_id("share-link").input_value()
    assert link == page.url
    return link


async def open_link(
    browser: Browser, link: str, locale: str = "en-GB"
) -> tuple[BrowserContext, Page]:
    """A friend's browser (a context of its own, in ``locale``) opening the link."""
    ctx = await browser.new_context(locale=locale)
    page = await ctx.new_page()
    await page.goto(link)
    return ctx, page


async def people_table(
    page: Page,
    base: str,
    deck: list[str] | None = None,
    dealer: int | None = None,
    *,
    game: str = "chouine",
    seats: tuple[str, ...] = ("human", "human"),
    shared: bool = False,
) -> dict[str, Any]:
    """A table of people made by the test hook, a Chouine table of two unless ``game`` and
    ``seats`` say otherwise (its first deal dealt from ``deck`` by ``dealer`` when given;
    ``shared``: as a table made and sent by link): its id, url and every person's token."""
    body = {"game": game, "seats": list(seats), "deck": deck, "dealer": dealer, "shared": shared}
    made = await page.request.post(base + "/api/test/tables", data=json.dumps(body))
    assert made.status == 201, await made.text()
    table: dict[str, Any] = await made.json()
    return table


async def sit(page: Page, base: str, table: dict[str, Any], seat: int, cards: int = 5) -> None:
    """Open the table in ``page`` as ``seat`` (its token in this tab, as a seat link leaves it)
    and see its hand of ``cards`` cards."""
    token = next(t["token"] for t in table["tokens"] if t["seat"] == seat)
    await page.goto(base + "/lang/en?next=/chouine")
    await page.evaluate(
        "([key, token]) => sessionStorage.setItem(key, token)",
        [f"veillee.seat.{table['table_id']}", token],
    )
    await page.goto(base + table["url"])
    await expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(cards)


async def table_state(page: Page) -> tuple[str, int]:
    """(data-state, data-version) of the table."""
    found = await page.evaluate(
        "() => { const t = document.getElementById('table');"
        " return [t.dataset.state, Number(t.dataset.version)]; }"
    )
    return str(found[0]), int(found[1])


async def take_a_step(page: Page, state: str) -> None:
    """Answer what ``page`` asks: play a card, the seven's prompt, the next partie."""
    if state == "my-turn":
        await play_a_card(page)
    elif state == "prompt":
        await page.get_by_test_id("prompt-continue").click()
    elif state == "count":
        await page.get_by_test_id("next-partie").click()


async def play_until(pages: list[Page], done: str, limit_s: float = 240) -> None:
    """Both friends play by clicks until every page is in state ``done`` (e.g. "match-over")."""
    deadline = time.monotonic() + limit_s
    while True:
        states = [await table_state(page) for page in pages]
        if all(state == done for state, _ in states):
            return
        assert time.monotonic() < deadline, f"stuck at {states}"
        acted = False
        for page, (state, _) in zip(pages, states, strict=True):
            if state in ACTING and state != done:
                await take_a_step(page, state)
                acted = True
        if not acted:
            await asyncio.sleep(0.03)
