"""Presence across processes (two :class:`Presence` on one bus stand for two servers): each
side learns who is at the record through the other at once, a socket that goes is told, and a
process that dies without a word stops counting once what it said lapses."""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any

from veillee.bus import InProcessBus
from veillee.live import Follower, Presence


class Socket:
    """A socket at record ``r1`` with viewer key ``key``, keeping what it is told."""

    def __init__(self, key: Hashable) -> None:
        self.record_id = "r1"
        self.key: Hashable | None = key
        self.told: list[list[Any]] = []

    def push_presence(self, here: list[Any]) -> None:
        self.told.append(here)


async def told(socket: Socket, here: list[Any]) -> None:
    """Wait (up to 5 s) until ``socket`` was last told ``here``."""
    for _ in range(500):
        if socket.told and socket.told[-1] == here:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"told {socket.told}, not {here}")


def channel(record_id: str) -> str:
    return f"table:{record_id}"


async def test_two_processes_see_each_others_sockets_come_and_go() -> None:
    bus = InProcessBus()
    first, second = Presence(Follower(bus), channel), Presence(Follower(bus), channel)
    host, friend = Socket(0), Socket(1)
    await first.enter(host)
    await told(host, [0])
    await second.enter(friend)
    await told(friend, [0, 1])  # learned from the first process's answer, not a beacon
    await told(host, [0, 1])
    await second.leave(friend)
    await told(host, [0])
    await first.leave(host)
    assert first.here("r1") == [] and second.here("r1") == []


async def test_a_process_that_dies_without_a_word_stops_counting() -> None:
    bus = InProcessBus()
    first = Presence(Follower(bus), channel, refresh_s=0.1, forget_s=0.3)
    second = Presence(Follower(bus), channel, refresh_s=0.1, forget_s=0.3)
    host, friend = Socket(0), Socket(1)
    await first.enter(host)
    await second.enter(friend)
    await told(host, [0, 1])
    # Beacons keep the friend counted for longer than what is heard lasts.
    await asyncio.sleep(0.6)
    assert host.told[-1] == [0, 1]
    # kill -9: the second process says nothing more.
    await second.claims.close()  # a process that dies has no goodbye
    await told(host, [0])
    await first.leave(host)
