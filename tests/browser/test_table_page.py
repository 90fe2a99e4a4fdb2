"""The one table page (static/table/page.js), tested once for every game: the connection
dropping (the banner and the turn line say "Reconnecting…", a tapped card is answered with it,
then "Back"), a refusal cleared by the next state, who is here at a table of people (away,
back), leaving (it asks first), and the top bar (the game's name, the match score, the menu).
Each test runs at the Chouine and at the Charlemagne table."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, expect

from tests.browser.charlemagne_friends import give_to_computer
from tests.browser.charlemagne_player import NUMBER_DEAL, decision, open_scripted
from tests.browser.chouine_page import (
    my_turn,
    new_phone,
    open_computer_table,
    open_menu,
    play_a_card,
)
from tests.browser.conftest import LIVE_LOG, live_said
from tests.browser.friend_table import make_shared_table, people_table, sit
from tests.browser.tap_targets import bar_lines
from veillee.web import i18n

GAMES = ["chouine", "charlemagne"]

SAID = """(words) => {
    // Visible places that say ``words`` (the screen-reader-only live region aside).
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const places = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const box = node.parentElement;
        if (node.data.includes(words) && box.checkVisibility() && !box.closest('.sr-only')) {
            places.push(box.id || box.className || box.tagName);
        }
    }
    return places;
}"""

BOXES = """sel => [...document.querySelectorAll(sel)].map(e => {
    const r = e.getBoundingClientRect();
    return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
})"""

TAPPABLE = "#hand button.card, #steps button, .actions button"
"""What a player may tap above and in the hand (the Charlemagne steps, the Chouine buttons)."""


async def version_of(page: Page) -> int:
    return int(await page.locator("#table").get_attribute("data-version") or -1)


async def at_my_turn(page: Page, base: str, game: str, lang: str = "en") -> None:
    """Sit at a table against the computer, in ``lang``, and wait for our first decision (a
    Chouine card to lead or follow; the Charlemagne auction, you speaking first)."""
    if game == "chouine":
        await page.goto(f"{base}/lang/{lang}?next=/chouine")
        await open_computer_table(page, base)
        await my_turn(page, -1)
    else:
        await open_scripted(page, base, NUMBER_DEAL, dealer=3, lang=lang)
        await decision(page, -1)


async def move_on(page: Page, game: str) -> None:
    """Take our turn (a card at Chouine, a bid at Charlemagne) and see the table take it."""
    version = await version_of(page)
    if game == "chouine":
        await play_a_card(page)
    else:
        await page.get_by_test_id("bid-6").click()
    await page.wait_for_function(
        "v => Number(document.getElementById('table').dataset.version) > v", arg=version
    )


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
async def test_offline_the_banner_and_the_turn_line_say_reconnecting_and_a_tap_is_answered(
    hooked_server: str, browser: Browser, game: str, lang: str
) -> None:
    reconnecting = i18n.t(lang, "table.reconnecting")
    ctx = await new_phone(browser, (390, 844), lang)
    page = await ctx.new_page()
    try:
        await at_my_turn(page, hooked_server, game, lang)
        before = await page.evaluate(BOXES, TAPPABLE)
        banner = page.get_by_test_id("banner")
        await ctx.set_offline(True)
        await expect(banner).to_have_text(reconnecting)
        # The turn line, where the player looks, says it too: not "Your turn".
        await expect(page.get_by_test_id("turn-line")).to_have_text(reconnecting)
        assert sorted(await page.evaluate(SAID, reconnecting)) == ["banner", "turn-line"]
        assert await page.evaluate(BOXES, TAPPABLE) == before  # nothing moved
        # A tapped card is answered, with the same words: the banner and the turn line speak
        # up (and the live region says it); nothing else repeats it.
        await page.locator("#hand button.card").first.click(force=True)
        await expect(banner).to_have_class(re.compile("nudge"))
        await expect(page.get_by_test_id("turn-line")).to_have_class(re.compile("nudge"))
        await expect(page.locator("#live")).to_have_text(reconnecting)
        if game == "chouine":  # (a Charlemagne card tapped in the auction says why it rests)
            await expect(page.get_by_test_id("refusal")).to_be_hidden()
        assert sorted(await page.evaluate(SAID, reconnecting)) == ["banner", "turn-line"]
        await ctx.set_offline(False)
        await expect(banner).to_have_text(i18n.t(lang, "table.back"))
        assert await page.evaluate(SAID, reconnecting) == []
        await expect(banner).to_be_hidden()
        # And the match goes on (at Chouine the card tapped offline was sent once back).
        await move_on(page, game)
    finally:
        await ctx.close()


@pytest.mark.parametrize("game", GAMES)
async def test_back_online_the_turn_line_says_the_tables_state_again(
    hooked_server: str, phone: Page, game: str
) -> None:
    await at_my_turn(phone, hooked_server, game)
    turn = await phone.get_by_test_id("turn-line").inner_text()
    assert turn.startswith("Your turn — ")
    await phone.context.set_offline(True)
    await expect(phone.get_by_test_id("turn-line")).to_have_text("Reconnecting…")
    await phone.context.set_offline(False)
    await expect(phone.get_by_test_id("banner")).to_have_text("Back")
    await expect(phone.get_by_test_id("turn-line")).to_have_text(turn)
    await expect(phone.get_by_test_id("banner")).to_be_hidden()


# ---- tables of people ---------------------------------------------------------------------------

SEATS = {"chouine": ("human", "human"), "charlemagne": ("human", "computer", "human", "computer")}
"""The tables of people the tests sit at: two friends at Chouine; at Charlemagne you (North) and
your partner (South), the computer East and West."""


async def people_table_of(page: Page, base: str, game: str) -> dict[str, Any]:
    """A table of people of ``game`` made by the test hook (Charlemagne: you speak first)."""
    if game == "chouine":
        return await people_table(page, base)
    return await people_table(page, base, NUMBER_DEAL, 3, game=game, seats=SEATS[game])


@pytest_asyncio.fixture
async def two_browsers(browser: Browser) -> AsyncIterator[tuple[BrowserContext, BrowserContext]]:
    """Two people's phones."""
    first = await new_phone(browser, (390, 844), "en")
    second = await new_phone(browser, (390, 844), "en")
    yield first, second
    await first.close()
    await second.close()


