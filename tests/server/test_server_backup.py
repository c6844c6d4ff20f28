"""``boneyard-server backup`` (issue #24, item 14): a copy of a live database, taken while a real server
subprocess holds it and writes to it, that opens, holds the tables, and serves them again as a restore;
``records prune``: old records removed from a live database, the others kept."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from durability_kit import export, query, run_cli, server_on
from server_testkit import Player

from boneyard.server.storage.backup import backup_database
from boneyard.server.storage.db import SCHEMA_VERSION, StorageError, open_database

TABLES = {"tables", "seats", "sessions", "actions", "records"}


async def _until(check: str, db: Path) -> None:
    end = time.monotonic() + 30  # a safety net, not a measurement
    while not query(db, check)[0][0]:
        assert time.monotonic() < end, check
        await asyncio.sleep(0.1)


async def _bots_play(url: str, db: Path, games: int) -> None:
    """Bots-only games one after another, until ``games`` records are stored (the server writes all along)."""
    watcher = await Player.connect(url, "wes")
    for played in range(1, games + 1):
        bots = {"game": "straight", "options": {"players": 2, "target": 5}, "seat": None, "bots": [0, 1]}
        assert (await watcher.request(type="create_table", **bots)).type == "table_created"
        await _until(f"SELECT count(*) >= {played} FROM records", db)


async def test_a_backup_of_a_running_servers_database_opens_holds_its_tables_and_restores(
    tmp_path: Path,
) -> None:
    db, out = tmp_path / "boneyard.db", tmp_path / "copy.db"
    async with server_on(db) as server:
        ana = await Player.connect(server.url, "ana")
        created = await ana.request(type="create_table", game="moon", seat=0, bots=[1, 2], turn_seconds=None)
        table_id = created.table.table_id
        await _bots_play(server.url, db, 2)
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


async def test_records_prune_removes_only_the_old_records_of_a_running_server(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    async with server_on(db) as server:
        await _bots_play(server.url, db, 3)
        ids = [row[0] for row in query(db, "SELECT record_id FROM records ORDER BY finished")]
        old = ids[0]
        aged = sqlite3.connect(db, timeout=5)  # as if it had ended 40 days ago
        with aged:
            aged.execute("UPDATE records SET finished = finished - 40 * 86400 WHERE record_id = ?", (old,))
        aged.close()
        for bad in ("-1", "nan"):  # one line, exit 2, nothing removed
            code, _, err = await run_cli("records", "prune", "--db", str(db), "--older-than", bad)
            assert code == 2 and len(err.splitlines()) == 1 and "a number of days" in err, err
        code, _, err = await run_cli("records", "prune", "--db", str(db), "--older-than", "30")
        assert code == 0, err
        assert err.startswith("boneyard-server: removed 1 records of games finished before "), err
        kept = [row[0] for row in query(db, "SELECT record_id FROM records ORDER BY finished")]
        assert kept == ids[1:]
        assert len(await export(db)) == len(ids) - 1
        assert await server.stop() == 0
