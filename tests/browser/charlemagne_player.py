"""Playing the Charlemagne table in Chromium like a person, and the scripted deals the browser
tests sit down to (through the test hook ``POST /api/test/tables``, veillee/web/scripted_tables.py).

Seats: you are North (0), East (1) on your left, your partner South (2) across, West (3) on your
right. Each deal below was checked against the computer players (they decide from the seat's
observation only, deterministically): the comment says what they do with it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page, expect

from tests.games.charlemagne.decks import deck_for

NUMBER_DEAL = deck_for(
    3,
    {
        0: ["JH", "JD", "AH", "KH", "QH", "AS", "AC", "9H"],
        1: ["BJ", "7S", "8S", "7D", "8D", "7C", "8C", "9D"],
        2: ["LJ", "9S", "TS", "TD", "9C", "TC", "JC", "QD"],
        3: ["KS", "QS", "KD", "AD", "KC", "QC", "JS", "8H"],
    },
    ["7H", "TH"],
)
"""West deals, you speak first; bid 6 and East, South and West pass: you take the kitty (7H TH)."""

PASS_DEAL = deck_for(
    3,
    {
        0: ["7S", "8S", "9S", "7H", "8H", "9H", "7D", "8D"],
        1: ["BJ", "JS", "JC", "AS", "KS", "QS", "AC", "AD"],
        2: ["LJ", "TS", "9D", "TD", "7C", "8C", "9C", "TC"],
        3: ["KH", "QH", "AH", "KD", "QD", "JD", "KC", "QC"],
    },
    ["JH", "TH"],
)
"""West deals; you pass, East bids 7 and the others pass: East takes the kitty and discards."""

STUCK_DEAL = deck_for(
    0,
    {
        0: ["JH", "JD", "AH", "KH", "QH", "AS", "AC", "9H"],
        1: ["BJ", "7S", "8S", "7D", "8D", "7C", "8C", "9D"],
        2: ["LJ", "9S", "TS", "TD", "9C", "TC", "JC", "QD"],
        3: ["KS", "QS", "KD", "AD", "KC", "QC", "JS", "8H"],
    },
    ["7H", "TH"],
)
"""You deal: East, South and West pass, so you may not pass (the dealer is stuck, rules §4)."""

OUTBID_DEAL = deck_for(
    0,
    {
        0: ["7S", "8S", "9S", "7H", "8H", "9H", "7D", "8D"],
        1: ["BJ", "JS", "JC", "AS", "KS", "QS", "AC", "AD"],
        2: ["LJ", "TS", "9D", "TD", "7C", "8C", "9C", "TC"],
        3: ["KH", "QH", "AH", "KD", "QD", "JD", "KC", "QC"],
    },
    ["JH", "TH"],
)
"""You deal: East bids 7, South and West pass, so 5, 6 and 7 are too low for you (rules §4)."""

CHARLEMAGNE_DEAL = deck_for(
    3,
    {
        0: ["7S", "8S", "9S", "7H", "8H", "9H", "KH", "8D"],
        1: ["TS", "9D", "TD", "7C", "QC", "9C", "TC", "QS"],
        2: ["BJ", "LJ", "JH", "JD", "AH", "7D", "8C", "AS"],
        3: ["KS", "KD", "QD", "QH", "KC", "AD", "JC", "AC"],
    },
    ["JS", "TH"],
)
"""West deals; you and East pass, your partner South bids Charlemagne: you pass it a card blind
and sit out."""

GROS_MULOT_DEAL = deck_for(
    3,
    {
        0: ["7S", "8S", "9S", "7H", "8H", "9H", "7D", "8D"],
        1: ["AS", "KS", "QS", "AH", "KH", "QH", "AD", "KD"],
        2: ["LJ", "TS", "9D", "TD", "7C", "8C", "9C", "TC"],
        3: ["BJ", "JS", "JH", "TH", "QD", "JD", "AC", "KC"],
    },
    ["QC", "JC"],
)
"""West deals; you bid Gros Mulot and everyone passes; lead 9S and East takes trick 1, so your
hand is spread face up (rules §8)."""

DECIDING = "my-turn,hand-over,match-over"


async def open_scripted(
    page: Page,
    base: str,
    deck: list[str] | None = None,
    dealer: int | None = None,
    options: dict[str, int] | None = None,
    lang: str = "en",
    shared: bool = False,
) -> dict[str, Any]:
    """Sit at a table made by the test hook, in ``lang``: a computer table, or with ``shared``
    a table of people (its seat token kept as a page keeps it: for the tab, or for good);
    the hook's answer."""
    body: dict[str, Any] = {"game": "charlemagne", "deck": deck, "dealer": dealer}
    body.update({"shared": True} if shared else {"options": options or {}})
    made = await page.request.post(base + "/api/test/tables", data=json.dumps(body))
    assert made.status == 201, await made.text()
    table = await made.json()
    await page.goto(f"{base}/lang/{lang}?next=/charlemagne")
    storage = "localStorage" if shared else "sessionStorage"
    await page.evaluate(
        f"([key, token]) => {storage}.setItem(key, token)",
        [f"veillee.seat.{table['table_id']}", table["token"]],
    )
    await page.goto(base + table["url"])
    return dict(table)


