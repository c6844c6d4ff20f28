"""The JavaScript tests (``node --test``): the SDK against a real server started here, the layout drawn,
the lobby's game choices."""

from __future__ import annotations

import asyncio
import os

from browserkit import HERE, node_command
from server_testkit import running_server


async def test_the_javascript_sdk_against_a_real_server() -> None:
    async with running_server(deal_seed_wait_ms=200) as server:
        process = await asyncio.create_subprocess_exec(
            *node_command(HERE / "sdk.test.mjs", HERE / "layout.test.mjs", HERE / "games.test.mjs"),
            env={**os.environ, "BONEYARD_URL": server.url},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        out, _ = await asyncio.wait_for(process.communicate(), 90)
    report = out.decode()
    assert process.returncode == 0, report
    assert "# fail 0" in report and "# pass 12" in report, report
