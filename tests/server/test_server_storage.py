"""Databases the server must refuse, each with a clear one-line error, a non-zero exit and the file
untouched; and databases it must accept: new, and written by an older version (migrated)."""

from __future__ import annotations

import io
import json
import os
import sqlite3
from pathlib import Path

import pytest
from durability_kit import export, run_cli, server_on, start_server

from boneyard.server.storage.db import MIGRATIONS, SCHEMA_VERSION, StorageError, open_database
from boneyard.server.storage.export import export_records


def sqlite_file(path: Path, *statements: str) -> Path:
    connection = sqlite3.connect(path, isolation_level=None)
    for statement in statements:
        connection.execute(statement)
    connection.close()
    return path


def corrupt_pages(path: Path) -> Path:
    """A Boneyard database whose pages past the header were overwritten."""
    db = open_database(path)
    db.connection.executemany(
        "INSERT INTO records (record_id, game, record) VALUES (?, 'moon', ?)",
        [(f"r{i}", "x" * 500) for i in range(200)],
    )
    db.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    data[4096 * 2 : 4096 * 6] = os.urandom(4096 * 4)
    path.write_bytes(bytes(data))
    return path


def random_bytes(path: Path) -> Path:
    path.write_bytes(os.urandom(8192))
    return path


BAD = {
    "not-sqlite": (random_bytes, "corrupt or not a database"),
    "corrupt": (corrupt_pages, "corrupt"),
    "newer": (lambda p: sqlite_file(p, "PRAGMA user_version = 99"), "newer than this server knows"),
    "foreign": (lambda p: sqlite_file(p, "CREATE TABLE notes (x)"), "not a Boneyard database"),
}


@pytest.mark.parametrize("kind", sorted(BAD))
async def test_a_bad_database_stops_the_server_at_start_with_one_clear_line(
    tmp_path: Path, kind: str
) -> None:
    make, message = BAD[kind]
    db = tmp_path / "boneyard.db"
    make(db)
    before = db.read_bytes()
    process = await start_server(db)
    out, err = await process.communicate()
    assert process.returncode == 1
    assert out == b""
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boneyard-server: ") and message in lines[0], lines
    assert db.read_bytes() == before
    code, out_text, err_text = await run_cli("records", "export", "--db", str(db))
    assert (code, out_text) == (1, "") and message in err_text


async def test_a_second_server_on_the_same_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    async with server_on(db) as first:
        before = db.read_bytes()
        process = await start_server(db)
        _, err = await process.communicate()
        assert process.returncode == 1
        assert f"in use by another Boneyard server (pid {first.process.pid})" in err.decode()
        assert db.read_bytes() == before
        # Reading the records of a live server's database is fine.
        assert await export(db) == []
        assert await first.stop() == 0


def test_a_database_written_by_an_older_version_is_migrated_and_keeps_its_data(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    record = {"format": "boneyard-record/1", "game": "moon"}
    sqlite_file(
        db,
        *MIGRATIONS[0],
        "PRAGMA user_version = 1",
        f"INSERT INTO records (record_id, game, record) VALUES ('r1', 'moon', '{json.dumps(record)}')",
        "INSERT INTO sessions VALUES ('tok', 'p3', 'ana')",
        "INSERT INTO actions VALUES ('t1', 1, 1, 2, '{\"type\": \"pass\"}', 0)",
        "INSERT INTO actions VALUES ('t1', 1, 0, 1, '{\"type\": \"pass\"}', 1)",
    )
    opened = open_database(db)
    connection = opened.connection
    assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert connection.execute("SELECT record_id, finished FROM records").fetchall() == [("r1", 0)]
    # Later columns come with their defaults: no message log stored (seq 0), no numbering's epoch, a
    # guest (no account, schema 12).
    sessions = connection.execute("SELECT * FROM sessions").fetchall()
    assert sessions == [("tok", "p3", "ana", 0, None, None, None)]
    # The actions, rebuilt in arrival order (schema 11), keep their order by move and gain their columns.
    actions = connection.execute("SELECT * FROM actions ORDER BY table_id, game, move").fetchall()
    assert actions == [
        ("t1", 1, 0, 1, '{"type": "pass"}', 1, None, None),
        ("t1", 1, 1, 2, '{"type": "pass"}', 0, None, None),
    ]
    with pytest.raises(sqlite3.IntegrityError):  # still one row per move
        connection.execute(
            "INSERT INTO actions (table_id, game, move, seat, action, auto) VALUES ('t1', 1, 1, 0, '{}', 0)"
        )
    opened.close()
    reopened = open_database(db)  # migrating again is a no-op
    reopened.close()


def test_a_missing_default_database_is_created_with_its_directory_and_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "new" / "dir"))
    db = tmp_path / "new" / "dir" / "boneyard" / "boneyard.db"
    open_database(db).close()
    assert db.is_file() and not db.with_name("boneyard.db.lock").exists()  # removed on close
    with pytest.raises(StorageError, match="there is no directory"):  # not the default: a typo, not made
        open_database(tmp_path / "other" / "boneyard.db")
    assert not (tmp_path / "other").exists()


def test_the_lock_is_released_on_close(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    open_database(db).close()
    open_database(db).close()
    with pytest.raises(StorageError, match="in use"):
        first = open_database(db)
        try:
            open_database(db)
        finally:
            first.close()


def test_export_writes_every_record_in_the_order_games_ended_or_one_by_id(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    opened = open_database(db)
    opened.connection.executemany(
        "INSERT INTO records (record_id, game, record, finished) VALUES (?, 'moon', ?, ?)",
        [("r2", '{"n": 2}', 20.0), ("r1", '{"n": 1}', 10.0)],
    )
    out = io.StringIO()
    assert export_records(db, out) == 2
    assert out.getvalue() == '{"n": 1}\n{"n": 2}\n'
    one = io.StringIO()
    assert export_records(db, one, "r2") == 1 and one.getvalue() == '{"n": 2}\n'
    with pytest.raises(StorageError, match="no record r9"):
        export_records(db, io.StringIO(), "r9")
    opened.close()
