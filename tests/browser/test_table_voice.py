"""Voice at shared tables in Chromium with its fake microphone (shared/TESTING.md, the WebRTC
flags): the maker switches voice on from the menu, seats join, each page's connections reach
``connected`` and receive sound (getStats' bytes, shown on each member's row); muting stops
the bytes; a seat that has not joined is sent no signalling, a visitor without a seat has no
voice; switching voice off closes every page's connections; a connection that cannot be made
(no ICE candidate gathered) is given up after the server's ``voice_connect_timeout_s``, tried
again twice, then said in words. On a phone, the top bar with voice on holds every item whole,
on one line, none over another nor off the screen."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, async_playwright, expect

from tests.browser.accessibility import axe_violations
from tests.browser.chouine_page import LOCALES
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, serving
from tests.browser.tap_targets import bar_lines, clipped, out_of_view, small_targets
from tests.conftest import make_settings

WEBRTC_ARGS = [
    "--use-fake-ui-for-media-stream",  # the microphone is allowed without asking
    "--use-fake-device-for-media-stream",  # a synthetic beep as the microphone
    "--allow-loopback-in-peer-connection",  # 127.0.0.1 candidates (a loopback-only machine)
    "--autoplay-policy=no-user-gesture-required",
]


@pytest_asyncio.fixture(scope="session")
async def voice_browser() -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + WEBRTC_ARGS)
        yield b
        await b.close()


async def shared_table(base: str, game: str, seats: int) -> tuple[str, list[str]]:
    """A shared table of ``game`` with ``seats`` seats taken: its id and their tokens."""
    async with httpx.AsyncClient(base_url=base) as c:
        made = (await c.post("/api/tables", json={"game": game, "shared": True})).json()
        tokens = [made["token"]]
        for _ in range(seats - 1):
            tokens.append((await c.post(f"/api/tables/{made['table_id']}/seats")).json()["token"])
    return made["table_id"], tokens


async def open_seat(
    browser: Browser,
    base: str,
    game: str,
    table_id: str,
    token: str | None,
    size: tuple[int, int] = (390, 844),
    network: str | None = None,
) -> tuple[BrowserContext, Page, list[dict[str, Any]]]:
    """A seat's page (its own browser context of ``size``, a touch phone, token in
    sessionStorage; ``None``: a visitor without a seat) and the list every frame its socket
    receives is added to. ``network``: a script run in the page first that makes its network
    what the test needs (:data:`RELAY_ONLY`)."""
    ctx = await browser.new_context(
        locale="en-GB",
        viewport={"width": size[0], "height": size[1]},
        has_touch=True,
        is_mobile=True,
    )
    if token is not None:
        await ctx.add_init_script(
            f"sessionStorage.setItem({json.dumps('veillee.seat.' + table_id)}, {json.dumps(token)})"
        )
    if network is not None:
        await ctx.add_init_script(network)
    page = await ctx.new_page()
    frames: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))),
    )
    await page.goto(f"{base}/{game}/table/{table_id}")
    return ctx, page, frames


async def switch_voice(page: Page, *, in_menu: bool) -> None:
    """The maker's switch: in the top-bar menu (Chouine) or in the voice panel."""
    if in_menu:
        await page.get_by_test_id("menu").locator("summary").click()
    elif await page.get_by_test_id("voice").get_attribute("open") is None:
        await page.get_by_test_id("voice-button").click()
    await page.get_by_test_id("voice-switch").click()


async def join_voice(page: Page) -> None:
    """Join voice once it is on. A seat's panel opens by itself when voice is switched on, in
    the same task that shows it; the maker's stays closed: so once the panel is shown, a closed
    one is the maker's and is opened by hand (clicking an opening panel would close it)."""
    voice = page.get_by_test_id("voice")
    await expect(voice).to_be_visible()
    if await voice.get_attribute("open") is None:
        await page.get_by_test_id("voice-button").click()
    await page.get_by_test_id("voice-join").click()
    await expect(page.get_by_test_id("voice")).to_have_attribute("data-joined", "true")


