"""The table websocket in-process: every refused message gets a reason and changes nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import FastAPI
from httpx_ws import AsyncWebSocketSession, aconnect_ws

from tests.web.sockets import client, new_table, receive
from veillee.cards import PIQUET_32


def msg(**fields: Any) -> str:
    """One client message as text."""
    return json.dumps(fields)


async def my_turn(ws: AsyncWebSocketSession) -> dict[str, Any]:
    """The first state in which seat 0 has to play a card (the computer plays instantly)."""
    while True:
        state = await receive(ws, "state")
        deal = state["view"]["deal"]
        if deal["to_act"] == 0 and deal["prompt"] is None:
            return state


async def hello(ws: AsyncWebSocketSession, token: str, version: int | None = None) -> None:
    await ws.send_text(json.dumps({"type": "hello", "token": token, "version": version}))


async def test_refused_messages_get_a_reason_and_change_nothing(app: FastAPI) -> None:
    settings = app.state.settings
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            state = await my_turn(ws)
            version = state["version"]
            hand = state["view"]["deal"]["hand"]
            absent = next(card for card in PIQUET_32 if card not in hand)
            bad = [
                ("{not json", "bad_json"),
                (json.dumps({"type": "dance"}), "unknown_type"),
                (json.dumps({"type": "act", "client_id": "x"}), "bad_message"),
                (
                    json.dumps({"type": "act", "client_id": "a" * 65, "action": hand[0]}),
                    "bad_message",
                ),
                ("x" * (settings.max_message_bytes + 1), "message_too_large"),
                (json.dumps({"type": "act", "client_id": "c1", "action": "ZZ"}), "bad_action"),
                (
                    json.dumps({"type": "act", "client_id": "c2", "action": absent}),
                    "card_not_in_hand",
                ),
                (json.dumps({"type": "next", "client_id": "c3"}), "deal_not_over"),
                (
                    json.dumps({"type": "new_match", "client_id": "c4", "options": {"best_of": 4}}),
                    "bad_options",
                ),
                (
                    json.dumps({"type": "new_match", "client_id": "c5", "options": {"rng": 1}}),
                    "bad_options",
                ),
            ]
            await ws.send_bytes(b'{"type": "ping"}')
            assert (await receive(ws, "error"))["code"] == "bad_message"
            for text, code in bad:
                await ws.send_text(text)
                error = await receive(ws, "error")
                assert error["code"] == code, text
                assert error["message"] and error["message"] != f"reason.{code}"
            record = await app.state.tables.load(table["table_id"])
            assert record.version == version


async def test_reasons_come_in_the_players_language(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await ws.send_text(json.dumps({"type": "hello", "token": table["token"], "lang": "fr"}))
            await my_turn(ws)
            await ws.send_text(json.dumps({"type": "next", "client_id": "n1"}))
            error = await receive(ws, "error")
            assert error["code"] == "deal_not_over"
            assert error["message"] == "La partie n'est pas finie."


async def test_a_game_refuses_in_its_own_words(app: FastAPI) -> None:
    # Charlemagne says "hand" where Chouine says "partie": the reason comes from the table's game.
    async with client(app) as c:
        r = await c.post("/api/tables", json={"game": "charlemagne", "options": {}})
        table = r.json()
        said = {"en": "The hand is not over yet.", "fr": "La donne n'est pas encore finie."}
        for lang, words in said.items():
            async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
                await ws.send_text(msg(type="hello", token=table["token"], lang=lang))
                await receive(ws, "state")
                await ws.send_text(msg(type="next", client_id=f"n-{lang}"))
                error = await receive(ws, "error")
                assert (error["code"], error["message"]) == ("deal_not_over", words)


async def test_repeated_client_id_is_acknowledged_not_applied_again(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            state = await my_turn(ws)
            card = state["view"]["deal"]["legal"][0]
            act = msg(type="act", client_id="same-id", action=card, version=state["version"])
            await ws.send_text(act)
            first = await receive(ws, "ack")
            assert first["duplicate"] is False
            await ws.send_text(act)
            again = await receive(ws, "ack")
            assert again["duplicate"] is True and again["version"] >= first["version"]
            record = await app.state.tables.load(table["table_id"])
            # The card was played once: it is in no hand and appears once among the tricks.
            deal = record.data["match"]["deal"]
            assert all(card not in hand for hand in deal["hands"])
            assert json.dumps([deal["tricks"], deal["trick"]]).count(f'"{card}"') == 1


async def test_two_racing_actions_exactly_one_wins(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            state = await my_turn(ws)
            legal = state["view"]["deal"]["legal"]
            service = app.state.tables
            results = await asyncio.gather(
                service.act(table["table_id"], 0, "race-a", legal[0], state["version"]),
                service.act(table["table_id"], 0, "race-b", legal[-1], state["version"]),
                return_exceptions=True,
            )
            won = [r for r in results if not isinstance(r, Exception)]
            lost = [r for r in results if isinstance(r, Exception)]
            assert len(won) == 1 and len(lost) == 1
            assert getattr(lost[0], "reason", None) == "version_conflict"


async def test_stale_version_is_refused_and_the_current_view_sent(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            state = await my_turn(ws)
            card = state["view"]["deal"]["legal"][0]
            stale = msg(type="act", client_id="s1", action=card, version=state["version"] + 7)
            await ws.send_text(stale)
            assert (await receive(ws, "error"))["code"] == "version_conflict"
            now = await receive(ws, "state")
            assert now["version"] == state["version"]


async def test_reconnecting_client_gets_the_current_view(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        path = f"/ws/tables/{table['table_id']}"
        async with aconnect_ws(path, c) as ws:
            await hello(ws, table["token"])
            state = await my_turn(ws)
            card = state["view"]["deal"]["legal"][0]
            await ws.send_text(
                json.dumps(
                    {"type": "act", "client_id": "r1", "action": card, "version": state["version"]}
                )
            )
            await receive(ws, "ack")
        record = await app.state.tables.load(table["table_id"])
        async with aconnect_ws(path, c) as ws:
            await hello(ws, table["token"], version=state["version"])
            again = await receive(ws, "state")
            assert again["version"] >= record.version > state["version"]
            assert card not in again["view"]["deal"]["hand"]


async def test_socket_needs_a_valid_seat_token_and_a_hello_first(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        other = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await ws.send_text(json.dumps({"type": "ping"}))
            assert (await receive(ws, "error"))["code"] == "hello_first"
            await hello(ws, other["token"])
            assert (await receive(ws, "error"))["code"] == "bad_token"


async def test_socket_from_another_site_is_refused(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        try:
            async with aconnect_ws(
                f"/ws/tables/{table['table_id']}", c, headers={"origin": "http://evil.example"}
            ) as ws:
                await ws.receive_text()
        except Exception as exc:  # the handshake is refused
            assert "1008" in repr(exc) or "403" in repr(exc) or "close" in repr(exc).lower()
        else:
            raise AssertionError("a foreign Origin was accepted")


async def test_message_rate_is_limited(app: FastAPI) -> None:
    # A slow rate, so that the bucket runs dry however slowly a loaded machine answers.
    app.state.settings.max_messages_per_second = 2.0
    burst = int(2 * app.state.settings.max_messages_per_second)
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            await receive(ws, "state")
            for _ in range(burst + 5):
                await ws.send_text(json.dumps({"type": "ping"}))
            codes = []
            for _ in range(burst + 5):
                msg = json.loads(await asyncio.wait_for(ws.receive_text(), 5))
                while msg["type"] == "state":
                    msg = json.loads(await asyncio.wait_for(ws.receive_text(), 5))
                codes.append(msg.get("code", msg["type"]))
            assert "rate_limited" in codes


async def test_best_of_3_restarts_the_match_at_nil_all(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            await my_turn(ws)
            await ws.send_text(
                json.dumps({"type": "new_match", "client_id": "b3", "options": {"best_of": 3}})
            )
            await receive(ws, "ack")
            state = await receive(ws, "state")
            match = state["view"]["match"]
            assert match["best_of"] == 3 and match["wins"] == [0, 0] and match["partie"] == 1
            assert state["options"] == {"best_of": 3}


async def test_a_swept_table_says_it_is_gone(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        await app.state.tables.store.delete(table["table_id"])
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            assert (await receive(ws, "error"))["code"] == "table_gone"


async def test_deeply_nested_json_is_bad_json_and_the_socket_stays_open(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            await receive(ws, "state")
            nested = "[" * 1100 + "]" * 1100
            assert len(nested.encode()) < app.state.settings.max_message_bytes
            await ws.send_text(nested)
            assert (await receive(ws, "error"))["code"] == "bad_json"
            await ws.send_text(
                '{"type": "act", "client_id": "c", "action": "x", "v": ' + nested + "}"
            )
            assert (await receive(ws, "error"))["code"] == "bad_json"
            await ws.send_text(json.dumps({"type": "ping"}))
            await receive(ws, "pong")


async def test_version_must_be_a_plain_integer(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            state = await my_turn(ws)
            card = state["view"]["deal"]["legal"][0]
            for version in (True, "3", 3.0):
                await ws.send_text(msg(type="act", client_id="v1", action=card, version=version))
                assert (await receive(ws, "error"))["code"] == "bad_message"
            await ws.send_text(
                json.dumps({"type": "hello", "token": table["token"], "version": True})
            )
            assert (await receive(ws, "error"))["code"] == "bad_message"


async def test_two_sockets_of_one_seat_resending_one_change_both_get_an_ack(
    app: FastAPI,
) -> None:
    async with client(app) as c:
        table = await new_table(c)
        path = f"/ws/tables/{table['table_id']}"
        async with aconnect_ws(path, c) as one, aconnect_ws(path, c) as two:
            await hello(one, table["token"])
            await hello(two, table["token"])
            state = await my_turn(one)
            await my_turn(two)
            card = state["view"]["deal"]["legal"][0]
            act = msg(type="act", client_id="twice", action=card, version=state["version"])
            await asyncio.gather(one.send_text(act), two.send_text(act))
            acks = [await receive(one, "ack"), await receive(two, "ack")]
            assert sorted(a["duplicate"] for a in acks) == [False, True]


async def test_a_racing_repeat_of_an_applied_change_is_acknowledged(app: FastAPI) -> None:
    service = app.state.tables
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            state = await my_turn(ws)
        card = state["view"]["deal"]["legal"][0]
        done = await asyncio.gather(
            *(service.act(table["table_id"], 0, "same", card, state["version"]) for _ in range(3))
        )
        assert sorted(d.duplicate for d in done) == [False, True, True]


async def test_new_match_refuses_options_a_person_may_not_choose(app: FastAPI) -> None:
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            await receive(ws, "state")
            for i, options in enumerate(
                ({"first_dealer": 1}, {"best_of": 4}, {"best_of": True}, {"best_of": 3.0})
            ):
                await ws.send_text(msg(type="new_match", client_id=f"n{i}", options=options))
                error = await receive(ws, "error")
                assert error["code"] in ("bad_options", "bad_message"), options
                assert error["code"] == "bad_options" or i >= 2


async def test_a_rate_limited_change_names_its_client_id(app: FastAPI) -> None:
    # A slow rate, so that the bucket runs dry however slowly a loaded machine answers.
    app.state.settings.max_messages_per_second = 2.0
    burst = int(2 * app.state.settings.max_messages_per_second)
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            await hello(ws, table["token"])
            await receive(ws, "state")
            for i in range(burst + 5):
                await ws.send_text(msg(type="act", client_id=f"r{i}", action="ZZ"))
            errors = [await receive(ws, "error") for _ in range(burst + 5)]
            limited = [e for e in errors if e["code"] == "rate_limited"]
            assert limited and all(e["client_id"] and e["client_id"][0] == "r" for e in limited)


async def test_a_socket_that_never_says_hello_is_closed(app: FastAPI) -> None:
    app.state.settings.hello_timeout_s = 0.2
    async with client(app) as c:
        table = await new_table(c)
        async with aconnect_ws(f"/ws/tables/{table['table_id']}", c) as ws:
            error = await receive(ws, "error")
            assert error["code"] == "hello_timeout"
            try:
                await asyncio.wait_for(ws.receive_text(), 5)
            except Exception as exc:  # the server closed the socket
                assert (
                    "4408" in repr(exc) or "close" in repr(exc).lower() or "Disconnect" in repr(exc)
                )
            else:
                raise AssertionError("the socket stayed open")
