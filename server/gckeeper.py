"""Keeping garbage collections short: freeze every object each ``gc_freeze_seconds``.

A full collection walks every tracked object: with thousands of connections (some 85 objects
each) that stops the loop for hundreds of milliseconds. Young collections cost too: every
connection waiting for its next frame holds a parser generator, a coroutine and a future
made after its last one, some 60,000 objects at 3,300 commands a second, and walking them
took 10-80 ms per collection (``bench/README.md``). Freezing is cheap (a list splice) and
frozen objects are never walked, so freezing five times a second leaves young collections
only the last fraction of a second's objects.

Frozen objects are still freed by reference counting; but a frozen object that becomes
garbage in a cycle is only reclaimed once unfrozen. So after enough connections have closed (a
tenth of those open, at least 1,000), or every half hour, everything is unfrozen and collected
once: one long pause now and then (1.3 s at 15,000 connections), instead of many. Closed
connections leave few cycles today (that collection found about one object per closed
connection at 15,000), so a churn collection that finds under :data:`CYCLES_WORTH_A_PAUSE` per
closed connection makes the next one wait for four times the churn, up to :data:`MOST_SHARE` of
the connections open (:class:`ChurnPolicy`); one that finds more brings the tenth back.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger("boneyard.server")

FULL_COLLECTION_SECONDS = 1800.0
"""At least this often, frozen objects are unfrozen and collected."""

CYCLES_WORTH_A_PAUSE = 5
"""Unreachable objects per closed connection that a churn collection must find to keep its pace."""

FIRST_SHARE = 0.1
"""The churn a collection waits for at first, and again once one finds cycles: a tenth of those open."""

MOST_SHARE = 1.6
"""The churn a collection waits for at most, as a share of the connections open (a tenth grown fourfold
twice): should closed connections start leaving cycles, a server that once found none still collects
them within about one and a half times its connections' worth of closes, not only every half hour."""


class ChurnPolicy:
    """When connections closed call for a full collection: ``share`` of those open (at least
    ``floor``; :data:`FIRST_SHARE` at first), the share growing fourfold (to :data:`MOST_SHARE` at most)
    while collections find little.

    >>> policy = ChurnPolicy()
    >>> policy.due(closed=999, open_now=3_000), policy.due(closed=1_000, open_now=3_000)
    (False, True)
    >>> policy.collected(found=1_200, closed=1_500)  # about one object a connection: not worth it
    >>> policy.share, policy.due(closed=1_500, open_now=15_000), policy.due(closed=6_000, open_now=15_000)
    (0.4, False, True)
    >>> policy.collected(found=60_000, closed=6_000)  # ten a connection: collect at a tenth again
    >>> policy.share
    0.1
    """

    __slots__ = ("floor", "share")

    def __init__(self, floor: int = 1_000) -> None:
        self.share = FIRST_SHARE
        self.floor = floor

    def due(self, closed: int, open_now: int) -> bool:
        return closed >= max(self.floor, int(open_now * self.share))

    def collected(self, found: int, closed: int) -> None:
        """A churn collection found ``found`` unreachable objects after ``closed`` connections closed."""
        if found < closed * CYCLES_WORTH_A_PAUSE:
            self.share = min(self.share * 4, MOST_SHARE)
        else:
            self.share = FIRST_SHARE


class GcKeeper:
    """Freezes every object each ``freeze_seconds``; unfreezes and collects once after churn (as its
    :class:`ChurnPolicy` says, counting closes in :attr:`closed`) or every half hour."""

    __slots__ = ("churn", "closed", "freeze_seconds", "open_connections")

    def __init__(self, freeze_seconds: float, open_connections: Callable[[], int]) -> None:
        self.freeze_seconds = freeze_seconds
        self.open_connections = open_connections
        self.churn = ChurnPolicy()
        self.closed = 0
        """Connections closed since the last full collection."""

    def start(self, loop: asyncio.AbstractEventLoop) -> asyncio.Task[None]:
        """Freeze what start-up made (modules, models, schemas: never collected), then keep freezing."""
        gc.collect()
        gc.freeze()
        return loop.create_task(self._keep_short())

    async def _keep_short(self) -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(self.freeze_seconds)
            churned = self.churn.due(self.closed, self.open_connections())
            if churned or time.monotonic() - last > FULL_COLLECTION_SECONDS:
                last = time.monotonic()
                gc.unfreeze()
                started = time.perf_counter()
                found = gc.collect()
                pause = time.perf_counter() - started
                why = "churn" if churned else "half an hour"
                log.info(
                    "full garbage collection after %s: %.0f ms, %d unreachable, %d connections closed",
                    why,
                    pause * 1e3,
                    found,
                    self.closed,
                )
                if churned:
                    self.churn.collected(found, self.closed)
                self.closed = 0
            gc.freeze()
