"""A shared Chouine table fits the phones people have, in both languages: the waiting screen
(the link, Copy, the time left) and the friend's table at seat 1 (the presence beside the
friend's name, the friend's turn line), with nothing scrolling sideways, the top bar on one
line and every tap target at least 44 × 44 px."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from tests.browser.chouine_page import SIZES, new_phone
from tests.browser.tap_targets import bar_lines, clipped, out_of_view, small_targets
from tests.browser.test_chouine_fit import FITS
from veillee.web import i18n


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_the_waiting_screen_and_the_friends_table_fit_the_screen(
    live_server: str, browser: Browser, size: tuple[int, int], lang: str
) -> None:
    host_ctx = await new_phone(browser, size, lang)
    friend_ctx = await new_phone(browser, size, lang)
    try:
        host = await host_ctx.new_page()
        await host.goto(live_server + "/chouine")
        await host.get_by_test_id("play-friend-3").click()
        await expect(host.get_by_test_id("waiting-time")).to_contain_text("15")
        assert await out_of_view(host, ["#copy-link", "#share-link", ".topbar"]) == []
        assert await host.evaluate("() => document.documentElement.scrollWidth") <= size[0]
        assert await bar_lines(host) == 1
        assert await small_targets(host) == []
        friend = await friend_ctx.new_page()
        await friend.goto(host.url)
        await expect(friend.get_by_test_id("hand").locator("button.card")).to_have_count(5)
        await host.close()  # the friend sees the host away: the longer word
        away = i18n.t(lang, "friend.presence.away")
        await expect(friend.get_by_test_id("opponent-presence")).to_have_text(f"○{away}")
        assert await out_of_view(friend, ["#hand button.card", "#turn-line", ".topbar"]) == []
        assert await friend.evaluate("() => document.documentElement.scrollWidth") <= size[0]
        assert await bar_lines(friend) == 1
        whole = ["#score", ".topbar-middle", ".topbar-game", "#turn-line", ".seat-head"]
        assert await clipped(friend, whole) == []
        assert await small_targets(friend) == []
        turns = [i18n.t(lang, "friend.turn.friend")]
        refusals = [i18n.t(lang, f"reason.{code}") for code in ("table_not_full", "silent")]
        assert await friend.evaluate(FITS, [turns, refusals]) == []
    finally:
        await host_ctx.close()
        await friend_ctx.close()
