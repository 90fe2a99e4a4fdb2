"""Friends come and go (issue 25), in the table service: at a table of four the computer stands
in for a person away long enough, asked by someone still there, deciding from that seat's
observation through the deciders every computer decision takes, and only while someone is at
the table; the person's seat link gives the seat back at once (a race with a stand-in move
applies exactly one first and loses neither); the host gives a vacated seat to someone new (the
old token and link open it no more; of two racing for the new link exactly one sits); leaving
for good; and a table with a stand-in still lives 48 h after its last move (the injected
clock)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.tables.test_service import Clock, settings
from veillee.bus import InProcessBus
from veillee.games import find
from veillee.store import Record, Store
from veillee.tables import Refusal, TableDoc, TableService, seat_view
from veillee.workers import Answer, Decision, InlineDeciders

FOUR = find("charlemagne")
TWO = find("chouine")


class Recording(InlineDeciders):
    """The inline deciders, keeping every job asked; ``gate`` (when set) holds each answer
    until the test lets it go."""

    def __init__(self) -> None:
        self.jobs: list[Decision] = []
        self.gate: asyncio.Event | None = None
        self.asked = asyncio.Event()

    async def decide(self, job: Decision) -> Answer:
        self.jobs.append(job)
        self.asked.set()
        if self.gate is not None:
            await self.gate.wait()
        return await super().decide(job)


class Page:
    """A page open at a table (what presence counts): a seat with a socket."""

    def __init__(self, record_id: str, key: int) -> None:
        self.record_id = record_id
        self.key = key
        self.heard: list[list[Any]] = []

    def push_presence(self, here: list[Any]) -> None:
        self.heard.append(here)


@pytest.fixture
def deciders() -> Recording:
    return Recording()


@pytest.fixture
async def tables(
    store: Store, tmp_path: Path, clock: Clock, deciders: Recording
) -> AsyncIterator[TableService]:
    service = TableService(
        store,
        InProcessBus(),
        settings(tmp_path, stand_in_after_s=0),
        clock=clock,
        autoplay=False,
        deciders=deciders,
    )
    yield service
    await service.close()


async def four_seated(service: TableService) -> tuple[str, dict[int, str]]:
    """A shared table of four, every seat taken: its id and each seat's token."""
    host = await service.create_shared_table("charlemagne")
    tokens = {0: host.token}
    for seat in (1, 2, 3):
        tokens[seat] = (await service.join(host.table_id, seat)).token
    return host.table_id, tokens


async def at(service: TableService, table_id: str, *seats: int) -> list[Page]:
    """Pages open at ``seats`` (presence)."""
    pages = [Page(table_id, seat) for seat in seats]
    for page in pages:
        await service.live.presence.enter(page)
    return pages


def to_act(record: Record) -> int | None:
    m = FOUR.match.from_json(record.data["match"])
    seat: int | None = FOUR.match.to_act(m)
    return seat


async def play_until(service: TableService, table_id: str, seat: int | None) -> Record:
    """The seats play their first legal action until ``seat`` is to act (None: until the deal
    is over)."""
    for _ in range(200):
        record = await service.load(table_id)
        acting = to_act(record)
        if acting == seat:
            return record
        assert acting is not None
        m = FOUR.match.from_json(record.data["match"])
        action = str(FOUR.match.legal_actions(m)[0])
        await service.act(table_id, acting, f"p{record.version}", action, record.version)
    raise AssertionError(f"seat {seat} never came to act")


async def west_stood_in(service: TableService) -> tuple[str, dict[int, str], list[Page], Record]:
    """A table of four where North, East and South have a page open and the computer stands in
    for West, West to act: its id, the tokens, the pages and the table then."""
    table_id, tokens = await four_seated(service)
    pages = await at(service, table_id, 0, 1, 2)
    await service.stand_in(table_id, 0, "s-1", 3)
    return table_id, tokens, pages, await play_until(service, table_id, 3)


async def test_the_computer_stands_in_only_for_someone_away_and_only_when_asked(
    tables: TableService, store: Store, tmp_path: Path
) -> None:
    table_id, _ = await four_seated(tables)
    await at(tables, table_id, 0, 1, 2)
    for absent, reason in ((2, "still_here"), (0, "no_stand_in"), (9, "no_stand_in")):
        with pytest.raises(Refusal) as refused:
            await tables.stand_in(table_id, 0, "s-1", absent)
        assert refused.value.reason == reason
    # A slower table: West has been away no time at all yet.
    patient = TableService(store, InProcessBus(), settings(tmp_path), autoplay=False)
    try:
        await at(patient, table_id, 0)
        with pytest.raises(Refusal) as refused:
            await patient.stand_in(table_id, 0, "s-2", 3)
        assert refused.value.reason == "still_here"
    finally:
        await patient.close()
    done = await tables.stand_in(table_id, 1, "s-3", 3)
    doc = TableDoc.from_data(done.record.data)
    assert doc.stand_in == (3,) and doc.computers == (3,)
    assert seat_view(done.record, 0)["stand_in"] == [3]
    again = await tables.stand_in(table_id, 2, "s-4", 3)
    assert again.record.version == done.record.version  # asked already: nothing written


