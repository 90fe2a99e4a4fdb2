"""Voice at a shared table over its socket, in process (issue 13): the maker's switch, joining,
muting and leaving, and the relay of the connection set-up to the one seat (and join) it is
meant for; everything else refused, and the table's version never moved."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws

from tests.games.card_scan import cards_named
from tests.web.sockets import client, new_table, receive, refusals
from veillee.cards import PIQUET_JOKERS_34
from veillee.config import Settings
from veillee.web.voice import ice_servers, turn_credentials

OFFER = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"
CANDIDATE = {
    "candidate": "candidate:1 1 udp 2113937151 127.0.0.1 50000 typ host",
    "sdpMid": "0",
    "sdpMLineIndex": 0,
    "usernameFragment": "Xy9+",
}


async def shared_table(c: httpx.AsyncClient, game: str = "chouine") -> list[dict[str, Any]]:
    """A shared table of ``game`` with every seat taken: each seat's creation answer."""
    r = await c.post("/api/tables", json={"game": game, "shared": True})
    assert r.status_code == 201
    seats = [r.json()]
    while True:
        joined = await c.post(f"/api/tables/{seats[0]['table_id']}/seats")
        if joined.status_code != 201:
            return seats
        seats.append(joined.json())


@asynccontextmanager
async def seated(
    c: httpx.AsyncClient, seat: dict[str, Any], enabled: bool = False
) -> AsyncIterator[AsyncWebSocketSession]:
    """The seat's socket, greeted, past its first state and voice messages (voice ``enabled``
    or not, and nobody in it when off)."""
    async with aconnect_ws(f"/ws/tables/{seat['table_id']}", c) as ws:
        await send(ws, type="hello", token=seat["token"])
        await receive(ws, "state")
        voice = await receive(ws, "voice")
        assert voice["enabled"] is enabled and voice["maker"] == 0
        if not enabled:
            assert voice["members"] == []
        yield ws


async def send(ws: AsyncWebSocketSession, **message: Any) -> None:
    await ws.send_text(json.dumps(message))


async def voice_where(ws: AsyncWebSocketSession, check: Any) -> dict[str, Any]:
    """The next ``voice`` message for which ``check(message)`` holds."""
    while not check(message := await receive(ws, "voice")):
        pass
    return message


async def nothing_of(ws: AsyncWebSocketSession, kind: str, wait_s: float = 0.3) -> None:
    """No message of type ``kind`` comes within ``wait_s`` (pings are answered meanwhile)."""
    try:
        message = await asyncio.wait_for(receive(ws, kind), wait_s)
    except TimeoutError:
        return
    raise AssertionError(f"unexpected {message}")


async def join(ws: AsyncWebSocketSession, seat: int, muted: bool = False) -> str:
    await send(ws, type="voice_join", client_id="voice", muted=muted)
    joined = await receive(ws, "voice_joined")
    await voice_where(ws, lambda v: any(m["seat"] == seat for m in v["members"]))
    return str(joined["join"])


async def version(app: FastAPI, table_id: str) -> int:
    return int((await app.state.tables.load(table_id)).version)


