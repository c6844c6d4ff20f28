"""One row per accepted action: its ends and the next move's deadline go in the row while it is queued.

The durable log on a real SQLite file and journal, no server: what is written, in how many
statements, and what a restart reads back.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from boneyard.server.games.moon import Pass
from boneyard.server.storage.db import Database, open_database
from boneyard.server.storage.journal import Journal
from boneyard.server.storage.store import DurableLog
from boneyard.server.storage.stored import StoredTable, load

TABLE = "t1"


@asynccontextmanager
async def durable_log(path: Path) -> AsyncIterator[tuple[DurableLog, Database]]:
    db = open_database(path)
    journal = Journal(db.connection, asyncio.get_running_loop())
    journal.write(
        "INSERT INTO tables (table_id, game, options, status, games, rematch) VALUES (?, ?, ?, ?, ?, ?)",
        (TABLE, "moon", "{}", "playing", 1, "[]"),
    )
    await journal.drain()
    try:
        yield DurableLog(journal), db
    finally:
        await journal.close()
        db.close()


def stored_table(db: Database) -> StoredTable:
    reader = db.reader()
    try:
        tables, _ = load(reader)
    finally:
        reader.close()
    return tables[0]


def rows(db: Database) -> list[tuple[Any, ...]]:
    reader = db.reader()
    try:
        return reader.execute("SELECT move, seat, ends, deadline FROM actions ORDER BY move").fetchall()
    finally:
        reader.close()


async def test_an_action_its_ends_and_the_next_deadline_are_one_statement(tmp_path: Path) -> None:
    async with durable_log(tmp_path / "a.db") as (log, db):
        before = log.journal.statements
        log.action(TABLE, 1, 0, 2, Pass(), False)
        log.deadline(TABLE, 1, 1_000.5)  # move 1's deadline: the turn after move 0
        log.action_end(TABLE, 1, 0, 7, [(11, 3), None, None])
        await log.journal.drain()
        assert log.journal.statements - before == 2  # the old game's actions dropped, then the one row
        assert rows(db) == [(0, 2, "[7,[[11,3],null,null]]", 1_000.5)]
        table = stored_table(db)
        assert (table.deadline, table.deadline_move) == (1_000.5, 1)
        assert table.ends[0] is not None and table.ends[0].reply_to == 7


async def test_once_the_row_has_gone_to_the_database_ends_and_deadline_are_updates(tmp_path: Path) -> None:
    async with durable_log(tmp_path / "a.db") as (log, db):
        before = log.journal.statements
        log.action(TABLE, 1, 0, 0, Pass(), False)
        log.action(TABLE, 1, 1, 1, Pass(), False)
        await asyncio.sleep(0)  # the batch is taken: its rows can no longer be filled in
        log.action_end(TABLE, 1, 1, None, [None, (5, 9), None])
        log.deadline(TABLE, 2, 2_000.0)
        await log.journal.drain()
        assert log.journal.statements - before == 3 + 2  # drop, two rows; then two updates
        assert rows(db) == [(0, 0, None, None), (1, 1, "[null,[null,[5,9],null]]", 2_000.0)]
        assert (stored_table(db).deadline, stored_table(db).deadline_move) == (2_000.0, 2)


async def test_a_later_deadline_for_the_same_move_replaces_the_one_in_the_row(tmp_path: Path) -> None:
    # A turn started again (a seat changed hands): the newest deadline is the one a restart uses, and
    # a log that never saw the action (a restarted server) finds the row too.
    async with durable_log(tmp_path / "a.db") as (log, db):
        log.action(TABLE, 1, 0, 0, Pass(), False)
        log.deadline(TABLE, 1, 1_000.0)
        await log.journal.drain()
        log.deadline(TABLE, 1, 1_030.0)
        await log.journal.drain()
        assert stored_table(db).deadline == 1_030.0
        DurableLog(log.journal).deadline(TABLE, 1, 1_060.0)
        await log.journal.drain()
        assert (stored_table(db).deadline, stored_table(db).deadline_move) == (1_060.0, 1)


async def test_a_games_first_deadline_is_in_the_tables_row(tmp_path: Path) -> None:
    async with durable_log(tmp_path / "a.db") as (log, db):
        log.deadline(TABLE, 0, 500.0)
        await log.journal.drain()
        table = stored_table(db)
        assert (table.deadline, table.deadline_move, table.actions) == (500.0, 0, [])
        log.action(TABLE, 1, 0, 0, Pass(), False)  # no deadline with it (a bot's turn next)
        await log.journal.drain()
        table = stored_table(db)
        assert (table.deadline, table.deadline_move) == (500.0, 0)  # for move 0: the restore ignores it
