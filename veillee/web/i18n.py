"""French and English catalogs.

Catalogs are JSON files ``i18n/<area>.<lang>.json`` (one area per part of the site, so that areas
can grow apart), merged per language. Keys are dotted names (``"turn.yours"``); values may hold
``{name}`` placeholders. Reason codes of the engines live under ``"reason.<code>"``.

>>> t("en", "lang.name")
'English'
>>> t("fr", "lang.name")
'Français'
>>> reason("en", "busy", "scores.") == t("en", "scores.reason.busy")
True
>>> reason("en", "no_such_code") == t("en", "reason.unknown")
True
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

LANGS: tuple[str, ...] = ("fr", "en")
DEFAULT_LANG = "en"
CATALOGS = Path(__file__).parent / "i18n"


@cache
def catalog(lang: str) -> dict[str, str]:
    """Every string of ``lang`` (all areas merged). Raises KeyError for an unknown language."""
    if lang not in LANGS:
        raise KeyError(lang)
    merged: dict[str, str] = {}
    for path in sorted(CATALOGS.glob(f"*.{lang}.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def t(lang: str, key: str, **values: object) -> str:
    """The string ``key`` in ``lang`` with placeholders filled; falls back to English, then to
    the key itself (so a missing string shows, never crashes)."""
    text = catalog(lang).get(key) or catalog(DEFAULT_LANG).get(key) or key
    return text.format(**values) if values else text


def pick_lang(cookie: str | None, accept_language: str | None) -> str:
    """The page language: the ``lang`` cookie if valid, else the first supported language of the
    ``Accept-Language`` header, else English."""
    if cookie in LANGS:
        return str(cookie)
    for part in (accept_language or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return DEFAULT_LANG


def reason(lang: str, code: str, area: str = "") -> str:
    """The reason ``code`` in words: the area's own string (``"<area>reason.<code>"``, e.g.
    ``scores.reason.busy``), else the site's (``reason.<code>``), else a generic sentence."""
    for key in (f"{area}reason.{code}", f"reason.{code}"):
        if key in catalog(lang) or key in catalog(DEFAULT_LANG):
            return t(lang, key)
    return t(lang, "reason.unknown")
