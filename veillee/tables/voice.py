"""Voice at a shared table (issue 13): who is in voice, and the relay of the connection set-up.

The sound goes from browser to browser (WebRTC); the server only says who is in voice and
passes each offer, answer and ICE candidate to the one seat it is meant for. Voice is beside the
game, like presence: nothing of it is stored in the table's record, so it never moves the
table's version and can never make a move lose its version race.

A table's *voice room* says:

- ``enabled``: the maker of the table (:data:`~veillee.tables.table.MAKER`) switched voice on.
  Off by default; switching it off ends every seat's voice.
- ``members``: the seats in voice, each with ``muted`` and ``join`` (an id drawn at each join:
  a page that joins again, after a reconnect, has a new one, so the others know to set up a new
  connection with it).

Several processes (DESIGN.md §4): each process keeps a copy of the rooms of the tables it holds
sockets for, kept in step over the bus (channel ``"voice:<table id>"``, JSON messages). Each
process *claims* the seats whose sockets it holds in voice and says its claims whenever they
change; a room's members are the union of every process's claims. The switch is a counter and
a value (the highest counter wins, then the process id), so two processes that hear the same
messages agree. A process that starts following a table asks the others (``sync``) and each
answers with its claims and the switch. A signal is published once and delivered by the
process that holds the socket of the seat it is for. Each process says its claims again every
:data:`REFRESH_S` seconds, and the claims of a process not heard for :data:`FORGET_S` seconds are
forgotten (it was killed: its seats are out of voice). A room stays :data:`GRACE_S` seconds after
its last socket here has gone, so that voice survives the page's reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from veillee.bus import Bus
from veillee.tables.live import Refusal

log = logging.getLogger(__name__)

GRACE_S = 60.0
"""How long a process keeps a table's voice room after its last socket of that table has gone
(a page reconnecting within it finds voice as it left it)."""
REFRESH_S = 8.0
"""How often a process says its claims again (so that the others know it is alive)."""
FORGET_S = 20.0
"""After how long without a word from a process the others forget its claims (it was killed
without saying goodbye: its seats are out of voice)."""


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
    """A table's voice as its seats are shown it: ``enabled`` and the ``members`` by seat."""

    enabled: bool
    members: dict[int, Member]


class VoiceWatcher(Protocol):
    """A socket of the table in this process (a seat's page)."""

    seat: int

    def push_voice(self, state: VoiceState) -> None:
        """The room changed. Must return at once (the watcher sends from its own task)."""

    def push_signal(self, signal: dict[str, Any]) -> None:
        """A signal for this socket's seat: the sender's payload with ``from_seat`` and
        ``from_join`` added. Must return at once."""


@dataclass(eq=False)
class _Room:
    """This process's copy of one table's voice room."""

    watchers: set[VoiceWatcher] = field(default_factory=set)
    local: dict[VoiceWatcher, Member] = field(default_factory=dict)
    """The watchers here that are in voice (this process's claims)."""
    claims: dict[str, dict[int, Member]] = field(default_factory=dict)
    """Every other process's claims, by process id."""
    heard: dict[str, float] = field(default_factory=dict)
    """When each other process was last heard (``time.monotonic()``)."""
    switch: tuple[int, str, bool] = (0, "", False)
    """(counter, process id, on): the newest switch heard."""
    listening: asyncio.Event = field(default_factory=asyncio.Event)
    listener: asyncio.Task[None] | None = None
    refresher: asyncio.Task[None] | None = None
    closer: asyncio.Task[None] | None = None

    @property
    def enabled(self) -> bool:
        return self.switch[2]

    def mine(self) -> dict[int, Member]:
        return {watcher.seat: member for watcher, member in self.local.items()}

    def members(self) -> dict[int, Member]:
        found: dict[int, Member] = {}
        for claims in (*self.claims.values(), self.mine()):
            for seat, member in claims.items():
                if seat not in found or (member.at, member.join) > (
                    found[seat].at,
                    found[seat].join,
                ):
                    found[seat] = member
        return dict(sorted(found.items()))

    def state(self) -> VoiceState:
        return VoiceState(self.enabled, self.members() if self.enabled else {})


