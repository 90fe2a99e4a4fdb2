"""At a Charlemagne table of people, a hand's end says in a sentence whom the next hand waits
for, naming the seats as the table's other sentences do ("Waiting for your partner…", FR "On
attend encore votre partenaire…"; to the seat it waits for, "Waiting for you…"), in English and
in French."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.charlemagne_player import NUMBER_DEAL, answer
from tests.browser.chouine_page import new_phone

PEOPLE = ["human", "computer", "human", "computer"]
"""You (North) and your partner (South) are people; the computer plays East and West."""


async def attrs(page: Page) -> dict[str, str]:
    found: dict[str, str] = await page.evaluate(
        "() => ({...document.getElementById('table').dataset})"
    )
    return found


async def play_to_the_hand_end(pages: list[Page]) -> None:
    """Answer whatever each page asks, by clicks, until every page shows the hand's end."""
    deadline = time.monotonic() + 120
    while True:
        seen = [await attrs(page) for page in pages]
        if all(s["state"] == "hand-over" for s in seen):
            return
        assert time.monotonic() < deadline, f"stuck at {seen}"
        acted = False
        for page, s in zip(pages, seen, strict=True):
            if s["state"] == "my-turn":
                await answer(page, s["phase"])
                acted = True
        if not acted:
            await asyncio.sleep(0.03)


@pytest.mark.parametrize(
    ("lang", "to_you", "to_partner"),
    [
        ("en", "Waiting for your partner…", "Waiting for you…"),
        ("fr", "On attend encore votre partenaire…", "On vous attend…"),
    ],
)
async def test_the_hand_end_says_in_a_sentence_whom_the_next_hand_waits_for(
    hooked_server: str, browser: Browser, lang: str, to_you: str, to_partner: str
) -> None:
    # A tester's screen said "En attente de : Partenaire": the seat's label, not a sentence.
    body = {"game": "charlemagne", "deck": NUMBER_DEAL, "dealer": 3, "seats": PEOPLE}
    contexts = [await new_phone(browser, (360, 640), lang) for _ in range(2)]
    try:
        made = await contexts[0].request.post(
            hooked_server + "/api/test/tables", data=json.dumps({**body, "shared": True})
        )
        assert made.status == 201, await made.text()
        table = await made.json()
        tokens = {grant["seat"]: grant["token"] for grant in table["tokens"]}
        pages = []
        for ctx, seat in zip(contexts, (0, 2), strict=True):
            key = f"veillee.seat.{table['table_id']}"
            await ctx.add_init_script(
                f"localStorage.setItem({json.dumps(key)}, {json.dumps(tokens[seat])})"
            )
            page = await ctx.new_page()
            await page.goto(hooked_server + table["url"])
            pages.append(page)
        you, partner = pages
        await play_to_the_hand_end(pages)
        for page in pages:
            await expect(page.get_by_test_id("hand-end")).to_be_visible()
            await expect(page.get_by_test_id("ready-line")).to_have_text("")
        await you.get_by_test_id("next-hand").click()
        await expect(you.get_by_test_id("ready-line")).to_have_text(to_you)
        await expect(partner.get_by_test_id("ready-line")).to_have_text(to_partner)
        await partner.get_by_test_id("next-hand").click()  # the next hand is dealt
        for page in pages:
            await expect(page.get_by_test_id("hand-end")).to_be_hidden()
            await expect(page.locator("#table")).to_have_attribute("data-hand", "2")
    finally:
        for ctx in contexts:
            await ctx.close()
