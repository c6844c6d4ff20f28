"""``boneyard-server backup`` (issue #24, item 14): a copy of a live database, taken while a real server
subprocess holds it and writes to it, that opens, holds the tables, and serves them again as a restore."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from durability_kit import query, run_cli, server_on
from server_testkit import Player

from boneyard.server.storage.backup import backup_database
from boneyard.server.storage.db import SCHEMA_VERSION, StorageError, open_database

TABLES = {"tables", "seats", "sessions", "actions", "records"}


async def _until(check: str, db: Path) -> None:
    end = time.monotonic() + 30  # a safety net, not a measurement
    while not query(db, check)[0][0]:
        assert time.monotonic() < end, check
        await asyncio.sleep(0.1)


async def test_a_backup_of_a_running_servers_database_opens_holds_its_tables_and_restores(
    tmp_path: Path,
) -> None:
    db, out = tmp_path / "boneyard.db", tmp_path / "copy.db"
    async with server_on(db) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=None)
        table_id = created.table.table_id
        watcher = await Player.connect(server.url, "wes")  # bots-only games: the server writes all along
        for _ in range(2):
            bots = {"game": "straight", "options": {"players": 2, "target": 5}, "seat": None, "bots": [0, 1]}
            assert (await watcher.request(type="create_table", **bots)).type == "table_created"
            await _until("SELECT count(*) FROM records", db)
        code, _, err = await run_cli("backup", "--db", str(db), str(out))
        assert code == 0, err
        (line,) = err.splitlines()
        assert line.startswith(f"boneyard-server: backed up {db} to {out} (") and "pages" in line, line
        code, _, err = await run_cli("backup", "--db", str(db), str(out))  # never over an existing file
        assert code == 1 and err.strip() == f"boneyard-server: {out} exists already: give a new file " + (
            "(a backup never overwrites one)"
        ), err
        assert await server.stop() == 0

    copy = sqlite3.connect(out)
    try:
        names = {row[0] for row in copy.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
        assert names >= TABLES
        assert copy.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert copy.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file, no -wal needed
        assert copy.execute("SELECT count(*) FROM records").fetchone()[0] >= 1
        assert copy.execute("SELECT count(*) FROM tables WHERE table_id = ?", (table_id,)).fetchone()[0] == 1
    finally:
        copy.close()
    assert not out.with_name("copy.db.partial").exists()

    async with server_on(out) as restored:  # the restore: a server started on the copy
        bo = await Player.connect(restored.url, "bo")
        listing = await bo.request(type="list_tables")
        assert table_id in [t.table_id for t in listing.tables]
        assert await restored.stop() == 0


def test_each_step_reports_its_progress_and_a_writer_never_restarts_the_copy(tmp_path: Path) -> None:
    """A database of many steps' pages, written to between the steps: the pages copied only grow."""
    db = tmp_path / "big.db"
    database = open_database(db)
    writer = database.connection
    writer.execute("CREATE TABLE filler (data BLOB)")
    writer.execute("BEGIN")
    writer.executemany("INSERT INTO filler VALUES (randomblob(4000))", [()] * 3000)
    writer.execute("COMMIT")
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        seen.append((done, total))
        writer.execute("INSERT INTO filler VALUES (randomblob(4000))")  # another connection writes

    backup_database(db, tmp_path / "copy.db", progress)
    database.close()
    assert len(seen) > 2 and seen[-1][0] == seen[-1][1]
    assert [done for done, _ in seen] == sorted({done for done, _ in seen})  # forward only: no restart
    copied = sqlite3.connect(tmp_path / "copy.db")
    assert copied.execute("SELECT count(*) FROM filler").fetchone()[0] == 3000  # the snapshot at the start
    copied.close()


def test_a_path_that_is_no_database_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a database")
    for source, message in [(tmp_path / "missing.db", "no database at"), (tmp_path / "notes.txt", "corrupt")]:
        try:
            backup_database(source, tmp_path / "copy.db")
        except StorageError as error:
            assert message in str(error) and "\n" not in str(error), error
        else:
            raise AssertionError(f"{source} backed up")
    assert not list(tmp_path.glob("copy.db*"))