class VoiceRooms:
    """The voice rooms of the tables this process holds sockets for, kept in step with the other
    processes over ``bus`` (see the module's docstring). ``grace_s``: how long a room outlives
    its last socket here; ``refresh_s``, ``forget_s``: how often this process says its claims
    again, and after how long without a word another process's claims are forgotten."""

    def __init__(
        self,
        bus: Bus,
        grace_s: float = GRACE_S,
        refresh_s: float = REFRESH_S,
        forget_s: float = FORGET_S,
    ) -> None:
        self._bus = bus
        self._grace_s = grace_s
        self._refresh_s = refresh_s
        self._forget_s = forget_s
        self._rooms: dict[str, _Room] = {}
        self.process = secrets.token_hex(8)

    @staticmethod
    def channel(table_id: str) -> str:
        """The bus channel of one table's voice: ``"voice:<id>"``."""
        return f"voice:{table_id}"

    # ---- following a table -----------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def watch(self, table_id: str, watcher: VoiceWatcher) -> AsyncIterator[None]:
        """Tell ``watcher`` the table's voice (at once, and at each change) and hand it the
        signals for its seat while the context is open; on leaving, the watcher leaves voice."""
        room = self._rooms.get(table_id)
        if room is None:
            room = self._rooms[table_id] = _Room()
            room.listener = asyncio.create_task(self._listen(table_id, room))
            room.refresher = asyncio.create_task(self._refresh(table_id, room))
        if room.closer is not None:
            room.closer.cancel()
            room.closer = None
        room.watchers.add(watcher)
        try:
            await room.listening.wait()
            watcher.push_voice(room.state())
            yield
        finally:
            room.watchers.discard(watcher)
            if room.local.pop(watcher, None) is not None:
                await self._changed(table_id, room)
            if not room.watchers and self._rooms.get(table_id) is room:
                room.closer = asyncio.create_task(self._drop_later(table_id, room))

    def state(self, table_id: str) -> VoiceState:
        """The table's voice as this process knows it (off for a table it does not follow)."""
        room = self._rooms.get(table_id)
        return room.state() if room is not None else VoiceState(False, {})

    async def close(self) -> None:
        """Stop following every table (the app is stopping)."""
        rooms, self._rooms = list(self._rooms.values()), {}
        tasks = [
            task
            for room in rooms
            for task in (room.listener, room.refresher, room.closer)
            if task is not None
        ]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ---- what seats do ---------------------------------------------------------------------

    async def switch(self, table_id: str, on: bool) -> None:
        """Switch the table's voice on or off (the caller checked that the maker asked). Off
        ends every seat's voice, in every process."""
        room = self._room(table_id)
        if room.enabled == on:
            return
        room.switch = (room.switch[0] + 1, self.process, on)
        if not on:
            room.local.clear()
        await self._changed(table_id, room)

    async def join(self, table_id: str, watcher: VoiceWatcher, muted: bool) -> str:
        """``watcher``'s seat joins voice (again: with a new join id) and returns the join id;
        another socket of the same seat here leaves voice. Raises Refusal("voice_off")."""
        room = self._room(table_id)
        if not room.enabled:
            raise Refusal("voice_off")
        for other in [w for w in room.local if w.seat == watcher.seat and w is not watcher]:
            del room.local[other]
        join = secrets.token_hex(8)
        room.local[watcher] = Member(muted, join, time.time())
        await self._changed(table_id, room)
        return join

    async def mute(self, table_id: str, watcher: VoiceWatcher, muted: bool) -> None:
        """Mute or unmute ``watcher``'s seat. Raises Refusal("voice_not_joined")."""
        room = self._room(table_id)
        member = room.local.get(watcher)
        if member is None:
            raise Refusal("voice_not_joined")
        if member.muted != muted:
            room.local[watcher] = Member(muted, member.join, member.at)
            await self._changed(table_id, room)

    async def leave(self, table_id: str, watcher: VoiceWatcher) -> None:
        """``watcher``'s seat leaves voice (nothing happens if it was not in it)."""
        room = self._room(table_id)
        if room.local.pop(watcher, None) is not None:
            await self._changed(table_id, room)

    async def signal(
        self, table_id: str, watcher: VoiceWatcher, to: int, to_join: str, payload: dict[str, Any]
    ) -> None:
        """Pass ``payload`` (an offer, an answer or ICE candidates) from ``watcher``'s seat to
        seat ``to``, whose join ``to_join`` it is meant for: only to the socket of that seat
        that made that join, in whichever process holds it. Raises Refusal:
        ``voice_not_joined`` (the sender is not in voice), ``voice_peer_not_joined`` (seat
        ``to`` is not in voice, or has joined again since: its ``join`` differs)."""
        room = self._room(table_id)
        sender = room.local.get(watcher)
        if sender is None or not room.enabled:
            raise Refusal("voice_not_joined")
        target = room.members().get(to)
        if to == watcher.seat or target is None or target.join != to_join:
            raise Refusal("voice_peer_not_joined")
        signal = {**payload, "from_seat": watcher.seat, "from_join": sender.join}
        message = {"t": "signal", "p": self.process, "to": to, "to_join": to_join, "s": signal}
        self._deliver(room, to, to_join, signal)
        await self._publish(table_id, message)

    # ---- keeping in step -------------------------------------------------------------------

    def _room(self, table_id: str) -> _Room:
        room = self._rooms.get(table_id)
        if room is None:
            # Only a socket that follows the table reaches here.
            raise Refusal("voice_not_joined")
        return room

    def _deliver(self, room: _Room, to: int, to_join: str, signal: dict[str, Any]) -> None:
        for watcher, member in room.local.items():
            if watcher.seat == to and member.join == to_join:
                watcher.push_signal(signal)

    def _tell(self, room: _Room) -> None:
        state = room.state()
        for watcher in list(room.watchers):
            watcher.push_voice(state)

    async def _changed(self, table_id: str, room: _Room) -> None:
        self._tell(room)
        await self._publish(table_id, self._claims(room))

    def _claims(self, room: _Room) -> dict[str, Any]:
        count, by, on = room.switch
        claims = {
            str(s): {"muted": m.muted, "join": m.join, "at": m.at} for s, m in room.mine().items()
        }
        return {"t": "state", "p": self.process, "claims": claims, "switch": [count, by, on]}

    async def _publish(self, table_id: str, message: dict[str, Any]) -> None:
        try:
            await self._bus.publish(self.channel(table_id), json.dumps(message))
        except Exception:
            # This process's own sockets were told already; the others catch up at their
            # next sync.
            log.exception("could not publish on %s", self.channel(table_id))

    async def _listen(self, table_id: str, room: _Room) -> None:
        try:
            async with self._bus.subscribe(self.channel(table_id)) as queue:
                room.listening.set()
                await self._publish(table_id, {"t": "sync", "p": self.process})
                while True:
                    await self._hear(table_id, room, await queue.get())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("voice listener for %s failed", self.channel(table_id))
        finally:
            room.listening.set()

    async def _hear(self, table_id: str, room: _Room, text: str) -> None:
        try:
            message = json.loads(text)
            sender = str(message["p"])
            if sender == self.process:
                return  # this process's own, acted on when it was said
            kind = message["t"]
            if kind == "sync":
                await self._publish(table_id, self._claims(room))
            elif kind == "state":
                await self._heard_state(table_id, room, sender, message)
            elif kind == "signal":
                self._deliver(room, int(message["to"]), str(message["to_join"]), message["s"])
        except (ValueError, KeyError, TypeError):
            log.warning("ignored a voice message on %s: %r", self.channel(table_id), text[:200])

    async def _heard_state(
        self, table_id: str, room: _Room, sender: str, message: dict[str, Any]
    ) -> None:
        count, by, on = message["switch"]
        heard = (int(count), str(by), bool(on))
        claims = {
            int(seat): Member(bool(m["muted"]), str(m["join"]), float(m["at"]))
            for seat, m in message["claims"].items()
        }
        before = room.state()
        room.claims[sender] = claims
        room.heard[sender] = time.monotonic()
        if heard[:2] > room.switch[:2]:
            room.switch = heard
            if not room.enabled and room.local:
                # Switched off elsewhere: this process's seats leave voice, and say so.
                room.local.clear()
                self._tell(room)
                await self._publish(table_id, self._claims(room))
                return
        if room.state() != before:
            self._tell(room)

    async def _drop_later(self, table_id: str, room: _Room) -> None:
        await asyncio.sleep(self._grace_s)
        if room.watchers or self._rooms.get(table_id) is not room:
            return
        del self._rooms[table_id]
        tasks = [task for task in (room.listener, room.refresher) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _refresh(self, table_id: str, room: _Room) -> None:
        """Say this process's claims again every ``refresh_s``; forget the claims of a process
        not heard for ``forget_s``."""
        while True:
            await asyncio.sleep(self._refresh_s)
            await self._publish(table_id, self._claims(room))
            now = time.monotonic()
            gone = [p for p, heard in room.heard.items() if now - heard > self._forget_s]
            if gone:
                before = room.state()
                for process in gone:
                    room.claims.pop(process, None)
                    room.heard.pop(process, None)
                if room.state() != before:
                    self._tell(room)
