"""A shared Charlemagne table fits the phones people have, in both languages: the maker's
waiting screen (a link per seat, Copy, the computer for an empty seat, the time left) and the
partner's table once the computer has the opponents' seats (presence beside the maker's name),
with nothing scrolling sideways, the top bar on one line and every tap target at least
44 × 44 px."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from tests.browser.chouine_page import SIZES, new_phone
from tests.browser.tap_targets import (
    bar_lines,
    clipped,
    links_cut_before_their_end,
    out_of_view,
    small_targets,
    words_broken,
)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_seat_links_and_the_shared_table_fit_the_screen(
    live_server: str, browser: Browser, size: tuple[int, int], lang: str
) -> None:
    host_ctx = await new_phone(browser, size, lang)
    partner_ctx = await new_phone(browser, size, lang)
    try:
        host = await host_ctx.new_page()
        await host.goto(live_server + "/charlemagne")
        await host.get_by_test_id("play-friends").click()
        await expect(host.get_by_test_id("waiting-time")).to_contain_text("15")
        # The first seat's link and its buttons are in view as the screen opens.
        first = ["#waiting-title", "[data-testid=seat-link-partner]", "[data-testid=copy-partner]"]
        assert await out_of_view(host, [*first, ".topbar"]) == []
        assert await host.evaluate("() => document.documentElement.scrollWidth") <= size[0]
        assert await bar_lines(host) == 1
        assert await small_targets(host) == []
        # Each seat's link shows its end ("?seat=N", where the links differ) however narrow.
        assert await links_cut_before_their_end(host) == []
        link = await host.get_by_test_id("seat-link-partner").input_value()
        partner = await partner_ctx.new_page()
        await partner.goto(link)
        await expect(host.get_by_test_id("seat-row-partner")).to_have_attribute(
            "data-status", "seated"
        )
        await host.get_by_test_id("fill-left").click()
        await expect(host.get_by_test_id("fill-right")).to_be_visible()
        assert await small_targets(host) == []
        await host.get_by_test_id("fill-right").click()
        await expect(partner.locator("#table")).to_have_attribute("data-phase", "auction")
        await expect(partner.locator("#hand button.card")).to_have_count(8)
        await expect(
            partner.get_by_test_id("seat-partner").get_by_test_id("presence")
        ).to_be_visible()
        assert await out_of_view(partner, ["#hand button.card", "#turn-line", ".topbar"]) == []
        assert await partner.evaluate("() => document.documentElement.scrollWidth") <= size[0]
        assert await bar_lines(partner) == 1
        # The score whole beside the chat button (the game's name gives way first), and the
        # bids' words whole.
        assert await clipped(partner, [".topbar-game", ".topbar-middle", "#turn-line"]) == []
        assert await words_broken(partner, ["#steps button", "#turn-line"]) == []
    finally:
        await host_ctx.close()
        await partner_ctx.close()
