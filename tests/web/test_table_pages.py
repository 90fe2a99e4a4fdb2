"""The Chouine pages and catalogs: French and English everywhere (every reason in words:
tests/web/test_catalogs.py)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from fastapi import FastAPI

from veillee.web import i18n

CATALOGS = Path(i18n.__file__).parent / "i18n"


def test_french_and_english_catalogs_hold_the_same_strings() -> None:
    en = json.loads((CATALOGS / "chouine.en.json").read_text(encoding="utf-8"))
    fr = json.loads((CATALOGS / "chouine.fr.json").read_text(encoding="utf-8"))
    assert set(en) == set(fr)
    assert all(value.strip() for value in [*en.values(), *fr.values()])


def test_card_names_follow_each_language() -> None:
    def name(lang: str, code: str) -> str:
        return i18n.t(
            lang,
            "card.name",
            rank=i18n.t(lang, f"card.rank.{code[0]}"),
            suit=i18n.t(lang, f"card.suit.{code[1]}"),
        )

    assert name("fr", "JH") == "Valet de cœur"
    assert name("en", "JH") == "Jack of hearts"
    assert name("fr", "TS") == "Dix de pique"


async def test_chouine_page_offers_the_computer_in_the_browser_language(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        en = await c.get("/chouine", headers={"accept-language": "en"})
        fr = await c.get("/chouine", headers={"accept-language": "fr"})
        assert en.status_code == 200 and "Play against the computer" in en.text
        assert "Jouer contre l&#39;ordinateur" in fr.text or "Jouer contre l'ordinateur" in fr.text
        assert "<script>" not in en.text  # no inline script (CSP)


async def test_table_page_carries_its_table_and_no_secret(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        made = (await c.post("/api/tables", json={"game": "chouine"})).json()
        page = await c.get(made["url"])
        assert page.status_code == 200
        assert f'data-table-id="{made["table_id"]}"' in page.text
        assert made["token"] not in page.text
        assert (await c.get("/nogame/table/x")).status_code == 404
        bad = await c.post("/api/tables", json={"game": "chouine", "options": {"best_of": 7}})
        assert bad.status_code == 422
        unknown = await c.post("/api/tables", json={"game": "tarot"})
        assert unknown.status_code == 404


async def test_tables_and_refusals_are_counted_in_metrics(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        await c.post("/api/tables", json={"game": "chouine"})
        metrics = (await c.get("/metrics/")).text
        assert 'veillee_tables_made_total{game="chouine"}' in metrics
        assert "veillee_sockets" in metrics and "veillee_refusals_total" in metrics


def test_no_other_catalog_overrides_a_table_string() -> None:
    # Catalogs of all areas are merged per language: a key defined twice must say the same.
    for lang in i18n.LANGS:
        ours = json.loads((CATALOGS / f"chouine.{lang}.json").read_text(encoding="utf-8"))
        for path in CATALOGS.glob(f"*.{lang}.json"):
            if path.name.startswith("chouine."):
                continue
            theirs = json.loads(path.read_text(encoding="utf-8"))
            clashes = {k for k in ours.keys() & theirs.keys() if ours[k] != theirs[k]}
            assert not clashes, (path.name, sorted(clashes))
