"""Stopping: SIGTERM to a ``boneyard-server serve`` subprocess; ``stop()`` in-process. Clients see 1012."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from server_testkit import Player, running_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("uvloop", ["true", "false"])
async def test_sigterm_closes_every_client_with_1012_and_exits_0_within_5_seconds(
    tmp_path: Path, uvloop: str
) -> None:
    env = {
        **os.environ,
        "BONEYARD_UVLOOP": uvloop,  # the default runs on uvloop; the standard loop must work as well
        "BONEYARD_DB": str(tmp_path / "boneyard.db"),
        "BONEYARD_PORT": "1",  # overridden by --port: flags beat the environment
        "BONEYARD_LOG_FORMAT": "json",
        "BONEYARD_BOT_DELAY_SECONDS": "0.01",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "boneyard.server.cli", "serve", "--host", "127.0.0.1", "--port", "0",
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert process.stdout is not None and process.stderr is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 10)).decode().strip()
        assert line.startswith("boneyard: serving ws://127.0.0.1:"), line
        url = line.removeprefix("boneyard: serving ") + "/"
        seated = await Player.connect(url, "ana")
        created = await seated.request(type="create_table", game="moon", seat=0, bots=[1, 2])
        await seated.until(lambda m: m.type == "turn")
        watcher = await Player.connect(url, "wes")
        await watcher.request(type="spectate", table_id=created.table.table_id)
        idle = await Player.connect(url, "idle")
        unidentified = await Player.connect(url, "new", identify=False)

        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        codes = await asyncio.gather(*(p.closed_with(5) for p in (seated, watcher, idle, unidentified)))
        returncode = await asyncio.wait_for(process.wait(), 5)
        assert time.monotonic() - started < 5
        assert codes == [1012, 1012, 1012, 1012]
        assert returncode == 0
        logs = [json.loads(line) for line in (await process.stderr.read()).decode().splitlines() if line]
        assert any(entry["msg"] == "shutting down" for entry in logs)
        loop = "uvloop" if uvloop == "true" else "asyncio"
        assert any(entry["msg"] == f"event loop: {loop}" for entry in logs)
        assert any(entry.get("table_id") == created.table.table_id for entry in logs)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_stop_in_process_closes_clients_with_1012_and_refuses_new_ones() -> None:
    async with running_server() as server:
        player = await Player.connect(server.url, "ana")
        await player.request(type="create_table", game="straight", options={"players": 2}, seat=0, bots=[1])
        url = server.url
        stopping = asyncio.create_task(server.stop())
        assert await player.closed_with(5) == 1012
        await asyncio.wait_for(stopping, 5)
        with pytest.raises(OSError):
            await Player.connect(url, "late")
