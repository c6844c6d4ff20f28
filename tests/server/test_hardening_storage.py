"""The database file an operator points at (issue #15): one server per database whatever the path that
names it, nothing left behind by a clean stop, nothing created for a server that cannot start, and a
clear line for a path that cannot be a database."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import pytest
from durability_kit import server_on, start_server

from boneyard.server.storage.db import StorageError, open_database


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
    assert f"cannot serve on 127.0.0.1:{port}" in err.decode()
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
