"""Opening the database: one server per file, checked before anything is written, migrated in steps.

``open_database(path)`` takes an exclusive lock on the database file itself (``flock``: released by the
kernel when the process dies, even by ``kill -9``; the file, not its name, so a symlink or a hard link
cannot open a second server on it) and writes its pid in ``PATH.lock`` (removed by a clean close), then
checks the file, reading only: it must be a SQLite
database (``file is not a database`` otherwise), pass ``PRAGMA quick_check``, be Boneyard's
(``application_id``) or empty, and have a schema version (``user_version``) this code knows. Only
then does it migrate, one transaction per step, and switch to WAL. Every failure is a
:class:`StorageError` with a one-line message, and leaves the file as it was.

Durability: WAL with ``synchronous=FULL``, so every commit is fsynced before it is reported done,
and survives power loss or an OS crash, not only a crash of the server process (``NORMAL`` would
lose the last commits on power loss: a client could then have seen events the server forgets).
The fsync cost is paid in a worker thread and shared by group commit (:mod:`boneyard.server.storage.journal`).

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as tmp:
...     db = open_database(pathlib.Path(tmp) / "b.db")
...     version = db.connection.execute("PRAGMA user_version").fetchone()[0]
...     second = None
...     try:
...         open_database(pathlib.Path(tmp) / "b.db")
...     except StorageError as error:
...         second = "in use" in str(error)
...     db.close()
>>> version == SCHEMA_VERSION, second
(True, True)
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from boneyard.server.storage.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from boneyard.server.storage.walcheck import check_wal

log = logging.getLogger("boneyard.storage")

__all__ = [  # the schema's names are still imported from here
    "APPLICATION_ID",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Database",
    "StorageError",
    "check",
    "connect",
    "default_path",
    "open_database",
    "open_read_only",
]

BUSY_MS = 2000
"""How long a statement waits for a lock held by another process before giving up."""


class StorageError(Exception):
    """The database cannot be used; the message is one line, for the operator."""


@dataclass(slots=True)
class Database:
    """An open, checked, migrated database, locked for this process until :meth:`close`."""

    path: Path
    connection: sqlite3.Connection
    """The writer's connection (used by one thread at a time: the journal's worker once serving)."""
    _lock_fd: int
    _lock_path: Path

    def reader(self) -> sqlite3.Connection:
        """Another connection, for reads on the event loop's thread (WAL: they never wait for the writer)."""
        return connect(self.path)

    def set_synchronous(self, mode: str) -> None:
        """``FULL`` (the default: fsync at each commit) or ``NORMAL`` (WAL: fsync at checkpoints only)."""
        if mode.upper() not in ("FULL", "NORMAL"):
            raise ValueError(f"unknown synchronous mode {mode!r}")
        self.connection.execute(f"PRAGMA synchronous = {mode.upper()}")

    def close(self) -> None:
        self.connection.close()
        _unlock(self._lock_fd, self._lock_path)


def default_path() -> Path:
    """``$XDG_DATA_HOME/boneyard/boneyard.db``, ``~/.local/share/boneyard/boneyard.db`` without it."""
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data) / "boneyard" / "boneyard.db"


def connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit), ``synchronous=FULL``."""
    target = f"file:{path}?mode=ro" if read_only else str(path)
    connection = sqlite3.connect(
        target, uri=read_only, isolation_level=None, check_same_thread=False, timeout=BUSY_MS / 1000
    )
    connection.execute("PRAGMA synchronous = FULL")
    return connection


def open_database(path: Path) -> Database:
    """Lock, check, migrate and open the database at ``path``, created (and logged) if missing.

    Only the default path's directory is created: any other path names a directory that must exist,
    so that a typo in ``--db`` is an error, not a new, empty server."""
    _check_path(path)
    if path == default_path():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StorageError(f"cannot create the directory of {path}: {error.strerror}") from None
    elif not path.parent.is_dir():
        raise StorageError(f"cannot create {path}: there is no directory {path.parent}")
    new = not path.exists() or path.stat().st_size == 0
    lock_fd, lock_path = _lock(path)
    try:
        _keep_damaged_wal(path)
        connection = _open(path)
        try:
            _migrate(connection, path, check(connection, path, writable=True))
            mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise StorageError(f"{path}: cannot switch to WAL mode (journal mode stays {mode})")
        except BaseException:
            connection.close()
            raise
    except BaseException:
        _unlock(lock_fd, lock_path)
        raise
    if new:
        log.info("new database at %s", path)
    return Database(path, connection, lock_fd, lock_path)


def open_read_only(path: Path) -> sqlite3.Connection:
    """A checked, read-only connection (for exports; a server may be writing meanwhile)."""
    if not path.is_file():
        raise StorageError(f"no database at {path}")
    connection = _open(path, read_only=True)
    try:
        check(connection, path, writable=False)
    except BaseException:
        connection.close()
        raise
    return connection


def _open(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    try:
        return connect(path, read_only=read_only)
    except sqlite3.Error as error:
        raise _error(path, error) from None


def _check_path(path: Path) -> None:
    """A path that can never be a database file: one line saying why."""
    if path.is_dir():
        raise StorageError(
            f"{path} is a directory: give the database file's path, e.g. {path / 'boneyard.db'}"
        )
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise StorageError(f"cannot create {path}: {parent} is not a directory")
            return


def _lock(path: Path) -> tuple[int, Path]:
    """An exclusive lock on the database file itself, whatever path names it (a symlink, a hard link:
    ``flock`` locks the file, not the name); its holder's pid goes in ``PATH.lock`` beside the real file.

    ``flock`` and SQLite's own POSIX locks do not interact, and the descriptor stays open until
    :meth:`Database.close` (closing any descriptor of the file would drop SQLite's POSIX locks).
    StorageError if another process holds the lock.
    """
    real = path.resolve()
    lock_path = real.with_name(real.name + ".lock")
    try:
        fd = os.open(real, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        raise StorageError(f"cannot open {path}: {error.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        try:
            holder = lock_path.read_text(errors="replace").strip() or "unknown"
        except OSError:
            holder = "unknown"
        raise StorageError(f"{path} is in use by another Boneyard server (pid {holder})") from None
    try:
        lock_path.write_text(f"{os.getpid()}\n")
    except OSError as error:
        os.close(fd)
        raise StorageError(f"cannot write the lock file {lock_path}: {error.strerror}") from None
    return fd, lock_path


def _keep_damaged_wal(path: Path) -> None:
    """Before SQLite recovers the write-ahead log: if a damaged frame would make it drop later commits
    silently, say so in one warning and keep a copy of the whole log beside the database."""
    damage = check_wal(path)
    if damage is None:
        return
    wal = path.with_name(path.name + "-wal")
    copy = path.with_name(f"{path.name}-wal.damaged-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}")
    shutil.copyfile(wal, copy)
    log.warning(
        "%s-wal is damaged: %d committed transactions after frame %d cannot be recovered and are lost "
        "(a copy of the log is kept at %s)",
        path, damage.lost_commits, damage.good_frames, copy,
    )  # fmt: skip


def _unlock(fd: int, lock_path: Path) -> None:
    """Remove the pid file, then release the lock (in that order: the next holder writes its own)."""
    lock_path.unlink(missing_ok=True)
    os.close(fd)


def check(connection: sqlite3.Connection, path: Path, *, writable: bool) -> int:
    """Read-only checks: a SQLite file, intact, Boneyard's (or empty), a schema version we know."""
    try:
        version = int(connection.execute("PRAGMA user_version").fetchone()[0])
        app_id = int(connection.execute("PRAGMA application_id").fetchone()[0])
        problems = [row[0] for row in connection.execute("PRAGMA quick_check").fetchmany(3)]
        objects = connection.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    except sqlite3.Error as error:
        raise _error(path, error) from None
    if problems != ["ok"]:
        # quick_check's rows run over several lines ("*** in database main ***", then one per problem).
        found = [line.strip() for row in problems for line in row.splitlines() if not line.startswith("***")]
        shown = "; ".join(found[:3]) + (f" (and {len(found) - 3} more)" if len(found) > 3 else "")
        raise StorageError(f"{path} is corrupt: {shown}")
    if app_id != APPLICATION_ID and (app_id != 0 or objects):
        raise StorageError(f"{path} is not a Boneyard database (it belongs to another application)")
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"{path} has schema version {version}, newer than this server knows ({SCHEMA_VERSION}): "
            "run a newer Boneyard"
        )
    if not writable and version < 1:
        raise StorageError(f"{path} holds no Boneyard data yet")
    return version


def _migrate(connection: sqlite3.Connection, path: Path, version: int) -> None:
    """Bring the schema from ``version`` to :data:`SCHEMA_VERSION`, one transaction per step."""
    try:
        for step in range(version, SCHEMA_VERSION):
            connection.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[step]:
                    connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {step + 1}")
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
    except sqlite3.Error as error:
        raise _error(path, error) from None


def _error(path: Path, error: sqlite3.Error) -> StorageError:
    text = str(error)
    if "not a database" in text or "malformed" in text:
        return StorageError(f"{path} is corrupt or not a database ({text})")
    if "locked" in text or "busy" in text:
        return StorageError(f"{path} is locked by another process ({text})")
    return StorageError(f"cannot use {path}: {text}")
