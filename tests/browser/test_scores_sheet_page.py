"""The SquareScores sheet page on a phone: the newest row and the totals show above the pad, a
double tap on the last hand's outcome enters it once (Undo does not move up under the finger),
the edit dialog shows the row's outcome with the sides lined up, an unknown sheet shows only
a message and a way to start one, and so does a swept one, saying it is gone; the settings line
lists every setting, race to ten included while its switch shows."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import PHONE, serving
from tests.browser.test_scores import pad_button, start_sheet
from tests.conftest import make_settings
from tests.web.test_live_sockets import Clock


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


async def test_a_double_tap_on_the_last_hands_outcome_enters_it_once_and_undo_stays_put(
    live_server: str, phone: Page
) -> None:
    # The pad empties once the match's last hand is entered; Undo, below it, used to move up
    # into its place, so the second tap of a double tap undid the hand just entered (a tester's
    # sheet went back to its last hand, saying nothing).
    sent: list[str] = []
    phone.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    await start_sheet(phone, live_server)
    for n, side in enumerate([0, 1, 0, 1], start=1):
        await pad_button(phone, side, "won").tap()
        await expect(phone.locator("body")).to_have_attribute("data-version", str(n))
    await expect(phone.locator("#match-state")).to_have_text("Hand 5 — North deals")
    undo = await phone.locator("#undo").bounding_box()
    # (on this phone, the pad's second row is where Undo used to move up to)
    surrender = await pad_button(phone, 0, "surrender-accepted").bounding_box()
    assert undo and surrender
    x, y = surrender["x"] + surrender["width"] / 2, surrender["y"] + surrender["height"] / 2
    await phone.touchscreen.tap(x, y)
    await phone.touchscreen.tap(x, y)
    await expect(phone.locator("body")).to_have_attribute("data-version", "5")
    await expect(phone.locator("#match-state")).to_contain_text("Won by North & South")
    # The pad keeps its place: Undo is not where the finger tapped, and has not moved up (it
    # moves down by a line when the match line wraps to say the match is won).
    after = await phone.locator("#undo").bounding_box()
    assert after and not after["y"] <= y <= after["y"] + after["height"], (after, y)
    assert after["y"] >= undo["y"] - 1, (after, undo)
    await phone.wait_for_timeout(500)  # room for an undo the second tap would have sent
    await expect(phone.locator("#rows tr")).to_have_count(5)
    await expect(phone.locator("body")).to_have_attribute("data-version", "5")
    assert not [frame for frame in sent if '"undo"' in frame], sent
    # Undo, tapped on purpose, still takes the last hand back.
    await phone.locator("#undo").tap()
    await expect(phone.locator("#rows tr")).to_have_count(4)
    await expect(phone.locator("#match-state")).to_have_text("Hand 5 — North deals")


async def test_edit_dialog_shows_the_current_outcome_and_lines_up_the_sides(
    live_server: str, phone: Page
) -> None:
    await start_sheet(phone, live_server)
    await expect(phone.locator("#settings-line")).to_have_text(
        "Aluette · Hands per match: 5 · Tie after the last hand: The tie stands · "
        "Mordienne (2 points): on · Surrender: on · Race to ten (announced mordienne): off"
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


@pytest.mark.parametrize(
    ("locale", "line"),
    [
        (
            "en-GB",
            "Aluette · Hands per match: 5 · Tie after the last hand: The tie stands · "
            "Mordienne (2 points): on · Surrender: on · Race to ten (announced mordienne): on",
        ),
        (
            "fr-FR",
            "Aluette · Donnes par partie\u00a0: 5 · Égalité après la dernière donne\u00a0: "
            "L'égalité reste · Mordienne (2 points)\u00a0: oui · Abandon\u00a0: oui · "
            "Course à dix (mordienne annoncée)\u00a0: oui",
        ),
    ],
)
async def test_a_scorers_settings_line_lists_race_to_ten_while_its_switch_shows(
    live_server: str, browser: Browser, locale: str, line: str
) -> None:
    # A tester read the line on a scorer's sheet as the sheet's settings and missed the race,
    # which was left to its switch, out of sight below the pad on a small phone.
    ctx = await browser.new_context(
        viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True, locale=locale
    )
    try:
        phone = await ctx.new_page()
        await phone.goto(live_server + "/scores")
        await phone.locator("#start").tap()
        await expect(phone.locator("body")).to_have_attribute("data-net", "online")
        await phone.locator("#race").check()
        await expect(phone.locator("body")).to_have_attribute("data-version", "1")
        await expect(phone.locator("#race-wrap")).to_be_visible()
        # the exact text: French has its no-break space before each colon
        assert await phone.locator("#settings-line").evaluate("(p) => p.textContent") == line
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


@pytest.fixture(scope="module")
def sweeping_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Clock]]:
    """A server whose services' clock the test moves (its sweeper looks every 0.1 s)."""
    clock = Clock()
    settings = make_settings(tmp_path_factory.mktemp("sweeping"))
    settings.sweep_interval_s = 0.1
    with serving(settings, clock) as url:
        yield url, clock


@pytest.mark.parametrize(
    ("locale", "gone"),
    [("en-GB", "This sheet no longer exists."), ("fr-FR", "Cette feuille n'existe plus.")],
)
async def test_a_swept_sheet_says_it_is_gone_on_the_phone_that_kept_it_and_by_its_link(
    sweeping_server: tuple[str, Clock], browser: Browser, locale: str, gone: str
) -> None:
    server, clock = sweeping_server
    async with httpx.AsyncClient(base_url=server) as c:
        made = (await c.post("/api/sheets", json={})).json()
    link = f"{server}/scores/sheet/{made['id']}#scorer={made['scorer_token']}"
    phones = [
        await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale=locale)
        for _ in range(2)
    ]

    async def says_gone(page: Page) -> None:
        await expect(page.locator("#missing")).to_be_visible()
        await expect(page.locator("#missing-text")).to_have_text(gone)
        await expect(page.locator("#sheet")).to_be_hidden()
        await expect(page.locator("#dock")).to_be_hidden()

    try:
        kept = await phones[0].new_page()
        await kept.goto(link)  # this phone keeps the sheet (and its last view)
        await expect(kept.locator("body")).to_have_attribute("data-net", "online")
        await expect(kept.locator("#pad button").first).to_be_visible()

        clock.now += timedelta(days=366)  # a year and a day without a change: swept
        await says_gone(kept)  # the open page is told
        await kept.reload()
        await says_gone(kept)  # and says so again when reopened
        other = await phones[1].new_page()
        await other.goto(link)
        await says_gone(other)  # the link on a phone that never had it
    finally:
        for context in phones:
            await context.close()
