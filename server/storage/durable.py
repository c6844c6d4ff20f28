"""A durable server's database, from start to stop: open and check, log writes, read back, close."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from boneyard.server.storage.db import Database, open_database
from boneyard.server.storage.journal import Journal
from boneyard.server.storage.store import DurableLog, SQLiteRecordStore
from boneyard.server.storage.stored import StoredSession, StoredTable, load


class Storage:
    """The database behind a server: the journal (group commit), the table log, the record store."""

    def __init__(
        self,
        db: Database,
        loop: asyncio.AbstractEventLoop,
        on_failure: Callable[[BaseException], None] | None = None,
        *,
        sync: str = "full",
        commit_window: float = 0.0,
    ) -> None:
        self.db = db
        db.set_synchronous(sync)
        self.journal = Journal(db.connection, loop, on_failure, inline=sync == "normal", window=commit_window)
        self._reader = db.reader()
        self.log = DurableLog(self.journal)
        self.records = SQLiteRecordStore(self.journal, self._reader)

    @classmethod
    async def open(
        cls,
        path: Path,
        on_failure: Callable[[BaseException], None] | None = None,
        *,
        sync: str = "full",
        commit_window: float = 0.0,
    ) -> Storage:
        """Lock, check and migrate the database (in a thread: ``quick_check`` reads the whole file);
        :class:`~server.storage.db.StorageError` if it cannot be used. ``sync``: ``Settings.db_sync``,
        ``commit_window``: ``Settings.commit_window_ms`` in seconds."""
        db = await asyncio.to_thread(open_database, path)
        return cls(db, asyncio.get_running_loop(), on_failure, sync=sync, commit_window=commit_window)

    def load(self) -> tuple[list[StoredTable], dict[str, StoredSession]]:
        """Everything to restore: the stored tables and the sessions holding their seats."""
        return load(self._reader)

    async def close(self) -> None:
        """Commit what is queued, then close the database and release its lock."""
        await self.journal.close()
        self._reader.close()
        self.db.close()
