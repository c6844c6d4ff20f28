"""``boneyard-server records export``: finished games' records as JSON Lines, in the order they ended;
``records prune``: those that ended before a time, removed."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TextIO

from boneyard.server.storage.db import StorageError, check, connect, open_read_only


def export_records(path: Path, out: TextIO, record_id: str | None = None) -> int:
    """Write the records stored in ``path`` (only ``record_id``'s, if given) to ``out``; the count.

    Reads through a read-only connection: a server may be running on the database meanwhile.
    """
    connection = open_read_only(path)
    try:
        query = "SELECT record FROM records"
        params: tuple[str, ...] = ()
        if record_id is not None:
            query += " WHERE record_id = ?"
            params = (record_id,)
        count = 0
        for (text,) in connection.execute(query + " ORDER BY finished, rowid", params):
            out.write(text)
            out.write("\n")
            count += 1
    except sqlite3.Error as error:
        raise StorageError(f"cannot read the records of {path}: {error}") from None
    finally:
        connection.close()
    if record_id is not None and count == 0:
        raise StorageError(f"no record {record_id} in {path}")
    return count


def prune_records(path: Path, before: float) -> int:
    """Remove the records of games that ended before ``before`` (Unix seconds); how many were removed.

    One short write transaction: a server may be running on the database meanwhile (it waits for the
    lock at most its busy timeout, as this does for the server's commits).
    """
    if not path.is_file():
        raise StorageError(f"no database at {path}")
    try:
        connection = connect(path)
    except sqlite3.Error as error:
        raise StorageError(f"cannot use {path}: {error}") from None
    try:
        check(connection, path, writable=False)
        connection.execute("BEGIN IMMEDIATE")
        removed = connection.execute("DELETE FROM records WHERE finished < ?", (before,)).rowcount
        connection.execute("COMMIT")
    except sqlite3.Error as error:
        raise StorageError(f"cannot remove the records of {path}: {error}") from None
    finally:
        connection.close()
    return removed
