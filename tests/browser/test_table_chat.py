"""The table chat in Chromium: two people at a Chouine table (one at a desktop, one on a phone)
talk; markup and script in a line show as text and never run, on arrival and after a reload;
the phone's drawer counts the lines not read, and nothing on the table moves when they come; a
page shows the newest lines the chat keeps, however many reach it."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Dialog, Page, WebSocketRoute, expect

import veillee.live.chat as chat_limits
from tests.browser.accessibility import axe_violations
from tests.browser.chat_page import chat_texts
from tests.browser.conftest import PHONE, make_settings, serving
from tests.browser.friend_table import people_table, sit
from tests.browser.test_chouine_table import dealt
from veillee.live.chat import KEPT
from veillee.web import i18n

MARKUP = "<img src=x onerror=alert(1)><script>alert(2)</script>"


PLACEHOLDER_FITS = """(field, text) => {
    const style = getComputedStyle(field);
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = style.font;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return [pen.measureText(text).width, room];
}"""
"""The width of ``text`` in a text field's font, and the width the field has for it (px)."""


async def say(page: Page, text: str) -> None:
    await page.get_by_test_id("chat-input").fill(text)
    await page.get_by_test_id("chat-input").press("Enter")


async def chat_axe_issues(page: Page) -> list[dict[str, Any]]:
    """axe-core's findings of any impact on the chat's own elements (its button, its panel)."""
    every = ("minor", "moderate", "serious", "critical")
    found = await axe_violations(page, every)
    return [v for v in found if any("chat" in node for node in v["nodes"])]


async def test_two_seats_talk_and_markup_stays_text(
    browser: Browser, hooked_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server (in this process) counts a seat's lines over a window long enough for a busy
    # machine: the five lines below are within it however slowly the test runs.
    monkeypatch.setattr(chat_limits, "WINDOW", timedelta(minutes=10))
    desk_ctx = await browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    phone_ctx = await browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB"
    )
    dialogs: list[str] = []
    try:
        desk, phone = await desk_ctx.new_page(), await phone_ctx.new_page()
        for page in (desk, phone):

            async def dismissed(dialog: Dialog) -> None:
                dialogs.append(dialog.message)
                await dialog.dismiss()

            page.on("dialog", dismissed)
        table = await people_table(desk, hooked_server)
        await sit(desk, hooked_server, table, 0)
        await sit(phone, hooked_server, table, 1)

        # The desktop shows the chat beside the table; the phone keeps it in a drawer.
        await expect(desk.get_by_test_id("chat")).to_be_visible()
        await expect(desk.get_by_test_id("chat-toggle")).to_be_hidden()
        await expect(phone.get_by_test_id("chat")).to_be_hidden()
        await expect(phone.get_by_test_id("chat-unread")).to_be_hidden()
        hand = phone.get_by_test_id("hand")
        hand_before = await hand.bounding_box()
        # The field's placeholder is whole beside the table, in either language.
        for lang in ("en", "fr"):
            width, room = await desk.get_by_test_id("chat-input").evaluate(
                PLACEHOLDER_FITS, i18n.t(lang, "chat.placeholder")
            )
            assert width <= room, (lang, width, room)

        await say(desk, "Bonsoir !")
        await say(desk, MARKUP)
        await expect(chat_texts(desk)).to_have_text(["Bonsoir !", MARKUP])
        badge = phone.get_by_test_id("chat-unread")
        await expect(badge).to_have_text("2")
        await expect(phone.get_by_test_id("chat-toggle")).to_have_attribute(
            "aria-label", "Chat — 2 unread messages"
        )
        assert await hand.bounding_box() == hand_before  # the badge moved nothing
        assert await phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]

        await phone.get_by_test_id("chat-toggle").click()
        await expect(phone.get_by_test_id("chat")).to_be_visible()
        await expect(chat_texts(phone)).to_have_text(["Bonsoir !", MARKUP])
        await expect(badge).to_be_hidden()
        lines = phone.get_by_test_id("chat-lines").locator("li")
        await expect(lines.first.locator(".chat-who")).to_have_text("Your friend")
        for page in (desk, phone):
            assert await page.locator("#chat img, #chat script").count() == 0
            assert await chat_axe_issues(page) == []
        await say(phone, "À toi de jouer")
        await expect(chat_texts(desk)).to_have_text(["Bonsoir !", MARKUP, "À toi de jouer"])
        who = desk.get_by_test_id("chat-lines").locator("li .chat-who")
        await expect(who).to_have_text(["You", "You", "Your friend"])
        await phone.get_by_test_id("chat-close").click()
        await expect(phone.get_by_test_id("chat")).to_be_hidden()
        assert await hand.bounding_box() == hand_before  # the drawer came and went over it

        # After a reload: the same lines, still text, and what was read stays read.
        await phone.reload()
        await expect(phone.get_by_test_id("hand").locator("button.card")).to_have_count(5)
        await phone.get_by_test_id("chat-toggle").click()
        await expect(chat_texts(phone)).to_have_text(["Bonsoir !", MARKUP, "À toi de jouer"])
        await phone.get_by_test_id("chat-close").click()
        await expect(badge).to_be_hidden()
        await desk.reload()
        await expect(chat_texts(desk)).to_have_text(["Bonsoir !", MARKUP, "À toi de jouer"])

        # Five lines within the window, then a clear notice; the refused line is given back.
        for n in (3, 4, 5):
            await say(desk, f"line {n}")
        await expect(chat_texts(desk)).to_have_count(6)
        await say(desk, "one too many")
        notice = desk.get_by_test_id("chat-notice")
        await expect(notice).to_have_text(i18n.t("en", "reason.chat_too_fast"))
        await expect(desk.get_by_test_id("chat-input")).to_have_value("one too many")
        await expect(badge).to_have_text("3")
        # The game's own refusal line never speaks for the chat.
        await expect(desk.get_by_test_id("refusal")).to_be_hidden()
        assert dialogs == []
    finally:
        await desk_ctx.close()
        await phone_ctx.close()


