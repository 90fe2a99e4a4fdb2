"""The computer's level, chosen as a person does: on each game's page the level choice (the
usual level checked), "Strong" picked, the computer table made; its menu says the level, and
so it stays after a reload (the table keeps it), in English and in French."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from tests.browser.chouine_page import new_phone, open_menu
from veillee.games import find
from veillee.web import i18n

PLAY = {"chouine": "play-computer-5", "charlemagne": "play-computer"}
"""The button that makes a computer table, by game."""


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", sorted(PLAY))
async def test_a_strong_computer_is_chosen_on_the_game_page_and_kept_by_the_table(
    live_server: str, browser: Browser, game: str, lang: str
) -> None:
    assert find(game).info.levels == ("usual", "strong")
    ctx = await new_phone(browser, (390, 844), lang)
    page = await ctx.new_page()
    await page.goto(f"{live_server}/{game}")
    choice = page.get_by_test_id("level-choice")
    await expect(choice).to_contain_text(i18n.t(lang, "level.legend"))
    await expect(page.get_by_test_id("level-usual")).to_be_checked()
    await expect(page.get_by_test_id("level-strong")).not_to_be_checked()
    await choice.get_by_text(i18n.t(lang, "level.strong"), exact=True).click()
    await expect(page.get_by_test_id("level-strong")).to_be_checked()
    await page.get_by_test_id(PLAY[game]).click()
    await page.wait_for_url(f"**/{game}/table/*")
    said = i18n.t(lang, "table.level", level=i18n.t(lang, "level.strong"))
    await open_menu(page)
    await expect(page.get_by_test_id("menu-level")).to_have_text(said)
    await page.reload()
    await open_menu(page)
    await expect(page.get_by_test_id("menu-level")).to_have_text(said)
    await ctx.close()


async def test_the_usual_level_is_the_one_a_table_gets_by_default(
    live_server: str, browser: Browser
) -> None:
    ctx = await new_phone(browser, (390, 844), "en")
    page = await ctx.new_page()
    await page.goto(f"{live_server}/charlemagne")
    await page.get_by_test_id(PLAY["charlemagne"]).click()
    await page.wait_for_url("**/charlemagne/table/*")
    await open_menu(page)
    await expect(page.get_by_test_id("menu-level")).to_have_text("Computer: Usual")
    await ctx.close()
