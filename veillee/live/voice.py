"""Voice beside a live record (a shared table, issue 13): who is in voice, and the relay of the
connection set-up.

The sound goes from browser to browser (WebRTC); the server only says who is in voice and
passes each offer, answer and ICE candidate to the one seat it is meant for. Voice is beside the
record, like presence: nothing of it is stored in the record, so it never moves its version and
can never make a move lose its version race.

A record's *voice room* says:

- ``enabled``: the room's switch (at a table, its maker switches it: the web layer checks who
  may). Off by default; switching it off ends every seat's voice.
- ``members``: the seats in voice, each with ``muted`` and ``join`` (an id drawn at each join:
  a page that joins again, after a reconnect, has a new one, so the others know to set up a new
  connection with it).

Several processes (DESIGN.md §4): voice is one family of :mod:`veillee.live.claims` (topic
``voice`` on the record's channel). Each process claims the seats whose sockets it holds in
voice (key: the seat; the newer join wins a seat claimed twice) and the switch as it last heard
it (key ``"switch"``: a counter and who switched, the highest winning, so two processes that
hear the same words agree, and the switch outlives the process that threw it). A signal is said
once (topic ``signal``) and delivered by the process that holds the socket of the seat it is
for. A room stays :data:`GRACE_S` seconds after its last socket here has gone, so that voice
survives the page's reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from veillee.live.claims import FORGET_S, REFRESH_S, Claims, Merged
from veillee.live.follow import Follower
from veillee.live.records import Refusal

log = logging.getLogger(__name__)

GRACE_S = 60.0
"""How long a process keeps a room after its last socket of that record has gone (a page
reconnecting within it finds voice as it left it)."""
TOPIC = "voice"
"""The claims' topic on a record's channel."""
SIGNAL = "signal"
"""The relayed signals' topic on a record's channel."""
SWITCH = "switch"
"""The key of the switch among the claims (the others are seats)."""


class VoiceRefusal(StrEnum):
    """Every refusal of voice (docs/protocol.md §2c): the rooms' here, and the table socket's
    (``veillee.web.voice``)."""

    VOICE_UNAVAILABLE = "voice_unavailable"
    """The socket is no seat of a table of people: it has no voice."""
    VOICE_NOT_MAKER = "voice_not_maker"
    """Only the table's maker switches voice on and off."""
    VOICE_OFF = "voice_off"
    VOICE_NOT_JOINED = "voice_not_joined"
    VOICE_PEER_NOT_JOINED = "voice_peer_not_joined"
    """The seat a signal is for is not in voice, or has joined again since."""


@dataclass(frozen=True)
class Member:
    """A seat in voice: ``muted`` (its microphone sends nothing) and ``join``, the id of this
    join (16 lower-case hex digits, new at each join); ``at``: when it joined (Unix time), so
    that of two processes claiming one seat (its page's old socket, not yet found dead, and
    its new one) the newer join counts."""

    muted: bool
    join: str
    at: float = 0.0


@dataclass(frozen=True)
class VoiceState:
    """A room's voice as its seats are shown it: ``enabled`` and the ``members`` by seat."""

    enabled: bool
    members: dict[int, Member]


class VoiceWatcher(Protocol):
    """A socket of the record in this process (a seat's page)."""

    seat: int

    def push_voice(self, state: VoiceState) -> None:
        """The room changed. Must return at once (the watcher sends from its own task)."""

    def push_signal(self, signal: dict[str, Any]) -> None:
        """A signal for this socket's seat: the sender's payload with ``from_seat`` and
        ``from_join`` added. Must return at once."""


def _rank(value: Any) -> tuple[Any, ...]:
    """A claim's rank: a member's (``at``, ``join``), the switch's (counter, who)."""
    if isinstance(value, dict):
        return (float(value["at"]), str(value["join"]))
    return (int(value[0]), str(value[1]))


@dataclass(eq=False)
class _Room:
    """This process's following of one record's voice."""

    watchers: set[VoiceWatcher] = field(default_factory=set)
    signals: contextlib.AbstractAsyncContextManager[None] | None = None
    switch: tuple[int, str, bool] = (0, "", False)
    """The newest switch known here: (counter, process, on)."""
    told: VoiceState | None = None
    closer: asyncio.Task[None] | None = None

    @property
    def enabled(self) -> bool:
        return self.switch[2]


