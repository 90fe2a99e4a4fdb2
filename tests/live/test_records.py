"""The live-record core on its own: commits (client ids, races, versions), the fan-out (views
built once per version and key, from the committed record), sweeping with an injected clock,
and a sweeper that logs what fails."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from veillee.bus import InProcessBus
from veillee.live import LiveRecords, Refusal, sweep_forever
from veillee.store import Record, Store


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class Watcher:
    """A watcher that keeps what it is pushed."""

    def __init__(self) -> None:
        self.pushed: list[Record | None] = []

    def push(self, record: Record | None) -> None:
        self.pushed.append(record)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(f"sqlite+aiosqlite:///{tmp_path}/t.db")
    yield s
    await s.close()


def counter(store: Store, clock: Clock | None = None, kind: str = "count") -> LiveRecords:
    return LiveRecords(
        kind,
        store,
        InProcessBus(),
        gone="count_gone",
        lifetime=lambda data: timedelta(seconds=data.get("life", 100)),
        clock=clock,
    )


def add(n: int) -> Any:
    def change(record: Record) -> dict[str, Any]:
        return {**record.data, "n": record.data["n"] + n}

    return change


async def test_a_repeated_client_id_is_acknowledged_without_being_judged_again(
    store: Store,
) -> None:
    live = counter(store)
    record = await live.create({"n": 0}, {})
    first = await live.commit(record.id, add(1), client_id="c1")

    def refuse(_: Record) -> dict[str, Any]:
        raise Refusal("would_be_refused_now")

    again = await live.commit(record.id, refuse, client_id="c1")
    assert (first.duplicate, again.duplicate) == (False, True)
    assert again.record.version == 1 and again.record.data["n"] == 1


async def test_changes_without_a_version_are_judged_again_after_a_lost_race(store: Store) -> None:
    live = counter(store)
    record = await live.create({"n": 0}, {})
    done = await asyncio.gather(
        *(live.commit(record.id, add(1), client_id=f"c{i}") for i in range(4))
    )
    assert sorted(d.record.version for d in done) == [1, 2, 3, 4]
    assert (await live.load(record.id)).data["n"] == 4


async def test_changes_made_on_a_version_race_and_exactly_one_wins(store: Store) -> None:
    live = counter(store)
    record = await live.create({"n": 0}, {})
    results = await asyncio.gather(
        *(live.commit(record.id, add(1), client_id=f"c{i}", version=0) for i in range(4)),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(refused) == 3 and {r.reason for r in refused} == {"version_conflict"}
    assert (await live.load(record.id)).data["n"] == 1


async def test_a_record_of_another_kind_or_none_is_gone(store: Store) -> None:
    counts, others = counter(store), counter(store, kind="other")
    record = await counts.create({"n": 0}, {"tok-0123456789abcdef": "scorer"})
    for live, record_id in ((others, record.id), (counts, "nothing")):
        with pytest.raises(Refusal) as gone:
            await live.commit(record_id, add(1))
        assert gone.value.reason == "count_gone"
    assert await counts.role(record.id, "tok-0123456789abcdef") == "scorer"
    assert await counts.role("nothing", "tok-0123456789abcdef") is None


async def test_the_fanout_hands_over_the_committed_record_and_builds_a_view_once_per_key(
    store: Store,
) -> None:
    live = counter(store)
    record = await live.create({"n": 0}, {})
    seat_0, seat_0_again, seat_1 = Watcher(), Watcher(), Watcher()
    built: list[tuple[int, int]] = []

    def build(record: Record, key: int) -> str:
        built.append((record.version, key))
        return f"v{record.version} for {key}"

    async with (
        live.fanout.watch(record.id, seat_0),
        live.fanout.watch(record.id, seat_0_again),
        live.fanout.watch(record.id, seat_1),
    ):
        done = await live.commit(record.id, add(5))
        for watcher, key in ((seat_0, 0), (seat_0_again, 0), (seat_1, 1)):
            assert watcher.pushed == [done.record]  # the committed record itself, no reload
            assert live.fanout.view(done.record, key, build) == f"v1 for {key}"
        await asyncio.sleep(0.05)  # the bus brings this process's own version back: ignored
        assert [len(w.pushed) for w in (seat_0, seat_0_again, seat_1)] == [1, 1, 1]
    assert built == [(1, 0), (1, 1)]


async def test_a_record_only_loaded_is_kept_as_text_and_a_handed_one_as_it_is(
    store: Store,
) -> None:
    live = counter(store)
    record = await live.create({"n": 0, "names": ["Ann", "Bo"]}, {})
    assert live.latest(record.id) is None  # not followed: nothing kept
    async with live.fanout.watch(record.id, Watcher()):
        loaded = await live.load(record.id)
        kept = live.fanout._followed[record.id]
        assert kept.text == '{"n":0,"names":["Ann","Bo"]}' and kept.record is not None
        assert kept.record.data == {}  # the parsed document is not held
        assert live.latest(record.id) == loaded  # parsed again when asked
        assert live.latest(record.id) is not live.latest(record.id)
        done = await live.commit(record.id, add(2))
        assert kept.text is None and live.latest(record.id) is done.record
        live.fanout.known(loaded)  # an older version loaded later changes nothing
        assert live.latest(record.id) is done.record
    assert live.latest(record.id) is None


async def test_sweep_deletes_what_has_run_out_at_the_clocks_time_and_tells_watchers(
    store: Store,
) -> None:
    clock = Clock()
    live = counter(store, clock)
    short = await live.create({"n": 0, "life": 60}, {})
    long = await live.create({"n": 0, "life": 600}, {})
    watcher = Watcher()
    async with live.fanout.watch(short.id, watcher):
        clock.now += timedelta(seconds=59)
        assert await live.sweep() == []
        clock.now += timedelta(seconds=2)
        assert await live.sweep() == [short.id]
        assert watcher.pushed == [None]
    with pytest.raises(Refusal):
        await live.load(short.id)
    assert (await live.load(long.id)).version == 0


async def test_a_change_keeps_a_record_alive(store: Store) -> None:
    clock = Clock()
    live = counter(store, clock)
    record = await live.create({"n": 0, "life": 60}, {})
    clock.now += timedelta(seconds=50)
    await live.commit(record.id, add(1))
    clock.now += timedelta(seconds=50)
    assert await live.sweep() == []
    clock.now += timedelta(seconds=11)
    assert await live.sweep() == [record.id]


async def test_the_sweeper_logs_a_failing_sweep_and_keeps_sweeping(
    caplog: pytest.LogCaptureFixture,
) -> None:
    calls = {"broken": 0, "fine": 0}

    async def broken() -> list[str]:
        calls["broken"] += 1
        raise RuntimeError("the store is away")

    async def fine() -> list[str]:
        calls["fine"] += 1
        return []

    with caplog.at_level(logging.ERROR, logger="veillee.live.records"):
        sweeper = asyncio.create_task(sweep_forever((broken, fine), 0.01))
        while calls["fine"] < 3:
            await asyncio.sleep(0.01)
        sweeper.cancel()
        await asyncio.gather(sweeper, return_exceptions=True)
    assert calls["broken"] >= 3
    failures = [r for r in caplog.records if r.message.startswith("sweep failed")]
    assert failures and failures[0].exc_info and "the store is away" in caplog.text
