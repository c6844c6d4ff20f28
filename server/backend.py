"""A server's backend: where what must outlive a frame is kept, chosen once when the server starts.

Three backends: :class:`MemoryBackend` (``durable = false``: nothing outlives the process),
:class:`SQLiteBackend` (one node's database file), and the cluster's
(:class:`boneyard.server.cluster.node.ClusterNode`: NATS JetStream). The server asks every
backend the same things, in this order: its :attr:`~Backend.records`, :attr:`~Backend.table_log` and
:attr:`~Backend.gate` when the lobby and the outbox are made, its :meth:`~Backend.account_book` when the
commands are, :meth:`~Backend.load` once both exist (before the server listens), :meth:`~Backend.unhealthy`
at each ``/healthz``, and :meth:`~Backend.close` last (after the lobby stopped; also when the start failed).

>>> import asyncio
>>> async def main() -> tuple[object, object, str | None]:
...     backend = MemoryBackend(records_in_memory=10)
...     await backend.close(None)
...     return backend.gate, backend.table_log is NO_LOG, backend.unhealthy()
>>> asyncio.run(main())
(None, True, None)
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from boneyard.server.accounts.book import AccountBook
from boneyard.server.accounts.sqlite import load_book
from boneyard.server.commands import CommandSeam
from boneyard.server.lobby import Lobby
from boneyard.server.metrics import Metrics
from boneyard.server.moderation import JournalReports
from boneyard.server.outbox import Gate
from boneyard.server.ratings.sqlite import load_ratings
from boneyard.server.record_store import MemoryRecordStore, RecordStore
from boneyard.server.settings import Settings
from boneyard.server.storage.db import StorageError
from boneyard.server.storage.durable import Storage
from boneyard.server.storage.logged import NO_LOG, TableLog
from boneyard.server.storage.restore import restore

log = logging.getLogger("boneyard.server")

DB_SWITCH_INTERVAL = 0.001
"""The interpreter's GIL switch interval on a durable server (seconds)."""


class Backend(Protocol):
    """What keeps a server's tables, records and accounts (see the module's docstring for when the
    server calls each member)."""

    @property
    def records(self) -> RecordStore:
        """Finished games' records (``get_record``, ``records export``)."""
        ...

    @property
    def table_log(self) -> TableLog:
        """Where the lobby and the tables write their durable changes as they happen."""
        ...

    @property
    def gate(self) -> Gate | None:
        """What every frame waits for: the commit of each write made before it (``None``: nothing to
        wait for, an in-memory server)."""
        ...

    def account_book(self) -> AccountBook:
        """The accounts players sign in to (made once, before the commands)."""
        ...

    async def load(self, lobby: Lobby, commands: CommandSeam, metrics: Metrics) -> None:
        """Put what is stored in the lobby (tables, sessions, ratings, ...) and connect what reads it;
        :class:`~server.storage.db.StorageError` (or the backend's own error) if it cannot be served."""
        ...

    def unhealthy(self) -> str | None:
        """Why ``/healthz`` should answer 503 because of the backend, or ``None``."""
        ...

    async def close(self, lobby: Lobby | None) -> None:
        """Write what is still queued and let go (``lobby``: the stopped lobby, ``None`` if the start
        failed before it was made)."""
        ...


class MemoryBackend:
    """Nothing outlives the process (``durable = false``): records in memory, no log, no gate."""

    __slots__ = ("records",)

    table_log: TableLog = NO_LOG
    gate: Gate | None = None

    def __init__(self, records_in_memory: int) -> None:
        self.records: RecordStore = MemoryRecordStore(records_in_memory)

    def account_book(self) -> AccountBook:
        return AccountBook()

    async def load(self, lobby: Lobby, commands: CommandSeam, metrics: Metrics) -> None:
        pass

    def unhealthy(self) -> str | None:
        return None

    async def close(self, lobby: Lobby | None) -> None:
        pass


class SQLiteBackend:
    """One node's database file (``settings.db``): the journal is the gate, the tables stored there are
    restored at start, the sessions' logs written at a clean stop."""

    __slots__ = ("_path", "storage")

    def __init__(self, storage: Storage, path: Path) -> None:
        self.storage = storage
        self._path = path

    @classmethod
    async def open(
        cls, settings: Settings, metrics: Metrics, on_failure: Callable[[BaseException], None]
    ) -> SQLiteBackend:
        """Lock, check and migrate ``settings.db``; :class:`~server.storage.db.StorageError` if it
        cannot be used. ``on_failure``: called when a commit fails (nothing after it may be sent)."""
        log.info("database %s", settings.db)
        storage = await Storage.open(
            settings.db, on_failure, sync=settings.db_sync, commit_window=settings.commit_window_ms / 1000
        )
        journal = storage.journal
        journal.on_commit = metrics.watch_database(settings.db, journal.queued_statements)
        # Frames wait for the journal's worker thread, and a thread that wants the GIL from a busy
        # loop waits up to the switch interval (5 ms by default) each time it does: at 1 ms, the
        # median command-to-broadcast at 10,000 connections fell from 15 to 8 ms (bench/README.md).
        if settings.db_sync == "full":
            sys.setswitchinterval(DB_SWITCH_INTERVAL)
        return cls(storage, settings.db)

    @property
    def records(self) -> RecordStore:
        return self.storage.records

    @property
    def table_log(self) -> TableLog:
        return self.storage.log

    @property
    def gate(self) -> Gate:
        return self.storage.journal

    def account_book(self) -> AccountBook:
        return load_book(self.storage.journal, self._path)

    async def load(self, lobby: Lobby, commands: CommandSeam, metrics: Metrics) -> None:
        storage = self.storage
        lobby.ratings = load_ratings(storage.journal, self._path)
        lobby.reports.kept = JournalReports(storage.journal)
        settings = lobby.settings
        restore(
            lobby, *storage.load(), lobby.clock.wall(), settings.grace_seconds, settings.resume_buffer_frames
        )
        for table in list(lobby.tables.values()):
            lobby.remove_if_left_empty(table)  # restored tables nobody comes back to go too
        storage.log.logs_restored()
        # The first commit before listening: a server that cannot store must not look healthy.
        await storage.journal.committed()
        if storage.journal.failed is not None:
            raise StorageError(f"cannot write to {self._path}: {storage.journal.failed}")

    def unhealthy(self) -> str | None:
        return "the database failed" if self.storage.journal.failed is not None else None

    async def close(self, lobby: Lobby | None) -> None:
        if lobby is not None and self.storage.journal.failed is None:
            # Sessions' logs, for exact resumes after the restart (seats were stored as they changed).
            self.storage.log.session_logs(lobby.by_token.values())
        await self.storage.close()  # everything queued is committed first
