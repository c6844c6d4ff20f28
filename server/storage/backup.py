"""``boneyard-server backup``: a consistent copy of a live database, through SQLite's online backup API.

The copy is read through a read-only connection that holds one read transaction from the first page to
the last: in WAL mode that is a snapshot, so a server writing meanwhile neither waits for the backup nor
makes it start over (a backup step that saw another connection's write would restart from page one, and
under a busy server might never finish). The server's checkpoints cannot pass the snapshot until the
copy is done, so its write-ahead log grows for that long.

The copy is written beside ``out`` as ``out.partial`` and renamed when complete: ``out`` is either
absent or a whole database, never half of one.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from boneyard.server.storage.db import StorageError, check, open_read_only

Progress = Callable[[int, int], None]
"""Called after each step with ``(pages copied, pages in all)``."""

PAGES_PER_STEP = 1024
"""Pages copied per step (4 MiB at SQLite's default page size): the progress is reported this often."""


def backup_database(path: Path, out: Path, progress: Progress | None = None) -> int:
    """Copy the database at ``path`` to ``out`` (which must not exist); the number of pages copied.

    :class:`~boneyard.server.storage.db.StorageError`, in one line, when ``path`` is no Boneyard
    database or ``out`` cannot be written.
    """
    if out.exists():
        raise StorageError(f"{out} exists already: give a new file (a backup never overwrites one)")
    if not out.parent.is_dir():
        raise StorageError(f"cannot write {out}: there is no directory {out.parent}")
    partial = out.with_name(out.name + ".partial")
    source = open_read_only(path)
    try:
        source.execute("BEGIN")  # one snapshot for every step (see the module's docstring)
        source.execute("SELECT count(*) FROM sqlite_schema").fetchone()
        pages = _copy(source, partial, progress)
        source.execute("COMMIT")
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise StorageError(f"cannot back up {path} to {out}: {error}") from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    os.replace(partial, out)
    return pages


def _copy(source: sqlite3.Connection, partial: Path, progress: Progress | None) -> int:
    """The backup itself, into ``partial``, checked as the server would check it before it is kept."""
    partial.unlink(missing_ok=True)  # what an interrupted backup left
    target = sqlite3.connect(partial, isolation_level=None)
    total = 0
    try:

        def step(_status: int, remaining: int, count: int) -> None:
            nonlocal total
            total = count
            if progress is not None:
                progress(count - remaining, count)

        source.backup(target, pages=PAGES_PER_STEP, progress=step)
        target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file, no -wal beside it
        check(target, partial, writable=False)
    finally:
        target.close()
    return total