async def hears(page: Page, seat: int, more_than: int = 0) -> int:
    """Wait until the page's connection with ``seat`` is ``connected`` and has received more
    than ``more_than`` bytes of sound; the bytes received."""
    await page.wait_for_function(
        """([seat, more]) => {
            const row = document.querySelector(`.voice-member[data-seat="${seat}"]`);
            return row && row.dataset.connection === "connected"
                && Number(row.dataset.bytesIn) > more;
        }""",
        arg=[seat, more_than],
        timeout=30000,
    )
    return await bytes_in(page, seat)


def joined(frames: list[dict[str, Any]]) -> list[str]:
    """The join ids a page was given, in order."""
    return [f["join"] for f in frames if f["type"] == "voice_joined"]


async def until(check: Callable[[], bool], timeout_s: float = 15) -> None:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def bytes_in(page: Page, seat: int) -> int:
    row = page.locator(f'.voice-member[data-seat="{seat}"]')
    return int(await row.get_attribute("data-bytes-in") or 0)


async def test_two_seats_of_a_chouine_table_talk_mute_and_are_switched_off(
    voice_browser: Browser, live_server: str
) -> None:
    table_id, tokens = await shared_table(live_server, "chouine", 2)
    opened = [
        await open_seat(voice_browser, live_server, "chouine", table_id, tokens[0]),
        await open_seat(voice_browser, live_server, "chouine", table_id, tokens[1], (320, 568)),
    ]
    (_, host, host_frames), (_, friend, friend_frames) = opened
    try:
        for page in (host, friend):
            await expect(page.locator("#table")).not_to_have_attribute("data-version", "-1")
            # Voice is off by default: nobody sees it but the maker's switch.
            await expect(page.get_by_test_id("voice")).to_be_hidden()
        await switch_voice(host, in_menu=True)
        # Switched on: the friend's page shows Join voice at once; no microphone yet.
        await expect(friend.get_by_test_id("voice-join")).to_be_visible()
        await expect(friend.get_by_test_id("voice-join")).to_have_text("Join voice")
        await join_voice(friend)
        await join_voice(host)
        # Each page: the connection with the other seat is connected and sound arrives.
        got_host = await hears(host, 1)
        got_friend = await hears(friend, 0)
        assert await hears(host, 1, got_host) > got_host
        assert await hears(friend, 0, got_friend) > got_friend
        row = friend.locator('.voice-member[data-seat="0"]')
        await expect(row).to_have_attribute("data-state", "speaking", timeout=10000)
        await expect(row).to_contain_text("Your friend: speaking")
        await expect(friend.locator('.voice-member[data-seat="1"]')).to_contain_text("You:")
        # On the smallest phone the top bar stays one line, the voice button a 44 px target,
        # and its panel on the screen.
        await expect(friend.locator(".voice-panel")).to_be_visible()
        fit = await friend.evaluate(
            """() => {
                const box = (s) => document.querySelector(s).getBoundingClientRect();
                const button = box(".voice > summary"), panel = box(".voice-panel");
                return [document.documentElement.scrollWidth, box(".topbar").height,
                        button.width >= 44 && button.height >= 44,
                        panel.left >= 0 && panel.right <= innerWidth];
            }"""
        )
        assert fit == [320, 52, True, True]
        # The open panel passes axe-core: nothing of any impact on a voice element.
        found = await axe_violations(friend, ("minor", "moderate", "serious", "critical"))
        assert [v for v in found if any("voice" in node for node in v["nodes"])] == []

        # The friend mutes: the host's page shows it, and no more bytes arrive.
        await friend.get_by_test_id("voice-mute").click()
        await expect(friend.get_by_test_id("voice-mute")).to_have_attribute("aria-pressed", "true")
        muted_row = host.locator('.voice-member[data-seat="1"]')
        await expect(muted_row).to_have_attribute("data-state", "muted")
        await expect(muted_row).to_contain_text("Your friend: muted")
        await host.wait_for_timeout(1000)  # what was on its way arrives
        before = await bytes_in(host, 1)
        await host.wait_for_timeout(1500)
        assert await bytes_in(host, 1) == before
        # The host still receives nothing of it, but still hears back once unmuted.
        await friend.get_by_test_id("voice-mute").click()
        assert await hears(host, 1, before) > before

        # The host's socket drops and comes back: it joins voice again, and the two set up a
        # new connection (the host, the lower seat, offers again).
        await host.context.set_offline(True)
        await expect(host.get_by_test_id("banner")).to_be_visible()
        await host.context.set_offline(False)
        await until(lambda: len(joined(host_frames)) == 2)
        new_join = joined(host_frames)[1]
        assert new_join != joined(host_frames)[0]
        await until(lambda: any(f.get("from_join") == new_join for f in friend_frames))
        await hears(host, 1)
        await hears(friend, 0)
        await expect(friend.locator('.voice-member[data-seat="0"]')).to_have_attribute(
            "data-connection", "connected"
        )

        # The maker switches voice off: every page's connections close.
        await switch_voice(host, in_menu=True)
        for page in (host, friend):
            await expect(page.get_by_test_id("voice")).to_have_attribute("data-joined", "false")
            await expect(page.locator(".voice-member[data-connection]")).to_have_count(0)
            await expect(page.get_by_test_id("voice")).to_be_hidden()
        await expect(friend.get_by_test_id("voice-error")).to_have_text(
            "Whoever made the table switched voice off."
        )
        # Only voice frames and no card: the signalling relayed carries the set-up only.
        for frames in (host_frames, friend_frames):
            signals = [f for f in frames if f["type"] == "voice_signal"]
            assert signals and {f["kind"] for f in signals} <= {"offer", "answer", "candidates"}
            assert all(set(f) == {"type", "from_seat", "from_join", "kind", "sdp", "candidates"}
                       for f in signals)  # fmt: skip
    finally:
        for ctx, _, _ in opened:
            await ctx.close()


