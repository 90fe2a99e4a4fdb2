import html
import re

import httpx
from fastapi import FastAPI

from veillee.games import names
from veillee.web import i18n
from veillee.web.pages import playable


async def test_home_speaks_the_browser_language_and_sets_security_headers(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        fr = await c.get("/", headers={"accept-language": "fr-FR,fr;q=0.9"})
        en = await c.get("/", headers={"accept-language": "en-GB"})
        assert "vieux jeux de cartes" in fr.text and 'lang="fr"' in fr.text
        assert "Old regional card games" in en.text
        assert "frame-ancestors 'none'" in fr.headers["content-security-policy"]
        assert fr.headers["x-frame-options"] == "DENY"
        health = await c.get("/healthz")
        assert health.json() == {"status": "ok"}


async def test_language_toggle_remembers_the_choice(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        r = await c.get("/lang/fr?next=/", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/"
        c.cookies.set("lang", "fr")
        page = await c.get("/", headers={"accept-language": "en"})
        assert 'lang="fr"' in page.text
        bad = await c.get("/lang/de")
        assert bad.status_code == 404


async def test_unknown_page_is_a_page_for_people_and_json_for_scripts(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        page = await c.get("/nowhere", headers={"accept": "text/html", "accept-language": "fr"})
        assert page.status_code == 404 and "Page introuvable" in page.text
        assert "text/html" in page.headers["content-type"]
        api = await c.get("/api/nowhere", headers={"accept": "text/html"})
        assert api.status_code == 404 and api.json() == {"detail": "Not Found"}
        script = await c.get("/nowhere")
        assert script.status_code == 404 and script.json() == {"detail": "Not Found"}


async def test_favicon_is_served_and_openapi_is_not_public(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        icon = await c.get("/favicon.ico")
        assert icon.status_code == 200 and icon.text.startswith("<svg")
        assert (await c.get("/openapi.json")).status_code == 404


async def test_charlemagne_page_offers_the_computer_table(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        page = await c.get("/charlemagne", headers={"accept-language": "fr"})
        assert page.status_code == 200 and "Bientôt" not in page.text
        assert "Jouer contre l&#39;ordinateur — première équipe à 32" in page.text
        home = await c.get("/", headers={"accept-language": "en"})
        assert 'href="/charlemagne"' in home.text and "Coming soon" not in home.text


async def test_game_pages_and_the_home_list_come_from_the_registry(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        home = (await c.get("/", headers={"accept-language": "en"})).text
        for game in names():
            assert i18n.t("en", f"home.{game}.blurb") in home
            page = await c.get(f"/{game}", headers={"accept-language": "en"})
            assert page.status_code == 200
            assert (f'href="/{game}"' in home) == playable(game)
            assert ("Coming soon" in page.text) == (not playable(game)), game
        assert any(playable(game) for game in names())
        assert (await c.get("/nogame")).status_code == 404


async def test_chouine_match_lengths_are_said_alike_for_the_computer_and_a_friend(
    app: FastAPI,
) -> None:
    # A tester read the friend's "en 3 parties" as exactly three parties, beside the computer's
    # "au meilleur des 3": both say best of.
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        pages = {
            lang: html.unescape((await c.get("/chouine", headers={"accept-language": lang})).text)
            for lang in ("fr", "en")
        }
    fr, en = (pages[lang].replace("\u00a0", " ") for lang in ("fr", "en"))
    for n in (3, 5):
        assert f"Jouer contre l'ordinateur — au meilleur des {n}" in fr
        assert f"Créer une table pour deux — au meilleur des {n}" in fr
        assert f"Make a table for two — best of {n}" in en
    assert " parties<" not in fr
    # ... and in one order, the default length first (a tester saw 5, 3 beside 3, 5).
    computer = re.findall(r'data-testid="play-computer-(\d)"', en)
    friend = re.findall(r'data-testid="play-friend-(\d)"', en)
    assert computer == friend == ["5", "3"]
