"""SquareScores in French on a phone: settings, race to ten, a refusal in words, edit, delete,
undo, an early End match with confirmation, and the list of this browser's sheets."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import PHONE


@pytest_asyncio.fixture
async def phone_fr(browser: Browser) -> AsyncIterator[Page]:
    ctx = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="fr-FR")
    yield await ctx.new_page()
    await ctx.close()


async def test_corrections_race_to_ten_and_an_early_end_in_french(
    live_server: str, phone_fr: Page
) -> None:
    page = phone_fr
    await page.goto(live_server + "/scores")
    await expect(page.locator("#side0")).to_have_value("Nord & Sud")
    await page.locator('input[name="mordienne"]').uncheck()
    await page.locator('select[name="first_dealer"]').select_option("3")
    await page.get_by_role("button", name="Commencer la feuille").tap()
    await expect(page.locator("body")).to_have_attribute("data-net", "online")
    # §A1/S12: with mordienne off only the one-point outcomes are offered
    await expect(page.locator("#pad button")).to_have_count(4)
    await expect(page.locator('#pad button[data-outcome="mordienne"]')).to_have_count(0)
    await expect(page.locator("#match-state")).to_have_text("Donne 1 — donneur : Ouest")
    # French spacing before the colon, in the start form's order
    await expect(page.locator("#settings-line")).to_have_text(
        "Aluette · Donnes par partie : 5 · Égalité après la dernière donne : L'égalité reste · "
        "Mordienne (2 points) : non · Abandon : oui · Course à dix (mordienne annoncée) : non"
    )
    await expect(page.locator("#undo")).to_have_text("Défaire")  # "Annuler" reads as Cancel
    await page.locator("#share").tap()
    await expect(page.locator("#share-close")).to_have_text("Fermer")
    await page.locator("#share-close").tap()

    race = page.locator("#race")
    await race.check()
    await expect(page.locator("body")).to_have_attribute("data-version", "1")
    for n in range(1, 7):
        await page.locator('#pad button[data-side="0"][data-outcome="won"]').tap()
        await expect(page.locator("body")).to_have_attribute("data-version", str(n + 1))
    await expect(page.locator("#rows tr")).to_have_count(6)  # beyond five hands
    # Past the five hands, the line says what the match now runs to.
    await expect(page.locator("#match-state")).to_have_text(
        "Donne 7 — donneur : Est · premier camp à 10 points"
    )
    await expect(page.locator("#rows td.col-dealer").first).to_have_text("Ouest")

    await race.tap()  # switching off would leave hands after the fifth, where NS had already won
    await expect(page.locator("#refusal")).to_have_text(
        "Refusé : la partie aurait été jouée avant la dernière donne de la feuille."
    )
    await expect(race).to_be_checked()

    await page.get_by_role("button", name="Donne 1", exact=True).tap()
    await page.locator('#edit-pad button[data-side="1"][data-outcome="won"]').tap()
    await expect(page.locator("#total-0")).to_have_text("5")
    await expect(page.locator("#total-1")).to_have_text("1")
    await page.get_by_role("button", name="Donne 2", exact=True).tap()
    await page.locator("#edit-delete").tap()
    await expect(page.locator("#rows tr")).to_have_count(5)
    await expect(page.locator("#total-0")).to_have_text("4")
    await page.locator("#undo").tap()
    await expect(page.locator("#rows tr")).to_have_count(6)
    await expect(page.locator("#total-0")).to_have_text("5")

    await page.locator("#end").tap()
    await expect(page.locator("#end-dialog")).to_be_visible()
    await page.locator("#end-cancel").tap()
    await expect(page.locator("#actions")).to_be_visible()
    await page.locator("#end").tap()
    await page.get_by_role("button", name="Arrêter maintenant").tap()
    await expect(page.locator("#match-state")).to_have_text(
        "Arrêtée avant la fin : Nord & Sud en tête, 5–1"
    )
    await expect(page.locator("#pad button")).to_have_count(0)
    await expect(page.locator("#actions")).to_be_hidden()
    # the race's switch has gone with the actions: the settings line says it was on (it ran
    # past five hands)
    await expect(page.locator("#settings-line")).to_have_text(
        "Aluette · Donnes par partie : 5 · Égalité après la dernière donne : L'égalité reste · "
        "Mordienne (2 points) : non · Abandon : oui · Course à dix (mordienne annoncée) : oui"
    )

    await page.goto(live_server + "/scores")
    finished = page.locator(".mine-item").first
    await expect(finished).to_contain_text("Nord & Sud – Est & Ouest")
    await expect(finished).to_contain_text("5–1")
    await expect(finished).to_contain_text("terminée")
