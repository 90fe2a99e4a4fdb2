"""The table service: seats and tokens, computer seats, pacing, lifetimes and the sweeper; and
no table or web module names a game."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import veillee.live as live_package
import veillee.scores as scores_package
import veillee.tables as tables_package
import veillee.web as web_package
from veillee import sheets
from veillee.bus import InProcessBus
from veillee.config import Settings
from veillee.games import find, names
from veillee.store import Store, token_hash
from veillee.tables import COMPUTER, HUMAN, Refusal, TableService, seat_view


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/t.db")
    yield s
    await s.close()


def settings(tmp_path: Path, **overrides: int) -> Settings:
    values = {"bot_delay_ms": 0, "trick_pause_ms": 0, **overrides}
    return Settings(data_dir=tmp_path, **values)


async def computer_done(service: TableService, table_id: str) -> int:
    """Wait until no computer seat is to act; the seat to act then (or None)."""
    for _ in range(500):
        record = await service.load(table_id)
        to_act = seat_view(record, 0)["view"]["deal"]["to_act"]
        if to_act != 1:
            return int(to_act) if to_act is not None else -1
        await asyncio.sleep(0.01)
    raise AssertionError("the computer never played")


async def test_seat_token_is_stored_hashed_and_only_opens_its_own_table(
    store: Store, tmp_path: Path
) -> None:
    service = TableService(store, InProcessBus(), settings(tmp_path), autoplay=False)
    grant = await service.create_computer_table("chouine")
    other = await service.create_computer_table("chouine")
    assert grant.seat == 0 and len(grant.token) >= 22  # ≥ 128 random bits
    assert await store.role_of(token_hash(grant.token)) == (grant.table_id, "seat:0")
    assert await store.role_of(grant.token) is None
    assert await service.seat_of(grant.table_id, grant.token) == 0
    assert await service.seat_of(grant.table_id, other.token) is None
    record = await store.load(grant.table_id)
    assert grant.token not in str(record.data)
    assert record.data["seats"] == [HUMAN, COMPUTER]


async def test_computer_answers_the_persons_move(store: Store, tmp_path: Path) -> None:
    service = TableService(store, InProcessBus(), settings(tmp_path))
    grant = await service.create_computer_table("chouine", {"best_of": 3})
    computer_moves = 0
    try:
        for n in range(6):
            assert await computer_done(service, grant.table_id) == 0
            view = seat_view(await service.load(grant.table_id), 0)
            card = view["view"]["deal"]["legal"][0]
            await service.act(grant.table_id, 0, f"c{n}", card, view["version"])
            assert await computer_done(service, grant.table_id) == 0
            after = seat_view(await service.load(grant.table_id), 0)
            # The person's move is one version; anything beyond it is the computer's.
            computer_moves += after["version"] - view["version"] - 1
        assert computer_moves >= 3
        assert after["view"]["match"]["best_of"] == 3
    finally:
        await service.close()


async def test_a_computer_with_nothing_to_do_keeps_no_runner(store: Store, tmp_path: Path) -> None:
    # (an idle seat's memory: a table waiting on its person holds no ended task of the computer)
    service = TableService(store, InProcessBus(), settings(tmp_path))
    grant = await service.create_computer_table("chouine", {"best_of": 3})
    try:
        for n in range(3):
            assert await computer_done(service, grant.table_id) == 0
            for _ in range(200):
                if grant.table_id not in service._runners:
                    break
                await asyncio.sleep(0.01)
            assert grant.table_id not in service._runners
            view = seat_view(await service.load(grant.table_id), 0)
            card = view["view"]["deal"]["legal"][0]
            await service.act(grant.table_id, 0, f"c{n}", card, view["version"])
    finally:
        await service.close()


async def test_computer_moves_are_paced_by_the_bot_delay(store: Store, tmp_path: Path) -> None:
    service = TableService(store, InProcessBus(), settings(tmp_path, bot_delay_ms=300))
    record, _ = await service.create_table("chouine", (COMPUTER, COMPUTER))
    try:
        async with service.bus.subscribe(service.live.channel(record.id)) as queue:
            started = time.monotonic()
            await asyncio.wait_for(queue.get(), 5)
            first = time.monotonic() - started
            await asyncio.wait_for(queue.get(), 5)
            second = time.monotonic() - started
        assert first >= 0.25 and second - first >= 0.25
    finally:
        await service.close()


async def test_a_person_acting_out_of_turn_changes_nothing(store: Store, tmp_path: Path) -> None:
    service = TableService(store, InProcessBus(), settings(tmp_path), autoplay=False)
    record, grants = await service.create_table("chouine", (HUMAN, HUMAN))
    view = seat_view(record, 0)["view"]["deal"]
    waiting = 1 - view["to_act"]
    hand = seat_view(record, waiting)["view"]["deal"]["hand"]
    with pytest.raises(Refusal) as refused:
        await service.act(record.id, waiting, "x1", hand[0])
    assert refused.value.reason == "not_your_turn"
    assert (await service.load(record.id)).version == 0
    assert len(grants) == 2


async def test_a_restarted_server_resumes_the_computer_seat(store: Store, tmp_path: Path) -> None:
    first = TableService(store, InProcessBus(), settings(tmp_path), autoplay=False)
    record, _ = await first.create_table("chouine", (COMPUTER, COMPUTER))
    await first.close()
    again = TableService(store, InProcessBus(), settings(tmp_path))
    try:
        again.kick(record.id)
        for _ in range(500):
            if (await again.load(record.id)).version > 0:
                break
            await asyncio.sleep(0.01)
        assert (await again.load(record.id)).version > 0
    finally:
        await again.close()


async def test_a_computer_move_that_fails_is_tried_again(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    service = TableService(store, InProcessBus(), settings(tmp_path), autoplay=False)
    record, _ = await service.create_table("chouine", (COMPUTER, COMPUTER))
    commit, failed = service.live.commit, []

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        if not failed:  # the store times out once, as a busy pool does
            failed.append(True)
            raise TimeoutError("QueuePool limit reached")
        return await commit(*args, **kwargs)

    monkeypatch.setattr(service.live, "commit", flaky)
    service.autoplay = True
    try:
        service.kick(record.id)
        for _ in range(300):
            if (await service.load(record.id)).version > 0:
                break
            await asyncio.sleep(0.01)
        assert failed == [True] and (await service.load(record.id)).version > 0
        assert "computer seat failed at table " + record.id in caplog.text
    finally:
        await service.close()


async def test_sweeper_drops_computer_tables_idle_past_the_limit(
    store: Store, tmp_path: Path
) -> None:
    clock = Clock()
    bus = InProcessBus()
    service = TableService(store, bus, settings(tmp_path), clock=clock, autoplay=False)
    idle = service.settings.computer_table_idle_s
    old = await service.create_computer_table("chouine")
    clock.now += timedelta(seconds=idle // 2)
    fresh = await service.create_computer_table("chouine")
    clock.now += timedelta(seconds=idle // 2 - 1)
    assert await service.sweep() == []
    async with bus.subscribe(service.live.channel(old.table_id)) as queue:
        clock.now += timedelta(seconds=2)
        assert await service.sweep() == [old.table_id]
        assert queue.get_nowait() == "v gone"  # topic v of its channel
    with pytest.raises(Refusal) as gone:
        await service.load(old.table_id)
    assert gone.value.reason == "table_gone"
    assert await service.seat_of(old.table_id, old.token) is None
    assert (await service.load(fresh.table_id)).version == 0


async def test_a_move_keeps_the_table_alive(store: Store, tmp_path: Path) -> None:
    clock = Clock()
    service = TableService(store, InProcessBus(), settings(tmp_path), clock=clock, autoplay=False)
    record, _ = await service.create_table("chouine", (COMPUTER, COMPUTER))
    idle = service.settings.computer_table_idle_s
    clock.now += timedelta(seconds=idle - 10)
    await service.step(record.id)
    clock.now += timedelta(seconds=20)
    assert await service.sweep() == []
    clock.now += timedelta(seconds=idle)
    assert await service.sweep() == [record.id]


async def test_all_computer_table_deals_its_next_partie(store: Store, tmp_path: Path) -> None:
    service = TableService(store, InProcessBus(), settings(tmp_path), autoplay=False)
    record, _ = await service.create_table("chouine", (COMPUTER, COMPUTER), {"best_of": 3})
    parties = set()
    step = await service.step(record.id)
    while step is not None:
        parties.add(step.data["match"]["partie"])
        step = await service.step(record.id)
    final = seat_view(await service.load(record.id), 0)["view"]["match"]
    assert final["over"] and max(final["wins"]) == 2 and len(parties) >= 2


@pytest.mark.parametrize("game", names())
async def test_any_registered_game_plays_to_its_end_through_the_registry(
    game: str, store: Store, tmp_path: Path
) -> None:
    service = TableService(store, InProcessBus(), settings(tmp_path), autoplay=False)
    seats = find(game).info.seats
    record, _ = await service.create_table(game, (COMPUTER,) * seats)
    step = await service.step(record.id, record=record)
    moves = 0
    while step is not None:
        moves += 1
        step = await service.step(record.id, record=step)
    assert moves > 0
    final = seat_view(await service.load(record.id), 0)["view"]["match"]
    assert final["over"] and final["winner"] is not None


def _names_a_game(text: str, score_sheets: bool = False) -> list[str]:
    games = [*names(), *(sheets.PRESETS if score_sheets else ())]
    return [name for name in games if re.search(rf"\b{name}\b", text, re.IGNORECASE)]


def test_no_table_or_web_module_names_a_game() -> None:
    # Generic over games: everything comes from the registry (no `if game == ...`, no route or
    # option table per game), down to the comments.
    # The score sheets' presets too: each one's facts belong to its registry entry.
    preset = next(iter(sheets.PRESETS))
    assert _names_a_game(f'if game == "{names()[0].title()}":')  # the check can fail
    assert _names_a_game(f'preset = "{preset}"', score_sheets=True)
    folders = [
        Path(package.__file__).parent
        for package in (tables_package, web_package, live_package, scores_package)
    ]
    for path in [p for folder in folders for p in folder.glob("*.py")]:
        assert not _names_a_game(path.read_text(encoding="utf-8"), True), path.name


def test_only_a_games_own_templates_name_it() -> None:
    # A game's templates are <game>.html and <game>_*.html; the site's own name none.
    templates = Path(web_package.__file__).parent / "templates"
    for path in templates.glob("*.html"):
        own = {name for name in names() if re.match(rf"{name}(_.*)?\.html$", path.name)}
        assert not set(_names_a_game(path.read_text(encoding="utf-8"))) - own, path.name
