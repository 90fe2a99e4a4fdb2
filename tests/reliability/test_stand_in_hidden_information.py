"""Rules §12 at a Charlemagne table of four people one of whom has gone, through three real table
sockets and the computer standing in for the fourth (issue 25): every frame each person still
there receives shows only the cards that seat may see at the version it describes, and no
server-only key; every decision of the stand-in is a job of the deciders every computer
decision takes, carrying that seat's observation and legal actions only."""

from __future__ import annotations

import json
import random
from contextlib import AsyncExitStack
from typing import Any

import httpx
from fastapi import FastAPI
from httpx_ws import aconnect_ws
from httpx_ws.transport import ASGIWebSocketTransport

from tests.reliability.test_charlemagne_four_seats_hidden_information import scan
from tests.reliability.test_charlemagne_hidden_information import frames_until
from tests.tables.test_stand_ins import Recording
from veillee.games import find
from veillee.tables import TableService

SEED = 20261202
"""One seed for the table id, the deals and every decision: a failure reproduces."""
HANDS = 4
GONE = 1
"""East's person has gone: the computer stands in."""


async def test_a_stand_in_decides_from_its_seat_and_every_frame_respects_rules_12(
    app: FastAPI,
) -> None:
    app.state.settings.max_messages_per_second = 10_000.0  # the test plays faster than people
    app.state.settings.stand_in_after_s = 0
    deciders = Recording()
    service = TableService(
        app.state.store,
        app.state.bus,
        app.state.settings,
        autoplay=False,
        seed=SEED,
        deciders=deciders,
    )
    app.state.tables = service
    host = await service.create_shared_table("charlemagne")
    grants = [host] + [await service.join(host.table_id, seat) for seat in (1, 2, 3)]
    table_id = host.table_id
    game = find("charlemagne")
    rng = random.Random(SEED)
    hands = frames = stood = 0
    path = f"/ws/tables/{table_id}"
    transport = ASGIWebSocketTransport(app)
    async with (
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
        AsyncExitStack() as stack,
    ):
        sockets = {}
        for grant in grants:
            if grant.seat == GONE:
                continue
            ws = await stack.enter_async_context(aconnect_ws(path, client))
            await ws.send_text(json.dumps({"type": "hello", "token": grant.token}))
            sockets[grant.seat] = ws
        version = (await service.load(table_id)).version
        await sockets[0].send_text(json.dumps({"type": "stand_in", "client_id": "s", "seat": GONE}))
        version += 1
        while True:
            received = {s: await frames_until(ws, version) for s, ws in sockets.items()}
            record = await service.load(table_id)
            assert record.version == version
            m = game.match.from_json(record.data["match"])
            for seat, seat_frames in received.items():
                where = f"seed {SEED}, hand {hands + 1}, v{version}, seat {seat}"
                frames += scan(seat_frames, m.deal, seat, where)
            change: dict[str, Any]
            if game.match.deal_over(m):
                ready = record.data.get("ready", [])
                if not ready:
                    hands += 1
                    if hands >= HANDS:
                        break
                seat = next(s for s in sockets if s not in ready)
                change = {"type": "next", "version": version}
            elif (seat := game.match.to_act(m)) == GONE:
                asked = len(deciders.jobs)
                assert await service.step(table_id) is not None
                [job] = deciders.jobs[asked:]
                assert job.seat == GONE and job.version == version
                assert job.observation == game.match.observation(m, GONE)
                assert list(job.legal) == [str(a) for a in game.match.legal_actions(m)]
                stood += 1
                version += 1
                continue
            else:
                observation = game.match.observation(m, seat)["deal"]
                action = game.player.choose(observation, game.match.legal_actions(m), rng)
                change = {"type": "act", "action": str(action), "version": version}
            change["client_id"] = f"c{version}"
            await sockets[seat].send_text(json.dumps(change))
            version += 1
    assert hands >= HANDS and stood > HANDS * 4 and frames > HANDS * 3 * 30
