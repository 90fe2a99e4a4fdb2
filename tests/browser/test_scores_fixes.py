"""SquareScores page behaviours the testers asked for (issue 4): offline entry stops where the
match could be decided and refusals on sync stay in sight, the newest row shows above the pad on
a phone, the share dialog copies links, viewers get no instruction to tap, an unknown sheet shows
only a message, and the edit dialog shows the row's outcome."""

from __future__ import annotations

import httpx
from playwright.async_api import Browser, Page, expect

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


async def test_on_a_phone_the_newest_row_and_the_totals_show_above_the_pad(
    live_server: str, phone: Page
) -> None:
    await start_sheet(phone, live_server)
    await phone.locator("#race").check()  # no hand limit: as many rows as the screen can take
    await expect(phone.locator("body")).to_have_attribute("data-version", "1")
    for n in range(1, 9):
        await pad_button(phone, n % 2, "won").tap()
        await expect(phone.locator("body")).to_have_attribute("data-version", str(n + 1))
        row = await phone.locator("#rows tr").last.bounding_box()
        dock = await phone.locator("#dock").bounding_box()
        totals = await phone.locator("#total-0").bounding_box()
        assert row and dock and totals
        assert row["y"] >= 0 and row["y"] + row["height"] <= dock["y"] + 1, (n, row, dock)
        assert totals["y"] >= dock["y"] and totals["y"] + totals["height"] <= 844


async def test_share_dialog_copies_each_link_and_the_links_wrap(
    live_server: str, phone: Page
) -> None:
    await phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    await start_sheet(phone, live_server)
    await phone.locator("#share").tap()
    dialog = phone.locator("#share-dialog")
    for which in ("scorer", "viewer"):
        field = phone.locator(f"#{which}-link")
        link = await field.input_value()
        assert f"#{which}=" in link
        # the whole link is readable: wrapped, nothing cut off to the side
        assert await field.evaluate("e => e.scrollWidth <= e.clientWidth")
        assert await field.evaluate("e => e.scrollHeight <= e.clientHeight + 1")
        await phone.locator(f"#copy-{which}").tap()
        await expect(phone.locator(f"#copy-{which}")).to_have_text("Copied")
        assert await phone.evaluate("navigator.clipboard.readText()") == link
    await expect(phone.locator("#share-close")).to_have_text("Close")
    await phone.locator("#share-close").tap()
    await expect(dialog).to_be_hidden()


async def test_without_a_clipboard_copy_selects_the_link(live_server: str, phone: Page) -> None:
    await start_sheet(phone, live_server)
    await phone.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    await phone.locator("#share").tap()
    await phone.locator("#copy-viewer").tap()
    link = await phone.locator("#viewer-link").input_value()
    selected = await phone.evaluate(
        "(() => { const e = document.getElementById('viewer-link');"
        " return e.value.slice(e.selectionStart, e.selectionEnd); })()"
    )
    assert selected == link


async def test_a_viewer_is_told_the_match_is_decided_without_being_told_to_tap(
    live_server: str, phone: Page, browser: Browser
) -> None:
    await start_sheet(phone, live_server)
    mine = await tokens(phone)
    for _ in range(5):
        await pad_button(phone, 1, "won").tap()
    await expect(phone.locator("#match-state")).to_have_text(
        "Won by East & West, 5–0 — tap End match"
    )
    ctx = await browser.new_context(locale="fr-FR")
    try:
        viewer = await ctx.new_page()
        await viewer.goto(f"{live_server}/scores/sheet/{mine['id']}#viewer={mine['viewerToken']}")
        await expect(viewer.locator("#match-state")).to_have_text("Victoire de East & West, 5–0")
        await expect(viewer.locator("#end")).to_be_hidden()
    finally:
        await ctx.close()


async def test_an_unknown_sheet_shows_only_a_message_and_a_way_to_start_one(
    live_server: str, phone: Page
) -> None:
    await phone.goto(live_server + "/scores/sheet/nope")
    await expect(phone.locator("#missing")).to_be_visible()
    await expect(phone.locator("#missing-text")).to_contain_text("not on this phone")
    await expect(phone.locator("#sheet")).to_be_hidden()
    await expect(phone.locator("#dock")).to_be_hidden()
    await phone.get_by_role("link", name="Start a sheet").tap()
    await expect(phone.locator("#side0")).to_have_value("North & South")


async def test_edit_dialog_shows_the_current_outcome_and_lines_up_the_sides(
    live_server: str, phone: Page
) -> None:
    await start_sheet(phone, live_server)
    await expect(phone.locator("#settings-line")).to_have_text(
        "Aluette · Hands per match: 5 · Tie after the last hand: The tie stands · "
        "Mordienne (2 points): on · Surrender: on"
    )
    await pad_button(phone, 1, "mordienne").tap()
    await phone.get_by_role("button", name="Hand 1", exact=True).tap()
    await expect(phone.locator("#edit-current")).to_have_text("Now: East & West — Mordienne (+2)")
    current = phone.locator("#edit-pad button.current")
    await expect(current).to_have_attribute("data-side", "1")
    await expect(current).to_have_attribute("data-outcome", "mordienne")
    left = phone.locator('#edit-pad button[data-side="0"]')
    right = phone.locator('#edit-pad button[data-side="1"]')
    for i in range(await left.count()):
        a = await left.nth(i).bounding_box()
        b = await right.nth(i).bounding_box()
        assert a and b and abs(a["y"] - b["y"]) < 1 and abs(a["height"] - b["height"]) < 1
    await phone.locator("#edit-cancel").tap()


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
