"""Rules §12 at Charlemagne computer tables, through the real table socket: over 200+ hands, every
frame sent to the person's seat (North) shows only cards that seat may see at the version it
describes — never the kitty (unless North took it), a discard of anyone else, an unused kitty,
a sitting-out partner's thrown hand, or a blind card North is not party to — and no server-only
key. North is played through the socket by the computer player from North's own view (with
now and then a random bid, so that North also bids the solo contracts, passes a card blind and
sits out); East, South and West are the table's computer seats. The first hand is scripted
(through the test hook's functions) so that South bids Charlemagne."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections import Counter
from typing import Any

import httpx
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from tests.browser.charlemagne_player import CHARLEMAGNE_DEAL
from tests.games.card_scan import cards_named
from tests.games.charlemagne.conformance import allowed_cards
from veillee.cards import PIQUET_JOKERS_34
from veillee.games import find
from veillee.tables import TableService
from veillee.web.scripted_tables import ScriptedTable, scripted_match

SEED = 20261201
"""One seed for the table ids, the deals and every decision: a failure reproduces."""

HANDS = 200
SERVER_ONLY = re.compile(r'"(deck|seed|rng|hands|out_discards|blind|kitty_taken)"\s*:')
"""Keys of the stored match (rules.to_json) that a seat's frame must never carry."""


async def frames_until(ws: AsyncWebSocketSession, version: int) -> list[dict[str, Any]]:
    """This socket's frames up to and including its state at ``version``."""
    received = []
    while True:
        text = await asyncio.wait_for(ws.receive_text(), 30)  # a loaded CI machine is slow
        message = json.loads(text)
        received.append({"text": text, **message})
        assert message["type"] != "error", f"v{version}: {message}"
        if message["type"] == "state" and message["version"] == version:
            return received


def north_decides(
    observation: dict[str, Any], legal: list[Any], rng: random.Random, first_hand: bool
) -> Any:
    """The computer player's choice for North, or (after the first, scripted hand) now and then
    a random legal bid or choice."""
    game = find("charlemagne")
    wild = not first_hand and rng.random() < 0.3
    if observation["phase"] in ("auction", "choose") and wild:
        return rng.choice(legal)
    return game.player.choose(observation, legal, rng)


async def test_every_frame_to_the_person_at_a_computer_table_respects_rules_12(
    app: FastAPI,
) -> None:
    app.state.settings.max_messages_per_second = 10_000.0  # the test plays faster than people
    # A seeded service without autoplay: the test moves the computer seats itself (step), so
    # it knows the table behind every version a frame describes.
    service = TableService(
        app.state.store, app.state.bus, app.state.settings, autoplay=False, seed=SEED
    )
    app.state.tables = service
    # The first hand is dealt so that South bids Charlemagne (North passes it a card blind and
    # sits out: rare in random deals); the test hook's own functions seat North at it.
    scripted = scripted_match(ScriptedTable(game="charlemagne", deck=CHARLEMAGNE_DEAL, dealer=3))
    grant = await service.create_computer_table("charlemagne", {}, match=scripted)
    game = find("charlemagne")
    rng = random.Random(SEED)
    allowed_at: dict[int, set[str]] = {}
    seen: Counter[str] = Counter()
    hands = frames = 0
    transport = ASGIWebSocketTransport(app)
    async with (
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
        aconnect_ws(f"/ws/tables/{grant.table_id}", client) as ws,
    ):
        await ws.send_text(json.dumps({"type": "hello", "token": grant.token}))
        record = await service.load(grant.table_id)
        received = await frames_until(ws, record.version)
        while True:
            # Nothing moves the table but this loop: the stored record is the table that
            # the frames just received describe.
            version = record.version
            m = game.match.from_json(record.data["match"])
            allowed_at[version] = allowed_cards(m.deal, 0)
            for frame in received:
                where = f"seed {SEED}, hand {hands + 1}, v{version}: {frame['text']}"
                shown = cards_named(json.loads(frame["text"]), PIQUET_JOKERS_34)
                limit = allowed_at[frame["version"]] if frame["type"] == "state" else set()
                assert shown <= limit, f"{sorted(shown - limit)} shown, {where}"
                assert SERVER_ONLY.search(frame["text"]) is None, where
                frames += 1
            tally(seen, m.deal)
            if game.match.to_act(m) not in (0, None):
                stepped = await service.step(grant.table_id, record=record)
                assert stepped is not None and stepped.version == version + 1
                record = stepped
                received = await frames_until(ws, version + 1)
                continue
            if game.match.deal_over(m):
                hands += 1
                if hands >= HANDS:
                    break
                change: dict[str, Any] = (
                    {"type": "new_match", "options": {}}
                    if game.match.is_over(m)
                    else {"type": "next", "version": version}
                )
            else:
                observation = game.match.observation(m, 0)["deal"]
                legal = game.match.legal_actions(m)
                action = north_decides(observation, legal, rng, first_hand=hands == 0)
                change = {"type": "act", "action": str(action), "version": version}
            change["client_id"] = f"c{version}"
            await ws.send_text(json.dumps(change))
            received = await frames_until(ws, version + 1)
            record = await service.load(grant.table_id)
            assert record.version == version + 1
    assert hands >= HANDS and frames > HANDS * 20
    # North met every situation §12 speaks of, from every side of it.
    for situation in (
        "north took the kitty",
        "north discarded",
        "another seat took the kitty",
        "north passed a card blind",
        "north received a blind card",
        "north sat out",
        "an unused kitty",
        "a hand stopped early",
    ):
        assert seen[situation] > 0, (situation, seen)


