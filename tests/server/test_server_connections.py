"""The connection cap (issue #15, item 10): derived from the descriptor limit with headroom, so that a full
server still answers 4007 and ``/healthz``; sockets still in their HTTP handshake count toward it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import sys
from pathlib import Path

import websockets
from durability_kit import FAST, ROOT
from server_testkit import Player, http_get, running_server

from boneyard.server.machine import connection_cap


def test_the_default_cap_leaves_headroom_below_the_descriptor_limit() -> None:
    for limit in (256, 1024, 20_000, 1_048_576):
        cap = connection_cap(None, limit)
        assert 1 <= cap <= limit - 64 and cap <= limit * 0.8 + 1, (limit, cap)
    assert connection_cap(500, 1024) == 500  # a setting wins, within the limit
    assert connection_cap(5_000, 1024) == connection_cap(None, 1024)  # never past what the descriptors allow


async def test_sockets_in_their_http_handshake_count_toward_the_cap() -> None:
    async with running_server(max_connections=3) as server:
        slow = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(3)]  # send nothing yet
        try:
            await asyncio.sleep(0.1)
            async with websockets.connect(server.url, subprotocols=["boneyard.v1"]) as late:  # type: ignore[list-item]
                with contextlib.suppress(websockets.ConnectionClosed):
                    await asyncio.wait_for(late.recv(), 5)
                assert late.close_code == 4007
            assert (await http_get(server.port, "/healthz"))[0] == 200  # health checks pass the cap
        finally:
            for _, writer in slow:
                writer.close()


def _low_descriptor_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (160, 160))


async def test_a_server_at_its_descriptor_derived_cap_answers_4007_and_healthz(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "boneyard.server.cli", "serve", "--host", "127.0.0.1", "--port", "0",
        "--db", str(tmp_path / "boneyard.db"), "--log-level", "info",
        # A bot worker, as by default: its pipes take descriptors from the same limit.
        cwd=ROOT, env={**os.environ, **FAST, "BONEYARD_LOG_LEVEL": "info", "BONEYARD_BOT_WORKERS": "1"},
        preexec_fn=_low_descriptor_limit,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    players: list[Player] = []
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 20)).decode().strip()
        url = line.removeprefix("boneyard: serving ") + "/"
        port = int(url.rsplit(":", 1)[1].strip("/"))
        cap = connection_cap(None, 160)
        players = [await Player.connect(url, f"p{i}") for i in range(cap)]
        for _ in range(5):  # beyond the cap: the documented close, not a failed handshake
            async with websockets.connect(url, subprotocols=["boneyard.v1"]) as extra:  # type: ignore[list-item]
                with contextlib.suppress(websockets.ConnectionClosed):
                    await asyncio.wait_for(extra.recv(), 5)
                assert extra.close_code == 4007
        assert await http_get(port, "/healthz") == (200, "ok\n")
        assert (await players[0].request(type="ping")).type == "pong"
    finally:
        for player in players:
            await player.close()
        process.terminate()
        _, err = await asyncio.wait_for(process.communicate(), 20)
    assert f"max_connections {cap} (descriptor limit 160)" in err.decode()
