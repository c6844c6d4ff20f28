"""A ``boneyard-server serve`` subprocess on a real SQLite file, and what the durability tests check.

The subprocess is the real command line, so a test can ``kill -9`` it, restart it on the same
database, and run ``boneyard-server records export`` on what it left. In-process durable servers
(:func:`durable`) serve the tests that look inside, with commits that can be held (:func:`hold_commits`).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from server_testkit import running_server

from boneyard.server.storage.journal import Journal

ROOT = Path(__file__).resolve().parents[2]


def durable(tmp_path: Path, **overrides: Any) -> Any:
    """An in-process durable server on ``tmp_path/boneyard.db``."""
    return running_server(durable=True, db=tmp_path / "boneyard.db", **overrides)


def query(db: Path, sql: str) -> list[Any]:
    """Rows of a query on the database file, through a connection of its own."""
    connection = sqlite3.connect(db)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def hold_commits(monkeypatch: Any) -> threading.Event:
    """Commits wait while the returned event is clear (it starts set)."""
    gate = threading.Event()
    gate.set()
    commit = Journal._commit

    def held_commit(self: Journal) -> None:
        assert gate.wait(10)
        commit(self)

    monkeypatch.setattr(Journal, "_commit", held_commit)
    return gate


FAST = {
    "BONEYARD_BOT_DELAY_SECONDS": "0.005",
    "BONEYARD_BOTS_ONLY_MOVE_SECONDS": "0.005",
    "BONEYARD_HAND_PAUSE_SECONDS": "0",
    "BONEYARD_COMMANDS_PER_SECOND": "10000",
    "BONEYARD_COMMAND_BURST": "10000",
    "BONEYARD_TABLES_PER_ADDRESS": "10000",
    "BONEYARD_MAX_BOT_TABLES": "10000",
    "BONEYARD_GC_FREEZE_SECONDS": "0",
    "BONEYARD_LOG_LEVEL": "warning",
    # No bot worker process: the basic bots these servers seat think on the loop anyway, and a worker costs
    # each start a fork server's imports and each stop a wait for it (seconds on a loaded machine).
    "BONEYARD_BOT_WORKERS": "0",
}


class ServerProcess:
    """A running ``boneyard-server serve --db PATH``."""

    def __init__(self, process: asyncio.subprocess.Process, url: str) -> None:
        self.process = process
        self.url = url

    async def stop(self, signum: int = signal.SIGTERM) -> int:
        """Send ``signum`` and wait for the exit code."""
        os.kill(self.process.pid, signum)
        return await asyncio.wait_for(self.process.wait(), 10)


async def start_server(
    db: Path | None, *args: str, env: dict[str, str] | None = None
) -> asyncio.subprocess.Process:
    """Start ``serve`` on ``db`` (``None``: no ``--db``; any free port); the caller reads its output."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "boneyard.server.cli", "serve", "--host", "127.0.0.1", "--port", "0",
        *(() if db is None else ("--db", str(db))), *args,
        cwd=ROOT, env={**os.environ, **FAST, **(env or {})},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


@asynccontextmanager
async def server_on(db: Path | None, env: dict[str, str] | None = None) -> AsyncIterator[ServerProcess]:
    """A server on ``db`` (``None``: no ``--db``; ``env``: more settings), killed at the end if the test
    did not stop it."""
    process = await start_server(db, env=env)
    try:
        assert process.stdout is not None and process.stderr is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 20)).decode().strip()
        if not line.startswith("boneyard: serving "):
            raise AssertionError(f"no server: {line!r} {(await process.stderr.read()).decode()}")
        yield ServerProcess(process, line.removeprefix("boneyard: serving ") + "/")
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def run_cli(*args: str) -> tuple[int, str, str]:
    """``boneyard-server ARGS``: exit code, standard output, standard error."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "boneyard.server.cli", *args, cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def export(db: Path, *args: str) -> list[dict[str, Any]]:
    """The records ``records export --db DB`` writes, one per line."""
    code, out, err = await run_cli("records", "export", "--db", str(db), *args)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


ACTION_EVENTS = {"bid_made": "bid", "passed": "pass", "discarded": "discard", "trump_named": "trump"}
ACTION_EVENTS |= {"tile_played": "play", "tile_drawn": "draw"}


def action_key(seat: int, kind: str, tile: Any) -> tuple[int, str, tuple[int, ...] | None]:
    return seat, kind, tuple(tile) if kind == "play" else None


def seen_actions(messages: list[Any], table_id: str) -> list[tuple[int, str, tuple[int, ...] | None]]:
    """The actions a client saw taken at a table (from their events), in order."""
    keys = []
    for m in messages:
        if m.type == "event" and m.table_id == table_id and m.event.type in ACTION_EVENTS:
            event = m.event
            keys.append(action_key(event.seat, ACTION_EVENTS[event.type], getattr(event, "tile", None)))
    return keys


def record_actions(record: dict[str, Any]) -> list[tuple[int, str, tuple[int, ...] | None]]:
    """Every action of a record, in order."""
    return [action_key(a["seat"], a["type"], a.get("tile")) for h in record["hands"] for a in h["actions"]]
