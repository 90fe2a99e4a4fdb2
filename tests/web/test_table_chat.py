"""The chat over the one table socket: lines go live to every seat, come back exactly after a
reconnect, are refused with a reason (length, empty, rate) in the player's language, never
reach a socket without a seat, and never move the table's version."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws

from tests.web.sockets import client, receive, refusals
from veillee.live.chat import BURST, KEPT, MAX_CHARS
from veillee.tables import COMPUTER, HUMAN
from veillee.web import i18n

MARKUP = "<img src=x onerror=alert(1)><script>alert(2)</script>"


async def hello(ws: AsyncWebSocketSession, token: str, lang: str = "en") -> dict[str, Any]:
    """Say hello as the seat of ``token`` and open its chat from the start; its first state."""
    await ws.send_text(json.dumps({"type": "hello", "token": token, "lang": lang}))
    state = await receive(ws, "state")
    await ws.send_text(json.dumps({"type": "chat_sync", "after": 0}))
    return state


async def say(ws: AsyncWebSocketSession, client_id: str, text: str) -> None:
    await ws.send_text(json.dumps({"type": "chat", "client_id": client_id, "text": text}))


def texts(message: dict[str, Any]) -> list[tuple[int, int, str]]:
    return [(line["seq"], line["seat"], line["text"]) for line in message["lines"]]


async def people_table(app: FastAPI, game: str = "chouine") -> tuple[str, dict[int, str]]:
    seats = (HUMAN,) * (2 if game == "chouine" else 4)
    record, grants = await app.state.tables.create_table(game, seats)
    return record.id, {grant.seat: grant.token for grant in grants}


async def test_a_line_reaches_every_seat_as_text_and_the_version_stays(app: FastAPI) -> None:
    table_id, tokens = await people_table(app)
    path = f"/ws/tables/{table_id}"
    async with client(app) as c, aconnect_ws(path, c) as ws0, aconnect_ws(path, c) as ws1:
        state = await hello(ws0, tokens[0])
        await hello(ws1, tokens[1])
        await say(ws0, "c1", MARKUP)
        ack = await receive(ws0, "ack")
        assert ack == {
            "type": "ack",
            "client_id": "c1",
            "version": state["version"],
            "duplicate": False,
        }
        for ws in (ws0, ws1):
            line = (await receive(ws, "chat"))["lines"]
            assert [(x["seq"], x["seat"], x["text"]) for x in line] == [(1, 0, MARKUP)]
            assert set(line[0]) == {"seq", "seat", "text", "at"}
        await say(ws1, "d1", "  a\u202eb\u2066c\x00d\ud800\nnext  ")
        await receive(ws1, "ack")
        assert texts(await receive(ws0, "chat")) == [(2, 1, "abcd next")]
        # Said again after a lost answer: acknowledged as a repeat, sent to nobody again.
        await say(ws1, "d1", "  a\u202eb\u2066c\x00d\ud800\nnext  ")
        assert (await receive(ws1, "ack"))["duplicate"] is True
    assert (await app.state.tables.load(table_id)).version == state["version"]
    assert [line.seq for line in await app.state.chat.lines_since(table_id, 0)] == [1, 2]


async def test_a_reconnected_seat_is_sent_exactly_the_lines_it_missed(app: FastAPI) -> None:
    table_id, tokens = await people_table(app, "charlemagne")
    path = f"/ws/tables/{table_id}"
    async with client(app) as c, aconnect_ws(path, c) as ws0:
        await hello(ws0, tokens[0])
        async with aconnect_ws(path, c) as ws2:
            await hello(ws2, tokens[2])
            await say(ws0, "c1", "first")
            await receive(ws0, "ack")
            assert texts(await receive(ws2, "chat")) == [(1, 0, "first")]
        for n in (2, 3):
            await say(ws0, f"c{n}", f"said while away {n}")
            assert (await receive(ws0, "ack"))["client_id"] == f"c{n}"
        async with aconnect_ws(path, c) as ws2:
            await ws2.send_text(json.dumps({"type": "hello", "token": tokens[2]}))
            await receive(ws2, "state")
            await ws2.send_text(json.dumps({"type": "chat_sync", "after": 1}))
            assert texts(await receive(ws2, "chat")) == [
                (2, 0, "said while away 2"),
                (3, 0, "said while away 3"),
            ]
            await say(ws0, "c4", "welcome back")
            assert texts(await receive(ws2, "chat")) == [(4, 0, "welcome back")]
        # A reload starts from nothing: the whole chat, in order.
        async with aconnect_ws(path, c) as ws2:
            await hello(ws2, tokens[2])
            assert [seq for seq, _, _ in texts(await receive(ws2, "chat"))] == [1, 2, 3, 4]


async def test_a_seat_opening_the_chat_is_sent_only_the_kept_lines(app: FastAPI) -> None:
    table_id, tokens = await people_table(app)
    store = app.state.tables.store
    earlier = datetime.now(UTC) - timedelta(hours=1)
    # A chat longer than it may be (written before the cap): a seat is sent its newest lines.
    for n in range(1, KEPT + 6):
        await store.add_chat_line(table_id, n % 2, f"line {n}", f"c{n}", earlier)
    path = f"/ws/tables/{table_id}"
    async with client(app) as c, aconnect_ws(path, c) as ws0, aconnect_ws(path, c) as ws1:
        for seat, ws in ((0, ws0), (1, ws1)):
            await hello(ws, tokens[seat])
            sent = []
            while len(sent) < KEPT:  # in messages of 100 lines
                sent += texts(await receive(ws, "chat"))
            assert [seq for seq, _, _ in sent] == list(range(6, KEPT + 6))
            assert sent[-1] == (KEPT + 5, 1, f"line {KEPT + 5}")
        # The next line said drops the older ones from the store.
        await say(ws1, "d1", "hello")
        await receive(ws1, "ack")
        assert texts(await receive(ws0, "chat")) == [(KEPT + 6, 1, "hello")]
    stored = await store.chat_lines(table_id)
    assert [line.seq for line in stored] == list(range(7, KEPT + 7))


async def test_refused_lines_say_why_in_the_players_language(app: FastAPI) -> None:
    table_id, tokens = await people_table(app)
    path = f"/ws/tables/{table_id}"
    async with client(app) as c, aconnect_ws(path, c) as ws:
        await hello(ws, tokens[0], lang="fr")
        cases = [
            ("e1", "", "chat_empty"),
            ("e2", " \u202e\u2069\t\x07 ", "chat_empty"),
            ("e3", "x" * (MAX_CHARS + 1), "chat_too_long"),
        ]
        for client_id, text, code in cases:
            await say(ws, client_id, text)
            error = await receive(ws, "error")
            assert error == {
                "type": "error",
                "code": code,
                "message": i18n.t("fr", f"reason.{code}"),
                "client_id": client_id,
            }
        for n in range(BURST):
            await say(ws, f"ok{n}", "é" * MAX_CHARS if n == 0 else f"ligne {n}")
            assert (await receive(ws, "ack"))["client_id"] == f"ok{n}"
        await say(ws, "fast", "une de trop")
        error = await receive(ws, "error")
        assert (error["code"], error["client_id"]) == ("chat_too_fast", "fast")
        assert error["message"] == ("Au plus 5 messages en 10 secondes\u00a0: patientez.")
    stored = await app.state.chat.lines_since(table_id, 0)
    assert [line.text for line in stored] == ["é" * MAX_CHARS] + [
        f"ligne {n}" for n in (1, 2, 3, 4)
    ]


async def test_a_chat_line_never_makes_a_move_lose_its_version_race(app: FastAPI) -> None:
    table_id, tokens = await people_table(app)
    path = f"/ws/tables/{table_id}"
    async with client(app) as c, aconnect_ws(path, c) as ws0, aconnect_ws(path, c) as ws1:
        states = {0: await hello(ws0, tokens[0]), 1: await hello(ws1, tokens[1])}
        version = states[0]["version"]
        seat = states[0]["view"]["deal"]["to_act"]
        mover, other = (ws0, ws1) if seat == 0 else (ws1, ws0)
        for n in range(3):
            await say(other, f"c{n}", f"hurry up {n}")
            assert (await receive(other, "ack"))["version"] == version
        for n in range(3):
            assert texts(await receive(mover, "chat")) == [(n + 1, 1 - seat, f"hurry up {n}")]
        action = states[seat]["view"]["deal"]["legal"][0]
        await mover.send_text(
            json.dumps({"type": "act", "client_id": "m1", "action": action, "version": version})
        )
        ack = await receive(mover, "ack")
        assert (ack["client_id"], ack["version"]) == ("m1", version + 1)
    assert (await app.state.tables.load(table_id)).version == version + 1


async def test_no_chat_without_a_seat_at_a_table_of_people(app: FastAPI) -> None:
    table_id, tokens = await people_table(app)
    record, grants = await app.state.tables.create_table("chouine", (HUMAN, COMPUTER))
    path = f"/ws/tables/{table_id}"
    async with client(app) as c, aconnect_ws(path, c) as ws0:
        await hello(ws0, tokens[0])
        await say(ws0, "c1", "only for seats")
        await receive(ws0, "ack")
        # No hello: nothing but hello_first, and no line.
        async with aconnect_ws(path, c) as stranger:
            await stranger.send_text(json.dumps({"type": "chat_sync", "after": 0}))
            assert (await receive(stranger, "error"))["code"] == "hello_first"
            await say(stranger, "s1", "let me in")
            assert (await receive(stranger, "error"))["code"] == "hello_first"
        # Another table's token, or a made-up one: refused and closed, no line sent.
        for token in (grants[0].token, "x" * 32):
            frames: list[str] = []
            with pytest.raises(BaseException) as closed:
                async with aconnect_ws(path, c) as stranger:
                    await stranger.send_text(json.dumps({"type": "hello", "token": token}))
                    await stranger.send_text(json.dumps({"type": "chat_sync", "after": 0}))
                    while True:
                        frames.append(await asyncio.wait_for(stranger.receive_text(), 5))
            assert refusals(closed.value) == [4403]
            assert [json.loads(f)["code"] for f in frames] == ["bad_token"]
        # A seat at a table against the computer has no chat to read or write.
        async with aconnect_ws(f"/ws/tables/{record.id}", c) as alone:
            await alone.send_text(json.dumps({"type": "hello", "token": grants[0].token}))
            await receive(alone, "state")
            await alone.send_text(json.dumps({"type": "chat_sync", "after": 0}))
            assert (await receive(alone, "error"))["code"] == "chat_closed"
            await say(alone, "a1", "hello?")
            error = await receive(alone, "error")
            assert (error["code"], error["client_id"]) == ("chat_closed", "a1")
    assert await app.state.chat.lines_since(record.id, 0) == []


@pytest.mark.parametrize("game", ["chouine", "charlemagne"])
async def test_the_table_page_carries_the_chats_numbers(app: FastAPI, game: str) -> None:
    """The page's chat takes the longest line and the lines kept from the page, which has
    them from veillee/live/chat.py and the settings: 500 characters, 500 lines."""
    table_id, _ = await people_table(app, game)
    async with client(app) as c:
        page = await c.get(f"/{game}/table/{table_id}")
    assert (MAX_CHARS, KEPT, app.state.settings.chat_kept) == (500, 500, 500)
    assert 'data-chat-max-chars="500" data-chat-kept="500"' in page.text