async def test_three_seats_of_a_charlemagne_table_each_hear_the_other_two(
    voice_browser: Browser, live_server: str
) -> None:
    table_id, tokens = await shared_table(live_server, "charlemagne", 4)
    opened = [
        await open_seat(voice_browser, live_server, "charlemagne", table_id, token)
        for token in tokens
    ]
    visitor = await open_seat(voice_browser, live_server, "charlemagne", table_id, None)
    pages = [page for _, page, _ in opened]
    try:
        for page in pages:
            await expect(page.locator("#table")).not_to_have_attribute("data-version", "-1")
        await switch_voice(pages[0], in_menu=True)
        for page in pages[:3]:
            await join_voice(page)
        for seat, page in enumerate(pages[:3]):
            for other in range(3):
                if other != seat:
                    await hears(page, other)
        # West has not joined: it is told who is in voice, and sent no signalling at all.
        west, west_frames = pages[3], opened[3][2]
        await expect(west.locator('.voice-member[data-state="in"]')).to_have_count(3)
        await expect(west.locator(".voice-member[data-connection]")).to_have_count(0)
        assert [f for f in west_frames if f["type"] == "voice_signal"] == []
        assert [f for f in west_frames if f["type"] == "voice"][-1]["enabled"] is True
        # A visitor without a seat finds the table full: no socket, no voice, no signalling.
        _, visitor_page, visitor_frames = visitor
        await expect(visitor_page.get_by_test_id("seat-taken")).to_contain_text(
            "This table is full"
        )
        await expect(visitor_page.get_by_test_id("voice")).to_have_count(0)
        assert visitor_frames == []
        # East leaves voice: the two others close their connection with it.
        await pages[1].get_by_test_id("voice-leave").click()
        for page in (pages[0], pages[2]):
            await expect(page.locator('.voice-member[data-seat="1"]')).to_have_attribute(
                "data-state", "out"
            )
            await expect(page.locator(".voice-member[data-connection]")).to_have_count(1)
        # South leaves the table (its page closes): North's voice with it ends too.
        await opened[2][0].close()
        await expect(pages[0].locator('.voice-member[data-seat="2"]')).to_have_attribute(
            "data-state", "out"
        )
        await expect(pages[0].locator(".voice-member[data-connection]")).to_have_count(0)
    finally:
        for ctx, _, _ in [*opened, visitor]:
            await ctx.close()


