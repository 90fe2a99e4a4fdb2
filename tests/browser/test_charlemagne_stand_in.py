"""Friends come and go at a Charlemagne table of four browsers (issue 25): West closes their tab,
North lets the computer play for West, the computer plays West through the rest of the hand
and is ready for the next by itself; West opens their link again and plays on with the hand as
it is now. The host gives a vacated seat to someone new: of two opening the new link one sits,
and West's old link says the seat was given away. After the match, the rematch (every
person's `next`) works with the computer standing in.

The server here lets the computer stand in after one second away (``stand_in_after_s``)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, expect

from tests.browser.charlemagne_player import answer

WEST = 3
PARTNER = 2
"""North's partner (North, seat 0, made the table)."""


@pytest.fixture(scope="module")
def server(leaving_server: str) -> str:
    return leaving_server


@pytest_asyncio.fixture
async def contexts(browser: Browser) -> AsyncIterator[list[BrowserContext]]:
    made = [await browser.new_context(locale="en-GB") for _ in range(6)]
    yield made
    for ctx in made:
        await ctx.close()


async def four_people(page: Page, base: str, options: dict[str, int] | None = None) -> Any:
    """A table of four people sat at through links, every seat taken (the test hook)."""
    body = {"game": "charlemagne", "seats": ["human"] * 4, "shared": True, "options": options or {}}
    made = await page.request.post(base + "/api/test/tables", data=json.dumps(body))
    assert made.status == 201, await made.text()
    return await made.json()


async def sit(ctx: BrowserContext, base: str, table: Any, seat: int) -> Page:
    """Open the table as ``seat`` in ``ctx`` (its token kept as a seat link keeps it)."""
    page = await ctx.new_page()
    token = next(t["token"] for t in table["tokens"] if t["seat"] == seat)
    await page.goto(base + "/lang/en?next=/charlemagne")
    await page.evaluate(
        "([key, token]) => localStorage.setItem(key, token)",
        [f"veillee.seat.{table['table_id']}", token],
    )
    await page.goto(base + table["url"])
    await expect(page.locator("#table")).to_have_attribute("data-phase", "auction")
    return page


async def attrs(page: Page) -> dict[str, str]:
    found: dict[str, str] = await page.evaluate(
        "() => ({...document.getElementById('table').dataset})"
    )
    return found


async def play(
    pages: dict[int, Page], until: Any, limit_s: float = 120, next_hands: bool = True
) -> dict[int, dict[str, str]]:
    """The people at ``pages`` answer whatever their page asks, by clicks, until ``until(seen)``
    holds (``seen``: each page's table data); nexts the hand-end screens (unless
    ``next_hands`` is false). The seen data then."""
    deadline = time.monotonic() + limit_s
    nexted: set[tuple[int, str]] = set()
    while True:
        seen = {seat: await attrs(page) for seat, page in pages.items()}
        if until(seen):
            return seen
        assert time.monotonic() < deadline, f"stuck at {seen}"
        acted = False
        for seat, page in pages.items():
            s = seen[seat]
            if s["state"] == "my-turn":
                await answer(page, s["phase"])
                acted = True
            elif next_hands and s["state"] == "hand-over" and (seat, s["hand"]) not in nexted:
                nexted.add((seat, s["hand"]))
                await page.get_by_test_id("next-hand").click()
                acted = True
        if not acted:
            await asyncio.sleep(0.03)


async def all_seated(
    server: str, contexts: list[BrowserContext], options: dict[str, int] | None = None
) -> tuple[Any, dict[int, Page]]:
    """Four people at a table (the test hook), each in a browser of their own: the table and
    the four pages."""
    first = await contexts[0].new_page()
    table = await four_people(first, server, options)
    await first.close()
    return table, {seat: await sit(contexts[seat], server, table, seat) for seat in range(4)}


async def west_has_gone(north: Page) -> None:
    """North is told West has left, and lets the computer play for West."""
    await expect(north.get_by_test_id("away-3")).to_have_text("West has left")
    await north.get_by_test_id("stand-in-3").click()
    await expect(north.get_by_test_id("comings-news")).to_have_text("The computer plays for West.")
    badge = north.get_by_test_id("seat-right").get_by_test_id("presence")
    await expect(badge).to_have_attribute("data-stand-in", "true")
    await expect(badge).to_contain_text("computer")


