"""SquareScores offline on a phone: the pad offers no more entries than the match can still
hold (hands, or points in a race to ten), and an entry refused on sync stays shown as refused
with its reason until dismissed."""

from __future__ import annotations

import httpx
from playwright.async_api import Page, expect

from tests.browser.test_scores import pad_button, start_sheet, tokens


async def test_offline_the_pad_offers_no_more_hands_than_the_match_can_still_hold(
    live_server: str, phone: Page
) -> None:
    await start_sheet(phone, live_server)
    await pad_button(phone, 0, "won").tap()
    await expect(phone.locator("body")).to_have_attribute("data-version", "1")
    await phone.context.set_offline(True)
    await expect(phone.locator("body")).to_have_attribute("data-net", "offline")
    for n in range(1, 5):  # hands 2–5: the fifth may decide the match
        await pad_button(phone, 0, "won").tap()
        await expect(phone.locator("#rows tr.pending")).to_have_count(n)
    await expect(phone.locator("#pad button")).to_have_count(0)
    await expect(phone.locator("#read-only")).to_contain_text(
        "No more hands can be entered offline"
    )
    await expect(phone.locator("#total-0")).to_have_text("5")

    await phone.context.set_offline(False)
    await expect(phone.locator("body")).to_have_attribute("data-version", "5")
    await expect(phone.locator("#rows tr.pending")).to_have_count(0)
    await expect(phone.locator("#match-state")).to_have_text(
        "Won by North & South, 5–0 — tap End match"
    )


async def test_offline_in_a_race_to_ten_the_pad_stops_once_a_side_could_reach_ten(
    live_server: str, phone: Page
) -> None:
    await start_sheet(phone, live_server)
    await phone.locator("#race").check()
    await expect(phone.locator("body")).to_have_attribute("data-version", "1")
    await pad_button(phone, 1, "mordienne").tap()
    await expect(phone.locator("body")).to_have_attribute("data-version", "2")
    await phone.context.set_offline(True)
    await expect(phone.locator("body")).to_have_attribute("data-net", "offline")
    for n in range(1, 5):  # East & West 2 + 4 × 2 = 10: the fourth queued entry may decide it
        await pad_button(phone, 1, "mordienne").tap()
        await expect(phone.locator("#rows tr.pending")).to_have_count(n)
    await expect(phone.locator("#pad button")).to_have_count(0)
    await expect(phone.locator("#total-1")).to_have_text("10")
    await phone.context.set_offline(False)
    await expect(phone.locator("body")).to_have_attribute("data-version", "6")
    await expect(phone.locator("#match-state")).to_have_text(
        "Won by East & West, 10–0 — tap End match"
    )


async def test_an_entry_refused_on_sync_stays_shown_as_refused_with_the_reason(
    live_server: str, phone: Page
) -> None:
    sheet_id = await start_sheet(phone, live_server)
    auth = {"authorization": f"Bearer {(await tokens(phone))['scorerToken']}"}
    await phone.context.set_offline(True)
    await expect(phone.locator("body")).to_have_attribute("data-net", "offline")
    await pad_button(phone, 1, "won").tap()
    await pad_button(phone, 1, "won").tap()
    await expect(phone.locator("#rows tr.pending")).to_have_count(2)
    # meanwhile another phone with the scorer link enters four hands
    async with httpx.AsyncClient(base_url=live_server) as c:
        for i in range(4):
            r = await c.post(
                f"/api/sheets/{sheet_id}/changes",
                headers=auth,
                json={"type": "add", "client_id": f"other{i}", "side": 0, "outcome": "won"},
            )
            assert r.status_code == 200

    await phone.context.set_offline(False)
    # the first queued hand is the fifth and decides the match; the second is refused
    await expect(phone.locator("#rows tr[data-row]")).to_have_count(5)
    refused = phone.locator("#rows tr.refused")
    await expect(refused).to_have_count(1)
    await expect(refused).to_contain_text("Refused — East & West: Won +1.")
    await expect(refused).to_contain_text("The match is decided — tap End match.")
    await expect(phone.locator("#total-0")).to_have_text("4")
    await expect(phone.locator("#total-1")).to_have_text("1")
    await phone.reload()  # still there: it is kept on the phone until dismissed
    await expect(phone.locator("#rows tr.refused")).to_have_count(1)
    await phone.locator("#rows tr.refused .dismiss").tap()
    await expect(phone.locator("#rows tr.refused")).to_have_count(0)
    await expect(phone.locator("#rows tr")).to_have_count(5)