async def test_the_maker_switches_voice_and_the_relay_goes_to_the_one_seat_joined(
    app: FastAPI,
) -> None:
    async with client(app) as c:
        host, friend = await shared_table(c)
        before = await version(app, host["table_id"])
        async with seated(c, host) as ws0, seated(c, friend) as ws1:
            # Off: nobody joins; only the maker switches.
            await send(ws1, type="voice_join", client_id="voice")
            assert (await receive(ws1, "error"))["code"] == "voice_off"
            await send(ws1, type="voice_switch", client_id="voice", on=True)
            refused = await receive(ws1, "error")
            assert refused["code"] == "voice_not_maker" and refused["client_id"] == "voice"
            await send(ws0, type="voice_switch", on=True)
            for ws in (ws0, ws1):
                assert await receive(ws, "voice") == {
                    "type": "voice",
                    "enabled": True,
                    "maker": 0,
                    "members": [],
                }
            join0 = await join(ws0, 0)
            # The friend has not joined: nothing is relayed to it, and it is told who is in.
            await send(
                ws0, type="voice_signal", client_id="voice", to=1, to_join="0" * 16,
                kind="offer", sdp=OFFER,
            )  # fmt: skip
            assert (await receive(ws0, "error"))["code"] == "voice_peer_not_joined"
            seen = await voice_where(ws1, lambda v: v["members"])
            assert seen["members"] == [{"seat": 0, "muted": False, "join": join0}]
            await nothing_of(ws1, "voice_signal")
            # A seat not in voice signals nobody.
            await send(ws1, type="voice_signal", to=0, to_join=join0, kind="offer", sdp=OFFER)
            assert (await receive(ws1, "error"))["code"] == "voice_not_joined"
            await nothing_of(ws0, "voice_signal")

            join1 = await join(ws1, 1, muted=True)
            assert join1 != join0
            await send(ws0, type="voice_signal", to=1, to_join=join1, kind="offer", sdp=OFFER)
            assert await receive(ws1, "voice_signal") == {
                "type": "voice_signal",
                "from_seat": 0,
                "from_join": join0,
                "kind": "offer",
                "sdp": OFFER,
                "candidates": None,
            }
            await send(
                ws1, type="voice_signal", to=0, to_join=join0, kind="candidates",
                candidates=[CANDIDATE],
            )  # fmt: skip
            got = await receive(ws0, "voice_signal")
            assert got["from_seat"] == 1 and got["from_join"] == join1
            assert got["kind"] == "candidates" and got["candidates"] == [CANDIDATE]
            # Nothing comes back to the sender.
            await nothing_of(ws1, "voice_signal")
            await send(ws1, type="voice_mute", muted=False)
            unmuted = await voice_where(ws0, lambda v: not any(m["muted"] for m in v["members"]))
            assert [m["seat"] for m in unmuted["members"]] == [0, 1]
            # To oneself: refused.
            await send(ws0, type="voice_signal", to=0, to_join=join0, kind="offer", sdp=OFFER)
            assert (await receive(ws0, "error"))["code"] == "voice_peer_not_joined"
        # Voice moved nothing of the table.
        assert await version(app, host["table_id"]) == before


async def test_a_seat_that_joins_again_is_signalled_at_its_new_join_only(app: FastAPI) -> None:
    async with client(app) as c:
        host, friend = await shared_table(c)
        async with seated(c, host) as ws0, seated(c, friend) as ws1:
            await send(ws0, type="voice_switch", on=True)
            join0 = await join(ws0, 0)
            old = await join(ws1, 1)
            new = await join(ws1, 1)
            assert new != old
            await send(ws0, type="voice_signal", to=1, to_join=old, kind="offer", sdp=OFFER)
            assert (await receive(ws0, "error"))["code"] == "voice_peer_not_joined"
            await send(ws0, type="voice_signal", to=1, to_join=new, kind="offer", sdp=OFFER)
            assert (await receive(ws1, "voice_signal"))["from_join"] == join0


async def test_leaving_closing_the_page_and_switching_off_end_voice(app: FastAPI) -> None:
    async with client(app) as c:
        host, friend = await shared_table(c)
        async with seated(c, host) as ws0:
            await send(ws0, type="voice_switch", on=True)
            await join(ws0, 0)
            # A page that comes in while voice is on is told at once.
            async with seated(c, friend, enabled=True) as ws1:
                await join(ws1, 1)
                await send(ws1, type="voice_leave")
                left = await voice_where(ws0, lambda v: len(v["members"]) == 1)
                assert [m["seat"] for m in left["members"]] == [0]
                join1 = await join(ws1, 1)
            # The friend's page closed: its seat is out of voice.
            gone = await voice_where(ws0, lambda v: all(m["seat"] != 1 for m in v["members"]))
            assert [m["seat"] for m in gone["members"]] == [0]
            await send(ws0, type="voice_signal", to=1, to_join=join1, kind="offer", sdp=OFFER)
            assert (await receive(ws0, "error"))["code"] == "voice_peer_not_joined"
            await send(ws0, type="voice_switch", on=False)
            off = await voice_where(ws0, lambda v: not v["enabled"])
            assert off["members"] == []
            await send(ws0, type="voice_mute", muted=True)
            assert (await receive(ws0, "error"))["code"] == "voice_not_joined"