async def west_away(
    server: str, contexts: list[BrowserContext], options: dict[str, int] | None = None
) -> tuple[Any, dict[int, Page]]:
    """Four people at a table (the test hook), each in a browser of their own; West closes the
    tab and North lets the computer play for West: the table and the three pages left."""
    first = await contexts[0].new_page()
    table = await four_people(first, server, options)
    await first.close()
    pages = {seat: await sit(contexts[seat], server, table, seat) for seat in range(4)}
    await expect(pages[WEST].locator("#hand button.card")).to_have_count(8)
    await pages.pop(WEST).close()
    await west_has_gone(pages[0])
    return table, pages


async def test_stand_in_plays_a_gone_seat_through_the_hand_and_gives_it_back(
    server: str, contexts: list[BrowserContext]
) -> None:
    # West closes the tab: North is told after a second, and asks for the stand-in.
    table, pages = await west_away(server, contexts)
    north = pages[0]
    # The three play on; the computer plays West through the rest of the hand, and is ready
    # for the next hand by itself.
    seen = await play(pages, lambda seen: all(s["hand"] == "2" for s in seen.values()))
    assert all(s["phase"] == "auction" for s in seen.values())
    # Resume list of a person still there: the stand-in is marked.
    home = await contexts[1].new_page()
    await home.goto(server + "/charlemagne")
    item = home.get_by_test_id("resume-item")
    await expect(item.get_by_test_id("resume-gone")).to_have_text("The computer plays for West")
    await home.close()
    # West opens their link again: the seat is theirs at once, with the hand as it is now.
    west = await contexts[WEST].new_page()
    await west.goto(server + table["url"])
    await expect(west.locator("#table")).to_have_attribute("data-hand", "2")
    cards = await west.locator("#hand button.card").count()
    assert cards == len(
        await west.evaluate("() => [...document.querySelectorAll('#hand [data-card]')]")
    )
    await expect(north.get_by_test_id("comings-news")).to_have_text("West is back and plays again.")
    badge = north.get_by_test_id("seat-right").get_by_test_id("presence")
    await expect(badge).to_have_attribute("data-stand-in", "false")
    pages[WEST] = west
    acted_before = await west.evaluate(
        "() => Number(document.getElementById('table').dataset.version)"
    )
    # West plays on with their own clicks: once West has acted, the hand goes on.
    west_played = False

    def west_acted(seen: dict[int, dict[str, str]]) -> bool:
        nonlocal west_played
        west_played = west_played or seen[WEST]["state"] == "my-turn"
        return (
            west_played
            and seen[WEST]["state"] != "my-turn"
            and (int(seen[WEST]["version"]) > acted_before)
        )

    await play(pages, west_acted)


async def test_a_partner_gone_at_the_hand_end_is_shown_on_the_screen_and_stood_in_for(
    server: str, contexts: list[BrowserContext]
) -> None:
    # The four play the first hand to its end; North's partner closes the tab on the hand-end
    # screen. The screen lies over the top of the table, where the notices are: they come into
    # it, so that North sees that the partner has left, in a sentence, and can let the
    # computer play for them (a real click: nothing lies over the button); the next hand comes.
    _, pages = await all_seated(server, contexts)
    await play(
        pages, lambda seen: all(s["state"] == "hand-over" for s in seen.values()), next_hands=False
    )
    await pages.pop(PARTNER).close()
    north = pages[0]
    screen = north.get_by_test_id("hand-end")
    await expect(screen).to_be_visible()
    await expect(screen.get_by_test_id("away-2")).to_have_text("Your partner has left")
    button = screen.get_by_test_id("stand-in-2")
    await expect(button).to_have_text("Let the computer play for your partner")
    await button.click()
    await expect(screen.get_by_test_id("comings-news")).to_have_text(
        "The computer plays for your partner."
    )
    for page in pages.values():
        await page.get_by_test_id("next-hand").click()
    for page in pages.values():
        await expect(page.locator("#table")).to_have_attribute("data-hand", "2")
        await expect(page.get_by_test_id("hand-end")).to_be_hidden()
    # Closed, the screen gives the comings back to the top of the table.
    assert await north.evaluate("() => !!document.querySelector('#table > .notices > #comings')")