async def test_four_seats_of_charlemagne_each_see_a_line_as_text(
    browser: Browser, hooked_server: str
) -> None:
    sizes = [
        ({"width": 1280, "height": 800}, "en"),
        (PHONE, "fr"),
        ({"width": 1280, "height": 800}, "fr"),
        ({"width": 360, "height": 640}, "en"),
    ]
    contexts = []
    dialogs: list[str] = []
    try:
        pages = []
        for size, lang in sizes:
            phone = size["width"] < 1000
            ctx = await browser.new_context(
                viewport=size, has_touch=phone, is_mobile=phone, locale=f"{lang}-GB"
            )
            contexts.append(ctx)
            page = await ctx.new_page()

            async def dismissed(dialog: Dialog) -> None:
                dialogs.append(dialog.message)
                await dialog.dismiss()

            page.on("dialog", dismissed)
            pages.append(page)
        body = {"game": "charlemagne", "seats": ["human"] * 4}
        made = await pages[0].request.post(
            hooked_server + "/api/test/tables", data=json.dumps(body)
        )
        table = await made.json()
        for seat, page in enumerate(pages):
            lang = sizes[seat][1]
            await page.goto(f"{hooked_server}/lang/{lang}?next=/charlemagne")
            await page.evaluate(
                "([key, token]) => sessionStorage.setItem(key, token)",
                [f"veillee.seat.{table['table_id']}", table["tokens"][seat]["token"]],
            )
            await page.goto(hooked_server + table["url"])
            await expect(page.get_by_test_id("hand").locator("button.card")).to_have_count(8)
        await say(pages[0], MARKUP)
        await expect(pages[1].get_by_test_id("chat-unread")).to_have_text("1")
        await expect(pages[3].get_by_test_id("chat-unread")).to_have_text("1")
        for seat in (1, 3):
            await pages[seat].get_by_test_id("chat-toggle").click()
        names = {1: "Nord", 2: "Partenaire", 3: "North"}  # seat 0 seen from each seat
        for seat, page in enumerate(pages):
            await expect(chat_texts(page)).to_have_text([MARKUP])
            who = page.get_by_test_id("chat-lines").locator(".chat-who")
            await expect(who).to_have_text(names.get(seat, "You"))
            assert await page.locator("#chat img, #chat script").count() == 0
        assert dialogs == []
    finally:
        for ctx in contexts:
            await ctx.close()


async def test_a_page_open_all_evening_shows_the_newest_kept_lines(
    browser: Browser, hooked_server: str
) -> None:
    # The socket passes through the test, which hands the page a catch-up longer than the
    # server ever sends (as many lines as an evening could bring): the page keeps the newest.
    sockets: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    ctx = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB")
    try:
        page = await ctx.new_page()
        await page.route_web_socket("**/ws/tables/*", through)
        table = await people_table(page, hooked_server)
        await sit(page, hooked_server, table, 1)
        await expect(page.get_by_test_id("chat-toggle")).to_be_visible()
        said = KEPT + 20
        lines = [
            {"seq": n, "seat": 0, "text": f"line {n}", "at": "2026-11-30T20:00:00+00:00"}
            for n in range(1, said + 1)
        ]
        sockets[-1].send(json.dumps({"type": "chat", "lines": lines}))
        await expect(page.get_by_test_id("chat-toggle")).to_have_attribute(
            "aria-label", f"Chat — {KEPT} unread messages"
        )
        await page.get_by_test_id("chat-toggle").click()
        texts = chat_texts(page)
        await expect(texts).to_have_count(KEPT)
        await expect(texts.first).to_have_text(f"line {said - KEPT + 1}")
        await expect(texts.last).to_have_text(f"line {said}")
    finally:
        await ctx.close()


