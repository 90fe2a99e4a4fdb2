"""Rules §10 through the table service: over 200+ parties between two computer players, no
message sent to a seat holds a card that seat may not see at that moment, nor any deck order or
seed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from tests.web.sockets import refusals
from veillee.bus import InProcessBus
from veillee.config import Settings
from veillee.games import find
from veillee.live import chat
from veillee.store import Store
from veillee.tables import COMPUTER, HUMAN, TableService, seat_view
from veillee.web.table_protocol import StateOut

CARD = re.compile(r"(?<![A-Za-z0-9])([AKQJT987][SHDC])(?![A-Za-z0-9])")
SECRET_KEYS = re.compile(r'"(deck|seed|talon|hands|rng|state)"\s*:')


def hidden_from(deal: dict[str, Any], seat: int) -> set[str]:
    """The cards ``seat`` may not see now, from the full partie state (rules §10): the talon's
    face-down cards and the opponent's hand, less what the opponent has shown (the other cards
    of its declarations once their trick is complete, a turn-up it took)."""
    other = 1 - seat
    over = deal["to_act"] is None
    shown: set[str] = set()
    for declaration in deal["declarations"]:
        complete = declaration["trick"] < deal["trick_number"]
        # A chouine that ends the partie is shown at once; nothing else of that trick (§9).
        winning_chouine = over and declaration["kind"] == "chouine"
        if declaration["seat"] == other and (complete or winning_chouine):
            shown.update(declaration["cards"])
    for taken in deal["taken_turn_ups"]:
        if taken["seat"] == other:
            shown.add(taken["card"])
    return (set(deal["hands"][other]) - shown) | set(deal["talon"])


SEED = 20261129
"""One seed for the table ids, the deals and both computer players: a failure reproduces."""


def check_message(text: str, hidden: set[str], where: str) -> None:
    """Fail, saying ``where`` (party, seat, version) and which card or key, if ``text`` shows a
    card of ``hidden`` or a secret key."""
    leaked = sorted(set(CARD.findall(text)) & hidden)
    assert not leaked, f"{where}: hidden card(s) {leaked} sent in {text}"
    secret = SECRET_KEYS.search(text)
    assert secret is None, f"{where}: secret key {secret.group(1)!r} sent in {text}"


async def play_parties(tmp_path: Path, seed: int, wanted: int) -> tuple[int, int]:
    """Computer against computer through the table service (seeded) until ``wanted`` parties
    are over, checking both seats' state messages at every version; (parties, messages)."""
    settings = Settings(data_dir=tmp_path, bot_delay_ms=0, trick_pause_ms=0)
    store = await Store.open(settings.resolved_database_url())
    service = TableService(store, InProcessBus(), settings, autoplay=False, seed=seed)
    parties = messages = 0
    try:
        while parties < wanted:
            record, grants = await service.create_table("chouine", (COMPUTER, COMPUTER))
            assert grants == []
            was_over = False
            while record is not None:
                deal = record.data["match"]["deal"]
                for seat in (0, 1):
                    text = StateOut(**seat_view(record, seat)).model_dump_json()
                    messages += 1
                    where = (
                        f"seed {seed}, party {parties + 1}, table {record.id} "
                        f"v{record.version}, seat {seat}"
                    )
                    check_message(text, hidden_from(deal, seat), where)
                over = deal["to_act"] is None
                parties += over and not was_over
                was_over = over
                record = await service.step(record.id, record=record)
    finally:
        await service.close()
        await store.close()
    return parties, messages


async def test_no_message_shows_a_hidden_card_over_200_parties(tmp_path: Path) -> None:
    started = time.perf_counter()
    parties, messages = await play_parties(tmp_path, SEED, 200)
    elapsed = time.perf_counter() - started
    assert parties >= 200 and messages > 200 * 30
    print(f"{parties} parties, {messages} messages checked in {elapsed:.1f} s")


