"""The README's screenshots (docs/screens/*.png), made from the browser tests' own fixtures: a
Veillée server on a fresh SQLite store in a thread (``tests.browser.conftest.serving``) and
Debian's Chromium (``$VEILLEE_CHROMIUM``), each table opened as its browser tests open it.

    make screenshots        # or: .venv/bin/python scripts/screenshots.py [OUT_DIR]

For each of the Chouine table, the Charlemagne table and a SquareScores sheet: a phone held
upright (390 × 844, ``<name>-phone.png``) and a small desktop screen (1024 × 640, the desktop
layout, ``<name>-desktop.png``), in English. Deals are random: each run shows other cards. A picture
larger than :data:`MOST_BYTES` is reported (the README's pictures stay small).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from playwright.async_api import Browser, Page, async_playwright, expect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.chouine_page import my_turn, open_computer_table, play_a_card  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, serving  # noqa: E402
from tests.conftest import make_settings  # noqa: E402

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1024, "height": 640}
MOST_BYTES = 60_000


async def chouine(page: Page, base: str) -> None:
    """A Chouine table against the computer, a trick on the table, your turn."""
    await open_computer_table(page, base)
    version = await my_turn(page, -1)
    await play_a_card(page)
    await my_turn(page, version)


async def charlemagne(page: Page, base: str) -> None:
    """A Charlemagne table against the computer at its first bid (your partner and both
    opponents the computer)."""
    await page.goto(base + "/charlemagne")
    await page.get_by_test_id("play-computer").click()
    await page.wait_for_url("**/charlemagne/table/*")
    await expect(page.locator("#hand button.card")).to_have_count(8)
    await expect(page.locator("#table")).to_have_attribute("data-state", "my-turn", timeout=20_000)


async def squarescores(page: Page, base: str) -> None:
    """An Aluette sheet with a few hands entered."""
    await page.goto(base + "/scores")
    await page.get_by_role("button", name="Start the sheet").click()
    await expect(page.locator("body")).to_have_attribute("data-net", "online")
    for side, outcome in ((0, "won"), (1, "won"), (0, "won")):
        rows = await page.locator("#rows tr").count()
        await page.locator(f'#pad button[data-side="{side}"][data-outcome="{outcome}"]').click()
        await expect(page.locator("#rows tr")).not_to_have_count(rows)


SCENES: dict[str, Callable[[Page, str], Awaitable[None]]] = {
    "chouine": chouine,
    "charlemagne": charlemagne,
    "squarescores": squarescores,
}


async def shoot(browser: Browser, base: str, out: Path) -> list[tuple[Path, int]]:
    made = []
    for name, scene in SCENES.items():
        for kind, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            phone = kind == "phone"
            ctx = await browser.new_context(
                viewport=viewport, has_touch=phone, is_mobile=phone, locale="en-GB"
            )
            try:
                page = await ctx.new_page()
                await scene(page, base)
                await page.evaluate("() => document.activeElement?.blur()")
                path = out / f"{name}-{kind}.png"
                await page.screenshot(path=path)
                made.append((path, path.stat().st_size))
            finally:
                await ctx.close()
    return made


async def main(base: str, out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            made = await shoot(browser, base, out)
        finally:
            await browser.close()
    large = 0
    for path, size in made:
        over = size > MOST_BYTES
        large += over
        print(
            f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}  {size // 1000} kB"
            + ("  (over the README's bound)" if over else "")
        )
    return 1 if large else 0


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screens"
    settings = make_settings(Path(tempfile.mkdtemp(prefix="veillee-screens-")))
    with serving(settings) as url:
        sys.exit(asyncio.run(main(url, target.resolve())))
