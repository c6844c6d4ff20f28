"""Group commit: the loop queues writes and runs them, a worker thread commits, frames wait for it.

A table's step (an accepted action, a seat change, a finished game's record) appends its
statements to a queue. At the end of the loop step the journal runs everything queued in one
transaction, on the loop's thread (into SQLite's page cache: a few microseconds a statement, no
disk wait), and hands the ``COMMIT`` to one worker thread, where the WAL is written and fsynced
(``synchronous=FULL``) while the loop goes on. Whatever the loop queues meanwhile goes into the
next transaction, so one fsync covers every table's writes of that moment: the busier the server,
the bigger the batches, and the loop never waits for the disk.

Why the statements run on the loop and only the commit in the worker: every statement a thread
runs through ``sqlite3`` takes the GIL back after SQLite's work, and on a busy loop each such
handover waits up to the interpreter's switch interval (5 ms). A worker running thousands of
statements per batch then falls behind a saturated loop without bound; one handover per batch
does not.

Write-ahead: the outbox asks :meth:`Journal.after_commit` before writing frames, and writes them
only once every statement queued before them is committed. So no client ever sees an event (or any
later frame) that a crash could make the server forget. Batches complete in order, so frames keep
their order on every connection.

If a commit fails (disk full, I/O error), nothing queued after it is ever sent: the journal
reports the failure once (to ``on_failure``, which logs it: the server then stops; else in a
"critical" log line) and refuses more writes.

``window`` (``Settings.commit_window_ms``): a commit starts at most once per window. A write made
when the last commit started longer ago than that is committed in the next loop pass, as without a
window; one made sooner waits for the window to end, and everything written meanwhile shares that
commit's fsync. The fsyncs and the thread handovers are then per window, not per loop pass (as
PostgreSQL's ``commit_delay``, but only when commits come faster than the window): an idle server
adds no latency, a busy one at most the window. Frames still wait for the commit of what came
before them, so a crash loses nothing a client saw. :meth:`close` does not wait for the window.

``inline`` (``db_sync = normal``): there is no fsync to wait for, so the commit runs on the loop
right after the batch, and the frames waiting for it go out in the same pass (no thread, no GIL
handover, no window).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

log = logging.getLogger("boneyard.storage")

Statement = tuple[str, Sequence[Any]]
"""One SQL statement and its parameters."""


class Journal:
    """Statements queued and run on the loop, committed in batches by one worker thread."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        loop: asyncio.AbstractEventLoop,
        on_failure: Callable[[BaseException], None] | None = None,
        *,
        inline: bool = False,
        window: float = 0.0,
    ) -> None:
        self._connection = connection
        self._inline = inline
        self._window = 0.0 if inline else window
        """Seconds from one commit's start to the next one's, at least."""
        self._started = float("-inf")
        """When (loop time) the last batch started."""
        self._timer: asyncio.TimerHandle | None = None
        """The next batch's start, waiting for the window to end."""
        self._loop = loop
        self._on_failure = on_failure
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="boneyard-db")
        self._queued: list[Statement] = []
        self._next: list[Callable[[], None]] = []
        """Callbacks waiting for the commit of what is queued (the next batch)."""
        self._running: list[Callable[[], None]] | None = None
        """Callbacks waiting for the batch being committed; ``None``: no commit under way."""
        self._scheduled = False
        self._closed = False
        self._wakers: list[asyncio.Future[None]] = []
        """Futures of :meth:`committed`, woken on failure too."""
        self.failed: BaseException | None = None
        self.batches = 0
        """Batches taken to run so far: a statement queued while this number stays the same has not run
        yet, so its parameters can still be completed in place (see :meth:`write`)."""
        self.commits = 0
        self.statements = 0
        self.on_commit: Callable[[int, float], None] | None = None
        """Told each commit's statements and seconds (metrics)."""

    # -- the loop's side ------------------------------------------------------------------------------

    def write(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Queue a statement; it is committed with the next batch.

        ``params`` are read when the batch runs, not now: a caller may fill in a list it queued for as
        long as :attr:`batches` has not moved (one row written instead of a row and an ``UPDATE``)."""
        if self.failed is not None:
            raise RuntimeError("the database failed: nothing more is written") from self.failed
        if self._closed:
            log.warning("not stored, the server has stopped: %s", sql.split("(")[0].strip())
            return
        self._queued.append((sql, params))
        if self._running is None and not self._scheduled:
            self._schedule()

    @property
    def window(self) -> float:
        """Seconds from one commit's start to the next one's, at least (0: no window)."""
        return self._window

    def queued_statements(self) -> int:
        """Statements waiting for the next batch."""
        return len(self._queued)

    def pending(self) -> bool:
        """Something queued is not yet committed (frames must wait)."""
        return bool(self._queued) or self._running is not None or self.failed is not None

    def broken(self) -> bool:
        """A commit failed: nothing queued since will ever be committed."""
        return self.failed is not None

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once everything queued so far is committed (now, if it already is)."""
        if self._queued:
            self._next.append(callback)
        elif self._running is not None:
            self._running.append(callback)
        else:
            callback()

    async def committed(self) -> None:
        """Wait until everything queued so far is committed (or the journal failed)."""
        if not self.pending() or self.failed is not None:
            return
        done: asyncio.Future[None] = self._loop.create_future()
        self.after_commit(partial(_wake, done))
        self._wakers.append(done)
        try:
            await done
        finally:
            self._wakers.remove(done)

    async def drain(self) -> None:
        """Wait until nothing is queued or being committed (or the journal failed)."""
        while self.pending() and self.failed is None:
            await self.committed()

    async def close(self) -> None:
        """Commit what is queued, then stop the worker thread (the connection is the caller's)."""
        self._window = 0.0  # what is queued is committed now, not at the window's end
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
            self._loop.call_soon(self._submit)
        await self.drain()
        self._closed = True
        self._executor.shutdown(wait=True)

    def _wait(self) -> float:
        """Seconds until the window lets the next batch start (0 or less: now)."""
        return self._started + self._window - self._loop.time() if self._window else 0.0

    def _schedule(self) -> None:
        """Start the next batch in the next loop pass (the rest of this loop step goes in it too), or
        at the window's end."""
        self._scheduled = True
        wait = self._wait()
        if wait > 0:
            self._timer = self._loop.call_later(wait, self._submit)
        else:
            self._loop.call_soon(self._submit)

    def _submit(self) -> None:
        """Run the queued statements in a transaction and have the worker commit it."""
        self._scheduled = False
        self._timer = None
        if self._running is not None or not self._queued or self.failed is not None:
            return
        if self._window:
            self._started = self._loop.time()
        batch, self._queued = self._queued, []
        self._running, self._next = self._next, []
        self.batches += 1
        try:
            self._run(batch)
            took = self._timed_commit() if self._inline else None
        except Exception as error:
            self._fail(error)
            return
        if took is not None:
            self._done(len(batch), took)
            return
        future = self._loop.run_in_executor(self._executor, self._timed_commit)
        future.add_done_callback(partial(self._committed, len(batch)))

    def _committed(self, statements: int, future: asyncio.Future[float]) -> None:
        error = future.exception() if not future.cancelled() else asyncio.CancelledError()
        if error is not None:
            self._running = None
            self._fail(error)
            return
        self._done(statements, future.result())

    def _done(self, statements: int, took: float) -> None:
        """A batch is committed: run what waited for it, then commit what queued meanwhile."""
        waiting, self._running = self._running or [], None
        self.commits += 1
        self.statements += statements
        if self.on_commit is not None:
            self.on_commit(statements, took)
        for callback in waiting:
            callback()
        if self._queued and not self._scheduled:
            if self._wait() > 0:
                self._schedule()
            else:
                self._submit()

    def _fail(self, error: BaseException) -> None:
        self.failed = error
        for done in self._wakers:
            _wake(done)
        if self._on_failure is not None:
            self._on_failure(error)  # it says so (a server still starting says it in its one-line error)
        else:
            log.critical("the database failed; nothing more is sent or stored: %s", error)

    def _run(self, batch: list[Statement]) -> None:
        """Begin a transaction and run the batch in it (on the loop: no commit, so no disk wait).

        Runs of the same statement (mostly every table's new action) go in one ``executemany``.
        """
        connection = self._connection
        connection.execute("BEGIN")
        try:
            for sql, group in itertools.groupby(batch, key=_sql):
                rows = [params for _, params in group]
                if len(rows) == 1:
                    connection.execute(sql, rows[0])
                else:
                    connection.executemany(sql, rows)
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    # -- the worker's side ----------------------------------------------------------------------------

    def _timed_commit(self) -> float:
        """Commit; the seconds it took (the fsync, mostly)."""
        started = time.perf_counter()
        self._commit()
        return time.perf_counter() - started

    def _commit(self) -> None:
        """Commit the transaction: write and fsync the WAL (in the worker thread)."""
        connection = self._connection
        try:
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise


def _sql(statement: Statement) -> str:
    return statement[0]


def _wake(done: asyncio.Future[None]) -> None:
    if not done.done():
        done.set_result(None)
