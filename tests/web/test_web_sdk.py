"""The JavaScript tests (``node --test``): the SDK against a real server started here, the layout drawn,
the lobby's game choices."""

from __future__ import annotations

import asyncio
import os

from browserkit import HERE, node_command
from server_testkit import running_server


async def test_the_javascript_sdk_against_a_real_server() -> None:
    # The deal follows the seats' seeds at once: a long wait costs nothing, and 200 ms could be lost to a
    # stalled process on a loaded machine (the deal made without the seed, the test failing by chance).
    async with running_server(deal_seed_wait_ms=5_000) as server:
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
