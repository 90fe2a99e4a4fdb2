"""The Charlemagne table held to the lessons of our first tables (shared/UI.md): every phone size
with the hand and the turn line in view, nothing moving under the finger, two looks for "not
your turn" and "not allowed", a message living as long as its state, French typography, the
computer at a human pace; and the way in from the home page, reload, keyboard, jokers."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.charlemagne_player import (
    NUMBER_DEAL,
    STUCK_DEAL,
    decision,
    number_deal_to_the_play,
    open_scripted,
    table_attr,
)
from tests.browser.chouine_page import new_phone
from tests.browser.conftest import LIVE_LOG, console_errors, live_said, serving
from tests.browser.tap_targets import clipped, out_of_view, words_broken
from tests.conftest import make_settings
from tests.games.charlemagne.decks import deck_for
from veillee.web import i18n

SIZES = [(320, 568), (360, 640), (390, 844), (568, 320), (1280, 800)]

JOKER_DEAL = deck_for(
    3,
    {
        0: ["BJ", "LJ", "JH", "JD", "AH", "KH", "QH", "AS"],
        1: ["AC", "7S", "8S", "7D", "8D", "7C", "8C", "9D"],
        2: ["9H", "9S", "TS", "TD", "9C", "TC", "JC", "QD"],
        3: ["KS", "QS", "KD", "AD", "KC", "QC", "JS", "8H"],
    },
    ["7H", "TH"],
)
"""You hold both jokers (and speak first: West deals)."""

BOXES = """sel => [...document.querySelectorAll(sel)].map(e => {
    const r = e.getBoundingClientRect();
    return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
})"""

HIT = """sel => [...document.querySelectorAll(sel)].every(e => {
    const r = e.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return at !== null && (at === e || e.contains(at));
})"""


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Test hooks on, and the computer at the pace people get (the default settings)."""
    settings = make_settings(tmp_path_factory.mktemp("paced"))
    settings.test_hooks = True
    settings.bot_delay_ms = 900
    settings.trick_pause_ms = 1200
    with serving(settings) as url:
        yield url


async def sized(browser: Browser, width: int, height: int, lang: str = "en") -> Page:
    context = await browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=width < 1000,
        is_mobile=width < 1000,
        locale="fr-FR" if lang == "fr" else "en-GB",
    )
    return await context.new_page()


def inside(box: list[int], width: int, height: int) -> bool:
    x, y, w, h = box
    return x >= 0 and y >= 0 and x + w <= width and y + h <= height