async def state_of(page: Page) -> str:
    return await page.locator("#table").get_attribute("data-state") or ""


@pytest.mark.parametrize("game", GAMES)
async def test_a_refusal_is_cleared_by_the_next_state(
    hooked_server: str, two_browsers: tuple[BrowserContext, BrowserContext], game: str
) -> None:
    table = await people_table_of(await two_browsers[0].new_page(), hooked_server, game)
    seats = [seat for seat, kind in enumerate(SEATS[game]) if kind == "human"]
    pages = [await ctx.new_page() for ctx in two_browsers]
    for page, seat in zip(pages, seats, strict=True):
        await sit(page, hooked_server, table, seat, cards=5 if game == "chouine" else 8)
        await page.wait_for_function(
            "() => ['my-turn', 'waiting'].includes(document.getElementById('table').dataset.state)"
        )
    states = [await state_of(page) for page in pages]
    assert sorted(states) == ["my-turn", "waiting"], states
    mover, other = (pages[0], pages[1]) if states[0] == "my-turn" else (pages[1], pages[0])
    # Not your turn: a tap is told why, and nothing is sent.
    version = await version_of(other)
    await other.locator("#hand button.card").first.click(force=True)
    refusal = other.get_by_test_id("refusal")
    await expect(refusal).to_have_text(re.compile(r"^(It is not your turn\.|Not your turn: )"))
    await expect(refusal).to_have_attribute("data-kind", "rest")
    assert await version_of(other) == version
    # The other person moves: the state it was about has passed, and the refusal with it.
    await move_on(mover, game)
    await other.wait_for_function(
        "v => Number(document.getElementById('table').dataset.version) > v", arg=version
    )
    await expect(refusal).to_be_hidden()


async def shared_table(host: Page, friends: BrowserContext, base: str, game: str) -> Page:
    """A shared table made by ``host`` through its game's page and sat at by a friend through
    its link (at Charlemagne the partner's; the computer then takes the other two seats): the
    friend's page, once both see the table."""
    friend = await friends.new_page()
    if game == "chouine":
        await friend.goto(await make_shared_table(host, base, 3))
    else:
        await open_scripted(host, base, NUMBER_DEAL, dealer=3, shared=True)
        await friend.goto(await host.get_by_test_id("seat-link-partner").input_value())
        await expect(host.get_by_test_id("seat-row-partner")).to_have_attribute(
            "data-status", "seated"
        )
        await give_to_computer(host, ("left",))
        await host.get_by_test_id("fill-right").click()
    for each in (host, friend):
        await expect(each.get_by_test_id("waiting")).to_be_hidden()
        await expect(each.get_by_test_id("hand").locator("button.card")).not_to_have_count(0)
    return friend


PRESENCE = {"chouine": "opponent-presence", "charlemagne": "seat-partner"}
AWAY_BACK = {
    "chouine": ("Your friend is away.", "Your friend is back."),
    "charlemagne": ("Partner: away.", "Partner: back."),
}
CAME = {"chouine": "Your friend is here.", "charlemagne": "Partner: here."}