class VoiceRooms:
    """The voice rooms of the records this process holds sockets for, kept in step with the
    other processes through ``follower`` on the records' channels (``channel(record_id)``; see
    the module's docstring). ``grace_s``: how long a room outlives its last socket here;
    ``refresh_s``, ``forget_s``: as :class:`~veillee.live.claims.Claims` says."""

    def __init__(
        self,
        follower: Follower,
        channel: Callable[[str], str],
        grace_s: float = GRACE_S,
        refresh_s: float = REFRESH_S,
        forget_s: float = FORGET_S,
    ) -> None:
        self._follower = follower
        self._channel = channel
        self._grace_s = grace_s
        self.claims = Claims(
            follower,
            channel,
            TOPIC,
            self._changed,
            rank=_rank,
            refresh_s=refresh_s,
            forget_s=forget_s,
        )
        self.process = self.claims.process
        self._rooms: dict[str, _Room] = {}

    # ---- following a record ----------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def watch(self, record_id: str, watcher: VoiceWatcher) -> AsyncIterator[None]:
        """Tell ``watcher`` the room's voice (at once, and at each change) and hand it the
        signals for its seat while the context is open; on leaving, the watcher leaves voice."""
        room = self._rooms.get(record_id)
        if room is None:
            room = self._rooms[record_id] = _Room()
            signals = self._follower.follow(
                self._channel(record_id),
                SIGNAL,
                lambda body: self._heard_signal(record_id, body),
            )
            await signals.__aenter__()
            room.signals = signals
            await self.claims.observe(record_id)
        if room.closer is not None:
            room.closer.cancel()
            room.closer = None
        room.watchers.add(watcher)
        try:
            watcher.push_voice(self.state(record_id))
            yield
        finally:
            room.watchers.discard(watcher)
            await self.claims.drop(record_id, watcher)
            if not room.watchers and self._rooms.get(record_id) is room:
                room.closer = asyncio.create_task(self._drop_later(record_id, room))

    def state(self, record_id: str) -> VoiceState:
        """The room's voice as this process knows it (off for a record it does not follow)."""
        room = self._rooms.get(record_id)
        if room is None or not room.enabled:
            return VoiceState(False, {})
        merged = self.claims.merged(record_id)
        members = {
            int(seat): Member(bool(m["muted"]), str(m["join"]), float(m["at"]))
            for seat, m in merged.items()
            if seat != SWITCH
        }
        return VoiceState(True, dict(sorted(members.items())))

    async def close(self) -> None:
        """Stop following every record (the app is stopping)."""
        rooms, self._rooms = list(self._rooms.values()), {}
        closers = [room.closer for room in rooms if room.closer is not None]
        for task in closers:
            task.cancel()
        await asyncio.gather(*closers, return_exceptions=True)
        await self.claims.close()
        for room in rooms:
            signals, room.signals = room.signals, None
            if signals is not None:
                await signals.__aexit__(None, None, None)

    # ---- what seats do ---------------------------------------------------------------------

    async def switch(self, record_id: str, on: bool) -> None:
        """Switch the room's voice on or off (the caller checked who may). Off ends every seat's
        voice, in every process."""
        room = self._room(record_id)
        if room.enabled == on:
            return
        room.switch = (room.switch[0] + 1, self.process, on)
        if not on:
            await self._leave_all(record_id)
        await self._claim_switch(record_id, room)

    async def join(self, record_id: str, watcher: VoiceWatcher, muted: bool) -> str:
        """``watcher``'s seat joins voice (again: with a new join id) and returns the join id;
        another socket of the same seat here leaves voice. Raises Refusal("voice_off")."""
        room = self._room(record_id)
        if not room.enabled:
            raise Refusal(VoiceRefusal.VOICE_OFF)
        for other, (seat, _) in self.claims.holders(record_id).items():
            if seat == watcher.seat and other is not watcher and other != SWITCH:
                await self.claims.drop(record_id, other)
        join = secrets.token_hex(8)
        member = {"muted": muted, "join": join, "at": time.time()}
        await self.claims.hold(record_id, watcher, watcher.seat, member)
        return join

    async def mute(self, record_id: str, watcher: VoiceWatcher, muted: bool) -> None:
        """Mute or unmute ``watcher``'s seat. Raises Refusal("voice_not_joined")."""
        self._room(record_id)
        held = self.claims.holders(record_id).get(watcher)
        if held is None:
            raise Refusal(VoiceRefusal.VOICE_NOT_JOINED)
        seat, member = held
        if bool(member["muted"]) != muted:
            await self.claims.hold(record_id, watcher, seat, {**member, "muted": muted})

    async def leave(self, record_id: str, watcher: VoiceWatcher) -> None:
        """``watcher``'s seat leaves voice (nothing happens if it was not in it)."""
        self._room(record_id)
        await self.claims.drop(record_id, watcher)

    async def signal(
        self,
        record_id: str,
        watcher: VoiceWatcher,
        to: int,
        to_join: str,
        payload: dict[str, Any],
    ) -> None:
        """Pass ``payload`` (an offer, an answer or ICE candidates) from ``watcher``'s seat to
        seat ``to``, whose join ``to_join`` it is meant for: only to the socket of that seat
        that made that join, in whichever process holds it. Raises Refusal:
        ``voice_not_joined`` (the sender is not in voice), ``voice_peer_not_joined`` (seat
        ``to`` is not in voice, or has joined again since: its ``join`` differs)."""
        room = self._room(record_id)
        held = self.claims.holders(record_id).get(watcher)
        if held is None or not room.enabled:
            raise Refusal(VoiceRefusal.VOICE_NOT_JOINED)
        target = self.state(record_id).members.get(to)
        if to == watcher.seat or target is None or target.join != to_join:
            raise Refusal(VoiceRefusal.VOICE_PEER_NOT_JOINED)
        signal = {**payload, "from_seat": watcher.seat, "from_join": held[1]["join"]}
        self._deliver(record_id, to, to_join, signal)
        message = {"p": self.process, "to": to, "to_join": to_join, "s": signal}
        try:
            await self._follower.publish(self._channel(record_id), SIGNAL, json.dumps(message))
        except Exception:
            log.exception("could not relay a voice signal at %s", record_id)

    # ---- keeping in step -------------------------------------------------------------------

    def _room(self, record_id: str) -> _Room:
        room = self._rooms.get(record_id)
        if room is None:
            # Only a socket that follows the record reaches here.
            raise Refusal(VoiceRefusal.VOICE_NOT_JOINED)
        return room

    def _deliver(self, record_id: str, to: int, to_join: str, signal: dict[str, Any]) -> None:
        for watcher, (seat, member) in self.claims.holders(record_id).items():
            if seat == to and isinstance(member, dict) and member["join"] == to_join:
                watcher.push_signal(signal)  # type: ignore[attr-defined]

    def _heard_signal(self, record_id: str, body: str) -> None:
        try:
            message = json.loads(body)
            if message["p"] == self.process:
                return  # delivered here when it was said
            self._deliver(record_id, int(message["to"]), str(message["to_join"]), message["s"])
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a voice signal: %r", body[:200])

    async def _claim_switch(self, record_id: str, room: _Room) -> None:
        count, by, on = room.switch
        await self.claims.hold(record_id, SWITCH, SWITCH, [count, by, on])

    async def _leave_all(self, record_id: str) -> None:
        for holder in self.claims.holders(record_id):
            if holder != SWITCH:
                await self.claims.drop(record_id, holder)

    def _changed(self, record_id: str, merged: Merged) -> None:
        room = self._rooms.get(record_id)
        if room is None:
            return
        heard = merged.get(SWITCH)
        if heard is not None and _rank(heard) > _rank(list(room.switch)):
            # A newer switch, thrown in another process: take it up (so that it outlives
            # that process), and, when it is off, this process's seats leave voice.
            room.switch = (int(heard[0]), str(heard[1]), bool(heard[2]))
            off = not room.enabled  # an off ends voice, even if an on follows it at once
            asyncio.get_running_loop().create_task(self._took_up(record_id, room, off))
        state = self.state(record_id)
        if state == room.told:
            return
        room.told = state
        for watcher in list(room.watchers):
            watcher.push_voice(state)

    async def _took_up(self, record_id: str, room: _Room, off: bool) -> None:
        if off:
            await self._leave_all(record_id)
        await self._claim_switch(record_id, room)

    async def _drop_later(self, record_id: str, room: _Room) -> None:
        await asyncio.sleep(self._grace_s)
        if room.watchers or self._rooms.get(record_id) is not room:
            return
        del self._rooms[record_id]
        await self.claims.drop(record_id, SWITCH)
        await self.claims.unobserve(record_id)
        signals, room.signals = room.signals, None
        if signals is not None:
            await signals.__aexit__(None, None, None)
