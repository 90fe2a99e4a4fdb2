"""Shared tables in the table service: the link's seats (first come, exactly one per seat), the
ready handshake before each deal, the lifetimes (15 minutes to fill, 48 hours after the last
move, by an injected clock), races and repeats, and the resume list's answers."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from tests.tables.test_service import Clock
from veillee.games import find, names
from veillee.store import Store, token_hash
from veillee.tables import Refusal, TableService, seat_view

GAME = find("chouine")


async def finish_deal(service: TableService, table_id: str, tag: str = "p") -> int:
    """Both seats play their first legal action until the deal is over; the version then."""
    while True:
        record = await service.load(table_id)
        m = GAME.match.from_json(record.data["match"])
        seat = GAME.match.to_act(m)
        if seat is None:
            return record.version
        action = str(GAME.match.legal_actions(m)[0])
        await service.act(table_id, seat, f"{tag}{record.version}", action, record.version)


async def test_the_link_seats_the_first_opener_and_tells_the_next_the_table_is_full(
    service: TableService, store: Store
) -> None:
    host = await service.create_shared_table("chouine", {"best_of": 3})
    assert host.seat == 0 and len(host.token) >= 22  # ≥ 128 random bits
    record = await service.load(host.table_id)
    assert record.data["seats"] == ["human", "human"] and record.data["open"] == [1]
    assert seat_view(record, 0)["seated"] == [True, False]
    friend = await service.join(host.table_id)
    assert (friend.table_id, friend.seat) == (host.table_id, 1)
    assert friend.token != host.token
    # Stored hashed only, in the write that took the seat.
    assert await store.role_of(token_hash(friend.token)) == (host.table_id, "seat:1")
    assert await store.role_of(friend.token) is None
    after = await service.load(host.table_id)
    assert after.version == 1 and after.data["open"] == []
    assert friend.token not in str(after.data)
    assert await service.seat_of(host.table_id, friend.token) == 1
    with pytest.raises(Refusal) as full:
        await service.join(host.table_id)
    assert full.value.reason == "table_full"
    assert (await service.load(host.table_id)).version == 1


async def test_nobody_joins_a_computer_table_or_a_table_gone(service: TableService) -> None:
    computer = await service.create_computer_table("chouine")
    for table_id, reason in ((computer.table_id, "not_shared"), ("nosuchtable", "table_gone")):
        with pytest.raises(Refusal) as refused:
            await service.join(table_id)
        assert refused.value.reason == reason


async def test_two_people_racing_for_the_last_seat_exactly_one_sits(
    service: TableService,
) -> None:
    host = await service.create_shared_table("chouine")
    results = await asyncio.gather(
        *(service.join(host.table_id) for _ in range(4)), return_exceptions=True
    )
    seated = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(seated) == 1 and seated[0].seat == 1
    assert len(refused) == 3 and {r.reason for r in refused} == {"table_full"}
    assert (await service.load(host.table_id)).version == 1


async def test_nobody_plays_before_the_friend_sits(service: TableService) -> None:
    host = await service.create_shared_table("chouine")
    record = await service.load(host.table_id)
    m = GAME.match.from_json(record.data["match"])
    seat = GAME.match.to_act(m)
    with pytest.raises(Refusal) as refused:
        await service.act(host.table_id, seat, "c1", str(GAME.match.legal_actions(m)[0]))
    assert refused.value.reason == "table_not_full"
    assert (await service.load(host.table_id)).version == 0


async def test_the_first_dealer_is_drawn_by_the_server(service: TableService) -> None:
    dealers = set()
    for _ in range(24):
        host = await service.create_shared_table("chouine")
        record = await service.load(host.table_id)
        dealers.add(record.data["match"]["dealer"])
    assert dealers == {0, 1}


async def test_the_next_partie_is_dealt_once_both_seats_are_ready(
    service: TableService,
) -> None:
    host = await service.create_shared_table("chouine", {"best_of": 3})
    await service.join(host.table_id)
    version = await finish_deal(service, host.table_id)
    dealer = (await service.load(host.table_id)).data["match"]["dealer"]
    first = await service.next_deal(host.table_id, 1, "n1")  # seat 1 is ready first
    assert first.record.version == version + 1
    assert seat_view(first.record, 0)["ready"] == [1]
    assert first.record.data["match"]["partie"] == 1
    # Asking again changes nothing: no new version, no deal.
    again = await service.next_deal(host.table_id, 1, "n2")
    assert again.record.version == version + 1 and not again.duplicate
    # A resent client id is acknowledged, not applied twice.
    repeat = await service.next_deal(host.table_id, 1, "n1")
    assert repeat.duplicate and repeat.record.version == version + 1
    dealt = await service.next_deal(host.table_id, 0, "n3")
    assert dealt.record.version == version + 2
    assert dealt.record.data["match"]["partie"] == 2
    assert dealt.record.data["ready"] == []
    results = dealt.record.data["match"]["results"]
    tie = results[-1]["winner"] is None
    assert dealt.record.data["match"]["dealer"] == (dealer if tie else 1 - dealer)


async def test_both_seats_pressing_next_at_once_deal_exactly_one_partie(
    service: TableService,
) -> None:
    host = await service.create_shared_table("chouine")
    await service.join(host.table_id)
    version = await finish_deal(service, host.table_id)
    presses = [
        service.next_deal(host.table_id, seat, f"n{seat}{i}") for i in range(3) for seat in (0, 1)
    ]
    results = await asyncio.gather(*presses, return_exceptions=True)
    # A press that comes after the deal is about a partie already dealt: refused, nothing done.
    late = [r for r in results if isinstance(r, BaseException)]
    assert all(isinstance(r, Refusal) and r.reason == "deal_not_over" for r in late)
    record = await service.load(host.table_id)
    assert record.data["match"]["partie"] == 2 and record.data["ready"] == []
    # One version for the first seat's ready, one for the deal; the other presses wrote nothing.
    assert record.version == version + 2


async def test_two_plays_racing_for_one_version_exactly_one_is_applied(
    service: TableService,
) -> None:
    host = await service.create_shared_table("chouine")
    await service.join(host.table_id)
    record = await service.load(host.table_id)
    m = GAME.match.from_json(record.data["match"])
    seat = GAME.match.to_act(m)
    legal = [str(a) for a in GAME.match.legal_actions(m)]
    results = await asyncio.gather(
        *(service.act(host.table_id, seat, f"r{i}", legal[i], record.version) for i in range(3)),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(applied) == 1 and len(refused) == 2
    assert {r.reason for r in refused} == {"version_conflict"}
    assert (await service.load(host.table_id)).version == record.version + 1
    # The winner's id sent again is acknowledged, not applied twice.
    won = results.index(applied[0])
    again = await service.act(host.table_id, seat, f"r{won}", legal[won], record.version)
    assert again.duplicate and again.record.version == record.version + 1


async def test_a_finished_match_starts_again_once_both_ask_and_nobody_restarts_alone(
    service: TableService,
) -> None:
    host = await service.create_shared_table("chouine", {"best_of": 3})
    await service.join(host.table_id)
    with pytest.raises(Refusal) as refused:
        await service.new_match(host.table_id, 0, "x", {"best_of": 5})
    assert refused.value.reason == "restart_shared"
    n = 0
    while True:
        await finish_deal(service, host.table_id, f"d{n}-")
        record = await service.load(host.table_id)
        over = GAME.match.is_over(GAME.match.from_json(record.data["match"]))
        await service.next_deal(host.table_id, 0, f"a{n}")
        done = await service.next_deal(host.table_id, 1, f"b{n}")
        n += 1
        if over:
            break
    match = seat_view(done.record, 1)["view"]["match"]
    assert match["wins"] == [0, 0] and match["partie"] == 1 and match["best_of"] == 3


async def test_a_table_nobody_joins_within_15_minutes_is_swept(
    service: TableService, clock: Clock
) -> None:
    host = await service.create_shared_table("chouine")
    record = await service.load(host.table_id)
    assert record.expires_at == clock.now + timedelta(minutes=15)
    clock.now += timedelta(minutes=15) - timedelta(seconds=1)
    assert await service.sweep() == []
    clock.now += timedelta(seconds=1)
    assert await service.sweep() == [host.table_id]
    assert await service.seat_of(host.table_id, host.token) is None
    with pytest.raises(Refusal) as gone:
        await service.join(host.table_id)
    assert gone.value.reason == "table_gone"


async def test_a_seated_table_lives_48_hours_after_its_last_move(
    service: TableService, clock: Clock
) -> None:
    host = await service.create_shared_table("chouine")
    clock.now += timedelta(minutes=14)
    await service.join(host.table_id)
    record = await service.load(host.table_id)
    assert record.expires_at == clock.now + timedelta(hours=48)
    clock.now += timedelta(hours=47)
    m = GAME.match.from_json(record.data["match"])
    seat = GAME.match.to_act(m)
    await service.act(host.table_id, seat, "m1", str(GAME.match.legal_actions(m)[0]))
    clock.now += timedelta(hours=48) - timedelta(seconds=1)
    assert await service.sweep() == []
    clock.now += timedelta(seconds=1)
    assert await service.sweep() == [host.table_id]


async def test_the_resume_list_answers_only_for_the_tokens_it_is_shown(
    service: TableService, clock: Clock
) -> None:
    first = await service.create_shared_table("chouine", {"best_of": 3})
    friend = await service.join(first.table_id)
    waiting = await service.create_shared_table("chouine")
    other = await service.create_shared_table("chouine")  # someone else's: never listed
    found, gone = await service.summaries(
        [
            (first.table_id, friend.token),
            (waiting.table_id, waiting.token),
            (other.table_id, first.token),  # a token of another table opens nothing here
            ("nosuchtable", friend.token),
        ]
    )
    assert [s["table_id"] for s in found] == [first.table_id, waiting.table_id]
    assert gone == [other.table_id, "nosuchtable"]
    mine: dict[str, Any] = found[0]
    assert mine["seat"] == 1 and mine["url"] == f"/chouine/table/{first.table_id}"
    assert mine["seated"] == [True, True] and mine["match"]["wins"] == [0, 0]
    assert mine["score"] == [0, 0]
    assert mine["match"]["best_of"] == 3
    record = await service.load(first.table_id)
    assert mine["to_act"] == record.data["match"]["deal"]["to_act"]
    assert found[1]["seated"] == [True, False]
    clock.now += timedelta(minutes=16)
    await service.sweep()
    found, gone = await service.summaries([(waiting.table_id, waiting.token)])
    assert found == [] and gone == [waiting.table_id]


@pytest.mark.parametrize("game", names())
async def test_any_game_shares_its_table_seat_by_seat_and_deals_when_all_are_ready(
    service: TableService, game: str
) -> None:
    """Generic over the seat count (the registry's): the maker at seat 0, each opener the next
    seat, the next after the last told the table is full; nobody plays until every seat is
    taken; the next deal once every seat has asked."""
    seats = find(game).info.seats
    host = await service.create_shared_table(game)
    record = await service.load(host.table_id)
    assert record.data["open"] == list(range(1, seats))
    rules = find(game).match
    m = rules.from_json(record.data["match"])
    with pytest.raises(Refusal) as early:
        await service.act(host.table_id, rules.to_act(m), "e", str(rules.legal_actions(m)[0]))
    assert early.value.reason == "table_not_full"
    joined = [await service.join(host.table_id) for _ in range(seats - 1)]
    assert [g.seat for g in joined] == list(range(1, seats))
    with pytest.raises(Refusal) as full:
        await service.join(host.table_id)
    assert full.value.reason == "table_full"
    summaries, gone = await service.summaries([(host.table_id, g.token) for g in joined])
    assert [s["seat"] for s in summaries] == list(range(1, seats)) and gone == []
    while True:
        record = await service.load(host.table_id)
        m = rules.from_json(record.data["match"])
        seat = rules.to_act(m)
        if seat is None:
            break
        action = str(rules.legal_actions(m)[0])
        await service.act(host.table_id, seat, f"g{record.version}", action, record.version)
    # Once the deal is scored, each seat's resume entry gives its side's score first.
    m = rules.from_json(record.data["match"])
    summaries, _ = await service.summaries([(host.table_id, g.token) for g in joined])
    for summary in summaries:
        assert summary["score"] == list(rules.score(m, summary["seat"]))
    assert {tuple(s["score"]) for s in summaries} <= {rules.score(m, 0), rules.score(m, 0)[::-1]}
    for asking in range(seats):
        done = await service.next_deal(host.table_id, asking, f"n{asking}")
        dealt = rules.to_act(rules.from_json(done.record.data["match"])) is not None
        assert dealt == (asking == seats - 1)
        assert done.record.data["ready"] == ([] if dealt else list(range(asking + 1)))
