"""Every deploy reaches every player: pages name the running build's files, those files are
cached for good, pages and everything unversioned are asked for again, modules import each other
by relative paths (so the entry's address versions them all), and the SquareScores service
worker keeps every file its pages load."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from fastapi import FastAPI

from veillee.web.app import WEB
from veillee.web.assets import IMMUTABLE, REVALIDATE

STATIC = WEB / "static"
TEMPLATES = WEB / "templates"
ADDRESS = re.compile(r'(?:src|href)="(/static/[^"]+)"')
PAGES = ["/", "/chouine", "/chouine/table/x", "/scores", "/scores/sheet/x", "/charlemagne"]


async def test_pages_name_this_builds_files_which_are_cached_for_good(app: FastAPI) -> None:
    build = app.state.assets.build
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        seen: set[str] = set()
        for path in [*PAGES, "/no-such-page"]:
            page = await c.get(path, headers={"accept": "text/html"})
            assert page.headers["cache-control"] == REVALIDATE, path
            addresses = ADDRESS.findall(page.text)
            assert addresses, path
            assert all(a.startswith(f"/static/{build}/") for a in addresses), (path, addresses)
            seen |= set(addresses)
        for address in sorted(seen):
            served = await c.get(address)
            assert served.status_code == 200, address
            assert served.headers["cache-control"] == IMMUTABLE, address
        catalog = await c.get("/i18n/fr.json")
        assert catalog.headers["cache-control"] == REVALIDATE


async def test_unversioned_and_older_addresses_are_revalidated(app: FastAPI) -> None:
    build = app.state.assets.build
    old = "0" * 12 if build != "0" * 12 else "1" * 12
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t") as c:
        current = await c.get(f"/static/{build}/table/chouine/main.js")
        for address in ("/static/table/chouine/main.js", f"/static/{old}/table/chouine/main.js"):
            served = await c.get(address)
            assert served.status_code == 200 and served.content == current.content
            assert served.headers["cache-control"] == REVALIDATE, address
        again = await c.get(
            f"/static/{build}/table/chouine/main.js",
            headers={"if-none-match": current.headers["etag"]},
        )
        assert again.status_code == 304 and again.headers["cache-control"] == IMMUTABLE
        assert (await c.get(f"/static/{build}/table/nothing.js")).status_code == 404
        assert (await c.get(f"/static/{build}/../app.py")).status_code == 404


def test_templates_name_static_files_only_through_the_build() -> None:
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert '"/static/' not in text and "'/static/" not in text, template.name


def test_scripts_import_each_other_by_relative_paths() -> None:
    # An absolute import would leave the build's address: a deploy would not reach it.
    imports = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']""")
    for script in STATIC.rglob("*.js"):
        for target in imports.findall(script.read_text(encoding="utf-8")):
            assert target.startswith(("./", "../")), (script.name, target)


def scores_page_files() -> set[str]:
    """Every static file the SquareScores pages load: their styles, icons, manifest and scripts
    with everything those import, as paths under the static directory."""
    files: set[str] = set()
    for name in ("base.html", "scores_head.html", "scores.html", "scores_sheet.html"):
        text = (TEMPLATES / name).read_text(encoding="utf-8")
        files |= set(re.findall(r"static\('([^']+)'\)", text))
    manifest = (STATIC / "scores" / "manifest.json").read_text(encoding="utf-8")
    files |= {f"scores/{icon}" for icon in re.findall(r'"src": "([^"/]+)"', manifest)}
    todo = [f for f in files if f.endswith(".js")]
    while todo:
        script = Path(todo.pop())
        for target in re.findall(r'from "(\./[^"]+)"', (STATIC / script).read_text("utf-8")):
            found = (script.parent / target).as_posix().replace("/./", "/")
            if found not in files:
                files.add(found)
                todo.append(found)
    return files


def test_the_service_worker_keeps_every_file_the_scores_pages_load() -> None:
    worker = (STATIC / "scores" / "sw.js").read_text(encoding="utf-8")
    listed = set(re.findall(r'^\s+"([a-z/.-]+\.[a-z]+)",$', worker, re.MULTILINE))
    needed = scores_page_files()
    assert "scores/sheet-page.js" in needed and "scores/outbox.js" in needed
    assert needed <= listed, sorted(needed - listed)
    assert all((STATIC / f).is_file() for f in listed), sorted(listed)