def overlap(a: list[int], b: list[int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


async def check_fits(page: Page, width: int, height: int, controls: str) -> None:
    """The whole hand, the turn line and ``controls`` in view and tappable; no scrolling."""
    cards = await page.evaluate(BOXES, "#hand button.card")
    assert cards, "no hand"
    for box in cards:
        assert inside(box, width, height), (width, height, box)
        assert box[2] >= 44 and box[3] >= 44, (width, height, box)
    # Cards never overlap: no rank or suit is ever hidden by a neighbour.
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            assert not overlap(a, b), (width, height, a, b)
    assert await page.evaluate(HIT, "#hand button.card"), (width, height)
    (turn,) = await page.evaluate(BOXES, "#turn-line")
    assert inside(turn, width, height) and turn[3] > 0
    buttons = await page.evaluate(BOXES, controls)
    assert buttons
    for box in buttons:
        assert inside(box, width, height) and box[3] >= 44, (width, height, controls, box)
    assert await page.evaluate(HIT, controls), (width, height, controls)
    scroll = await page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert scroll[0] <= width and scroll[1] <= height, (width, height, scroll)
    # The top bar on one line: its items side by side.
    tops = await page.evaluate(
        "() => [...document.querySelectorAll('.topbar > *')].map(e => e.getBoundingClientRect())"
        ".map(r => Math.round(r.y + r.height / 2))"
    )
    assert max(tops) - min(tops) <= 2, (width, tops)
    # Nothing in it cut short (the score above all), no word of a button or the turn line cut
    # in two by a line break ("Charlemagn / e" on a bid button).
    assert await clipped(page, [".topbar-game", ".topbar-middle", "#turn-line", ".info p"]) == [], (
        width
    )
    assert await words_broken(page, [controls, "#turn-line"]) == [], width


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_every_screen_size_keeps_all_ten_cards_the_turn_line_and_the_buttons_in_view(
    hooked_server: str, browser: Browser, width: int, height: int, lang: str
) -> None:
    page = await sized(browser, width, height, lang)
    await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3, lang=lang)
    await decision(page, -1)
    await check_fits(page, width, height, "#steps [data-testid='bids'] button")
    await page.get_by_test_id("bid-6").click()
    await page.wait_for_function(
        "() => document.getElementById('table').dataset.phase === 'discard'"
    )
    await expect(page.locator("#hand button.card")).to_have_count(10)
    await page.locator('#hand [data-card="9H"]').click()
    await page.locator('#hand [data-card="7H"]').click()
    await check_fits(page, width, height, "#steps [data-testid='confirm-discard']")
    await page.get_by_test_id("confirm-discard").click()
    await page.wait_for_function("() => document.getElementById('table').dataset.phase === 'trump'")
    await check_fits(page, width, height, "#steps button[data-suit]")
    await page.get_by_test_id("trump-H").click()
    await page.wait_for_function(
        "() => document.getElementById('table').dataset.state === 'my-turn'"
        " && document.getElementById('table').dataset.phase === 'play'"
    )
    await check_fits(page, width, height, "#hand button.card")
    await page.context.close()


@pytest.mark.parametrize(("lang", "name"), [("en", "West"), ("fr", "Ouest")])
async def test_every_turn_line_of_the_game_is_read_whole_on_the_smallest_phone(
    hooked_server: str, browser: Browser, lang: str, name: str
) -> None:
    """Each of the game's turn lines, its words filled in, shown at 320 × 568: on one line or
    two, never cut short nor a word broken, the hand still in view."""
    lines = [
        i18n.t(lang, key, name=name, n=2)
        for key in i18n.catalog(lang)
        if key.startswith("charlemagne.turn.")
    ]
    assert len(lines) >= 20
    page = await sized(browser, 320, 568, lang)
    await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3, lang=lang)
    await decision(page, -1)
    for line in lines:
        await page.evaluate("t => { document.getElementById('turn-line').textContent = t; }", line)
        assert await clipped(page, ["#turn-line"]) == [], line
        assert await words_broken(page, ["#turn-line"]) == [], line
        assert await out_of_view(page, ["#turn-line", "#hand button.card"]) == [], line
    await page.context.close()


async def test_the_dealer_stuck_panel_fits_the_smallest_phone(
    hooked_server: str, browser: Browser
) -> None:
    page = await sized(browser, 320, 568, "fr")
    await open_scripted(page, hooked_server, STUCK_DEAL, dealer=0, lang="fr")
    await decision(page, -1)
    await expect(page.get_by_test_id("dealer-stuck")).to_be_visible()
    await check_fits(page, 320, 568, "#steps [data-testid='bids'] button:not([disabled])")
    await page.context.close()


