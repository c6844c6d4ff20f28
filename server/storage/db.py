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

from boneyard.server.storage.walcheck import check_wal

log = logging.getLogger("boneyard.storage")

APPLICATION_ID = 0x426F6E79
"""``PRAGMA application_id`` of a Boneyard database ("Bony")."""

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: tables, their seats and the current game's actions; resume tokens; finished games' records.
    (
        f"PRAGMA application_id = {APPLICATION_ID}",
        """CREATE TABLE tables (
            table_id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            turn_seconds INTEGER,
            status TEXT NOT NULL,
            games INTEGER NOT NULL,
            seed TEXT,
            rematch TEXT NOT NULL,
            deadline REAL,
            deadline_move INTEGER
        ) WITHOUT ROWID""",
        """CREATE TABLE seats (
            table_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            name TEXT,
            bot INTEGER NOT NULL,
            auto INTEGER NOT NULL,
            token TEXT,
            PRIMARY KEY (table_id, seat)
        ) WITHOUT ROWID""",
        """CREATE TABLE sessions (
            token TEXT PRIMARY KEY,
            player_id TEXT NOT NULL,
            name TEXT NOT NULL
        ) WITHOUT ROWID""",
        """CREATE TABLE actions (
            table_id TEXT NOT NULL,
            game INTEGER NOT NULL,
            move INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            auto INTEGER NOT NULL,
            PRIMARY KEY (table_id, game, move)
        ) WITHOUT ROWID""",
        """CREATE TABLE records (
            record_id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            record TEXT NOT NULL
        )""",
    ),
    # 2: when each game finished, so that exports come out in the order games ended.
    (
        "ALTER TABLE records ADD COLUMN finished REAL NOT NULL DEFAULT 0",
        "CREATE INDEX records_by_finish ON records (finished)",
    ),
    # 3: a seat's turn timeouts in a row; a session's last seq and message log, kept over a graceful
    # restart so that a resume after it replays exactly what was missed.
    (
        "ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE sessions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE sessions ADD COLUMN log BLOB",
    ),
    # 4: a table's bot delay, as its creator set it (NULL: the server's setting).
    ("ALTER TABLE tables ADD COLUMN bot_delay_ms INTEGER",),
    # 5: the record id of the last game finished at a table (in its description).
    ("ALTER TABLE tables ADD COLUMN record_id TEXT",),
    # 6: fair deals: the current game's deal algorithm (NULL: a game stored before, dealt by the keyed
    # dealer from `seed`), the players' contributed seeds (JSON, by seat) and whether the first deal is
    # made (0: the game still waits for seeds).
    (
        "ALTER TABLE tables ADD COLUMN deal_algorithm TEXT",
        "ALTER TABLE tables ADD COLUMN player_seeds TEXT",
        "ALTER TABLE tables ADD COLUMN dealt INTEGER NOT NULL DEFAULT 1",
    ),
    # 7: who created a table, and a private table's invite code.
    (
        "ALTER TABLE tables ADD COLUMN owner TEXT",
        "ALTER TABLE tables ADD COLUMN invite TEXT",
    ),
    # 8: the level of the bot playing a seat.
    ("ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT 'basic'",),
    # 9: exact resumes after a crash: where each action's messages ended in each seated session's
    # numbering (JSON, see boneyard.server.storage.crashlog), and the numbering's epoch (one per connection).
    (
        "ALTER TABLE actions ADD COLUMN ends TEXT",
        "ALTER TABLE sessions ADD COLUMN epoch INTEGER",
    ),
    # 10: a table's pause between hands as its creator set it (NULL: the server's setting), and while it
    # pauses, the seats ready (JSON; NULL: no pause). The pause's end is stored as the turn's deadline.
    (
        "ALTER TABLE tables ADD COLUMN hand_pause_ms INTEGER",
        "ALTER TABLE tables ADD COLUMN hand_ready TEXT",
    ),
    # 11: one row per action, appended: the deadline of the move after an action goes in the action's row
    # (the table's row keeps the deadline of a game's first move), and the rows are kept in the order they
    # were written, found through an index. (Clustered by table, every commit rewrote a page per table that
    # had acted: twice the CPU per action at 300 tables.)
    (
        """CREATE TABLE actions_by_arrival (
            table_id TEXT NOT NULL,
            game INTEGER NOT NULL,
            move INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            auto INTEGER NOT NULL,
            ends TEXT,
            deadline REAL
        )""",
        """INSERT INTO actions_by_arrival (table_id, game, move, seat, action, auto, ends)
            SELECT table_id, game, move, seat, action, auto, ends FROM actions
            ORDER BY table_id, game, move""",
        "DROP TABLE actions",
        "ALTER TABLE actions_by_arrival RENAME TO actions",
        "CREATE UNIQUE INDEX actions_by_move ON actions (table_id, game, move)",
    ),
    # 12: accounts (feature accounts): each account by the key of its name (the name rules), its public
    # keys, one-time link codes as their SHA-256 (an operator's recovery code is one); the account a
    # session is signed in to (NULL: a guest). An untimed table's bot seats opened to all (bot_seats).
    # Ratings (feature ratings): a rated table's kind, each player's rating per kind (an account's key or
    # bot-<level>), and each rated game of each player. Players' reports to the operator (moderation).
    (
        """CREATE TABLE accounts (
            key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            created REAL NOT NULL,
            banned INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID""",
        """CREATE TABLE account_keys (
            public_key TEXT PRIMARY KEY,
            account TEXT NOT NULL,
            added REAL NOT NULL
        ) WITHOUT ROWID""",
        """CREATE TABLE link_codes (
            code_hash TEXT PRIMARY KEY,
            account TEXT NOT NULL,
            expires REAL NOT NULL
        ) WITHOUT ROWID""",
        "ALTER TABLE sessions ADD COLUMN account TEXT",
        "ALTER TABLE tables ADD COLUMN open_bot_seats INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE tables ADD COLUMN rated TEXT",
        """CREATE TABLE ratings (
            player TEXT NOT NULL,
            kind TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            PRIMARY KEY (player, kind)
        ) WITHOUT ROWID""",
        """CREATE TABLE rated_games (
            player TEXT NOT NULL,
            kind TEXT NOT NULL,
            seat INTEGER NOT NULL,
            record_id TEXT,
            finished REAL NOT NULL,
            before INTEGER NOT NULL,
            after INTEGER NOT NULL,
            won INTEGER NOT NULL
        )""",
        "CREATE INDEX rated_games_by_player ON rated_games (player, finished)",
        """CREATE TABLE reports (
            reporter TEXT NOT NULL,
            account TEXT,
            player TEXT NOT NULL,
            reason TEXT NOT NULL,
            at REAL NOT NULL
        )""",
    ),
)
"""``MIGRATIONS[n]`` takes a database from schema version ``n`` to ``n + 1``. Append only: a step,
once released, never changes, so that a database written by any older version opens in this one."""

SCHEMA_VERSION = len(MIGRATIONS)

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
