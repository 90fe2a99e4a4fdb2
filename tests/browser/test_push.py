"""'Tell me when it's my turn' in Chromium (issue 26): two friends at a table of Chouine; the
maker is offered the notifications once the friend has sat down (not before), says yes (the
permission granted to the test's context), and the page subscribes and hands the subscription
to the server; with the maker's page closed, the friend's move brings a push to the test's
push service (tests/push_endpoint.py), which holds the game and the table's link and no card;
delivered to the maker's service worker (through the DevTools protocol, as
../shared/TESTING.md says: headless Chromium reaches no push service, so ``subscribe()`` is
stubbed with the test's keys), it shows the notification, and a click on it opens the table.
The menu then switches it off."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page, Worker, expect

from tests.browser.chouine_page import open_menu, play_a_card
from tests.browser.friend_table import make_shared_table, open_link, table_state
from tests.push_endpoint import Browser as Keys
from tests.push_endpoint import PushEndpoint, push_endpoint
from veillee.web import i18n

STUB = """
(() => {
  const endpoint = %(endpoint)s;
  const keys = %(keys)s;
  const bytes = (text) => Uint8Array.from(
    atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length %% 4)) %% 4)),
    (c) => c.charCodeAt(0)).buffer;
  let made = null;
  PushManager.prototype.getSubscription = async function () { return made; };
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.__pushAsked = {
      userVisibleOnly: options.userVisibleOnly, key: btoa(String.fromCharCode(...key)),
    };
    made = {
      endpoint, expirationTime: null, options,
      getKey: (name) => bytes(keys[name]),
      toJSON: () => ({ endpoint, expirationTime: null, keys }),
      unsubscribe: async () => { made = null; return true; },
    };
    return made;
  };
})();
"""


@pytest.fixture
def endpoint() -> Iterator[PushEndpoint]:
    with push_endpoint() as running:
        yield running


async def wait_for_pushes(endpoint: PushEndpoint, count: int, limit_s: float = 20) -> None:
    deadline = time.monotonic() + limit_s
    while len(endpoint.received) < count:
        assert time.monotonic() < deadline, f"{len(endpoint.received)} pushes, not {count}"
        await asyncio.sleep(0.05)


async def maker_context(
    browser: Browser, base: str, endpoint: PushEndpoint, keys: Keys
) -> BrowserContext:
    ctx = await browser.new_context(locale="en-GB")
    await ctx.grant_permissions(["notifications"], origin=base)
    await ctx.add_init_script(
        STUB
        % {
            "endpoint": json.dumps(endpoint.url + "maker"),
            "keys": json.dumps({"p256dh": keys.p256dh, "auth": keys.auth}),
        }
    )
    return ctx


async def the_worker(ctx: BrowserContext) -> Worker:
    deadline = time.monotonic() + 10
    while True:
        workers = [w for w in ctx.service_workers if w.url.endswith("/table-sw.js")]
        if workers:
            return workers[0]
        assert time.monotonic() < deadline, "no table service worker"
        await asyncio.sleep(0.05)


async def deliver(page: Page, ctx: BrowserContext, base: str, scope: str, data: str) -> None:
    """Hand ``data`` to the registration of ``scope`` as a push (DevTools protocol)."""
    cdp = await ctx.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    await cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while not any(r["scopeURL"] == base + scope for r in registrations):
        assert time.monotonic() < deadline, registrations
        await asyncio.sleep(0.05)
    found = next(r for r in registrations if r["scopeURL"] == base + scope)
    await cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base, "registrationId": found["registrationId"], "data": data},
    )


async def shown_notifications(page: Page, count: int, limit_s: float = 10) -> list[Any]:
    """The notifications the table pages' worker shows ([title, body, url] each), once there
    are ``count`` (the page asks its registration; Playwright's polling would not await it)."""
    deadline = time.monotonic() + limit_s
    while True:
        found: list[Any] = await page.evaluate(
            """async (scope) => {
              const reg = await navigator.serviceWorker.getRegistration(scope);
              const found = reg ? await reg.getNotifications() : [];
              return found.map((n) => [n.title, n.body, n.data.url]);
            }""",
            "/chouine/table/",
        )
        if len(found) == count:
            return found
        assert time.monotonic() < deadline, found
        await asyncio.sleep(0.05)


async def test_push_opt_in_subscription_notification_and_click(
    browser: Browser, hooked_server: str, endpoint: PushEndpoint
) -> None:
    base, keys = hooked_server, Keys()
    ctx = await maker_context(browser, base, endpoint, keys)
    maker = await ctx.new_page()
    link = await make_shared_table(maker, base, 3)
    table_path = link.removeprefix(base)
    # Never offered at page load, nor while the friend's seat is open.
    await expect(maker.get_by_test_id("push-offer")).to_be_hidden()
    friend_ctx, friend = await open_link(browser, link)
    try:
        offer = maker.get_by_test_id("push-offer")
        await expect(offer).to_be_visible()
        await expect(offer).to_contain_text("Tell me when it's my turn?")
        await maker.get_by_test_id("push-yes").click()
        await expect(maker.get_by_test_id("push-status")).to_have_text(i18n.t("en", "push.on"))
        await expect(offer).to_be_hidden()
        asked = await maker.evaluate("() => window.__pushAsked")
        server_key = await maker.locator("#table").get_attribute("data-push-key")
        assert asked["userVisibleOnly"] is True
        assert asked["key"].rstrip("=") == (server_key or "").replace("-", "+").replace("_", "/")
        await the_worker(ctx)

        # The maker's page is closed; the friend moves: the table waits for the maker.
        for _ in range(3):
            if (await table_state(maker))[0] != "my-turn":
                break
            await play_a_card(maker)
            await expect(friend.locator("#table")).to_have_attribute("data-state", "my-turn")
        await maker.close()
        await expect(friend.get_by_test_id("opponent-presence")).not_to_have_text("●Here")
        assert endpoint.received == []
        await expect(friend.locator("#table")).to_have_attribute("data-state", "my-turn")
        for _ in range(8):  # until the friend's card leaves the table to the maker
            version = (await table_state(friend))[1]
            await play_a_card(friend)
            await expect(friend.locator("#table")).not_to_have_attribute(
                "data-version", str(version)
            )
            await expect(friend.locator("#table")).not_to_have_attribute("data-state", "sending")
            if (await table_state(friend))[0] != "my-turn":
                break
        await expect(friend.locator("#table")).to_have_attribute("data-state", "waiting")
        await wait_for_pushes(endpoint, 1)
        (push,) = endpoint.received
        assert push.path == "/push/maker"
        said = keys.decrypt(push)
        assert said["url"] == table_path
        assert said["title"] == i18n.t("en", "push.turn.title", game="Chouine")
        assert said["body"] == i18n.t("en", "push.turn.body", who="Your friend")

        # The push, delivered to the maker's service worker, shows; a click opens the table.
        home = await ctx.new_page()
        await home.goto(base + "/chouine")
        await deliver(home, ctx, base, "/chouine/table/", json.dumps(said))
        assert await shown_notifications(home, 1) == [[said["title"], said["body"], table_path]]
        # A click: headless Chromium clicks no notification, and opens or focuses no window
        # for a click it did not see (InvalidAccessError), so the test dispatches the click
        # event and stands in for openWindow and focus, recording what the worker asks.
        worker = await the_worker(ctx)
        click = """async () => {
          const asked = [];
          self.clients.openWindow = async (url) => { asked.push(["open", url]); return null; };
          WindowClient.prototype.focus = async function () {
            asked.push(["focus", this.url]);
            return this;
          };
          const [shown] = await self.registration.getNotifications();
          try {
            self.dispatchEvent(new NotificationEvent("notificationclick", { notification: shown }));
          } catch (e) {}
          for (let i = 0; i < 100 && !asked.length; i += 1) {
            await new Promise((r) => setTimeout(r, 20));
          }
          return asked;
        }"""
        assert await worker.evaluate(click) == [["open", base + table_path]]
        table_page = await ctx.new_page()
        await table_page.goto(base + table_path)
        await expect(table_page.get_by_test_id("hand").locator("button.card")).not_to_have_count(0)
        # The click closed the first: a second push shows again. (A push service delivers
        # again what a worker did not take: a CI run under load once lost this second
        # delivery, the worker showing nothing for 10 s; so does the test, once.)
        for attempt in range(2):
            await deliver(home, ctx, base, "/chouine/table/", json.dumps(said))
            try:
                await shown_notifications(home, 1)
                break
            except AssertionError:
                if attempt:
                    raise
        # With the table open in a tab, the click goes to that tab.
        assert await worker.evaluate(click) == [["focus", base + table_path]]

        # The menu switches it off.
        await open_menu(table_page)
        menu_item = table_page.get_by_test_id("push-menu")
        await expect(menu_item).to_have_text(i18n.t("en", "push.menu.off"))
        await menu_item.click()
        await expect(table_page.get_by_test_id("push-status")).to_have_text(
            i18n.t("en", "push.off")
        )
    finally:
        await friend_ctx.close()
        await ctx.close()
