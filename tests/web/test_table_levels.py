"""The computer's level: chosen when a table is made (``POST /api/tables`` ``level``, one of
the game's ``GameInfo.levels``), refused with its reason in the page's language otherwise
(nothing made), sent in the table's state, kept when the server restarts, and carried by every
decision job of the table with the game's search budget (``Settings.search_budgets``)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from tests.conftest import make_settings
from tests.web.test_table_api import post, refusal
from tests.workers.test_jobs import Watched
from veillee.bus import InProcessBus
from veillee.games import find, names
from veillee.store import Store
from veillee.tables import COMPUTER, TableService
from veillee.tables.records import Table
from veillee.tables.views import seat_view
from veillee.web import create_app
from veillee.web.table_routes import TABLES_MADE


@pytest.mark.parametrize("name", names())
@pytest.mark.parametrize("shared", [False, True])
async def test_each_level_a_game_offers_makes_a_table_that_keeps_it(
    name: str, shared: bool, tmp_path: Path
) -> None:
    for level in find(name).info.levels:
        app = create_app(make_settings(tmp_path))
        async with app.router.lifespan_context(app):
            r = await post(app, {"game": name, "level": level, "shared": shared})
            assert r.status_code == 201, r.text
            table_id = r.json()["table_id"]
        again = create_app(make_settings(tmp_path))  # the server restarted
        async with again.router.lifespan_context(again):
            record = await again.state.tables.load(table_id)
            assert Table.read(record.data).doc.level == level
            assert seat_view(record, 0)["level"] == level


async def test_a_table_made_without_a_level_plays_at_the_usual_one(app: FastAPI) -> None:
    r = await post(app, {"game": "charlemagne"})
    record = await app.state.tables.load(r.json()["table_id"])
    assert seat_view(record, 0)["level"] == "usual" == find("charlemagne").info.levels[0]


@pytest.mark.parametrize("level", ["hardest", "", "USUAL", "x" * 16])
async def test_a_level_the_game_does_not_offer_is_refused_and_makes_nothing(
    app: FastAPI, level: str
) -> None:
    made = TABLES_MADE.labels("chouine")._value.get()
    r = await post(app, {"game": "chouine", "level": level})
    assert refusal(r) == (422, "bad_level")
    assert "level" in r.json()["message"]
    assert TABLES_MADE.labels("chouine")._value.get() == made


async def test_a_refused_level_is_said_in_french_to_a_french_page(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://t", cookies={"lang": "fr"}
    ) as c:
        r = await c.post("/api/tables", json={"game": "chouine", "level": "hardest"})
    assert refusal(r) == (422, "bad_level")
    assert r.json()["message"] == "L'ordinateur ne joue pas à ce niveau ici."


@pytest.mark.parametrize("level", [3, None, ["strong"], "x" * 17])
async def test_a_level_of_the_wrong_shape_is_a_bad_message(app: FastAPI, level: object) -> None:
    r = await post(app, {"game": "chouine", "level": level})
    if level is None:
        assert r.status_code == 201  # null: no level chosen, the usual one
    else:
        assert refusal(r) == (400, "bad_message")


@pytest.mark.parametrize("name", names())
async def test_every_job_of_a_table_carries_its_level_and_the_games_budget(
    name: str, tmp_path: Path
) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/t.db")
    try:
        for seed, level in enumerate(find(name).info.levels):
            deciders = Watched()
            settings = make_settings(tmp_path)
            settings.search_budgets = {name: 5}
            service = TableService(
                store, InProcessBus(), settings, autoplay=False, seed=seed, deciders=deciders
            )
            deciders.service = service
            seats = (COMPUTER,) * find(name).info.seats
            record, _ = await service.create_table(name, seats, level=level)
            for _ in range(12):
                stepped = await service.step(record.id)
                assert stepped is not None
            assert len(deciders.asked) >= 10
            assert {(job.level, job.budget) for job, _ in deciders.asked} == {(level, 5)}
    finally:
        await store.close()
