"""Rules §10 through the table service: over 200+ parties between two computer players, no
message sent to a seat holds a card that seat may not see at that moment, nor any deck order or
seed."""

from __future__ import annotations

import asyncio
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
from veillee.store import Store
from veillee.tables import COMPUTER, HUMAN, TableService, chat, seat_view
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