@pytest.mark.parametrize("game", GAMES)
async def test_who_is_here_goes_away_and_comes_back(
    hooked_server: str, two_browsers: tuple[BrowserContext, BrowserContext], game: str
) -> None:
    first, second = two_browsers
    await first.add_init_script(LIVE_LOG)
    host = await first.new_page()
    friend = await shared_table(host, second, hooked_server, game)
    badge = host.get_by_test_id(PRESENCE[game])
    if game == "charlemagne":
        badge = badge.get_by_test_id("presence")
    await expect(badge).to_have_attribute("data-here", "true")
    away, back = AWAY_BACK[game]
    # The friend sitting down for the first time is here, not back.
    await host.wait_for_function("(came) => window.liveSaid.includes(came)", arg=CAME[game])
    assert not [said for said in await live_said(host) if back in said]
    link = friend.url
    await friend.close()
    await expect(badge).to_have_attribute("data-here", "false")
    await expect(badge).to_contain_text("Away")
    await expect(host.locator("#live")).to_have_text(away)
    again = await second.new_page()
    await again.goto(link)
    await expect(badge).to_have_attribute("data-here", "true")
    await expect(badge).to_contain_text("Here")
    await expect(host.locator("#live")).to_have_text(back)


@pytest.mark.parametrize(
    ("game", "shared", "said"),
    [
        ("chouine", False, "A match against the computer lives in this tab only"),
        ("charlemagne", False, "A match against the computer lives in this tab only"),
        ("charlemagne", True, "the computer plays your seat from now on"),
    ],
)
async def test_leaving_asks_first_and_says_what_leaving_does(
    hooked_server: str, browser: Browser, game: str, shared: bool, said: str
) -> None:
    ctx = await new_phone(browser, (390, 844), "en")
    page = await ctx.new_page()
    try:
        if shared:
            await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3, shared=True)
            await expect(page.get_by_test_id("waiting")).to_be_visible()
        else:
            await at_my_turn(page, hooked_server, game)
        table_url = page.url
        await open_menu(page)
        await page.get_by_test_id("leave").click()
        dialog = page.get_by_test_id("leave-confirm")
        await expect(dialog).to_be_visible()
        await expect(dialog.locator("#leave-text")).to_contain_text(said)
        await page.get_by_test_id("leave-no").click()
        await expect(dialog).to_be_hidden()
        assert page.url == table_url
        await open_menu(page)
        await page.get_by_test_id("leave").click()
        await page.get_by_test_id("leave-yes").click()
        await page.wait_for_url(f"**/{game}")
    finally:
        await ctx.close()


async def test_leaving_a_charlemagne_match_against_the_computer_says_it_in_french(
    hooked_server: str, browser: Browser
) -> None:
    """(A Charlemagne match is a "partie" in French, a Chouine match a "manche".)"""
    ctx = await new_phone(browser, (390, 844), "fr")
    page = await ctx.new_page()
    try:
        await at_my_turn(page, hooked_server, "charlemagne", "fr")
        await open_menu(page)
        await page.get_by_test_id("leave").click()
        await expect(page.locator("#leave-text")).to_have_text(
            "Une partie contre l'ordinateur ne vit que dans cet onglet\u00a0: une fois quittée,"
            " on ne la retrouve plus."
        )
    finally:
        await ctx.close()


SCORES = {
    "chouine": {"en": "You 0 – 0 Computer", "fr": "Vous 0 – 0 Ordinateur"},
    "charlemagne": {"en": "Us 0 – 0 Them", "fr": "Nous 0 – 0 Eux"},
}


@pytest.mark.parametrize("size", [(320, 568), (390, 844), (1280, 800)], ids=["320", "390", "1280"])
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", GAMES)
async def test_the_top_bar_names_the_game_then_the_match_score_then_the_menu(
    hooked_server: str, browser: Browser, game: str, lang: str, size: tuple[int, int]
) -> None:
    ctx = await new_phone(browser, size, lang)
    page = await ctx.new_page()
    try:
        await at_my_turn(page, hooked_server, game, lang)
        bar = page.locator(".topbar")
        await expect(bar.locator(".topbar-game")).to_have_text(i18n.t(lang, f"home.{game}"))
        await expect(page.get_by_test_id("score")).to_have_text(SCORES[game][lang])
        shown = await bar.evaluate(
            "bar => [...bar.children].filter((e) => e.checkVisibility())"
            ".map((e) => e.className.split(' ')[0])"
        )
        assert shown == ["topbar-game", "topbar-middle", "menu"], shown
        assert await bar_lines(page) == 1
        # The score is whole: nothing of it is cut off.
        score = page.get_by_test_id("score")
        assert await score.evaluate("s => s.scrollWidth <= s.parentElement.clientWidth + 1")
    finally:
        await ctx.close()