def test_hidden_cards_are_what_rules_10_says() -> None:
    deal = {
        "to_act": 0,
        "trick_number": 5,
        "hands": [["AH", "7S"], ["KH", "QH", "8C", "KS", "9S"]],
        "talon": ["9D", "TC"],
        "declarations": [
            {"seat": 1, "kind": "tierce", "cards": ["JH", "KH", "QH"], "trick": 4, "card": "JH"},
        ],
        "taken_turn_ups": [{"seat": 1, "card": "KS", "how": "swap"}],
    }
    # The tierce was declared with JH in trick 4 (complete): KH and QH are shown; KS was taken.
    assert hidden_from(deal, 0) == {"8C", "9S", "9D", "TC"}
    assert hidden_from(deal, 1) == {"AH", "7S", "9D", "TC"}
    # While the declaration's trick is still open only the card played is shown.
    assert hidden_from({**deal, "trick_number": 4}, 0) == {"KH", "QH", "8C", "9S", "9D", "TC"}
    # A chouine ends the partie: its five cards are shown, the loser's hand stays hidden.
    chouine = {
        "to_act": None,
        "trick_number": 1,
        "hands": [["AC", "TC", "KC", "QC"], ["KH", "QH", "8C", "9S", "7D"]],
        "talon": ["9D", "8S"],
        "declarations": [
            {"seat": 0, "kind": "chouine", "cards": ["AC", "TC", "KC", "QC", "JC"], "trick": 1},
            {"seat": 1, "kind": "mariage", "cards": ["KH", "QH"], "trick": 1},
        ],
        "taken_turn_ups": [],
    }
    assert hidden_from(chouine, 1) == {"9D", "8S"}
    assert hidden_from(chouine, 0) == {"KH", "QH", "8C", "9S", "7D", "9D", "8S"}


