"""The SquareScores JSON API, in-process: links, roles, refusals that change nothing."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import httpx
from fastapi import FastAPI

from tests.conftest import make_settings
from tests.web.test_live_sockets import Clock
from veillee.store import token_hash
from veillee.web import create_app

NS, EW = 0, 1


def client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://t")


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def create(c: httpx.AsyncClient, **body: object) -> dict:
    r = await c.post("/api/sheets", json=body)
    assert r.status_code == 201, r.text
    return r.json()


async def change(c: httpx.AsyncClient, sheet: dict, token: str, **body: object) -> httpx.Response:
    return await c.post(f"/api/sheets/{sheet['id']}/changes", json=body, headers=bearer(token))


async def test_new_sheet_has_default_sides_settings_and_two_random_hashed_tokens(
    app: FastAPI,
) -> None:
    async with client(app) as c:
        made = await create(c)
    view = made["sheet"]
    assert view["sides"] == ["North & South", "East & West"]
    assert view["settings"] == {
        "hands": 5,
        "mordienne": True,
        "race_to_ten": False,
        "surrender": True,
        "tie": "stands",
    }
    assert len(made["scorer_token"]) >= 22 and len(made["viewer_token"]) >= 22  # ≥128 bits
    assert made["scorer_token"] != made["viewer_token"]
    store = app.state.store
    assert await store.role_of(token_hash(made["scorer_token"])) == (made["id"], "scorer")
    assert await store.role_of(token_hash(made["viewer_token"])) == (made["id"], "viewer")
    record = await store.load(made["id"])
    assert made["scorer_token"] not in str(record.data)


async def test_s1_entered_through_the_api_banks_north_south_4_2(app: FastAPI) -> None:
    async with client(app) as c:
        made = await create(c)
        tok = made["scorer_token"]
        rows = [(NS, "won"), (NS, "won"), (EW, "mordienne"), (NS, "won"), (NS, "won")]
        for i, (side, outcome) in enumerate(rows):
            r = await change(
                c, made, tok, type="add", client_id=f"r{i}", side=side, outcome=outcome
            )
            assert r.status_code == 200 and r.json()["version"] == i + 1
        sixth = await change(c, made, tok, type="add", client_id="r6", side=EW, outcome="won")
        assert sixth.status_code == 409 and sixth.json()["code"] == "match_decided"
        end = await change(c, made, tok, type="end", client_id="end", version=5)
        st = end.json()["sheet"]["status"]
        assert (st["totals"], st["result"], st["banked"]) == ([4, 2], NS, True)


async def test_bad_input_is_refused_with_a_reason_and_changes_nothing(app: FastAPI) -> None:
    async with client(app) as c:
        made = await create(c)
        tok = made["scorer_token"]
        bad = [
            ({"type": "add", "client_id": "a", "side": 2, "outcome": "won"}, 400, "bad_message"),
            ({"type": "add", "client_id": "a", "side": "0", "outcome": "won"}, 400, "bad_message"),
            ({"type": "add", "client_id": "a", "side": 0}, 400, "bad_message"),
            ({"type": "fly", "client_id": "a"}, 400, "unknown_type"),
            ({"type": "add", "client_id": "a b", "side": 0, "outcome": "won"}, 400, "bad_message"),
            (
                {"type": "add", "client_id": "a", "side": 0, "outcome": "capot"},
                409,
                "unknown_outcome",
            ),
            (
                {"type": "delete", "client_id": "a", "index": 0, "row_version": 0},
                409,
                "bad_row_index",
            ),
            ({"type": "delete", "client_id": "a", "index": 0}, 400, "bad_message"),
            (
                {"type": "setting", "client_id": "a", "name": "hands", "value": 0, "version": 0},
                409,
                "bad_setting_value",
            ),
            ({"type": "undo", "client_id": "a", "version": 0}, 409, "nothing_to_undo"),
            ({"type": "undo", "client_id": "a", "version": 1}, 409, "version_conflict"),
            ({"type": "undo", "client_id": "a"}, 400, "bad_message"),
        ]
        for body, status, reason in bad:
            r = await c.post(f"/api/sheets/{made['id']}/changes", json=body, headers=bearer(tok))
            assert (r.status_code, r.json()["code"]) == (status, reason), body
            assert set(r.json()) == {"type", "code", "message", "client_id"}
            assert r.json()["message"] and r.json()["message"] != f"scores.reason.{reason}"
        huge = await c.post(
            f"/api/sheets/{made['id']}/changes", content=b"x" * 10_000, headers=bearer(tok)
        )
        assert (huge.status_code, huge.json()["code"]) == (413, "message_too_large")
        refused = await c.post("/api/sheets", json={"settings": {"hands": -1}})
        assert (refused.status_code, refused.json()["code"]) == (409, "bad_setting_value")
        refused = await c.post("/api/sheets", json={"first_dealer": 4})
        assert refused.json()["code"] == "bad_first_dealer"
    record = await app.state.store.load(made["id"])
    assert record.version == 0 and record.data["sheet"]["rows"] == []


async def test_viewer_token_cannot_write_and_strangers_cannot_read(app: FastAPI) -> None:
    async with client(app) as c:
        made = await create(c)
        viewer = made["viewer_token"]
        for body in (
            {"type": "add", "client_id": "v1", "side": 0, "outcome": "won"},
            {"type": "end", "client_id": "v2", "version": 0},
            {"type": "undo", "client_id": "v3", "version": 0},
        ):
            r = await change(c, made, viewer, **body)
            assert (r.status_code, r.json()["code"]) == (403, "read_only")
        r = await c.post(f"/api/sheets/{made['id']}/viewers", headers=bearer(viewer))
        assert r.status_code == 403
        seen = await c.get(f"/api/sheets/{made['id']}", headers=bearer(viewer))
        assert seen.json()["sheet"]["role"] == "viewer"
        assert made["scorer_token"] not in seen.text
        stranger = await c.get(f"/api/sheets/{made['id']}", headers=bearer("x" * 43))
        assert (stranger.status_code, stranger.json()["code"]) == (403, "bad_token")
        other = await create(c)
        crossed = await c.get(f"/api/sheets/{made['id']}", headers=bearer(other["scorer_token"]))
        assert crossed.status_code == 403
    assert (await app.state.store.load(made["id"])).version == 0


async def test_a_swept_sheet_is_gone_for_its_own_tokens_and_a_stranger_is_still_refused(
    tmp_path: Path,
) -> None:
    clock = Clock()
    settings = make_settings(tmp_path)
    settings.sheet_idle_s = 1000
    app = create_app(settings, clock=clock)
    async with app.router.lifespan_context(app), client(app) as c:
        made, kept = await create(c), await create(c)
        clock.now += timedelta(seconds=600)
        r = await change(
            c, kept, kept["scorer_token"], type="add", client_id="k", side=0, outcome="won"
        )
        assert r.status_code == 200
        clock.now += timedelta(seconds=600)
        assert await app.state.sheets.sweep() == [made["id"]]
        url = f"/api/sheets/{made['id']}"
        for token in (made["scorer_token"], made["viewer_token"]):
            seen = await c.get(url, headers=bearer(token))
            assert (seen.status_code, seen.json()["code"]) == (404, "sheet_gone")
        added = await change(
            c, made, made["scorer_token"], type="add", client_id="a", side=0, outcome="won"
        )
        assert (added.status_code, added.json()["code"]) == (404, "sheet_gone")
        viewer = await c.post(f"{url}/viewers", headers=bearer(made["scorer_token"]))
        assert (viewer.status_code, viewer.json()["code"]) == (404, "sheet_gone")
        # A sheet that is still there refuses another sheet's token as before.
        crossed = await c.get(f"/api/sheets/{kept['id']}", headers=bearer(made["scorer_token"]))
        assert (crossed.status_code, crossed.json()["code"]) == (403, "bad_token")


async def test_a_repeated_client_id_is_stored_once(app: FastAPI) -> None:
    async with client(app) as c:
        made = await create(c)
        tok = made["scorer_token"]
        first = await change(c, made, tok, type="add", client_id="off-1", side=EW, outcome="won")
        again = await change(c, made, tok, type="add", client_id="off-1", side=EW, outcome="won")
        assert first.json()["duplicate"] is False and again.json()["duplicate"] is True
        assert again.json()["sheet"]["status"]["rows"] == [[0, 1]]


async def test_undo_reverts_the_last_change_and_edits_recompute_the_totals(app: FastAPI) -> None:
    async with client(app) as c:
        made = await create(c)
        tok = made["scorer_token"]
        await change(c, made, tok, type="add", client_id="a", side=NS, outcome="won")
        await change(c, made, tok, type="add", client_id="b", side=EW, outcome="mordienne")
        row = {"index": 0, "row_version": 1}
        r = await change(c, made, tok, type="edit", client_id="c", **row, side=EW, outcome="won")
        assert r.json()["sheet"]["status"]["totals"] == [0, 3]
        r = await change(c, made, tok, type="undo", client_id="d", version=3)
        assert r.json()["sheet"]["status"]["totals"] == [1, 2]
        r = await change(
            c, made, tok, type="setting", client_id="e", name="hands", value=3, version=4
        )
        assert r.json()["code"] == "settings_locked"
        r = await change(
            c, made, tok, type="setting", client_id="f", name="race_to_ten", value=True, version=4
        )
        assert r.json()["sheet"]["settings"]["race_to_ten"] is True


async def test_a_scorer_can_make_a_further_viewer_link(app: FastAPI) -> None:
    async with client(app) as c:
        made = await create(c)
        r = await c.post(f"/api/sheets/{made['id']}/viewers", headers=bearer(made["scorer_token"]))
        token = r.json()["viewer_token"]
        seen = await c.get(f"/api/sheets/{made['id']}", headers=bearer(token))
        assert seen.json()["sheet"]["role"] == "viewer"


async def test_scores_pages_and_service_worker_are_served(app: FastAPI) -> None:
    async with client(app) as c:
        page = await c.get("/scores", headers={"accept-language": "fr"})
        assert page.status_code == 200 and '<script type="module"' in page.text
        assert "script-src 'self'" in page.headers["content-security-policy"]
        sheet = await c.get("/scores/sheet/abc")
        assert sheet.status_code == 200
        sw = await c.get("/scores/sw.js")
        assert sw.headers["service-worker-allowed"] == "/scores"
        assert sw.headers["content-type"].startswith("text/javascript")
        manifest = await c.get("/static/scores/manifest.json")
        assert manifest.json()["start_url"] == "/scores"


async def test_side_names_with_control_or_format_characters_are_refused(app: FastAPI) -> None:
    async with client(app) as c:
        for bad in ("N\x00S", "\u202eSud"):
            r = await c.post("/api/sheets", json={"sides": [bad, "East & West"]})
            assert (r.status_code, r.json()["code"]) == (409, "side_name_characters")
