"""One bus listener per record and process: whatever follows a record in a process (its versions,
who is here, its chat, its voice), the process listens to the record's one channel once, and
each message reaches the parts of its topic only."""

from __future__ import annotations

import asyncio

from fastapi import FastAPI
from httpx_ws import aconnect_ws

from tests.web.sockets import client, receive
from tests.web.test_table_chat import hello, people_table
from veillee.bus import InProcessBus
from veillee.live import Follower


async def test_a_channel_is_listened_to_once_and_each_topic_reaches_its_own() -> None:
    bus = InProcessBus()
    follower = Follower(bus)
    versions: list[str] = []
    here: list[str] = []
    async with (
        follower.follow("table:t1", "v", versions.append),
        follower.follow("table:t1", "here", here.append),
        follower.follow("table:t1", "v", lambda body: versions.append(f"again {body}")),
    ):
        assert len(bus._listeners["table:t1"]) == 1
        await follower.publish("table:t1", "v", "3")
        await follower.publish("table:t1", "here", '{"p": "x", "c": []}')
        await bus.publish("table:t1", "chat 1")  # no part of this topic follows here
        assert versions == ["3", "again 3"]
        assert here == ['{"p": "x", "c": []}']
    assert "table:t1" not in bus._listeners and not follower.following("table:t1")


async def test_a_handler_that_fails_leaves_the_others_their_message() -> None:
    follower = Follower(InProcessBus())
    heard: list[str] = []

    def broken(body: str) -> None:
        raise RuntimeError(body)

    async with follower.follow("r", "v", broken), follower.follow("r", "v", heard.append):
        await follower.publish("r", "v", "7")
    assert heard == ["7"]


async def test_a_table_of_people_is_one_listener_for_its_sockets_chat_presence_and_voice(
    app: FastAPI,
) -> None:
    table_id, tokens = await people_table(app, "charlemagne")
    bus = app.state.bus
    path = f"/ws/tables/{table_id}"
    async with client(app) as c, aconnect_ws(path, c) as ws0, aconnect_ws(path, c) as ws1:
        for seat, ws in ((0, ws0), (1, ws1)):
            await hello(ws, tokens[seat])
            await receive(ws, "presence")
        await ws0.send_json({"type": "voice_switch", "client_id": "v1", "on": True})
        await receive(ws1, "voice")
        await asyncio.sleep(0.05)
        channels = {channel: len(found) for channel, found in bus._listeners.items() if found}
        assert channels == {f"table:{table_id}": 1}