async def test_stand_in_seat_given_to_someone_new_and_the_old_link_says_so(
    server: str, contexts: list[BrowserContext]
) -> None:
    table, pages = await west_away(server, contexts)
    north = pages[0]
    # Only the host may give the seat; East sees no such button.
    await expect(pages[1].get_by_test_id("give-seat-3")).to_have_count(0)
    await north.get_by_test_id("give-seat-3").click()
    link = north.get_by_test_id("new-link-3")
    await expect(link).to_have_value(f"{server}{table['url']}?seat=3&g=1")
    new_link = await link.input_value()
    # Two people open the new link at once: exactly one sits.
    a, b = await contexts[4].new_page(), await contexts[5].new_page()
    await asyncio.gather(a.goto(new_link), b.goto(new_link))
    states: list[dict[str, str]] = []
    for _ in range(200):
        states = [await attrs(page) for page in (a, b)]
        if sorted(s["state"] == "full" for s in states) == [False, True] and all(
            s["state"] != "loading" for s in states
        ):
            break
        await asyncio.sleep(0.05)
    seated = [page for page, s in zip((a, b), states, strict=True) if s["state"] != "full"]
    assert len(seated) == 1, states
    newcomer = seated[0]
    await expect(newcomer.locator("#hand button.card")).not_to_have_count(0)
    loser = b if newcomer is a else a
    await expect(loser.get_by_test_id("seat-taken")).to_contain_text("This seat is taken")
    await expect(north.get_by_test_id("comings-news")).to_have_text(
        "Someone new sits at West's seat."
    )
    # West's own browser, with its old token: the seat was given to someone else, no card.
    west = await contexts[WEST].new_page()
    await west.goto(server + table["url"])
    await expect(west.get_by_test_id("table-lost")).to_contain_text("is no longer yours")
    await expect(west.locator("#hand [data-card]")).to_have_count(0)
    # The old seat link in a browser holding no token says the same, before any request.
    # (the one who lost the race holds no token).
    await loser.goto(f"{server}{table['url']}?seat=3")
    await expect(loser.get_by_test_id("table-lost")).to_contain_text("is no longer yours")
    await expect(loser.locator("#hand [data-card]")).to_have_count(0)


async def test_stand_in_rematch_after_the_match_works(
    server: str, contexts: list[BrowserContext]
) -> None:
    _, pages = await west_away(server, contexts, {"target": 1})
    await play(pages, lambda seen: all(s["state"] == "match-over" for s in seen.values()))
    for page in pages.values():
        await expect(page.get_by_test_id("new-match")).to_be_visible()
        await page.get_by_test_id("new-match").click()
    for page in pages.values():
        await expect(page.locator("#table")).to_have_attribute("data-phase", "auction")
        await expect(page.get_by_test_id("match-line")).to_contain_text("Hand 1")
    # The computer still stands in for West in the new match.
    badge = pages[0].get_by_test_id("seat-right").get_by_test_id("presence")
    await expect(badge).to_have_attribute("data-stand-in", "true")


async def test_the_turn_line_says_whom_the_table_waits_for_while_they_are_away(
    server: str, contexts: list[BrowserContext]
) -> None:
    # The person whose turn it is closes the tab: their partner's turn line no longer says
    # they are bidding, but that the table waits for them, and says so until they are back.
    table, pages = await all_seated(server, contexts)
    seen = {seat: await attrs(page) for seat, page in pages.items()}
    (gone,) = [seat for seat, s in seen.items() if s["state"] == "my-turn"]
    partner = pages[(gone + 2) % 4]
    line = partner.get_by_test_id("turn-line")
    await expect(line).to_have_text("Your partner is bidding…")
    await pages.pop(gone).close()
    await expect(line).to_have_text("Waiting for your partner (away)")
    back = await contexts[gone].new_page()
    await back.goto(server + table["url"])
    await expect(back.locator("#table")).to_have_attribute("data-state", "my-turn")
    await expect(line).to_have_text("Your partner is bidding…")
