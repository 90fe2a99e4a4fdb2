"""Rules §12 at a Charlemagne table of four people, through four real table sockets: every frame
each seat receives — states, acks, who is there, and the table's chat, said now and then — shows
only the cards that seat may see at the version it describes, and no server-only key. Every seat
is played through its socket by the computer player from that seat's own observation."""

from __future__ import annotations

import json
import random
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from httpx_ws import aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from tests.games.card_scan import cards_named
from tests.games.charlemagne.conformance import allowed_cards
from tests.reliability.test_charlemagne_hidden_information import SERVER_ONLY, frames_until
from veillee.cards import PIQUET_JOKERS_34
from veillee.games import find
from veillee.live import chat
from veillee.tables import HUMAN, TableService


def scan(seat_frames: list[dict[str, Any]], deal: Any, seat: int, where: str) -> int:
    """Fail, saying ``where``, if a frame of ``seat_frames`` (one seat's, up to a version
    whose deal is ``deal``) names a card the seat may not see then (any card but in a state) or
    a server-only key; the number of frames scanned."""
    allowed = allowed_cards(deal, seat)
    for frame in seat_frames:
        shown = cards_named(json.loads(frame["text"]), PIQUET_JOKERS_34)
        limit = allowed if frame["type"] == "state" else set()
        assert shown <= limit, f"{sorted(shown - limit)} shown, {where}: {frame['text']}"
        assert SERVER_ONLY.search(frame["text"]) is None, f"{where}: {frame['text']}"
    return len(seat_frames)


SEED = 20261130
"""One seed for the table id, the deals and every decision: a failure reproduces."""
HANDS = 12


async def test_every_frame_to_each_of_four_people_respects_rules_12(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    app.state.settings.max_messages_per_second = 10_000.0  # the test plays faster than people
    monkeypatch.setattr(chat, "BURST", 10_000)  # and talks faster
    service = TableService(
        app.state.store, app.state.bus, app.state.settings, autoplay=False, seed=SEED
    )
    app.state.tables = service
    record, grants = await service.create_table("charlemagne", (HUMAN,) * 4)
    game = find("charlemagne")
    rng = random.Random(SEED)
    hands = frames = chat_frames = 0
    path = f"/ws/tables/{record.id}"
    transport = ASGIWebSocketTransport(app)
    async with (
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
        AsyncExitStack() as stack,
    ):
        sockets = {
            g.seat: await stack.enter_async_context(aconnect_ws(path, client)) for g in grants
        }
        for grant in grants:
            ws = sockets[grant.seat]
            await ws.send_text(json.dumps({"type": "hello", "token": grant.token}))
            await ws.send_text(json.dumps({"type": "chat_sync", "after": 0}))
        version = record.version
        while True:
            received = {s: await frames_until(ws, version) for s, ws in sockets.items()}
            # Nothing moves the table but this loop: the stored record is the table that every
            # frame up to this version showed.
            record = await service.load(record.id)
            assert record.version == version
            m = game.match.from_json(record.data["match"])
            for seat, seat_frames in received.items():
                where = f"seed {SEED}, hand {hands + 1}, v{version}, seat {seat}"
                frames += scan(seat_frames, m.deal, seat, where)
                chat_frames += sum(frame["type"] == "chat" for frame in seat_frames)
            if game.match.deal_over(m):
                ready = record.data.get("ready", [])
                if not ready:
                    hands += 1
                    if hands >= HANDS:
                        break
                seat = next(s for s in sockets if s not in ready)
                change: dict[str, Any] = {"type": "next", "version": version}
            else:
                seat = game.match.to_act(m)
                observation = game.match.observation(m, seat)["deal"]
                action = game.player.choose(observation, game.match.legal_actions(m), rng)
                change = {"type": "act", "action": str(action), "version": version}
            if version % 9 == 0:
                # Table talk: one more message type under the scan (no version moves).
                line = {"type": "chat", "client_id": f"t{version}", "text": f"v{version} ok"}
                await sockets[seat].send_text(json.dumps(line))
            change["client_id"] = f"c{version}"
            await sockets[seat].send_text(json.dumps(change))
            version += 1
        # Every seat heard every line: the chat reached the four seats and no one else.
        said = await app.state.chat.lines_since(record.id, 0)
        assert said and chat_frames >= 4 * len(said) - 4
    assert hands >= HANDS and frames > HANDS * 4 * 30
