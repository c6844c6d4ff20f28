"""Start-up and exit of the real ``boneyard-server serve`` (issue #15): a server that cannot store exits
non-zero at once and never answers ``/healthz`` with 200."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from durability_kit import ROOT, run_cli, server_on, start_server
from server_testkit import Player, http_get, running_server

from boneyard.server.settings import Settings


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
    (line,) = err.decode().strip().splitlines()  # one line for the operator, no log line before it
    assert line.startswith("boneyard-server: cannot write to ") and "locked" in line, line


async def test_serve_help_and_the_readme_list_every_setting_with_its_variable_and_default() -> None:
    code, out, _ = await run_cli("serve", "--help")
    assert code == 0
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    flat = " ".join(out.split())
    for name, field in Settings.model_fields.items():
        variable = f"BONEYARD_{name.upper()}"
        assert variable in flat, variable
        assert f"`{variable}`" in readme, variable
        assert field.description, f"{name} has no description"
        assert " ".join(field.description.replace("``", "").split())[:40] in flat, name


async def test_an_invalid_value_names_its_variable_and_an_unknown_variable_gets_a_warning(
    tmp_path: Path,
) -> None:
    process = await start_server(tmp_path / "boneyard.db", env={"BONEYARD_MAX_TABLES": "many"})
    _, err = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 2
    (line,) = err.decode().strip().splitlines()
    assert "BONEYARD_MAX_TABLES" in line and "many" not in line.split("BONEYARD_MAX_TABLES")[0], line
    async with server_on(tmp_path / "boneyard.db", env={"BONEYARD_MAX_TABLE": "9"}) as server:
        assert await server.stop() == 0
        assert server.process.stderr is not None
        err = (await server.process.stderr.read()).decode()
    assert "unknown setting BONEYARD_MAX_TABLE" in err and "BONEYARD_MAX_TABLES" in err, err


async def test_the_log_names_the_database_each_disconnect_and_peers_as_host_port(tmp_path: Path) -> None:
    db = tmp_path / "boneyard.db"
    async with server_on(db, env={"BONEYARD_LOG_LEVEL": "info"}) as server:
        player = await Player.connect(server.url, "ana")
        port = player.ws.local_address[1]
        await player.close()
        await asyncio.sleep(0.2)
        assert await server.stop() == 0
        assert server.process.stderr is not None
        err = (await server.process.stderr.read()).decode()
    assert f"database {db}" in err, err
    assert f"127.0.0.1:{port}" in err and "('127.0.0.1'" not in err, err
    (gone,) = [line for line in err.splitlines() if "disconnected" in line]
    assert "1000" in gone, gone


async def test_an_unknown_path_answers_404_and_the_websocket_path_426_without_an_upgrade() -> None:
    async with running_server(web=False) as server:  # with the browser client on, / is its page
        status, body = await http_get(server.port, "/favicon.ico")
        assert status == 404 and "/healthz" in body
        assert (await http_get(server.port, "/"))[0] == 426
        assert (await http_get(server.port, "/healthz"))[0] == 200


NOT_LIMITS = {"host", "port", "log_level", "log_format", "durable", "seed", "uvloop", "gc_freeze_seconds"}
NOT_LIMITS |= {"web", "lobby_push_seconds", "bot_delay_seconds", "records_in_memory", "db"}


def test_operations_lists_every_limit_with_its_setting() -> None:
    text = (ROOT / "docs" / "OPERATIONS.md").read_text(encoding="utf-8")
    limits = text.split("\n## ")[0]  # the guides to TLS, backups and records follow it
    assert len(limits.splitlines()) < 40  # one screen
    for name in Settings.model_fields:
        if name not in NOT_LIMITS:
            assert f"`{name.upper()}`" in text, name
