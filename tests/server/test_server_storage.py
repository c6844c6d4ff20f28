"""Databases the server must refuse, each with a clear one-line error, a non-zero exit and the file
untouched; and databases it must accept: new, and written by an older version (migrated); one server per
database whatever path names it, nothing left behind by a clean stop or a server that cannot start."""

from __future__ import annotations

import asyncio
import io
import json
import os
import socket
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


# The database file an operator points at (issue #15): one server per database whatever the path that
# names it, nothing left behind by a clean stop, nothing created for a server that cannot start, and a
# clear line for a path that cannot be a database.


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_a_second_server_through_a_link_to_the_same_database_is_refused(tmp_path: Path, link: str) -> None:
    db = tmp_path / "boneyard.db"
    first = open_database(db)
    try:
        other = tmp_path / "elsewhere" / "alias.db"
        other.parent.mkdir()
        if link == "symlink":
            other.symlink_to(db)
        else:
            os.link(db, other)
        with pytest.raises(StorageError, match="in use by another Boneyard server"):
            open_database(other).close()
    finally:
        first.close()
    open_database(tmp_path / "elsewhere" / "alias.db").close()  # free again once the first is closed


async def test_a_clean_stop_leaves_no_lock_file(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    async with server_on(db) as server:
        assert await server.stop() == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".lock")) == []
    assert db.is_file()


async def test_no_database_is_created_when_the_port_cannot_be_bound(tmp_path: Path) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        db = tmp_path / "data" / "boneyard.db"
        process = await start_server(db, "--port", str(port))  # the last --port wins
        _, err = await asyncio.wait_for(process.communicate(), 20)
    finally:
        taken.close()
    assert process.returncode == 1
    assert f"cannot serve on 127.0.0.1:{port}: the port is taken" in err.decode()
    assert "Errno" not in err.decode() and "Traceback" not in err.decode()
    assert not db.exists() and not db.with_name("boneyard.db.lock").exists()


@pytest.mark.parametrize("kind", ["directory", "under a file"])
async def test_a_db_path_that_cannot_be_a_database_gets_one_clear_line(tmp_path: Path, kind: str) -> None:
    if kind == "directory":
        db = tmp_path / "somedir"
        db.mkdir()
        expected = "is a directory"
    else:
        (tmp_path / "plain").write_text("x")
        db = tmp_path / "plain" / "boneyard.db"
        expected = "is not a directory"
    process = await start_server(db)
    _, err = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 1
    (line,) = err.decode().strip().splitlines()
    assert line.startswith("boneyard-server: ") and expected in line and str(db) in line, line


async def test_a_db_in_a_missing_directory_is_one_line_and_creates_nothing(tmp_path: Path) -> None:
    """A typo in ``--db`` is an error, not a new empty server (issue #24, item 11)."""
    db = tmp_path / "nonexistent" / "dir" / "x.db"
    process = await start_server(db)
    try:
        out, err = await asyncio.wait_for(process.communicate(), 20)
    finally:
        if process.returncode is None:  # it served: not left running after the test
            process.kill()
            await process.wait()
    assert process.returncode == 1 and b"serving" not in out
    (line,) = err.decode().strip().splitlines()
    assert line == f"boneyard-server: cannot create {db}: there is no directory {db.parent}", line
    assert list(tmp_path.iterdir()) == []


async def test_the_default_database_gets_its_directory_and_the_log_says_new_database(tmp_path: Path) -> None:
    data = tmp_path / "data"  # $XDG_DATA_HOME, missing as on a fresh machine
    default = data / "boneyard" / "boneyard.db"
    env = {"XDG_DATA_HOME": str(data), "BONEYARD_LOG_LEVEL": "info"}
    for first in (True, False):
        async with server_on(None, env=env) as server:
            assert await server.stop() == 0
            assert server.process.stderr is not None
            err = (await server.process.stderr.read()).decode()
        assert default.is_file()
        assert (f"new database at {default}" in err) is first, err
    given = tmp_path / "given.db"  # an existing directory: no error, and the log says the file is new
    async with server_on(given, env={"BONEYARD_LOG_LEVEL": "info"}) as server:
        assert await server.stop() == 0
        assert server.process.stderr is not None
        assert f"new database at {given}" in (await server.process.stderr.read()).decode()