async def test_a_microphone_refused_or_missing_is_said_in_the_players_language(
    browser: Browser, live_server: str
) -> None:
    table_id, tokens = await shared_table(live_server, "chouine", 2)
    # This browser has no microphone at all (no fake device).
    host_ctx, host, _ = await open_seat(browser, live_server, "chouine", table_id, tokens[0])
    async with async_playwright() as p:
        # This one has a microphone but never allows it (no fake permission prompt).
        asking = await p.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--use-fake-device-for-media-stream"]
        )
        try:
            ctx = await asking.new_context(locale="fr-FR")
            await ctx.add_init_script(
                f"sessionStorage.setItem('veillee.seat.{table_id}', {json.dumps(tokens[1])})"
            )
            friend = await ctx.new_page()
            await friend.goto(f"{live_server}/chouine/table/{table_id}")
            await expect(friend.locator("#table")).not_to_have_attribute("data-version", "-1")
            await switch_voice(host, in_menu=True)
            await friend.get_by_test_id("voice-join").click()
            await expect(friend.get_by_test_id("voice-error")).to_have_text(
                "Le navigateur n'a pas autorisé le micro. Autorisez-le pour ce site dans les "
                "réglages du navigateur, puis appuyez de nouveau sur «\u00a0Rejoindre la "
                "voix\u00a0»."
            )
            await expect(friend.get_by_test_id("voice")).to_have_attribute("data-joined", "false")
            await expect(friend.get_by_test_id("voice-join")).to_be_enabled()
            await host.get_by_test_id("voice-button").click()
            await host.get_by_test_id("voice-join").click()
            await expect(host.get_by_test_id("voice-error")).to_have_text(
                "No microphone was found on this device."
            )
            # Neither page joined: the server never heard of a join.
            await expect(host.locator('.voice-member[data-state="out"]')).to_have_count(2)
        finally:
            await asking.close()
            await host_ctx.close()


RELAY_ONLY = """
(() => {
    // A network that lets no direct connection through, and a site that names no relay: every
    // connection of the page may use relayed (TURN) candidates only, and there is no TURN
    // server, so it gathers no ICE candidate at all. Chromium then leaves the connection "new"
    // for ever; it never says "failed" by itself.
    const Native = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends Native {
        constructor(config = {}) { super({ ...config, iceTransportPolicy: "relay" }); }
    };
})();
"""


