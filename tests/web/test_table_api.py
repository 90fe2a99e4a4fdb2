"""POST /api/tables: the one error shape with a reason code, a body cap, only the options the
game declares, only games with a page, and a fresh random first dealer for every new match."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from veillee.games import names

ERROR_KEYS = {"type", "code", "message", "client_id"}


def refusal(r: httpx.Response) -> tuple[int, str]:
    """(status, code) of a refused request, after checking it has the one error shape with the
    reason in words."""
    body = r.json()
    assert set(body) == ERROR_KEYS and body["type"] == "error", body
    assert body["message"] and not body["message"].startswith("reason."), body
    return r.status_code, body["code"]


async def post(app: FastAPI, body: Any = None, content: bytes | None = None) -> httpx.Response:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        if content is not None:
            return await c.post(
                "/api/tables", content=content, headers={"content-type": "application/json"}
            )
        return await c.post("/api/tables", json=body)


@pytest.mark.parametrize(
    "options",
    [
        {"first_dealer": 1},
        {"rng": 3},
        {"best_of": "5"},
        {"best_of": 5.0},
        {"best_of": True},
        {"best_of": 7},
        {"best_of": 3, "first_dealer": 0},
        {"target": 32},
    ],
)
async def test_only_the_documented_chouine_options_are_accepted(
    app: FastAPI, options: dict[str, Any]
) -> None:
    r = await post(app, {"game": "chouine", "options": options})
    assert refusal(r) == (422, "bad_options")


@pytest.mark.parametrize("best_of", [3, 5])
async def test_best_of_3_or_5_makes_a_table(app: FastAPI, best_of: int) -> None:
    r = await post(app, {"game": "chouine", "options": {"best_of": best_of}})
    assert r.status_code == 201
    record = await app.state.tables.load(r.json()["table_id"])
    assert record.data["options"] == {"best_of": best_of}


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"[1, 2]",
        b'"chouine"',
        b"{}",
        b'{"game": 5}',
        b'{"game": "chouine", "options": [1]}',
        b'{"game": "chouine", "colour": "red"}',
        b"[" * 1100 + b"]" * 1100,
    ],
)
async def test_malformed_bodies_get_one_shape_with_a_reason(app: FastAPI, content: bytes) -> None:
    r = await post(app, content=content)
    assert refusal(r) in ((400, "bad_json"), (400, "bad_message"), (422, "bad_options"))


async def test_a_body_over_4096_bytes_is_refused_with_413(app: FastAPI) -> None:
    padding = "x" * 4100
    r = await post(app, content=f'{{"game": "chouine", "pad": "{padding}"}}'.encode())
    assert refusal(r) == (413, "message_too_large")


async def test_unknown_game_is_404_with_a_reason(app: FastAPI) -> None:
    r = await post(app, {"game": "belote"})
    assert refusal(r) == (404, "unknown_game")


async def test_no_table_for_a_game_without_a_page(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        for game in names():
            made = await c.post("/api/tables", json={"game": game})
            if made.status_code == 201:
                page = await c.get(made.json()["url"])
                assert page.status_code == 200, game
            else:
                assert refusal(made) == (404, "game_not_available"), game
                assert (await c.get(f"/{game}/table/abc")).status_code == 404


async def test_every_new_table_draws_its_first_dealer(app: FastAPI) -> None:
    dealers = set()
    for _ in range(40):
        r = await post(app, {"game": "chouine", "options": {"best_of": 3}})
        record = await app.state.tables.load(r.json()["table_id"])
        dealers.add(record.data["match"]["dealer"])
        if len(dealers) == 2:
            break
    assert dealers == {0, 1}