async def test_every_websocket_frame_respects_what_each_seat_may_see(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two seats over real sockets (in-process), both played by the computer player from their
    own observation, talking in the table's chat now and then; every frame each socket receives
    (states, acks, chat lines) is scanned against the state it shows."""
    app.state.settings.max_messages_per_second = 10_000.0  # the test plays faster than people
    monkeypatch.setattr(chat, "BURST", 10_000)  # and talks faster
    # A seeded service in place of the app's, so the deals (and so any failure) reproduce.
    service = TableService(
        app.state.store, app.state.bus, app.state.settings, autoplay=False, seed=SEED
    )
    app.state.tables = service
    record, grants = await service.create_table("chouine", (HUMAN, HUMAN), {"best_of": 3})
    tokens = {g.seat: g.token for g in grants}
    game = find("chouine")
    rng = random.Random(11)
    frames = parties = chat_frames = 0
    transport = ASGIWebSocketTransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        path = f"/ws/tables/{record.id}"
        async with aconnect_ws(path, client) as ws0, aconnect_ws(path, client) as ws1:
            sockets = {0: ws0, 1: ws1}
            for seat, ws in sockets.items():
                await ws.send_text(json.dumps({"type": "hello", "token": tokens[seat]}))
                await ws.send_text(json.dumps({"type": "chat_sync", "after": 0}))
            version = 0
            while True:
                # Nothing moves the table but this loop: the stored record is the state that
                # every frame up to this version showed.
                received = {seat: await _frames(ws, version) for seat, ws in sockets.items()}
                record = await service.load(record.id)
                assert record.version == version
                for seat, texts in received.items():
                    hidden = hidden_from(record.data["match"]["deal"], seat)
                    for text in texts:
                        where = f"seed {SEED}, party {parties + 1}, v{version}, seat {seat}"
                        check_message(text, hidden, where)
                        frames += 1
                        chat_frames += json.loads(text)["type"] == "chat"
                m = game.match.from_json(record.data["match"])
                ready = record.data["ready"]
                if game.match.deal_over(m):
                    # Each seat says it is ready; the next partie (or, after the match, a new
                    # match) comes with the second.
                    if not ready:
                        parties += 1
                        if parties >= 12:
                            break
                    seat = next(s for s in (0, 1) if s not in ready)
                    change: dict[str, Any] = {"type": "next", "version": version}
                else:
                    seat = game.match.to_act(m)
                    observation = game.match.observation(m, seat)["deal"]
                    action = game.player.choose(observation, game.match.legal_actions(m), rng)
                    change = {"type": "act", "action": str(action), "version": version}
                change["client_id"] = f"c{version}"
                if version % 7 == 0:
                    # A chat line is one more message type under the scan (it never moves
                    # the version this loop counts).
                    line = {"type": "chat", "client_id": f"t{version}", "text": f"v{version}!"}
                    await sockets[seat].send_text(json.dumps(line))
                await sockets[seat].send_text(json.dumps(change))
                version += 1
    assert parties >= 12 and frames > 12 * 30
    assert chat_frames > 2 * 12 * 3  # both seats heard every line


async def _frames(ws: AsyncWebSocketSession, version: int) -> list[str]:
    """This seat's frames up to and including its state at ``version``."""
    texts = []
    while True:
        text = await asyncio.wait_for(ws.receive_text(), 30)  # a loaded CI machine is slow
        texts.append(text)
        message = json.loads(text)
        assert message["type"] != "error", f"v{version}: {message}"
        if message["type"] == "state" and message["version"] == version:
            return texts


async def test_a_shared_table_shows_each_seat_only_its_own_after_reloads_a_restart_and_resume(
    app: FastAPI,
) -> None:
    """Two friends at a shared table made and joined over HTTP, each playing from its own
    observation: every frame each socket receives (states, presence, acks), the answer of the
    resume request for each seat's token, and everything after a seat reloads (a new socket) or
    after the server restarts (a new table service on the same store, every socket again) is
    scanned against what that seat may see at that moment."""
    app.state.settings.max_messages_per_second = 10_000.0
    app.state.tables = TableService(
        app.state.store, app.state.bus, app.state.settings, autoplay=False, seed=SEED
    )
    game = find("chouine")
    rng = random.Random(SEED + 1)
    frames = resumes = reloads = parties = 0
    transport = ASGIWebSocketTransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        made = await client.post(
            "/api/tables", json={"game": "chouine", "options": {"best_of": 3}, "shared": True}
        )
        table_id = made.json()["table_id"]
        joined = await client.post(f"/api/tables/{table_id}/seats")
        tokens = {0: made.json()["token"], 1: joined.json()["token"]}
        path = f"/ws/tables/{table_id}"

        async def scan(seat: int, texts: list[str], what: str) -> None:
            nonlocal frames
            record = await app.state.tables.load(table_id)
            hidden = hidden_from(record.data["match"]["deal"], seat)
            for text in texts:
                check_message(text, hidden, f"seed {SEED}, v{record.version}, seat {seat}, {what}")
                frames += 1

        pages = contextlib.AsyncExitStack()
        sockets: dict[int, AsyncWebSocketSession] = {}

        async def reload(first: int, version: int) -> None:
            """Both pages go (their sockets close, last opened first) and come back, ``first``
            first; every frame of the new sockets up to the table as it stands is scanned."""
            nonlocal pages
            await pages.aclose()
            pages = contextlib.AsyncExitStack()
            for seat in (first, 1 - first):
                ws = await pages.enter_async_context(aconnect_ws(path, client))
                hello = {"type": "hello", "token": tokens[seat], "version": version}
                await ws.send_text(json.dumps(hello))
                await scan(seat, await _frames(ws, version), "after a reload")
                sockets[seat] = ws

        try:
            await reload(0, 1)
            version = 1  # the friend's seat taken
            while parties < 3:
                if version % 5 == 0:  # the resume list, asked by each seat's browser
                    for seat in (0, 1):
                        held = {"seats": [{"table_id": table_id, "token": tokens[seat]}]}
                        answer = await client.post("/api/tables/resume", json=held)
                        await scan(seat, [answer.text], "resume list")
                        resumes += 1
                if version % 7 == 0:  # one seat reloads its page: a new socket
                    await reload(version // 7 % 2, version)
                    reloads += 1
                if version == 40:  # the server restarts: a new service, every page again
                    app.state.tables = TableService(
                        app.state.store, app.state.bus, app.state.settings, autoplay=False
                    )
                    await reload(1, version)
                record = await app.state.tables.load(table_id)
                m = game.match.from_json(record.data["match"])
                if game.match.deal_over(m):
                    if not record.data["ready"]:
                        parties += 1
                    seat = next(s for s in (0, 1) if s not in record.data["ready"])
                    change: dict[str, Any] = {"type": "next"}
                else:
                    seat = game.match.to_act(m)
                    observation = game.match.observation(m, seat)["deal"]
                    action = game.player.choose(observation, game.match.legal_actions(m), rng)
                    change = {"type": "act", "action": str(action)}
                change.update(client_id=f"s{version}", version=version)
                await sockets[seat].send_text(json.dumps(change))
                version += 1
                for each, ws in sockets.items():
                    await scan(each, await _frames(ws, version), "playing")
        finally:
            await pages.aclose()
    assert parties >= 3 and resumes >= 10 and reloads >= 5 and frames > 3 * 60


async def test_no_chat_line_reaches_a_socket_or_page_without_a_seat(app: FastAPI) -> None:
    """The chat is the seats' only: a socket that has not said hello, one that said it with
    another table's token, and the table's page itself carry none of its lines."""
    service: TableService = app.state.tables
    record, grants = await service.create_table("chouine", (HUMAN, HUMAN))
    _, other_grants = await service.create_table("chouine", (HUMAN, HUMAN))
    tokens = {g.seat: g.token for g in grants}
    said = ["quiet line one", "<b>quiet</b> line two"]
    path = f"/ws/tables/{record.id}"
    transport = ASGIWebSocketTransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        async with (
            aconnect_ws(path, client) as seat0,
            aconnect_ws(path, client) as seat1,
            aconnect_ws(path, client) as stranger,
        ):
            for seat, ws in ((0, seat0), (1, seat1)):
                await ws.send_text(json.dumps({"type": "hello", "token": tokens[seat]}))
                await ws.send_text(json.dumps({"type": "chat_sync", "after": 0}))
            await stranger.send_text(json.dumps({"type": "chat_sync", "after": 0}))
            for n, text in enumerate(said):
                await seat0.send_text(
                    json.dumps({"type": "chat", "client_id": f"c{n}", "text": text})
                )
            heard = []
            while len(heard) < len(said):
                message = json.loads(await asyncio.wait_for(seat1.receive_text(), 5))
                if message["type"] == "chat":
                    heard += [line["text"] for line in message["lines"]]
            assert heard == said
            answer = json.loads(await asyncio.wait_for(stranger.receive_text(), 5))
            assert answer["code"] == "hello_first"
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(stranger.receive_text(), 0.5)
        # Another table's seat: refused at hello, closed, and sent nothing else.
        frames = []
        with pytest.raises(BaseException) as closed:
            async with aconnect_ws(path, client) as intruder:
                await intruder.send_text(
                    json.dumps({"type": "hello", "token": other_grants[0].token})
                )
                await intruder.send_text(json.dumps({"type": "chat_sync", "after": 0}))
                while True:
                    frames.append(json.loads(await asyncio.wait_for(intruder.receive_text(), 5)))
        assert refusals(closed.value) == [4403]
        assert [f["code"] for f in frames] == ["bad_token"]
        page = await client.get(f"/chouine/table/{record.id}")
        assert page.status_code == 200
        assert "quiet" not in page.text
