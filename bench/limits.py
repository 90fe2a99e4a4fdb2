"""What oversized input costs the real server: the memory of `veillee serve` (resident, and its
peak) before and after 100 MB request bodies sent to every POST route (declared in
Content-Length, and in chunks), and after ten 15 MiB websocket frames sent at once; and how long
the server takes to refuse a body.

The server is `python -m veillee.cli serve` on a free port of 127.0.0.1 with a fresh data
directory, as players get it; its memory is read from /proc/<pid>/status (VmRSS, VmHWM).
To measure another checkout of the code: ``PYTHONPATH=/path/to/checkout .venv/bin/python
bench/limits.py``.

Run: ``.venv/bin/python bench/limits.py``
"""

from __future__ import annotations

import asyncio
import json
import socket
import time

import httpx
from _server import memory, servers
from httpx_ws import aconnect_ws

BODY = 100 * 1000 * 1000
FRAME = 15 * 1024 * 1024
FRAMES = 10
MIB = 1024 * 1024


def send_body(port: int, path: str, headers: dict[str, str], chunked: bool) -> tuple[str, float]:
    """Send a 100 MB body to ``path`` over a raw socket, as fast as the server takes it; return
    the answer's status line (or how the connection ended) and the seconds it took."""
    start = time.perf_counter()
    head = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json"]
    head += [f"{k}: {v}" for k, v in headers.items()]
    head.append("Transfer-Encoding: chunked" if chunked else f"Content-Length: {BODY}")
    chunk = b"x" * MIB
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        try:
            s.sendall(("\r\n".join(head) + "\r\n\r\n").encode())
            sent = 0
            while sent < BODY:
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk)
                sent += len(chunk)
            if chunked:
                s.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server answered and closed without reading the rest: what we want
        try:
            answer = s.recv(200).split(b"\r\n", 1)[0].decode() or "closed"
        except OSError as err:
            answer = type(err).__name__
    return answer, time.perf_counter() - start


async def send_frames(base: str) -> list[str]:
    """Ten sockets each send one 15 MiB text frame at once; how each ended."""
    hello = json.dumps({"type": "ping"})

    async def one(c: httpx.AsyncClient) -> str:
        try:
            async with aconnect_ws(base.replace("http", "ws") + "/ws/tables/nosuchtable", c) as ws:
                await ws.send_text(hello + " " * FRAME)
                reply = await asyncio.wait_for(ws.receive_text(), 30)
                return str(json.loads(reply).get("code"))
        except BaseException as exc:  # httpx-ws raises groups
            found = exc.exceptions[0] if isinstance(exc, BaseExceptionGroup) else exc
            code = getattr(found, "code", None)
            return f"closed {code}" if code else "closed by the server while sending"

    async with httpx.AsyncClient(timeout=30) as c:
        return list(await asyncio.gather(*(one(c) for _ in range(FRAMES))))


def main() -> None:
    with servers() as [served]:
        base, pid = served.base, served.pid
        port = int(base.rsplit(":", 1)[1])
        sheet = httpx.post(base + "/api/sheets", json={}).json()
        auth = {"Authorization": f"Bearer {sheet['scorer_token']}"}
        routes = [
            ("/api/sheets", {}),
            (f"/api/sheets/{sheet['id']}/changes", auth),
            ("/api/tables", {}),
        ]
        rss, peak = memory(pid)
        print(f"server at rest: {rss:.0f} MiB resident, peak {peak:.0f} MiB")
        for path, headers in routes:
            for chunked in (False, True):
                answer, seconds = send_body(port, path, headers, chunked)
                rss, peak = memory(pid)
                how = "chunked" if chunked else "declared"
                print(
                    f"100 MB {how:8} to {path.split('/')[-1] or path:8}: {answer!r} in "
                    f"{seconds:.2f} s; server {rss:.0f} MiB resident, peak {peak:.0f} MiB"
                )
        before = memory(pid)
        ends = asyncio.run(send_frames(base))
        rss, peak = memory(pid)
        print(
            f"{FRAMES} frames of 15 MiB at once: {sorted(set(ends))}; server {rss:.0f} MiB "
            f"resident (was {before[0]:.0f}), peak {peak:.0f} MiB (was {before[1]:.0f})"
        )


if __name__ == "__main__":
    main()