async def test_a_stand_in_decides_from_its_seat_only_through_the_deciders(
    tables: TableService, deciders: Recording
) -> None:
    table_id, _, _, record = await west_stood_in(tables)
    moved = await tables.step(table_id)
    assert moved is not None and moved.version == record.version + 1
    [job] = deciders.jobs
    m = FOUR.match.from_json(record.data["match"])
    assert job.seat == 3 and job.version == record.version
    assert job.observation == FOUR.match.observation(m, 3)
    assert list(job.legal) == [str(a) for a in FOUR.match.legal_actions(m)]


async def test_a_table_whose_people_have_all_gone_is_not_played_by_computers_alone(
    tables: TableService, deciders: Recording
) -> None:
    table_id, _, pages, _ = await west_stood_in(tables)
    for page in pages:
        await tables.live.presence.leave(page)  # every tab closed
    assert await tables.step(table_id) is None and deciders.jobs == []
    await at(tables, table_id, 1)  # someone opens the table again: the stand-in plays on
    assert await tables.step(table_id) is not None and [j.seat for j in deciders.jobs] == [3]


async def test_the_person_back_takes_the_seat_at_once_and_keeps_what_was_played(
    tables: TableService,
) -> None:
    table_id, tokens, _, record = await west_stood_in(tables)
    played = await tables.step(table_id)
    assert played is not None
    assert await tables.viewer_of(table_id, tokens[3]) == 3
    back = await tables.come_back(table_id, 3)
    assert back is not None and TableDoc.from_data(back.record.data).stand_in == ()
    assert await tables.come_back(table_id, 3) is None  # nothing more to write
    m = FOUR.match.from_json(back.record.data["match"])
    before = FOUR.match.from_json(record.data["match"])
    assert FOUR.match.view(m, 3) != FOUR.match.view(before, 3)  # the stand-in's move stays
    await play_until(tables, table_id, 3)
    assert await tables.step(table_id) is None  # the seat is its person's again


async def test_a_return_racing_a_stand_in_move_applies_one_first_and_loses_neither(
    tables: TableService, deciders: Recording
) -> None:
    table_id, _, _, record = await west_stood_in(tables)
    # The person comes back while the stand-in is deciding: the return is written first, the
    # stand-in's answer (asked at the version left) is dropped, the seat is the person's.
    deciders.gate = asyncio.Event()
    thinking = asyncio.create_task(tables.step(table_id))
    await deciders.asked.wait()
    back = await tables.come_back(table_id, 3)
    assert back is not None and back.record.version == record.version + 1
    deciders.gate.set()
    after = await thinking
    assert after is not None and after.version == back.record.version
    assert to_act(after) == 3 and after.data["match"] == record.data["match"]
    assert TableDoc.from_data(after.data).stand_in == ()
    # The other order: the stand-in moves first, then the person comes back; both are in.
    deciders.gate = None
    await tables.stand_in(table_id, 0, "s-2", 3)
    record = await play_until(tables, table_id, 3)
    moved = await tables.step(table_id)
    back = await tables.come_back(table_id, 3)
    assert moved is not None and back is not None
    assert back.record.version == moved.version + 1
    assert back.record.data["match"] == moved.data["match"] != record.data["match"]


