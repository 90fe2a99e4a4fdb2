"""Voice rooms across processes: two or three :class:`VoiceRooms` on one bus stand for server
processes; each sees the others' seats in voice, relays a signal to the process that holds the
seat it is for, and a switch made in one ends voice in all."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import pytest

from veillee.bus import Bus, InProcessBus
from veillee.live import Follower, Refusal
from veillee.live.voice import VoiceRooms, VoiceState


class Page:
    """A seat's socket, as the room sees it."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.states: list[VoiceState] = []
        self.signals: list[dict[str, Any]] = []

    def push_voice(self, state: VoiceState) -> None:
        self.states.append(state)

    def push_signal(self, signal: dict[str, Any]) -> None:
        self.signals.append(signal)


def rooms_of(bus: Bus, **timing: float) -> VoiceRooms:
    """The voice rooms of one server process on ``bus`` (tables' channels)."""
    return VoiceRooms(Follower(bus), "table:{}".format, **timing)


async def until(check: Callable[[], bool]) -> None:
    for _ in range(200):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never")


async def test_rooms_on_one_bus_share_the_switch_the_members_and_the_signals() -> None:
    bus = InProcessBus()
    one, two = rooms_of(bus), rooms_of(bus)
    a, b = Page(0), Page(1)
    async with contextlib.AsyncExitStack() as stack:
        await stack.enter_async_context(one.watch("t1", a))
        await stack.enter_async_context(two.watch("t1", b))
        await one.switch("t1", True)
        await until(lambda: two.state("t1").enabled)
        join_a = await one.join("t1", a, muted=False)
        join_b = await two.join("t1", b, muted=True)
        await until(lambda: set(one.state("t1").members) == {0, 1})
        assert one.state("t1") == two.state("t1")
        assert b.states[-1].members[0].join == join_a
        assert a.states[-1].members[1].muted is True
        await two.signal("t1", b, 0, join_a, {"kind": "offer", "sdp": "v=0"})
        await until(lambda: bool(a.signals))
        assert a.signals == [{"kind": "offer", "sdp": "v=0", "from_seat": 1, "from_join": join_b}]
        assert b.signals == []
        with pytest.raises(Refusal, match="voice_peer_not_joined"):
            await two.signal("t1", b, 0, "f" * 16, {"kind": "offer", "sdp": ""})
        # A third process that starts following the table is told by the others.
        three, c = rooms_of(bus), Page(2)
        await stack.enter_async_context(three.watch("t1", c))
        await until(lambda: set(three.state("t1").members) == {0, 1})
        # Off in one: every process's seats are out of voice.
        await one.switch("t1", False)
        await until(lambda: not two.state("t1").enabled and not three.state("t1").enabled)
        assert b.states[-1] == VoiceState(False, {})
        with pytest.raises(Refusal, match="voice_not_joined"):
            await two.signal("t1", b, 0, join_a, {"kind": "offer", "sdp": ""})
        # On again: nobody is in voice until they join again.
        await one.switch("t1", True)
        await until(lambda: three.state("t1") == VoiceState(True, {}))
        assert two.state("t1") == VoiceState(True, {})
        for rooms in (one, two, three):
            await rooms.close()


async def test_a_room_outlives_its_last_socket_for_the_grace_time() -> None:
    rooms = rooms_of(InProcessBus(), grace_s=0.2)
    page = Page(0)
    async with rooms.watch("t1", page):
        await rooms.switch("t1", True)
    async with rooms.watch("t1", Page(0)):
        assert rooms.state("t1").enabled  # back within the grace time: still on
    await asyncio.sleep(0.4)
    assert rooms.state("t1") == VoiceState(False, {})
    await rooms.close()


async def test_a_seat_claimed_by_two_processes_is_its_newer_join() -> None:
    """A page that reconnects through another process before the old socket is found dead: the
    seat's newer join counts everywhere, so the page does not take itself for replaced."""
    bus = InProcessBus()
    one, two = rooms_of(bus), rooms_of(bus)
    old, new, other = Page(1), Page(1), Page(0)
    async with one.watch("t1", old), one.watch("t1", other), two.watch("t1", new):
        await one.switch("t1", True)
        await until(lambda: two.state("t1").enabled)
        await one.join("t1", old, muted=False)
        await until(lambda: 1 in two.state("t1").members)
        joined = await two.join("t1", new, muted=True)
        for rooms in (one, two):
            await until(lambda rooms=rooms: rooms.state("t1").members[1].join == joined)
        assert other.states[-1].members[1].muted is True
    for rooms in (one, two):
        await rooms.close()


async def test_the_seats_of_a_process_killed_without_a_word_leave_voice() -> None:
    bus = InProcessBus()
    one = rooms_of(bus, refresh_s=0.05, forget_s=0.3)
    two = rooms_of(bus, refresh_s=0.05, forget_s=0.3)
    host, friend = Page(0), Page(1)
    async with one.watch("t1", host):
        await one.switch("t1", True)
        await one.join("t1", host, muted=False)
        watching = two.watch("t1", friend)
        await watching.__aenter__()
        await until(lambda: two.state("t1").enabled)
        await two.join("t1", friend, muted=False)
        await until(lambda: set(one.state("t1").members) == {0, 1})
        # Alive, it stays: its claims are said again before they are forgotten.
        await asyncio.sleep(0.5)
        assert set(one.state("t1").members) == {0, 1}
        await two.close()  # killed: no leave is said
        await until(lambda: set(one.state("t1").members) == {0})
        assert set(host.states[-1].members) == {0}
    await one.close()
