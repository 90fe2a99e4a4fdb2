"""Decisions as jobs: a job carries only what its seat may know (every job of whole matches of
both games is scanned for a card its seat cannot see), an answer that comes too late or is no
legal action is dropped and the computer asked again, and none is applied twice."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.games.card_scan import cards_named
from tests.games.test_contract import conformance
from tests.tables.test_service import settings
from veillee.bus import InProcessBus
from veillee.games import find, names
from veillee.store import Store
from veillee.tables import COMPUTER, HUMAN, TableService
from veillee.tables.computer import DROPPED
from veillee.tables.records import Table
from veillee.workers import Answer, Decision, InlineDeciders


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/t.db")
    yield s
    await s.close()


class Watched(InlineDeciders):
    """Decides as the workers do, and keeps each job with the table it was asked at."""

    def __init__(self) -> None:
        self.service: TableService | None = None
        self.asked: list[tuple[Decision, Table]] = []

    async def decide(self, job: Decision) -> Answer:
        assert self.service is not None
        record = await self.service.load(job.table_id)
        assert record.version == job.version  # asked at the version it names
        self.asked.append((job, Table.read(record.data)))
        return await super().decide(job)


@pytest.mark.parametrize("name", names())
async def test_no_job_of_a_whole_match_holds_a_card_its_seat_cannot_see(
    name: str, store: Store, tmp_path: Path
) -> None:
    deciders = Watched()
    service = TableService(
        store, InProcessBus(), settings(tmp_path), autoplay=False, seed=11, deciders=deciders
    )
    deciders.service = service
    game = find(name)
    record, _ = await service.create_table(name, (COMPUTER,) * game.info.seats)
    while not game.match.is_over(Table.read(record.data).match):
        stepped = await service.step(record.id)
        assert stepped is not None
        record = stepped
    data = conformance(name)
    assert len(deciders.asked) > 20
    for job, table in deciders.asked:
        state = table.match.deal
        hidden = set(data.PACK) - data.allowed_cards(state, job.seat)
        sent = json.loads(job.to_json())
        # The job is the seat's observation, its legal actions and plain numbers: nothing more.
        assert set(sent) == {
            "game",
            "seat",
            "observation",
            "legal",
            "level",
            "budget",
            "seed",
            "table_id",
            "version",
        }
        assert sent["observation"] == game.match.observation(table.match, job.seat)
        deal = {k: v for k, v in sent["observation"]["deal"].items() if k not in data.NOT_SCANNED}
        scanned = {**sent, "observation": {**sent["observation"], "deal": deal}}
        assert not cards_named(scanned, data.PACK) & hidden
        assert "deck" not in job.to_json() and 'talon"' not in job.to_json()
    await service.close()


class Slow(InlineDeciders):
    """Answers each job once the test lets it (``go``), and can answer nonsense first."""

    def __init__(self, nonsense: int = 0) -> None:
        self.go = asyncio.Event()
        self.asked: list[Decision] = []
        self.nonsense = nonsense

    async def decide(self, job: Decision) -> Answer:
        self.asked.append(job)
        await self.go.wait()
        if self.nonsense:
            self.nonsense -= 1
            return Answer("dance the polka", 0.0)
        return await super().decide(job)


async def test_an_answer_after_the_table_moved_on_is_dropped_and_asked_again(
    store: Store, tmp_path: Path
) -> None:
    deciders = Slow()
    service = TableService(store, InProcessBus(), settings(tmp_path), seed=5, deciders=deciders)
    grant = await service.create_computer_table("chouine")
    table_id = grant.table_id
    # Play until the computer is to act; then, while it thinks, the person restarts.
    for _ in range(50):
        table = Table.read((await service.load(table_id)).data)
        if table.game.match.to_act(table.match) == 1:
            break
        if deciders.asked:
            deciders.go.set()
            await asyncio.sleep(0.01)
            deciders.go.clear()
            continue
        legal = table.game.match.legal_actions(table.match)
        await service.act(table_id, 0, f"p{_}", str(legal[0]))
    while not deciders.asked:
        await asyncio.sleep(0.01)
    asked = len(deciders.asked)
    stale = DROPPED.labels("chouine", "stale")._value.get()
    before = await service.load(table_id)
    await service.new_match(table_id, 0, "restart", {"best_of": 3})
    deciders.go.set()
    for _ in range(300):
        await asyncio.sleep(0.01)
        table = Table.read((await service.load(table_id)).data)
        if table.game.match.to_act(table.match) != 1:
            break
    after = await service.load(table_id)
    table = Table.read(after.data)
    assert table.doc.options == {"best_of": 3}  # the restart stands
    assert DROPPED.labels("chouine", "stale")._value.get() == stale + 1
    # The computer was asked again at the new match whenever it was to act there.
    assert all(job.version > before.version for job in deciders.asked[asked:])
    await service.close()


async def test_an_answer_that_is_no_legal_action_is_dropped_and_asked_again(
    store: Store, tmp_path: Path
) -> None:
    deciders = Slow(nonsense=2)
    deciders.go.set()
    service = TableService(
        store, InProcessBus(), settings(tmp_path), autoplay=False, seed=9, deciders=deciders
    )
    record, _ = await service.create_table("charlemagne", (COMPUTER,) * 4)
    illegal = DROPPED.labels("charlemagne", "illegal")._value.get()
    versions = []
    for _ in range(3):
        stepped = await service.step(record.id)
        assert stepped is not None
        versions.append(stepped.version)
    # Two answers dropped (the table unmoved), the third one played once.
    assert versions == [record.version, record.version, record.version + 1]
    assert DROPPED.labels("charlemagne", "illegal")._value.get() == illegal + 2
    assert len(deciders.asked) == 3
    await service.close()


async def test_a_computer_seat_of_a_table_of_people_is_asked_with_its_own_view(
    store: Store, tmp_path: Path
) -> None:
    deciders = Watched()
    service = TableService(
        store, InProcessBus(), settings(tmp_path), autoplay=False, seed=2, deciders=deciders
    )
    deciders.service = service
    seats = (HUMAN, COMPUTER, HUMAN, COMPUTER)
    for _ in range(40):  # a deal where a computer seat bids first
        record, _ = await service.create_table("charlemagne", seats)
        table = Table.read(record.data)
        seat = table.game.match.to_act(table.match)
        if seat is not None and seats[seat] == COMPUTER:
            break
    assert seat is not None and seats[seat] == COMPUTER
    await service.step(record.id)
    job, _ = deciders.asked[0]
    assert (job.seat, job.level, job.table_id) == (seat, "usual", record.id)
    assert job.observation == table.game.match.observation(table.match, seat)
    await service.close()