async def test_the_host_gives_a_vacated_seat_to_someone_new(tables: TableService) -> None:
    table_id, tokens = await four_seated(tables)
    vacated: list[tuple[str, int]] = []

    async def told(table: str, seat: int) -> None:
        vacated.append((table, seat))

    tables.on_vacated(told)
    await at(tables, table_id, 0, 1, 2)
    with pytest.raises(Refusal) as refused:
        await tables.give_seat(table_id, 0, "g-0", 3)
    assert refused.value.reason == "no_stand_in"  # nobody stands in there yet
    await tables.stand_in(table_id, 1, "s-1", 3)
    with pytest.raises(Refusal) as refused:
        await tables.give_seat(table_id, 1, "g-1", 3)
    assert refused.value.reason == "not_host"
    given = await tables.give_seat(table_id, 0, "g-2", 3)
    view = seat_view(given.record, 0)
    assert view["vacant"] == [3] and view["given"] == [0, 0, 0, 1] and view["seated"][3]
    assert vacated == [(table_id, 3)]
    # The old token and the old link open the seat no more.
    with pytest.raises(Refusal) as refused:
        await tables.viewer_of(table_id, tokens[3])
    assert refused.value.reason == "seat_given"
    assert await tables.seat_of(table_id, tokens[3]) is None
    assert await tables.summaries([(table_id, tokens[3])]) == ([], [table_id])
    assert await tables.seat_refusal(table_id, 3) == "seat_given"
    assert await tables.seat_refusal(table_id, 3, 1) is None
    # The stand-in plays on until someone sits; of two racing for the new link one sits.
    record = await play_until(tables, table_id, 3)
    assert await tables.step(table_id) is not None
    results = await asyncio.gather(
        tables.join(table_id, 3, 1), tables.join(table_id, 3, 1), return_exceptions=True
    )
    grants = [r for r in results if not isinstance(r, BaseException)]
    losers = [r for r in results if isinstance(r, Refusal)]
    assert len(grants) == 1 and [r.reason for r in losers] == ["seat_taken"]
    assert await tables.viewer_of(table_id, grants[0].token) == 3
    doc = TableDoc.from_data((await tables.load(table_id)).data)
    assert doc.stand_in == () and doc.open == () and doc.present_humans == (0, 1, 2, 3)
    assert record.version < (await tables.load(table_id)).version


async def test_leaving_for_good_at_four_hands_the_seat_to_the_stand_in(
    tables: TableService,
) -> None:
    table_id, tokens = await four_seated(tables)
    await at(tables, table_id, 0, 1, 3)
    left = await tables.leave(table_id, 2, "l-1")
    doc = TableDoc.from_data(left.record.data)
    assert doc.left == (2,) and doc.stand_in == (2,)
    assert await tables.seat_of(table_id, tokens[2]) is None
    with pytest.raises(Refusal) as refused:
        await tables.viewer_of(table_id, tokens[2])
    assert refused.value.reason == "seat_given"
    assert await tables.come_back(table_id, 2) is None
    assert TableDoc.from_data((await tables.load(table_id)).data).stand_in == (2,)
    again = await tables.leave(table_id, 2, "l-2")
    assert again.record.version == left.record.version
    # The host may give it to someone new, whose token opens it.
    await tables.give_seat(table_id, 0, "g-1", 2)
    newcomer = await tables.join(table_id, 2, 1)
    assert await tables.viewer_of(table_id, newcomer.token) == 2


async def test_a_stand_in_is_ready_by_itself_for_the_next_deal(tables: TableService) -> None:
    table_id, _ = await four_seated(tables)
    await at(tables, table_id, 0, 1, 2)
    await play_until(tables, table_id, None)
    for seat in (0, 1, 2):
        await tables.next_deal(table_id, seat, f"n{seat}")
    assert to_act(await tables.load(table_id)) is None  # West has not asked
    dealt = await tables.stand_in(table_id, 0, "s-1", 3)
    assert to_act(dealt.record) is not None and dealt.record.data["ready"] == []


async def test_leaving_a_table_of_two_ends_its_match_for_both(tables: TableService) -> None:
    host = await tables.create_shared_table("chouine")
    friend = await tables.join(host.table_id)
    with pytest.raises(Refusal) as refused:
        await tables.stand_in(host.table_id, 0, "s-1", 1)
    assert refused.value.reason == "no_stand_in"  # never a computer seat at a table of two
    left = await tables.leave(host.table_id, 1, "l-1")
    doc = TableDoc.from_data(left.record.data)
    assert doc.left == (1,) and doc.stand_in == () and doc.computers == ()
    m = TWO.match.from_json(left.record.data["match"])
    with pytest.raises(Refusal) as refused:
        action = str(TWO.match.legal_actions(m)[0])
        await tables.act(host.table_id, TWO.match.to_act(m), "a-1", action)
    assert refused.value.reason == "table_left"
    assert await tables.summaries([(host.table_id, friend.token)]) == ([], [host.table_id])
    found, _ = await tables.summaries([(host.table_id, host.token)])
    assert found[0]["left"] == [1]
    assert await tables.seat_refusal(host.table_id, 1) == "table_left"


async def test_a_table_with_a_stand_in_still_expires_48_hours_after_its_last_move(
    tables: TableService, clock: Clock
) -> None:
    table_id, _, _, _ = await west_stood_in(tables)
    clock.now += timedelta(hours=47)
    await tables.step(table_id)  # the stand-in's move is a move: the table lives on
    clock.now += timedelta(hours=47, minutes=59)
    assert await tables.sweep() == []
    # Given to someone new (its seat open for them): still 48 h, not the 15 min to fill.
    await tables.give_seat(table_id, 0, "g-1", 3)
    clock.now += timedelta(hours=47, minutes=59)
    assert await tables.sweep() == []
    clock.now += timedelta(minutes=2)
    assert await tables.sweep() == [table_id]
