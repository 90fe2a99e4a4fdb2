"""The games' own pages and their how-to-play pages (issue 11): both languages, headings in
order with the same anchors in each, every internal link answered, French typography in the
pages' text, and the home page's cards leading to them."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path
from urllib.parse import urldefrag

import httpx
import pytest
from fastapi import FastAPI

from veillee.web import i18n
from veillee.web.pages import templates

GUIDE_PAGES = (
    "/chouine",
    "/charlemagne",
    "/scores/aluette",
    "/chouine/how-to-play",
    "/charlemagne/how-to-play",
    "/scores/aluette/how-to-play",
)
GUIDES = Path(templates.env.loader.searchpath[0]) / "guide"  # type: ignore[attr-defined]
FRENCH_MARKS = re.compile(
    r"(?:^|[^\u00a0\u202f])[;!?]|[ ]:|[^\u00a0\u202f\s{]:(?=\s|$)"
    r"|«(?![\u00a0\u202f])|(?<![\u00a0\u202f])»"
)
"""French typography, as tests/web/test_catalogs.py checks the catalogs."""


class Outline(HTMLParser):
    """The headings (level, id, text), the link targets and the ids of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[tuple[int, str | None, str]] = []
        self.links: list[str] = []
        self.ids: set[str] = set()
        self._heading: list[object] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = [int(tag[1]), found.get("id"), ""]
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            self._heading[2] = str(self._heading[2]) + data

    def handle_endtag(self, tag: str) -> None:
        if self._heading is not None and tag == f"h{self._heading[0]}":
            level, ident, text = self._heading
            self.headings.append((int(str(level)), ident if ident else None, str(text).strip()))
            self._heading = None


def client(app: FastAPI, lang: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app), base_url="http://t", cookies={"lang": lang}
    )


async def outline(c: httpx.AsyncClient, path: str, lang: str) -> Outline:
    page = await c.get(path)
    assert page.status_code == 200, (path, lang)
    assert f'<html lang="{lang}">' in page.text
    parsed = Outline()
    parsed.feed(page.text)
    return parsed


@pytest.mark.parametrize("path", GUIDE_PAGES)
async def test_a_guide_page_has_one_h1_headings_in_order_and_the_same_anchors_in_both_languages(
    app: FastAPI, path: str
) -> None:
    anchors = {}
    for lang in i18n.LANGS:
        async with client(app, lang) as c:
            page = await outline(c, path, lang)
            levels = [level for level, _, _ in page.headings]
            assert levels[0] == 1 and levels.count(1) == 1, (path, lang, levels)
            assert all(b <= a + 1 for a, b in pairwise(levels)), (
                path,
                lang,
                levels,
            )
            assert all(text for _, _, text in page.headings)
            anchors[lang] = [ident for level, ident, _ in page.headings if level == 2 and ident]
            assert len(anchors[lang]) >= 4, (path, lang)
    assert anchors["fr"] == anchors["en"]


async def test_every_internal_link_of_the_guide_pages_answers_200_and_every_anchor_exists(
    app: FastAPI,
) -> None:
    checked: dict[str, int] = {}
    for lang in i18n.LANGS:
        # Links are followed by a client of their own: the language link sets its cookie.
        async with client(app, lang) as c, client(app, lang) as follower:
            for path in ("/", *GUIDE_PAGES):
                page = await outline(c, path, lang)
                for href in page.links:
                    target, fragment = urldefrag(href)
                    if not target:
                        assert fragment in page.ids, (path, lang, href)
                        continue
                    assert target.startswith("/"), (path, href)  # no page links off the site
                    if target not in checked:
                        answer = await follower.get(target, follow_redirects=True)
                        checked[target] = answer.status_code
                    assert checked[target] == 200, (path, href, checked[target])
                    if fragment:  # a link into another page names an anchor it has
                        assert fragment in (await outline(c, target, lang)).ids, (path, href)
    # Every guide page is linked from the home page or from another guide page.
    assert set(GUIDE_PAGES) <= set(checked)


async def test_the_home_page_says_what_each_game_is_and_links_to_its_page(app: FastAPI) -> None:
    for lang in i18n.LANGS:
        async with client(app, lang) as c:
            home = (await c.get("/")).text
            for game, href in (
                ("chouine", "/chouine"),
                ("charlemagne", "/charlemagne"),
                ("aluette", "/scores/aluette"),
            ):
                blurb = i18n.t(lang, f"home.{game}.blurb").replace("'", "&#39;")
                name = i18n.t(lang, f"home.{game}")
                assert f'<a href="{href}"><h2>{name}</h2><p>{blurb}</p>' in home


async def test_a_preset_or_game_without_a_guide_has_no_page(app: FastAPI) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        assert (await c.get("/scores/nowhere")).status_code == 404
        assert (await c.get("/scores/nowhere/how-to-play")).status_code == 404
        assert (await c.get("/nowhere/how-to-play")).status_code == 404


@pytest.mark.parametrize("path", sorted(GUIDES.glob("*.fr.html")), ids=lambda p: p.name)
def test_the_french_guides_keep_their_marks_with_their_words(path: Path) -> None:
    text = re.sub(r"\{[%{#].*?[%}#]\}|<[^>]+>", " ", path.read_text("utf-8"), flags=re.S)
    wrong = [line for line in text.splitlines() if FRENCH_MARKS.search(line)]
    assert wrong == []


def test_every_guide_exists_in_every_language() -> None:
    stems = {p.name.rsplit(".", 2)[0] for p in GUIDES.glob("*.*.html")}
    for stem in stems:
        for lang in i18n.LANGS:
            assert (GUIDES / f"{stem}.{lang}.html").is_file(), (stem, lang)