async def number_deal_to_the_play(page: Page, version: int) -> int:
    """At :data:`NUMBER_DEAL` dealt by West (``open_scripted(..., NUMBER_DEAL, dealer=3)``),
    asked to bid at ``version``: bid 6, discard the 9 and 7 of hearts, name hearts trumps; the
    version at which the play begins."""
    await page.get_by_test_id("bid-6").click()
    version = (await decision(page, version))[2]
    await page.locator('#hand [data-card="9H"]').click()
    await page.locator('#hand [data-card="7H"]').click()
    await page.get_by_test_id("confirm-discard").click()
    version = (await decision(page, version))[2]
    await page.get_by_test_id("trump-H").click()
    return (await decision(page, version))[2]


async def table_attr(page: Page, name: str) -> str:
    return await page.locator("#table").get_attribute(f"data-{name}") or ""


async def decision(page: Page, after: int) -> tuple[str, str, int]:
    """Wait until the page asks something of us (or shows a hand's end) at a version newer than
    ``after``: (data-state, data-phase, version)."""
    await page.wait_for_function(
        """([states, v]) => {
            const t = document.getElementById('table');
            return states.split(',').includes(t.dataset.state) && Number(t.dataset.version) > v;
        }""",
        arg=[DECIDING, after],
    )
    return (
        await table_attr(page, "state"),
        await table_attr(page, "phase"),
        int(await table_attr(page, "version")),
    )


async def legal_cards(page: Page) -> list[str]:
    cards: list[str] = await page.locator('#hand button.card[data-legal="true"]').evaluate_all(
        "cards => cards.map(c => c.dataset.card)"
    )
    return cards


async def discard(page: Page, cards: list[str]) -> None:
    """Tap ``cards`` in the hand, then confirm the discard."""
    for card in cards:
        await page.locator(f'#hand button.card[data-card="{card}"]').click()
    await page.get_by_test_id("confirm-discard").click()


@dataclass
class Seen:
    """What a hand played through the page showed."""

    phases: list[str] = field(default_factory=list)
    plays: int = 0
    result: str = ""


async def answer(page: Page, phase: str, bid: str = "pass") -> None:
    """Answer what the page asks of us in ``phase`` by clicking like a person: ``bid`` (or 5 when
    the dealer is stuck) in the auction, the kitty in a Gros Charlemagne choice, the first card
    for a blind pass, the first cards for a discard, the first trump, the first legal card."""
    if phase == "auction":
        button = page.get_by_test_id(f"bid-{bid}")
        if not await button.is_enabled():
            button = page.get_by_test_id("bid-5")
        await button.click()
    elif phase == "choose":
        await page.get_by_test_id("choose-kitty").click()
    elif phase == "give":
        await page.locator("#hand button.card").first.click()
        await page.get_by_test_id("confirm-give").click()
    elif phase == "discard":
        cards = await page.locator("#hand button.card").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"
        )
        await discard(page, cards[: len(cards) - 8])
    elif phase == "trump":
        await page.locator("#steps button[data-suit]").first.click()
    else:
        legal = await legal_cards(page)
        assert legal, "our turn to play, and no card offered"
        await page.locator(f'#hand button.card[data-card="{legal[0]}"]').click()


async def play_hand(page: Page, version: int, bid: str = "pass") -> tuple[Seen, int]:
    """Play the hand in progress to its end by clicking like a person (:func:`answer`). Returns
    what was seen and the version of the hand-end."""
    seen = Seen()
    for _ in range(200):
        state, phase, version = await decision(page, version)
        if state in ("hand-over", "match-over"):
            await expect(page.get_by_test_id("hand-end")).to_be_visible()
            seen.result = state
            return seen, version
        seen.phases.append(phase)
        await answer(page, phase, bid)
        if phase == "play":
            seen.plays += 1
    raise AssertionError("the hand did not end")
