"""The sheet websocket in-process (httpx-ws): live updates, roles, and refusals that change
nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, WebSocketDisconnect, aconnect_ws
from pydantic import TypeAdapter

from tests.web.sockets import client, new_sheet, receive
from veillee.web.live_protocol import AckOut, ErrorOut
from veillee.web.sheet_protocol import SheetOut

OUT = TypeAdapter(SheetOut | AckOut | ErrorOut)
VIEW_KEYS = {
    "id",
    "version",
    "role",
    "preset",
    "sides",
    "settings",
    "first_dealer",
    "status",
    "rows",
    "entries",
    "outcomes",
    "room",
    "locked",
    "live_settings",
    "can_undo",
}


async def hello(ws: AsyncWebSocketSession, token: str) -> dict[str, Any]:
    await ws.send_text(json.dumps({"type": "hello", "token": token}))
    return await receive(ws, "sheet")


def add(client_id: str, side: int, outcome: str) -> str:
    return json.dumps({"type": "add", "client_id": client_id, "side": side, "outcome": outcome})


async def test_every_open_copy_sees_a_row_as_soon_as_the_scorer_enters_it(app: FastAPI) -> None:
    async with client(app) as c:
        made = await new_sheet(c)
        path = f"/ws/sheets/{made['id']}"
        async with aconnect_ws(path, c) as scorer, aconnect_ws(path, c) as viewer:
            first = await hello(scorer, made["scorer_token"])
            assert first["sheet"]["role"] == "scorer" and first["sheet"]["version"] == 0
            seen = await hello(viewer, made["viewer_token"])
            assert seen["sheet"]["role"] == "viewer" and seen["sheet"]["can_undo"] is False
            await scorer.send_text(add("c1", 1, "mordienne"))
            ack = await receive(scorer, "ack")
            assert ack == {"type": "ack", "client_id": "c1", "version": 1, "duplicate": False}
            live = await receive(viewer, "sheet")
            assert live["sheet"]["status"]["rows"] == [[0, 2]]
            await scorer.send_text(add("c1", 1, "mordienne"))  # sent again after a lost ack
            again = await receive(scorer, "ack")
            assert again["duplicate"] is True and again["version"] == 1
    assert (await app.state.store.load(made["id"])).version == 1


async def test_a_viewer_cannot_change_the_sheet(app: FastAPI) -> None:
    async with client(app) as c:
        made = await new_sheet(c)
        async with aconnect_ws(f"/ws/sheets/{made['id']}", c) as viewer:
            await hello(viewer, made["viewer_token"])
            for message in (
                add("v1", 0, "won"),
                json.dumps({"type": "end", "client_id": "v2", "version": 0}),
                json.dumps({"type": "delete", "client_id": "v3", "index": 0, "row_version": 0}),
                json.dumps(
                    {
                        "type": "setting",
                        "client_id": "v4",
                        "name": "race_to_ten",
                        "value": True,
                        "version": 0,
                    }
                ),
            ):
                await viewer.send_text(message)
                error = await receive(viewer, "error")
                assert error["code"] == "read_only"
    assert (await app.state.store.load(made["id"])).version == 0


async def test_every_message_to_a_viewer_is_typed_and_never_holds_the_scorer_token(
    app: FastAPI,
) -> None:
    async with client(app) as c:
        made = await new_sheet(c)
        path = f"/ws/sheets/{made['id']}"
        received: list[str] = []
        async with aconnect_ws(path, c) as scorer, aconnect_ws(path, c) as viewer:
            await hello(scorer, made["scorer_token"])
            await viewer.send_text(json.dumps({"type": "hello", "token": made["viewer_token"]}))
            received.append(await asyncio.wait_for(viewer.receive_text(), 5))
            for i, (side, outcome) in enumerate([(0, "won"), (1, "refused-missed"), (0, "won")]):
                await scorer.send_text(add(f"s{i}", side, outcome))
                received.append(await asyncio.wait_for(viewer.receive_text(), 5))
            await scorer.send_text(json.dumps({"type": "undo", "client_id": "u", "version": 3}))
            received.append(await asyncio.wait_for(viewer.receive_text(), 5))
            await viewer.send_text(add("v", 0, "won"))
            received.append(await asyncio.wait_for(viewer.receive_text(), 5))
        kinds = []
        for text in received:
            message = OUT.validate_json(text)
            kinds.append(message.type)
            assert made["scorer_token"] not in text and made["viewer_token"] not in text
            assert "token" not in text
            if isinstance(message, SheetOut):
                assert set(message.sheet) == VIEW_KEYS and message.sheet["role"] == "viewer"
        assert kinds == ["sheet", "sheet", "sheet", "sheet", "sheet", "error"]


async def test_bad_messages_get_a_reason_and_change_nothing(app: FastAPI) -> None:
    limit = app.state.settings.max_message_bytes
    async with client(app) as c:
        made = await new_sheet(c)
        async with aconnect_ws(f"/ws/sheets/{made['id']}", c) as ws:
            await hello(ws, made["scorer_token"])
            cases = [
                ("not json", "bad_json"),
                (json.dumps({"type": "fly"}), "unknown_type"),
                (
                    json.dumps({"type": "add", "client_id": "x", "side": 5, "outcome": "won"}),
                    "bad_message",
                ),
                (
                    json.dumps(
                        {"type": "add", "client_id": "x", "side": 0, "outcome": "won", "extra": 1}
                    ),
                    "bad_message",
                ),
                (
                    json.dumps(
                        {"type": "add", "client_id": "x" * (limit + 1), "side": 0, "outcome": "won"}
                    ),
                    "message_too_large",
                ),
                (add("x", 0, "capot"), "unknown_outcome"),
                (
                    json.dumps(
                        {
                            "type": "edit",
                            "client_id": "y",
                            "index": 3,
                            "row_version": 0,
                            "side": 0,
                            "outcome": "won",
                        }
                    ),
                    "bad_row_index",
                ),
                (
                    json.dumps({"type": "edit", "client_id": "y", "index": 0, "side": 0}),
                    "bad_message",
                ),
                (json.dumps({"type": "undo", "client_id": "u"}), "bad_message"),
                (json.dumps({"type": "undo", "client_id": "u", "version": "0"}), "bad_message"),
                (
                    json.dumps(
                        {
                            "type": "setting",
                            "client_id": "z",
                            "name": "tie",
                            "value": "coin",
                            "version": 0,
                        }
                    ),
                    "bad_setting_value",
                ),
            ]
            for text, reason in cases:
                await ws.send_text(text)
                error = await receive(ws, "error")
                assert error["code"] == reason, text
            await ws.send_bytes(b"\x00\x01")
            assert (await receive(ws, "error"))["code"] == "bad_message"
    assert (await app.state.store.load(made["id"])).version == 0


async def test_a_socket_must_say_hello_with_a_token_of_this_sheet(app: FastAPI) -> None:
    async with client(app) as c:
        made = await new_sheet(c)
        other = await new_sheet(c)
        path = f"/ws/sheets/{made['id']}"
        async with aconnect_ws(path, c) as ws:
            await ws.send_text(add("a", 0, "won"))
            assert (await receive(ws, "error"))["code"] == "hello_first"
        async with aconnect_ws(path, c) as ws:
            await ws.send_text(json.dumps({"type": "hello", "token": other["scorer_token"]}))
            assert (await receive(ws, "error"))["code"] == "bad_token"
            with pytest.raises(WebSocketDisconnect):
                await asyncio.wait_for(ws.receive_text(), 5)


async def test_a_burst_of_messages_is_rate_limited_and_refused_entries_name_their_client_id(
    app: FastAPI,
) -> None:
    # A slow rate, so that the bucket runs dry however slowly a loaded machine answers.
    app.state.settings.max_messages_per_second = 2.0
    capacity = int(2 * app.state.settings.max_messages_per_second)
    adds = 30
    async with client(app) as c:
        made = await new_sheet(c)
        async with aconnect_ws(f"/ws/sheets/{made['id']}", c) as ws:
            await hello(ws, made["scorer_token"])
            for _ in range(capacity):
                await ws.send_text(json.dumps({"type": "hello", "token": made["scorer_token"]}))
            for i in range(adds):
                await ws.send_text(add(f"b{i}", i % 2, "won"))
            answers: dict[str, dict[str, Any]] = {}
            while len(answers) < adds:
                message = json.loads(await asyncio.wait_for(ws.receive_text(), 5))
                if message["type"] in ("ack", "error") and message.get("client_id"):
                    answers[message["client_id"]] = message
        acks = [m for m in answers.values() if m["type"] == "ack"]
        limited = [m for m in answers.values() if m.get("code") == "rate_limited"]
        assert limited, "a burst past the bucket must be refused"
        assert set(answers) == {f"b{i}" for i in range(adds)}
    assert (await app.state.store.load(made["id"])).version == len(acks)


async def test_a_socket_from_another_site_is_refused(app: FastAPI) -> None:
    async with client(app) as c:
        made = await new_sheet(c)
        with pytest.raises(WebSocketDisconnect) as refused:
            async with aconnect_ws(
                f"/ws/sheets/{made['id']}", c, headers={"origin": "http://evil.example"}
            ) as ws:
                await ws.receive_text()
        assert refused.value.code == 1008


async def test_the_message_limit_counts_utf8_bytes_not_characters(app: FastAPI) -> None:
    limit = app.state.settings.max_message_bytes
    async with client(app) as c:
        made = await new_sheet(c)
        async with aconnect_ws(f"/ws/sheets/{made['id']}", c) as ws:
            await hello(ws, made["scorer_token"])
            # under the limit in characters, over it in bytes ("é" is two bytes)
            text = json.dumps({"type": "hello", "token": "é" * (limit // 2)}, ensure_ascii=False)
            assert len(text) < limit < len(text.encode())
            await ws.send_text(text)
            assert (await receive(ws, "error"))["code"] == "message_too_large"


async def test_the_view_says_how_many_hands_may_still_be_queued_and_keeps_the_form_order(
    app: FastAPI,
) -> None:
    async with client(app) as c:
        made = await new_sheet(c)
        async with aconnect_ws(f"/ws/sheets/{made['id']}", c) as ws:
            first = (await hello(ws, made["scorer_token"]))["sheet"]
            assert first["room"] == {"hands": 5, "points": None, "tie_break": False}
            assert list(first["settings"]) == [
                "hands",
                "tie",
                "mordienne",
                "surrender",
                "race_to_ten",
            ]
            for i, (side, outcome) in enumerate([(0, "won"), (0, "won"), (1, "mordienne")]):
                await ws.send_text(add(f"r{i}", side, outcome))
                await receive(ws, "ack")
                view = (await receive(ws, "sheet"))["sheet"]
            assert view["room"] == {"hands": 2, "points": None, "tie_break": False}
            race = json.dumps(
                {
                    "type": "setting",
                    "client_id": "race",
                    "name": "race_to_ten",
                    "value": True,
                    "version": 3,
                }
            )
            await ws.send_text(race)
            await receive(ws, "ack")
            assert (await receive(ws, "sheet"))["sheet"]["room"] == {
                "hands": None,
                "points": [8, 8],
                "tie_break": False,
            }
