"""Sharing a SquareScores sheet: the share dialog copies each link (or selects it where there
is no clipboard), and a viewer follows the match without being told to tap what it cannot."""

from __future__ import annotations

from playwright.async_api import Browser, Page, expect

from tests.browser.test_scores import pad_button, start_sheet, tokens


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
        await expect(viewer.locator("#match-state")).to_have_text(
            "Victoire\u00a0: East & West, 5–0"
        )
        await expect(viewer.locator("#end")).to_be_hidden()
    finally:
        await ctx.close()
