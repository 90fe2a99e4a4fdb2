"""Voice across two processes joined by Redis: the switch, the seats in voice and a signal reach
the process that holds the other seat's socket."""

from __future__ import annotations

import secrets

from tests.live.test_voice import Page, until
from veillee.bus import RedisBus
from veillee.live import Follower
from veillee.live.voice import VoiceRooms


async def test_voice_rooms_keep_in_step_over_redis(redis_url: str) -> None:
    bus_a, bus_b = RedisBus(redis_url), RedisBus(redis_url)
    one = VoiceRooms(Follower(bus_a), "table:{}".format)
    two = VoiceRooms(Follower(bus_b), "table:{}".format)
    table = "t" + secrets.token_hex(6)
    host, friend = Page(0), Page(1)
    try:
        async with one.watch(table, host), two.watch(table, friend):
            await one.switch(table, True)
            await until(lambda: two.state(table).enabled)
            join_host = await one.join(table, host, muted=False)
            join_friend = await two.join(table, friend, muted=False)
            await until(lambda: set(one.state(table).members) == {0, 1})
            await one.signal(table, host, 1, join_friend, {"kind": "offer", "sdp": "v=0"})
            await until(lambda: bool(friend.signals))
            assert friend.signals == [
                {"kind": "offer", "sdp": "v=0", "from_seat": 0, "from_join": join_host}
            ]
            await one.switch(table, False)
            await until(lambda: not two.state(table).enabled and not friend.states[-1].members)
    finally:
        for rooms in (one, two):
            await rooms.close()
        await bus_a.close()
        await bus_b.close()
