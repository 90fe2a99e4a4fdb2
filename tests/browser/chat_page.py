"""Driving a table's chat as a person does, on a desktop (its column) or a phone (its drawer)."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Page


def chat_texts(page: Page) -> Any:
    """The lines of the page's chat, oldest first (a locator)."""
    return page.get_by_test_id("chat-lines").get_by_test_id("chat-text")


async def say_in_chat(page: Page, text: str) -> bool:
    """Say ``text``: open the chat's drawer where it is one (a phone), click the line, type
    ``text`` and press Enter. Whether it opened the drawer (close it with ``chat-close``)."""
    toggle = page.get_by_test_id("chat-toggle")
    drawer = await toggle.is_visible()
    if drawer:
        await toggle.click()
    await page.get_by_test_id("chat-input").click()
    await page.keyboard.type(text)
    await page.keyboard.press("Enter")
    return drawer
