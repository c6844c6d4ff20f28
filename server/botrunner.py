"""Bots thinking off the event loop: the ``basic`` bot inline, the searching levels in worker processes.

A searching bot takes tens to hundreds of milliseconds of CPU per move; under the GIL a
thread would still stall every other table, so :class:`BotRunner` sends the work to a
small process pool (``settings.bot_workers``; 0 thinks on the loop, for tests and tiny
servers), whose workers run at a lower priority (``settings.bot_nice``) so that the
server's own process keeps the CPU for human tables. A worker gets only what the bot
may see (the seat's view) and the seed of the move's randomness, and returns the action.

Jobs wait in two queues: tables with humans first, bots-only tables after. At most
one job per worker is in flight, so a burst of bots-only tables never delays a human
table's bot by more than one move per worker. :meth:`BotRunner.choose` returns a
handle whose ``cancel()`` drops a queued job or discards a late result; the caller
applies a result only if the table is still at that move. A worker that dies (the OOM
killer, a ``kill -9``) breaks its pool for good: the moves it held are made on the loop,
and the next move starts a new pool.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import functools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool

from boneyard.server.botmoves import LazyRandom
from boneyard.server.games.registry import game_spec
from boneyard.server.host import EngineAction

log = logging.getLogger("boneyard.bots")


def think(game: str, level: str, view: object, seed: bytes) -> EngineAction:
    """The bot's action (in a worker process, or inline): its seat's view and its seed, nothing else."""
    action: EngineAction = game_spec(game).bot_at(level)(view, LazyRandom(seed))
    return action


def _worker_init(increment: int, server: int) -> None:
    """In each worker: SIGINT ignored, a lower priority, and an exit as soon as the server process is gone
    (a server killed with SIGKILL cannot stop its workers, and a worker waiting for work would never notice).

    Ctrl-C in a terminal signals the whole process group, the workers with the server: the server stops
    them itself (:meth:`BotRunner.close`), and a worker interrupted in its wait would print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if increment:
        with contextlib.suppress(OSError):  # not permitted here: run at the server's priority
            os.nice(increment)

    def watch() -> None:
        while True:
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:  # the pid is someone else's now: the server is gone
                os._exit(0)
            time.sleep(0.25)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _ready() -> None:
    """A first job, to start a worker before any bot needs it."""


class Thinking:
    """A bot move in progress; ``cancel()`` stops its result from being delivered."""

    __slots__ = ("args", "cancelled", "done", "human")

    def __init__(
        self, args: tuple[str, str, object, bytes], done: Callable[[EngineAction], None], human: bool
    ) -> None:
        self.args = args
        self.done = done
        self.human = human
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class BotRunner:
    """Runs bot choices for the tables of one server (see the module's docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, workers: int, nice: int = 5) -> None:
        self._loop = loop
        self._workers = workers
        self._nice = nice
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._queues: tuple[collections.deque[Thinking], collections.deque[Thinking]] = (
            collections.deque(),
            collections.deque(),
        )
        self._busy = 0
        self._closed = False

    def choose(
        self,
        game: str,
        level: str,
        view: object,
        seed: bytes,
        done: Callable[[EngineAction], None],
        *,
        human: bool,
    ) -> Thinking:
        """Have the ``level`` bot choose from ``view``; ``done(action)`` runs on the loop later (never
        from inside this call), unless the handle is cancelled first. ``human``: the table has humans."""
        job = Thinking((game, level, view, seed), done, human)
        if level == "basic" or self._workers == 0:
            self._loop.call_soon(self._inline, job)  # microseconds (basic), or no pool wanted
        else:
            self._queues[0 if human else 1].append(job)
            self._dispatch()
        return job

    def _inline(self, job: Thinking) -> None:
        if not job.cancelled and not self._closed:
            job.done(think(*job.args))

    def _dispatch(self) -> None:
        while self._busy < self._workers and not self._closed:
            queue = self._queues[0] or self._queues[1]
            if not queue:
                return
            job = queue.popleft()
            if job.cancelled:
                continue
            pool = self._executor()
            try:
                future = pool.submit(think, *job.args)
            except BrokenProcessPool:  # a worker died since the last move landed
                self._replace(pool)
                pool = self._executor()
                future = pool.submit(think, *job.args)
            self._busy += 1
            future.add_done_callback(functools.partial(self._landed, job, pool))

    def _landed(
        self,
        job: Thinking,
        pool: concurrent.futures.ProcessPoolExecutor,
        future: concurrent.futures.Future[EngineAction],
    ) -> None:
        """In the pool's thread: hand the result to the loop (unless the server has stopped meanwhile)."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
            self._loop.call_soon_threadsafe(self._finished, job, pool, future)

    def _finished(
        self,
        job: Thinking,
        pool: concurrent.futures.ProcessPoolExecutor,
        future: concurrent.futures.Future[EngineAction],
    ) -> None:
        self._busy -= 1
        if not job.cancelled and not self._closed:
            try:
                action = future.result()
            except BrokenProcessPool:
                log.warning(
                    "a bot worker died (killed?): its pool is started again; this move made on the loop"
                )
                self._replace(pool)
                action = think(*job.args)
            except Exception:
                log.exception("a bot worker failed; the move is made on the loop instead")
                action = think(*job.args)
            job.done(action)
        self._dispatch()

    def _replace(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        """Let a broken pool go (a worker died: the executor takes no more work), unless already replaced;
        the next move starts a new one."""
        if pool is self._pool:
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # A fork server, not a fork of this process (its loop, threads and sockets): started once per
            # process with the bots imported, it forks each worker in milliseconds.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["boneyard.server.games.registry"])
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self._workers,
                mp_context=context,
                initializer=_worker_init,
                initargs=(self._nice, os.getpid()),
            )
        return self._pool

    def start(self) -> None:
        """Start the workers now, so that the first searching move does not wait for them."""
        if self._workers and not self._closed:
            self._executor().submit(_ready)

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker (both queues)."""
        return len(self._queues[0]) + len(self._queues[1])

    def close(self) -> None:
        """Drop queued jobs, ignore results in flight, and let the workers go."""
        self._closed = True
        for queue in self._queues:
            queue.clear()
        if self._pool is not None:
            # Waits for the moves in flight (one per worker, a fraction of a second): a pool left to
            # the interpreter's exit prints a traceback from its wake-up pipe (CPython 3.11).
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
