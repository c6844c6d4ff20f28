"""Issue #24 item 7 on a real server: watching somebody else's bots-only table, the moves come at the
pace of a table with people at it, not at the server's floor for tables nobody plays at."""

from __future__ import annotations

import time

from server_testkit import Player, running_server

PACE = 0.3
"""``bot_delay_seconds`` of the test server."""
MOVES = 6


async def test_a_watcher_of_another_s_bots_only_table_sees_the_moves_paced() -> None:
    async with running_server(bot_delay_seconds=PACE, bots_only_move_seconds=0.02) as server:
        owner = await Player.connect(server.url, "owner")
        wes = await Player.connect(server.url, "wes")
        created = await owner.request(
            type="create_table", game="moon", options={"target": 300}, bots=[0, 1, 2], seat=None
        )
        table_id = created.table.table_id
        assert created.table.bot_delay_ms is None  # its creator asked no pace
        # Nobody watches yet: the bots move at the floor (50 moves a second here), a long game.
        started = time.monotonic()
        snapshot = await wes.request(type="spectate", table_id=table_id)
        assert snapshot.type == "snapshot"
        seen = 0
        while seen < MOVES:
            message = await wes.next()
            if message.type == "event" and message.table_id == table_id:
                seen += message.event.type in ("tile_played", "bid_made", "passed")
        # The server cannot have sent more than one move per PACE since wes watched: a lower bound,
        # which a slow machine only makes easier to meet.
        assert time.monotonic() - started >= (MOVES - 1) * PACE
