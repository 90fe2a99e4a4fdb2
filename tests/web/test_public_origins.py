"""Only this site's pages open its sockets, and only its own host names are answered (DNS
rebinding): the Origin is checked against the configured public origins
(``VEILLEE_PUBLIC_ORIGINS``, by default the address served) on both sockets before anything is
sent, and a request for another host is refused by Starlette's TrustedHostMiddleware."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from httpx_ws import aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from tests.conftest import make_settings
from tests.web.sockets import client, new_sheet, new_table, refusals
from veillee import cli
from veillee.config import Settings, parse_origin, served_origins
from veillee.web import create_app

SITE = "https://veillee.example"
REFUSED_ORIGINS = [
    "null",  # a sandboxed frame, a file: page, a data: URL
    "https://veillee.example.evil.example",  # a look-alike suffix
    "https://veillee.example:443.evil.example",  # the port as a look-alike suffix
    "https://evil-veillee.example",
    "https://veillee.example:8443",  # another port
    "http://veillee.example",  # the wrong scheme (http for an https site)
    "wss://veillee.example",
    "https://user@veillee.example",
    "https://veillee.example/scores",
    "https://veillee.example, https://evil.example",
    "",
]
ACCEPTED_ORIGINS = [SITE, "https://veillee.example:443", "HTTPS://Veillee.Example"]


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[FastAPI]:
    """An app whose public origin is https://veillee.example."""
    settings = make_settings(tmp_path).model_copy(update={"public_origins": [SITE]})
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        yield application


async def sockets(c: httpx.AsyncClient) -> list[tuple[str, str]]:
    sheet, table = await new_sheet(c), await new_table(c)
    return [
        (f"/ws/sheets/{sheet['id']}", sheet["scorer_token"]),
        (f"/ws/tables/{table['table_id']}", table["token"]),
    ]


def site_client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=ASGIWebSocketTransport(app), base_url=SITE)


async def opens(c: httpx.AsyncClient, path: str, headers: list[tuple[str, str]]) -> bool:
    """Whether the socket opens with these headers; a refused one must have been sent nothing."""
    try:
        async with aconnect_ws(path, c, headers=httpx.Headers(headers)) as ws:
            await ws.send_text('{"type": "ping"}')
            assert "hello_first" in await asyncio.wait_for(ws.receive_text(), 5)
            return True
    except BaseException as refused:  # httpx-ws raises groups
        # Refused during the handshake (1008, or a 403/400 answer): no frame was sent at all.
        assert set(refusals(refused)) <= {1008, 400, 403}, refusals(refused)
        return False


async def test_both_sockets_refuse_every_origin_but_the_sites_before_sending_anything(
    site: FastAPI,
) -> None:
    async with site_client(site) as c:
        for path, _ in await sockets(c):
            for origin in REFUSED_ORIGINS:
                assert not await opens(c, path, [("origin", origin)]), (path, origin)
            two = [("origin", SITE), ("origin", "https://evil.example")]
            assert not await opens(c, path, two), path
            for origin in ACCEPTED_ORIGINS:
                assert await opens(c, path, [("origin", origin)]), (path, origin)
            # Not a browser (no Origin): on to the token check.
            assert await opens(c, path, [])


async def test_a_request_for_a_host_that_is_not_ours_is_refused(site: FastAPI) -> None:
    async with site_client(site) as c:
        assert (await c.get("/")).status_code == 200
        for host in ("evil.example", "veillee.example.evil.example", "127.0.0.1"):
            r = await c.get("/", headers={"host": host})
            assert r.status_code == 400, host
            r = await c.post("/api/sheets", json={}, headers={"host": host})
            assert r.status_code == 400, host
        # The sockets too, whatever their Origin says.
        path, _ = (await sockets(c))[0]
        headers = [("host", "evil.example"), ("origin", SITE)]
        assert not await opens(c, path, headers)


def test_public_origins_come_from_the_environment_comma_separated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VEILLEE_PUBLIC_ORIGINS", "https://veillee.example, http://10.0.0.5:8000")
    settings = Settings()
    assert settings.public_origins == ["https://veillee.example", "http://10.0.0.5:8000"]
    assert settings.hosts() == ["10.0.0.5", "veillee.example"]
    # Given, they win over the address served.
    assert settings.served_at("127.0.0.1", 9000).public_origins == settings.public_origins
    for wrong in ("null", "veillee.example", "https://veillee.example/", "ftp://a.example"):
        monkeypatch.setenv("VEILLEE_PUBLIC_ORIGINS", wrong)
        with pytest.raises(ValueError, match="not an origin"):
            Settings()


def test_by_default_the_public_origin_is_the_address_served(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("VEILLEE_PUBLIC_ORIGINS", raising=False)
    assert Settings().served_at("127.0.0.1", 9000).public_origins == [
        "http://127.0.0.1:9000",
        "http://localhost:9000",
    ]
    assert served_origins("192.168.1.5", 8000) == ["http://192.168.1.5:8000"]
    assert served_origins("::1", 80) == [
        "http://[::1]:80",
        "http://127.0.0.1:80",
        "http://localhost:80",
    ]
    assert parse_origin("http://[::1]:80") == parse_origin("http://[::1]") == ("http", "[::1]", 80)


def test_veillee_serve_on_every_address_asks_which_one_players_use(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("VEILLEE_PUBLIC_ORIGINS", raising=False)
    monkeypatch.delenv("VEILLEE_TEST_HOOKS", raising=False)
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", "--host", "0.0.0.0"])
    assert stopped.value.code == 2
    assert "VEILLEE_PUBLIC_ORIGINS=http://192.168.1.5:8000" in capsys.readouterr().err


async def test_the_in_process_test_address_is_the_suites_public_origin(app: FastAPI) -> None:
    # The suite's other tests send no Origin, or this one.
    async with client(app) as c:
        for path, _ in await sockets(c):
            assert await opens(c, path, [("origin", "http://t")])
            assert not await opens(c, path, [("origin", "http://t:8000")])


async def test_a_table_page_carries_its_link_on_the_public_origin(site: FastAPI) -> None:
    """The link a shared table's waiting screen shows (rendered into the page, never empty) is
    on the site's public origin, also when a TLS proxy in front speaks plain http to it."""
    async with site_client(site) as c:
        table = (await c.post("/api/tables", json={"game": "chouine", "shared": True})).json()
    link = f"{SITE}/chouine/table/{table['table_id']}"
    behind_proxy = httpx.AsyncClient(
        transport=ASGIWebSocketTransport(site), base_url="http://veillee.example"
    )
    async with behind_proxy as c:
        page = (await c.get(table["url"])).text
        assert f'data-link="{link}"' in page and f'value="{link}"' in page
        other = (await c.get("/charlemagne/table/made-up?seat=2")).text
        assert f'data-link="{SITE}/charlemagne/table/made-up"' in other
