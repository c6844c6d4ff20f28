"""A crash and a damaged disk (issue #15, item 11): a damaged write-ahead log gives a warning and keeps a
copy (no silent loss), and a damaged B-tree stops the server with one line."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

from durability_kit import server_on, start_server

from boneyard.server.storage.db import open_database
from boneyard.server.storage.walcheck import check_wal

CRASHING_WRITER = """
import os, sys
from pathlib import Path
from boneyard.server.storage.db import open_database
connection = open_database(Path(sys.argv[1])).connection
connection.execute("PRAGMA wal_autocheckpoint = 0")
for i in range(int(sys.argv[2])):
    sql = "INSERT INTO records (record_id, game, record) VALUES (?, 'moon', ?)"
    connection.execute(sql, (f"r{i}", "x" * 3000))
os._exit(0)  # like kill -9: no close, so no checkpoint; the commits live in the log only
"""


def commits(db: Path, count: int) -> None:
    """``count`` committed records, left in the write-ahead log by a process that dies without closing."""
    subprocess.run([sys.executable, "-c", CRASHING_WRITER, str(db), str(count)], check=True, timeout=30)
    assert db.with_name(db.name + "-wal").stat().st_size > 0


def damage_frame(db: Path, frame: int) -> None:
    wal = db.with_name(db.name + "-wal")
    data = bytearray(wal.read_bytes())
    page_size = int.from_bytes(data[8:12], "big")
    at = 32 + frame * (24 + page_size) + 24 + 100
    data[at : at + 8] = bytes(b ^ 0xFF for b in data[at : at + 8])
    wal.write_bytes(bytes(data))


def test_an_intact_log_is_no_damage_and_a_damaged_frame_is_found(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    commits(db, 6)
    assert check_wal(db) is None
    damage_frame(db, 3)
    damage = check_wal(db)
    assert damage is not None and damage.lost_commits >= 3 and damage.good_frames <= 3


async def test_a_damaged_log_after_a_crash_gives_a_warning_and_keeps_a_copy(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    commits(db, 6)
    damage_frame(db, 3)
    wal = db.with_name("boneyard.db-wal").read_bytes()
    async with server_on(db) as server:
        assert await server.stop(signal.SIGKILL) == -9
        assert server.process.stderr is not None
        err = (await server.process.stderr.read()).decode()
    (warning,) = [line for line in err.splitlines() if "damaged" in line]
    assert "warning" in warning and "lost" in warning, warning
    (copy,) = tmp_path.glob("boneyard.db-wal.damaged-*")
    assert copy.read_bytes() == wal  # nothing lost silently: the whole log is kept for recovery
    assert str(copy) in warning


async def test_a_damaged_btree_stops_the_server_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    database = open_database(db)
    database.connection.executemany(
        "INSERT INTO records (record_id, game, record) VALUES (?, 'moon', ?)",
        [(f"r{i}", "y" * 300) for i in range(300)],
    )
    database.close()
    data = bytearray(db.read_bytes())
    page = 4096
    data[8 * page + 1 : 8 * page + 3] = b"\x0f\xf0"  # a leaf's first free block: quick_check finds it
    db.write_bytes(bytes(data))
    process = await start_server(db)
    _, err = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 1
    lines = err.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boneyard-server: ") and "corrupt" in lines[0], lines