async def test_not_your_turn_and_not_allowed_look_different_and_a_message_lives_with_its_state(
    paced_server: str, phone: Page
) -> None:
    await open_scripted(phone, paced_server, NUMBER_DEAL, dealer=3)
    _, phase, version = await decision(phone, -1)
    await phone.get_by_test_id("bid-6").click()
    # East is thinking (about a second): the hand is at rest.
    await phone.wait_for_function(
        "() => document.getElementById('table').dataset.state === 'waiting'"
    )
    hand = phone.get_by_test_id("hand")
    await expect(hand).to_have_attribute("data-look", "rest")
    resting = phone.locator("#hand button.card").first
    await expect(resting).to_have_attribute("data-look", "rest")
    rest_look = await resting.evaluate(
        "c => [getComputedStyle(c).opacity, c.querySelectorAll('.badge-refused').length,"
        " getComputedStyle(c.parentElement).outlineStyle]"
    )
    assert rest_look == ["1", 0, "dashed"]
    waiting_at = int(await table_attr(phone, "version"))
    await resting.click(force=True)
    refusal = phone.get_by_test_id("refusal")
    await expect(refusal).to_have_text(re.compile(r"^Not your turn: (East|Your partner|West) is"))
    await expect(refusal).to_have_attribute("data-kind", "rest")
    # The next state (a computer's bid) ends it: the message does not outlive its state.
    await phone.wait_for_function(
        "(v) => Number(document.getElementById('table').dataset.version) > v", arg=waiting_at
    )
    await expect(refusal).to_be_hidden()

    _, phase, version = await decision(phone, waiting_at)
    assert phase == "discard"
    await phone.locator('#hand [data-card="9H"]').click()
    await phone.locator('#hand [data-card="7H"]').click()
    await phone.get_by_test_id("confirm-discard").click()
    version = (await decision(phone, version))[2]
    await phone.get_by_test_id("trump-H").click()
    _, phase, version = await decision(phone, version)
    assert phase == "play"
    # East led a spade: only the ace of spades may follow; the others are dimmed and barred.
    refused = phone.locator('#hand button.card[data-look="refused"]')
    await expect(refused).to_have_count(7)
    await expect(phone.locator('#hand button.card[data-look="pick"]')).to_have_count(1)
    refused_look = await refused.first.evaluate(
        "c => [Number(getComputedStyle(c).opacity) < 0.6,"
        " c.querySelectorAll('.badge-refused').length,"
        " getComputedStyle(c.parentElement).outlineStyle]"
    )
    assert refused_look == [True, 1, "solid"]
    before = await phone.evaluate(BOXES, "#hand button.card, #turn-line, #steps button")
    await refused.first.click(force=True)
    await expect(refusal).to_have_text("Follow the suit led: spades.")
    await expect(refusal).to_have_attribute("data-kind", "refused")
    assert await refused.first.get_attribute("title") == await refusal.inner_text()
    # The jack of diamonds is a trump (hearts are): its refusal says why it does not follow;
    # the jack of hearts is a trump by its face, and is only told the suit led.
    await phone.locator('#hand [data-card="JD"]').click(force=True)
    await expect(refusal).to_have_text(
        "Follow the suit led, spades: the jokers and both jacks of the trump colour are trumps."
    )
    await phone.locator('#hand [data-card="JH"]').click(force=True)
    await expect(refusal).to_have_text("Follow the suit led: spades.")
    # Nothing moved under the finger, and nothing was sent.
    assert await phone.evaluate(BOXES, "#hand button.card, #turn-line, #steps button") == before
    assert int(await table_attr(phone, "version")) == version
    # The trick in play shows East's card on your left while you think.
    await expect(phone.locator("#trick .slot-left [data-card]")).to_have_count(1)
    await phone.locator('#hand button.card[data-look="pick"]').click()
    await expect(refusal).to_be_hidden()  # sent: the refusal is gone with its state