def tally(seen: Counter[str], deal: Any) -> None:
    """Count the §12 situations the hand shows at this version (see the test's end)."""
    bidder = deal.bidder
    if bidder is None:
        return
    if deal.kitty_taken:
        seen["north took the kitty" if bidder == 0 else "another seat took the kitty"] += 1
    if deal.discards and bidder == 0:
        seen["north discarded"] += 1
    if deal.blind is not None and bidder == 0:
        seen["north received a blind card"] += 1
    if deal.blind is not None and bidder == 2:
        seen["north passed a card blind"] += 1
    if deal.sitting_out == 0 and deal.out_discards:
        seen["north sat out"] += 1
    if deal.phase == "play" and not deal.kitty_taken:
        seen["an unused kitty"] += 1
    if deal.phase == "over" and len(deal.tricks) < 8:
        seen["a hand stopped early"] += 1


SHARED_HANDS = 12


async def test_every_frame_to_each_seat_of_a_four_seat_shared_table_respects_rules_12(
    app: FastAPI,
) -> None:
    """Four people at a shared table, seated through their seat links over HTTP, each playing
    from its own observation (now and then a random bid): every frame each seat's socket
    receives (states, acks, presence), the resume request's answer for each seat's token, and
    everything after a seat reloads (a new socket) or the server restarts (a new table service on
    the same store, every page again) shows only the cards that seat may see at that version."""
    app.state.settings.max_messages_per_second = 10_000.0
    app.state.tables = TableService(
        app.state.store, app.state.bus, app.state.settings, autoplay=False, seed=SEED + 4
    )
    game = find("charlemagne")
    rng = random.Random(SEED + 4)
    scripted = scripted_match(ScriptedTable(game="charlemagne", deck=CHARLEMAGNE_DEAL, dealer=3))
    host = await app.state.tables.create_shared_table("charlemagne", match=scripted)
    table_id, path = host.table_id, f"/ws/tables/{host.table_id}"
    allowed_at: dict[tuple[int, int], set[str]] = {}
    seen: Counter[str] = Counter()
    frames = resumes = reloads = restarts = hands = 0
    transport = ASGIWebSocketTransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        tokens = {0: host.token}
        for seat in (2, 1, 3):  # the partner's link first, then the opponents'
            joined = await client.post(f"/api/tables/{table_id}/seats", json={"seat": seat})
            assert joined.status_code == 201 and joined.json()["seat"] == seat
            tokens[seat] = joined.json()["token"]
        pages = contextlib.AsyncExitStack()
        sockets: dict[int, AsyncWebSocketSession] = {}

        def scan(seat: int, received: list[dict[str, Any]], what: str) -> None:
            nonlocal frames
            for frame in received:
                where = f"seed {SEED + 4}, hand {hands + 1}, seat {seat}, {what}: {frame['text']}"
                shown = cards_named(json.loads(frame["text"]), PIQUET_JOKERS_34)
                limit = allowed_at[(frame["version"], seat)] if frame["type"] == "state" else set()
                assert shown <= limit, f"{sorted(shown - limit)} shown, {where}"
                assert SERVER_ONLY.search(frame["text"]) is None, where
                frames += 1

        async def reload(first: int, version: int) -> None:
            """Every page goes (its socket closes, the last opened first) and comes back, seat
            ``first`` first; each new socket is scanned up to ``version``."""
            nonlocal pages
            await pages.aclose()
            pages = contextlib.AsyncExitStack()
            for seat in [(first + k) % 4 for k in range(4)]:
                ws = await pages.enter_async_context(aconnect_ws(path, client))
                await ws.send_text(json.dumps({"type": "hello", "token": tokens[seat]}))
                scan(seat, await frames_until(ws, version), "after a reload")
                sockets[seat] = ws

        try:
            record = await app.state.tables.load(table_id)
            m = game.match.from_json(record.data["match"])
            for seat in range(4):
                allowed_at[(record.version, seat)] = allowed_cards(m.deal, seat)
            await reload(0, record.version)
            while hands < SHARED_HANDS:
                version = record.version
                if version % 11 == 0:  # the resume list, asked by each seat's browser
                    for seat in range(4):
                        held = {"seats": [{"table_id": table_id, "token": tokens[seat]}]}
                        answer = await client.post("/api/tables/resume", json=held)
                        scan(seat, [{"text": answer.text, "type": "resume"}], "resume list")
                        resumes += 1
                if version % 13 == 0:  # the pages reload, a different one first each time
                    await reload(version // 13 % 4, version)
                    reloads += 1
                if version % 150 == 0:  # the server restarts: every page comes again
                    app.state.tables = TableService(
                        app.state.store, app.state.bus, app.state.settings, autoplay=False
                    )
                    await reload(3, version)
                    restarts += 1
                tally_any(seen, m.deal)
                change: dict[str, Any]
                if game.match.deal_over(m):
                    if not record.data["ready"]:
                        hands += 1
                    seat = next(s for s in range(4) if s not in record.data["ready"])
                    change = {"type": "next"}
                else:
                    seat = game.match.to_act(m)
                    observation = game.match.observation(m, seat)["deal"]
                    legal = game.match.legal_actions(m)
                    wild = hands > 0 and observation["phase"] in ("auction", "choose")
                    if wild and rng.random() < 0.3:
                        action = rng.choice(legal)
                    else:
                        action = game.player.choose(observation, legal, rng)
                    change = {"type": "act", "action": str(action), "version": version}
                change["client_id"] = f"c{version}"
                await sockets[seat].send_text(json.dumps(change))
                record = await _next_version(app, table_id, version)
                m = game.match.from_json(record.data["match"])
                for each in range(4):
                    allowed_at[(record.version, each)] = allowed_cards(m.deal, each)
                for each, ws in sockets.items():
                    scan(each, await frames_until(ws, record.version), "playing")
        finally:
            await pages.aclose()
    assert hands >= SHARED_HANDS and frames > SHARED_HANDS * 4 * 20
    assert resumes >= 40 and reloads >= 10 and restarts >= 1
    for situation in ("a kitty taken", "a card passed blind", "a seat sat out", "an unused kitty"):
        assert seen[situation] > 0, (situation, seen)


async def _next_version(app: FastAPI, table_id: str, version: int) -> Any:
    """The table once the change just sent has been written (``version + 1``)."""
    for _ in range(500):
        record = await app.state.tables.load(table_id)
        if record.version > version:
            assert record.version == version + 1
            return record
        await asyncio.sleep(0.005)
    raise AssertionError(f"the change at v{version} was not written")


def tally_any(seen: Counter[str], deal: Any) -> None:
    """Count the §12 situations the hand shows at this version, whichever seat is in them."""
    if deal.bidder is None:
        return
    if deal.kitty_taken:
        seen["a kitty taken"] += 1
    if deal.blind is not None:
        seen["a card passed blind"] += 1
    if deal.sitting_out is not None and deal.out_discards:
        seen["a seat sat out"] += 1
    if deal.phase == "play" and not deal.kitty_taken:
        seen["an unused kitty"] += 1
