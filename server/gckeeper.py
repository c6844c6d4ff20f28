"""Keeping garbage collections short: freeze every object each ``gc_freeze_seconds``.

A full collection walks every tracked object: with thousands of connections (some 85 objects
each) that stops the loop for hundreds of milliseconds. Young collections cost too: every
connection waiting for its next frame holds a parser generator, a coroutine and a future
made after its last one, some 60,000 objects at 3,300 commands a second, and walking them
took 10-80 ms per collection (``bench/README.md``). Freezing is cheap (a list splice) and
frozen objects are never walked, so freezing five times a second leaves young collections
only the last fraction of a second's objects.

Frozen objects are still freed by reference counting; but a frozen object that becomes
garbage in a cycle (a closed websocket connection does, some 50 objects) is only reclaimed
once unfrozen. So after enough connections have closed (a tenth of those open, at least
1,000), or every half hour, everything is unfrozen and collected once: one long pause now
and then (about a second at 10,000 connections), instead of many.
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


class GcKeeper:
    """Freezes every object each ``freeze_seconds``; unfreezes and collects once after churn (a tenth of
    ``open_connections()`` closed, at least 1,000: counted in :attr:`closed`) or every half hour."""

    __slots__ = ("closed", "freeze_seconds", "open_connections")

    def __init__(self, freeze_seconds: float, open_connections: Callable[[], int]) -> None:
        self.freeze_seconds = freeze_seconds
        self.open_connections = open_connections
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
            churned = self.closed >= max(1_000, self.open_connections() // 10)
            if churned or time.monotonic() - last > FULL_COLLECTION_SECONDS:
                last = time.monotonic()
                gc.unfreeze()
                started = time.perf_counter()
                gc.collect()
                pause = time.perf_counter() - started
                log.info("full garbage collection after churn: %.0f ms", pause * 1e3)
                self.closed = 0
            gc.freeze()
