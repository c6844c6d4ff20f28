"""The cluster's write-ahead gate: a node's writes to NATS, one at a time, in order, and who waits for them.

On a cluster node the durable writes (a table's journal appends, finished records) go to JetStream
instead of SQLite, and the same rule holds as on a single node: a frame goes out only once every
write made before it is acknowledged. :class:`Writes` is the outbox's
:class:`~boneyard.server.outbox.Gate` on a cluster node, and what relayed frames wait for too.

Why one at a time: a table's appends must be serialized anyway (each names the entry it follows:
that is the fence), and acknowledgements in order make "everything before this is written" a
counter. A write that fails is logged by whoever made it; the queue goes on.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

log = logging.getLogger("boneyard.cluster")

Write = Callable[[], Awaitable[bool | None]]
"""A write; it returns ``False`` when JetStream refused it (the fence): see :meth:`Writes.write`."""


class Writes:
    """Writes awaited in the order they were made; callbacks once every write made before them is done."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._queue: deque[Write] = deque()
        self._issued = 0
        self._done = 0
        self._waiting: deque[tuple[int, int, Callable[[], None]]] = deque()
        """``(writes it waits for, registration number, callback)``."""
        self._awaiting: list[tuple[int, int, asyncio.Future[bool]]] = []
        self._registered = 0
        self._cut = 0
        """A refusal drops what registered before this (see :meth:`cut`)."""
        self.on_refused: Callable[[], None] | None = None
        """Called when a write was refused, after what waited for it was dropped."""
        self._worker: asyncio.Task[None] | None = None
        self.failed: BaseException | None = None
        """Set by the node when it can no longer write at all (never by one failed write)."""

    def write(self, write: Write) -> None:
        """Queue ``write`` (a coroutine function): awaited after every write queued before it.

        A write that returns ``False`` was refused (another node owns the table now): whatever waited
        since before the last :meth:`cut` is dropped, never sent (nobody may hear of what was refused),
        and ``on_refused`` called.
        """
        self._queue.append(write)
        self._issued += 1
        if self._worker is None:
            self._worker = self._loop.create_task(self._work())

    async def _work(self) -> None:
        try:
            while self._queue:
                write = self._queue.popleft()
                refused = False
                try:
                    refused = await write() is False
                except Exception:  # the writer handles its own failures; this is the last resort
                    log.exception("a cluster write failed")
                self._done += 1
                if refused:
                    self._refuse()
                while self._waiting and self._waiting[0][0] <= self._done:
                    self._waiting.popleft()[2]()
                self._wake()
        finally:
            self._worker = None

    def cut(self) -> None:
        """A table was lost: what waits now may tell of its refused writes; what registers from now on
        does not (the table is gone), and survives the refusals still to come."""
        self._cut = self._registered

    def _refuse(self) -> None:
        cut = self._cut
        dropped = [w for w in self._waiting if w[1] <= cut]
        if dropped:
            self._waiting = deque(w for w in self._waiting if w[1] > cut)
            log.warning("a write was refused: %d flushes that waited for it dropped", len(dropped))
        refused = [future for _, number, future in self._awaiting if number <= cut and not future.done()]
        for future in refused:
            future.set_result(False)
        if self.on_refused is not None and (dropped or refused):
            self.on_refused()

    def _wake(self) -> None:
        done = self._done
        for n, _, future in self._awaiting:
            if n <= done and not future.done():
                future.set_result(True)
        self._awaiting = [w for w in self._awaiting if not w[2].done()]

    # -- the Gate protocol ------------------------------------------------------------------------------

    def pending(self) -> bool:
        return self._done < self._issued

    def broken(self) -> bool:
        return self.failed is not None

    def after_commit(self, callback: Callable[[], None]) -> None:
        if self._done >= self._issued:
            callback()
        else:
            self._registered += 1
            self._waiting.append((self._issued, self._registered, callback))

    async def committed(self) -> None:
        await self.settled()

    async def settled(self) -> bool:
        """Wait until every write made so far is done; ``False`` if one was refused meanwhile (what
        was meant to follow it must not be sent)."""
        return await self.settling()

    def settling(self) -> asyncio.Future[bool]:
        """What :meth:`settled` returns, for the writes made so far: registered now, not when awaited
        (a batch of relayed bodies waits in a queue; what it tells of is what was written before it
        was sealed, and a refusal meanwhile must reach it however late it is awaited)."""
        done: asyncio.Future[bool] = self._loop.create_future()
        if self._done >= self._issued:
            done.set_result(True)
            return done
        self._registered += 1
        self._awaiting.append((self._issued, self._registered, done))
        return done
