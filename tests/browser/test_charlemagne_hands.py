"""Whole Charlemagne hands against the computer, clicked like a person on a phone: a number
contract you bid (kitty, discard, trumps, play), a hand you pass, the dealer stuck after three
passes, your partner's Charlemagne (the blind pass, then sitting out), your Gros Mulot spread,
and a match played to a target lowered by the test hook."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.charlemagne_player import (
    CHARLEMAGNE_DEAL,
    GROS_MULOT_DEAL,
    NUMBER_DEAL,
    OUTBID_DEAL,
    PASS_DEAL,
    STUCK_DEAL,
    decision,
    open_scripted,
    play_hand,
    table_attr,
)
from tests.browser.chouine_page import new_phone

RECORD_TURNS = """() => {
    const line = document.getElementById('turn-line');
    window.turnLines = [line.textContent];
    new MutationObserver(() => window.turnLines.push(line.textContent))
        .observe(line, {childList: true, characterData: true, subtree: true});
}"""


async def hand_order(page: Page) -> list[str]:
    cards: list[str] = await page.locator("#hand button.card").evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    return cards


async def test_bid_a_number_contract_take_the_kitty_discard_and_play_it(
    hooked_server: str, phone: Page
) -> None:
    await open_scripted(phone, hooked_server, NUMBER_DEAL, dealer=3)
    state, phase, version = await decision(phone, -1)
    assert (state, phase) == ("my-turn", "auction")
    await expect(phone.get_by_test_id("turn-line")).to_have_text("Your turn — bid or pass")
    await expect(phone.get_by_test_id("match-line")).to_have_text(
        "Hand 1 · West deals · first to 32"
    )
    await expect(phone.get_by_test_id("seat-right").locator('[data-chip="dealer"]')).to_have_text(
        "Deals"
    )
    # First to speak: pass and every bid are open.
    bids = phone.get_by_test_id("bids").get_by_role("button")
    await expect(bids).to_have_count(9)
    for i in range(9):
        await expect(bids.nth(i)).to_be_enabled()
    await phone.get_by_role("button", name="Bid 6", exact=True).click()

    state, phase, version = await decision(phone, version)
    assert phase == "discard"
    await expect(phone.get_by_test_id("turn-line")).to_have_text("Your turn — discard 2 cards")
    await expect(phone.get_by_test_id("contract-line")).to_have_text(
        "Contract 6 by you: you and your partner need 6 tricks."
    )
    await expect(phone.get_by_test_id("seat-you").locator('[data-chip="bidder"]')).to_have_text(
        "Bid 6"
    )
    # The kitty came to you (you alone see its cards): ten cards, two of them from the kitty.
    steps = phone.get_by_test_id("steps")
    await expect(steps.get_by_role("img", name="Seven of hearts")).to_be_visible()
    await expect(steps.get_by_role("img", name="Ten of hearts")).to_be_visible()
    await expect(phone.locator("#hand button.card")).to_have_count(10)
    count = phone.get_by_test_id("discard-count")
    confirm = phone.get_by_test_id("confirm-discard")
    await expect(count).to_have_text("0 of 2 chosen — tap cards in your hand")
    await expect(confirm).to_be_disabled()
    await expect(confirm).to_have_text("Discard these 2 cards")
    nine, seven = phone.locator('#hand [data-card="9H"]'), phone.locator('#hand [data-card="7H"]')
    await nine.click()
    await expect(nine).to_have_attribute("aria-pressed", "true")
    await seven.click()
    await expect(count).to_have_text("2 of 2 chosen — tap one to put it back")
    await expect(confirm).to_be_enabled()
    # A third card is refused with the reason, said on the count beside the button (where the
    # player choosing looks, framed as a refusal), and nothing changes, nor moves.
    confirm_box = await confirm.bounding_box()
    await phone.locator('#hand [data-card="AS"]').click()
    await expect(count).to_have_text(
        "You have chosen your 2 cards: tap one of them to put it back."
    )
    await expect(count).to_have_attribute("data-look", "refused")
    await expect(phone.get_by_test_id("refusal")).to_be_hidden()  # one message per fact
    assert await confirm.bounding_box() == confirm_box
    await expect(phone.locator('#hand [data-card="AS"]')).to_have_attribute("aria-pressed", "false")
    await seven.click()  # put it back, and choose it again
    await expect(count).to_have_text("1 of 2 chosen — tap cards in your hand")
    await expect(count).to_have_attribute("data-look", "count")
    await seven.click()
    await confirm.click()

    state, phase, version = await decision(phone, version)
    assert phase == "trump"
    await expect(phone.get_by_test_id("turn-line")).to_have_text("Your turn — name trumps")
    await expect(steps.get_by_role("img", name="Nine of hearts")).to_be_visible()  # your discard
    await phone.get_by_test_id("trump-H").click()

    state, phase, version = await decision(phone, version)
    assert phase == "play"
    await expect(phone.get_by_test_id("trump-line")).to_have_text("Trumps: hearts.")
    # Sorted by effective suit: the two bowers with the hearts, strongest first, trumps last.
    assert await hand_order(phone) == ["AS", "AC", "JH", "JD", "AH", "KH", "QH", "TH"]
    # East led (left of the bidder): its card lies on your left.
    await expect(phone.locator("#trick .slot-left [data-card]")).to_have_count(1)

    await play_hand(phone, version - 1)
    end = phone.get_by_test_id("hand-end")
    await expect(end.get_by_test_id("end-contract")).to_have_text("Contract6, bid by you")
    result = await end.get_by_test_id("end-result").locator("td").inner_text()
    assert result in ("Made", "Failed")
    await expect(end.get_by_test_id("end-tricks").locator("td")).to_have_text(
        re.compile(r"^us \d, them \d$")
    )
    title = end.get_by_test_id("end-title")
    if result == "Made":
        await expect(title).to_have_text("Contract made: +6 for you and your partner")
        await expect(end.get_by_test_id("end-why")).to_have_text(
            re.compile(r"^You and your partner took 6 tricks: your 6 is made\.$")
        )
        await expect(phone.get_by_test_id("score")).to_have_text("Us 6 – 0 Them")
    else:
        await expect(title).to_have_text("Contract failed: +6 for East and West")
        await expect(phone.get_by_test_id("score")).to_have_text("Us 0 – 6 Them")
    await expect(end.get_by_test_id("end-match")).to_contain_text("(first to 32)")
    await end.get_by_test_id("next-hand").click()
    await expect(end).to_be_hidden()
    # The deal passes one seat to the left: West dealt, so you deal hand 2.
    await expect(phone.get_by_test_id("match-line")).to_have_text(
        "Hand 2 · North deals · first to 32"
    )


async def test_a_hand_you_pass_is_played_out_by_the_computers_with_you(
    hooked_server: str, phone: Page
) -> None:
    await open_scripted(phone, hooked_server, PASS_DEAL, dealer=3)
    _, phase, version = await decision(phone, -1)
    assert phase == "auction"
    await phone.evaluate(RECORD_TURNS)
    await expect(phone.get_by_test_id("kitty")).to_be_hidden()  # the bid panel is ours now
    await phone.get_by_test_id("bid-pass").click()
    _, phase, version = await decision(phone, version)
    assert phase == "play"
    await expect(phone.get_by_test_id("contract-line")).to_have_text(
        "Contract 7 by East: East and West need 7 tricks."
    )
    await expect(phone.get_by_test_id("seat-left").locator('[data-chip="bidder"]')).to_have_text(
        "Bid 7"
    )
    seen, version = await play_hand(phone, version - 1)
    assert "auction" not in seen.phases and seen.plays >= 1
    turns = await phone.evaluate("() => window.turnLines")
    # The turn line said who was doing what while you waited.
    for said in ("East is bidding…", "East is discarding…", "East is naming trumps…"):
        assert said in turns, (said, turns)
    assert "Your partner is playing…" in turns and "West is playing…" in turns
    end = phone.get_by_test_id("hand-end")
    await expect(end.get_by_test_id("end-contract")).to_have_text("Contract7, bid by East")
    await expect(end.get_by_test_id("end-why")).to_have_text(
        re.compile(
            r"^(East and West took 7 tricks: their 7 is made"
            r"|You and your partner took 2 tricks: East and West can no longer make 7)\.$"
        )
    )


async def test_the_dealer_must_bid_when_everyone_else_passed(
    hooked_server: str, phone: Page
) -> None:
    await open_scripted(phone, hooked_server, STUCK_DEAL, dealer=0)
    state, phase, version = await decision(phone, -1)
    assert (state, phase) == ("my-turn", "auction")
    for seat in ("seat-left", "seat-partner", "seat-right"):
        await expect(phone.get_by_test_id(seat).locator('[data-chip="pass"]')).to_have_text("Pass")
    await expect(phone.get_by_test_id("turn-line")).to_have_text("Your turn — you must bid")
    await expect(phone.get_by_test_id("dealer-stuck")).to_have_text(
        "You deal and everyone else passed: the dealer must bid, 5 or more."
    )
    await expect(phone.get_by_test_id("bid-pass")).to_be_disabled()
    await expect(phone.get_by_test_id("bid-5")).to_be_enabled()
    # Tapped anyway, Pass says why and changes nothing.
    await phone.get_by_test_id("bid-pass").click(force=True)
    await expect(phone.get_by_test_id("refusal")).to_have_text(
        "Everyone else passed: the dealer must bid."
    )
    assert int(await table_attr(phone, "version")) == version
    # A card tapped during the auction says what to do instead, and changes nothing.
    await phone.locator("#hand button.card").first.click(force=True)
    await expect(phone.get_by_test_id("refusal")).to_have_text(
        "Cards are played after the auction: bid or pass first."
    )
    assert int(await table_attr(phone, "version")) == version
    await phone.get_by_test_id("bid-5").click()
    seen, version = await play_hand(phone, version)
    assert seen.phases[:2] == ["discard", "trump"]
    end = phone.get_by_test_id("hand-end")
    await expect(end.get_by_test_id("end-contract")).to_have_text("Contract5, bid by you")


@pytest.mark.parametrize(
    ("lang", "too_low", "bid_7"),
    [
        ("en", "Bid more than 7, or pass: East bid 7.", "Bid 7"),
        ("fr", "Annoncez plus que 7, ou passez\u00a0: Est a annoncé 7.", "Annoncer 7"),
    ],
)
async def test_a_bid_too_low_is_struck_through_and_says_why_when_tapped(
    hooked_server: str, browser: Browser, lang: str, too_low: str, bid_7: str
) -> None:
    context = await new_phone(browser, (390, 844), lang)
    phone = await context.new_page()
    await open_scripted(phone, hooked_server, OUTBID_DEAL, dealer=0, lang=lang)
    state, phase, version = await decision(phone, -1)
    assert (state, phase) == ("my-turn", "auction")
    # East bid 7: 5, 6 and 7 are struck through, each naming its reason (rules §4: a bid must be
    # strictly higher, so 7 too, and the words say so rather than "too low"); pass and 8 up are
    # open.
    for bid in ("5", "6", "7"):
        refused = phone.get_by_test_id(f"bid-{bid}")
        await expect(refused).to_be_disabled()
        await expect(refused).to_have_attribute("data-look", "refused")
        await expect(refused).to_have_attribute("title", too_low)
        assert await refused.evaluate("b => getComputedStyle(b).textDecorationLine") == (
            "line-through"
        )
    await expect(phone.get_by_role("button", name=f"{bid_7} — {too_low}")).to_have_count(1)
    for bid in ("pass", "8", "mulot", "charlemagne", "gros-mulot", "gros-charlemagne"):
        await expect(phone.get_by_test_id(f"bid-{bid}")).to_be_enabled()
    # Tapped, a refused bid says why on the refusal line, as a refused card does, and sends
    # nothing.
    await phone.get_by_test_id("bid-7").click(force=True)
    refusal = phone.get_by_test_id("refusal")
    await expect(refusal).to_have_text(too_low)
    await expect(refusal).to_have_attribute("data-kind", "refused")
    assert int(await table_attr(phone, "version")) == version
    await expect(phone.get_by_test_id("bids")).to_be_visible()
    # An open bid goes through: the refusal goes with its state.
    await phone.get_by_test_id("bid-8").click()
    state, phase, _ = await decision(phone, version)
    assert phase == "discard"
    await expect(refusal).to_be_hidden()
    await context.close()


async def test_your_partners_charlemagne_takes_a_card_passed_blind_and_you_sit_out(
    hooked_server: str, phone: Page
) -> None:
    await open_scripted(phone, hooked_server, CHARLEMAGNE_DEAL, dealer=3)
    state, phase, version = await decision(phone, -1)
    await phone.get_by_test_id("bid-pass").click()
    state, phase, version = await decision(phone, version)
    assert phase == "give"
    await expect(phone.get_by_test_id("turn-line")).to_have_text(
        "Your turn — pass your partner one card, face down"
    )
    steps = phone.get_by_test_id("steps")
    await expect(steps.get_by_role("heading")).to_have_text("Your partner bid Charlemagne")
    await expect(phone.get_by_test_id("no-table-talk")).to_contain_text(
        "The rules ask for no table talk about this card."
    )
    confirm = phone.get_by_test_id("confirm-give")
    await expect(confirm).to_be_disabled()
    await phone.locator('#hand [data-card="KH"]').click()
    await expect(confirm).to_be_enabled()
    await confirm.click()
    note = phone.get_by_test_id("hand-note")
    await expect(note).to_have_text("You sit out this hand: your partner plays Charlemagne alone.")
    await expect(phone.locator("#hand button.card")).to_have_count(0)
    await expect(
        phone.get_by_test_id("seat-you").locator('[data-chip="sitting_out"], [data-chip="out"]')
    ).to_have_text("Sits out")
    await expect(phone.get_by_test_id("contract-line")).to_have_text(
        "Contract Charlemagne by your partner: your partner must take every trick."
    )
    # Nothing is asked of you any more: the hand ends without a click of yours.
    state, phase, version = await decision(phone, version)
    assert state == "hand-over"
    end = phone.get_by_test_id("hand-end")
    await expect(end.get_by_test_id("end-why")).to_have_text(
        re.compile(r"^Your partner (took all eight tricks|lost a trick)\.$")
    )
    # the tricks in the same words at the hand's end as on the board: the bidder and the others
    board = await phone.get_by_test_id("tricks-line").inner_text()
    counted = re.fullmatch(r"Tricks: your partner (\d), the others (\d)", board)
    assert counted is not None, board
    await expect(end.get_by_test_id("end-tricks").locator("td")).to_have_text(
        f"your partner {counted[1]}, the others {counted[2]}"
    )


async def test_your_gros_mulot_hand_lies_face_up_after_trick_one(
    hooked_server: str, phone: Page
) -> None:
    await open_scripted(phone, hooked_server, GROS_MULOT_DEAL, dealer=3)
    _, phase, version = await decision(phone, -1)
    await phone.get_by_test_id("bid-gros-mulot").click()
    _, phase, version = await decision(phone, version)
    assert phase == "play"
    await expect(phone.get_by_test_id("trump-line")).to_have_text("No trumps but the jokers.")
    await expect(phone.get_by_test_id("seat-partner").locator('[data-chip="out"]')).to_have_text(
        "Sits out"
    )
    note = phone.get_by_test_id("hand-note")
    await expect(note).to_be_hidden()
    await phone.locator('#hand [data-card="9S"]').click()
    version = (await decision(phone, version))[2]
    await expect(note).to_have_text("Gros Mulot: your hand lies face up for everyone.")
    await expect(phone.get_by_test_id("last-trick")).to_contain_text("Last trick, taken by East")
    await play_hand(phone, version - 1)


async def test_a_match_played_to_a_lowered_target_ends_with_its_result(
    hooked_server: str, phone: Page
) -> None:
    await open_scripted(phone, hooked_server, NUMBER_DEAL, dealer=3, options={"target": 10})
    await expect(phone.get_by_test_id("match-line")).to_have_text(
        "Hand 1 · West deals · first to 10"
    )
    version = -1
    hands = 0
    while True:
        seen, version = await play_hand(phone, version, bid="6" if hands == 0 else "pass")
        hands += 1
        end = phone.get_by_test_id("hand-end")
        if seen.result == "match-over":
            break
        assert hands < 12
        await end.get_by_test_id("next-hand").click()
    # The news is the heading: the match result, then the hand that ended it.
    title = await end.get_by_test_id("end-title").inner_text()
    assert re.fullmatch(
        r"(You and your partner win the match \d+–\d+!|East and West win the match \d+–\d+\.)",
        title,
    ), title
    await expect(end.get_by_test_id("end-hand")).to_have_text(
        re.compile(r"^Contract (made|failed): \+\d+ for ")
    )
    await expect(end.get_by_test_id("next-hand")).to_be_hidden()
    await expect(phone.get_by_test_id("turn-line")).to_have_text("The match is over")
    await end.get_by_test_id("new-match").click()
    await expect(phone.get_by_test_id("score")).to_have_text("Us 0 – 0 Them")
    await expect(phone.get_by_test_id("match-line")).to_contain_text("Hand 1")
    await expect(phone.get_by_test_id("match-line")).to_contain_text("first to 10")
