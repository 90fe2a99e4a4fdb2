from playwright.async_api import Page, expect


async def test_home_links_the_games_and_switches_language(live_server: str, page: Page) -> None:
    await page.goto(live_server + "/")
    await expect(page.get_by_role("link", name="Chouine")).to_be_visible()
    await page.get_by_role("link", name="Français").click()
    await expect(page.locator("html")).to_have_attribute("lang", "fr")
    await expect(page.get_by_text("Les vieux jeux de cartes")).to_be_visible()
