"""SquareScores offline on a phone: the pad offers no more entries than the match can still
hold (hands, or points in a race to ten), an entry refused on sync stays shown as refused
with its reason until dismissed, and two tabs of one phone both show the sheet as stored once
they are back online (also when the tab that kept the entries was closed meanwhile)."""

from __future__ import annotations

import httpx
from playwright.async_api import Page, expect

from tests.browser.test_scores import pad_button, start_sheet, tokens


async def stored(live_server: str, page: Page, sheet_id: str) -> dict:
    """The sheet as the server has it (read with this phone's scorer token)."""
    auth = {"authorization": f"Bearer {(await tokens(page))['scorerToken']}"}
    async with httpx.AsyncClient(base_url=live_server) as c:
        sheet: dict = (await c.get(f"/api/sheets/{sheet_id}", headers=auth)).json()["sheet"]
    return sheet


async def shows_stored(tab: Page, version: int, totals: tuple[int, int]) -> None:
    """``tab`` shows the sheet at ``version`` as stored: every row a stored one, none pending."""
    await expect(tab.locator("body")).to_have_attribute("data-net", "online")
    await expect(tab.locator("body")).to_have_attribute("data-version", str(version))
    await expect(tab.locator("#rows tr.pending")).to_have_count(0)
    await expect(tab.locator("#rows tr[data-row]")).to_have_count(version)
    await expect(tab.locator("#total-0")).to_have_text(str(totals[0]))
    await expect(tab.locator("#total-1")).to_have_text(str(totals[1]))


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


async def test_two_tabs_of_one_phone_back_online_together_both_show_the_sheet_as_stored(
    live_server: str, phone: Page
) -> None:
    sheet_id = await start_sheet(phone, live_server)
    other = await phone.context.new_page()  # the same sheet in a second tab of the phone
    await other.goto(phone.url)
    await expect(other.locator("body")).to_have_attribute("data-net", "online")
    await phone.context.set_offline(True)
    for tab in (phone, other):
        await expect(tab.locator("body")).to_have_attribute("data-net", "offline")
    await pad_button(phone, 0, "won").tap()
    await pad_button(phone, 1, "mordienne").tap()
    await expect(phone.locator("#rows tr.pending")).to_have_count(2)
    await pad_button(other, 1, "won").tap()
    await expect(other.locator("#rows tr.pending")).to_have_count(3)

    await phone.context.set_offline(False)  # both tabs come back at once
    for tab in (phone, other):
        await shows_stored(tab, 3, (1, 3))
    assert (await stored(live_server, phone, sheet_id))["status"]["rows"] == [
        [1, 0], [0, 2], [0, 1]
    ]  # fmt: skip


async def test_entries_kept_by_a_tab_closed_offline_are_stored_by_the_other_tab(
    live_server: str, phone: Page
) -> None:
    sheet_id = await start_sheet(phone, live_server)
    other = await phone.context.new_page()
    await other.goto(phone.url)
    await expect(other.locator("body")).to_have_attribute("data-net", "online")
    await phone.context.set_offline(True)
    await expect(phone.locator("body")).to_have_attribute("data-net", "offline")
    await pad_button(phone, 0, "won").tap()
    await pad_button(phone, 0, "won").tap()
    await expect(phone.locator("#rows tr.pending")).to_have_count(2)
    await phone.close()  # the tab the entries were made in is gone before the network is back

    await other.context.set_offline(False)
    await shows_stored(other, 2, (2, 0))
    assert (await stored(live_server, other, sheet_id))["version"] == 2
