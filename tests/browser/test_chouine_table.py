"""The Chouine table in Debian's Chromium, clicked like a person (bot pacing 0)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.chouine_page import (
    open_computer_table,
    play_a_card,
    two_phones,
    wait_for_decision,
)
from tests.browser.conftest import console_errors
from tests.browser.friend_table import people_table, sit, table_state
from veillee.games.chouine import rules

LOOKS = """cards => cards.map((card) => {
    const after = getComputedStyle(card, '::after');
    return {
        refused: card.classList.contains('refused'),
        mark: after.content,
        hatch: after.backgroundImage,
        opacity: Number(getComputedStyle(card).opacity),
    };
})"""
"""How each card of the hand looks: its ⊘ mark, hatching and opacity."""


async def pick(page: Page, rng: random.Random) -> str:
    """A legal card, chosen as a person who wants to meet the seven prompt would: keep the seven
    of trumps, and try to lose trick 10 (its loser follows trick 11 and is asked)."""
    table = page.locator("#table")
    trump = await table.get_attribute("data-trump") or ""
    trick = int(await table.get_attribute("data-trick") or 0)
    legal = await page.locator('#hand button.card[data-legal="true"]').evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    assert legal
    keep = [c for c in legal if c != "7" + trump] or legal
    if trick != 10:
        return str(rng.choice(keep))
    played = page.locator("#trick [data-card]")
    lead = await played.first.get_attribute("data-card") if await played.count() else None
    losing = [c for c in keep if c[1] != trump and (lead is None or c[1] != lead[1])]
    return min(losing or keep, key=lambda c: "789JQKTA".index(c[0]))


async def play_match(page: Page, rng: random.Random) -> dict[str, int]:
    """Play the running match to its end, clicking like a person: a legal card (a declaration
    whenever one is offered), an answer to the seven prompt, "Next partie" after each count."""
    seen = {"parties": 0, "declarations": 0, "prompts": 0, "swaps": 0, "viewed": 0}
    version = int(await page.locator("#table").get_attribute("data-version") or -1) - 1
    for _ in range(400):
        state, version = await wait_for_decision(page, version)
        if state == "match-over":
            seen["parties"] += 1
            return seen
        if state == "count":
            count = page.get_by_test_id("count")
            await expect(count).to_be_visible()
            await expect(count.get_by_test_id("pile-mine")).to_be_visible()
            # A count, or after a chouine (no count) the row saying it won the partie.
            ended = count.get_by_role("row", name="Total").or_(count.locator("tr.chouine"))
            await expect(ended.first).to_be_visible()
            seen["parties"] += 1
            await count.get_by_test_id("next-partie").click()
        elif state == "prompt":
            seen["prompts"] += 1
            prompt = page.get_by_test_id("seven-prompt")
            swap = prompt.get_by_test_id("prompt-swap")
            why = prompt.get_by_test_id("prompt-why")
            if await swap.is_enabled():
                await expect(why).to_be_hidden()
                seen["swaps"] += 1
                await swap.click()
            else:
                # a greyed-out swap says why (the seat's own hand: nothing the other may not see)
                await expect(why).to_have_text(
                    "You do not hold the seven of trumps: carry on. The table asks either way,"
                    " so the question gives nothing away."
                )
                await prompt.get_by_role("button", name="Carry on").click()
        elif await page.get_by_test_id("swap").is_visible() and seen["prompts"]:
            # Swapping early would spare the last-chance prompt, which this test wants to meet.
            seen["swaps"] += 1
            await page.get_by_test_id("swap").click()
        else:
            if not seen["viewed"] and await page.get_by_test_id("opponent-last-trick").is_enabled():
                seen["viewed"] += 1
                await page.get_by_test_id("opponent-last-trick").click()
                viewer = page.get_by_test_id("trick-viewer")
                await expect(viewer.locator(".mini-card")).to_have_count(2)
                # which card was led and which answered it (the view lists the lead first)
                await expect(viewer.locator("figcaption")).to_have_text(["led", "answer"])
                await viewer.get_by_role("button", name="Close").click()
            await page.locator(f'#hand button.card[data-card="{await pick(page, rng)}"]').click()
            chooser = page.get_by_test_id("declare-chooser")
            if await chooser.is_visible():
                seen["declarations"] += 1
                await chooser.get_by_test_id("declare-option").first.click()
    raise AssertionError("the match did not end")


async def test_whole_best_of_3_match_against_the_computer(live_server: str, page: Page) -> None:
    rng = random.Random(7)
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "response",
        lambda r: (
            problems.append(r.url)
            if r.status >= 400 and not r.url.endswith("/favicon.ico")
            else None
        ),
    )
    await open_computer_table(page, live_server, best_of=3)
    await expect(page.get_by_test_id("match-line")).to_contain_text("Best of 3")
    await expect(page.get_by_test_id("score")).to_have_text("You 0 – 0 Computer")
    # The seven prompt comes only to the seat that follows trick 11: play further matches
    # until one of them has asked it (each match is played to its result).
    prompts = viewed = 0
    for _ in range(6):
        seen = await play_match(page, rng)
        prompts += seen["prompts"]
        viewed += seen["viewed"]
        result = page.get_by_test_id("match-result")
        await expect(result).to_be_visible()
        await expect(result).to_contain_text("the match")
        wins = (await page.get_by_test_id("score").inner_text()).split()
        assert max(int(wins[1]), int(wins[3])) == 2
        assert seen["parties"] >= 2
        if prompts:
            break
        await page.get_by_test_id("new-match").click()
        await expect(page.get_by_test_id("score")).to_have_text("You 0 – 0 Computer")
    assert prompts >= 1 and viewed >= 1
    assert problems == []


async def test_dimmed_card_explains_itself_and_changes_nothing(
    live_server: str, page: Page
) -> None:
    await open_computer_table(page, live_server)
    version = -1
    # Play until a card of ours is refused (phase 2 duties), or use the computer's turn.
    for _ in range(120):
        state, version = await wait_for_decision(page, version)
        dimmed = page.locator('#hand button.card[data-legal="false"]')
        if state == "my-turn" and await dimmed.count() > 0:
            break
        if state == "count":
            await page.get_by_test_id("next-partie").click()
            continue
        if state == "prompt":
            await page.get_by_role("button", name="Carry on").click()
            continue
        if state == "match-over":
            await page.get_by_test_id("new-match").click()
            continue
        # The hand is shown strongest first: giving the last card away loses tricks, so the
        # computer leads in phase 2 and we must follow (where cards get refused).
        await page.locator('#hand button.card[data-legal="true"]').last.click()
        chooser = page.get_by_test_id("declare-chooser")
        if await chooser.is_visible():
            await chooser.get_by_test_id("play-plain").click()
    else:
        raise AssertionError("no card was ever refused")
    card = page.locator('#hand button.card[data-legal="false"]').first
    code = await card.get_attribute("data-card")
    reason = await card.get_attribute("title")
    assert reason and reason.startswith(("Talon empty", "Trump led", "You cannot follow"))
    # "Not allowed" has its own look, beyond colour: dimmed, hatched and marked.
    looks = await page.locator("#hand button.card").evaluate_all(LOOKS)
    assert {look["refused"] for look in looks} == {True, False}
    for look in looks:
        if look["refused"]:
            assert look["mark"] == '"⊘"' and "gradient" in look["hatch"] and look["opacity"] < 0.7
        else:
            assert look["mark"] == "none" and look["opacity"] == 1
    # aria-disabled makes Playwright wait for an enabled element: click it where it lies.
    await card.click(force=True)
    refusal = page.get_by_test_id("refusal")
    await expect(refusal).to_be_visible()
    await expect(refusal).to_have_text(reason)
    await page.wait_for_timeout(300)
    assert await page.locator("#table").get_attribute("data-version") == str(version)
    await expect(page.locator(f'#hand button.card[data-card="{code}"]')).to_be_visible()
    await expect(page.get_by_test_id("trick").locator(f'[data-card="{code}"]')).to_have_count(0)


async def test_reload_resumes_the_match_exactly(live_server: str, page: Page) -> None:
    await open_computer_table(page, live_server)
    _, version = await wait_for_decision(page, -1)
    await page.locator('#hand button.card[data-legal="true"]').first.click()
    chooser = page.get_by_test_id("declare-chooser")
    if await chooser.is_visible():
        await chooser.get_by_test_id("play-plain").click()
    _, version = await wait_for_decision(page, version)
    hand = await page.locator("#hand button.card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    url = page.url
    if await page.get_by_test_id("my-tricks").is_enabled():
        await page.get_by_test_id("my-tricks").click()
        viewer = page.get_by_test_id("trick-viewer")
        await expect(viewer.locator(".mini-card")).to_have_count(2)
        await viewer.get_by_role("button", name="Close").click()
    await page.reload()
    assert page.url == url
    await expect(page.locator("#table")).to_have_attribute("data-version", str(version))
    again = await page.locator("#hand button.card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    assert again == hand
    # Another tab (a new session) has no seat there.
    other = await page.context.browser.new_page()  # type: ignore[union-attr]
    await other.goto(url)
    await expect(other.get_by_test_id("table-lost")).to_be_visible()
    await other.close()


@pytest.mark.parametrize(
    ("locale", "said", "start"),
    [
        (
            "en-GB",
            "This match against the computer is played only in the browser tab that started it:"
            " it cannot be opened in another tab or browser.",
            "Start a match",
        ),
        (
            "fr-FR",
            "Cette manche contre l'ordinateur ne se joue que dans l'onglet du navigateur qui l'a"
            " commencée\u00a0: on ne peut pas l'ouvrir dans un autre onglet ni dans un autre"
            " navigateur.",
            "Commencer une manche",
        ),
    ],
)
async def test_a_computer_match_opened_in_another_tab_or_browser_says_where_it_is_played(
    live_server: str, browser: Browser, locale: str, said: str, start: str
) -> None:
    context = await browser.new_context(locale=locale)
    page = await context.new_page()
    await open_computer_table(page, live_server)
    url = page.url
    elsewhere = await browser.new_context(locale=locale)
    for other in (await context.new_page(), await elsewhere.new_page()):  # a tab, a browser
        errors = console_errors(other)
        await other.goto(url)
        lost = other.get_by_test_id("table-lost")
        await expect(lost.locator("p").first).to_have_text(said)
        await expect(lost.get_by_role("link", name=start)).to_have_attribute("href", "/chouine")
        await expect(other.get_by_test_id("hand")).to_be_hidden()
        assert errors == []  # the page knew: it asked for no seat, so no request failed
    # The tab that started it plays on.
    await expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(5)
    await elsewhere.close()
    await context.close()


async def test_keyboard_moves_along_the_hand_and_enter_plays(live_server: str, page: Page) -> None:
    await open_computer_table(page, live_server)
    state, version = await wait_for_decision(page, -1)
    while state != "my-turn":  # a prompt or count cannot come this early
        state, version = await wait_for_decision(page, version)
    cards = page.locator("#hand button.card")
    await cards.first.focus()
    await page.keyboard.press("ArrowRight")
    await expect(cards.nth(1)).to_be_focused()
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.press("ArrowRight")
    code = await cards.nth(1).get_attribute("data-card")
    await page.keyboard.press("Enter")
    chooser = page.get_by_test_id("declare-chooser")
    if await chooser.is_visible():
        await chooser.get_by_test_id("play-plain").click()
    await expect(page.locator(f'#hand button.card[data-card="{code}"]')).to_have_count(0)
    await expect(page.locator("#live")).not_to_be_empty()


async def test_table_speaks_french(live_server: str, browser: Browser) -> None:
    ctx = await browser.new_context(locale="fr-FR")
    page = await ctx.new_page()
    await open_computer_table(page, live_server)
    card = page.get_by_test_id("hand").locator("button.card").first
    await expect(card).to_have_attribute(
        "aria-label",
        re.compile(r"^([ARDV]|[7-9]|10)[♠♥♦♣], (As|Dix|Roi|Dame|Valet|Neuf|Huit|Sept) de "),
    )
    await expect(page.get_by_test_id("score")).to_have_text("Vous 0 – 0 Ordinateur")
    await ctx.close()


REFUSALS_SHOWN = """() => {
    const box = document.getElementById('refusal');
    window.refusalsShown = [];
    new MutationObserver(() => {
        if (!box.hidden) window.refusalsShown.push(box.textContent);
    }).observe(box, { attributes: true, childList: true, characterData: true, subtree: true });
}"""
"""Record in ``window.refusalsShown`` every refusal the page shows from now on, however briefly."""


def dealt(seat0: list[str], seat1: list[str], turn_up: str) -> list[str]:
    """A deck that deals ``seat0`` to seat 0 and ``seat1`` to seat 1 when seat 1 deals (rules
    §3: the non-dealer gets the even cards), then ``turn_up``, then the talon."""
    rest = [c for c in rules.PACK if c not in {*seat0, *seat1, turn_up}]
    return [*(c for pair in zip(seat0, seat1, strict=True) for c in pair), turn_up, *rest]


async def test_a_double_click_plays_the_card_once_and_says_nothing_more(
    browser: Browser, hooked_server: str
) -> None:
    # Two people; you sit at seat 0 and lead: no court card, no ace or ten, so no declaration
    # and each card has one way to be played. Your friend's 9S takes your 7S.
    deck = dealt(["7S", "8S", "9D", "7C", "8C"], ["9S", "7H", "8D", "9C", "TS"], "JH")
    async with two_phones(browser) as (you, friend):
        sent: list[dict[str, Any]] = []
        received: list[dict[str, Any]] = []

        def listen(ws: Any) -> None:
            ws.on("framesent", lambda payload: sent.append(json.loads(payload)))
            ws.on("framereceived", lambda payload: received.append(json.loads(payload)))

        you.on("websocket", listen)
        table = await people_table(you, hooked_server, deck, dealer=1)
        await sit(you, hooked_server, table, 0)
        await sit(friend, hooked_server, table, 1)
        await you.evaluate(REFUSALS_SHOWN)

        def acts() -> list[str]:
            return [frame["action"] for frame in sent if frame["type"] == "act"]

        # The first click of a double click plays 7S and the server answers before the second:
        # the second lands where the card was, on the next card of a hand at rest, and says
        # nothing (nor sends anything).
        state, version = await table_state(you)
        assert state == "my-turn"
        box = await you.locator('#hand button.card[data-card="7S"]').bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        await you.mouse.click(x, y)
        await expect(you.locator("#table")).to_have_attribute("data-version", str(version + 1))
        await expect(you.locator("#table")).to_have_attribute("data-state", "waiting")
        await you.mouse.move(x, y)
        await you.mouse.down(click_count=2)
        await you.mouse.up(click_count=2)
        await you.wait_for_timeout(300)
        assert acts() == ["7S"]
        assert await you.evaluate("() => window.refusalsShown") == []
        await expect(you.get_by_test_id("turn-line")).to_have_text("Your friend's turn")
        # A tap of its own, though, is answered: the hand is at rest (aria-disabled makes
        # Playwright wait for an enabled element: click it where it lies).
        await you.locator('#hand button.card[data-card="8S"]').click(force=True)
        await expect(you.get_by_test_id("refusal")).to_have_text("It is not your turn.")
        assert acts() == ["7S"]
        # Your friend takes the trick and leads; you follow with a double click: one card
        # played, whether the server answered between the two clicks or not, and no refusal.
        await friend.locator('#hand button.card[data-card="9S"]').click()
        await expect(you.get_by_test_id("refusal")).to_be_hidden()
        _, version = await table_state(you)
        await play_a_card(friend)
        await expect(you.locator("#table")).to_have_attribute("data-state", "my-turn")
        _, version = await table_state(you)
        await you.evaluate("() => { window.refusalsShown = []; }")
        card = you.locator('#hand button.card[data-legal="true"]').first
        code = await card.get_attribute("data-card")
        await card.dblclick()
        await expect(you.locator("#table")).to_have_attribute("data-version", str(version + 1))
        await you.wait_for_timeout(300)
        assert acts() == ["7S", code]
        assert await you.evaluate("() => window.refusalsShown") == []
        assert [frame for frame in received if frame["type"] == "error"] == []


async def test_the_turn_up_shows_its_index_upright_on_the_end_the_talon_leaves_in_view(
    browser: Browser, hooked_server: str
) -> None:
    # The turn-up lies crosswise under the talon, its own corner index sideways: its index is
    # written again, upright, where the card shows beside the stack (a tester could not read it).
    deck = dealt(["7S", "8S", "9D", "7C", "8C"], ["9S", "7H", "8D", "9C", "TS"], "QH")
    async with two_phones(browser, (360, 640)) as (you, friend):
        table = await people_table(you, hooked_server, deck, dealer=1)
        await sit(you, hooked_server, table, 0)
        await sit(friend, hooked_server, table, 1)
        index = you.locator("#turn-up .turn-up-index")
        await expect(index).to_have_text("Q♥")
        await expect(index).to_have_attribute("aria-hidden", "true")
        card = you.locator("#turn-up .mini-card")
        await expect(card).to_have_attribute("data-card", "QH")
        shown, under, stack = (
            await index.bounding_box(),
            await card.bounding_box(),
            await you.locator("#talon-stack .card-back").bounding_box(),
        )
        assert shown is not None and under is not None and stack is not None
        # on the turn-up's end that shows: inside the (crosswise) card, clear of the stack
        assert (
            under["x"] <= shown["x"] and shown["x"] + shown["width"] <= under["x"] + under["width"]
        )
        assert (
            under["y"] <= shown["y"]
            and shown["y"] + shown["height"] <= under["y"] + under["height"]
        )
        assert shown["x"] >= stack["x"] + stack["width"]
        assert await index.evaluate("e => getComputedStyle(e).color") == "rgb(179, 18, 46)"
        # and the same to the other seat
        await expect(friend.locator("#turn-up .turn-up-index")).to_have_text("Q♥")


async def test_the_seven_prompt_says_why_you_cannot_swap_when_you_lack_the_seven(
    browser: Browser, hooked_server: str
) -> None:
    # The seven of trumps is the talon's last face-down card: after trick 10 the follower of
    # trick 11 is asked all the same (rules §6: the prompt tells the other seat nothing), and
    # its greyed-out swap says why. Two people play any card until one of them is asked.
    others = [c for c in rules.PACK if c not in ("8H", "7H")]
    random.Random(11).shuffle(others)
    deck = [*others[:10], "8H", *others[10:], "7H"]
    async with two_phones(browser) as (you, friend):
        table = await people_table(you, hooked_server, deck, dealer=1)
        await sit(you, hooked_server, table, 0)
        await sit(friend, hooked_server, table, 1)
        asked = None
        for _ in range(200):
            states = [await p.locator("#table").get_attribute("data-state") for p in (you, friend)]
            if "prompt" in states:
                asked = (you, friend)[states.index("prompt")]
                break
            if "my-turn" not in states:
                await you.wait_for_timeout(50)
                continue
            page = (you, friend)[states.index("my-turn")]
            version = await page.locator("#table").get_attribute("data-version")
            await page.locator("#hand button.card").first.click()
            chooser = page.get_by_test_id("declare-chooser")
            if await chooser.is_visible():
                await chooser.get_by_test_id("declare-option").first.click()
            await expect(page.locator("#table")).not_to_have_attribute("data-version", str(version))
        assert asked is not None
        prompt = asked.get_by_test_id("seven-prompt")
        await expect(prompt).to_be_visible()
        await expect(prompt.get_by_test_id("prompt-swap")).to_be_disabled()
        await expect(prompt.get_by_test_id("prompt-why")).to_have_text(
            "You do not hold the seven of trumps: carry on. The table asks either way, so the"
            " question gives nothing away."
        )
        await prompt.get_by_role("button", name="Carry on").click()
        await expect(prompt).to_be_hidden()