async def test_sockets_without_a_seat_at_a_shared_table_get_no_voice(app: FastAPI) -> None:
    async with client(app) as c:
        host, _friend = await shared_table(c)
        async with seated(c, host) as ws0:
            await send(ws0, type="voice_switch", on=True)
            await join(ws0, 0)
            # A socket that has not said who it is: nothing but hello first.
            async with aconnect_ws(f"/ws/tables/{host['table_id']}", c) as stranger:
                await send(stranger, type="voice_join", client_id="voice")
                assert (await receive(stranger, "error"))["code"] == "hello_first"
                await send(stranger, type="voice_signal", to=0, to_join="0" * 16,
                           kind="offer", sdp=OFFER)  # fmt: skip
                assert (await receive(stranger, "error"))["code"] == "hello_first"
            # A token of another table is refused before anything.
            other = await new_table(c)
            with pytest.raises(BaseException) as closed:
                async with aconnect_ws(f"/ws/tables/{host['table_id']}", c) as intruder:
                    await send(intruder, type="hello", token=other["token"])
                    await receive(intruder, "state")
            assert refusals(closed.value) == [4403]
            # A seat at a table against the computer has no voice.
            async with aconnect_ws(f"/ws/tables/{other['table_id']}", c) as solo:
                await send(solo, type="hello", token=other["token"])
                await receive(solo, "state")
                await send(solo, type="voice_join", client_id="voice")
                refused = await receive(solo, "error")
                assert refused["code"] == "voice_unavailable" and refused["client_id"] == "voice"
                await nothing_of(solo, "voice")
            await nothing_of(ws0, "voice_signal")


async def test_the_spectator_of_a_demonstration_has_no_voice(app: FastAPI) -> None:
    async with client(app) as c:
        demo = (await c.post("/api/demos", json={"game": "chouine"})).json()
        async with aconnect_ws(f"/ws/tables/{demo['table_id']}", c) as ws:
            await send(ws, type="hello", token=demo["token"])
            assert (await receive(ws, "state"))["seat"] is None
            await send(ws, type="voice_switch", client_id="voice", on=True)
            assert (await receive(ws, "error"))["code"] == "voice_unavailable"
            await nothing_of(ws, "voice")


async def test_voice_messages_are_checked_for_shape_size_and_rate(app: FastAPI) -> None:
    async with client(app) as c:
        host, friend = await shared_table(c)
        async with seated(c, host) as ws0, seated(c, friend) as ws1:
            await send(ws0, type="voice_switch", on=True)
            await join(ws0, 0)
            join1 = await join(ws1, 1)
            bad = [
                {"type": "voice_signal", "to": 1, "to_join": join1, "kind": "answer"},
                {"type": "voice_signal", "to": 1, "to_join": join1, "kind": "candidates",
                 "sdp": OFFER},
                {"type": "voice_signal", "to": 1, "to_join": join1, "kind": "offer",
                 "sdp": "v=0\u0000"},
                {"type": "voice_signal", "to": 9, "to_join": join1, "kind": "offer", "sdp": ""},
                {"type": "voice_signal", "to": 1, "to_join": "X" * 16, "kind": "offer",
                 "sdp": ""},
                {"type": "voice_signal", "to": 1, "to_join": join1, "kind": "candidates",
                 "candidates": [CANDIDATE] * 9},
                {"type": "voice_signal", "to": 1, "to_join": join1, "kind": "offer",
                 "sdp": "a" * 3801},
                {"type": "voice_join", "muted": "yes"},
                {"type": "voice_switch", "on": True, "table": "t"},
            ]  # fmt: skip
            for message in bad:
                await send(ws0, **message)
                assert (await receive(ws0, "error"))["code"] == "bad_message", message
            await send(ws0, type="voice_signal", to=1, to_join=join1, kind="offer",
                       sdp="a" * 4100)  # fmt: skip
            assert (await receive(ws0, "error"))["code"] == "message_too_large"
            await nothing_of(ws1, "voice_signal")
            # Voice's own rate: 10 a second, bursts of 20.
            codes = []
            for _ in range(25):
                await send(ws0, type="voice_mute", client_id="voice", muted=True)
            while len(codes) < 5:
                codes.append((await receive(ws0, "error"))["code"])
            assert codes == ["rate_limited"] * 5


