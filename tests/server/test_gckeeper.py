"""The garbage keeper (``server/gckeeper.py``) with the real collector: frozen cyclic garbage is
reclaimed after churn, and churn that leaves little garbage makes the next full collection wait."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref
from collections.abc import Callable, Iterator

import pytest

from boneyard.server.gckeeper import ChurnPolicy, GcKeeper


class Node:
    """A cycle: unreachable once dropped, reclaimed only by a collection."""

    def __init__(self) -> None:
        self.me = self


async def wait_for(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


@pytest.fixture
def unfrozen_after() -> Iterator[None]:
    """Everything unfrozen after the test (the freeze is the whole process's)."""
    yield
    gc.unfreeze()


async def test_frozen_cycles_are_reclaimed_after_churn_and_the_next_wait_grows(
    unfrozen_after: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="boneyard.server")
    # Counts far above what the process's other garbage could reach: a collection here finds a few
    # thousand objects (a test run's leftovers), which is next to nothing per million connections.
    open_now = 10_000_000
    gc_keeper = GcKeeper(0.01, lambda: open_now)
    task = gc_keeper.start(asyncio.get_running_loop())
    try:
        garbage = Node()
        alive = weakref.ref(garbage)
        await asyncio.sleep(0.05)  # frozen by now: no young collection will find it
        del garbage
        for _ in range(3):
            gc.collect(1)
        assert alive() is not None, "a frozen cycle is out of the young collections' reach"
        # A million connections closed (a tenth of those open): a full collection.
        gc_keeper.closed = 1_000_000
        await wait_for(lambda: alive() is None)
        await wait_for(lambda: gc_keeper.closed == 0)
        said = [r.getMessage() for r in caplog.records if "full garbage collection" in r.getMessage()]
        assert said and said[-1].startswith("full garbage collection after churn:")
        assert said[-1].endswith("1000000 connections closed")
        # That collection found next to nothing per closed connection: the next waits for 4x the churn.
        assert gc_keeper.churn.share == pytest.approx(0.4)
        gc_keeper.closed = 3_999_999
        await asyncio.sleep(0.1)
        assert gc_keeper.closed == 3_999_999, "not due: under 0.4 of those open"
        gc_keeper.closed = 4_000_000
        await wait_for(lambda: gc_keeper.closed == 0)
    finally:
        task.cancel()


def test_a_collection_that_finds_cycles_keeps_the_tenth() -> None:
    policy = ChurnPolicy()
    policy.collected(found=10_000, closed=1_000)
    assert policy.share == pytest.approx(0.1)
    for _ in range(10):
        policy.collected(found=0, closed=1_000)
    assert policy.share == pytest.approx(1.6), "capped: cycles left later are still collected"
    assert not policy.due(closed=15_999, open_now=10_000)
    assert policy.due(closed=16_000, open_now=10_000)
