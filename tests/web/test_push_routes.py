"""The "your turn" push routes over HTTP, in process (issue 26): a seat's subscription kept and
forgotten through its token, every refusal in the one error shape, the seat's socket greeting
that lets it be told again, the service worker served for the table pages' scope, and the
VAPID public key in the table page."""

from __future__ import annotations

import json

from fastapi import FastAPI
from httpx_ws import aconnect_ws

from tests.push_endpoint import Browser
from tests.web.sockets import client, new_table, receive
from tests.web.test_shared_table_socket import new_shared
from tests.web.test_table_api import refusal


def subscription(endpoint: str = "https://push.example/abc") -> dict[str, object]:
    keys = Browser()
    return {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": keys.p256dh, "auth": keys.auth},
    }


async def test_a_seat_subscribes_and_switches_it_off_with_its_token(app: FastAPI) -> None:
    async with client(app) as c:
        host = await new_shared(c, best_of=3)
        table_id = host["table_id"]
        friend = (await c.post(f"/api/tables/{table_id}/seats")).json()
        body = {"token": friend["token"], "subscription": subscription(), "lang": "fr"}
        answer = await c.post(f"/api/tables/{table_id}/push", json=body)
        assert answer.status_code == 204, answer.text
        (kept,) = await app.state.store.push_subscriptions(table_id)
        assert (kept.seat, kept.endpoint, kept.lang, kept.told) == (
            1,
            "https://push.example/abc",
            "fr",
            False,
        )
        off = await c.post(f"/api/tables/{table_id}/push/off", json={"token": friend["token"]})
        assert off.status_code == 204
        assert await app.state.store.push_subscriptions(table_id) == []


async def test_push_refusals(app: FastAPI) -> None:
    async with client(app) as c:
        host = await new_shared(c)
        table_id = host["table_id"]
        await c.post(f"/api/tables/{table_id}/seats")
        good = {"token": host["token"], "subscription": subscription()}
        path = f"/api/tables/{table_id}/push"
        assert refusal(await c.post(path, json={**good, "token": "x" * 32})) == (403, "bad_token")
        for endpoint in (
            "http://push.example/abc",
            "https://127.0.0.1/push",
            "https://[::1]/push",
            "https://localhost/push",
            "https://intranet/push",
        ):
            plain = {**good, "subscription": subscription(endpoint)}
            assert refusal(await c.post(path, json=plain)) == (409, "bad_push_endpoint")
        assert refusal(await c.post(path, json={**good, "extra": 1})) == (400, "bad_message")
        assert refusal(await c.post(path, content=b"{")) == (400, "bad_json")
        computer = await new_table(c)
        alone = {**good, "token": computer["token"]}
        assert refusal(await c.post(f"/api/tables/{computer['table_id']}/push", json=alone)) == (
            409,
            "not_shared",
        )
        assert refusal(await c.post("/api/tables/nosuchtable/push", json=good)) == (
            403,
            "bad_token",
        )


async def test_opening_the_table_lets_the_seat_be_told_again(app: FastAPI) -> None:
    async with client(app) as c:
        host = await new_shared(c)
        table_id = host["table_id"]
        await c.post(f"/api/tables/{table_id}/seats")
        body = {"token": host["token"], "subscription": subscription()}
        assert (await c.post(f"/api/tables/{table_id}/push", json=body)).status_code == 204
        store = app.state.store
        assert await store.mark_push_told(table_id, 0)
        assert (await store.push_subscriptions(table_id))[0].told
        async with aconnect_ws(f"/ws/tables/{table_id}", c) as ws:
            await ws.send_text(json.dumps({"type": "hello", "token": host["token"]}))
            await receive(ws, "state")
            await ws.send_text(json.dumps({"type": "ping"}))
            await receive(ws, "pong")  # the greeting is done: the seat has looked
        assert not (await store.push_subscriptions(table_id))[0].told


async def test_the_table_pages_service_worker_and_key(app: FastAPI) -> None:
    async with client(app) as c:
        worker = await c.get("/table-sw.js")
        assert worker.status_code == 200
        assert worker.headers["service-worker-allowed"] == "/"
        assert worker.headers["content-type"].startswith("text/javascript")
        assert 'addEventListener("push"' in worker.text
        assert 'addEventListener("fetch"' not in worker.text  # it serves no page
        host = await new_shared(c)
        page = await c.get(host["url"])
        assert f'data-push-key="{app.state.push_key}"' in page.text
        assert len(app.state.push_key) == 87
