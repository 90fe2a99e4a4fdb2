"""Two scorer phones on one sheet, in Chromium at 390×844: a correction made on a hand the other
phone has deleted meanwhile is refused with the reason on the page, which then shows the sheet as
it is; and an undo tapped while this phone's own entry is still on its way undoes that entry
(the phone showed it), instead of being refused as made on an older sheet."""

from __future__ import annotations

import re

from playwright.async_api import Browser, Page, WebSocketRoute, expect

from tests.browser.conftest import PHONE
from tests.browser.test_scores import pad_button, start_sheet


async def test_a_correction_of_a_hand_deleted_on_another_phone_is_refused_with_the_reason(
    live_server: str, phone: Page, browser: Browser
) -> None:
    await start_sheet(phone, live_server)
    await pad_button(phone, 0, "won").tap()
    await pad_button(phone, 1, "won").tap()
    await expect(phone.locator("#rows tr:not(.pending)")).to_have_count(2)
    await phone.locator("#share").tap()
    scorer_link = await phone.locator("#scorer-link").input_value()
    await phone.locator("#share-close").tap()

    other_ctx = await browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB"
    )
    try:
        other = await other_ctx.new_page()
        await other.goto(scorer_link)
        await expect(other.locator("#rows tr")).to_have_count(2)
        # This phone opens hand 1 to correct it; the other deletes it meanwhile.
        await phone.get_by_role("button", name="Hand 1", exact=True).tap()
        await other.get_by_role("button", name="Hand 1", exact=True).tap()
        await other.locator("#edit-delete").tap()
        await expect(phone.locator("#rows tr")).to_have_count(1)  # under the open dialog
        await phone.locator('#edit-pad button[data-side="1"][data-outcome="mordienne"]').tap()
        await expect(phone.locator("#refusal")).to_have_text(
            "This hand was changed meanwhile on another phone: here is the sheet as it stands "
            "now. Look, then try again."
        )
        for page in (phone, other):
            await expect(page.locator("#rows tr")).to_have_count(1)
            await expect(page.locator("#total-0")).to_have_text("0")
            await expect(page.locator("#total-1")).to_have_text("1")
            await expect(page.locator("body")).to_have_attribute("data-version", "3")
    finally:
        await other_ctx.close()


class SlowNetwork:
    """A relay for the page's sheet socket that holds the server's answers while ``holding``,
    as a slow phone network does, and delivers them in order on :meth:`release`."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self.page_side: WebSocketRoute | None = None

    def __call__(self, page_side: WebSocketRoute) -> None:
        self.page_side = page_side
        server = page_side.connect_to_server()
        server.on_message(self.to_page)
        page_side.on_message(server.send)

    def to_page(self, message: str | bytes) -> None:
        if self.holding:
            self.held.append(message)
        elif self.page_side is not None:
            self.page_side.send(message)

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.to_page(message)
        self.held.clear()


async def test_undo_right_after_an_entry_still_on_its_way_undoes_that_entry(
    live_server: str, phone: Page
) -> None:
    network = SlowNetwork()
    await phone.route_web_socket(re.compile(r"/ws/sheets/"), network)
    await start_sheet(phone, live_server)
    await pad_button(phone, 0, "won").tap()
    await expect(phone.locator("body")).to_have_attribute("data-version", "1")
    await expect(phone.locator("#undo")).to_be_enabled()

    network.holding = True
    await pad_button(phone, 1, "won").tap()
    await expect(phone.locator("#rows tr.pending")).to_have_count(1)
    await phone.locator("#undo").tap()  # made on version 1, behind this phone's own entry
    network.release()
    await expect(phone.locator("body")).to_have_attribute("data-version", "3")
    await expect(phone.locator("#rows tr")).to_have_count(1)
    await expect(phone.locator("#total-0")).to_have_text("1")
    await expect(phone.locator("#total-1")).to_have_text("0")
    await expect(phone.locator("#refusal")).to_have_text("")
