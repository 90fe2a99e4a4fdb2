"""Site pages shared by every area: home, language switch, catalogs for the browser.

The home page lists the games of the registry (:func:`veillee.games.names`), each with its page
or, while it has no table page yet, "coming soon"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context

from veillee import sheets
from veillee.games import find, names
from veillee.games.contract import Option
from veillee.web import i18n

templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
router = APIRouter()


@pass_context
def static_url(context: Any, path: str) -> str:
    """Template helper ``static(path)``: the address of a browser file in the running build
    (``/static/<build>/<path>``, see :mod:`veillee.web.assets`)."""
    return str(context["request"].app.state.assets.url(path))


def game_option(game: str, name: str) -> Option:
    """Template helper ``game_option(game, name)``: the option ``name`` that tables of ``game``
    may be made with (its allowed values and default), from the game's declaration."""
    return find(game).info.options[name]


def game_levels(game: str) -> tuple[str, ...]:
    """Template helper ``game_levels(game)``: the computer's levels tables of ``game`` may be
    made with, the usual one first (``GameInfo.levels``)."""
    return find(game).info.levels


templates.env.globals["static"] = static_url
templates.env.globals["game_levels"] = game_levels
templates.env.globals["game_option"] = game_option


def page_lang(request: Request) -> str:
    """The language for this request (cookie, then Accept-Language)."""
    return i18n.pick_lang(request.cookies.get("lang"), request.headers.get("accept-language"))


def render(request: Request, template: str, **context: Any) -> HTMLResponse:
    """Render ``template`` with ``lang`` and ``t`` (the translator for that language)."""
    lang = page_lang(request)

    def tr(key: str, **values: object) -> str:
        return i18n.t(lang, key, **values)

    return templates.TemplateResponse(
        request, template, {"lang": lang, "t": tr, "langs": i18n.LANGS, **context}
    )


def playable(game: str) -> bool:
    """Whether ``game`` is registered and has a table page (``<game>_table.html``): tables are
    only made, and a game's page only offered, for games one can play."""
    return game in names() and f"{game}_table.html" in templates.env.list_templates()


def has_guide(game: str) -> bool:
    """Whether ``game`` (a registered game or a score-sheet preset) has its page's text, in
    every language: ``guide/<game>.<lang>.html`` and ``guide/<game>-how-to-play.<lang>.html``."""
    known = set(templates.env.list_templates())
    return all(
        f"guide/{game}{part}.{lang}.html" in known
        for part in ("", "-how-to-play")
        for lang in i18n.LANGS
    )


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    """The games of the registry, in its order, the score-sheet presets that have a guide
    (``sheets.PRESETS``), and SquareScores."""
    games = [{"name": name, "playable": playable(name)} for name in names()]
    guides = [name for name in sheets.PRESETS if has_guide(name)]
    return render(request, "home.html", games=games, guides=guides)


@router.get("/lang/{lang}")
async def switch_lang(lang: str, request: Request, next: str = "/") -> RedirectResponse:
    """Remember ``lang`` in a cookie and go back to ``next`` (a local path only)."""
    if lang not in i18n.LANGS:
        raise HTTPException(404)
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


@router.get("/i18n/{lang}.json")
async def catalog(lang: str) -> JSONResponse:
    """The merged catalog of ``lang`` for the browser's scripts."""
    if lang not in i18n.LANGS:
        raise HTTPException(404)
    # Revalidated on every load: a deploy's new strings reach the page with its new scripts.
    return JSONResponse(i18n.catalog(lang), headers={"Cache-Control": "no-cache"})
