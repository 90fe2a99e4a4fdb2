"""The guide pages for everyone (issue 11): every page fits 390×844 and 1280×800 in both
languages without sideways scrolling, a script error or a word of a table cut in two; axe-core
finds no serious or critical issue (contrast AA, names, structure), also on the watched board;
every card picture is named in the page's language; the watch controls are reached and worked
from the keyboard."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.accessibility import axe_violations
from tests.browser.tap_targets import words_broken

PAGES = (
    "/",
    "/chouine",
    "/charlemagne",
    "/scores/aluette",
    "/chouine/how-to-play",
    "/charlemagne/how-to-play",
    "/scores/aluette/how-to-play",
)
VIEWPORTS = ({"width": 390, "height": 844}, {"width": 1280, "height": 800})
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
DRAWN = "() => [...document.querySelectorAll('.guide-cards')].every((h) => h.dataset.drawn)"


def listen(page: Page, errors: list[str]) -> None:
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    page.on(
        "console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None
    )


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_every_guide_page_fits_both_screens_with_no_script_error_and_no_serious_axe_issue(
    live_server: str, browser: Browser, lang: str
) -> None:
    errors: list[str] = []
    for viewport in VIEWPORTS:
        ctx = await browser.new_context(viewport=viewport, locale=LOCALES[lang])
        page = await ctx.new_page()
        listen(page, errors)
        for path in PAGES:
            await page.goto(live_server + path)
            await page.wait_for_function(DRAWN)
            await expect(page.locator("html")).to_have_attribute("lang", lang)
            widths = await page.evaluate(
                "() => [document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert widths[0] <= widths[1], (path, viewport, widths)
            # a table's words whole: its columns of numbers leave the words their room
            cells = [".guide-table th", ".guide-table td"]
            assert await words_broken(page, cells) == [], (path, viewport)
            if viewport["width"] == 390:
                assert await axe_violations(page) == [], (path, lang)
        await ctx.close()
    assert errors == []


async def test_the_watched_board_and_its_controls_pass_axe(hooked_server: str, phone: Page) -> None:
    await phone.goto(hooked_server + "/charlemagne/how-to-play")
    version = "() => Number(document.getElementById('watch-section').dataset.version ?? -1)"
    await phone.get_by_role("button", name="Play", exact=True).click()
    await phone.wait_for_function(f"() => ({version})() >= 0")
    await phone.get_by_role("button", name="Pause").click()
    await expect(phone.locator("#watch-section")).to_have_attribute("data-asking", "false")
    # Step through the auction by hand (the shortest hand is seven moves long).
    for _ in range(4):
        held = await phone.evaluate(version)
        await phone.get_by_role("button", name="Step").click()
        await phone.wait_for_function(f"() => ({version})() === {held + 1}")
    assert await axe_violations(phone) == []
    width = await phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390


@pytest.mark.parametrize(
    ("lang", "path", "names"),
    [
        ("en", "/chouine/how-to-play", ["Ace of spades", "Nine of clubs", "King of hearts"]),
        ("fr", "/chouine/how-to-play", ["As de pique", "Neuf de trèfle", "Roi de cœur"]),
        ("en", "/charlemagne", ["Big joker", "Little joker"]),
        ("fr", "/charlemagne", ["Grand joker", "Petit joker"]),
        ("en", "/scores/aluette/how-to-play", ["Three of coins", "Three of cups", "Two of coins"]),
        (
            "fr",
            "/scores/aluette/how-to-play",
            ["Trois de deniers", "Trois de coupes", "Deux de deniers"],
        ),
    ],
)
async def test_every_card_picture_is_named_in_the_pages_language(
    live_server: str, browser: Browser, lang: str, path: str, names: list[str]
) -> None:
    ctx = await browser.new_context(locale=LOCALES[lang])
    page = await ctx.new_page()
    await page.goto(live_server + path)
    await page.wait_for_function(DRAWN)
    pictures = page.locator(".guide-cards [role=img]")
    labels = await pictures.evaluate_all("(all) => all.map((p) => p.getAttribute('aria-label'))")
    assert labels[: len(names)] == names
    assert all(label and not label.startswith("card.") for label in labels)
    await ctx.close()


async def test_the_watch_controls_are_reached_and_worked_from_the_keyboard(
    live_server: str, page: Page
) -> None:
    await page.goto(live_server + "/chouine/how-to-play")
    for _ in range(40):
        await page.keyboard.press("Tab")
        if await page.evaluate("() => document.activeElement.id") == "watch-play":
            break
    else:
        pytest.fail("Tab never reached the Play button")
    await page.keyboard.press("Enter")
    await page.wait_for_function(
        "() => document.getElementById('watch-section').dataset.state === 'over'", timeout=60000
    )
    await expect(page.get_by_test_id("watch-end")).to_be_visible()
    # Focus shows: the browser draws the site's outline around the focused control.
    await page.get_by_role("button", name="Play again").focus()
    outline = await page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"


async def test_the_axe_check_finds_what_it_is_for(page: Page) -> None:
    # The check is real: a pale paragraph, a nameless picture and a button whose name does not
    # hold its visible text are reported as serious.
    await page.set_content(
        '<html lang="en"><head><title>t</title></head><body><main><h1>t</h1>'
        '<p style="color:#bbb;background:#fff">faint</p>'
        '<span role="img" style="display:inline-block;width:9px;height:9px"></span>'
        '<button type="button" aria-label="Ten of diamonds">10</button>'
        "</main></body></html>"
    )
    found = {v["id"] for v in await axe_violations(page)}
    assert {"color-contrast", "role-img-alt", "label-content-name-mismatch"} <= found