async def test_the_computer_plays_at_a_human_pace_and_a_finished_trick_stays_in_view(
    paced_server: str, phone: Page
) -> None:
    await open_scripted(phone, paced_server, STUCK_DEAL, dealer=0)
    await phone.evaluate(
        """() => {
            const table = document.getElementById('table');
            window.versions = [[performance.now(), table.dataset.version]];
            const note = () => window.versions.push([performance.now(), table.dataset.version]);
            new MutationObserver(note)
                .observe(table, {attributes: true, attributeFilter: ['data-version']});
        }"""
    )
    _, phase, version = await decision(phone, -1)
    assert phase == "auction"  # East, South and West have passed, one after the other
    versions: list[list[Any]] = await phone.evaluate("() => window.versions")
    # [load (version -1, unless the first state came before the watch began), first state,
    # then each computer pass]: each pass waited bot_delay_ms (900 ms) after the one before
    # (the first one's wait began before the page loaded, so the gap after the first state
    # says nothing). Seen from the page, one state may arrive late and the next on time (by as
    # much as a busy machine delays a page): each gap is well above an instant answer (a few
    # ms), and together they add up to the pacing.
    states = [v for v in versions if v[1] != "-1"]
    gaps = [states[i][0] - states[i - 1][0] for i in range(2, len(states))]
    assert len(gaps) >= 1 and min(gaps) >= 400, versions
    assert sum(gaps) >= 900 * len(gaps) - 250, versions
    await phone.get_by_test_id("bid-5").click()
    _, phase, version = await decision(phone, version)
    await phone.locator('#hand [data-card="9H"]').click()
    await phone.locator('#hand [data-card="7H"]').click()
    await phone.get_by_test_id("confirm-discard").click()
    _, phase, version = await decision(phone, version)
    await phone.get_by_test_id("trump-H").click()
    # East leads, South and West follow, then you.
    await decision(phone, version)
    await phone.locator('#hand button.card[data-look="pick"]').first.click()
    # The completed trick stays in the middle, its winner marked, before it is cleared.
    cross = phone.get_by_test_id("trick")
    await expect(cross.locator("[data-card]")).to_have_count(4)
    await expect(cross.locator(".takes")).to_have_text("takes it")
    await expect(cross).to_have_attribute("data-gathering", "true")
    await expect(cross).to_have_attribute("data-gathering", "false", timeout=5000)


async def test_home_page_card_leads_to_a_table_with_the_computer(
    hooked_server: str, phone: Page
) -> None:
    await phone.goto(hooked_server + "/")
    await phone.get_by_role("link", name=re.compile("^Charlemagne")).click()
    await expect(phone.get_by_role("heading", name="Charlemagne", level=1)).to_be_visible()
    await phone.get_by_role("button", name="Play against the computer — first team to 32").click()
    await phone.wait_for_url("**/charlemagne/table/*")
    await expect(phone.locator("#hand button.card")).to_have_count(8)
    await expect(phone.get_by_test_id("score")).to_have_text("Us 0 – 0 Them")
    await expect(phone.get_by_test_id("match-line")).to_contain_text("first to 32")
    # Whoever acts, the turn line says who and what.
    await expect(phone.get_by_test_id("turn-line")).to_have_text(
        re.compile(r"^(Your turn — |Your partner is |East is |West is )")
    )


async def test_the_partner_is_said_to_be_the_computer_before_and_once_the_play_begins(
    hooked_server: str, phone: Page, browser: Browser
) -> None:
    # Below 480 px too, and on a phone turned sideways: from the first bid, on the smallest
    # phone as on a common one.
    for size in ((320, 568), (568, 320)):
        narrow = await sized(browser, *size)
        try:
            await open_scripted(narrow, hooked_server, NUMBER_DEAL, dealer=3)
            await decision(narrow, -1)
            assert await table_attr(narrow, "mode") == "steps"
            await expect(
                narrow.get_by_test_id("seat-partner").locator(".seat-computer")
            ).to_be_visible()
        finally:
            await narrow.context.close()
    await phone.context.add_init_script(LIVE_LOG)
    await open_scripted(phone, hooked_server, NUMBER_DEAL, dealer=3)
    version = (await decision(phone, -1))[2]
    partner_is = phone.get_by_test_id("seat-partner").locator(".seat-computer")
    await expect(partner_is).to_be_visible()
    await expect(partner_is).to_have_text("computer")
    await number_deal_to_the_play(phone, version)
    await expect(phone.get_by_test_id("seat-partner")).to_contain_text("Partner · South")
    await expect(phone.get_by_test_id("seat-partner").locator(".seat-computer")).to_have_text(
        "computer"
    )
    # The live region says the partner's bid as a sentence: "Your partner: Pass." (the partner
    # is "your partner" mid-sentence elsewhere).
    said = await live_said(phone)
    assert any(text.startswith("Your partner: ") for text in said), said
    assert all(text[:1] == text[:1].upper() for text in said), said


