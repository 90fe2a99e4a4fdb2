"""uvicorn's wsproto websocket protocol, holding less for each open connection (issue 12: an
idle seat's memory).

:class:`LeanWSProtocol` is uvicorn's own ``WSProtocol`` (``--ws wsproto``) with two things it
holds per connection for as long as the socket is open made smaller; everything it does (the
handshake, frames, limits, keepalive pings, back-pressure, closing) is uvicorn's code:

- once the handshake is answered, the connection keeps wsproto's established ``Connection``
  alone: wsproto's ``WSConnection`` wrapper also keeps the handshake that made it (an
  ``H11Handshake`` with its h11 connection, the upgrade request and an event deque), which is
  never used again;
- the frames received wait for the app in an :class:`Inbox` rather than an ``asyncio.Queue``
  (three deques and an event: about 3 KiB a connection before anything is in it), and sending
  waits for the transport's room behind a :class:`Gate` rather than an ``asyncio.Event`` (a
  deque from the start, 0.5 KiB outside Python's small-object allocator).

And it writes less often (issue 28: the loop's cost per change): the frames a connection sends
during one turn of the event loop (an ``ack`` and the ``state`` that shows it, a burst of
messages) go to the socket together, in one write (:class:`BatchedWrites`).

Measured on a bare echo app under uvicorn, 2,000 idle connections, per-message deflate off:
18.2 KiB a connection with uvicorn's ``WSProtocol``, 15.3 with the handshake let go, 12.0 with
the inbox too, 11.3 with the gate (bench/RESULTS.md).

uvicorn takes it through its ``ws`` option (``config.transport_limits``: ``VEILLEE_WEBSOCKET``
``wsproto``).
"""

from __future__ import annotations

import asyncio
from typing import Any, Generic, TypeVar

import wsproto
from uvicorn.protocols.websockets.wsproto_impl import WSProtocol

T = TypeVar("T")


class Inbox(Generic[T]):
    """What uvicorn's ``WSProtocol`` uses of ``asyncio.Queue`` (``put_nowait``, ``get``,
    ``empty``), first in first out, unbounded, holding a list and one future per waiting
    ``get`` (a queue holds three deques and an event from the start).

    >>> async def demo() -> list[str]:
    ...     inbox: Inbox[str] = Inbox()
    ...     waiting = asyncio.ensure_future(inbox.get())
    ...     inbox.put_nowait("a")
    ...     inbox.put_nowait("b")
    ...     return [await waiting, await inbox.get()]
    >>> asyncio.run(demo())
    ['a', 'b']
    """

    __slots__ = ("_items", "_waiters")

    def __init__(self) -> None:
        self._items: list[T] = []
        self._waiters: list[asyncio.Future[None]] = []

    def put_nowait(self, item: T) -> None:
        """Add ``item`` and wake whoever waits in :meth:`get`."""
        self._items.append(item)
        _wake(self._waiters)

    def empty(self) -> bool:
        """Whether nothing is waiting to be taken."""
        return not self._items

    async def get(self) -> T:
        """The oldest item, waiting for one if there is none. A ``get`` cancelled while it
        waits takes nothing (the item stays for the next one)."""
        while not self._items:
            await _wait(self._waiters)
        return self._items.pop(0)


class Gate:
    """What uvicorn's ``WSProtocol`` uses of ``asyncio.Event`` for the transport's room to
    write (``set``, ``clear``, ``wait``), open at first, holding a list and one future per
    waiting ``wait``.

    >>> async def demo() -> list[str]:
    ...     gate, seen = Gate(), []
    ...     gate.clear()
    ...     waiting = asyncio.ensure_future(gate.wait())
    ...     await asyncio.sleep(0)
    ...     seen.append("waiting" if not waiting.done() else "through")
    ...     gate.set()
    ...     await waiting
    ...     return [*seen, "through"]
    >>> asyncio.run(demo())
    ['waiting', 'through']
    """

    __slots__ = ("_open", "_waiters")

    def __init__(self) -> None:
        self._open = True
        self._waiters: list[asyncio.Future[None]] = []

    def is_set(self) -> bool:
        return self._open

    def set(self) -> None:
        """Open the gate: every ``wait`` returns."""
        self._open = True
        _wake(self._waiters)

    def clear(self) -> None:
        """Close the gate: a ``wait`` waits for :meth:`set`."""
        self._open = False

    async def wait(self) -> bool:
        """Return (True) once the gate is open."""
        if not self._open:
            await _wait(self._waiters)
        return True


async def _wait(waiters: list[asyncio.Future[None]]) -> None:
    """Wait until :func:`_wake` is called on ``waiters`` (a cancelled wait leaves no trace)."""
    waiter = asyncio.get_running_loop().create_future()
    waiters.append(waiter)
    try:
        await waiter
    finally:
        waiters.remove(waiter)


def _wake(waiters: list[asyncio.Future[None]]) -> None:
    """Wake every :func:`_wait` on ``waiters``."""
    for waiter in waiters:
        if not waiter.done():
            waiter.set_result(None)


class BatchedWrites:
    """A connection's transport whose writes during one turn of the event loop reach the socket
    together, at the end of the turn (one system call where there were several); closing sends
    what waits first. Everything else is the transport's.

    >>> class Socket:
    ...     def __init__(self): self.sent = []
    ...     def write(self, data): self.sent.append(data)
    ...     def is_closing(self): return False
    ...     def close(self): self.sent.append(b"<close>")
    >>> async def demo() -> list[bytes]:
    ...     socket = Socket()
    ...     batched = BatchedWrites(socket, asyncio.get_running_loop())  # type: ignore[arg-type]
    ...     batched.write(b"ack ")
    ...     batched.write(b"state")
    ...     await asyncio.sleep(0)
    ...     batched.write(b"bye")
    ...     batched.close()
    ...     return socket.sent
    >>> asyncio.run(demo())
    [b'ack state', b'bye', b'<close>']
    """

    __slots__ = ("_loop", "_pending", "transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self._loop = loop
        self._pending: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        """Send ``data`` at the end of this turn of the loop, after what was written before."""
        if self._pending is None:
            self._pending = []
            self._loop.call_soon(self.flush)
        self._pending.append(data)

    def flush(self) -> None:
        """Send what waits now."""
        pending, self._pending = self._pending, None
        if pending and not self.transport.is_closing():
            self.transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def close(self) -> None:
        """Send what waits, then close."""
        self.flush()
        self.transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class LeanWSProtocol(WSProtocol):
    """uvicorn's wsproto protocol with an :class:`Inbox` for the frames received and a
    :class:`Gate` for the room to send, that lets go of the handshake once it is answered, and
    writes a turn's frames together (see the module).

    The settings uvicorn's ``__init__`` copies first onto every connection are kept in slots
    (``__slots__``): uvicorn sets 33 attributes on a connection, past the 30 that CPython
    shares between the instances of a class, so each held its own 1.5 KiB dictionary; with
    these in slots the rest stay within the shared ones (0.4 KiB, issue 28)."""

    __slots__ = (
        "app",
        "app_state",
        "asgi_version",
        "config",
        "connections",
        "default_headers",
        "logger",
        "loop",
        "root_path",
        "tasks",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Gate()  # type: ignore[assignment]

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = BatchedWrites(transport, self.loop)  # type: ignore[assignment]

    async def send(self, message: Any) -> None:
        await super().send(message)
        established = getattr(self.conn, "connection", None)
        if isinstance(self.conn, wsproto.WSConnection) and established is not None:
            # The handshake is over (accepted; a refusal never establishes one): every event
            # now goes to and from the established connection, which does the same for them.
            self.conn = established
