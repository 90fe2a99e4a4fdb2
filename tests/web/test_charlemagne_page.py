"""The Charlemagne pages' server side: catalogs in both languages for every reason and step, the
test hook off unless switched on (and never with ``veillee serve``), the table API open."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from tests.browser.charlemagne_player import NUMBER_DEAL
from tests.conftest import make_settings
from veillee import cli
from veillee.games.charlemagne import REASONS
from veillee.web import create_app, i18n

CATALOGS = Path(i18n.__file__).parent / "i18n"


def catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads(
        (CATALOGS / f"charlemagne.{lang}.json").read_text(encoding="utf-8")
    )
    return data


def test_french_and_english_say_the_same_things() -> None:
    en, fr = catalog("en"), catalog("fr")
    assert set(en) == set(fr)
    assert all(value.strip() for value in [*en.values(), *fr.values()])
    for key, text in en.items():  # the same placeholders on both sides
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", fr[key])), key


def test_every_reason_the_engine_gives_is_said_in_words_and_fits_two_lines() -> None:
    codes = set(REASONS)  # the match's own included (MatchReason)
    for lang in i18n.LANGS:
        words = catalog(lang)
        missing = sorted(c for c in codes if f"charlemagne.reason.{c}" not in words)
        assert not missing, (lang, missing)
        # The refusal line holds two lines on a 320 px phone: about 100 characters.
        for key, text in words.items():
            if key.startswith(("charlemagne.reason.", "charlemagne.refusal.")):
                assert len(text.replace("{turn}", "x" * 45).replace("{n}", "2")) <= 100, key


def test_french_strings_keep_no_break_spaces_before_double_punctuation() -> None:
    for key, text in catalog("fr").items():
        assert not re.search(r" [:;!?»]|« ", text), key
        assert not re.search(r"[^\s\u00a0\u202f][:;!?](\s|$)", text.replace("://", "")), key


def test_no_other_catalog_says_a_charlemagne_string_differently() -> None:
    for lang in i18n.LANGS:
        ours = catalog(lang)
        for path in CATALOGS.glob(f"*.{lang}.json"):
            if path.name.startswith("charlemagne."):
                continue
            theirs = json.loads(path.read_text(encoding="utf-8"))
            clashes = {k for k in ours.keys() & theirs.keys() if ours[k] != theirs[k]}
            assert not clashes, (path.name, sorted(clashes))


async def test_charlemagne_tables_are_made_and_their_page_served(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        made = await c.post("/api/tables", json={"game": "charlemagne"})
        assert made.status_code == 201
        page = await c.get(made.json()["url"], headers={"accept-language": "fr"})
        assert page.status_code == 200 and "<script>" not in page.text
        assert re.search(r'src="/static/[0-9a-f]+/table/charlemagne/main\.js"', page.text)
        lowered = await c.post(
            "/api/tables", json={"game": "charlemagne", "options": {"target": 8}}
        )
        assert (lowered.status_code, lowered.json()["code"]) == (422, "bad_options")


async def test_the_test_hook_is_off_unless_switched_on(app: FastAPI) -> None:
    body = {"game": "charlemagne", "deck": NUMBER_DEAL, "dealer": 3}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        assert (await c.post("/api/test/tables", json=body)).status_code == 404


async def test_the_test_hook_deals_the_scripted_deck_with_the_target_asked(
    tmp_path: Path,
) -> None:
    settings = make_settings(tmp_path)
    settings.test_hooks = True
    hooked = create_app(settings)
    async with hooked.router.lifespan_context(hooked):
        transport = httpx.ASGITransport(hooked)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            body = {"game": "charlemagne", "deck": NUMBER_DEAL, "dealer": 3}
            made = await c.post("/api/test/tables", json={**body, "options": {"target": 10}})
            assert made.status_code == 201
            table = made.json()
            record = await hooked.state.tables.load(table["table_id"])
            match = record.data["match"]
            assert match["target"] == 10 and match["dealer"] == 3
            north = {"JH", "JD", "AH", "KH", "QH", "AS", "AC", "9H"}  # as the deck deals it
            assert set(match["deal"]["hands"][0]) == north
            assert record.data["options"] == {"target": 10}
            for bad in (
                {**body, "deck": NUMBER_DEAL[:-1]},
                {**body, "dealer": None},
                {**body, "game": "tarot"},
                {**body, "extra": 1},
            ):
                refused = await c.post("/api/test/tables", json=bad)
                assert (refused.status_code, refused.json()["code"]) == (422, "bad_script")


def test_veillee_serve_refuses_to_start_with_the_test_hooks_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VEILLEE_TEST_HOOKS", "1")
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve"])
    assert stopped.value.code == 2
