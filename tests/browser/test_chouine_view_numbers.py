"""The Chouine page holds no rule: the declarations it offers for a card, their order, their
suit and their points are the view's, whatever they are. The server's state frames are passed
on to the page with made-up choices, and the page must show exactly those."""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import Page, expect

from tests.browser.chouine_page import my_turn, open_computer_table, wait_for_decision


async def test_declarations_offered_are_the_views_in_its_order_with_its_suit_and_points(
    live_server: str, page: Page
) -> None:
    async def relay(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            state = json.loads(message)
            deal = state.get("view", {}).get("deal", {}) if state["type"] == "state" else {}
            choices = deal.get("card_choices") or {}
            for card, ways in choices.items():
                if len(ways) == 1:  # a card with no declaration: offer two made-up ones
                    ways[:0] = [
                        {
                            "action": f"{card} quinte",
                            "declaration": {"kind": "quinte", "suit": None, "points": 77},
                        },
                        {
                            "action": f"{card} mariage",
                            "declaration": {"kind": "mariage", "suit": "C", "points": 33},
                        },
                    ]
                    break
            ws.send(json.dumps(state))

        server.on_message(to_page)

    await page.route_web_socket("**/ws/tables/*", relay)
    await open_computer_table(page, live_server)
    version = await my_turn(page, -1)
    chooser = page.get_by_test_id("declare-chooser")
    for card in await page.locator('#hand button.card[data-legal="true"]').all():
        await card.click()
        options = chooser.locator("button[data-action]")
        if await options.count() == 3 and "quinte" in (
            await options.first.get_attribute("data-action") or ""
        ):
            break
        await chooser.get_by_role("button", name="Cancel").click()
    else:
        raise AssertionError("no card was offered the made-up declarations")
    assert await options.all_inner_texts() == [
        "Quinte — 77",
        "Mariage of clubs — 33",
        "Play it without declaring",
    ]
    await expect(options.first).to_have_class("primary")
    await chooser.get_by_test_id("play-plain").click()
    await wait_for_decision(page, version)