@pytest.fixture(scope="module")
def impatient_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose pages give a voice connection 1 s to connect (``voice_joined``'s
    ``connect_timeout_s``; 15 s by default)."""
    settings = make_settings(tmp_path_factory.mktemp("impatient"))
    settings.voice_connect_timeout_s = 1.0
    with serving(settings) as url:
        yield url


async def test_voice_that_cannot_connect_says_no_connection_could_be_made(
    voice_browser: Browser, impatient_server: str
) -> None:
    base = impatient_server
    table_id, tokens = await shared_table(base, "chouine", 2)
    opened = [
        await open_seat(voice_browser, base, "chouine", table_id, token, network=RELAY_ONLY)
        for token in tokens
    ]
    (_, host, _), (_, friend, friend_frames) = opened
    try:
        for page in (host, friend):
            await expect(page.locator("#table")).not_to_have_attribute("data-version", "-1")
        await switch_voice(host, in_menu=True)
        await join_voice(friend)
        await join_voice(host)
        for page, other in ((host, 1), (friend, 0)):
            row = page.locator(f'.voice-member[data-seat="{other}"]')
            await expect(row).to_have_attribute("data-connection", "failed", timeout=15000)
            await expect(row).to_contain_text("Your friend: no connection")
            await expect(page.get_by_test_id("voice-error")).to_have_text(
                "No voice connection could be made with Your friend."
            )
        # The seat that offers tried twice more before it said so: three offers in all.
        offers = [f for f in friend_frames if f["type"] == "voice_signal" and f["kind"] == "offer"]
        assert len(offers) == 3
        # Still in voice, both: only the connection between them could not be made.
        for page in (host, friend):
            await expect(page.get_by_test_id("voice")).to_have_attribute("data-joined", "true")
    finally:
        for ctx, _, _ in opened:
            await ctx.close()


BAR_OVERLAPS = """() => {
    // Pairs of the top bar's shown items whose boxes overlap.
    const bar = document.querySelector(".topbar");
    const items = [...bar.children].filter((n) => n.checkVisibility());
    const boxes = items.map((n) => [n.className || n.tagName, n.getBoundingClientRect()]);
    const out = [];
    for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) {
            const [a, b] = [boxes[i][1], boxes[j][1]];
            const meet = a.left < b.right - 0.5 && b.left < a.right - 0.5;
            if (meet) out.push(`${boxes[i][0]} / ${boxes[j][0]}`);
        }
    }
    return out;
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(360, 640), (390, 844), (320, 568)], ids=["360", "390", "320"])
@pytest.mark.parametrize(("game", "seats"), [("chouine", 2), ("charlemagne", 4)])
async def test_with_voice_on_the_top_bar_holds_everything_whole_on_a_phone(
    voice_browser: Browser,
    live_server: str,
    game: str,
    seats: int,
    size: tuple[int, int],
    lang: str,
) -> None:
    # With voice on (and muted: the longest words), the bar held the game's name, the score,
    # the voice button with its words, the chat button and the menu: at 360 px the name was cut
    # to nothing, at 320 px the menu was off the screen.
    table_id, tokens = await shared_table(live_server, game, seats)
    ctx = await voice_browser.new_context(
        locale=LOCALES[lang],
        viewport={"width": size[0], "height": size[1]},
        has_touch=True,
        is_mobile=True,
    )
    await ctx.add_init_script(
        f"sessionStorage.setItem({json.dumps('veillee.seat.' + table_id)}, {json.dumps(tokens[0])})"
    )
    try:
        page = await ctx.new_page()
        await page.goto(f"{live_server}/{game}/table/{table_id}")
        await expect(page.locator("#table")).not_to_have_attribute("data-version", "-1")
        await switch_voice(page, in_menu=True)
        for step in ("on", "joined", "muted"):
            if step == "joined":
                await join_voice(page)
            if step == "muted":
                await page.get_by_test_id("voice-button").click()  # the panel opens again
                await page.get_by_test_id("voice-mute").click()
                await expect(page.get_by_test_id("voice-mute")).to_have_attribute(
                    "aria-pressed", "true"
                )
            if await page.get_by_test_id("voice").get_attribute("open") is not None:
                await page.get_by_test_id("voice-button").click()  # the panel closed
            await expect(page.get_by_test_id("voice-button")).to_be_visible()
            await expect(page.get_by_test_id("chat-toggle")).to_be_visible()
            assert await bar_lines(page) == 1, step
            assert await page.evaluate(BAR_OVERLAPS) == [], step
            assert await out_of_view(page, [".topbar > *:not([hidden])"]) == [], step
            whole = [".topbar-game", ".topbar-middle", "#score", ".voice > summary"]
            assert await clipped(page, whole) == [], step
            assert await small_targets(page) == [], step
            # the score is always there; the game's name, when it shows, whole
            await expect(page.get_by_test_id("score")).to_be_visible()
    finally:
        await ctx.close()