async def test_reload_resumes_the_hand_where_it_stood(hooked_server: str, page: Page) -> None:
    await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3)
    version = (await decision(page, -1))[2]
    await page.get_by_test_id("bid-6").click()
    state, phase, version = await decision(page, version)
    hand = await page.locator("#hand button.card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    await page.reload()
    state2, phase2, version2 = await decision(page, -1)
    assert (state2, phase2, version2) == (state, phase, version)
    assert (
        await page.locator("#hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        == hand
    )
    await expect(page.get_by_test_id("discard-count")).to_contain_text("0 of 2 chosen")


async def test_keyboard_moves_along_the_hand_and_chooses_with_enter(
    hooked_server: str, page: Page
) -> None:
    await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3)
    version = (await decision(page, -1))[2]
    await page.get_by_test_id("bid-6").focus()
    await page.keyboard.press("Enter")
    await decision(page, version)
    await page.locator("#hand button.card").first.focus()
    await page.keyboard.press("End")
    await page.keyboard.press("Enter")
    last = page.locator("#hand button.card").last
    await expect(last).to_have_attribute("aria-pressed", "true")
    await expect(last).to_be_focused()
    tabbable = await page.locator("#hand button.card").evaluate_all(
        "cards => cards.filter(c => c.tabIndex === 0).length"
    )
    assert tabbable == 1
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.press(" ")
    await expect(page.get_by_test_id("discard-count")).to_contain_text("2 of 2 chosen")


@pytest.mark.parametrize(
    ("lang", "big", "little", "words"),
    [("en", "Big joker", "Little joker", ("BIG", "LITTLE")),
     ("fr", "Grand joker", "Petit joker", ("GRAND", "PETIT"))],
)  # fmt: skip
async def test_jokers_are_a_star_lettered_big_or_little(
    hooked_server: str, page: Page, lang: str, big: str, little: str, words: tuple[str, str]
) -> None:
    await open_scripted(page, hooked_server, JOKER_DEAL, dealer=3, lang=lang)
    await decision(page, -1)
    for code, name, word in (("BJ", big, words[0]), ("LJ", little, words[1])):
        card = page.locator(f'#hand button.card[data-card="{code}"]')
        await expect(card).to_have_attribute("aria-label", re.compile(f"^{word[0]} {word}, {name}"))
        assert await card.locator("svg polygon").count() == 3  # a star and two corner stars
        assert word in await card.locator("svg text").all_text_contents()


CLEARANCE = """card => {
    // How far (in px on the screen) a joker's word keeps from each other thing drawn on the
    // card (its stars and corner letters): the larger of the gaps across and down between
    // their boxes (negative when they overlap).
    const word = card.querySelector(".card-joker-word").getBoundingClientRect();
    const others = card.querySelectorAll("svg polygon, svg .card-index text, svg .card-index use");
    return [...others].map((node) => {
        const r = node.getBoundingClientRect();
        const across = Math.max(r.left - word.right, word.left - r.right);
        const down = Math.max(r.top - word.bottom, word.top - r.bottom);
        return Math.round(Math.max(across, down) * 10) / 10;
    });
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(360, 640), (390, 844)], ids=["360x640", "390x844"])
async def test_a_jokers_word_keeps_clear_of_its_stars_in_a_phones_hand(
    hooked_server: str, browser: Browser, size: tuple[int, int], lang: str
) -> None:
    # At 360 px the corner star of the lower corner touched GRAND (and LITTLE).
    ctx = await new_phone(browser, size, lang)
    try:
        page = await ctx.new_page()
        await open_scripted(page, hooked_server, JOKER_DEAL, dealer=3, lang=lang)
        await decision(page, -1)
        for code in ("BJ", "LJ"):
            card = page.locator(f'#hand button.card[data-card="{code}"]')
            gaps = await card.evaluate(CLEARANCE)
            assert len(gaps) == 5  # three stars, two corner letters
            assert min(gaps) >= 1, (code, gaps)
    finally:
        await ctx.close()


async def test_french_table_uses_no_break_spaces_and_french_words(
    hooked_server: str, browser: Browser
) -> None:
    page = await sized(browser, 390, 844, "fr")
    await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3, lang="fr")
    version = (await decision(page, -1))[2]
    await expect(page.get_by_test_id("turn-line")).to_have_text("À vous — annoncez ou passez")
    texts = [await page.locator("body").inner_text()]
    await page.get_by_test_id("bid-6").click()
    version = (await decision(page, version))[2]
    await expect(page.get_by_test_id("contract-line")).to_have_text(
        "Contrat 6 (vous)\u00a0: vous et votre partenaire devez faire 6 plis."
    )
    texts.append(await page.locator("body").inner_text())
    await page.locator('#hand [data-card="9H"]').click()
    await page.locator('#hand [data-card="7H"]').click()
    await page.locator('#hand [data-card="AS"]').click()  # a refusal, in French
    await expect(page.get_by_test_id("discard-count")).to_have_text(
        "Vous avez choisi vos 2 cartes\u00a0: touchez-en une pour la reprendre."
    )
    texts.append(await page.locator("body").inner_text())
    for text in texts:
        assert not re.search(r" [:;!?»]|« ", text), text
    await page.context.close()


async def test_a_table_url_that_leads_nowhere_says_there_is_no_table(
    hooked_server: str, page: Page
) -> None:
    await page.goto(hooked_server + "/charlemagne/table/made-up")
    lost = page.get_by_test_id("table-lost")
    await expect(lost.locator("#lost-text")).to_have_text(
        "There is no table here: it has closed, or the link is wrong."
    )
    await expect(lost.get_by_role("link", name="Start a match")).to_have_attribute(
        "href", "/charlemagne"
    )


async def test_a_computer_match_opened_in_another_tab_says_it_is_played_in_the_tab_that_started_it(
    hooked_server: str, browser: Browser
) -> None:
    context = await browser.new_context(locale="fr-FR")
    page = await context.new_page()
    table = await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3, lang="fr")
    await decision(page, -1)
    other = await context.new_page()  # a tab of its own: the seat lives in the first one
    errors = console_errors(other)
    await other.goto(hooked_server + table["url"])
    lost = other.get_by_test_id("table-lost")
    await expect(lost.locator("#lost-text")).to_have_text(
        "Cette partie contre l'ordinateur ne se joue que dans l'onglet du navigateur qui l'a"
        " commencée\u00a0: on ne peut pas l'ouvrir dans un autre onglet ni dans un autre"
        " navigateur."
    )
    await expect(lost.get_by_role("link", name="Commencer une partie")).to_be_visible()
    assert errors == []  # foreseen by the page: no seat request failed
    # The first tab still holds its seat.
    await expect(page.get_by_test_id("bid-6")).to_be_enabled()
    await context.close()


async def test_another_seats_gros_mulot_spread_is_drawn_face_up_at_its_seat(
    hooked_server: str, page: Page
) -> None:
    # The computer never bids Gros Mulot; a shared table will. The page draws whatever spread
    # the view gives: frames are passed on with East as a Gros Mulot bidder spreading two cards.
    async def relay(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            state = json.loads(message)
            if state["type"] == "state":
                deal = state["view"]["deal"]
                deal.update(contract="gros-mulot", bidder=1, sitting_out=3, spread=["7C", "KD"])
            ws.send(json.dumps(state))

        server.on_message(to_page)

    await page.route_web_socket("**/ws/tables/*", relay)
    await open_scripted(page, hooked_server, NUMBER_DEAL, dealer=3)
    spread = page.get_by_test_id("seat-left").get_by_test_id("spread")
    await expect(spread.get_by_role("img", name="Seven of clubs")).to_be_visible()
    await expect(spread.get_by_role("img", name="King of diamonds")).to_be_visible()
    await expect(page.get_by_test_id("seat-left").locator(".backs")).to_have_count(0)
    await expect(page.get_by_test_id("seat-right").locator('[data-chip="out"]')).to_have_text(
        "Sits out"
    )
