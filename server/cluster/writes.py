"""The cluster's write-ahead gate: a node's writes to NATS, each key's in order, and who waits for them.

On a cluster node the durable writes (a table's journal appends, finished records) go to JetStream
instead of SQLite, and the same rule holds as on a single node: a frame goes out only once every
write made before it is acknowledged. :class:`Writes` is the outbox's
:class:`~boneyard.server.outbox.Gate` on a cluster node, and what relayed frames wait for too.

Each write names a key (a table's id, a token, ...): writes of one key run one at a time in the
order they were made (a table's appends must: each names the entry it follows, the fence), writes of
different keys at once, so that a node's hundreds of tables do not wait in one line for one
another's acknowledgements (at 1,000 human tables on two nodes the single line was the latency).
"Everything made before this is written" stays a counter: the number of writes done without a gap.
A write may also wait for another key's writes made before it, or a group's (``after``: a journal
compacted or purged waits for the finished records, group :data:`RECORDS`: what it drops is then
stored elsewhere). Each record is a key of its own in that group, so records are written at once,
not one after another (a frame waits for every write made before it, so a line of records made the
node's frames wait for the slowest record write of all those queued). Not for every write before it:
at a game start on each of hundreds of tables, such barriers lined the whole node's frames up behind
one another (found by bench_cluster_load at 1,000 tables, p50 135 ms on one node).
A write that fails is logged by whoever made it; the others go on.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

log = logging.getLogger("boneyard.cluster")

RECORDS = "records"
"""The group of the finished records' writes (a journal compacted or purged waits for them)."""

Write = Callable[[], Awaitable[bool | None]]
"""A write; it returns ``False`` when JetStream refused it (the fence): see :meth:`Writes.write`."""


class Writes:
    """Writes awaited per key in the order they were made; callbacks once every write made before
    them is done."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._lines: dict[str, deque[tuple[int, Write, tuple[int, ...]]]] = {}
        """The writes still to run, per key: ``(number, write, the writes it waits for first)``."""
        self._groups: dict[str, set[int]] = {}
        """The writes of each group not yet done, by group."""
        self._group_of: dict[int, str] = {}
        self._last: dict[str, int] = {}
        """The number of the last write made with each key still running or queued."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._issued = 0
        self._done = 0
        """Every write numbered up to this one is done."""
        self._finished: set[int] = set()
        """Writes done after a write still running (numbered above ``_done + 1``)."""
        self._waiting: deque[tuple[int, int, Callable[[], None]]] = deque()
        """``(writes it waits for, registration number, callback)``."""
        self._awaiting: list[tuple[int, int, asyncio.Future[bool]]] = []
        self._registered = 0
        self._cut = 0
        """A refusal drops what registered before this (see :meth:`cut`)."""
        self.on_refused: Callable[[], None] | None = None
        """Called when a write was refused, after what waited for it was dropped."""
        self.failed: BaseException | None = None
        """Set by the node when it can no longer write at all (never by one failed write)."""
        self._following: dict[int, list[asyncio.Future[bool]]] = {}
        """Futures of writes waiting for one write to be done, by its number."""

    def write(
        self, write: Write, key: str = "", *, after: str | None = None, group: str | None = None
    ) -> None:
        """Queue ``write`` (a coroutine function): awaited after every write of ``key`` queued before it
        (and of the key or group ``after``, if given); ``group``: a group it belongs to.

        A write that returns ``False`` was refused (another node owns the table now): whatever waited
        since before the last :meth:`cut` is dropped, never sent (nobody may hear of what was refused),
        and ``on_refused`` called.
        """
        self._issued += 1
        first: tuple[int, ...] = ()
        if after is not None:
            first = (*self._groups.get(after, ()), *((self._last[after],) if after in self._last else ()))
        if group is not None:
            self._groups.setdefault(group, set()).add(self._issued)
            self._group_of[self._issued] = group
        self._last[key] = self._issued
        line = self._lines.get(key)
        if line is None:
            line = self._lines[key] = deque()
            task = self._loop.create_task(self._work(key, line))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        line.append((self._issued, write, first))

    async def _work(self, key: str, line: deque[tuple[int, Write, tuple[int, ...]]]) -> None:
        try:
            while line:
                number, write, first = line[0]
                for before in first:
                    if not self._is_done(before):
                        await self._until_done(before)
                refused = False
                try:
                    refused = await write() is False
                except Exception:  # the writer handles its own failures; this is the last resort
                    log.exception("a cluster write failed")
                line.popleft()
                if self._last.get(key) == number:
                    del self._last[key]
                self._finish(number, refused)
        finally:
            del self._lines[key]

    def _finish(self, number: int, refused: bool) -> None:
        if refused:  # before what waited for it may go
            self._refuse()
        group = self._group_of.pop(number, None)
        if group is not None:
            pending = self._groups[group]
            pending.discard(number)
            if not pending:
                del self._groups[group]
        self._finished.add(number)
        while self._done + 1 in self._finished:
            self._done += 1
            self._finished.discard(self._done)
        while self._waiting and self._waiting[0][0] <= self._done:
            self._waiting.popleft()[2]()
        self._wake()
        for future in self._following.pop(number, ()):
            if not future.done():
                future.set_result(True)

    def _is_done(self, number: int) -> bool:
        return number <= self._done or number in self._finished

    async def _until_done(self, number: int) -> None:
        done: asyncio.Future[bool] = self._loop.create_future()
        self._following.setdefault(number, []).append(done)
        await done

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
