"""The hand-over of work from the event loop to a thread of its own (veillee.handoff)."""

from __future__ import annotations

import asyncio

import pytest

from veillee.handoff import BatchThread, CallThread, Outcome


class Doubler(BatchThread[int]):
    def __init__(self, max_batch: int) -> None:
        self.batches: list[list[int]] = []
        super().__init__("doubler", max_batch)

    def handle(self, jobs: list[int]) -> list[Outcome]:
        self.batches.append(list(jobs))
        return [(None, ValueError(job)) if job < 0 else (2 * job, None) for job in jobs]


async def test_the_jobs_of_one_turn_reach_the_thread_together_and_each_hears_its_own() -> None:
    doubler = Doubler(max_batch=64)
    try:
        results = await asyncio.gather(
            *(doubler.run(job) for job in (1, 2, -3, 4)), return_exceptions=True
        )
    finally:
        await doubler.close()
    assert results[:2] == [2, 4] and results[3] == 8
    assert isinstance(results[2], ValueError) and results[2].args == (-3,)
    assert doubler.batches == [[1, 2, -3, 4]]


async def test_a_batch_is_never_larger_than_its_bound() -> None:
    doubler = Doubler(max_batch=3)
    try:
        assert await asyncio.gather(*(doubler.run(job) for job in range(7))) == [
            2 * job for job in range(7)
        ]
    finally:
        await doubler.close()
    assert [len(batch) for batch in doubler.batches] == [3, 3, 1]


async def test_what_was_handed_over_before_the_close_is_still_done() -> None:
    calls = CallThread("calls", 16)
    done: list[int] = []
    pending = asyncio.ensure_future(calls.run(lambda: done.append(1)))
    await asyncio.sleep(0)  # handed over, perhaps not yet run
    await calls.close()
    assert await pending is None and done == [1]


async def test_a_thread_that_cannot_start_fails_every_job() -> None:
    class Broken(CallThread):
        def started(self) -> None:
            raise OSError("no database")

    broken = Broken("broken", 16)
    try:
        with pytest.raises(OSError, match="no database"):
            await broken.run(lambda: None)
    finally:
        await broken.close()
