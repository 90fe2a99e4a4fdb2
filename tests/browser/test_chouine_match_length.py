"""The length of a match, said the same way on the game page and at the table: one button per
length the game offers ("Play against the computer — best of 5"), and the table's menu restarts
in another length, asking first when a match is under way."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.chouine_page import (
    my_turn,
    new_phone,
    open_computer_table,
    open_menu,
    play_a_card,
)
from veillee.games import find
from veillee.web import i18n

BEST_OF = find("chouine").info.options["best_of"]


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_each_play_button_says_its_length_and_the_table_keeps_its_word(
    live_server: str, browser: Browser, lang: str
) -> None:
    ctx = await new_phone(browser, (390, 844), lang)
    page = await ctx.new_page()
    await page.goto(live_server + "/chouine")
    buttons = page.locator("#game-page button[data-options]:not([data-shared])")
    await expect(buttons).to_have_count(len(BEST_OF.values))
    first = buttons.first
    await expect(first).to_have_text(
        i18n.t(lang, "chouine.page.play_computer", best_of=BEST_OF.default)
    )
    await expect(first).to_have_class(re.compile("primary"))
    for n in BEST_OF.values:
        label = i18n.t(lang, "chouine.page.play_computer", best_of=n)
        await expect(page.get_by_test_id(f"play-computer-{n}")).to_have_text(label)
    # The hint points at the table's menu, where the other lengths are.
    await expect(page.locator("[aria-labelledby=way-computer] .hint")).to_contain_text("☰")
    other = next(n for n in BEST_OF.values if n != BEST_OF.default)
    await page.get_by_test_id(f"play-computer-{other}").click()
    await page.wait_for_url("**/chouine/table/*")
    line = page.get_by_test_id("match-line")
    await expect(line).to_have_text(i18n.t(lang, "chouine.match.line", best_of=other, partie=1))
    await expect(page.get_by_test_id("menu").locator("summary")).to_have_text("☰")
    await open_menu(page)
    await expect(page.get_by_test_id(f"best-of-{other}")).to_be_hidden()
    restart = page.get_by_test_id(f"best-of-{BEST_OF.default}")
    label = i18n.t(lang, "chouine.match.restart_best_of", best_of=BEST_OF.default)
    await expect(restart).to_have_text(label)
    await ctx.close()


async def test_french_match_line_keeps_the_partie_number_with_its_word(
    live_server: str, browser: Browser
) -> None:
    ctx = await new_phone(browser, (320, 568), "fr")
    page = await ctx.new_page()
    await open_computer_table(page, live_server)
    line = page.get_by_test_id("match-line")
    await expect(line).to_contain_text("partie")
    text = await line.inner_text()
    assert "des\u00a05" in text and "partie\u00a01" in text
    await ctx.close()


async def test_restart_from_the_menu_asks_before_throwing_away_a_running_match(
    live_server: str, page: Page
) -> None:
    await open_computer_table(page, live_server)
    version = await my_turn(page, -1)
    await play_a_card(page)
    version = await my_turn(page, version)
    await open_menu(page)
    restart = page.get_by_test_id("best-of-3")
    await expect(restart).to_have_text("Restart as best of 3")
    await restart.click()
    confirm = page.get_by_test_id("restart-confirm")
    await expect(confirm).to_be_visible()
    await expect(page.get_by_test_id("menu")).not_to_have_attribute("open", "")
    await expect(confirm).to_contain_text("Restart as best of 3?")
    await confirm.get_by_role("button", name="Keep playing").click()
    await expect(confirm).to_be_hidden()
    assert await page.locator("#table").get_attribute("data-version") == str(version)
    await expect(page.get_by_test_id("match-line")).to_contain_text("Best of 5")
    await open_menu(page)
    await page.get_by_test_id("best-of-3").click()
    await confirm.get_by_role("button", name="Abandon and restart").click()
    await expect(page.get_by_test_id("match-line")).to_contain_text("Best of 3")
    await expect(page.get_by_test_id("score")).to_have_text("You 0 – 0 Computer")
    await open_menu(page)
    await expect(page.get_by_test_id("best-of-5")).to_have_text("Restart as best of 5")
    await expect(page.get_by_test_id("best-of-3")).to_be_hidden()
