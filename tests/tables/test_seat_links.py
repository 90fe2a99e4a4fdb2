"""Seat links and the computer at a four-seat shared table (issue 10): a link names its seat and
seats exactly that one (the table's plain link takes the lowest open seat, as a two-seat table
hands out), a taken seat is said to be taken, and the maker may give open seats to the computer
before the start, which the table service then plays; races have exactly one winner."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from tests.tables.test_service import Clock
from veillee.games import find
from veillee.store import Store, token_hash
from veillee.tables import Refusal, TableService, seat_view

GAME = find("charlemagne")


async def refused(call: object) -> str:
    """The reason of the Refusal the awaitable ``call`` raises."""
    with pytest.raises(Refusal) as caught:
        await call  # type: ignore[misc]
    return caught.value.reason


async def play_deal(service: TableService, table_id: str, tag: str) -> int:
    """People play their first legal action, the computer its own, until the deal is over; the
    version then."""
    for _ in range(400):
        record = await service.load(table_id)
        m = GAME.match.from_json(record.data["match"])
        seat = GAME.match.to_act(m)
        if seat is None:
            return record.version
        if record.data["seats"][seat] == "computer":
            assert await service.step(table_id) is not None
        else:
            action = str(GAME.match.legal_actions(m)[0])
            await service.act(table_id, seat, f"{tag}{record.version}", action, record.version)
    raise AssertionError("the deal did not end")


async def test_each_seat_link_seats_exactly_its_seat(service: TableService, store: Store) -> None:
    host = await service.create_shared_table("charlemagne")
    record = await service.load(host.table_id)
    assert record.data["seats"] == ["human"] * 4 and record.data["open"] == [1, 2, 3]
    assert record.data["shared"] is True
    partner = await service.join(host.table_id, 2)
    assert (partner.table_id, partner.seat) == (host.table_id, 2)
    assert await store.role_of(token_hash(partner.token)) == (host.table_id, "seat:2")
    after = await service.load(host.table_id)
    assert after.version == 1 and after.data["open"] == [1, 3]
    assert seat_view(after, 0)["seated"] == [True, False, True, False]
    assert partner.token not in str(after.data)
    right = await service.join(host.table_id, 3)
    assert right.seat == 3
    assert (await service.load(host.table_id)).data["open"] == [1]


async def test_a_taken_seat_s_link_says_the_seat_is_taken(service: TableService) -> None:
    host = await service.create_shared_table("charlemagne")
    await service.join(host.table_id, 1)
    assert await refused(service.join(host.table_id, 1)) == "seat_taken"
    assert await refused(service.join(host.table_id, 0)) == "seat_taken"  # the maker's
    assert await refused(service.join(host.table_id, 4)) == "bad_seat"
    assert await refused(service.join(host.table_id, -1)) == "bad_seat"
    assert (await service.load(host.table_id)).version == 1
    # The plain link takes the lowest seat still open; once none is, the table is full.
    assert (await service.join(host.table_id)).seat == 2
    assert (await service.join(host.table_id)).seat == 3
    assert await refused(service.join(host.table_id)) == "table_full"
    assert await refused(service.join(host.table_id, 2)) == "seat_taken"
    assert (await service.load(host.table_id)).version == 3


async def test_people_racing_for_one_seat_link_exactly_one_sits(service: TableService) -> None:
    host = await service.create_shared_table("charlemagne")
    results = await asyncio.gather(
        *(service.join(host.table_id, 2) for _ in range(4)), return_exceptions=True
    )
    seated = [r for r in results if not isinstance(r, BaseException)]
    reasons = [r.reason for r in results if isinstance(r, Refusal)]
    assert [g.seat for g in seated] == [2] and reasons == ["seat_taken"] * 3
    record = await service.load(host.table_id)
    assert record.version == 1 and record.data["open"] == [1, 3]


async def test_the_maker_gives_the_open_seats_to_the_computer_before_the_start(
    service: TableService, clock: Clock
) -> None:
    host = await service.create_shared_table("charlemagne")
    partner = await service.join(host.table_id, 2)
    # Only the maker, only open seats, only seats the table has; nothing changes otherwise.
    assert await refused(service.fill(host.table_id, 2, "f0", [1, 3])) == "not_host"
    assert await refused(service.fill(host.table_id, 0, "f1", [2])) == "seat_taken"
    assert await refused(service.fill(host.table_id, 0, "f2", [1, 2])) == "seat_taken"
    assert await refused(service.fill(host.table_id, 0, "f3", [5])) == "bad_seat"
    assert (await service.load(host.table_id)).version == 1
    done = await service.fill(host.table_id, 0, "f4", [1])
    assert done.record.version == 2
    assert done.record.data["seats"] == ["human", "computer", "human", "human"]
    assert done.record.data["open"] == [3] and done.record.data["shared"] is True
    # Still waiting for West: nobody plays yet, and the table keeps its 15 minutes.
    assert done.record.expires_at == clock.now + timedelta(minutes=15)
    m = GAME.match.from_json(done.record.data["match"])
    first = GAME.match.to_act(m)
    action = str(GAME.match.legal_actions(m)[0])
    assert await refused(service.act(host.table_id, first, "a0", action)) == "table_not_full"
    # A resent fill is acknowledged, not applied twice; the computer's seat is taken now.
    again = await service.fill(host.table_id, 0, "f4", [1])
    assert again.duplicate and again.record.version == 2
    assert await refused(service.join(host.table_id, 1)) == "seat_computer"
    full = await service.fill(host.table_id, 0, "f5", [3])
    assert full.record.data["seats"] == ["human", "computer", "human", "computer"]
    assert full.record.data["open"] == []
    assert seat_view(full.record, 2)["seated"] == [True] * 4
    assert seat_view(full.record, 2)["shared"] is True
    # A shared table still: 48 hours after its last move, and nobody joins it any more.
    assert full.record.expires_at == clock.now + timedelta(hours=48)
    assert await refused(service.join(host.table_id)) == "table_full"
    assert await refused(service.fill(host.table_id, 0, "f6", [3])) == "seat_taken"
    assert await service.seat_of(host.table_id, partner.token) == 2


async def test_the_computer_plays_its_seats_and_the_next_hand_waits_for_the_people(
    service: TableService,
) -> None:
    host = await service.create_shared_table("charlemagne")
    await service.join(host.table_id, 2)
    await service.fill(host.table_id, 0, "fill", [1, 3])
    version = await play_deal(service, host.table_id, "h1-")
    record = await service.load(host.table_id)
    assert record.data["match"]["hand"] == 1
    # The computer needs no asking; both people do.
    first = await service.next_deal(host.table_id, 2, "n2")
    assert first.record.version == version + 1 and first.record.data["ready"] == [2]
    dealt = await service.next_deal(host.table_id, 0, "n0")
    assert dealt.record.version == version + 2
    assert dealt.record.data["match"]["hand"] == 2 and dealt.record.data["ready"] == []
    await play_deal(service, host.table_id, "h2-")


async def test_a_fill_and_a_seat_link_racing_for_one_seat_exactly_one_wins(
    service: TableService,
) -> None:
    for _ in range(6):
        host = await service.create_shared_table("charlemagne")
        results = await asyncio.gather(
            service.join(host.table_id, 3),
            service.fill(host.table_id, 0, "race", [3]),
            return_exceptions=True,
        )
        won = [r for r in results if not isinstance(r, BaseException)]
        lost = [r for r in results if isinstance(r, BaseException)]
        assert len(won) == 1 and len(lost) == 1
        # The link that lost finds the computer there (seat_computer); the fill that lost finds
        # someone sat there (seat_taken).
        joined = results[1] is lost[0]
        assert isinstance(lost[0], Refusal)
        assert lost[0].reason == ("seat_taken" if joined else "seat_computer")
        record = await service.load(host.table_id)
        assert record.version == 1 and record.data["open"] == [1, 2]
        assert record.data["seats"][3] == ("human" if joined else "computer")


async def test_a_table_against_the_computer_takes_no_fill_and_no_seat_link(
    service: TableService,
) -> None:
    grant = await service.create_computer_table("charlemagne")
    assert await refused(service.join(grant.table_id, 1)) == "not_shared"
    assert await refused(service.fill(grant.table_id, 0, "f", [1])) == "not_host"
