"""Start-up and exit of the real ``boneyard-server serve`` (issue #15): a server that cannot store exits
non-zero at once and never answers ``/healthz`` with 200."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from durability_kit import server_on, start_server


async def test_a_database_locked_by_another_process_at_start_exits_1_at_once_and_never_serves(
    tmp_path: Path,
) -> None:
    db = tmp_path / "boneyard.db"
    async with server_on(db) as first:  # a real database, then a clean stop
        assert await first.stop() == 0
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write lock: the server's first commit fails
    try:
        process = await start_server(db)
        out, err = await asyncio.wait_for(process.communicate(), 20)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert process.returncode == 1
    assert b"serving" not in out  # it never listened, so no health check could pass
    last = err.decode().strip().splitlines()[-1]  # after the log's "critical" line, one line for the operator
    assert last.startswith("boneyard-server: cannot write to ") and "locked" in last, last
