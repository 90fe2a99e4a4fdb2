"""SquareScores in Chromium at 390×844: S1 by taps with a live viewer, and entry offline."""

from __future__ import annotations

import json
import re

import httpx
from playwright.async_api import Browser, Page, expect

S1_TAPS = [(0, "won"), (0, "won"), (1, "mordienne"), (0, "won"), (0, "won")]


async def start_sheet(page: Page, live_server: str) -> str:
    """Start an Aluette sheet with the defaults; returns its id once the page is live."""
    await page.goto(live_server + "/scores")
    await expect(page.locator("#side0")).to_have_value("North & South")
    await expect(page.locator("#side1")).to_have_value("East & West")
    await page.get_by_role("button", name="Start the sheet").tap()
    await expect(page.locator("body")).to_have_attribute("data-net", "online")
    await expect(page.locator("#side-name-0")).to_have_text("North & South")
    return page.url.rstrip("/").split("/")[-1]


async def tokens(page: Page) -> dict:
    mine = json.loads(await page.evaluate("localStorage.getItem('veillee.scores.mine')"))
    return mine[0]


def pad_button(page: Page, side: int, outcome: str):
    return page.locator(f'#pad button[data-side="{side}"][data-outcome="{outcome}"]')


async def test_s1_by_taps_banks_north_south_4_2_and_a_viewer_follows_live(
    live_server: str, phone: Page, browser: Browser
) -> None:
    await start_sheet(phone, live_server)
    await expect(phone.locator("#match-state")).to_have_text("Hand 1 — North deals")
    await phone.locator("#share").tap()
    viewer_link = await phone.locator("#viewer-link").input_value()
    scorer_link = await phone.locator("#scorer-link").input_value()
    assert "#viewer=" in viewer_link and "#scorer=" in scorer_link
    await phone.locator("#share-close").tap()

    viewer_ctx = await browser.new_context(locale="en-GB")
    try:
        viewer = await viewer_ctx.new_page()
        await viewer.goto(viewer_link)
        await expect(viewer.locator("body")).to_have_attribute("data-net", "online")
        await expect(viewer.locator("#read-only")).to_be_visible()
        for i, (side, outcome) in enumerate(S1_TAPS):
            await pad_button(phone, side, outcome).tap()
            await expect(viewer.locator("#rows tr")).to_have_count(i + 1)
            await expect(viewer.locator("#pad button")).to_have_count(0)
            await expect(viewer.locator(".row-edit")).to_have_count(0)
            await expect(viewer.locator("#actions")).to_be_hidden()
        for page in (phone, viewer):
            await expect(page.locator("#total-0")).to_have_text("4")
            await expect(page.locator("#total-1")).to_have_text("2")
            await expect(page.locator("#rows tr td.col-dealer")).to_have_text(
                ["North", "East", "South", "West", "North"]
            )
        await expect(phone.locator("#match-state")).to_have_text(
            "Won by North & South, 4–2 — tap End match"
        )
        await expect(phone.locator("#pad button")).to_have_count(0)  # a sixth row is not offered

        await phone.locator("#end").tap()
        for page in (phone, viewer):
            await expect(page.locator("#match-state")).to_have_text(
                "Banked: won by North & South, 4–2"
            )
        await expect(phone.locator("#actions")).to_be_hidden()
        await expect(phone.locator(".row-edit")).to_have_count(0)
        await expect(viewer.locator("#rows tr")).to_have_count(5)
        # no switch on either page now: the settings line says whether the race was on
        for page in (phone, viewer):
            await expect(page.locator("#settings-line")).to_contain_text(
                "Surrender: on · Race to ten (announced mordienne): off"
            )
    finally:
        await viewer_ctx.close()


async def test_rows_entered_offline_are_stored_once_when_the_network_returns(
    live_server: str, phone: Page, browser: Browser
) -> None:
    sheet_id = await start_sheet(phone, live_server)
    mine = await tokens(phone)
    auth = {"authorization": f"Bearer {mine['scorerToken']}"}

    # A function, not a bare expression: Playwright eval()s bare expressions, which the CSP forbids.
    await phone.wait_for_function("() => navigator.serviceWorker.controller !== null")

    await phone.context.set_offline(True)
    await expect(phone.locator("body")).to_have_attribute("data-net", "offline")
    await pad_button(phone, 0, "won").tap()
    await pad_button(phone, 1, "mordienne").tap()
    await expect(phone.locator("#rows tr.pending")).to_have_count(2)
    # the page opens again with no network (service worker) and still holds both entries
    await phone.reload()
    await expect(phone.locator("body")).to_have_attribute("data-net", "offline")
    await expect(phone.locator("#rows tr.pending")).to_have_count(2)
    await expect(phone.locator("#total-0")).to_have_text("1")
    await expect(phone.locator("#total-1")).to_have_text("2")
    async with httpx.AsyncClient(base_url=live_server) as c:
        before = (await c.get(f"/api/sheets/{sheet_id}", headers=auth)).json()["sheet"]
    assert before["version"] == 0 and before["status"]["rows"] == []

    await phone.context.set_offline(False)
    await expect(phone.locator("body")).to_have_attribute("data-net", "online")
    await expect(phone.locator("#rows tr.pending")).to_have_count(0)
    await expect(phone.locator("#rows tr")).to_have_count(2)
    async with httpx.AsyncClient(base_url=live_server) as c:
        after = (await c.get(f"/api/sheets/{sheet_id}", headers=auth)).json()["sheet"]
    assert after["status"]["rows"] == [[1, 0], [0, 2]]
    assert after["version"] == 2  # each entry written once

    other_ctx = await browser.new_context(locale="en-GB")
    try:
        other = await other_ctx.new_page()
        await other.goto(f"{live_server}/scores/sheet/{sheet_id}#viewer={mine['viewerToken']}")
        await expect(other.locator("#rows tr")).to_have_count(2)
        await expect(other.locator("#total-0")).to_have_text("1")
        await expect(other.locator("#total-1")).to_have_text("2")
    finally:
        await other_ctx.close()


async def test_a_tie_after_the_last_hand_says_one_more_hand_breaks_it(
    live_server: str, phone: Page
) -> None:
    await phone.goto(live_server + "/scores")
    await phone.locator('select[name="tie"]').select_option("one-more")
    await phone.get_by_role("button", name="Start the sheet").tap()
    await expect(phone.locator("body")).to_have_attribute("data-net", "online")
    # Rules S4: NS 1, EW 1, NS 1, EW 2, NS 1 -> 3-3 after the five hands: one more is played.
    entries = [(0, "won"), (1, "won"), (0, "won"), (1, "mordienne"), (0, "won")]
    for n, (side, outcome) in enumerate(entries, start=1):
        await pad_button(phone, side, outcome).tap()
        await expect(phone.locator("body")).to_have_attribute("data-version", str(n))
        if n < 5:
            await expect(phone.locator("#match-state")).to_have_text(
                re.compile(rf"^Hand {n + 1} — \w+ deals$")
            )
    await expect(phone.locator("#match-state")).to_have_text(
        "Hand 6 — East deals · one more hand to break the tie"
    )
    await pad_button(phone, 1, "won").tap()
    await expect(phone.locator("#match-state")).to_have_text(
        re.compile(r"^Won by East & West, 4–3")
    )