async def test_voice_frames_carry_no_card(app: FastAPI) -> None:
    """The hidden-information scan over voice: every voice frame each seat of a Charlemagne
    table of four receives names no card, and a signal is the sender's payload exactly."""
    async with client(app) as c:
        seats = await shared_table(c, "charlemagne")
        assert len(seats) == 4
        async with (
            seated(c, seats[0]) as ws0,
            seated(c, seats[1]) as ws1,
            seated(c, seats[2]) as ws2,
        ):
            sockets = [ws0, ws1, ws2]
            await send(ws0, type="voice_switch", on=True)
            joined = []
            for ws in sockets:
                await send(ws, type="voice_join")
                joined.append(await receive(ws, "voice_joined"))
            joins = [str(j["join"]) for j in joined]
            for ws in sockets:
                await voice_where(ws, lambda v: len(v["members"]) == 3)
            await send(ws0, type="voice_signal", to=2, to_join=joins[2], kind="offer", sdp=OFFER)
            await send(ws1, type="voice_signal", to=2, to_join=joins[2], kind="candidates",
                       candidates=[CANDIDATE])  # fmt: skip
            await send(ws0, type="voice_mute", muted=True)
            await send(ws0, type="voice_switch", on=False)
            frames: list[dict[str, Any]] = []
            for ws in sockets:
                while (frame := json.loads(await asyncio.wait_for(ws.receive_text(), 5)))[
                    "type"
                ] != "voice" or frame["enabled"]:
                    frames.append(frame)
                frames.append(frame)
            voice = joined + [f for f in frames if f["type"].startswith("voice")]
            assert {f["type"] for f in voice} == {"voice", "voice_joined", "voice_signal"}
            for frame in voice:
                if frame["type"] == "voice_signal":
                    continue  # its SDP's hex fingerprints may spell "7C": checked exactly below
                assert cards_named(frame, PIQUET_JOKERS_34) == set(), frame
                assert set(frame) <= {"type", "enabled", "maker", "members", "join",
                                      "ice_servers", "connect_timeout_s"}  # fmt: skip
            signals = [f for f in voice if f["type"] == "voice_signal"]
            assert signals == [
                {"type": "voice_signal", "from_seat": 0, "from_join": joins[0], "kind": "offer",
                 "sdp": OFFER, "candidates": None},
                {"type": "voice_signal", "from_seat": 1, "from_join": joins[1],
                 "kind": "candidates", "sdp": None, "candidates": [CANDIDATE]},
            ]  # fmt: skip


def test_turn_servers_get_time_limited_credentials_from_the_shared_secret() -> None:
    settings = Settings(
        ice_servers=[
            {"urls": "stun:stun.example:3478"},
            {"urls": ["turn:turn.example:3478?transport=udp", "turns:turn.example:5349"]},
            {"urls": "turn:fixed.example", "username": "u", "credential": "p"},
        ],
        turn_secret="s3cret",
        turn_ttl_s=600,
    )
    servers = ice_servers(settings, "t1-0", now=1_700_000_000)
    assert servers[0] == {"urls": "stun:stun.example:3478"}
    assert servers[1] == {
        "urls": ["turn:turn.example:3478?transport=udp", "turns:turn.example:5349"],
        **turn_credentials("s3cret", "t1-0", 1_700_000_600),
    }
    assert servers[1]["username"] == "1700000600:t1-0"
    assert servers[2] == {"urls": "turn:fixed.example", "username": "u", "credential": "p"}
    # No secret: the servers as given; none configured: none.
    assert ice_servers(Settings(ice_servers=settings.ice_servers[:2]), "x")[1] == {
        "urls": ["turn:turn.example:3478?transport=udp", "turns:turn.example:5349"]
    }
    assert ice_servers(Settings(), "x") == []


def test_ice_servers_come_from_the_environment_as_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VEILLEE_ICE_SERVERS", '[{"urls": "turn:turn.example:3478"}]')
    monkeypatch.setenv("VEILLEE_TURN_SECRET", "k")
    settings = Settings()
    assert settings.ice_servers == [{"urls": "turn:turn.example:3478"}]
    assert settings.turn_secret == "k"