async def test_the_page_takes_the_chats_numbers_from_the_server(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The longest line and the lines kept are the server's (veillee/live/chat.py and the
    setting ``chat_kept``), carried by the table page: set otherwise there, the page follows,
    with no copy of its own."""
    monkeypatch.setattr(chat_limits, "MAX_CHARS", 20)
    settings = make_settings(tmp_path)
    settings.test_hooks = True
    settings.chat_kept = 7
    ctx = await browser.new_context(locale="en-GB")
    with serving(settings) as hooked_server:
        try:
            await show_seven_of_ten_lines(ctx, hooked_server)
        finally:
            await ctx.close()


async def show_seven_of_ten_lines(ctx: BrowserContext, hooked_server: str) -> None:
    """Two seats say ten lines at a server whose chats keep seven and whose lines have 20
    characters at most; the first page shows the newest seven."""
    page = await ctx.new_page()
    table = await people_table(page, hooked_server)
    await sit(page, hooked_server, table, 0)
    friend = await ctx.new_page()
    await sit(friend, hooked_server, table, 1)
    box = page.get_by_test_id("chat-input")
    assert await box.evaluate("input => input.maxLength") == 20
    await box.fill("x" * 30)  # typed past the limit: the field holds 20
    await expect(box).to_have_value("x" * 20)
    await box.fill("")
    for n in range(1, 11):  # five lines each (a seat may say 5 in 10 seconds)
        speaker = friend if n % 2 else page
        await say(speaker, f"line {n}")
        await expect(chat_texts(speaker).last).to_have_text(f"line {n}")
    texts = chat_texts(page)
    await expect(texts).to_have_count(7)
    await expect(texts.first).to_have_text("line 4")
    await expect(texts.last).to_have_text("line 10")


async def test_the_end_of_a_partie_leaves_a_line_being_typed_and_the_menu_in_reach(
    browser: Browser, hooked_server: str
) -> None:
    # Seat 0 (a phone) leads holding the chouine of clubs: its first card ends the partie
    # (rules §9). Meanwhile the friend, at a desktop, is typing a line in the chat.
    deck = dealt(["AC", "TC", "KC", "QC", "JC"], ["7S", "8S", "9S", "JS", "QS"], "9D")
    phone_ctx = await browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB"
    )
    desk_ctx = await browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    try:
        phone, desk = await phone_ctx.new_page(), await desk_ctx.new_page()
        table = await people_table(phone, hooked_server, deck, dealer=1)
        await sit(phone, hooked_server, table, 0)
        await sit(desk, hooked_server, table, 1)
        line = desk.get_by_test_id("chat-input")
        await line.click()
        await desk.keyboard.type("Well played")
        await phone.locator('#hand button.card[data-card="JC"]').click()
        await phone.get_by_test_id("declare-chooser").get_by_test_id("declare-option").first.click()
        # The count opens for both, waiting for both to be ready; the line keeps the keyboard,
        # so its Enter sends it and does not press "Next partie".
        await expect(desk.get_by_test_id("count")).to_be_visible()
        await expect(line).to_be_focused()
        await desk.keyboard.press("Enter")
        for page in (desk, phone):
            await expect(chat_texts(page)).to_have_text(["Well played"])
        await expect(desk.get_by_test_id("next-partie")).to_be_enabled()
        await expect(phone.get_by_test_id("ready-line")).to_have_text("")
        # On the phone the top bar's menu opens over the count: its items can be tapped.
        await expect(phone.get_by_test_id("count")).to_be_visible()
        await phone.get_by_test_id("menu").locator("summary").click()
        for item in ("rules", "leave"):
            await phone.get_by_test_id(item).click(trial=True, timeout=5000)
        await phone.get_by_test_id("menu").locator("summary").click()  # closed again
        # The phone (whose hand had the keyboard: it played the chouine) asks for the next
        # partie, then types in its chat drawer; the desk's ask deals it and the count closes:
        # the line keeps the keyboard, and its Enter sends it (it had gone to a card).
        await phone.get_by_test_id("next-partie").click()
        await phone.get_by_test_id("chat-toggle").click()
        phone_line = phone.get_by_test_id("chat-input")
        await phone_line.click()
        await phone.keyboard.type("One more")
        await desk.get_by_test_id("next-partie").click()
        await expect(phone.get_by_test_id("count")).to_be_hidden()
        await expect(phone_line).to_be_focused()
        await phone.keyboard.press("Enter")
        for page in (desk, phone):
            await expect(chat_texts(page)).to_have_text(["Well played", "One more"])
        await expect(phone.get_by_test_id("hand").locator("button.card")).to_have_count(5)
    finally:
        await phone_ctx.close()
        await desk_ctx.close()
